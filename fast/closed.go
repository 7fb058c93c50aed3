package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/divergence"
	"github.com/rdpcheck/rdpcheck/internal/puredp"
	"github.com/rdpcheck/rdpcheck/internal/sampled"
	"github.com/rdpcheck/rdpcheck/internal/sgm"
)

func checkAlpha(fn string, alpha, min float64) error {
	if math.IsNaN(alpha) || alpha < min {
		return inputErr(fn, "alpha", alpha, fmt.Sprintf("must be >= %v (or +Inf)", min))
	}
	return nil
}

// Gaussian returns the RDP of the Gaussian mechanism with l2-sensitivity 1
// and noise multiplier sigma: D_alpha(N(0,sigma^2) || N(1,sigma^2)) =
// alpha/(2 sigma^2) (Mironov 2017, Prop 7).
//
// Special cases are:
//
//	Gaussian(sigma, alpha=0) = 0
//	Gaussian(sigma, alpha=+Inf) = +Inf
//	Gaussian(sigma, alpha) = +Inf where alpha/(2 sigma^2) overflows
//	Gaussian(sigma, alpha) = error for sigma <= 0, sigma = +Inf, alpha < 0 or NaN
//
// Accuracy: rounded up, at most 4 ulps above the exact value (the product
// and quotient are formed on scaled mantissas, so neither 2 sigma^2
// overflowing nor underflowing loses the result; a subnormal result is at
// most 4 subnormal ulps above).
func Gaussian(sigma, alpha float64) (float64, error) {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 1) {
		return 0, inputErr("Gaussian", "sigma", sigma, "must be finite and > 0")
	}
	if err := checkAlpha("Gaussian", alpha, 0); err != nil {
		return 0, err
	}
	return sgm.Gaussian(sigma, alpha), nil
}

// GaussianDivergence returns D_alpha(N(m1, s1^2) || N(m2, s2^2)):
//
//	log(s2/s1) + log(s2^2/sa^2)/(2(alpha-1)) + alpha (m1-m2)^2/(2 sa^2),  sa^2 = alpha s2^2 + (1-alpha) s1^2
//
// (Gil, Alajaji, Linder 2013). With r = s1^2/s2^2 - 1, c = 1-alpha and
// lm(x) = log1p(x) - x, the variance part is N/(2c) with
//
//	N = log1p(c r) - c log1p(r) = lm(c r) - c lm(r) = alpha log1p(r) + log1p(-alpha w)
//	  = alpha (log1p(r) - w) + lm(-alpha w),   w = r/(1+r),
//
// non-negative terms above order 1 (the lm form, with sa^2/s2^2 =
// alpha - (alpha-1) s1^2/s2^2 in double-double so that it keeps its digits
// near the order where it vanishes); below order 1 the form with the
// smallest computed error bound is used (one is always within a factor of
// about 3 of cancellation-free). The mean part alpha (m1-m2)^2/(2 sa^2) is
// formed on scaled mantissas (no intermediate overflow or underflow).
//
// Special cases are:
//
//	GaussianDivergence(m1, s1, m2, s2, alpha=0) = 0
//	GaussianDivergence(m, s, m, s, alpha) = 0
//	GaussianDivergence(m1, s1, m2, s2, alpha=1) = KL = log(s2/s1) + (s1^2 + (m1-m2)^2)/(2 s2^2) - 1/2
//	GaussianDivergence(m1, s1, m2, s2, alpha>1) = +Inf where sa^2 <= 0
//	GaussianDivergence(m1, s, m2, s, alpha=+Inf) = +Inf for m1 != m2
//	GaussianDivergence(m1, s1, m2, s2, alpha=+Inf) = +Inf for s1 > s2, log(s2/s1) + (m1-m2)^2/(2(s2^2-s1^2)) for s1 < s2
//	GaussianDivergence(...) = +Inf where the value overflows
//	GaussianDivergence(...) = error for NaN or infinite means, s1 or s2 <= 0 or +Inf, alpha < 0 or NaN
//
// Accuracy: the value carries a running bound on its absolute error and is
// rounded up by it, so it is never below the exact value. The relative
// error measured against the reference is below 7e-15 (the largest over
// 100,000 random draws with means in [-5, 5], s1, s2 in [1e-3, 1e3] and
// alpha over (0, 1000] and +Inf is 6.6e-15, at alpha near 0.4 with
// unequal variances, where the best form still cancels by about 3). Where
// sa^2 is within 2^-98 (alpha s2^2 + (alpha-1) s1^2) of 0 its sign cannot
// be decided and the result is +Inf; so it is where the value overflows
// (the KL divergence for s1/s2 beyond 1.3e154 included), and at orders
// above 1 so large that the evaluation overflows the result is the value
// at alpha = +Inf, an upper bound.
func GaussianDivergence(m1, s1, m2, s2, alpha float64) (float64, error) {
	const fn = "GaussianDivergence"
	for _, v := range []struct {
		n string
		x float64
	}{{"m1", m1}, {"m2", m2}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return 0, inputErr(fn, v.n, v.x, "must be finite")
		}
	}
	for _, v := range []struct {
		n string
		x float64
	}{{"s1", s1}, {"s2", s2}} {
		if math.IsNaN(v.x) || v.x <= 0 || math.IsInf(v.x, 1) {
			return 0, inputErr(fn, v.n, v.x, "must be finite and > 0")
		}
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	return divergence.Gaussian(m1, s1, m2, s2, alpha), nil
}

// Laplace returns the RDP of the Laplace mechanism with l1-sensitivity 1
// and scale b, D_alpha(Lap(0,b) || Lap(1,b)) (Mironov 2017, Prop 6):
//
//	1/(alpha-1) log( alpha/(2alpha-1) e^((alpha-1)/b) + (alpha-1)/(2alpha-1) e^(-alpha/b) )
//
// evaluated as log1p((alpha em((alpha-1)/b) + (alpha-1) em(-alpha/b))/(2alpha-1))/(alpha-1)
// with em(y) = expm1(y)-y >= 0, which keeps every digit for large b.
//
// Special cases are:
//
//	Laplace(b, alpha=1) = 1/b + e^(-1/b) - 1
//	Laplace(b, alpha=+Inf) = 1/b
//	Laplace(b, alpha) = error for b <= 0, b = +Inf, alpha < 1 or NaN
//
// Accuracy: rounded up by 64 ulps; relative error below 1e-14.
func Laplace(b, alpha float64) (float64, error) {
	if math.IsNaN(b) || b <= 0 || math.IsInf(b, 1) {
		return 0, inputErr("Laplace", "b", b, "must be finite and > 0")
	}
	if err := checkAlpha("Laplace", alpha, 1); err != nil {
		return 0, err
	}
	return sampled.Laplace(b, alpha), nil
}

// RandomizedResponse returns the RDP of binary randomized response that
// reports the true bit with probability p:
//
//	1/(alpha-1) log( p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha) )
//
// (Mironov 2017, Prop 5). With P = max(p, 1-p), Q = 1-P and
// r = log(P/Q), it is evaluated as
// log1p(P em((alpha-1)r) + Q em(-(alpha-1)r) + (P-Q)(alpha-1)r)/(alpha-1),
// a sum of non-negative terms (em(y) = expm1(y) - y). The exact p is kept:
// for p < 1/2, Q = p and r = log1p(-p) - log(p) (or log1p((1-2p)/p) for p
// near 1/2), so 1-p is never rounded into a different mechanism.
//
// Special cases are:
//
//	RandomizedResponse(p=1/2, alpha) = 0
//	RandomizedResponse(p=0 or 1, alpha) = +Inf
//	RandomizedResponse(p, alpha=1) = (2p-1) log(p/(1-p))
//	RandomizedResponse(p, alpha=+Inf) = |log(p/(1-p))|
//	RandomizedResponse(p, alpha) = error for p outside [0,1] or NaN, alpha < 1 or NaN
//
// Accuracy: the value carries a running bound on its absolute error and is
// rounded up by it, so it is never below the exact value. The relative
// error measured against the reference is below 4e-15 (the largest over
// 43,000 random draws with p over (0, 1) and down to 1e-300 and orders up
// to 1e4 and +Inf is 3.5e-15).
func RandomizedResponse(p, alpha float64) (float64, error) {
	if math.IsNaN(p) || p < 0 || p > 1 {
		return 0, inputErr("RandomizedResponse", "p", p, "must be in [0, 1]")
	}
	if err := checkAlpha("RandomizedResponse", alpha, 1); err != nil {
		return 0, err
	}
	return puredp.RandomizedResponse(p, alpha), nil
}
