package pld

import (
	"context"
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// A discrete event composed on its lattice is put on the grid as atoms
// (regrid). An atom the lattice's arithmetic hits exactly lies on a grid
// point; an error bound there that straddled the point made it a sliver,
// dropped from the lower measure and counted twice in the upper: n >= 2
// discrete Laplace steps beside any continuous event gave [0, 1] for delta
// (and eps intervals with Lo = 0 after a 100-s refinement). The truth is
// held between two exact sums: composing with an event whose loss is within
// +-1/b (Laplace(b)) moves delta(eps) between the discrete Laplace's own
// delta at eps (dropping the Laplace output is post-processing) and at eps -
// 1/b (the Laplace is 1/b-DP).
func TestRegridKeepsLatticeAtoms(t *testing.T) {
	const b = 1000
	// discrete Laplace, a = 1, sensitivity 1: loss +1 with P-mass
	// 1/(1+e^-1), -1 with e^-1/(1+e^-1), each step; n steps by the binomial
	p := 1 / (1 + math.Exp(-1))
	dl := func(n int, eps float64) float64 {
		var s float64
		for k := 0; k <= n; k++ {
			l := float64(2*k - n)
			if l > eps {
				s += choose(n, k) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k)) * -math.Expm1(eps-l)
			}
		}
		return s
	}
	ctx := context.Background()
	ns := []int{2, 3, 5}
	if testtier.Short(t, "n = 3 and 5") {
		ns = ns[:1]
	}
	for _, n := range ns {
		c := Composition{Terms: []Term{{Laplace{B: b}, 1}, {DiscreteLaplace{Param: 1, Sensitivity: 1}, int64(n)}}}
		for _, eps := range []float64{0.5, float64(n) - 0.5} {
			lo, hi := dl(n, eps), dl(n, eps-1.0/b)
			got, err := Delta(ctx, c, eps)
			if err != nil {
				t.Errorf("n = %d: Delta(%g): %v", n, eps, err)
				continue
			}
			if got.Hi < lo*(1-1e-12) || got.Lo > hi*(1+1e-12) {
				t.Errorf("n = %d: Delta(%g) = %v, outside [%.12g, %.12g] (exact sums)", n, eps, got, lo, hi)
			}
			if got.Lo < lo*(1-2e-3) {
				t.Errorf("n = %d: Delta(%g) = %v: lower end below %.12g by more than the width", n, eps, got, lo)
			}
		}
	}
}

func choose(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
