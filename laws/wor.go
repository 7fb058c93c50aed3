package laws

import (
	"math"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
)

// checkWOR: the sampling-without-replacement bounds of Wang, Balle and
// Kasiviswanathan 2019.
//
//   - WORGaussian(q, sigma, alpha) <= WORBound(q, alpha, Gaussian curve):
//     Theorem 27 replaces each term of Theorem 9 by a minimum with it
//     (for the Gaussian, eps(Inf) = +Inf, so Theorem 9's terms are
//     2 e^((j-1) eps(j)) and 4(e^eps(2) - 1) or 2 e^eps(2)).
//   - q = 1 gives the Gaussian alpha/(2 sigma^2) (no sampling) and WORBound
//     the base itself; q = 0 gives 0.
//
// The base curve handed to WORBound is the Gaussian's rounded up (a curve
// below the mechanism's is not its curve). Slack: the implementation's SGM
// accuracy on each side (both are bounds in float64), plus a rounding.
func (im *Impl) checkWOR(t *rapid.T) {
	q := rapid.OneOf(logUniform(1e-8, 1), rapid.SampledFrom([]float64{0, 1, 0.5, 0.99})).Draw(t, "q")
	s := rapid.OneOf(logUniform(0.3, 100), rapid.SampledFrom([]float64{0.3, 1.1, 9.5})).Draw(t, "sigma")
	a := rapid.OneOf(rapid.Float64Range(1, 40), rapid.SampledFrom([]float64{1, 2, 3, 2.5, 17, 40})).Draw(t, "alpha")
	base := rdpcheck.BaseCurve{Inf: math.Inf(1)}
	for j := 2; j <= int(math.Ceil(a))+1; j++ {
		base.Eps = append(base.Eps, math.Nextafter(float64(j)/(2*s*s)*(1+4*u), math.Inf(1)))
	}
	g := must(t, "WORGaussian(%v, %v, %v)", q, s, a)(im.WORGaussian(q, s, a))
	b := must(t, "WORBound(%v, %v, Gaussian %v)", q, a, s)(im.WORBound(q, a, base))
	rel := 2*im.Acc.SGM + 8*u
	if g > b*(1+rel)+tiny {
		lawf(t, "wor", "WORGaussian(%v, %v, %v) = %v above WORBound with the Gaussian base %v", q, s, a, g, b)
	}
	switch q {
	case 0:
		if g != 0 || b != 0 {
			lawf(t, "wor", "q = 0: WORGaussian %v, WORBound %v, want 0", g, b)
		}
	case 1:
		want := a / (2 * s * s)
		if math.Abs(g-want) > (im.Acc.Closed+4*u)*want {
			lawf(t, "wor", "WORGaussian(1, %v, %v) = %v, want the Gaussian %v", s, a, g, want)
		}
		// WORBound knows the base at integers only: Corollary 10's
		// interpolation of (alpha-1) eps(alpha), constant below 2.
		cgf := func(x float64) float64 { return (x - 1) * x / (2 * s * s) }
		lo := math.Max(1, math.Floor(a))
		wantB := cgf(2)
		if a > 2 {
			tt := a - lo
			wantB = ((1-tt)*cgf(lo) + tt*cgf(math.Ceil(a))) / (a - 1)
		}
		if math.Abs(b-wantB) > (im.Acc.Closed+16*u)*wantB {
			lawf(t, "wor", "WORBound(1, %v, Gaussian %v) = %v, want the interpolated base %v", a, s, b, wantB)
		}
	}
}
