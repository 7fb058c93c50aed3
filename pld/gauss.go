package pld

import (
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// GaussianDelta returns a certified interval for the optimal delta(eps) of
// count compositions of the Gaussian mechanism with L2 sensitivity 1 and
// noise standard deviation sigma (add/remove or replace-one: the pair
// N(0, sigma^2), N(1, sigma^2) is symmetric, so both directions agree).
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
// until it is overcome).
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
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	return gaussDelta(sigma, count, eps), nil
}

func gaussDelta(sigma float64, count int, eps float64) Interval {
	switch {
	case math.IsInf(eps, 1):
		return Interval{0, 0}
	case math.IsInf(eps, -1):
		return Interval{1, 1}
	}
	eval := func(wp uint) *big.Float {
		mu := newF(wp).Sqrt(newF(wp).SetInt64(int64(count)))
		mu.Quo(mu, newF(wp).SetFloat64(sigma))
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

// outward rounds x to float64 widened by rel relative on each side, with Lo
// clamped at 0.
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
	if lo < 0 {
		lo = 0
	}
	return Interval{lo, hi}
}

var inf = math.Inf(1)

// GaussianEpsilon returns a certified interval for the optimal eps(delta)
// = inf{eps >= 0 : delta(eps) <= delta} of count compositions of the
// Gaussian mechanism (sensitivity 1, noise sigma). The bounds come from
// GaussianDelta by bisection (see invert): Hi is an eps whose certified
// delta is at most delta, Lo one whose certified delta exceeds delta (or 0).
func GaussianEpsilon(sigma float64, count int, delta float64) (Interval, error) {
	const fn = "GaussianEpsilon"
	if err := checkSigma(fn, sigma); err != nil {
		return Interval{}, err
	}
	if err := checkCount(fn, count); err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	return invert(func(e float64) Interval { return gaussDelta(sigma, count, e) }, delta, 1e-12)
}

// invert returns a certified interval for inf{eps >= 0 : d(eps) <= delta}
// where d is a non-increasing function and prof(eps) a certified interval
// for d(eps). Hi is an eps with prof(eps).Hi <= delta (so d(Hi) <= delta);
// Lo is 0 or an eps with prof(eps).Lo > delta (so d(Lo) > delta and, d
// being non-increasing, every eps <= Lo has d(eps) > delta). Each end is
// checked at the value returned, so neither relies on prof being monotone.
// The search stops when the bracket is within tol relative.
func invert(prof func(float64) Interval, delta, tol float64) (Interval, error) {
	// Upper end: find b with prof(b).Hi <= delta.
	hi, err := bisect(func(e float64) bool { return prof(e).Hi <= delta }, tol)
	if err != nil {
		return Interval{0, inf}, err
	}
	okLo := func(e float64) bool { return !(prof(e).Lo > delta) }
	// The lower end's crossing is at most hi.first; try a bracket just
	// below it first (checked at both ends), then the full search.
	var lo bracket
	if a := hi.first * (1 - 64*tol); hi.first > 0 && a > 0 && !okLo(a) && okLo(hi.first) {
		lo, err = bisectIn(okLo, a, hi.first, tol)
	} else {
		lo, err = bisect(okLo, tol)
	}
	if err != nil {
		return Interval{0, hi.first}, err
	}
	// lo is the first eps (to tol) where the lower bound does not exceed
	// delta; step back to the last eps where it was checked to exceed it.
	return Interval{lo.last, hi.first}, nil
}

type bracket struct{ last, first float64 }

// bisect finds, for a predicate ok that is false at small eps and true at
// large (not assumed monotone), first: an eps where ok was checked true, and
// last: 0 or an eps < first where ok was checked false, with first - last
// <= tol first (or first <= 2^-1000).
func bisect(ok func(float64) bool, tol float64) (bracket, error) {
	if ok(0) {
		return bracket{0, 0}, nil
	}
	a, b := 0.0, 1.0
	for !ok(b) {
		a = b
		b *= 2
		if b > 1e6 {
			return bracket{a, inf}, &precisionErr{"invert", "no eps up to 1e6 with delta(eps) <= delta"}
		}
	}
	return bisectIn(ok, a, b, tol)
}

// bisectIn narrows [a, b], ok(a) checked false (or a = 0 with ok(0)
// checked false) and ok(b) checked true, to b - a <= tol b.
func bisectIn(ok func(float64) bool, a, b, tol float64) (bracket, error) {
	for b-a > tol*b && b > 0x1p-1000 {
		m := a + (b-a)/2
		if m <= a || m >= b {
			break
		}
		if ok(m) {
			b = m
		} else {
			a = m
		}
	}
	return bracket{a, b}, nil
}
