package gen

// vectors/wor.json: the Wang, Balle and Kasiviswanathan 2019 bound
// (Theorem 27) for the Gaussian mechanism sampled without replacement.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// WORTolerance: package fast is within 1e-12 of the reference over the
// promised range (fast's TestWORAccuracySweep), as for SGM.
const WORTolerance = 1e-12

func worFlags(q, alpha float64) []string { return samplingFlags(q, alpha, "GaussianLine", false) }

func buildWOR(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("WOR-Gaussian-bound", []string{
		"WORGaussian(q, sigma, alpha): the upper bound of Wang, Balle and Kasiviswanathan 2019 (arXiv 1808.00087), Theorem 27, on the RDP of the Gaussian mechanism (noise sigma relative to the replace-one l2-sensitivity) run on a subset of m = q n records drawn without replacement, replace-one neighbours.",
		"A bound, not the RDP itself: the expected value is the bound's exact value. For integer alpha >= 2: log(1 + q^2 C(alpha,2) min(4(e^(1/sigma^2)-1), 2 e^(1/sigma^2)) + sum_{j=3..alpha} q^j C(alpha,j) min(4 B(j), 2 e^((j-1)j/(2 sigma^2))))/(alpha-1), B(j) the j-th forward difference of e^((x-1)x/(2 sigma^2)) at 0 for even j and the geometric mean of its even neighbours for odd j; at every order (no switch to a cruder bound).",
		"Fractional alpha: log A interpolated linearly between floor and ceil (Corollary 10), log A(1) = 0, so the bound is constant on [1, 2]. q = 0 gives 0, q = 1 the Gaussian's alpha/(2 sigma^2), alpha = +inf gives +inf.",
		"WORBound(q, base, baseInf, alpha): the general bound of the same paper (Theorem 9) for any base mechanism given by its RDP at orders 2, 3, ... (base[k] at order k+2) and at +inf (baseInf; inf where unknown), as reference.WORBound evaluates it (groups wor-bound/*, appended after the Gaussian groups).",
	}, "The forward differences as alternating sums in big.Float at a working precision raised by a proven bound on their cancellation (reference/wor.go), checked to 70 digits against a cancellation-free recurrence (oracles/wor.go) and to 44 digits against mpmath.")
	regions := []struct {
		name   string
		sigmas []float64
	}{
		{"wor-gaussian/small-sigma", []float64{0.3, 0.5}},
		{"wor-gaussian/moderate-sigma", []float64{1.1, 2, 4}},
		{"wor-gaussian/large-sigma", []float64{9.5, 30, 100}},
	}
	for _, r := range regions {
		g := b.Group(r.name, schema.WORGaussian, "the Theorem 27 bound, sigma in "+fmt.Sprint(r.sigmas), WORTolerance)
		for _, s := range r.sigmas {
			for _, q := range []float64{1e-10, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99} {
				for _, a := range []float64{1.5, 2, 3, 7, 10.5, 32, 64, 128, 255.5, 256} {
					b.Test(g, closedTest(fmt.Sprintf("q=%g sigma=%g alpha=%g", q, s, a), worFlags(q, a), "q", q, "sigma", s, "alpha", a),
						e.RefJob(fmt.Sprintf("WORGaussian(%g, %g, %g)", q, s, a), func(c reference.Context) (*big.Float, error) { return c.WORGaussian(q, s, a) }), nil)
				}
			}
		}
	}
	g := b.Group("wor-gaussian/hard", schema.WORGaussian, "where float64 alternating sums cancel (large sigma, large order) and the largest orders", WORTolerance)
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{0.1, 9.5, 71}, {1e-10, 4.7, 1024}, {0.01, 1.1, 1024}, {0.3, 100, 513}, {1e-3, 100, 1024}, {0.5, 0.3, 1024},
	} {
		b.Test(g, closedTest(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), worFlags(c.q, c.alpha), "q", c.q, "sigma", c.sigma, "alpha", c.alpha),
			e.RefJob(fmt.Sprintf("WORGaussian(%g, %g, %g)", c.q, c.sigma, c.alpha), func(ctx reference.Context) (*big.Float, error) {
				return ctx.WORGaussian(c.q, c.sigma, c.alpha)
			}), nil)
	}
	g = b.Group("wor-gaussian/special", schema.WORGaussian, "q = 0, q = 1, alpha = 1 and +inf", WORTolerance)
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{0, 1, 2}, {0, 1, inf}, {1, 1.1, 3}, {1, 0.3, 10.5}, {0.01, 1.1, 1}, {0.01, 1.1, inf},
	} {
		b.Test(g, closedTest(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), worFlags(c.q, c.alpha), "q", c.q, "sigma", c.sigma, "alpha", c.alpha),
			e.RefJob(fmt.Sprintf("WORGaussian(%g, %g, %g)", c.q, c.sigma, c.alpha), func(ctx reference.Context) (*big.Float, error) {
				return ctx.WORGaussian(c.q, c.sigma, c.alpha)
			}), nil)
	}
	g = b.Group("wor-gaussian/invalid", schema.WORGaussian, "inputs outside the domain: q in [0, 1], sigma finite and > 0, alpha >= 1 (or +inf), none NaN", WORTolerance)
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{-0.1, 1, 2}, {1.5, 1, 2}, {nan, 1, 2}, {0.01, 0, 2}, {0.01, -1, 2}, {0.01, nan, 2}, {0.01, inf, 2},
		{0.01, 1, 0.5}, {0.01, 1, nan}, {0.01, 1, -inf},
	} {
		v := c.alpha
		switch {
		case math.IsNaN(c.q) || c.q < 0 || c.q > 1:
			v = c.q
		case math.IsNaN(c.sigma) || c.sigma <= 0 || math.IsInf(c.sigma, 0):
			v = c.sigma
		}
		t := closedTest(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), []string{BadFlag(v)}, "q", c.q, "sigma", c.sigma, "alpha", c.alpha)
		t.Result = schema.Invalid
		b.Test(g, t, e.RefJob(fmt.Sprintf("WORGaussian(%g, %g, %g)", c.q, c.sigma, c.alpha), func(ctx reference.Context) (*big.Float, error) {
			return ctx.WORGaussian(c.q, c.sigma, c.alpha)
		}), nil)
	}
	b.worBoundGroups(e)
	return b, nil
}
