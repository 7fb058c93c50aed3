package search

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
)

// The calibrations' brackets: the noise multiplier searched (fast's
// CalibrateSigma documents [0.01, 10^4]) and the largest step count
// (MaxSteps documents 2^40).
const (
	calMinSigma = 1e-2
	calMaxSigma = 1e4
	maxCalSteps = 1 << 40
)

// Sigma searches [calMinSigma, calMaxSigma] for the least sigma whose
// epsOf is at most eps (epsOf is non-increasing in sigma), to the
// relative tolerance tol; the sigma returned is one at
// which epsOf was evaluated and met the target. A target met at the
// bracket's low end, or missed at its high end, is an error wrapping
// rdpcheck.ErrNotConverged whose text starts with name (the caller's, as
// "fast.CalibrateSigma"); epsOf's errors are returned as they are.
func Sigma(name string, eps, tol float64, epsOf func(float64) (float64, error)) (sigma, achieved float64, err error) {
	// invariant: eps(lo) > target >= eps(hi), the ends as yet unevaluated
	// taken on trust. An end is evaluated only once the bracket is within
	// a factor 4 of it: at sigma = 0.01 one evaluation can cost more than
	// all the others (0.67 s of 0.7 s for 10^4 steps of an SGM).
	lo, hi := calMinSigma, calMaxSigma
	var eHi, fLo, fHi float64
	loKnown, hiKnown := false, false
	lt := math.Log(eps)
	// Each step is Illinois regula falsi on log eps against log sigma
	// (nearly a line: eps goes as a power of sigma over long stretches),
	// at least tol/4 inside the bracket so that it can close from either
	// side; a bisection instead while an end is unknown, where eps(lo) is
	// +Inf, or when the bracket has not halved (in log) in two steps, so
	// that it halves at least every third step. About 12 evaluations
	// where bisection took 26 (0.01 to 10^4 at tol 1e-6).
	moved, n := 0, 0 // the end that moved last (+1 hi, -1 lo); steps taken
	width := math.Log(hi / lo)
	margin := math.Log1p(tol / 4)
	for {
		if !loKnown && hi/lo <= 4 {
			e, err := epsOf(lo)
			if err != nil {
				return 0, 0, err
			}
			if e <= eps {
				return 0, 0, fmt.Errorf("%s: eps = %v is met already at sigma = %v (eps %v), the least sigma searched: %w", name, eps, lo, e, rdpcheck.ErrNotConverged)
			}
			fLo, loKnown = math.Log(e)-lt, true
		}
		if !hiKnown && hi/lo <= 4 {
			e, err := epsOf(hi)
			if err != nil {
				return 0, 0, err
			}
			if !(e <= eps) {
				return 0, 0, fmt.Errorf("%s: no sigma up to %v meets eps = %v (sigma = %v gives eps %v): %w", name, hi, eps, hi, e, rdpcheck.ErrNotConverged)
			}
			eHi, fHi, hiKnown = e, math.Log(e)-lt, true
		}
		if hi/lo-1 <= tol {
			break
		}
		llo, lhi := math.Log(lo), math.Log(hi)
		bisect := !loKnown || !hiKnown || math.IsInf(fLo, 1) || !(fLo > fHi)
		if n++; n%2 == 0 {
			bisect = bisect || lhi-llo > width/2
			width = lhi - llo
		}
		x := (llo + lhi) / 2
		if !bisect {
			x = llo + (lhi-llo)*(fLo/(fLo-fHi))
			x = min(max(x, llo+margin), lhi-margin)
		}
		mid := math.Exp(x)
		if mid <= lo || mid >= hi {
			mid = math.Sqrt(lo * hi)
			if mid <= lo || mid >= hi {
				break // adjacent floats: both ends are known (hi/lo <= 4)
			}
		}
		e, err := epsOf(mid)
		if err != nil {
			return 0, 0, err
		}
		if f := math.Log(e) - lt; e <= eps {
			hi, eHi, fHi, hiKnown = mid, e, f, true
			if moved == 1 {
				fLo /= 2 // Illinois: an end kept twice weighs half
			}
			moved = 1
		} else {
			lo, fLo, loKnown = mid, f, true
			if moved == -1 {
				fHi /= 2
			}
			moved = -1
		}
	}
	return hi, eHi, nil
}

// Steps finds the largest count t up to maxCalSteps with epsOf(t) <= eps
// (epsOf is non-decreasing in t) by doubling, then bisection. One step
// above the target, or more than maxCalSteps meeting it, is an error
// wrapping rdpcheck.ErrNotConverged whose text starts with name, as Sigma's.
func Steps(name string, eps float64, epsOf func(int) (float64, error)) (steps int, achieved float64, err error) {
	e1, err := epsOf(1)
	if err != nil {
		return 0, 0, err
	}
	if e1 > eps {
		return 0, e1, fmt.Errorf("%s: one step gives eps = %v, above the target %v: %w", name, e1, eps, rdpcheck.ErrNotConverged)
	}
	lo, eLo := 1, e1 // meets the target
	hi := 2
	for {
		if hi > maxCalSteps {
			return 0, 0, fmt.Errorf("%s: more than 2^40 steps: %w", name, rdpcheck.ErrNotConverged)
		}
		e, err := epsOf(hi)
		if err != nil {
			return 0, 0, err
		}
		if e > eps {
			break
		}
		lo, eLo = hi, e
		hi *= 2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		e, err := epsOf(mid)
		if err != nil {
			return 0, 0, err
		}
		if e <= eps {
			lo, eLo = mid, e
		} else {
			hi = mid
		}
	}
	return lo, eLo, nil
}
