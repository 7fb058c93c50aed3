package schema

// The one table of the vector functions: each function's name, its inputs
// (by JSON name, in call order) and what its tests answer. The JSON Schema
// (GenerateJSONSchema, committed as vectors.schema.json), the lint, the
// -cases kinds (package userpoints of cmd/gen-vectors), the CLI's -mech forms and the README's
// kind table are derived from it; a function removed here is forgotten by
// all of them (TestForgetFunction and its kin in those packages).
//
// What it does not hold is code: how each function is computed lives in
// reference and fast, which both check their inputs against the domains
// written in doc.go (the module's root) (fast must not import what it is measured against,
// so the checks are written twice on purpose, and rdp's TestContract runs
// each row through both).

import "slices"

// InputKind is how an input is written in a test.
type InputKind int

const (
	// Float is a float64 written twice: NAME (shortest decimal) and
	// NAMEHex.
	Float InputKind = iota
	// FloatList is a list of float64, written as NAME and NAMEHex lists.
	FloatList
	// Int is a JSON integer.
	Int
	// IntList is a list of JSON integers.
	IntList
	// Text is a string, one of Input.Enum.
	Text
	// PhaseList is a run: a list of Phase objects.
	PhaseList
	// DpEvent is one dp_accounting DpEvent, written as JSON in the form
	// of DpEvent.to_named_tuple() (see DpEventClasses).
	DpEvent
)

// Input is one input name, with the same meaning in every function that
// takes it.
type Input struct {
	Name string
	Kind InputKind
	Doc  string
	// Enum lists the values of a Text input.
	Enum []string
	// Ref, if set, names the $defs entry describing the input instead.
	Ref string
}

// Inputs are every input name of the vector files, in the order a test
// writes them.
var Inputs = []Input{
	{Name: "q", Kind: Float, Doc: "sampling rate"},
	{Name: "sigma", Kind: Float, Doc: "noise multiplier (standard deviation over l2-sensitivity)"},
	{Name: "alpha", Kind: Float, Doc: "Renyi order"},
	{Name: "b", Kind: Float, Doc: "Laplace scale (l1-sensitivity 1)"},
	{Name: "p", Kind: Float, Doc: "randomized response: probability of reporting the true bit"},
	{Name: "mean1", Kind: Float, Doc: "GaussianDivergence: the first normal's mean"},
	{Name: "sd1", Kind: Float, Doc: "GaussianDivergence: the first normal's standard deviation"},
	{Name: "mean2", Kind: Float, Doc: "GaussianDivergence: the second normal's mean"},
	{Name: "sd2", Kind: Float, Doc: "GaussianDivergence: the second normal's standard deviation"},
	{Name: "distP", Kind: FloatList, Doc: "first distribution, D(P || Q)"},
	{Name: "distQ", Kind: FloatList, Doc: "second distribution"},
	{Name: "steps", Kind: Int, Doc: "number of compositions (RDP adds up)"},
	{Name: "delta", Kind: Float, Doc: "the delta of (eps, delta)-DP"},
	{Name: "eps", Kind: Float, Doc: "an epsilon: of (eps, delta)-DP, of pure DP, or of the mechanism"},
	{Name: "orders", Kind: FloatList, Doc: "Renyi orders"},
	{Name: "rdp", Kind: FloatList, Doc: "RDP at each order, taken exactly as given"},
	{Name: "conversion", Kind: Text, Ref: "conversion", Enum: []string{"classic", "improved"}},
	{Name: "noise", Kind: Float, Doc: "k-ary randomized response: probability of replacing the true bucket by a uniform one"},
	{Name: "buckets", Kind: Float, Doc: "k-ary randomized response: number of buckets k (an integer >= 2)"},
	{Name: "relation", Kind: Text, Enum: []string{"replace-one", "replace-special"}, Doc: "k-ary randomized response: replace-one (neighbour: another true bucket) or replace-special (neighbour: a special value with uniform output; the larger of both directions)"},
	{Name: "rho", Kind: Float, Doc: "zCDP: rho"},
	{Name: "xi", Kind: Float, Doc: "zCDP: xi"},
	{Name: "c", Kind: Int, Doc: "group privacy: groups of 2^c records"},
	{Name: "sensitivity", Kind: Float, Doc: "discrete Gaussian: the integer sensitivity D (the means 0 and D)"},
	{Name: "trees", Kind: IntList, Doc: "tree aggregation: the number of steps (leaves) of each restarted tree"},
	{Name: "restarts", Kind: Text, Enum: []string{"one-tree", "every-tree"}, Doc: "tree aggregation: one-tree (a record in one tree only, dp_accounting) or every-tree (a record in every restarted tree, TF Privacy's compute_rdp_tree_restart)"},
	{Name: "maxParticipation", Kind: Int, Doc: "tree without restarts: the most leaves a record contributes to"},
	{Name: "minSeparation", Kind: Int, Doc: "tree without restarts: the fewest leaves between two of a record's leaves"},
	{Name: "mean", Kind: Float, Doc: "repeat-and-select: the mean number of runs (>= 1)"},
	{Name: "shape", Kind: Float, Doc: "repeat-and-select: the shape eta of the truncated negative binomial number of runs (0 logarithmic, 1 geometric), inf for Poisson"},
	{Name: "base", Kind: FloatList, Doc: "PoissonBound, WORBound: the base mechanism's RDP at orders 2, 3, ... (base[k] at order k+2)"},
	{Name: "baseInf", Kind: Float, Doc: "WORBound: the base mechanism's RDP at order +inf (inf where unknown)"},
	{Name: "phases", Kind: PhaseList, Doc: "ProfileEpsilon, ProfileDelta: the run, phase after phase"},
	{Name: "event", Kind: DpEvent, Ref: "dpEvent", Doc: "EventEpsilon, EventDelta: the run, as one dp_accounting DpEvent (its to_named_tuple() form: class_name and the class's fields as dp_accounting names them, nested events as objects)"},
	{Name: "neighboringRelation", Kind: Text, Enum: []string{"ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL"}, Doc: "EventEpsilon, EventDelta: dp_accounting's NeighboringRelation, the accountant's neighboring_relation"},
}

// The vector functions' names; Functions gives each its inputs.
const (
	SGM                = "SGM"
	SGMCurve           = "SGMCurve"
	Gaussian           = "Gaussian"
	Laplace            = "Laplace"
	RandomizedResponse = "RandomizedResponse"
	GaussianDivergence = "GaussianDivergence"
	Divergence         = "Divergence"
	Epsilon            = "Epsilon"
	Delta              = "Delta"
	DPSGDEpsilon       = "DPSGDEpsilon"
	SampledLaplace     = "SampledLaplace"
	SampledDivergence  = "SampledDivergence"
	WORGaussian        = "WORGaussian"

	// The events of dp_accounting's other classes.
	KaryRandomizedResponse = "KaryRandomizedResponse"
	PureDP                 = "PureDP"
	ZCDP                   = "ZCDP"
	ExponentialMechanism   = "ExponentialMechanism"
	GroupPrivacy           = "GroupPrivacy"

	// Tight zCDP parameters (Harrison and Manurangsi 2025).
	LaplaceZCDP      = "LaplaceZCDP"
	KaryRRZCDP       = "KaryRRZCDP"
	RAPPORZCDP       = "RAPPORZCDP"
	BoundedRangeZCDP = "BoundedRangeZCDP"
	// The discrete Gaussian, tree aggregation and repeat-and-select.
	DiscreteGaussian       = "DiscreteGaussian"
	TreeAggregation        = "TreeAggregation"
	TreeMultiParticipation = "TreeMultiParticipation"
	RepeatAndSelect        = "RepeatAndSelect"

	// The general subsampling bounds, from a base curve at orders 2, 3, ...
	PoissonBound = "PoissonBound"
	WORBound     = "WORBound"

	// The optimal privacy profile of a run of phases of the
	// Poisson-subsampled Gaussian (add/remove neighbours), whatever the
	// accounting method: tests give a certified interval [lower, upper]
	// (package pld), not an exact value.
	ProfileEpsilon = "ProfileEpsilon"
	ProfileDelta   = "ProfileDelta"

	// The optimal privacy profile of a run given as a dp_accounting
	// DpEvent under a neighbouring relation, as dp_accounting's
	// PLDAccountant composes it, whatever the accounting method: a
	// certified interval (packages dpevent and pld).
	EventEpsilon = "EventEpsilon"
	EventDelta   = "EventDelta"
)

// Function is one vector function.
type Function struct {
	Name string
	// Inputs are its inputs' names, in call order.
	Inputs []string
	// Doc says what it computes, in a line.
	Doc string
	// Order: its tests also give expectedOrder (the conversions).
	Order bool
	// Interval: its tests give a certified interval (lower, upper)
	// instead of an exact expected value.
	Interval bool
	// GroupOrders: a group may give orders once for all its tests.
	GroupOrders bool
}

// Functions are the vector functions, in the order of the files.
var Functions = []Function{
	{Name: SGM, Inputs: []string{"q", "sigma", "alpha"}, Doc: "RDP of one step of the Poisson-subsampled Gaussian (add/remove)"},
	{Name: SGMCurve, Inputs: []string{"q", "sigma", "steps", "alpha"}, Doc: "steps * SGM"},
	{Name: Gaussian, Inputs: []string{"sigma", "alpha"}, Doc: "the Gaussian mechanism, alpha / (2 sigma^2)"},
	{Name: Laplace, Inputs: []string{"b", "alpha"}, Doc: "the Laplace mechanism (Mironov 2017, Prop 6)"},
	{Name: RandomizedResponse, Inputs: []string{"p", "alpha"}, Doc: "binary randomized response (Mironov 2017, Prop 5)"},
	{Name: GaussianDivergence, Inputs: []string{"mean1", "sd1", "mean2", "sd2", "alpha"}, Doc: "D_alpha between two normals"},
	{Name: Divergence, Inputs: []string{"distP", "distQ", "alpha"}, Doc: "D_alpha between two discrete distributions"},
	{Name: Epsilon, Inputs: []string{"orders", "rdp", "delta", "conversion"}, Order: true, Doc: "an RDP curve converted to eps at delta"},
	{Name: Delta, Inputs: []string{"orders", "rdp", "eps", "conversion"}, Order: true, Doc: "an RDP curve converted to delta at eps"},
	{Name: DPSGDEpsilon, Inputs: []string{"q", "sigma", "steps", "delta", "orders", "conversion"}, Order: true, GroupOrders: true, Doc: "eps of steps SGM steps at delta"},
	{Name: SampledLaplace, Inputs: []string{"q", "b", "alpha"}, Doc: "exact RDP of the Poisson-subsampled Laplace mechanism"},
	{Name: SampledDivergence, Inputs: []string{"q", "distP", "distQ", "alpha"}, Doc: "exact RDP of a Poisson-subsampled discrete mechanism"},
	{Name: WORGaussian, Inputs: []string{"q", "sigma", "alpha"}, Doc: "a bound: the Gaussian sampled without replacement (WBK19 Thm 27)"},
	{Name: KaryRandomizedResponse, Inputs: []string{"noise", "buckets", "relation", "alpha"}, Doc: "k-ary randomized response"},
	{Name: PureDP, Inputs: []string{"eps", "alpha"}, Doc: "the tight RDP curve of eps-DP"},
	{Name: ZCDP, Inputs: []string{"rho", "xi", "alpha"}, Doc: "xi + rho alpha"},
	{Name: ExponentialMechanism, Inputs: []string{"eps", "alpha"}, Doc: "the bounded-range bound of the exponential mechanism"},
	{Name: GroupPrivacy, Inputs: []string{"orders", "rdp", "c", "alpha"}, Doc: "RDP for groups of 2^c records (Mironov 2017, Prop 2)"},
	{Name: LaplaceZCDP, Inputs: []string{"eps"}, Doc: "tight zCDP rho of the Laplace mechanism (HM25)"},
	{Name: KaryRRZCDP, Inputs: []string{"eps", "buckets"}, Doc: "tight zCDP rho of k-ary randomized response, buckets 2..6 (HM25)"},
	{Name: RAPPORZCDP, Inputs: []string{"eps"}, Doc: "tight zCDP rho of RAPPOR (HM25)"},
	{Name: BoundedRangeZCDP, Inputs: []string{"eps"}, Doc: "tight zCDP rho of bounded-range mechanisms (HM25)"},
	{Name: DiscreteGaussian, Inputs: []string{"sigma", "sensitivity", "alpha"}, Doc: "the discrete Gaussian's exact divergence"},
	{Name: TreeAggregation, Inputs: []string{"sigma", "trees", "restarts", "alpha"}, Doc: "tree aggregation with restarts (DP-FTRL)"},
	{Name: TreeMultiParticipation, Inputs: []string{"sigma", "steps", "maxParticipation", "minSeparation", "alpha"}, Doc: "tree aggregation without restarts, several participations"},
	{Name: RepeatAndSelect, Inputs: []string{"orders", "rdp", "mean", "shape", "alpha"}, Doc: "repeat-and-select (Papernot and Steinke 2022)"},
	{Name: PoissonBound, Inputs: []string{"q", "base", "alpha"}, Doc: "Zhu and Wang's general bound for Poisson sampling"},
	{Name: WORBound, Inputs: []string{"q", "base", "baseInf", "alpha"}, Doc: "the general bound for sampling without replacement (WBK19 Thm 9)"},
	{Name: ProfileEpsilon, Inputs: []string{"phases", "delta"}, Interval: true, Doc: "the optimal eps of a run (a certified interval)"},
	{Name: ProfileDelta, Inputs: []string{"phases", "eps"}, Interval: true, Doc: "the optimal delta of a run (a certified interval)"},
	{Name: EventEpsilon, Inputs: []string{"event", "neighboringRelation", "delta"}, Interval: true, Doc: "the optimal eps of a dp_accounting DpEvent (a certified interval)"},
	{Name: EventDelta, Inputs: []string{"event", "neighboringRelation", "eps"}, Interval: true, Doc: "the optimal delta of a dp_accounting DpEvent (a certified interval)"},
}

// Lookup returns the function named name in fns, or nil.
func Lookup(fns []Function, name string) *Function {
	for i := range fns {
		if fns[i].Name == name {
			return &fns[i]
		}
	}
	return nil
}

// InputOf returns the input named name, or nil.
func InputOf(name string) *Input {
	for i := range Inputs {
		if Inputs[i].Name == name {
			return &Inputs[i]
		}
	}
	return nil
}

// Takes reports whether f takes the input name.
func (f *Function) Takes(name string) bool { return slices.Contains(f.Inputs, name) }

// IsProfile reports whether tests of fn carry a certified interval
// (lower, upper) instead of an exact expected value.
func IsProfile(fn string) bool {
	f := Lookup(Functions, fn)
	return f != nil && f.Interval
}
