package reference

import (
	"math/big"
	"testing"
)

// An n-point Gauss-Legendre rule integrates x^(2k) over [-1, 1] exactly,
// 2/(2k+1), for 2k <= 2n-1: the nodes and weights must give it to the
// rule's precision (a few bits of rounding in the sum aside).
func TestGaussLegendreIntegratesPolynomials(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, prec uint }{{8, 128}, {40, 256}, {200, 1024}} {
		r := gaussLegendre(c.n, c.prec)
		wp := c.prec + 64
		for k := uint(0); 2*k <= 2*r.n-1; k += max(1, r.n/8) {
			sum := newF(wp)
			for i := range r.x {
				xk := newF(wp).SetInt64(1)
				x2 := newF(wp).Mul(r.x[i], r.x[i])
				for range k {
					xk.Mul(xk, x2)
				}
				sum.Add(sum, xk.Mul(xk, r.w[i]))
			}
			sum.Mul(sum, intF(2, wp)) // x and -x
			want := newF(wp).Quo(intF(2, wp), intF(int64(2*k+1), wp))
			d := newF(wp).Sub(sum, want)
			d.Quo(d, want)
			if d.Abs(d).Cmp(new(big.Float).SetMantExp(big.NewFloat(1), -int(c.prec)+8)) > 0 {
				t.Errorf("n=%d prec=%d: sum w x^%d = %s, want 2/%d (relative error %s)",
					r.n, c.prec, 2*k, sum.Text('g', 30), 2*k+1, d.Text('g', 5))
			}
		}
	}
}
