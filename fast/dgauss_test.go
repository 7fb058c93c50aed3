package fast_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// TestDiscreteGaussianAccuracySweep measures fast.DiscreteGaussian against
// the reference at 128 bits, per region: every value at or above the
// reference, the largest relative excess within 1e-12. Run with -v for the
// table (go test ./fast -run TestDiscreteGaussianAccuracySweep -v).
func TestDiscreteGaussianAccuracySweep(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2))
	lu := func(lo, hi float64) float64 { return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo))) }
	type pt struct{ s, d, a float64 }
	regions := []struct {
		name string
		gen  func() pt
	}{
		{"sigma 0.1..0.5, default orders", func() pt {
			o := fast.DefaultOrders()
			return pt{lu(0.1, 0.5), float64(1 + r.IntN(4)), o[r.IntN(len(o))]}
		}},
		{"sigma 0.5..2, default orders", func() pt {
			o := fast.DefaultOrders()
			return pt{lu(0.5, 2), float64(1 + r.IntN(4)), o[r.IntN(len(o))]}
		}},
		{"sigma 2..1000, default orders", func() pt {
			o := fast.DefaultOrders()
			return pt{lu(2, 1000), float64(1 + r.IntN(100)), o[r.IntN(len(o))]}
		}},
		{"sigma 0.1..3, alpha 1+2^-52..1.01", func() pt { return pt{lu(0.1, 3), 1, 1 + lu(0x1p-52, 0.01)} }},
		{"sigma 0.1..3, alpha 0..1", func() pt { return pt{lu(0.1, 3), float64(1 + r.IntN(3)), r.Float64()} }},
		{"sigma 0.1..3, alpha 1..1e4 any", func() pt { return pt{lu(0.1, 3), float64(1 + r.IntN(5)), 1 + lu(1e-3, 1e4)} }},
		{"sigma 0.1..3, alpha fast.NearOneSweep", func() pt {
			return pt{lu(0.1, 3), float64(1 + r.IntN(3)), fast.NearOneSweep[r.IntN(len(fast.NearOneSweep))]}
		}},
	}
	n := 150
	if testing.Short() {
		n = 40
	}
	for _, reg := range regions {
		pts := make([]pt, n)
		for i := range pts {
			pts[i] = reg.gen()
		}
		rels := make([]float64, n)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i, p := range pts {
			wg.Go(func() {
				got, err := fast.DiscreteGaussian(p.s, p.d, p.a)
				if err != nil {
					t.Error(err)
					return
				}
				ref, err := reference.Context{Prec: 128}.DiscreteGaussian(p.s, p.d, p.a)
				if err != nil {
					t.Error(err)
					return
				}
				g := new(big.Float).SetPrec(128).SetFloat64(got)
				if g.Cmp(ref) < 0 {
					mu.Lock()
					t.Errorf("DiscreteGaussian(%v, %v, %v) = %v below the reference %s", p.s, p.d, p.a, got, ref.Text('g', 25))
					mu.Unlock()
				}
				d := new(big.Float).Sub(g, ref)
				if ref.Sign() != 0 {
					d.Quo(d, ref)
				}
				rels[i], _ = d.Float64()
			})
		}
		wg.Wait()
		var mx, ss float64
		worst := 0
		for i, x := range rels {
			ss += x * x
			if x > mx {
				mx, worst = x, i
			}
		}
		t.Logf("%-36s n=%d max %.3g RMS %.3g (worst at %+v)", reg.name, n, mx, math.Sqrt(ss/float64(n)), pts[worst])
		if mx > 1e-12 {
			t.Errorf("%s: max relative error %.3g > 1e-12 at %+v", reg.name, mx, pts[worst])
		}
	}
}

func TestDiscreteGaussianCurveMatches(t *testing.T) {
	orders := append(fast.DefaultOrders(), 0, 0.3, 1, math.Inf(1))
	out := make([]float64, len(orders))
	for _, s := range []float64{0.1, 0.5, 0.50001, 3} {
		if err := fast.DiscreteGaussianCurve(s, 2, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			v, err := fast.DiscreteGaussian(s, 2, a)
			if err != nil || v != out[i] {
				t.Errorf("sigma %g alpha %g: curve %v, point %v %v", s, a, out[i], v, err)
			}
		}
	}
}

func BenchmarkDiscreteGaussianCurve(b *testing.B) {
	for _, s := range []float64{0.1, 0.4, 0.8, 5} {
		b.Run(fmt.Sprintf("sigma=%g", s), func(b *testing.B) {
			orders := fast.DefaultOrders()
			out := make([]float64, len(orders))
			b.ReportAllocs()
			for b.Loop() {
				if err := fast.DiscreteGaussianCurve(s, 1, orders, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
