// Package userpoints answers reference queries at a user's own points: each
// input line is a JSON object naming a function of the vector files and its
// inputs, and the answer is the line with package reference's value (50
// significant digits) and package fast's added. It is what
// `gen-vectors -cases` runs (RunVectors for `-format vectors`, which writes
// the same lines as a vector file), and ReferenceEpsilon is what `rdpcheck
// epsilon -reference` prints.
//
// # Input lines
//
// A line is {"kind": FUNCTION, INPUTS...}, FUNCTION one of the functions of
// vectors/*.json and INPUTS named as in those files:
//
//	SGM                 q, sigma, alpha
//	SGMCurve            q, sigma, steps, alpha           (steps * SGM)
//	Gaussian            sigma, alpha
//	Laplace             b, alpha
//	RandomizedResponse  p, alpha
//	GaussianDivergence  mean1, sd1, mean2, sd2, alpha
//	Divergence          distP, distQ, alpha
//	Epsilon             orders, rdp, delta, conversion
//	Delta               orders, rdp, eps, conversion
//	DPSGDEpsilon        q, sigma, steps, delta, orders, conversion
//	SampledLaplace      q, b, alpha
//	SampledDivergence   q, distP, distQ, alpha
//	WORGaussian         q, sigma, alpha                  (a bound: WBK19 Thm 27)
//	KaryRandomizedResponse  noise, buckets, relation, alpha
//	PureDP              eps, alpha
//	ZCDP                rho, xi, alpha
//	ExponentialMechanism    eps, alpha
//	GroupPrivacy        orders, rdp, c, alpha
//	LaplaceZCDP         eps                              (tight zCDP rho, HM25)
//	KaryRRZCDP          eps, buckets                     (buckets 2..6)
//	RAPPORZCDP          eps
//	BoundedRangeZCDP    eps
//	DiscreteGaussian    sigma, sensitivity, alpha
//	TreeAggregation     sigma, trees, restarts, alpha
//	TreeMultiParticipation  sigma, steps, maxParticipation, minSeparation, alpha
//	RepeatAndSelect     orders, rdp, mean, shape, alpha
//	PoissonBound        q, base, alpha                   (base: RDP at orders 2, 3, ...)
//	WORBound            q, base, baseInf, alpha          (baseInf: RDP at +inf, "inf" if unknown)
//	ProfileEpsilon      phases, delta                    (the optimal eps of a run: a certified interval)
//	ProfileDelta        phases, eps                      (the optimal delta of a run: a certified interval)
//	EventEpsilon        event, neighboringRelation, delta    (the optimal eps of a DpEvent: a certified interval)
//	EventDelta          event, neighboringRelation, eps      (the optimal delta of a DpEvent: a certified interval)
//
// A number is a JSON number or a string as the vector files write inputs: a
// decimal, a hex float, "inf", "-inf" or "nan"; steps is an integer (a whole
// JSON number: 10000 or 1e4, not 2.5); distP,
// distQ, orders, rdp and base are lists of numbers; conversion is "classic" or
// "improved" (the default); relation is "replace-one" or "replace-special";
// c is an integer; trees is a list of integers, restarts "one-tree" or
// "every-tree", maxParticipation and minSeparation integers; phases is a
// list of objects {"q": Q, "sigma": S, "steps": N} (the run of the
// Poisson-subsampled Gaussian, phase after phase, add/remove neighbours);
// event is a dp_accounting DpEvent object as the vector files write it
// ("class_name" and its fields; see schema.DpEventClasses) and
// neighboringRelation "ADD_OR_REMOVE_ONE", "REPLACE_ONE" or
// "REPLACE_SPECIAL". ProfileEpsilon, ProfileDelta, EventEpsilon and
// EventDelta answer "lower" and "upper", a certified
// interval around the optimal value (package pld; "warning" says so when
// it is wider than pld's default width). The others add "reference" (a decimal string
// with 50 significant digits, or "inf") and "fast" (a JSON number, or
// "inf"); Epsilon, Delta and DPSGDEpsilon add the orders that attain them,
// "order" and "order_fast". A fast error is "fast_error"; a rejected input
// (or a malformed line) is "error", and the line has no values. A line is
// malformed when it is not one JSON object, gives a key twice, lacks an input
// or has a key its kind does not take (the error names the key and lists the
// kind's keys).
//
// Two older forms keep working: {"q", "sigma", "alpha"} (kind "rdp", the
// same as SGM) and {"kind": "epsilon", "q", "sigma", "steps", "delta",
// "orders"}, DPSGDEpsilon with the improved conversion, answered with
// "epsilon_reference", "order", "epsilon_fast" and "order_fast".
package userpoints

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/workers"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/gen"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

// Args are a line's inputs, by the names of the vector files.
type Args struct {
	Q, Sigma, Alpha, B, P     float64
	Mean1, SD1, Mean2, SD2    float64
	Delta, Eps                float64
	Steps                     int
	DistP, DistQ, Orders, RDP []float64
	Conversion                reference.Conversion
	Noise, Buckets, Rho, Xi   float64
	Relation                  string
	C                         int
	// The discrete Gaussian, tree aggregation and repeat-and-select.
	Sensitivity, Mean, Shape        float64
	Trees                           []int
	Restarts                        string
	MaxParticipation, MinSeparation int
	// The base curve of PoissonBound and WORBound (Base[k] at order k+2)
	// and WORBound's value at order +Inf.
	Base    []float64
	BaseInf float64
	// The run of ProfileEpsilon and ProfileDelta.
	Phases []schema.RunPhase
	// The run of EventEpsilon and EventDelta: a DpEvent as compact JSON
	// (checked by schema.CheckDpEvent) and dp_accounting's relation.
	Event               []byte
	NeighboringRelation string
}

// A Kind is one function: its inputs and how to compute it.
type Kind struct {
	Name   string
	Inputs []string
	// Reference computes the value (and, for conversions, the order) at
	// c's precision.
	Reference func(c reference.Context, a *Args) (v *big.Float, order float64, err error)
	// Fast computes the value with package fast.
	Fast func(a *Args) (v, order float64, err error)
	// HasOrder is set for the conversions, which also answer the order.
	HasOrder bool
	// Interval, set instead of Reference and Fast for the profile
	// functions, computes a certified interval around the value; an
	// error wrapping pld.ErrPrecision comes with a certified interval
	// wider than asked.
	Interval func(a *Args) (pld.Interval, error)
}

func pldPhases(run []schema.RunPhase) []pld.Phase {
	out := make([]pld.Phase, len(run))
	for i, p := range run {
		out[i] = pld.Phase{Q: p.Q, Sigma: p.Sigma, Steps: p.Steps}
	}
	return out
}

// bigCurve is a line's rdp values as the reference takes them; a NaN,
// which a big.Float cannot hold, is refused as the reference refuses a
// negative value.
func bigCurve(fn string, rdp []float64) ([]*big.Float, error) {
	for i, v := range rdp {
		if math.IsNaN(v) {
			return nil, &reference.InputError{Func: fn, Arg: fmt.Sprintf("rdp[%d]", i), Value: v, Msg: "RDP must be >= 0 (or +Inf)"}
		}
	}
	return gen.BigList(rdp), nil
}

func value(v *big.Float, err error) (*big.Float, float64, error) { return v, math.NaN(), err }
func fvalue(v float64, err error) (float64, float64, error)      { return v, math.NaN(), err }

// Kinds are the functions a line may name: the vector functions of the
// schema's table (schema.Functions), in its order, with their inputs and
// whether they answer an order taken from it.
var Kinds = kindsFor(schema.Functions)

// kindsFor makes the kinds of the functions fns, each with the code of
// computations; a function the table has and computations lacks panics
// (TestKindsCoverTable).
func kindsFor(fns []schema.Function) []*Kind {
	var out []*Kind
	for _, f := range fns {
		c, ok := computations[f.Name]
		if !ok {
			panic("cases: no computation for vector function " + f.Name)
		}
		k := *c
		k.Name, k.Inputs, k.HasOrder = f.Name, f.Inputs, f.Order
		out = append(out, &k)
	}
	return out
}

// computations are how each vector function is computed, by name; its
// inputs come from the table.
var computations = map[string]*Kind{
	schema.SGM: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.SGM(a.Q, a.Sigma, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.SGM(a.Q, a.Sigma, a.Alpha)) }},
	schema.SGMCurve: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			v, err := c.SGMCurve(a.Q, a.Sigma, a.Steps, []float64{a.Alpha})
			if err != nil {
				return nil, 0, err
			}
			return v[0], math.NaN(), nil
		},
		Fast: func(a *Args) (float64, float64, error) {
			out := make([]float64, 1)
			err := fast.SGMCurve(a.Q, a.Sigma, a.Steps, []float64{a.Alpha}, out)
			return out[0], math.NaN(), err
		}},
	schema.Gaussian: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.Gaussian(a.Sigma, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.Gaussian(a.Sigma, a.Alpha)) }},
	schema.Laplace: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) { return value(c.Laplace(a.B, a.Alpha)) },
		Fast:      func(a *Args) (float64, float64, error) { return fvalue(fast.Laplace(a.B, a.Alpha)) }},
	schema.RandomizedResponse: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.RandomizedResponse(a.P, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.RandomizedResponse(a.P, a.Alpha)) }},
	schema.GaussianDivergence: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.GaussianDivergence(a.Mean1, a.SD1, a.Mean2, a.SD2, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.GaussianDivergence(a.Mean1, a.SD1, a.Mean2, a.SD2, a.Alpha))
		}},
	schema.Divergence: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.Divergence(a.DistP, a.DistQ, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.Divergence(a.DistP, a.DistQ, a.Alpha)) }},
	schema.Epsilon: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			curve, err := bigCurve(schema.Epsilon, a.RDP)
			if err != nil {
				return nil, 0, err
			}
			return c.Epsilon(a.Orders, curve, a.Delta, a.Conversion)
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fast.Epsilon(a.Orders, a.RDP, a.Delta, a.Conversion)
		}},
	schema.Delta: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			curve, err := bigCurve(schema.Delta, a.RDP)
			if err != nil {
				return nil, 0, err
			}
			return c.Delta(a.Orders, curve, a.Eps, a.Conversion)
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fast.Delta(a.Orders, a.RDP, a.Eps, a.Conversion)
		}},
	schema.DPSGDEpsilon: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return dpevent.DPSGDReferenceEpsilon(c, dpsgdPhase(a), a.Orders, a.Delta, a.Conversion, nil)
		},
		Fast: func(a *Args) (float64, float64, error) {
			p, err := dpevent.DPSGD([]dpevent.Phase{dpsgdPhase(a)}, false)
			if err != nil {
				return 0, 0, err
			}
			if len(a.Orders) == 0 {
				// nil would ask the plan for the best order
				return 0, 0, &rdpcheck.InputError{Pkg: "userpoints", Func: "DPSGDEpsilon", Arg: "orders", Value: math.NaN(), Msg: "must not be empty"}
			}
			r, err := p.Epsilon(a.Delta, a.Orders, a.Conversion)
			if err != nil {
				return 0, 0, err
			}
			return r.Epsilon, r.Order, nil
		}},
	schema.SampledLaplace: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.SampledLaplace(a.Q, a.B, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.SampledLaplace(a.Q, a.B, a.Alpha)) }},
	schema.SampledDivergence: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.SampledDivergence(a.Q, a.DistP, a.DistQ, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.SampledDivergence(a.Q, a.DistP, a.DistQ, a.Alpha))
		}},
	schema.WORGaussian: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.WORGaussian(a.Q, a.Sigma, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.WORGaussian(a.Q, a.Sigma, a.Alpha)) }},
	schema.KaryRandomizedResponse: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.KaryRandomizedResponse(a.Noise, a.Buckets, a.Relation, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.KaryRandomizedResponse(a.Noise, a.Buckets, a.Relation, a.Alpha))
		}},
	schema.PureDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.PureDP(a.Eps, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.PureDP(a.Eps, a.Alpha)) }},
	schema.ZCDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.ZCDP(a.Rho, a.Xi, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.ZCDP(a.Rho, a.Xi, a.Alpha)) }},
	schema.ExponentialMechanism: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.ExponentialMechanism(a.Eps, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.ExponentialMechanism(a.Eps, a.Alpha)) }},
	schema.GroupPrivacy: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			curve, err := bigCurve(schema.GroupPrivacy, a.RDP)
			if err != nil {
				return nil, 0, err
			}
			return value(c.GroupPrivacy(a.Orders, curve, a.C, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.GroupPrivacy(a.Orders, a.RDP, a.C, a.Alpha))
		}},
	schema.LaplaceZCDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) { return value(c.LaplaceZCDP(a.Eps)) },
		Fast:      func(a *Args) (float64, float64, error) { return fvalue(fast.LaplaceZCDP(a.Eps)) }},
	schema.KaryRRZCDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.KaryRRZCDP(a.Eps, a.Buckets))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.KaryRRZCDP(a.Eps, a.Buckets)) }},
	schema.RAPPORZCDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) { return value(c.RAPPORZCDP(a.Eps)) },
		Fast:      func(a *Args) (float64, float64, error) { return fvalue(fast.RAPPORZCDP(a.Eps)) }},
	schema.BoundedRangeZCDP: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.BoundedRangeZCDP(a.Eps))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.BoundedRangeZCDP(a.Eps)) }},
	schema.DiscreteGaussian: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.DiscreteGaussian(a.Sigma, a.Sensitivity, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.DiscreteGaussian(a.Sigma, a.Sensitivity, a.Alpha))
		}},
	schema.TreeAggregation: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.TreeAggregation(a.Sigma, a.Trees, rdpcheck.ParseTreeRestarts(a.Restarts), a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.TreeAggregation(a.Sigma, a.Trees, rdpcheck.ParseTreeRestarts(a.Restarts), a.Alpha))
		}},
	schema.TreeMultiParticipation: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.TreeMultiParticipation(a.Sigma, a.Steps, a.MaxParticipation, a.MinSeparation, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.TreeMultiParticipation(a.Sigma, a.Steps, a.MaxParticipation, a.MinSeparation, a.Alpha))
		}},
	schema.RepeatAndSelect: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			curve, err := bigCurve(schema.RepeatAndSelect, a.RDP)
			if err != nil {
				return nil, 0, err
			}
			return value(c.RepeatAndSelect(a.Orders, curve, a.Mean, a.Shape, a.Alpha))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.RepeatAndSelect(a.Orders, a.RDP, a.Mean, a.Shape, a.Alpha))
		}},
	schema.PoissonBound: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.PoissonBound(a.Q, a.Alpha, a.Base))
		},
		Fast: func(a *Args) (float64, float64, error) { return fvalue(fast.PoissonBound(a.Q, a.Alpha, a.Base)) }},
	schema.WORBound: {
		Reference: func(c reference.Context, a *Args) (*big.Float, float64, error) {
			return value(c.WORBound(a.Q, a.Alpha, rdpcheck.BaseCurve{Eps: a.Base, Inf: a.BaseInf}))
		},
		Fast: func(a *Args) (float64, float64, error) {
			return fvalue(fast.WORBound(a.Q, a.Alpha, rdpcheck.BaseCurve{Eps: a.Base, Inf: a.BaseInf}))
		}},
	schema.ProfileEpsilon: {
		Interval: func(a *Args) (pld.Interval, error) { return pld.SGMEpsilon(pldPhases(a.Phases), a.Delta) }},
	schema.ProfileDelta: {
		Interval: func(a *Args) (pld.Interval, error) { return pld.SGMDelta(pldPhases(a.Phases), a.Eps) }},
	schema.EventEpsilon: {
		Interval: func(a *Args) (pld.Interval, error) {
			return gen.EventInterval(schema.EventEpsilon, a.Event, a.NeighboringRelation, a.Delta, pld.Options{})
		}},
	schema.EventDelta: {
		Interval: func(a *Args) (pld.Interval, error) {
			return gen.EventInterval(schema.EventDelta, a.Event, a.NeighboringRelation, a.Eps, pld.Options{})
		}},
}

// legacyEpsilon is the older {"kind": "epsilon"} form: DPSGDEpsilon with
// the improved conversion, whose answer fields are named epsilon_*.
const legacyEpsilon = "epsilon"

// KindNames lists the names Kind accepts, including the older forms.
func KindNames() []string {
	names := make([]string, 0, len(Kinds)+2)
	for _, k := range Kinds {
		names = append(names, k.Name)
	}
	return append(names, "rdp", legacyEpsilon)
}

// Lookup finds a kind by name; "" and "rdp" are SGM, "epsilon" is
// DPSGDEpsilon.
func Lookup(name string) (*Kind, error) {
	switch name {
	case "", "rdp":
		name = schema.SGM
	case legacyEpsilon:
		name = schema.DPSGDEpsilon
	}
	for _, k := range Kinds {
		if k.Name == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unknown kind %q (known: %s)", name, strings.Join(KindNames(), ", "))
}

// Parse reads one input line: its kind and its arguments. Parsing is
// strict: the line is one JSON object with each key once, every input the
// kind needs is present (conversion defaults to improved), no other key is,
// and integers are whole numbers (1e4 is one). An error names the key and
// what is accepted. Values outside a function's domain are left to the
// function, whose refusal is the answer (and, with -format vectors, an
// invalid test).
func Parse(line []byte) (*Kind, *Args, error) {
	list, err := score.DecodeObject(line)
	if err != nil {
		return nil, nil, fmt.Errorf("bad input line: %v", err)
	}
	fields := map[string]json.RawMessage{}
	for _, f := range list {
		fields[f.Key] = f.Value
	}
	var name string
	if raw, ok := fields["kind"]; ok {
		if err := json.Unmarshal(raw, &name); err != nil || string(raw) == "null" {
			return nil, nil, fmt.Errorf("bad input line: kind %s: want a string, one of %s", raw, strings.Join(KindNames(), ", "))
		}
		delete(fields, "kind")
	}
	k, err := Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	inputs, display := k.Inputs, k.Name
	if name == legacyEpsilon {
		inputs, display = []string{"q", "sigma", "steps", "delta", "orders"}, legacyEpsilon
	}
	// Unknown keys first: a misspelt input is also a missing one, and the
	// misspelling is what the user needs to see.
	var extra []string
	for _, f := range list {
		if f.Key != "kind" && !slices.Contains(inputs, f.Key) {
			extra = append(extra, fmt.Sprintf("%q", f.Key))
		}
	}
	if len(extra) > 0 {
		key := "key"
		if len(extra) > 1 {
			key = "keys"
		}
		return nil, nil, fmt.Errorf("bad input line: %s takes no %s %s (its keys: %s)", display, key, strings.Join(extra, ", "), keyList(inputs))
	}
	a := &Args{Conversion: reference.Improved}
	var missing []string
	for _, in := range inputs {
		raw, ok := fields[in]
		if !ok {
			if in != "conversion" {
				missing = append(missing, fmt.Sprintf("%q", in))
			}
			continue
		}
		if err := a.set(in, raw); err != nil {
			return nil, nil, err
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("%s needs %s (its keys: %s)", display, strings.Join(missing, ", "), keyList(inputs))
	}
	return k, a, nil
}

// keyList is the keys a line of a kind with these inputs takes, as an error
// lists them.
func keyList(inputs []string) string {
	out := []string{"kind"}
	for _, in := range inputs {
		if in == "conversion" {
			in += ` (optional: "classic" or "improved", the default)`
		}
		out = append(out, in)
	}
	return strings.Join(out, ", ")
}

// integer reads an integer input: a whole JSON number (1e4 is one).
func integer(raw json.RawMessage) (int, error) {
	n, err := score.ExactInt(raw, math.MaxInt)
	return int(n), err
}

// scalars are a's scalar inputs by name, as in the vector files.
func (a *Args) scalars() map[string]*float64 {
	return map[string]*float64{"q": &a.Q, "sigma": &a.Sigma, "alpha": &a.Alpha, "b": &a.B, "p": &a.P,
		"mean1": &a.Mean1, "sd1": &a.SD1, "mean2": &a.Mean2, "sd2": &a.SD2, "delta": &a.Delta, "eps": &a.Eps,
		"noise": &a.Noise, "buckets": &a.Buckets, "rho": &a.Rho, "xi": &a.Xi,
		"sensitivity": &a.Sensitivity, "mean": &a.Mean, "shape": &a.Shape, "baseInf": &a.BaseInf}
}

// scalar is the scalar input name (which must be one).
func (a *Args) scalar(name string) float64 { return *a.scalars()[name] }

// set reads the input name from raw, by its kind in the schema's table.
func (a *Args) set(name string, raw json.RawMessage) error {
	in := schema.InputOf(name)
	if in == nil {
		return fmt.Errorf("%s: no such input", name) // the table lists a kind's inputs
	}
	lists := map[string]*[]float64{"distP": &a.DistP, "distQ": &a.DistQ, "orders": &a.Orders, "rdp": &a.RDP, "base": &a.Base}
	ints := map[string]*int{"steps": &a.Steps, "c": &a.C, "maxParticipation": &a.MaxParticipation, "minSeparation": &a.MinSeparation}
	var err error
	switch in.Kind {
	case schema.Float:
		*a.scalars()[name], err = parseNumber(raw)
	case schema.FloatList:
		var items []json.RawMessage
		if err = json.Unmarshal(raw, &items); err != nil || items == nil {
			err = fmt.Errorf("want a list of numbers")
			break
		}
		list := make([]float64, len(items))
		for i, it := range items {
			if list[i], err = parseNumber(it); err != nil {
				err = fmt.Errorf("item %d: %v", i+1, err)
				break
			}
		}
		*lists[name] = list
	case schema.Int:
		*ints[name], err = integer(raw)
	case schema.IntList: // trees
		var items []json.RawMessage
		if err = json.Unmarshal(raw, &items); err != nil || items == nil {
			err = fmt.Errorf("want a list of integers")
			break
		}
		a.Trees = make([]int, len(items))
		for i, it := range items {
			if a.Trees[i], err = integer(it); err != nil {
				err = fmt.Errorf("item %d: %v", i+1, err)
				break
			}
		}
	case schema.PhaseList:
		a.Phases, err = parsePhases(raw)
	case schema.DpEvent:
		var b bytes.Buffer
		if err = json.Compact(&b, raw); err == nil {
			err = schema.CheckDpEvent(b.Bytes())
		}
		a.Event = b.Bytes()
	case schema.Text:
		var text string
		if json.Unmarshal(raw, &text) != nil {
			err = fmt.Errorf("want a string")
			break
		}
		switch name {
		case "relation": // any string: the function refuses what it does not know
			a.Relation = text
		case "neighboringRelation":
			a.NeighboringRelation = text
			if !slices.Contains(in.Enum, text) {
				err = fmt.Errorf("want one of %s", strings.Join(in.Enum, ", "))
			}
		case "restarts":
			a.Restarts = text
			if !rdpcheck.ParseTreeRestarts(text).Valid() {
				err = fmt.Errorf("want %q or %q", rdpcheck.TreeOneTree.String(), rdpcheck.TreeEveryTree.String())
			}
		case "conversion":
			switch text {
			case "classic":
				a.Conversion = reference.Classic
			case "improved":
				a.Conversion = reference.Improved
			default:
				err = fmt.Errorf("want \"classic\" or \"improved\"")
			}
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", name, raw, err)
	}
	return nil
}

// parsePhases reads a run: a list of objects with exactly the keys q,
// sigma and steps, each once.
func parsePhases(raw json.RawMessage) ([]schema.RunPhase, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf(`want a list of phases {"q": Q, "sigma": S, "steps": N}`)
	}
	run := make([]schema.RunPhase, len(items))
	for i, it := range items {
		fields, err := score.DecodeObject(it)
		if err != nil {
			return nil, fmt.Errorf("phase %d: %v", i+1, err)
		}
		seen := map[string]bool{}
		for _, f := range fields {
			switch f.Key {
			case "q":
				run[i].Q, err = parseNumber(f.Value)
			case "sigma":
				run[i].Sigma, err = parseNumber(f.Value)
			case "steps":
				run[i].Steps, err = integer(f.Value)
			default:
				return nil, fmt.Errorf("phase %d: no key %q (a phase has q, sigma, steps)", i+1, f.Key)
			}
			if err != nil {
				return nil, fmt.Errorf("phase %d: %s %s: %v", i+1, f.Key, f.Value, err)
			}
			seen[f.Key] = true
		}
		for _, k := range []string{"q", "sigma", "steps"} {
			if !seen[k] {
				return nil, fmt.Errorf("phase %d: needs %q (a phase has q, sigma, steps)", i+1, k)
			}
		}
	}
	return run, nil
}

// parseNumber reads a JSON number or a string as the vector files write
// inputs (decimal, hex, "inf", "-inf", "nan"; also "Infinity" and "+inf").
func parseNumber(raw json.RawMessage) (float64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		switch s {
		case "Infinity", "+inf":
			return math.Inf(1), nil
		}
		x, err := schema.ParseFloat(s)
		if err != nil {
			return 0, fmt.Errorf("want a number or \"inf\"")
		}
		return x, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		return 0, fmt.Errorf("want a number or \"inf\"")
	}
	return x, nil
}

// answerKeys are the fields an answer may add, in the order they are
// written.
var answerKeys = []string{"lower", "upper", "warning", "reference", "fast", "fast_error", "epsilon_reference", "order", "epsilon_fast", "order_fast", "epsilon_fast_error", "error"}

// Answer computes the fields to add for one input line.
func Answer(line []byte) map[string]any {
	k, a, err := Parse(line)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	words := k.wording(a)
	if k.Interval != nil {
		iv, err := k.Interval(a)
		if err != nil && !errors.Is(err, pld.ErrPrecision) {
			return map[string]any{"error": words.Message(err)}
		}
		out := map[string]any{"lower": schema.JSONFloat(iv.Lo), "upper": schema.JSONFloat(iv.Hi)}
		if err != nil {
			out["warning"] = words.Message(err)
		}
		return out
	}
	v, order, err := k.Reference(reference.Context{}, a)
	if err != nil {
		return map[string]any{"error": words.Message(err)}
	}
	prefix := ""
	if kindOf(line) == legacyEpsilon {
		prefix = "epsilon_"
	}
	out := map[string]any{prefix + "reference": schema.BigDec(v)}
	if k.HasOrder {
		out["order"] = schema.JSONFloat(order)
	}
	f, forder, err := k.Fast(a)
	if err != nil {
		out[prefix+"fast_error"] = words.Message(err)
		return out
	}
	out[prefix+"fast"] = schema.JSONFloat(f)
	if k.HasOrder {
		out["order_fast"] = schema.JSONFloat(forder)
	}
	return out
}

// kindOf is the line's "kind" field ("" if none).
func kindOf(line []byte) string {
	var k struct {
		Kind string `json:"kind"`
	}
	json.Unmarshal(line, &k)
	return k.Kind
}

// appendFields writes the input object with the answer's fields added after
// its own, so the input is echoed byte for byte.
func appendFields(line []byte, add map[string]any) ([]byte, error) {
	line = bytes.TrimSpace(line)
	var extra bytes.Buffer
	for _, k := range answerKeys {
		v, ok := add[k]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&extra, ",%q:%s", k, b)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil || len(line) < 2 || line[len(line)-1] != '}' {
		// Not an object: wrap it so the answer is still one JSON line.
		raw, _ := json.Marshal(string(line))
		return append([]byte(`{"input":`+string(raw)), append(extra.Bytes(), '}')...), nil
	}
	body := line[:len(line)-1]
	if len(obj) == 0 {
		return append(append(body, bytes.TrimPrefix(extra.Bytes(), []byte(","))...), '}'), nil
	}
	return append(append(body, extra.Bytes()...), '}'), nil
}

// readLines returns the non-blank lines of r.
func readLines(r io.Reader) ([][]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var lines [][]byte
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	return lines, sc.Err()
}

// Run reads JSON lines from r and writes one answer line per non-blank
// input line, in input order, computing in parallel.
func Run(r io.Reader, w io.Writer) error {
	lines, err := readLines(r)
	if err != nil {
		return err
	}
	out := make([][]byte, len(lines))
	workers.Run(len(lines), func(i int) {
		b, err := appendFields(lines[i], Answer(lines[i]))
		if err != nil {
			b = []byte(fmt.Sprintf(`{"error":%q}`, err.Error()))
		}
		out[i] = b
	})
	bw := bufio.NewWriter(w)
	for _, b := range out {
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// dpsgdPhase is the line's DP-SGD run, one Poisson-sampled phase.
func dpsgdPhase(a *Args) dpevent.Phase {
	return dpevent.Phase{Q: a.Q, Sigma: a.Sigma, Steps: int64(a.Steps)}
}
