package reference

// Closed forms. Each is evaluated in big.Float inside the Ziv loop, which
// raises the precision where the formula cancels (orders near 1, nearly
// equal distributions).

import (
	"math"
	"math/big"
)

func checkOrder(fn string, alpha, lo float64, loOpen bool) error {
	if math.IsNaN(alpha) || alpha < lo || (loOpen && alpha == lo) {
		msg := "order must be >= "
		if loOpen {
			msg = "order must be > "
		}
		return inputErr(fn, "alpha", alpha, msg+big.NewFloat(lo).Text('g', 6)+" (or +Inf)")
	}
	return nil
}

// Gaussian returns the RDP of the Gaussian mechanism with l2-sensitivity 1
// and noise standard deviation sigma, D_alpha(N(0, s^2) || N(1, s^2)) =
// alpha/(2 sigma^2), correctly rounded to c.Prec bits.
//
// Special cases are:
//
//	Gaussian(sigma, alpha=0) = 0
//	Gaussian(sigma, alpha=+Inf) = +Inf
//	Gaussian(sigma=0, alpha>0) = +Inf
//	Gaussian(sigma, alpha) = error for sigma < 0, sigma = ±Inf, alpha < 0 or NaN
func (c Context) Gaussian(sigma, alpha float64) (*big.Float, error) {
	if math.IsNaN(sigma) || sigma < 0 || math.IsInf(sigma, 0) {
		return nil, inputErr("Gaussian", "sigma", sigma, "must be finite and >= 0")
	}
	if err := checkOrder("Gaussian", alpha, 0, false); err != nil {
		return nil, err
	}
	p := c.prec()
	switch {
	case alpha == 0:
		return newF(p), nil
	case math.IsInf(alpha, 1) || sigma == 0:
		return newF(p).SetInf(false), nil
	}
	den := newF(2*64+2).Mul(fl(sigma, 64), fl(sigma, 64)) // exact
	den.SetMantExp(den, 1)
	return newF(p).Quo(fl(alpha, 64), den), nil
}

// GaussianDivergence returns D_alpha(N(m1, s1^2) || N(m2, s2^2)) (Gil, Alajaji,
// Linder 2013):
//
//	log(s2/s1) + log(s2^2/sa^2)/(2(alpha-1)) + alpha (m1-m2)^2/(2 sa^2),
//	sa^2 = alpha s2^2 + (1-alpha) s1^2,
//
// finite only where sa^2 > 0; alpha = 1 is the KL divergence
// log(s2/s1) + (s1^2 + (m1-m2)^2)/(2 s2^2) - 1/2, and alpha = +Inf is
// log(s2/s1) + (m1-m2)^2/(2(s2^2-s1^2)) for s1 < s2.
//
// Special cases are:
//
//	GaussianDivergence(m1, s1, m2, s2, alpha=0) = 0
//	GaussianDivergence(m, s, m, s, alpha) = 0
//	GaussianDivergence(m1, s1, m2, s2, alpha>1) = +Inf where sa^2 <= 0
//	GaussianDivergence(m1, s, m2, s, alpha=+Inf) = +Inf for m1 != m2, 0 for m1 == m2
//	GaussianDivergence(m1, s1, m2, s2, alpha=+Inf) = +Inf for s1 > s2
//	GaussianDivergence = error for s1 <= 0, s2 <= 0, any Inf but alpha = +Inf, any NaN, alpha < 0
func (c Context) GaussianDivergence(m1, s1, m2, s2, alpha float64) (*big.Float, error) {
	const fn = "GaussianDivergence"
	for _, a := range []struct {
		name string
		v    float64
		pos  bool
	}{{"m1", m1, false}, {"s1", s1, true}, {"m2", m2, false}, {"s2", s2, true}} {
		if math.IsNaN(a.v) || math.IsInf(a.v, 0) || (a.pos && a.v <= 0) {
			msg := "must be finite"
			if a.pos {
				msg = "must be finite and > 0"
			}
			return nil, inputErr(fn, a.name, a.v, msg)
		}
	}
	if err := checkOrder(fn, alpha, 0, false); err != nil {
		return nil, err
	}
	p := c.prec()
	if alpha == 0 || (m1 == m2 && s1 == s2) { // exact zeros, decided before the Ziv loop
		return newF(p), nil
	}
	if math.IsInf(alpha, 1) {
		switch {
		case s1 > s2 || (s1 == s2 && m1 != m2):
			return newF(p).SetInf(false), nil
		case s1 == s2:
			return newF(p), nil
		}
	}
	// sa^2 <= 0 makes the integral diverge; decide it exactly.
	if alpha > 1 && !math.IsInf(alpha, 1) {
		sa2 := saSquared(s1, s2, alpha, 4*64)
		if sa2.Sign() <= 0 {
			return newF(p).SetInf(false), nil
		}
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		wp += tinyOrderBits(alpha)
		S1, S2 := fl(s1, wp), fl(s2, wp)
		dm := newF(wp).Sub(fl(m1, wp), fl(m2, wp))
		dm2 := newF(wp).Mul(dm, dm)
		logRatio := newF(wp).Sub(logF(S2, wp), logF(S1, wp))
		s22 := newF(wp).Mul(S2, S2)
		switch {
		case math.IsInf(alpha, 1): // s1 < s2
			d := newF(wp).Sub(s22, newF(wp).Mul(S1, S1))
			d.SetMantExp(d, 1)
			return logRatio.Add(logRatio, dm2.Quo(dm2, d)), nil
		case alpha == 1:
			t := newF(wp).Mul(S1, S1)
			t.Add(t, dm2)
			t.Quo(t, newF(wp).SetMantExp(s22, 1))
			t.Sub(t, fl(0.5, wp))
			return logRatio.Add(logRatio, t), nil
		}
		A := fl(alpha, wp)
		sa2 := saSquared(s1, s2, alpha, wp)
		am1 := newF(wp).Sub(A, intF(1, wp))
		t := logF(newF(wp).Quo(s22, sa2), wp)
		t.Quo(t, newF(wp).SetMantExp(am1, 1))
		u := newF(wp).Mul(A, dm2)
		u.Quo(u, newF(wp).SetMantExp(sa2, 1))
		logRatio.Add(logRatio, t)
		return logRatio.Add(logRatio, u), nil
	})
}

// tinyOrderBits is the working precision an order alpha < 1/2 costs: 1-alpha
// is exact only with -log2(alpha) more bits, and the divergence, O(alpha),
// is what is left after terms of size ~1 cancel. Without them both Ziv
// evaluations round 1-alpha to 1, cancel the alpha-dependent part exactly,
// and agree on the rest (GaussianDivergence at alpha = 2.6e-54 gave 1.7e-58
// for 7.3e-54; found by the laws package's agreement law).
func tinyOrderBits(alpha float64) uint {
	if alpha >= 0.5 || alpha <= 0 {
		return 0
	}
	return uint(-math.Log2(alpha)) + 8
}

// saSquared returns alpha s2^2 + (1-alpha) s1^2 at precision wp (exact
// enough to decide its sign: the inputs are float64).
func saSquared(s1, s2, alpha float64, wp uint) *big.Float {
	w := max(wp, 4*64)
	A := fl(alpha, w)
	a := newF(w).Mul(fl(s2, w), fl(s2, w))
	a.Mul(a, A)
	b := newF(w).Mul(fl(s1, w), fl(s1, w))
	b.Mul(b, newF(w).Sub(intF(1, w), A))
	return newF(wp).Add(a, b)
}

// Laplace returns the RDP of the Laplace mechanism with l1-sensitivity 1 and
// scale b, D_alpha(Lap(0, b) || Lap(1, b)) (Mironov 2017, Proposition 6 and
// Table II): for alpha > 1
//
//	1/(alpha-1) log( alpha/(2alpha-1) e^((alpha-1)/b) + (alpha-1)/(2alpha-1) e^(-alpha/b) ),
//
// alpha = 1 gives 1/b + e^(-1/b) - 1 and alpha = +Inf gives 1/b.
//
// Special cases are:
//
//	Laplace(b=0, alpha) = +Inf
//	Laplace(b, alpha) = error for b < 0, b = ±Inf, alpha < 1 or NaN
func (c Context) Laplace(b, alpha float64) (*big.Float, error) {
	if math.IsNaN(b) || b < 0 || math.IsInf(b, 0) {
		return nil, inputErr("Laplace", "b", b, "scale must be finite and >= 0")
	}
	if err := checkOrder("Laplace", alpha, 1, false); err != nil {
		return nil, err
	}
	p := c.prec()
	if b == 0 {
		return newF(p).SetInf(false), nil
	}
	if math.IsInf(alpha, 1) {
		return newF(p).Quo(intF(1, 64), fl(b, 64)), nil
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		B := fl(b, wp)
		inv := newF(wp).Quo(intF(1, wp), B)
		if alpha == 1 {
			e := expm1F(newF(wp).Neg(inv), wp) // e^(-1/b) - 1, no cancellation
			return e.Add(e, inv), nil
		}
		A := fl(alpha, wp)
		am1 := newF(wp).Sub(A, intF(1, wp))
		tam1 := newF(wp).Add(A, am1) // 2 alpha - 1
		if u := newF(wp).Mul(am1, inv); u.Cmp(big.NewFloat(1e9)) > 0 {
			// e^u is beyond big.Float's exponents (expF gives +Inf from
			// 1.48e9; log +Inf panicked at b = 4.7e-10, alpha = 1.75):
			// u + log((alpha + (alpha-1) e^(-(2 alpha - 1)/b))/(2 alpha - 1)),
			// the same value with e^u taken out (every term positive)
			y := expF(newF(wp).Neg(newF(wp).Mul(tam1, inv)), wp)
			y.Mul(y, am1)
			y.Add(y, A)
			y.Quo(y, tam1)
			l := logF(y, wp)
			l.Add(l, u)
			return l.Quo(l, am1), nil
		}
		x := expF(newF(wp).Mul(am1, inv), wp)
		x.Mul(x, A)
		y := expF(newF(wp).Neg(newF(wp).Mul(A, inv)), wp)
		y.Mul(y, am1)
		x.Add(x, y)
		x.Quo(x, tam1)
		l := logF(x, wp)
		return l.Quo(l, am1), nil
	})
}

// RandomizedResponse returns the Rényi divergence of order alpha between the
// outputs of binary randomized response that reports the true bit with
// probability p, D_alpha([p, 1-p] || [1-p, p]):
//
//	1/(alpha-1) log( p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha) ),
//
// alpha = 1 gives (2p-1) log(p/(1-p)) and alpha = +Inf gives |log(p/(1-p))|.
// 1-p is formed exactly.
//
// Special cases are:
//
//	RandomizedResponse(p=1/2, alpha) = 0
//	RandomizedResponse(p=0 or 1, alpha>0) = +Inf
//	RandomizedResponse(p, alpha=0) = 0
//	RandomizedResponse(p, alpha) = error for p outside [0, 1], alpha < 0 or NaN
func (c Context) RandomizedResponse(p, alpha float64) (*big.Float, error) {
	if math.IsNaN(p) || p < 0 || p > 1 {
		return nil, inputErr("RandomizedResponse", "p", p, "must be in [0, 1]")
	}
	if err := checkOrder("RandomizedResponse", alpha, 0, false); err != nil {
		return nil, err
	}
	P := fl(p, 64)
	Q := exactSum(intF(1, 64), newF(64).Neg(P))
	d, err := c.divergenceBig("RandomizedResponse", []*big.Float{P, Q}, []*big.Float{Q, P}, alpha)
	return d, err
}

// Gaussian is Context{}.Gaussian at DefaultPrec.
func Gaussian(sigma, alpha float64) (*big.Float, error) { return Context{}.Gaussian(sigma, alpha) }

// GaussianDivergence is Context{}.GaussianDivergence at DefaultPrec.
func GaussianDivergence(m1, s1, m2, s2, alpha float64) (*big.Float, error) {
	return Context{}.GaussianDivergence(m1, s1, m2, s2, alpha)
}

// Laplace is Context{}.Laplace at DefaultPrec.
func Laplace(b, alpha float64) (*big.Float, error) { return Context{}.Laplace(b, alpha) }

// RandomizedResponse is Context{}.RandomizedResponse at DefaultPrec.
func RandomizedResponse(p, alpha float64) (*big.Float, error) {
	return Context{}.RandomizedResponse(p, alpha)
}
