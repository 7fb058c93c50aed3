package discretegauss

import (
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"
)

const prec = 160

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

// theta is sum over the integers x of exp(-(x-c)^2/(2 sigma^2)) for c in
// [0, 1/2], by direct summation over |x - c| <= 15 sigma + 2 (the terms
// left out are below e^-112 < 2^-161 of the sum): t(x) = exp(-(x-c)^2/(2
// sigma^2)) by the recurrence t(x+1) = t(x) r(x), r(x) = exp(-(2(x-c)+1)/(2
// sigma^2)), r(x+1) = r(x) exp(-1/sigma^2).
func theta(sigma float64, c *big.Float) *big.Float {
	s2 := new(big.Float).SetPrec(prec).Mul(bf(sigma), bf(sigma))
	s2.Mul(s2, bf(-2)) // -2 sigma^2
	w := int(15*sigma) + 2
	d := new(big.Float).SetPrec(prec).Sub(bf(float64(-w)), c) // x - c at x = -w
	t := new(big.Float).SetPrec(prec).Mul(d, d)
	t = bigfloat.Exp(t.Quo(t, s2))
	r := new(big.Float).SetPrec(prec).Mul(d, bf(2))
	r.Add(r, bf(1))
	r = bigfloat.Exp(r.Quo(r, s2))
	step := bigfloat.Exp(new(big.Float).SetPrec(prec).Quo(bf(2), s2))
	sum := bf(0)
	for x := -w; x <= w+1; x++ {
		sum.Add(sum, t)
		t.Mul(t, r)
		r.Mul(r, step)
	}
	return sum
}

// exact is D_alpha(N_Z(0, sigma^2) || N_Z(d, sigma^2)) from the
// definition: with c = (1-alpha) d, alpha x^2 + (1-alpha)(x-d)^2 = (x-c)^2
// + alpha (1-alpha) d^2, so sum_x P^alpha Q^(1-alpha) = e^(-alpha (1-alpha)
// d^2/(2 sigma^2)) theta(c)/theta(0) and D = alpha d^2/(2 sigma^2) +
// log(theta(f)/theta(0))/(alpha-1), f the distance of c to the integers
// (theta has period 1 and is even), each theta summed directly.
func exact(sigma, d, alpha float64, theta0 *big.Float) *big.Float {
	c := new(big.Float).SetPrec(prec).Sub(bf(1), bf(alpha))
	c.Mul(c, bf(d)) // exact: 53-bit by 53-bit products fit 160 bits
	ci, _ := new(big.Float).SetPrec(prec).Add(c, bf(0.5)).Int(nil)
	// floor for c + 1/2 >= 0, else adjust: f = |c - round(c)|
	f := new(big.Float).SetPrec(prec).Sub(c, new(big.Float).SetPrec(prec).SetInt(ci))
	if f.Cmp(bf(0.5)) > 0 {
		f.Sub(f, bf(1))
	}
	if f.Cmp(bf(-0.5)) < 0 {
		f.Add(f, bf(1))
	}
	f.Abs(f)
	m := new(big.Float).SetPrec(prec).Mul(bf(alpha), bf(d))
	m.Mul(m, bf(d))
	m.Quo(m, new(big.Float).SetPrec(prec).Mul(bf(2), new(big.Float).SetPrec(prec).Mul(bf(sigma), bf(sigma))))
	if f.Sign() == 0 {
		return m
	}
	l := bigfloat.Log(new(big.Float).SetPrec(prec).Quo(theta(sigma, f), theta0))
	l.Quo(l, new(big.Float).SetPrec(prec).Sub(bf(alpha), bf(1)))
	return m.Add(m, l)
}

// TestAtAgainstDirectSums: Curve.At is never below the divergence summed
// from its definition at 160 bits and within 1e-12 relative of it
// (fast.DiscreteGaussian's stated accuracy for sigma >= 0.1), on both
// sides of sigma = 1/2 (the direct and the dual sums), at orders below
// and above 1, where alpha d is an integer (the line alpha d^2/(2
// sigma^2) exactly) and where (1-alpha) d is half an integer (the ratio's
// extreme).
func TestAtAgainstDirectSums(t *testing.T) {
	sigmas := []float64{0.1, 0.3, 0.5, 0.5000001, 0.8, 1.7, 2.5, 6}
	alphas := []float64{0.01, 0.3, 0.5, 0.999, 1, 1.5, 2, 2.7, 10.25, 100.1}
	if testing.Short() {
		sigmas = []float64{0.1, 0.5, 0.5000001, 1.7}
		alphas = []float64{0.3, 1.5, 2.7, 100.1}
	}
	for _, sigma := range sigmas {
		theta0 := theta(sigma, bf(0))
		for _, d := range []float64{1, 3} {
			p := NewCurve(sigma, d)
			for _, alpha := range alphas {
				got := p.At(alpha)
				want := exact(sigma, d, alpha, theta0)
				diff := new(big.Float).SetPrec(prec).Sub(bf(got), want)
				rel, _ := new(big.Float).Quo(diff, want).Float64()
				if diff.Sign() < 0 || rel > 1e-12 {
					t.Errorf("NewCurve(%g, %g).At(%g) = %.17g, exact %s (relative %.3g)", sigma, d, alpha, got, want.Text('g', 20), rel)
				}
			}
		}
	}
}

// TestAtSpecialCases: 0 at d = 0 or alpha = 0, +Inf at alpha = +Inf, and
// the line alpha d^2/(2 sigma^2) rounded up (at most 4 ulps above, by
// exact rationals) where alpha d is an integer.
func TestAtSpecialCases(t *testing.T) {
	z := NewCurve(0.7, 0)
	if v := z.At(3); v != 0 {
		t.Errorf("NewCurve(0.7, 0).At(3) = %g, want 0", v)
	}
	p := NewCurve(0.7, 2)
	if v := p.At(0); v != 0 {
		t.Errorf("At(0) = %g, want 0", v)
	}
	if v := p.At(math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("At(+Inf) = %g, want +Inf", v)
	}
	for _, c := range []struct{ sigma, d, alpha float64 }{{0.7, 2, 3.5}, {0.3, 1, 7}, {2, 4, 0.25}, {1e-3, 5, 1e4}, {30, 1, 2}} {
		pc := NewCurve(c.sigma, c.d)
		v := pc.At(c.alpha)
		s := new(big.Rat).SetFloat64(c.sigma)
		want := new(big.Rat).Mul(new(big.Rat).SetFloat64(c.alpha), new(big.Rat).SetFloat64(c.d*c.d))
		want.Quo(want, new(big.Rat).Mul(big.NewRat(2, 1), new(big.Rat).Mul(s, s)))
		g := new(big.Rat).SetFloat64(v)
		lim := new(big.Rat).Mul(want, new(big.Rat).SetFloat64(1+8*0x1p-53))
		if g.Cmp(want) < 0 || g.Cmp(lim) > 0 {
			t.Errorf("NewCurve(%g, %g).At(%g) = %.17g, want alpha d^2/(2 sigma^2) = %s rounded up", c.sigma, c.d, c.alpha, v, want.FloatString(20))
		}
	}
}
