package gen

// vectors/closed_forms.json: the Gaussian, Laplace and randomized-response
// mechanisms and the Renyi divergence between two Gaussians.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// ClosedTolerance: package fast evaluates each closed form with a
// cancellation-free rewriting and rounds up by at most 64 ulps (1.4e-14);
// 1e-13 leaves room for an implementation rounding to nearest.
const ClosedTolerance = 1e-13

var inf = math.Inf(1)

// closedTest builds a test with scalar inputs given as name, value pairs.
func closedTest(comment string, flags []string, kv ...any) *schema.Test {
	t := &schema.Test{Comment: comment, Flags: flags}
	for i := 0; i < len(kv); i += 2 {
		t.SetFloat(kv[i].(string), kv[i+1].(float64))
	}
	return t
}

func buildClosed(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("RDP-closed-forms", []string{
		"Closed forms of Renyi divergences used in RDP accounting:",
		"Gaussian(sigma, alpha) = D_alpha(N(0, sigma^2) || N(1, sigma^2)) = alpha / (2 sigma^2) (Mironov 2017, Prop 7);",
		"Laplace(b, alpha) = D_alpha(Lap(0, b) || Lap(1, b)) = 1/(alpha-1) log(alpha/(2alpha-1) e^((alpha-1)/b) + (alpha-1)/(2alpha-1) e^(-alpha/b)), alpha = 1: 1/b + e^(-1/b) - 1, alpha = inf: 1/b (Mironov 2017, Prop 6);",
		"RandomizedResponse(p, alpha) = D_alpha([p, 1-p] || [1-p, p]) = 1/(alpha-1) log(p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha)), alpha = 1: (2p-1) log(p/(1-p)), alpha = inf: |log(p/(1-p))| (Mironov 2017, Prop 5);",
		"GaussianDivergence(mean1, sd1, mean2, sd2, alpha) = D_alpha(N(mean1, sd1^2) || N(mean2, sd2^2)) (Gil, Alajaji, Linder 2013), +inf where alpha sd2^2 + (1-alpha) sd1^2 <= 0.",
	}, "Closed forms evaluated in big.Float at the working precision of the Ziv loop (1 - p formed exactly).")

	g := b.Group("gaussian", schema.Gaussian, "the Gaussian mechanism, alpha / (2 sigma^2)", ClosedTolerance)
	for _, s := range []float64{1e-3, 0.1, 0.5, 1, 1.1, 2, 4.530877117, 10, 1000, 1e6} {
		for _, a := range []float64{0, 0.5, 1, 1.5, 2, 10.7, 32, 1e6, inf} {
			flags := orderFlags(a)
			b.Test(g, closedTest(fmt.Sprintf("sigma=%g alpha=%g", s, a), flags, "sigma", s, "alpha", a),
				e.RefJob(fmt.Sprintf("Gaussian(%g, %g)", s, a), func(c reference.Context) (*big.Float, error) { return c.Gaussian(s, a) }), nil)
		}
	}
	t := closedTest("sigma=0 alpha=2: no noise", []string{"ZeroNoise"}, "sigma", 0.0, "alpha", 2.0)
	t.Result = schema.Acceptable
	b.Test(g, t, e.RefJob("Gaussian(0, 2)", func(c reference.Context) (*big.Float, error) { return c.Gaussian(0, 2) }), nil)

	g = b.Group("laplace", schema.Laplace, "the Laplace mechanism, l1-sensitivity 1, scale b", ClosedTolerance)
	for _, bb := range []float64{0.01, 0.1, 0.5, 1, 2, 10, 1000, 1e6} {
		for _, a := range []float64{1, 1.0001, 1.5, 2, 10.5, 100, 1e4, inf} {
			flags := orderFlags(a)
			b.Test(g, closedTest(fmt.Sprintf("b=%g alpha=%g", bb, a), flags, "b", bb, "alpha", a),
				e.RefJob(fmt.Sprintf("Laplace(%g, %g)", bb, a), func(c reference.Context) (*big.Float, error) { return c.Laplace(bb, a) }), nil)
		}
	}
	t = closedTest("b=0 alpha=2: no noise", []string{"ZeroNoise"}, "b", 0.0, "alpha", 2.0)
	t.Result = schema.Acceptable
	b.Test(g, t, e.RefJob("Laplace(0, 2)", func(c reference.Context) (*big.Float, error) { return c.Laplace(0, 2) }), nil)

	g = b.Group("randomized-response", schema.RandomizedResponse, "binary randomized response reporting the true bit with probability p", ClosedTolerance)
	for _, p := range []float64{0.5, 0.500001, 0.51, 0.6, 0.75, 0.9, 0.99, 0.999999, 0.25, 0.1, 1e-6, 0, 1} {
		for _, a := range []float64{1, 1.5, 2, 10, 100, inf} {
			flags := append([]string{}, orderFlags(a)...)
			if p == 0 || p == 1 {
				// Both fast and the reference give +inf: a valid answer,
				// though a no-noise mechanism.
				flags = append(flags, "ZeroNoise")
			}
			if p == 0.500001 {
				flags = append(flags, "CancellingInputs")
			}
			t := closedTest(fmt.Sprintf("p=%g alpha=%g", p, a), flags, "p", p, "alpha", a)
			if p == 0 || p == 1 {
				t.Result = schema.Acceptable
			}
			b.Test(g, t, e.RefJob(fmt.Sprintf("RandomizedResponse(%g, %g)", p, a), func(c reference.Context) (*big.Float, error) { return c.RandomizedResponse(p, a) }), nil)
		}
	}
	for _, a := range []float64{0, 0.5} {
		flag := "ZeroOrderClosed"
		if a > 0 {
			flag = "OrderBelowOne"
		}
		t := closedTest(fmt.Sprintf("p=0.75 alpha=%g: below the order 1 an accountant needs", a), []string{flag}, "p", 0.75, "alpha", a)
		t.Result = schema.Acceptable
		b.Test(g, t, e.RefJob(fmt.Sprintf("RandomizedResponse(0.75, %g)", a), func(c reference.Context) (*big.Float, error) { return c.RandomizedResponse(0.75, a) }), nil)
	}

	g = b.Group("gaussian-divergence", schema.GaussianDivergence, "D_alpha(N(mean1, sd1^2) || N(mean2, sd2^2))", ClosedTolerance)
	for _, c := range []struct{ m1, s1, m2, s2 float64 }{
		{0, 1, 1, 1}, {0, 1, 0, 2}, {0, 2, 0, 1}, {1, 1.5, 0, 1}, {0, 1, 0.5, 1.5},
		{0, 1, 0, 1 + 1e-8}, {0, 1, 1e-6, 1}, {-3, 0.1, 2, 10}, {0, 1, 0, 1},
	} {
		for _, a := range []float64{0, 0.5, 1, 1.5, 2, 10, inf} {
			flags := orderFlags(a)
			if c.s2 == 1+1e-8 || c.m2 == 1e-6 {
				flags = append(flags, "CancellingInputs")
			}
			t := closedTest(fmt.Sprintf("N(%g, %g^2) || N(%g, %g^2) alpha=%g", c.m1, c.s1, c.m2, c.s2, a), flags,
				"mean1", c.m1, "sd1", c.s1, "mean2", c.m2, "sd2", c.s2, "alpha", a)
			b.Test(g, t, e.RefJob(fmt.Sprintf("GaussianDivergence(%g, %g, %g, %g, %g)", c.m1, c.s1, c.m2, c.s2, a),
				func(ctx reference.Context) (*big.Float, error) {
					return ctx.GaussianDivergence(c.m1, c.s1, c.m2, c.s2, a)
				}), nil)
		}
	}
	return b, nil
}

// orderFlags returns the flag that marks an order's special case, if any.
func orderFlags(a float64) []string {
	switch {
	case a == 0:
		return []string{"OrderZero"}
	case a < 1:
		return []string{"OrderBelowOne"}
	case a == 1:
		return []string{"KullbackLeibler"}
	case a-1 < 1e-3:
		return []string{"OrderNearOne"}
	case math.IsInf(a, 1):
		return []string{"InfiniteOrder"}
	}
	return nil
}
