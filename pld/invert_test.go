package pld

import (
	"math"
	"testing"
)

// TestInvertLowerEndNearUpper: a certified profile whose lower bound is the
// trivial 0 far below the crossing (as a tilted composition's is, where
// the transform's error scaled by e^(-lambda eps) swamps it) must still
// give the lower end near the crossing, not 0. The profile holds d(eps) =
// e^-eps (prof.Lo = 0.9 e^-eps for eps > 5, else 0; prof.Hi = e^-eps), so
// at delta = e^-10 the certified lower end is any eps with 0.9 e^-eps >
// delta, i.e. below 10 + log(0.9) (closed form), and the search, to
// relative tol, must come within tol of it.
func TestInvertLowerEndNearUpper(t *testing.T) {
	prof := func(eps float64) Interval {
		lo := 0.0
		if eps > 5 {
			lo = 0.9 * math.Exp(-eps)
		}
		return Interval{lo, math.Exp(-eps)}
	}
	const tol = 1e-4
	delta := math.Exp(-10)
	iv, err := invert(prof, delta, tol)
	if err != nil {
		t.Fatal(err)
	}
	want := 10 + math.Log(0.9) // closed form: 0.9 e^-eps = delta
	if !(iv.Lo <= want) || iv.Lo < want*(1-2*tol) {
		t.Errorf("invert lower end = %.10g, want in [%.10g, %.10g]", iv.Lo, want*(1-2*tol), want)
	}
	if !(iv.Hi >= 10) || iv.Hi > 10*(1+2*tol) {
		t.Errorf("invert upper end = %.10g, want in [10, %.10g] (closed form: e^-eps = delta)", iv.Hi, 10*(1+2*tol))
	}
}
