package pld

import (
	"math"
	"testing"
)

// The tail cut (runDir's tail budget) moves mass to +Inf (or to the
// lowest grid point) and counts it in the upper delta. Checks: with a
// budget as large as a tenth of delta, the interval still contains the
// closed form (q = 1: the composed Gaussian mechanism, GaussianDelta),
// which it would not if the moved mass were left out (it is about the
// budget, far above the grid's error here); and with the budget SGMEpsilon
// uses, a run at small q gives an interval that meets the uncut one.
func TestTailCutSound(t *testing.T) {
	const s, n, h = 2.0, 4, 0x1p-12
	epss := []float64{4, 5}
	if testing.Short() {
		epss = epss[1:]
	}
	for _, eps := range epss {
		want := gaussDelta(s, n, eps)
		for _, add := range []bool{false, true} {
			lam := tiltForEps([]Phase{{1, s, n}}, eps, add)
			c, err := runDir([]Phase{{1, s, n}}, h, lam, 0.1*want.Lo, add, 1<<22)
			if err != nil {
				t.Fatal(err)
			}
			got := c.delta(eps)
			if got.Lo > want.Hi || got.Hi < want.Lo {
				t.Errorf("q=1, sigma=%g, %d steps, add=%v, tail budget 0.1 delta: delta(%g) = %v, want %v (GaussianDelta)", s, n, add, eps, got, want)
			}
			if !(c.inf > 0.01*want.Lo) {
				t.Errorf("q=1, sigma=%g, %d steps, add=%v: +Inf mass %.3g, want the cut in force (about 0.1 delta = %.3g)", s, n, add, c.inf, 0.1*want.Lo)
			}
		}
	}
	if testing.Short() {
		return // the cut against the uncut run: 2 of this test's 4.8 s
	}
	ph := []Phase{{1e-3, 1, 1000}}
	for _, add := range []bool{false, true} {
		lam := tiltForDelta(ph, 1e-5, add)
		cut, err := runDir(ph, 0x1p-14, lam, 1e-5*1e-3*0x1p-10, add, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		full, err := runDir(ph, 0x1p-14, lam, 0, add, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		if len(cut.m.up) >= len(full.m.up) && !add {
			t.Errorf("%v remove: the cut kept %d entries, uncut %d", ph, len(cut.m.up), len(full.m.up))
		}
		for _, e := range []float64{0.1, 0.3, 0.6} {
			a, b := cut.delta(e), full.delta(e)
			if a.Lo > b.Hi || b.Lo > a.Hi || math.IsNaN(a.Lo+a.Hi) {
				t.Errorf("%v add=%v delta(%g): cut %v, uncut %v: disjoint", ph, add, e, a, b)
			}
		}
	}
}
