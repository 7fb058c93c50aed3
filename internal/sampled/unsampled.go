package sampled

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// The Laplace mechanism itself: the q = 1 case of the sampled one, and a
// bound on it at every q (sampling never increases the RDP).

// closedRel is the rounding-up margin of Laplace: a handful of correctly
// rounded operations arranged so that no step cancels by more than a
// factor of ~10.
const closedRel = 64 * errfloat.Unit

// em returns expm1(y) - y without cancellation.
func em(y float64) float64 {
	if math.Abs(y) < 0.5 {
		// y^2/2! + y^3/3! + ...; |y| < 0.5 -> 18 terms reach 1e-20 relative
		s, t := 0.0, y*y/2
		for k := 3; k < 24 && math.Abs(t) > 1e-20*math.Abs(s); k++ {
			s += t
			t *= y / float64(k)
		}
		return s + t
	}
	return math.Expm1(y) - y
}

// Laplace is fast.Laplace for valid arguments (b > 0 finite, alpha >= 1
// or +Inf): its doc comment gives the form evaluated. SampledLaplace at
// q = 1 is this function, so the two agree by construction.
func Laplace(b, alpha float64) float64 {
	x := 1 / b
	switch {
	case math.IsInf(alpha, 1):
		return errfloat.RoundUp(x, closedRel)
	case alpha == 1:
		return errfloat.RoundUp(em(-x), closedRel) // 1/b + e^(-1/b) - 1
	}
	am1 := alpha - 1
	if am1*x > 30 {
		// log( e^((a-1)x) (a + (a-1) e^(-(2a-1)x)) / (2a-1) )
		r := (alpha + am1*math.Exp(-(2*alpha-1)*x)) / (2*alpha - 1)
		if math.IsInf(2*alpha-1, 1) {
			// alpha above MaxFloat64/2: the same ratio, divided through
			// by alpha (it was Inf/Inf, and log 0 made the value -Inf)
			r = 1 / (2 - 1/alpha)
		}
		v := am1*x + math.Log(r)
		return errfloat.RoundUp(v/am1, closedRel)
	}
	br := (alpha*em(am1*x) + am1*em(-alpha*x)) / (2*alpha - 1)
	return errfloat.RoundUp(math.Log1p(br)/am1, closedRel)
}
