package vectorstest_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/laws"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/vectorstest"
)

// fastImpl is package fast handed over to the helper: every function of
// the vector files. The functions the laws exercise are the table
// laws.Fast fills (laws.Impl embeds Impl); DPSGDEpsilon, the
// one the laws do not take whole, is fast.SGMCurve then fast.Epsilon.
func fastImpl() vectorstest.Impl {
	m := laws.Fast().Vectors()
	m.DPSGDEpsilon = func(q, sigma float64, steps int, delta float64, orders []float64, conv rdpcheck.Conversion) (float64, error) {
		curve := make([]float64, len(orders))
		if err := fast.SGMCurve(q, sigma, steps, orders, curve); err != nil {
			return 0, err
		}
		eps, _, err := fast.Epsilon(orders, curve, delta, conv)
		return eps, err
	}
	m.Known = func(file string, g *schema.Group, t *schema.Test) string {
		q, _ := t.Float("q")
		alpha, _ := t.Float("alpha")
		if g.Function == schema.SGM && q == 1e-150 && alpha != math.Trunc(alpha) {
			// As vectors/vectors_test.go's knownFast says.
			return "fast.SGM promises 1e-12 for q >= 1e-12 only; at q = 1e-150, fractional orders, it is 1e-8 to 1.3e-2 above the truth"
		}
		return ""
	}
	return m
}

// Package fast passes every group of every vector file, and offers every
// vector function but the profile's (answered with certified intervals,
// which are pld's).
func TestFast(t *testing.T) {
	m := reflect.ValueOf(fastImpl())
	for _, fn := range schema.Functions {
		if f := m.FieldByName(fn.Name); !fn.Interval && (!f.IsValid() || f.IsNil()) {
			t.Errorf("fastImpl does not offer %s", fn.Name)
		}
	}
	if testing.Short() {
		// tfprivacy/sgm_rdp.json's 10920 SGM tests are most of the time.
		vectorstest.RunFiles(t, fastImpl(), "closed_forms.json", "conversions.json", "invalid_inputs.json", "events.json", "zcdp_tight.json", "dgauss_tree_repeat.json")
		return
	}
	vectorstest.Run(t, fastImpl())
}
