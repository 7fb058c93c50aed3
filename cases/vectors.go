package cases

import (
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/gen"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// RunVectors reads the older two forms of input line (kinds rdp and
// epsilon) from r and writes them to w as one vector file in the schema of
// vectors/schema: RDP lines form the group "rdp" (function SGM), epsilon
// lines the group "epsilon" (function DPSGDEpsilon, improved conversion),
// tests in input order. Each value is confirmed at a second precision like
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
		"The tolerances are those of the committed files' groups; adjust them to the region of your points if need be.",
	}, "Each point computed directly (reference.SGM; reference.SGMCurve and reference.Epsilon for epsilon lines).")
	rdpG := b.Group("rdp", schema.SGM, "RDP cases, in input order", gen.SGMTolerance)
	epsG := b.Group("epsilon", schema.DPSGDEpsilon, "epsilon cases, in input order", gen.DPSGDTolerance)
	type epsTest struct {
		t *schema.Test
		j *verify.Job
	}
	var epsTests []epsTest
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
				v, o, err := ReferenceEpsilon(c, a.Q, a.Sigma, a.Steps, a.Orders, a.Delta, reference.Improved, nil)
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
			return fmt.Errorf("line %d: -format vectors takes SGM (rdp) and improved DPSGDEpsilon (epsilon) lines, not %s", n, k.Name)
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
