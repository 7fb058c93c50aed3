package reference

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// logMomentInteger returns log I(a) for an integer a >= 2 from the finite
// binomial sum, written so that nothing cancels:
//
//	I - 1 = sum_{k>=2} C(a,k) (1-q)^(a-k) q^k expm1((k^2-k)/(2 s^2)),
//
// since sum_k C(a,k)(1-q)^(a-k) q^k = 1 and the k = 0, 1 terms vanish. All
// terms are non-negative, so I - 1 keeps full relative precision at any q;
// then log I = log1p(I - 1). Terms below 2^-wp of the largest (by a float64
// estimate with a 30-nat margin) are skipped; they cannot change the result.
func logMomentInteger(q, sigma float64, a int64, wp uint) (*big.Float, error) {
	s2 := sigma * sigma
	lq, l1q := xmath.Log(q), math.Log1p(-q)
	fa := float64(a)
	est := make([]float64, a+1)
	logC, mx := 0.0, math.Inf(-1)
	for k := int64(0); k <= a; k++ {
		fk := float64(k)
		if k >= 2 {
			e := (fk*fk - fk) / (2 * s2)
			le := e + math.Log(-math.Expm1(-e)) // log expm1(e), valid for large e too
			est[k] = logC + (fa-fk)*l1q + fk*lq + le
			mx = math.Max(mx, est[k])
		}
		logC += math.Log(fa-fk) - math.Log(fk+1)
	}
	cut := mx - float64(wp)*math.Ln2 - 30 - math.Log(fa)
	M := mx

	sigB := fl(sigma, wp)
	twoS2 := newF(wp).Mul(sigB, sigB)
	twoS2.SetMantExp(twoS2, 1)
	lqB := logF(fl(q, wp), wp)
	l1qB := log1pF(fl(-q, 64), wp)
	dl := newF(wp).Sub(lqB, l1qB)
	base := newF(wp).Mul(fl(fa, wp), l1qB) // a log(1-q)
	base.Sub(base, fl(M, wp))
	sum := newF(wp)
	C := intF(1, wp)
	for k := int64(0); k <= a; k++ {
		if k > 0 {
			C.Mul(C, intF(a-k+1, wp))
			C.Quo(C, intF(k, wp))
		}
		if k < 2 || est[k] < cut {
			continue
		}
		kB := intF(k, wp)
		E := newF(wp).Mul(kB, kB)
		E.Sub(E, kB)
		E.Quo(E, twoS2)
		X := newF(wp).Mul(kB, dl)
		X.Add(X, base)
		var v *big.Float
		if ef, _ := E.Float64(); ef > 64 {
			// e^X expm1(E) = e^(X+E) (1 - e^-E), kept in range.
			v = expF(newF(wp).Add(X, E), wp)
			v.Mul(v, newF(wp).Neg(expm1F(newF(wp).Neg(E), wp)))
		} else {
			v = expF(X, wp)
			v.Mul(v, expm1F(E, wp))
		}
		sum.Add(sum, v.Mul(v, C))
	}
	if sum.Sign() <= 0 {
		return newF(wp), nil // every term underflowed the estimate: I - 1 < 2^-wp
	}
	if sum.IsInf() { // not reached since tinysigma.go, but never a panic
		return nil, errOutOfRange
	}
	// log I = log1p(e^M sum), without forming e^M when it is huge.
	ls := logF(sum, wp)
	ls.Add(ls, fl(M, wp))
	if f, _ := ls.Float64(); f > 64 {
		corr := log1pF(expF(newF(wp).Neg(ls), wp), wp)
		return ls.Add(ls, corr), nil
	}
	return log1pF(expF(ls, wp+32), wp), nil
}

// momentExtraBits is the precision lost when I is formed as a sum of terms of
// size ~1 but I - 1 is tiny (small q): I - 1 ~ |b(b-1)|/2 q^2 expm1(1/s^2).
// The estimate is formed in log2 so that it cannot underflow: for q = 1e-200,
// I - 1 ~ 1e-400 needs ~1330 extra bits (an underflowed estimate once gave
// none, and the backward check's rounding noise, ~q, beat the true value).
func momentExtraBits(q, sigma, beta float64) uint {
	if q >= 0.25 {
		return 0
	}
	lg := math.Log2(math.Abs(beta*(beta-1))/2) + 2*math.Log2(q) + math.Log2(math.Expm1(1/(sigma*sigma)))
	if math.IsNaN(lg) || math.IsInf(lg, 0) || lg >= -1 {
		return 0
	}
	return uint(-lg) + 8
}

// maxSeriesPrec caps the working precision logMoment may raise the series
// to when its value shows more cancellation than momentExtraBits expected.
const maxSeriesPrec = 4 * MaxWorkingPrec

// logMoment returns log I(beta) at working precision wp, choosing the method.
//
// The series forms I ~ 1 to an absolute error ~2^-w (w = wp + extra), cutting
// terms e^-30 2^-w below the largest; log I is then good to about wp bits
// only if |log I| >= 2^-extra. momentExtraBits guesses extra from the
// small-q expansion, which fails where q e^(1/s^2) is not small: it asks for
// nothing while log I is as small as ~(alpha-1) q, and the terms that make
// up log I lie below the cut at every Ziv precision, so the two evaluations
// agree on a wrong value (forward divergences of -4.5e-285 at s = 1e-3,
// q = 1e-300, alpha = 1 + 2^-52; backward ones wrong in the 17th digit, or
// 4e4 times too large at s = 0.03). So the value is checked: log I > 0 for
// beta outside [0, 1] (Jensen), and it must not have lost more than
// extra + 40 bits (the cut's e^-30 covers 43); otherwise extra is raised to
// what it shows lost.
func logMoment(q, sigma, beta float64, wp uint, cache *curveCache) (*big.Float, error) {
	if beta == math.Trunc(beta) && beta >= 2 {
		return logMomentInteger(q, sigma, int64(beta), wp)
	}
	extra := momentExtraBits(q, sigma, beta)
	for {
		w := wp + extra
		v, err := logMomentSeries(q, sigma, beta, w, cache)
		if err != nil {
			return nil, err
		}
		lost := uint(0) // bits of |v| below 1: |v| >= 2^-lost
		if v.Sign() != 0 {
			if e := v.MantExp(nil); e <= 0 {
				lost = uint(1 - e)
			}
		}
		if v.Sign() > 0 && lost <= extra+40 {
			return v, nil
		}
		if v.Sign() <= 0 || lost+24 >= w {
			// v is at the level of the rounding noise: its size says little.
			extra = max(2*extra+wp, lost+16)
		} else {
			extra = lost + 16
		}
		if wp+extra > maxSeriesPrec {
			return nil, fmt.Errorf("%w: log I(%v) cancels beyond %d bits", ErrTooLarge, beta, maxSeriesPrec)
		}
	}
}

func (c Context) checkSGM(fn string, q, sigma, alpha float64) error {
	switch {
	case math.IsNaN(q) || q < 0 || q > 1:
		return inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	case math.IsNaN(sigma) || sigma < 0 || math.IsInf(sigma, 0):
		return inputErr(fn, "sigma", sigma, "noise multiplier must be finite and >= 0")
	case math.IsNaN(alpha) || alpha <= 1:
		return inputErr(fn, "alpha", alpha, "order must be > 1 (or +Inf)")
	case alpha == math.Trunc(alpha) && alpha > MaxIntegerOrder && !math.IsInf(alpha, 1):
		return fmt.Errorf("reference.%s: alpha = %v above MaxIntegerOrder %d: %w", fn, alpha, MaxIntegerOrder, ErrTooLarge)
	case alpha != math.Trunc(alpha) && alpha > MaxFractionalOrder:
		return fmt.Errorf("reference.%s: alpha = %v above MaxFractionalOrder %d: %w", fn, alpha, MaxFractionalOrder, ErrTooLarge)
	}
	return nil
}

// sgmSpecial handles the cases with exact answers. ok reports whether it did.
func (c Context) sgmSpecial(q, sigma, alpha float64) (v *big.Float, ok bool) {
	p := c.prec()
	switch {
	case q == 0:
		return newF(p), true
	case math.IsInf(alpha, 1) || sigma == 0:
		return newF(p).SetInf(false), true
	case q == 1:
		v := newF(p+64).Mul(fl(sigma, 64), fl(sigma, 64))
		v.SetMantExp(v, 1)
		return newF(p).Quo(fl(alpha, 64), v), true
	}
	return nil, false
}

// SGMDirections returns both Rényi divergences of order alpha between the
// sampled Gaussian mechanism's output distributions, mu = (1-q) N(0, s^2) +
// q N(1, s^2) and mu0 = N(0, s^2): forward = D_alpha(mu || mu0), backward =
// D_alpha(mu0 || mu). The RDP of the mechanism is the larger; SGM returns it.
//
// Special cases are those of SGM, for both values.
func (c Context) SGMDirections(q, sigma, alpha float64) (forward, backward *big.Float, err error) {
	if err := c.checkSGM("SGMDirections", q, sigma, alpha); err != nil {
		return nil, nil, err
	}
	if v, ok := c.sgmSpecial(q, sigma, alpha); ok {
		return v, newF(v.Prec()).Set(v), nil
	}
	p := c.prec()
	if tinyForwardOK(q, sigma, alpha, p) {
		forward, err = tinyForward(q, sigma, alpha, p)
	} else {
		forward, err = c.direction(q, sigma, alpha, alpha, p, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	if tinyBackwardOK(q, sigma, alpha, p) {
		backward, err = tinyBackward(q, p)
	} else {
		backward, err = c.direction(q, sigma, alpha, 1-alpha, p, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	return forward, backward, nil
}

// direction returns log I(beta)/(alpha-1) to prec bits, Ziv-checked.
func (c Context) direction(q, sigma, alpha, beta float64, prec uint, cache *curveCache) (*big.Float, error) {
	am1 := newF(prec+64).Sub(fl(alpha, 64), intF(1, 64)) // exact for float64 alpha
	return ziv(prec, func(wp uint) (*big.Float, error) {
		l, err := logMoment(q, sigma, beta, wp, cache)
		if err != nil {
			return nil, err
		}
		return newF(wp).Quo(l, am1), nil
	})
}

// SGM returns the Rényi differential privacy eps(alpha) of one step of the
// Poisson-sampled Gaussian mechanism with sampling rate q, noise multiplier
// sigma (noise standard deviation over l2-sensitivity) and add/remove-one
// neighbours: the larger of the two directions of SGMDirections.
//
// Accuracy: the result is correct to c.Prec bits (relative error at most
// 2^(1-Prec); 76 significant decimal digits at the default 256), as checked
// by the Ziv loop (see the package documentation), or an error wrapping
// ErrPrecision is returned.
//
// The backward direction is known to be the smaller one (Mironov, Talwar,
// Zhang 2019, Theorem 5); SGM checks this at every call, at 64 bits first,
// and computes it in full only when the two are too close to tell apart.
//
// Tiny sigma (tinysigma.go): where alpha (alpha-1)/(2 sigma^2) is far beyond
// alpha |log q| (sigma = 1e-20 gives exponents of 1e40 nats, beyond
// big.Float), Minkowski's inequality pins forward between X/(alpha-1) and
// (X + G)/(alpha-1), X = alpha log q + alpha (alpha-1)/(2 sigma^2), G <=
// alpha (1-q)/q exp(-(alpha-1)/(2 sigma^2)); backward lies just below
// -log1p(-q). Where such a gap is provably below 2^-(Prec+64) relative, the
// bound is returned (to Prec bits) instead of running the general method.
//
// Special cases are:
//
//	SGM(q=0, sigma, alpha) = 0
//	SGM(q=1, sigma, alpha) = alpha/(2 sigma^2), exactly rounded
//	SGM(q>0, sigma, alpha=+Inf) = +Inf
//	SGM(q>0, sigma=0, alpha) = +Inf
//	SGM(q, sigma, alpha) = error for q outside [0,1], sigma < 0, sigma = ±Inf,
//	    alpha <= 1 or any NaN (*InputError), and for alpha above
//	    MaxIntegerOrder or MaxFractionalOrder, and for sigma above about
//	    2e6 (ErrTooLarge: see the package documentation)
func (c Context) SGM(q, sigma, alpha float64) (*big.Float, error) {
	if err := c.checkSGM("SGM", q, sigma, alpha); err != nil {
		return nil, err
	}
	return c.sgm(q, sigma, alpha, nil)
}

// sgm is SGM on checked input, with an optional cache for (q, sigma).
func (c Context) sgm(q, sigma, alpha float64, cache *curveCache) (*big.Float, error) {
	if v, ok := c.sgmSpecial(q, sigma, alpha); ok {
		return v, nil
	}
	if tinyForwardOK(q, sigma, alpha, c.prec()) {
		fwd, err := tinyForward(q, sigma, alpha, c.prec())
		if err != nil {
			return nil, err
		}
		// backward <= -log1p(-q) <= 37 (tinysigma.go), while tinyForwardOK
		// implies forward > X/alpha > 60; the bound is cheap, so it is
		// checked all the same (the general method below would decide).
		bwdMax := -math.Log1p(-q) * (1 + 0x1p-40)
		if f, _ := fwd.Float64(); f > bwdMax {
			return fwd, nil
		}
	}
	fwd, err := c.direction(q, sigma, alpha, alpha, c.prec(), cache)
	if err != nil {
		return nil, err
	}
	bwdLow, err := c.direction(q, sigma, alpha, 1-alpha, 64, cache)
	if err != nil {
		return nil, err
	}
	// bwdLow is within 2^-63 relative of the truth; if even its upper end
	// is below fwd, the forward direction is the RDP.
	upper := newF(128).Mul(bwdLow, fl(1+0x1p-60, 64))
	if upper.Cmp(fwd) < 0 {
		return fwd, nil
	}
	bwd, err := c.direction(q, sigma, alpha, 1-alpha, c.prec(), cache)
	if err != nil {
		return nil, err
	}
	if bwd.Cmp(fwd) > 0 {
		return bwd, nil
	}
	return fwd, nil
}

// SGMCurve returns steps * SGM(q, sigma, alpha) for each alpha in orders,
// computed in parallel. The first error stops it.
//
// Slices: orders is only read; the slice returned and its values are new.
func (c Context) SGMCurve(q, sigma float64, steps int, orders []float64) ([]*big.Float, error) {
	if steps <= 0 {
		return nil, inputErr("SGMCurve", "steps", float64(steps), "must be positive")
	}
	if len(orders) == 0 {
		return nil, inputErr("SGMCurve", "orders", math.NaN(), "must not be empty")
	}
	for _, a := range orders {
		if err := c.checkSGM("SGMCurve", q, sigma, a); err != nil {
			return nil, err
		}
	}
	out := make([]*big.Float, len(orders))
	cache := newCurveCache()
	err := parallel(len(orders), func(i int) error {
		v, err := c.sgm(q, sigma, orders[i], cache)
		if err != nil {
			return err
		}
		out[i] = v.Mul(v, newF(64).SetInt64(int64(steps)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SGM is Context{}.SGM at DefaultPrec.
func SGM(q, sigma, alpha float64) (*big.Float, error) { return Context{}.SGM(q, sigma, alpha) }

// SGMDirections is Context{}.SGMDirections at DefaultPrec.
func SGMDirections(q, sigma, alpha float64) (forward, backward *big.Float, err error) {
	return Context{}.SGMDirections(q, sigma, alpha)
}

// SGMCurve is Context{}.SGMCurve at DefaultPrec.
//
// Slices: orders is only read; the slice returned and its values are new.
func SGMCurve(q, sigma float64, steps int, orders []float64) ([]*big.Float, error) {
	return Context{}.SGMCurve(q, sigma, steps, orders)
}
