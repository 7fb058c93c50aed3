package pld

import "math"

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
	if math.IsInf(hi.first, 1) {
		// no finite eps has a certified delta <= delta: the lower end is
		// the largest eps whose lower delta still exceeds delta
		lo, err := bisect(func(e float64) bool { return !(prof(e).Lo > delta) }, tol)
		if err != nil {
			return Interval{0, inf}, err
		}
		return Interval{lo.last, inf}, nil
	}
	okLo := func(e float64) bool { return !(prof(e).Lo > delta) }
	// The lower end's crossing is at most hi.first: search down from it,
	// the gap doubling from 64 tol, for an eps whose lower bound exceeds
	// delta, then bisect (both ends checked). Searching up from 0 instead
	// can stop at 0: far below the tilt's eps the lower bound is the
	// trivial 0 (the transform's error, scaled by e^(-lambda eps), swamps
	// it), which proves nothing and leaves the interval [0, Hi].
	var lo bracket
	found := false
	if hi.first > 0 && okLo(hi.first) {
		for g := 64 * tol; g < 1; g *= 2 {
			if a := hi.first * (1 - g); a > 0 && !okLo(a) {
				lo, err = bisectIn(okLo, a, hi.first, tol)
				found = true
				break
			}
		}
	}
	if !found {
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
	// doubling up to the largest float64: at most 1025 tries
	a, b := 0.0, 1.0
	for !ok(b) {
		a = b
		if b == math.MaxFloat64 {
			// no finite eps is checked: +Inf is the end
			return bracket{a, inf}, nil
		}
		b = math.Min(2*b, math.MaxFloat64)
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
