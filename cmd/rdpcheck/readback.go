package main

// A number a command prints for a target keeps its promise when read back:
// the delta printed for -eps, given back as -delta with the same run and
// -orders, gives at most that eps (and sigma's sigma, given to epsilon,
// meets its target). Rounding the value up to the digits printed is not
// enough: the read-back is a search of the best order to a tolerance
// (fast.SearchTolerance, 1e-6 relative) that may stop at another order than
// the first search did, at a value a little above the least, and every
// conversion rounds up. So the number printed is checked by the very
// computation that reads it back, and raised until that meets the target.

import (
	"fmt"
	"math"
)

// boundDigits is how many significant digits bound prints, and
// jsonDigits as many as -json's numbers have (those of a float64).
const boundDigits, jsonDigits = 10, 17

// printedMeeting is the number to print for a target: the least number
// of n significant digits at or above x > 0 (as the float64 that prints as
// those digits) at which the read-back f, non-increasing, is at most
// target, and f's value there. f is told how many numbers it refused
// before (try). After a number it refuses comes the next one up at or
// above the hint f gives (where it expects to meet the target; NaN for
// none), and at least 1, 2, 4, ... units of the n-th digit above it, so
// that hints that miss still end the search; then the least is found
// between the last refused and the first met by halving. Numbers at or
// above limit are not tried: limit is returned, with value NaN (a delta
// of 1 is always true, and there is nothing to read back). x of 0 or +Inf
// is returned as it is.
func printedMeeting(x float64, n int, target, limit float64, f func(p float64, try int) (value, hint float64, err error)) (printed, value float64, err error) {
	if !(x > 0) || math.IsInf(x, 1) {
		return x, math.NaN(), nil
	}
	try := 0
	meets := func(p float64) (ok bool, v, hint float64, err error) {
		if p >= limit {
			return true, math.NaN(), math.NaN(), nil
		}
		v, hint, err = f(p, try)
		try++
		return err == nil && v <= target, v, hint, err
	}
	lo := roundUpDigits(x, n)
	ok, v, hint, err := meets(lo)
	if ok || err != nil {
		return min(lo, limit), v, err
	}
	// lo is refused; find hi that meets
	var hi float64
	for {
		if try > 64 {
			return 0, 0, fmt.Errorf("%v rounded up to %d digits does not meet the target %v when read back", x, n, target)
		}
		hi = roundUpDigits(lo+math.Ldexp(digitUnit(lo, n), try-1), n)
		if hint > hi && !math.IsInf(hint, 1) {
			hi = roundUpDigits(hint, n)
		}
		var hv float64
		if ok, hv, hint, err = meets(hi); err != nil {
			return 0, 0, err
		}
		if ok {
			v = hv
			break
		}
		lo = hi
	}
	// the least between: k units of lo's n-th digit above lo
	unit := digitUnit(lo, n)
	at := func(k float64) float64 { return roundUpDigits(lo+k*unit, n) }
	for klo, khi := 0.0, math.Ceil((hi-lo)/unit); khi-klo > 1; {
		k := math.Floor((klo + khi) / 2)
		p := at(k)
		if p >= hi {
			khi = k
			continue
		}
		okMid, vMid, _, err := meets(p)
		if err != nil {
			return 0, 0, err
		}
		if okMid {
			khi, hi, v = k, p, vMid
		} else {
			klo = k
		}
	}
	return min(hi, limit), v, nil
}

// readBack is how a command computes (eps, delta) for a target, and so
// reads its printed numbers back: eps for a delta and delta for an eps,
// each with the order that gives it, as the command's -orders asks
// (orders nil) or on the orders given (the read-back's own order).
type readBack struct {
	eps, delta func(target float64, orders []float64) (value, order float64, err error)
	digits     int // boundDigits, or jsonDigits for -json
}

// printedDelta is the delta to print for the target eps, from delta, the
// search's: given back as -delta, it gives at most eps. Where the
// read-back gives more, the delta tried next is that of the read-back's
// own order for an eps a little below the target.
func (rb readBack) printedDelta(delta, eps float64) (float64, error) {
	d, _, err := printedMeeting(delta, rb.digits, eps, 1, func(d float64, try int) (float64, float64, error) {
		e, order, err := rb.eps(d, nil)
		if err != nil || e <= eps {
			return e, math.NaN(), err
		}
		// a little below the target, so that the rounding of the
		// conversions (tens of ulps) leaves the read-back at or below
		// it; twice as far at each try
		aim := eps * (1 - math.Ldexp(1, min(try-44, -1)))
		hint, _, err := rb.delta(aim, []float64{order})
		if err != nil {
			hint = math.NaN()
		}
		return e, hint, nil
	})
	return d, err
}
