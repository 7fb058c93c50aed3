package reference

// Gauss-Legendre nodes and weights in big.Float, for the middle strip of the
// sampled Gaussian integral (sgm.go). Computed by Newton's iteration on the
// Legendre recurrence from float64 starting values, cached per (n, precision).

import (
	"math"
	"math/big"
	"sync"
)

type glRule struct {
	n    uint         // number of nodes
	x, w []*big.Float // positive nodes in (0, 1) and weights; x[i] and -x[i] share w[i]
}

type glKey struct{ n, prec uint }

var glCache sync.Map

// gaussLegendre returns the n-point rule (n rounded up to a multiple of 8)
// correct to prec bits.
func gaussLegendre(n, prec uint) *glRule {
	n = (n + 7) &^ 7
	prec = (prec + 63) &^ 63
	key := glKey{n, prec}
	if r, ok := glCache.Load(key); ok {
		return r.(*glRule)
	}
	wp := prec + 32
	r := &glRule{n: n}
	for i := uint(1); i <= n/2; i++ {
		x0 := math.Cos(math.Pi * (float64(i) - 0.25) / (float64(n) + 0.5))
		for range 100 { // float64 Newton to a good start
			p, dp := legendreF64(n, x0)
			dx := p / dp
			x0 -= dx
			if math.Abs(dx) < 1e-15 {
				break
			}
		}
		x := fl(x0, wp)
		// Newton doubles the good bits each step, so each step needs only
		// about twice the bits it starts with (plus log2 n for the
		// recurrence's rounding): only the last runs at wp.
		lgn := uint(math.Log2(float64(n))) + 1
		for good := uint(45); good <= wp+8; good *= 2 {
			pk := min(wp, 2*good+32+lgn)
			p, dp := legendre(n, x, pk)
			x.Sub(x, newF(pk).Quo(p, dp))
		}
		_, dp := legendre(n, x, wp)
		// w = 2 / ((1 - x^2) P_n'(x)^2)
		w := newF(wp).Mul(x, x)
		w.Sub(intF(1, wp), w)
		w.Mul(w, newF(wp).Mul(dp, dp))
		w.Quo(intF(2, wp), w)
		r.x = append(r.x, x.SetPrec(prec))
		r.w = append(r.w, w.SetPrec(prec))
	}
	glCache.Store(key, r)
	return r
}

func legendreF64(n uint, x float64) (p, dp float64) {
	p0, p1 := 1.0, x
	for k := uint(2); k <= n; k++ {
		p0, p1 = p1, (float64(2*k-1)*x*p1-float64(k-1)*p0)/float64(k)
	}
	return p1, float64(n) * (x*p1 - p0) / (x*x - 1)
}

// legendre returns P_n(x) and P_n'(x) by the three-term recurrence.
func legendre(n uint, x *big.Float, wp uint) (p, dp *big.Float) {
	xw := newF(wp).Set(x)
	p0, p1 := intF(1, wp), newF(wp).Set(xw)
	t, u, c := newF(wp), newF(wp), newF(wp)
	for k := uint(2); k <= n; k++ {
		t.Mul(xw, p1)
		t.Mul(t, c.SetInt64(int64(2*k-1)))
		u.Mul(p0, c.SetInt64(int64(k-1)))
		t.Sub(t, u)
		t.Quo(t, c.SetInt64(int64(k)))
		p0, p1, t = p1, t, p0
	}
	x = xw
	// P_n' = n (x P_n - P_{n-1}) / (x^2 - 1)
	dp = newF(wp).Mul(x, p1)
	dp.Sub(dp, p0)
	dp.Mul(dp, intF(int64(n), wp))
	den := newF(wp).Mul(x, x)
	den.Sub(den, intF(1, wp))
	dp.Quo(dp, den)
	return p1, dp
}
