package fast

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
)

type slPoint struct {
	region   string
	q, b, a  float64
	curveIdx int // >= 0: the value comes from a SampledLaplaceCurve over DefaultOrders
}

// slPoints draws the sampled Laplace sweep over the promised range: q in
// [1e-10, 1], b in [0.05, 1000], integer orders to 1024, fractional orders
// in [1.1, 256], by region, with a fixed seed.
func slPoints(short bool) []slPoint {
	r := rand.New(rand.NewPCG(2026, 11))
	scale := 1
	if short {
		scale = 4
	}
	var pts []slPoint
	add := func(region string, n int, f func() (q, b, a float64)) {
		for range n / scale {
			q, b, a := f()
			pts = append(pts, slPoint{region, q, b, a, -1})
		}
	}
	qAny := func() float64 { return logUniform(r, 1e-10, 1) }
	bAny := func() float64 { return logUniform(r, 0.05, 1000) }
	frac := func(lo, hi float64) float64 {
		for {
			if a := lo + r.Float64()*(hi-lo); a != math.Trunc(a) {
				return a
			}
		}
	}
	add("integer 2..64", 80, func() (float64, float64, float64) { return qAny(), bAny(), float64(2 + r.IntN(63)) })
	add("integer 65..1024", 40, func() (float64, float64, float64) { return qAny(), bAny(), float64(65 + r.IntN(960)) })
	add("fractional [1.1, 11)", 80, func() (float64, float64, float64) { return qAny(), bAny(), frac(1.1, 11) })
	add("fractional [11, 256]", 40, func() (float64, float64, float64) { return qAny(), bAny(), frac(11, 256) })
	add("alpha = 1 (KL)", 24, func() (float64, float64, float64) { return qAny(), bAny(), 1 })
	add("q in [1e-10, 1e-6]", 40, func() (float64, float64, float64) {
		return logUniform(r, 1e-10, 1e-6), bAny(), float64(2 + r.IntN(300))
	})
	add("q in [0.5, 1)", 40, func() (float64, float64, float64) {
		return 0.5 + 0.5*r.Float64(), bAny(), frac(1.1, 256)
	})
	add("b in [0.05, 0.2] (sharp middle)", 40, func() (float64, float64, float64) {
		return qAny(), logUniform(r, 0.05, 0.2), float64(2 + r.IntN(1023))
	})
	add("b in [100, 1000] (flat)", 40, func() (float64, float64, float64) {
		return qAny(), logUniform(r, 100, 1000), frac(1.1, 256)
	})
	orders := DefaultOrders()
	for range 4 / scale * 1 {
		q, b := qAny(), bAny()
		for i := 0; i < len(orders); i += 13 {
			pts = append(pts, slPoint{"SampledLaplaceCurve, default orders", q, b, orders[i], i})
		}
	}
	return pts
}

// TestSampledLaplaceAccuracySweep: fast.SampledLaplace against the reference
// at 64 bits (relative error at most 2^-63), per region: max and RMS
// relative error, and every value at or above the reference.
func TestSampledLaplaceAccuracySweep(t *testing.T) {
	pts := slPoints(testing.Short())
	type res struct {
		rel float64
		err error
	}
	out := make([]res, len(pts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	curves := map[[2]float64][]float64{}
	for _, p := range pts {
		if p.curveIdx >= 0 {
			k := [2]float64{p.q, p.b}
			if curves[k] == nil {
				c, err := SampledLaplaceCurve(p.q, p.b, DefaultOrders())
				if err != nil {
					t.Fatal(err)
				}
				curves[k] = c
			}
		}
	}
	for i, p := range pts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			var got float64
			var err error
			if p.curveIdx >= 0 {
				got = curves[[2]float64{p.q, p.b}][p.curveIdx]
			} else if got, err = SampledLaplace(p.q, p.b, p.a); err != nil {
				out[i].err = err
				return
			}
			want, err := refCtx.SampledLaplace(p.q, p.b, p.a)
			if err != nil {
				out[i].err = fmt.Errorf("reference: %w", err)
				return
			}
			w, _ := want.Float64()
			if got < w {
				out[i].err = fmt.Errorf("below the reference: %.17g < %.17g", got, w)
				return
			}
			out[i].rel = (got - w) / w
		}()
	}
	wg.Wait()
	regions := map[string][]float64{}
	var names []string
	for i, p := range pts {
		if out[i].err != nil {
			t.Errorf("%s q=%g b=%g alpha=%g: %v", p.region, p.q, p.b, p.a, out[i].err)
			continue
		}
		if out[i].rel > 1e-12 {
			t.Errorf("%s q=%g b=%g alpha=%g: relative error %.3g", p.region, p.q, p.b, p.a, out[i].rel)
		}
		if regions[p.region] == nil {
			names = append(names, p.region)
		}
		regions[p.region] = append(regions[p.region], out[i].rel)
	}
	sort.Strings(names)
	var sb strings.Builder
	sb.WriteString("| region | points | max rel. error | RMS rel. error |\n|---|---:|---:|---:|\n")
	for _, n := range names {
		mx, ss := 0.0, 0.0
		for _, r := range regions[n] {
			mx = math.Max(mx, r)
			ss += r * r
		}
		fmt.Fprintf(&sb, "| %s | %d | %.3g | %.3g |\n", n, len(regions[n]), mx, math.Sqrt(ss/float64(len(regions[n]))))
	}
	t.Log("\n" + sb.String())
}

func BenchmarkSampledLaplaceCurve(b *testing.B) {
	orders := DefaultOrders()
	for _, c := range []struct{ q, b float64 }{{0.01, 1}, {0.1, 0.1}, {1e-4, 10}} {
		b.Run(fmt.Sprintf("q=%g,b=%g", c.q, c.b), func(b *testing.B) {
			for b.Loop() {
				if _, err := SampledLaplaceCurve(c.q, c.b, orders); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
