package pld

import (
	"context"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// GaussianDelta returns a certified interval for the optimal delta(eps) of
// count compositions of the Gaussian mechanism with L2 sensitivity 1 and
// noise standard deviation sigma (add/remove or replace-one: the pair
// N(0, sigma^2), N(1, sigma^2) is symmetric, so both directions agree):
// Delta of count Gaussian events.
//
// Method. The composition is the Gaussian mechanism with mu = sqrt(count)/sigma
// (Dong, Roth, Su 2019, Cor. 2.7), whose privacy loss under P is
// N(mu^2/2, mu^2), and (Balle, Wang 2018, Thm. 8)
//
//	delta(eps) = Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2),   Q(x) = P(Z > x).
//
// The right side is evaluated in big.Float (bigNormTail, Ziv-checked) at two
// precisions until they agree to 64 bits; the float64 interval is that value
// widened by 2^-60 relative on each side and rounded outward, so it holds
// whatever the cancellation between the two terms (the precision is doubled
// until it is overcome). Where eps/mu - mu/2 > 40, delta(eps) <=
// Q(40) < e^-800 is below the least float64: [0, 2^-1074].
//
// Special cases:
//
//	GaussianDelta(sigma, count, +Inf) = [0, 0]
//	GaussianDelta(sigma, count, -Inf) = [1, 1]
func GaussianDelta(sigma float64, count int, eps float64) (Interval, error) {
	const fn = "GaussianDelta"
	if err := checkSigma(fn, sigma); err != nil {
		return Interval{}, err
	}
	if err := checkCount(fn, count); err != nil {
		return Interval{}, err
	}
	return Delta(context.Background(), Composition{Terms: []Term{{Gaussian{sigma}, int64(count)}}}, eps)
}

// gaussDeltaMu2 is the Gaussian mechanism's delta(eps) at mu^2 = m2 (an
// exact value; see GaussianDelta's Method).
func gaussDeltaMu2(m2 *big.Float, eps float64) Interval {
	switch {
	case math.IsInf(eps, 1):
		return Interval{0, 0}
	case math.IsInf(eps, -1):
		return Interval{1, 1}
	case eps < -745:
		// delta = 1 - e^eps and then some; e^eps < 2^-1074
		return Interval{math.Nextafter(1, 0), 1}
	}
	mf, _ := m2.Float64()
	if mu := math.Sqrt(mf); eps/mu-mu/2 > 40*(1+1e-10) {
		return Interval{0, math.SmallestNonzeroFloat64}
	}
	eval := func(wp uint) *big.Float {
		mu := newF(wp).Sqrt(newF(wp).Set(m2))
		e := newF(wp).SetFloat64(eps)
		a := newF(wp).Quo(e, mu)
		half := newF(wp).Quo(mu, newF(wp).SetInt64(2))
		b := newF(wp).Add(a, half)
		a.Sub(a, half)
		qa := bigNormTail(a, wp)
		qb := bigNormTail(b, wp)
		qb.Mul(qb, bigfloat.Exp(e))
		return newF(wp).Sub(qa, qb)
	}
	wp := uint(128)
	for {
		x, y := eval(wp), eval(2*wp)
		if agreeBits(x, y, 64) || wp > 1<<16 {
			return outward(y, 0x1p-60)
		}
		wp *= 2
	}
}

// outward rounds x, a delta, to float64 widened by rel relative on each
// side, clamped to [0, 1] where every delta lies.
func outward(x *big.Float, rel float64) Interval {
	v, _ := x.Float64()
	if v <= 0 {
		// The exact value is >= 0 (a hockey-stick divergence); |x| is within
		// rel of it, so it is at most rel |v|.
		return Interval{0, math.Max(0, -v*rel) + math.SmallestNonzeroFloat64}
	}
	lo := v * (1 - rel)
	hi := v * (1 + rel)
	lo = math.Nextafter(lo, 0)
	hi = math.Nextafter(hi, inf)
	return Interval{math.Max(lo, 0), math.Min(hi, 1)}
}

var inf = math.Inf(1)

// GaussianEpsilon returns a certified interval for the optimal eps(delta)
// = inf{eps >= 0 : delta(eps) <= delta} of count compositions of the
// Gaussian mechanism (sensitivity 1, noise sigma): Epsilon of count
// Gaussian events, by bisection on GaussianDelta's closed form (see
// invert): Hi is an eps whose certified delta is at most delta, Lo one
// whose certified delta exceeds delta (or 0).
func GaussianEpsilon(sigma float64, count int, delta float64) (Interval, error) {
	const fn = "GaussianEpsilon"
	if err := checkSigma(fn, sigma); err != nil {
		return Interval{}, err
	}
	if err := checkCount(fn, count); err != nil {
		return Interval{}, err
	}
	return Epsilon(context.Background(), Composition{Terms: []Term{{Gaussian{sigma}, int64(count)}}}, delta)
}
