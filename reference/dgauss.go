package reference

import (
	"math"
	"math/big"
)

// DiscreteGaussian returns the Rényi divergence of order alpha between the
// discrete Gaussians N_Z(0, sigma^2) and N_Z(sensitivity, sigma^2) on the
// integers (Canonne, Kamath, Steinke 2020, arXiv 2004.00010, Definition 1:
// P(x) proportional to exp(-x^2/(2 sigma^2)) for x in Z), for an integer
// sensitivity. This is the exact divergence, not the bound of their
// Proposition 5 (the mechanism is (1/2 sensitivity^2/sigma^2)-zCDP, i.e.
// D_alpha <= alpha sensitivity^2/(2 sigma^2), which dp_accounting uses).
//
// Derivation. Both distributions share the normaliser (an integer shift
// does not change sum_x exp(-(x-m)^2/(2 sigma^2))), and completing the
// square in the exponent
//
//	alpha x^2 + (1-alpha)(x-D)^2 = (x-c)^2 - alpha(alpha-1) D^2,  c = (1-alpha) D,
//
// gives sum_x P^alpha Q^(1-alpha) = e^(alpha(alpha-1) D^2/(2 sigma^2)) theta(c)/theta(0)
// with theta(t) = sum_{x in Z} exp(-(x-t)^2/(2 sigma^2)), so
//
//	D_alpha = alpha D^2/(2 sigma^2) + log(theta(c)/theta(0)) / (alpha-1).
//
// theta is 1-periodic and even, so only f = dist(alpha D, Z) in [0, 1/2]
// matters, and theta(f) <= theta(0) with equality iff f = 0: the zCDP line
// is attained exactly when (1-alpha) D is an integer (their Proposition 5's
// equality case), and lies strictly above otherwise for alpha > 1.
//
// Evaluation, by sigma:
//
//   - sigma <= 1, the direct sum: log theta(t) = -t^2/(2 sigma^2) + log S(t),
//     S(t) = sum_x exp(-(x^2 - 2xt)/(2 sigma^2)) >= 1 (the x = 0 term), all
//     terms positive; the sum is cut where the remaining terms, bounded by a
//     geometric series, fall below 2^-(wp+8) of S.
//   - sigma > 1, Poisson summation (the Jacobi theta transform):
//     theta(t) = sigma sqrt(2 pi) sum_k q^(k^2) cos(2 pi k t), q = e^(-2 pi^2 sigma^2),
//     so 1 - theta(f)/theta(0) = r = 4 sum_{k>=1} q^(k^2) sin^2(pi k f) / (1 + 2 sum_{k>=1} q^(k^2)),
//     a sum of positive terms, and the log ratio is log1p(-r) with r < 1e-8:
//     no cancellation, and a handful of terms instead of about sigma.
//
// The only cancellation is D_alpha = M + L/(alpha-1) with M the zCDP line
// and L <= 0: for alpha > 1, D_alpha >= D_1 = D^2/(2 sigma^2) >= M/alpha
// (monotonicity in the order), and for alpha < 1 both parts are >= 0; the
// absolute error of L, at most 2^-wp (|L| + 2) for the direct sum, is
// therefore paid for by log2(alpha+1) + log2(1 + 2 sigma^2/(|alpha-1| D^2
// min(alpha, 1))) extra bits (dgaussExtraBits).
//
// Special cases are:
//
//	DiscreteGaussian(sigma, 0, alpha) = 0
//	DiscreteGaussian(sigma, D, alpha) = alpha D^2/(2 sigma^2) when (1-alpha) D is an integer (alpha = 0, 1 included)
//	DiscreteGaussian(sigma, D, +Inf) = +Inf for D != 0
//	DiscreteGaussian = error for sigma <= 0, ±Inf or NaN, a non-integer or infinite sensitivity, alpha < 0 or NaN
func (c Context) DiscreteGaussian(sigma, sensitivity, alpha float64) (*big.Float, error) {
	const fn = "DiscreteGaussian"
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return nil, inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if math.IsNaN(sensitivity) || math.IsInf(sensitivity, 0) || sensitivity != math.Trunc(sensitivity) {
		return nil, inputErr(fn, "sensitivity", sensitivity, "must be a finite integer")
	}
	if err := checkOrder(fn, alpha, 0, false); err != nil {
		return nil, err
	}
	p := c.prec()
	d := math.Abs(sensitivity) // theta is even: the sign does not matter
	switch {
	case d == 0:
		return newF(p), nil
	case math.IsInf(alpha, 1):
		return newF(p).SetInf(false), nil
	}
	f := distToZ(alpha, d)
	if f.Sign() == 0 {
		return zcdpLine(sigma, d, alpha, p), nil
	}
	extra := dgaussExtraBits(sigma, d, alpha)
	return ziv(p, func(wp uint) (*big.Float, error) {
		wp += extra
		M := zcdpLine(sigma, d, alpha, wp)
		var L *big.Float
		if sigma <= 1 {
			L = dgaussLogRatioDirect(sigma, f, wp)
		} else {
			L = dgaussLogRatioDual(sigma, f, wp)
		}
		am1 := exactSum(fl(alpha, 64), intF(-1, 64))
		L.Quo(L, am1)
		return M.Add(M, L), nil
	})
}

// DiscreteGaussian is Context{}.DiscreteGaussian at DefaultPrec.
func DiscreteGaussian(sigma, sensitivity, alpha float64) (*big.Float, error) {
	return Context{}.DiscreteGaussian(sigma, sensitivity, alpha)
}

// zcdpLine returns alpha d^2/(2 sigma^2) correctly rounded to p bits (the
// numerator and denominator are exact at 4*64 bits).
func zcdpLine(sigma, d, alpha float64, p uint) *big.Float {
	num := newF(4*64).Mul(fl(d, 64), fl(d, 64))
	num.Mul(num, fl(alpha, 64))
	den := newF(2*64+2).Mul(fl(sigma, 64), fl(sigma, 64))
	den.SetMantExp(den, 1)
	return newF(p).Quo(num, den)
}

// distToZ returns the distance of alpha d to the nearest integer, exactly
// (alpha and d are float64, so their product is exact in 106 bits); it is
// also the distance of c = (1-alpha) d to the integers, d being one.
func distToZ(alpha, d float64) *big.Float {
	x := newF(2*64).Mul(fl(alpha, 64), fl(d, 64))
	i, _ := x.Int(nil) // truncation toward zero; x >= 0
	fr := newF(2*64).Sub(x, newF(2*64).SetInt(i))
	if fr.Cmp(big.NewFloat(0.5)) > 0 {
		fr.Sub(intF(1, 2*64), fr)
	}
	return fr
}

// dgaussExtraBits is the proven cancellation allowance of D = M + L/(alpha-1)
// (see DiscreteGaussian), plus the bits that 1-alpha needs to be exact.
func dgaussExtraBits(sigma, d, alpha float64) uint {
	am1 := math.Abs(alpha - 1)
	if am1 == 0 {
		am1 = math.SmallestNonzeroFloat64
	}
	r := 2 * sigma * sigma / (am1 * d * d * math.Min(alpha, 1))
	b := math.Log2(alpha+1) + math.Log2(1+r)
	if math.IsInf(b, 0) || b > 1<<13 {
		b = 1 << 13
	}
	return uint(b) + 8 + tinyOrderBits(alpha)
}

// dgaussLogRatioDirect returns log(theta(f)/theta(0)) by the direct sums, for
// sigma <= 1 and f in (0, 1/2].
func dgaussLogRatioDirect(sigma float64, f *big.Float, wp uint) *big.Float {
	s2 := newF(wp).Mul(fl(sigma, wp), fl(sigma, wp))
	s2.SetMantExp(s2, 1) // 2 sigma^2
	F := newF(wp).Set(f)
	l := newF(wp).Mul(F, F)
	l.Quo(l, s2)
	l.Neg(l) // -f^2/(2 sigma^2)
	lf := logF(thetaS(sigma, F, s2, wp), wp)
	l0 := logF(thetaS(sigma, newF(wp), s2, wp), wp)
	l.Add(l, lf)
	return l.Sub(l, l0)
}

// thetaS returns S(t) = sum_x exp(-(x^2 - 2 x t)/(2 sigma^2)) for t in
// [0, 1/2] (s2 = 2 sigma^2). The exponent e(x) = (x^2 - 2xt)/s2 is >= 0 at
// every integer and grows by at least (2|x|-1-2t)/s2 >= 1/s2 >= 1/2 per step
// away from {0, 1}, so the terms beyond the last one kept (e(x) > E) sum to
// at most e^-E/(1 - e^-1/2) < 2.6 e^-E; with E = (wp+10) ln 2 that is below
// 2^-(wp+8) S, S being >= 1.
func thetaS(sigma float64, t, s2 *big.Float, wp uint) *big.Float {
	E := float64(wp+10) * math.Ln2
	sum := newF(wp)
	tf, _ := t.Float64()
	s2f := 2 * sigma * sigma
	for _, dir := range []int64{1, -1} {
		x := int64(0)
		if dir == 1 {
			x = 1
		} else {
			x = 0
		}
		for ; ; x += dir {
			xf := float64(x)
			// float64 estimate only decides where to stop, with a margin of 1.
			if (xf*xf-2*xf*tf)/s2f > E+1 {
				break
			}
			X := intF(x, wp)
			e := newF(wp).Mul(X, X)
			e.Sub(e, newF(wp).Mul(newF(wp).SetMantExp(X, 1), t))
			e.Quo(e, s2)
			sum.Add(sum, expF(e.Neg(e), wp))
		}
	}
	return sum
}

// dgaussLogRatioDual returns log(theta(f)/theta(0)) = log1p(-r) by Poisson
// summation for sigma > 1 (see DiscreteGaussian). With q = e^(-2 pi^2
// sigma^2) < 2.7e-9: a term q^(k^2) sin^2(pi k f) <= q^(k^2) (pi k f)^2 is,
// relative to the first, q sin^2(pi f) >= q (2f)^2 (sin(pi f) >= 2f on
// [0, 1/2]), at most (pi^2/4) k^2 q^(k^2-1); the loop stops at the first k
// with k^2 q^(k^2-1) < 2^-(wp+12), and the terms after it shrink by factors
// below q^(2k+1) < 1e-8, so the whole tail is below 2^-(wp+8) of the sum.
// The same cut serves the denominator, whose sum starts at 1.
func dgaussLogRatioDual(sigma float64, f *big.Float, wp uint) *big.Float {
	lq := -2 * math.Pi * math.Pi * sigma * sigma // log q, float64: only for the cut
	pi := consts(wp).pi
	s := fl(sigma, wp)
	Lq := newF(wp).Mul(pi, pi)
	Lq.Mul(Lq, s)
	Lq.Mul(Lq, s)
	Lq.SetMantExp(Lq, 1)
	Lq.Neg(Lq) // log q at wp
	num, den := newF(wp), intF(1, wp)
	if lq < -1.4e9 { // q below big.Float's range: r is 0 at any working precision
		return newF(wp)
	}
	for k := int64(1); ; k++ {
		kf := float64(k)
		if k > 1 && 2*math.Log(kf)+(kf*kf-1)*lq < -float64(wp+12)*math.Ln2 {
			break
		}
		qk := expF(newF(wp).Mul(Lq, intF(k*k, wp)), wp)
		// sin^2(pi k f): reduce k f modulo 1 exactly first.
		kfv := newF(wp+64).Mul(intF(k, 64), f)
		i, _ := kfv.Int(nil)
		kfv.Sub(kfv, newF(wp+64).SetInt(i))
		sn := sinPi(kfv, wp)
		sn.Mul(sn, sn)
		num.Add(num, sn.Mul(sn, qk))
		den.Add(den, newF(wp).SetMantExp(qk, 1))
	}
	num.SetMantExp(num, 2)
	num.Quo(num, den)
	return log1pF(num.Neg(num), wp)
}

// sinPi returns sin(pi t) for t in [0, 1), to wp bits: sin(pi t) =
// sin(pi (1-t)) maps t into [0, 1/2], and the Taylor series of sin x for
// x = pi t <= pi/2 alternates with decreasing terms once 2n+1 > x, so the
// first omitted term bounds the error; it is cut below 2^-(wp+8) x.
func sinPi(t *big.Float, wp uint) *big.Float {
	w := wp + 16
	T := newF(w).Set(t)
	if T.Cmp(big.NewFloat(0.5)) > 0 {
		T.Sub(intF(1, w), T)
	}
	x := newF(w).Mul(consts(w).pi, T)
	if x.Sign() == 0 {
		return newF(wp)
	}
	x2 := newF(w).Mul(x, x)
	term := newF(w).Set(x)
	sum := newF(w).Set(x)
	lim := newF(w).SetMantExp(x, -int(wp+8))
	for n := int64(1); ; n++ {
		term.Mul(term, x2)
		term.Quo(term, intF((2*n)*(2*n+1), w))
		term.Neg(term)
		sum.Add(sum, term)
		if newF(w).Abs(term).Cmp(lim) < 0 {
			break
		}
	}
	return newF(wp).Set(sum)
}
