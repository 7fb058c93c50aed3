package pld

import (
	"context"
	"math"
	"testing"
)

// composeBySquaring is composeRun's other path (each term by repeated
// squaring, then convolved), for comparison with powerFFT.
func composeBySquaring(t *testing.T, terms []runTerm, h, lam float64) *composed {
	t.Helper()
	ctx := context.Background()
	var acc *tmeas
	for _, r := range terms {
		sg, err := stepOf(r.up, r.lo, h, cut{lambda: lam}, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		m, err := power(ctx, fromStep(sg), r.n, 1<<23, h, lam)
		if err != nil {
			t.Fatal(err)
		}
		if acc == nil {
			acc = &m
		} else {
			c := conv(acc, &m)
			acc = &c
		}
	}
	return &composed{m: *acc, g: dyadic(h), lambda: lam}
}

// The frequency-domain composition and repeated squaring compute the
// same measures with different roundings and bounds: their certified
// intervals must meet, at every eps, and be about as narrow (a wrong
// error bound or window in powerFFT shows as disjoint intervals, or as a
// width far from squaring's).
func TestPowerFFTAgreesWithSquaring(t *testing.T) {
	for _, c := range []struct {
		ph  []Phase
		lam float64
	}{
		{[]Phase{{0.01, 1, 1000}}, 2},
		{[]Phase{{0.1, 2, 300}, {0.02, 0.8, 50}}, 1},
		{[]Phase{{0.5, 3, 7}}, 0.5},
	} {
		h := 0x1p-11
		terms := phaseTerms(c.ph, false)
		ctx := context.Background()
		var steps []tmeas
		var counts []int64
		for _, r := range terms {
			sg, err := stepOf(r.up, r.lo, h, cut{lambda: c.lam}, 1<<22)
			if err != nil {
				t.Fatal(err)
			}
			steps, counts = append(steps, fromStep(sg)), append(counts, r.n)
		}
		m, ok, err := powerFFT(ctx, steps, counts, 1<<22)
		if err != nil || !ok {
			t.Fatalf("%v: powerFFT: ok %v, %v", c.ph, ok, err)
		}
		f := &composed{m: m, g: dyadic(h), lambda: c.lam}
		s := composeBySquaring(t, terms, h, c.lam)
		for _, eps := range []float64{0.2, 0.7, 1.5, 3} {
			a, b := f.delta(eps), s.delta(eps)
			if a.Lo > b.Hi || b.Lo > a.Hi {
				t.Errorf("%v, eps %g: frequency domain %v, squaring %v: disjoint", c.ph, eps, a, b)
			}
			if b.Lo > 1e-12 && a.RelWidth() > 2*b.RelWidth()+1e-9 {
				t.Errorf("%v, eps %g: frequency domain %v (width %.3g), squaring %v (%.3g)", c.ph, eps, a, a.RelWidth(), b, b.RelWidth())
			}
		}
	}
}

// windowFor's bound holds: the exact mass of a binomial outside the
// window it returns is at most the bound.
func TestWindowForBound(t *testing.T) {
	p := 0.3
	x := []float64{1 - p, p}
	for _, n := range []int64{10, 200, 3000} {
		M, V := float64(n)*p, float64(n)*p*(1-p)
		A, B, bound, ok := windowFor([][]float64{x}, []int{0}, []int64{n}, M, V, 1e-24, 1<<22)
		if !ok {
			t.Fatalf("n %d: no window", n)
		}
		// the exact mass outside [A, B], in logs
		var out float64
		for k := int64(0); k <= n; k++ {
			if k >= A && k <= B {
				continue
			}
			lg, _ := math.Lgamma(float64(n + 1))
			la, _ := math.Lgamma(float64(k + 1))
			lb, _ := math.Lgamma(float64(n - k + 1))
			out += math.Exp(lg - la - lb + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
		}
		if out > bound*(1+1e-6) || bound > 1e-24 {
			t.Errorf("n %d: window [%d, %d], mass outside %.3g, bound %.3g (want outside <= bound <= 1e-24)", n, A, B, out, bound)
		}
	}
}
