package userpoints

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
	"sync"
	"unicode"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/gen"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// RunVectors reads input lines of every kind from r and writes them to w as
// one vector file in the schema of vectors/schema: SGM (and rdp) lines form
// the group "rdp", improved DPSGDEpsilon (and epsilon) lines the group
// "epsilon", and each other kind a group named by groupOf; tests in
// input order, inputs named as in the committed files. Each value is confirmed at a second precision like
// the committed vectors, and inputs the reference rejects become tests with
// result "invalid". A line that is not a valid case is an error. Progress
// goes to progress.
func RunVectors(r io.Reader, w, progress io.Writer) error {
	lines, err := readLines(r)
	if err != nil {
		return err
	}
	e := verify.New(progress)
	b := gen.NewFile("SGM-RDP-user-cases", []string{
		"Reference values at a user's own points, written by gen-vectors -cases FILE -format vectors.",
		"Group rdp: RDP of one step of the Poisson-sampled Gaussian mechanism (as in sgm_rdp.json). Group epsilon: DP-SGD eps for steps steps at the test's orders, improved conversion (as in dpsgd.json).",
		"Other functions, if any, have a group each (per conversion where they take one), with the function and inputs as in the committed files; inputs the reference rejects are tests with result invalid.",
		"The tolerances are those of the committed files' groups; adjust them to the region of your points if need be.",
	}, "Each point computed directly (reference.SGM; reference.SGMCurve and reference.Epsilon for epsilon lines; the function of the same name for the others).")
	rdpG := b.Group("rdp", schema.SGM, "RDP cases, in input order", gen.SGMTolerance)
	epsG := b.Group("epsilon", schema.DPSGDEpsilon, "epsilon cases, in input order", gen.DPSGDTolerance)
	type epsTest struct {
		t *schema.Test
		j *verify.Job
	}
	var epsTests []epsTest
	// The other kinds: a group per function (and conversion), made at its
	// first line; whether a test is invalid is known once the reference
	// has answered.
	others := map[string]*schema.Group{}
	type otherTest struct {
		t  *schema.Test
		j  *verify.Job
		fn string
	}
	var rejectable []otherTest
	for i, line := range lines {
		n := i + 1
		k, a, err := Parse(line)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		switch {
		case k.Name == schema.DPSGDEpsilon && a.Conversion == reference.Improved:
			t := gen.DPSGDTest(a.Q, a.Sigma, a.Steps, a.Delta, reference.Improved)
			t.Orders, t.OrdersHex = schema.Lists(a.Orders)
			t.Comment = fmt.Sprintf("line %d: q=%g sigma=%g steps=%d delta=%g, %d orders", n, a.Q, a.Sigma, a.Steps, a.Delta, len(a.Orders))
			if len(a.Orders) >= 100 {
				t.Flags = append(t.Flags, "ManyOrders")
			}
			j := e.Add(t.Comment, func(c reference.Context, _ verify.Points) (verify.Out, error) {
				v, o, err := dpevent.DPSGDReferenceEpsilon(c, dpsgdPhase(a), a.Orders, a.Delta, reference.Improved, nil)
				return verify.Out{V: v, Order: o}, err
			})
			// Whether the input is invalid is known once the reference has
			// answered; the flag and result follow from its error.
			b.Test(epsG, t, j, nil)
			epsTests = append(epsTests, epsTest{t, j})
		case k.Name == schema.SGM:
			t := gen.SGMTest(a.Q, a.Sigma, a.Alpha)
			t.Comment = fmt.Sprintf("line %d: %s", n, t.Comment)
			if bad, ok := sgmBadArg(a.Q, a.Sigma, a.Alpha); ok {
				t.Result = schema.Invalid
				t.Flags = []string{gen.BadFlag(bad)}
			}
			b.Test(rdpG, t, e.RefJob(t.Comment, func(c reference.Context) (*big.Float, error) { return c.SGM(a.Q, a.Sigma, a.Alpha) }), nil)
		default:
			name, tol, err := groupOf(k, a.Conversion)
			if err != nil {
				return fmt.Errorf("line %d: %v", n, err)
			}
			g := others[name]
			if g == nil {
				g = b.Group(name, k.Name, k.Name+" cases, in input order", tol)
				others[name] = g
			}
			t := &schema.Test{Comment: fmt.Sprintf("line %d: %s", n, k.Name)}
			setInputs(t, k, a)
			if k.Interval != nil {
				x := a.Delta
				if k.Name == schema.ProfileDelta {
					x = a.Eps
				}
				var j *verify.Job
				switch k.Name {
				case schema.EventEpsilon, schema.EventDelta:
					if k.Name == schema.EventDelta {
						x = a.Eps
					}
					j = gen.EventJob(e, k.Name, a.Event, a.NeighboringRelation, x)
				default:
					j = gen.ProfileJob(e, k.Name, pldPhases(a.Phases), x)
				}
				b.Test(g, t, j, nil)
				rejectable = append(rejectable, otherTest{t, j, k.Name})
				continue
			}
			j := e.Add(t.Comment, func(c reference.Context, _ verify.Points) (verify.Out, error) {
				v, o, err := k.Reference(c, a)
				return verify.Out{V: v, Order: o}, err
			})
			b.Test(g, t, j, nil)
			rejectable = append(rejectable, otherTest{t, j, k.Name})
		}
	}
	if err := e.Run(); err != nil {
		return err
	}
	// Epsilon inputs the reference rejects become invalid tests.
	for _, et := range epsTests {
		if verify.IsInputError(et.j.Err[0]) {
			et.t.Result = schema.Invalid
			flag := "OutOfRange"
			if *et.t.Steps <= 0 {
				flag = "BadSteps"
			}
			et.t.Flags = []string{flag}
		}
	}
	for _, rt := range rejectable {
		var ie *reference.InputError
		if errors.As(rt.j.Err[0], &ie) {
			rt.t.Result = schema.Invalid
			rt.t.Flags = []string{invalidFlag(rt.fn, ie)}
		}
	}
	// Drop an empty group: a file of RDP lines only has no epsilon group.
	var groups []*schema.Group
	for _, g := range b.File.TestGroups {
		if len(g.Tests) > 0 {
			groups = append(groups, g)
		}
	}
	b.File.TestGroups = groups
	data, err := b.Finalize(nil)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// sgmBadArg returns the argument that puts (q, sigma, alpha) outside SGM's
// domain, if any, so that the test is written as invalid with its flag.
func sgmBadArg(q, sigma, alpha float64) (float64, bool) {
	switch {
	case math.IsNaN(q) || q < 0 || q > 1:
		return q, true
	case math.IsNaN(sigma) || sigma < 0 || math.IsInf(sigma, 0):
		return sigma, true
	case math.IsNaN(alpha) || alpha <= 1:
		return alpha, true
	}
	return 0, false
}

// groupOf names the group of a kind other than SGM and improved
// DPSGDEpsilon for its function, in lower case with hyphens (and the
// conversion after a slash, where it takes one), and gives it the tolerance
// that every group of the function has in the committed vector files
// (vectors' TestOneTolerancePerFunction).
func groupOf(k *Kind, conv reference.Conversion) (name string, tol float64, err error) {
	tols, err := committedTolerances()
	if err != nil {
		return "", 0, err
	}
	tol, ok := tols[k.Name]
	if !ok {
		return "", 0, fmt.Errorf("-format vectors cannot write kind %s: no committed vector file has a group of it", k.Name)
	}
	name = hyphenated(k.Name)
	if f := schema.Lookup(schema.Functions, k.Name); f != nil && f.Takes("conversion") {
		name += "/" + conv.String()
	}
	return name, tol, nil
}

// committedTolerances maps each function to its groups' tolerance in the
// committed vector files, read once.
var committedTolerances = sync.OnceValues(func() (map[string]float64, error) {
	tols := map[string]float64{}
	for _, name := range vectors.Names() {
		f, err := vectors.Load(name)
		if err != nil {
			return nil, err
		}
		for _, g := range f.TestGroups {
			if _, ok := tols[g.Function]; !ok {
				tols[g.Function] = g.RelativeTolerance
			}
		}
	}
	return tols, nil
})

// hyphenated writes a function name in lower case with a hyphen where a
// word starts: SGMCurve sgm-curve, WORGaussian wor-gaussian, LaplaceZCDP
// laplace-zcdp. A run of capitals is one word (KaryRRZCDP kary-rrzcdp).
func hyphenated(fn string) string {
	var b strings.Builder
	r := []rune(fn)
	for i, c := range r {
		upper := unicode.IsUpper(c)
		if i > 0 && upper && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsUpper(r[i-1]) && unicode.IsLower(r[i+1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// setInputs writes a's inputs of kind k into t, named as in the vector
// files.
func setInputs(t *schema.Test, k *Kind, a *Args) {
	for _, in := range k.Inputs {
		switch in {
		case "steps":
			steps := a.Steps
			t.Steps = &steps
		case "phases":
			t.Phases = make([]schema.Phase, len(a.Phases))
			for i, p := range a.Phases {
				t.Phases[i] = schema.NewPhase(p.Q, p.Sigma, p.Steps)
			}
		case "conversion":
			t.Conversion = a.Conversion.String()
		case "event":
			t.Event = append([]byte{}, a.Event...)
		case "neighboringRelation":
			t.NeighboringRelation = a.NeighboringRelation
		case "distP":
			t.DistP, t.DistPHex = schema.Lists(a.DistP)
		case "distQ":
			t.DistQ, t.DistQHex = schema.Lists(a.DistQ)
		case "orders":
			t.Orders, t.OrdersHex = schema.Lists(a.Orders)
		case "rdp":
			t.RDP, t.RDPHex = schema.Lists(a.RDP)
		case "base":
			t.Base, t.BaseHex = schema.Lists(a.Base)
		case "relation":
			t.Relation = a.Relation
		case "c":
			c := a.C
			t.C = &c
		case "trees":
			t.Trees = append([]int{}, a.Trees...)
		case "restarts":
			t.Restarts = a.Restarts
		case "maxParticipation":
			m := a.MaxParticipation
			t.MaxParticipation = &m
		case "minSeparation":
			s := a.MinSeparation
			t.MinSeparation = &s
		default:
			t.SetFloat(in, a.scalar(in))
		}
	}
}

// invalidFlag is the flag of an input of kind fn the reference rejected,
// from the argument it names: steps; Divergence's vectors ("p, q", "p[1]",
// "sum(q)"); the curve ("orders, rdp", "orders[2]", "rdp[0]"); otherwise a
// scalar, flagged by its value.
func invalidFlag(fn string, ie *reference.InputError) string {
	switch {
	case fn == schema.TreeAggregation && strings.HasPrefix(ie.Arg, "steps"):
		return "BadTrees" // the list of tree sizes
	case schema.IsProfile(fn) && ie.Arg == "steps":
		return "OutOfRange" // steps = 0 is a run (of nothing); BadSteps says steps <= 0
	case ie.Arg == "steps" || ie.Arg == "totalSteps":
		return "BadSteps"
	case fn == schema.Divergence && ie.Arg != "alpha":
		return "BadDistribution"
	case strings.HasPrefix(ie.Arg, "orders") || strings.HasPrefix(ie.Arg, "rdp") || strings.HasPrefix(ie.Arg, "base"):
		return "BadCurve"
	case ie.Arg == "relation" || ie.Arg == "phases" || ie.Arg == "event":
		return "OutOfRange" // a string, or no phase: its Value is NaN, which it is not
	}
	return gen.BadFlag(ie.Value)
}
