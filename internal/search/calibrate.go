package search

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/rdp"
)

// The calibrations' brackets: the noise multiplier searched (fast's
// CalibrateSigma documents [0.01, 10^4]) and the largest step count
// (MaxSteps documents 2^40).
const (
	calMinSigma = 1e-2
	calMaxSigma = 1e4
	maxCalSteps = 1 << 40
)

// Sigma bisects in log sigma over [calMinSigma, calMaxSigma] for the
// least sigma whose epsOf is at most eps (epsOf is non-increasing in
// sigma), to the relative tolerance tol; the sigma returned is one at
// which epsOf was evaluated and met the target. A target met at the
// bracket's low end, or missed at its high end, is an error wrapping
// rdp.ErrNotConverged whose text starts with name (the caller's, as
// "fast.CalibrateSigma"); epsOf's errors are returned as they are.
func Sigma(name string, eps, tol float64, epsOf func(float64) (float64, error)) (sigma, achieved float64, err error) {
	lo, hi := calMinSigma, calMaxSigma
	eLo, err := epsOf(lo)
	if err != nil {
		return 0, 0, err
	}
	if eLo <= eps {
		return 0, 0, fmt.Errorf("%s: eps = %v is met already at sigma = %v (eps %v), the least sigma searched: %w", name, eps, lo, eLo, rdp.ErrNotConverged)
	}
	eHi, err := epsOf(hi)
	if err != nil {
		return 0, 0, err
	}
	if eHi > eps {
		return 0, 0, fmt.Errorf("%s: no sigma up to %v meets eps = %v (sigma = %v gives eps %v): %w", name, hi, eps, hi, eHi, rdp.ErrNotConverged)
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

// Steps finds the largest count t up to maxCalSteps with epsOf(t) <= eps
// (epsOf is non-decreasing in t) by doubling, then bisection. One step
// above the target, or more than maxCalSteps meeting it, is an error
// wrapping rdp.ErrNotConverged whose text starts with name, as Sigma's.
func Steps(name string, eps float64, epsOf func(int) (float64, error)) (steps int, achieved float64, err error) {
	e1, err := epsOf(1)
	if err != nil {
		return 0, 0, err
	}
	if e1 > eps {
		return 0, e1, fmt.Errorf("%s: one step gives eps = %v, above the target %v: %w", name, e1, eps, rdp.ErrNotConverged)
	}
	lo, eLo := 1, e1 // meets the target
	hi := 2
	for {
		if hi > maxCalSteps {
			return 0, 0, fmt.Errorf("%s: more than 2^40 steps: %w", name, rdp.ErrNotConverged)
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
