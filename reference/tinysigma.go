package reference

// The tiny-sigma regime of the sampled Gaussian mechanism. As sigma -> 0 the
// general method (moment.go, sgm.go) meets exponents like alpha^2/(2 s^2)
// beyond big.Float's range (sigma = 1e-20 gives 5e39 nats, where even its
// float64 planning is meaningless): it overflowed (a panic in logF) or
// failed at every precision while the Ziv loop raised it towards
// MaxWorkingPrec, where the Gauss-Legendre rules take hours. There the two
// divergences are instead pinned between proven bounds that are closer than
// the precision asked for, and the value between them is returned.
//
// Forward, a = 1-q, b = q, L = exp((2z-1)/(2 s^2)), in L^alpha(mu0) (alpha >
// 1): I(alpha) = ||a + bL||^alpha, and ||L|| = E[L^alpha]^(1/alpha) = M =
// exp((alpha-1)/(2 s^2)). Since a + bL >= bL > 0, and by Minkowski,
//
//	(bM)^alpha <= I(alpha) <= (a + bM)^alpha,
//
// so with X = alpha log q + alpha (alpha-1)/(2 s^2) = alpha log(bM),
// X <= log I(alpha) <= X + G, G = alpha log1p(a/(bM)) <= alpha (a/b)/M. When
// X > 0, forward = X/(alpha-1) with relative error at most G/X.
//
// Backward, gamma = alpha-1: I(1-alpha) = E[(a + bL)^-gamma] <= a^-gamma as
// L > 0. For z <= 1/4, L <= l = exp(-1/(4 s^2)), and (1+x)^-gamma >= 1 -
// gamma x (convexity), so the integrand is at least a^-gamma (1 - d1) with
// d1 = gamma (b/a) l; and P(z <= 1/4) >= 1 - d2, d2 = exp(-1/(32 s^2))
// (P(Z > x) <= exp(-x^2/2)). Hence, with d1, d2 <= 1/2 (-log(1-d) <= 2d),
//
//	-log1p(-q) - 2(d1+d2)/gamma <= backward <= -log1p(-q),
//
// a relative gap of at most 4 max(d1, d2)/(gamma |log1p(-q)|).
//
// Each regime is used only when its gap is provably below 2^-(prec+64); then
// the bound's value, correct to prec bits by the Ziv loop, is correct to prec
// bits for the divergence. The decision is made in float64 log space with a
// 20-nat margin, far beyond float64 rounding (the logs are formed from alpha,
// q and log sigma, never from sigma^2, which can underflow). It is a
// sufficient condition only: outside it the general method runs.

import (
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// tinyMargin is the slack, in nats, that covers float64 rounding in the
// regime decisions below.
const tinyMargin = 20

// tinyLimit returns log 2^-(prec+64) - tinyMargin: the log relative gap the
// regimes must stay below.
func tinyLimit(prec uint) float64 {
	return -float64(prec+64)*math.Ln2 - tinyMargin
}

// tinyForwardOK reports whether the forward bound of the tiny-sigma regime
// is within 2^-(prec+64) relative, for 0 < q < 1, 0 < sigma, finite alpha > 1.
func tinyForwardOK(q, sigma, alpha float64, prec uint) bool {
	// A = (alpha-1)/(2 s^2) = log M, from logs so that s^2 cannot underflow.
	A := math.Exp(math.Log(alpha-1) - math.Ln2 - 2*math.Log(sigma))
	lq := xmath.Log(q)
	y := A + lq // X/alpha
	if !(y > 0) {
		return false
	}
	logG := math.Log(alpha) + math.Log1p(-q) - lq - A
	logX := math.Log(alpha) + math.Log(y)
	return logG-logX < tinyLimit(prec)
}

// tinyBackwardOK is tinyForwardOK for the backward bound.
func tinyBackwardOK(q, sigma, alpha float64, prec uint) bool {
	ls := math.Log(sigma)
	lgamma := math.Log(alpha - 1)
	ld1 := lgamma + xmath.Log(q) - math.Log1p(-q) - math.Exp(-2*ls-math.Log(4))
	ld2 := -math.Exp(-2*ls - math.Log(32))
	ld := math.Max(ld1, ld2)
	if !(ld < -math.Ln2) { // d1, d2 <= 1/2, for -log(1-d) <= 2d
		return false
	}
	rel := math.Log(4) + ld - lgamma - math.Log(-math.Log1p(-q))
	return rel < tinyLimit(prec)
}

// tinyForward returns X/(alpha-1) = alpha log q/(alpha-1) + alpha/(2 s^2) to
// prec bits. The two terms have opposite signs; the Ziv loop catches their
// cancellation (bounded: tinyForwardOK requires X/alpha > 60, while
// |log q| <= 745).
func tinyForward(q, sigma, alpha float64, prec uint) (*big.Float, error) {
	return ziv(prec, func(wp uint) (*big.Float, error) {
		al := fl(alpha, wp)
		am1 := newF(wp).Sub(al, intF(1, 64))
		t := logF(fl(q, wp), wp)
		t.Mul(t, al)
		t.Quo(t, am1)
		s := fl(sigma, wp)
		s2 := newF(wp).Mul(s, s)
		s2.SetMantExp(s2, 1)
		u := newF(wp).Quo(al, s2)
		return t.Add(t, u), nil
	})
}

// tinyBackward returns -log1p(-q) to prec bits.
func tinyBackward(q float64, prec uint) (*big.Float, error) {
	return ziv(prec, func(wp uint) (*big.Float, error) {
		v := log1pF(fl(-q, 64), wp)
		return v.Neg(v), nil
	})
}
