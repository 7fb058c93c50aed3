package fast_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
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
	ctx := reference.Context{Prec: 128}
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
					if testing.Short() && i%11 != 0 {
						continue
					}
					got, err := fast.RepeatAndSelect(orders, rdp, mean, shape, a)
					if err != nil {
						t.Fatal(err)
					}
					if got != out[i] {
						t.Errorf("curve %v != point %v", out[i], got)
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
