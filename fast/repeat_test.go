package fast_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/testtier"
	"github.com/rdpcheck/rdpcheck/reference"
)

// rsBase is a base curve: the Gaussian (sigma) at the default orders (plus
// +Inf when withInf, where the Gaussian is +Inf), composed steps times.
func rsBase(sigma float64, steps int, withInf bool) ([]float64, []float64) {
	o := fast.DefaultOrders()
	if withInf {
		o = append(o, math.Inf(1))
	}
	r := make([]float64, len(o))
	for i, a := range o {
		v, _ := fast.Gaussian(sigma, a)
		r[i] = v * float64(steps)
	}
	return o, r
}

func toBig(r []float64) []*big.Float {
	out := make([]*big.Float, len(r))
	for i, x := range r {
		out[i] = new(big.Float).SetPrec(128).SetFloat64(x)
	}
	return out
}

// fast against the reference at 128 bits on the same float64 base curve:
// at or above, within 1e-12 relative; per-distribution maxima with -v.
func TestRepeatAndSelectAgainstReference(t *testing.T) {
	t.Parallel()
	ctx := reference.Context{Prec: 128}
	// Every order's point value is checked against the curve's; the
	// reference (the cost) at every 22nd order under -short, every 4th by
	// default, and at all of them in the exhaustive tier.
	stride := 1
	switch {
	case testing.Short():
		stride = 22
	case testtier.Sampled(t, "the reference at the orders other than every 4th"):
		stride = 4
	}
	for _, shape := range []float64{0, 0.5, 1, 3, math.Inf(1)} {
		var mx float64
		for _, sigma := range []float64{0.7, 8} {
			means := []float64{1, 10, 1e4}
			if testing.Short() {
				means = []float64{1, 1e4} // the ends of the mean range
			}
			for _, mean := range means {
				orders, rdp := rsBase(sigma, 3, false)
				rb := toBig(rdp)
				out := make([]float64, len(orders))
				if err := fast.RepeatAndSelectCurve(orders, rdp, mean, shape, out); err != nil {
					t.Fatal(err)
				}
				for i, a := range orders {
					got, err := fast.RepeatAndSelect(orders, rdp, mean, shape, a)
					if err != nil {
						t.Fatal(err)
					}
					if got != out[i] {
						t.Errorf("curve %v != point %v", out[i], got)
					}
					if i%stride != 0 {
						continue
					}
					ref, err := ctx.RepeatAndSelect(orders, rb, mean, shape, a)
					if err != nil {
						t.Fatal(err)
					}
					g := new(big.Float).SetPrec(128).SetFloat64(got)
					if g.Cmp(ref) < 0 {
						t.Errorf("shape %g sigma %g mean %g alpha %g: %v below the reference %s", shape, sigma, mean, a, got, ref.Text('g', 22))
					}
					d := new(big.Float).Sub(g, ref)
					if ref.Sign() != 0 {
						d.Quo(d, ref)
					}
					rel, _ := d.Float64()
					mx = math.Max(mx, rel)
				}
			}
		}
		t.Logf("shape %g: max relative excess %.3g", shape, mx)
		if mx > 1e-12 {
			t.Errorf("shape %g: max relative excess %.3g > 1e-12", shape, mx)
		}
	}
}

// TestRepeatAndSelectRegressions: inputs that once failed, each against
// the reference at 128 bits (relative error at most 2^-127): at or above
// it, within 1e-12 relative, and no error where the reference has a value.
func TestRepeatAndSelectRegressions(t *testing.T) {
	ctx := reference.Context{Prec: 128}
	pure := func(eps float64) ([]float64, []float64) {
		o := fast.DefaultOrders()
		r := make([]float64, len(o))
		for i, a := range o {
			r[i], _ = fast.PureDP(eps, a)
		}
		return o, r
	}
	for _, c := range []struct {
		eps, mean, shape, alpha float64
		caught                  string
	}{
		// FuzzAccountant seed 7b1502c672fc7052: e^u/u = mean needs u =
		// 710 > log(MaxFloat64); the float64 mean overflowed and the
		// search returned an untyped "not verified" error.
		{1.398043286095289e-76, 2.653993196574076e+305, 0, 1.5, "TNB mean overflows float64 (shape 0, mean 2.65e305)"},
		{0.5, math.MaxFloat64, 0, 2, "TNB mean overflows float64 (shape 0, largest mean)"},
		{0.5, math.MaxFloat64, 0.5, 2, "TNB mean overflows float64 (shape 0.5, largest mean)"},
		{0.5, math.MaxFloat64, 1, 2, "TNB mean overflows float64 (shape 1, largest mean)"},
		{0.5, 1e306, 3, 64, "TNB mean overflows float64 (shape 3)"},
	} {
		orders, rdp := pure(c.eps)
		got, err := fast.RepeatAndSelect(orders, rdp, c.mean, c.shape, c.alpha)
		if err != nil {
			t.Errorf("%s: RepeatAndSelect(eps=%g, mean=%g, shape=%g, alpha=%g): %v", c.caught, c.eps, c.mean, c.shape, c.alpha, err)
			continue
		}
		ref, err := ctx.RepeatAndSelect(orders, toBig(rdp), c.mean, c.shape, c.alpha)
		if err != nil {
			t.Fatalf("%s: reference: %v", c.caught, err)
		}
		d := new(big.Float).Sub(new(big.Float).SetPrec(128).SetFloat64(got), ref)
		rel, _ := d.Quo(d, ref).Float64()
		if !(rel >= 0 && rel <= 1e-12) {
			t.Errorf("%s: RepeatAndSelect(eps=%g, mean=%g, shape=%g, alpha=%g) = %.17g, want %s (relative %.3g)", c.caught, c.eps, c.mean, c.shape, c.alpha, got, ref.Text('g', 20), rel)
		}
	}
}

func BenchmarkRepeatAndSelectCurve(b *testing.B) {
	for _, shape := range []float64{0, 1, math.Inf(1)} {
		b.Run(fmt.Sprintf("shape=%g", shape), func(b *testing.B) {
			orders, rdp := rsBase(2, 10, false)
			out := make([]float64, len(orders))
			b.ReportAllocs()
			for b.Loop() {
				if err := fast.RepeatAndSelectCurve(orders, rdp, 10, shape, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
