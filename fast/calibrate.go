package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/search"
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
// The search is over [0.01, 10^4] (eps is non-increasing in sigma), by
// regula falsi on log eps against log sigma safeguarded by bisection
// (about 12 evaluations at tol 1e-6); a target not met at 10^4, or
// already met at 0.01, gives an error wrapping ErrNotConverged.
//
// Special cases are:
//
//	CalibrateSigma(q=0, ...) = error wrapping ErrNotConverged (no noise is needed)
//	CalibrateSigma(...) = error for q outside [0,1] or NaN, steps <= 0,
//	    eps <= 0, NaN or +Inf, delta outside (0,1), bad orders, tol outside [1e-12, 1)
//
// Slices: orders is only read.
func CalibrateSigma(q float64, steps int, eps, delta float64, conv Conversion, orders []float64, tol float64) (sigma, achieved float64, err error) {
	const fn = "CalibrateSigma"
	if err := checkCalibrate(fn, q, steps, eps, delta, conv, &tol); err != nil {
		return 0, 0, err
	}
	if orders == nil {
		orders = defaultOrders
	}
	if q == 0 {
		return 0, 0, fmt.Errorf("fast.%s: q = 0 needs no noise: %w", fn, ErrNotConverged)
	}
	// each sigma's eps as an Accountant composes it (CalibrateSigmaBest's
	// way, on orders): read back by Accountant.Epsilon, or by rdpcheck
	// epsilon, the sigma returned meets the target (SGMCurve then Epsilon
	// rounds once less, and could have put it one ulp above)
	return search.Sigma("fast."+fn, eps, tol, func(s float64) (float64, error) {
		a := Accountant{Orders: orders}
		if err := a.Compose(SGMEvent(q, s), steps); err != nil {
			return 0, err
		}
		e, _, err := a.Epsilon(delta, conv)
		return e, err
	})
}

// CalibrateSigmaBest is CalibrateSigma with each sigma's eps minimised
// over every order by the search of BestEpsilon (Accountant.BestEpsilon),
// so that the sigma it returns, read back by BestEpsilon, meets the
// target. Its inputs, special cases and errors are CalibrateSigma's.
func CalibrateSigmaBest(q float64, steps int, eps, delta float64, conv Conversion, tol float64) (sigma, achieved float64, err error) {
	const fn = "CalibrateSigmaBest"
	if err := checkCalibrate(fn, q, steps, eps, delta, conv, &tol); err != nil {
		return 0, 0, err
	}
	if q == 0 {
		return 0, 0, fmt.Errorf("fast.%s: q = 0 needs no noise: %w", fn, ErrNotConverged)
	}
	return search.Sigma("fast."+fn, eps, tol, func(s float64) (float64, error) {
		var a Accountant
		if err := a.Compose(SGMEvent(q, s), steps); err != nil {
			return 0, err
		}
		e, _, err := a.BestEpsilon(delta, conv)
		return e, err
	})
}

// CalibrateSigmaFunc is CalibrateSigma for any run whose eps at noise
// multiplier sigma is epsOf(sigma), non-increasing in sigma (a run of
// several phases, sampling without replacement): the least sigma in
// [0.01, 10^4], to the relative tolerance tol (0 means 1e-6), at which
// epsOf meets eps, and epsOf there. The sigma returned is one at which
// epsOf was evaluated and met the target, whatever epsOf does.
//
// Special cases are:
//
//	CalibrateSigmaFunc(...) = error wrapping ErrNotConverged when epsOf(0.01) <= eps or epsOf(10^4) > eps
//	CalibrateSigmaFunc(...) = error for eps <= 0, NaN or +Inf, tol outside [1e-12, 1); epsOf's errors
func CalibrateSigmaFunc(eps, tol float64, epsOf func(sigma float64) (float64, error)) (sigma, achieved float64, err error) {
	const fn = "CalibrateSigmaFunc"
	if math.IsNaN(eps) || eps <= 0 || math.IsInf(eps, 1) {
		return 0, 0, inputErr(fn, "eps", eps, "must be finite and > 0")
	}
	if tol == 0 {
		tol = 1e-6
	}
	if math.IsNaN(tol) || tol < 1e-12 || tol >= 1 {
		return 0, 0, inputErr(fn, "tol", tol, "must be in [1e-12, 1)")
	}
	return search.Sigma("fast."+fn, eps, tol, epsOf)
}

// MaxStepsFunc is MaxSteps for any run whose eps after t steps is
// epsOf(t), non-decreasing in t: the largest t up to 2^40 with epsOf(t)
// <= eps, and epsOf there; epsOf(t+1) was evaluated and exceeds eps.
//
// Special cases are:
//
//	MaxStepsFunc(...) = 0 and an error wrapping ErrNotConverged when epsOf(1) > eps
//	MaxStepsFunc(...) = error wrapping ErrNotConverged for counts above 2^40
//	MaxStepsFunc(...) = error for eps <= 0, NaN or +Inf; epsOf's errors
func MaxStepsFunc(eps float64, epsOf func(steps int) (float64, error)) (steps int, achieved float64, err error) {
	const fn = "MaxStepsFunc"
	if math.IsNaN(eps) || eps <= 0 || math.IsInf(eps, 1) {
		return 0, 0, inputErr(fn, "eps", eps, "must be finite and > 0")
	}
	return search.Steps("fast."+fn, eps, epsOf)
}

// checkCalibrate checks CalibrateSigma's inputs and sets tol's default.
func checkCalibrate(fn string, q float64, steps int, eps, delta float64, conv Conversion, tol *float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if steps <= 0 {
		return inputErr(fn, "steps", float64(steps), "must be > 0")
	}
	if err := checkTarget(fn, eps, delta, conv); err != nil {
		return err
	}
	if *tol == 0 {
		*tol = 1e-6
	}
	if math.IsNaN(*tol) || *tol < 1e-12 || *tol >= 1 {
		return inputErr(fn, "tol", *tol, "must be in [1e-12, 1)")
	}
	return nil
}

// MaxSteps returns the largest number of steps of the Poisson-sampled
// Gaussian (rate q, noise multiplier sigma) that meets (eps, delta) under
// conv on the given orders (nil: DefaultOrders), with the eps achieved
// (<= eps). The count is exact: one more step exceeds the target, as
// an Accountant composes them on orders.
//
// Special cases are:
//
//	MaxSteps(q=0, ...) = error wrapping ErrNotConverged (no limit)
//	MaxSteps(...) = 0 and an error wrapping ErrNotConverged when one step exceeds eps
//	MaxSteps(...) = error for bad q, sigma, eps, delta, orders, conv; counts
//	    above 2^40 give ErrNotConverged
//
// Slices: orders is only read.
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
	// bad orders get SGMCurve's errors, before any search
	if err := SGMCurve(q, sigma, 1, orders, make([]float64, len(orders))); err != nil {
		return 0, 0, err
	}
	// each count's eps as an Accountant composes it (MaxStepsBest's way,
	// on orders): read back by Accountant.Epsilon, or by rdpcheck epsilon,
	// the count returned meets the target (the one-step curve scaled then
	// Epsilon rounds once less, and could have allowed one step too many)
	return search.Steps("fast."+fn, eps, func(t int) (float64, error) {
		a := Accountant{Orders: orders}
		if err := a.Compose(SGMEvent(q, sigma), t); err != nil {
			return 0, err
		}
		e, _, err := a.Epsilon(delta, conv)
		return e, err
	})
}

// MaxStepsBest is MaxSteps with each count's eps minimised over every
// order by the search of BestEpsilon, so that the count it returns, read
// back by BestEpsilon, meets the target. Its inputs, special cases and
// errors are MaxSteps's.
func MaxStepsBest(q, sigma, eps, delta float64, conv Conversion) (steps int, achieved float64, err error) {
	const fn = "MaxStepsBest"
	if err := checkQSigma(fn, q, sigma); err != nil {
		return 0, 0, err
	}
	if err := checkTarget(fn, eps, delta, conv); err != nil {
		return 0, 0, err
	}
	if q == 0 {
		return 0, 0, fmt.Errorf("fast.%s: q = 0 has no privacy cost: %w", fn, ErrNotConverged)
	}
	return search.Steps("fast."+fn, eps, func(t int) (float64, error) {
		var a Accountant
		if err := a.Compose(SGMEvent(q, sigma), t); err != nil {
			return 0, err
		}
		e, _, err := a.BestEpsilon(delta, conv)
		return e, err
	})
}
