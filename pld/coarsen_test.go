package pld

import (
	"context"
	"testing"
)

// coarsen keeps the curve's order: the coarsened upper vector's delta is
// at or above the fine one's, the lower's at or below, at every eps; and
// the two stay close (second order in the spacing for a smooth run).
func TestCoarsenBrackets(t *testing.T) {
	ph := []Phase{{0.05, 1, 200}}
	h, lam := 0x1p-12, 1.0
	c, err := composeRun(context.Background(), phaseTerms(ph, false), h, lam, 0, 1<<22)
	if err != nil {
		t.Fatal(err)
	}
	cc := &composed{m: coarsen(c.m, h, lam), g: dyadic(2 * h), lambda: lam, inf: c.inf, infLo: c.infLo, excess: c.excess}
	for _, eps := range []float64{0.5, 1, 2, 3} {
		f, g := c.delta(eps), cc.delta(eps)
		// (the bounds' rounding allowances grow with the vector's length,
		// so the ends may cross by that much: 1e-9)
		if g.Hi < f.Hi*(1-1e-9) || g.Lo > f.Lo*(1+1e-9) {
			t.Errorf("eps %g: coarsened %v does not hold the fine %v's ends", eps, g, f)
		}
		if g.RelWidth() > f.RelWidth()+1e-5 {
			t.Errorf("eps %g: coarsened %v (width %.3g) far wider than the fine %v (%.3g)", eps, g, g.RelWidth(), f, f.RelWidth())
		}
	}
}
