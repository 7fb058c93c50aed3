package fast

import (
	"fmt"
	"math"
)

// Calibration bracket for the noise multiplier.
const (
	calMinSigma = 1e-2
	calMaxSigma = 1e4
	maxCalSteps = 1 << 40
)

func checkTarget(fn string, eps, delta float64, conv Conversion) error {
	if math.IsNaN(eps) || eps <= 0 || math.IsInf(eps, 1) {
		return inputErr(fn, "eps", eps, "must be finite and > 0")
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return inputErr(fn, "delta", delta, "must be in (0, 1)")
	}
	if !conv.Valid() {
		return inputErr(fn, "conv", float64(conv), "unknown conversion")
	}
	return nil
}

// CalibrateSigma returns the smallest noise multiplier sigma, to a relative
// tolerance tol, for which steps steps of the Poisson-sampled Gaussian
// with rate q meet (eps, delta) under conv on the given orders (nil:
// DefaultOrders), with the eps achieved. The sigma returned always meets
// the target (achieved <= eps); a sigma smaller by the factor 1+tol does
// not. tol = 0 means 1e-6; tol must be in [1e-12, 1).
//
// The search is a bisection in log sigma over [0.01, 10^4] (eps is
// non-increasing in sigma); a target not met at 10^4, or already met at
// 0.01, gives an error wrapping ErrNotConverged.
//
// Special cases are:
//
//	CalibrateSigma(q=0, ...) = error wrapping ErrNotConverged (no noise is needed)
//	CalibrateSigma(...) = error for q outside [0,1] or NaN, steps <= 0,
//	    eps <= 0, NaN or +Inf, delta outside (0,1), bad orders, tol outside [1e-12, 1)
func CalibrateSigma(q float64, steps int, eps, delta float64, conv Conversion, orders []float64, tol float64) (sigma, achieved float64, err error) {
	const fn = "CalibrateSigma"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, 0, inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if steps <= 0 {
		return 0, 0, inputErr(fn, "steps", float64(steps), "must be > 0")
	}
	if err := checkTarget(fn, eps, delta, conv); err != nil {
		return 0, 0, err
	}
	if tol == 0 {
		tol = 1e-6
	}
	if math.IsNaN(tol) || tol < 1e-12 || tol >= 1 {
		return 0, 0, inputErr(fn, "tol", tol, "must be in [1e-12, 1)")
	}
	if orders == nil {
		orders = defaultOrders
	}
	if q == 0 {
		return 0, 0, fmt.Errorf("fast.%s: q = 0 needs no noise: %w", fn, ErrNotConverged)
	}
	rdp := make([]float64, len(orders))
	epsOf := func(s float64) (float64, error) {
		if err := SGMCurve(q, s, steps, orders, rdp); err != nil {
			return 0, err
		}
		e, _, err := Epsilon(orders, rdp, delta, conv)
		return e, err
	}
	lo, hi := calMinSigma, calMaxSigma
	eLo, err := epsOf(lo)
	if err != nil {
		return 0, 0, err
	}
	if eLo <= eps {
		return 0, 0, fmt.Errorf("fast.%s: target met already at sigma = %v: %w", fn, lo, ErrNotConverged)
	}
	eHi, err := epsOf(hi)
	if err != nil {
		return 0, 0, err
	}
	if eHi > eps {
		return 0, 0, fmt.Errorf("fast.%s: target not met at sigma = %v (eps %v): %w", fn, hi, eHi, ErrNotConverged)
	}
	// invariant: eps(lo) > target >= eps(hi)
	for hi/lo-1 > tol {
		mid := math.Sqrt(lo * hi)
		if mid <= lo || mid >= hi {
			break
		}
		e, err := epsOf(mid)
		if err != nil {
			return 0, 0, err
		}
		if e <= eps {
			hi, eHi = mid, e
		} else {
			lo = mid
		}
	}
	return hi, eHi, nil
}

// MaxSteps returns the largest number of steps of the Poisson-sampled
// Gaussian (rate q, noise multiplier sigma) that meets (eps, delta) under
// conv on the given orders (nil: DefaultOrders), with the eps achieved
// (<= eps). The count is exact: one more step exceeds the target. The
// one-step curve is computed once and scaled, since RDP composes
// additively.
//
// Special cases are:
//
//	MaxSteps(q=0, ...) = error wrapping ErrNotConverged (no limit)
//	MaxSteps(...) = 0 and an error wrapping ErrNotConverged when one step exceeds eps
//	MaxSteps(...) = error for bad q, sigma, eps, delta, orders, conv; counts
//	    above 2^40 give ErrNotConverged
func MaxSteps(q, sigma, eps, delta float64, conv Conversion, orders []float64) (steps int, achieved float64, err error) {
	const fn = "MaxSteps"
	if err := checkQSigma(fn, q, sigma); err != nil {
		return 0, 0, err
	}
	if err := checkTarget(fn, eps, delta, conv); err != nil {
		return 0, 0, err
	}
	if orders == nil {
		orders = defaultOrders
	}
	if q == 0 {
		return 0, 0, fmt.Errorf("fast.%s: q = 0 has no privacy cost: %w", fn, ErrNotConverged)
	}
	one := make([]float64, len(orders))
	if err := SGMCurve(q, sigma, 1, orders, one); err != nil {
		return 0, 0, err
	}
	tmp := make([]float64, len(orders))
	epsOf := func(t int) float64 {
		for i, v := range one {
			tmp[i] = scaleUp(v, float64(t))
		}
		e, _, _ := Epsilon(orders, tmp, delta, conv)
		return e
	}
	e1 := epsOf(1)
	if e1 > eps {
		return 0, e1, fmt.Errorf("fast.%s: one step gives eps = %v: %w", fn, e1, ErrNotConverged)
	}
	lo, eLo := 1, e1 // meets the target
	hi := 2
	for {
		if hi > maxCalSteps {
			return 0, 0, fmt.Errorf("fast.%s: more than 2^40 steps: %w", fn, ErrNotConverged)
		}
		e := epsOf(hi)
		if e > eps {
			break
		}
		lo, eLo = hi, e
		hi *= 2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if e := epsOf(mid); e <= eps {
			lo, eLo = mid, e
		} else {
			hi = mid
		}
	}
	return lo, eLo, nil
}
