package gen

// vectors/invalid_inputs.json: inputs every implementation must reject.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

var nan = math.NaN()

// BadFlag names why a scalar input is invalid.
func BadFlag(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaNInput"
	case math.IsInf(x, 0):
		return "InfiniteInput"
	}
	return "OutOfRange"
}

func buildInvalid(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("invalid-inputs", []string{
		"Inputs outside each function's domain. Every test's result is invalid: an implementation must reject the input (raise, return an error, or otherwise refuse), not return a number.",
		"Functions and arguments as in the other files: SGM(q, sigma, alpha), SGMCurve(q, sigma, steps, alpha), Gaussian(sigma, alpha), Laplace(b, alpha), RandomizedResponse(p, alpha), GaussianDivergence(mean1, sd1, mean2, sd2, alpha), Divergence(distP, distQ, alpha), Epsilon(orders, rdp, delta, conversion), Delta(orders, rdp, eps, conversion), DPSGDEpsilon(q, sigma, steps, delta, orders, conversion).",
	}, "Each input was given to the reference at both precisions, which rejected it with an InputError naming the argument.")
	// The tolerance is not used (no test has a value); it is the file's
	// function's usual one, for uniformity.
	invalid := func(t *schema.Test) *schema.Test { t.Result = schema.Invalid; return t }

	g := b.Group("sgm", schema.SGM, "SGM: q must be in [0, 1], sigma finite and >= 0, alpha > 1 (or +inf), none NaN", SGMTolerance)
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{-0.1, 1, 2}, {1.5, 1, 2}, {math.Nextafter(1, 2), 1, 2}, {-5e-324, 1, 2}, {nan, 1, 2}, {inf, 1, 2}, {-inf, 1, 2},
		{0.01, -1, 2}, {0.01, nan, 2}, {0.01, inf, 2}, {0.01, -inf, 2},
		{0.01, 1, 1}, {0.01, 1, math.Nextafter(1, 0)}, {0.01, 1, 0.5}, {0.01, 1, 0}, {0.01, 1, -1}, {0.01, 1, nan}, {0.01, 1, -inf},
		{0, 1, 1}, {1, 1, 0.5},
	} {
		var arg string
		var v float64
		switch {
		case math.IsNaN(c.q) || c.q < 0 || c.q > 1:
			arg, v = "q", c.q
		case math.IsNaN(c.sigma) || c.sigma < 0 || math.IsInf(c.sigma, 0):
			arg, v = "sigma", c.sigma
		default:
			arg, v = "alpha", c.alpha
		}
		t := invalid(SGMTest(c.q, c.sigma, c.alpha))
		t.Flags = []string{BadFlag(v)}
		t.Comment = fmt.Sprintf("%s: %s out of the domain", t.Comment, arg)
		b.Test(g, t, e.RefJob("SGM "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.SGM(c.q, c.sigma, c.alpha) }), nil)
	}

	g = b.Group("sgm-curve", schema.SGMCurve, "SGMCurve: steps must be positive", SGMTolerance)
	for _, steps := range []int{0, -1} {
		t := invalid(SGMTest(0.01, 1, 2))
		t.Steps = &steps
		t.Flags = []string{"BadSteps"}
		t.Comment += fmt.Sprintf(" steps=%d", steps)
		b.Test(g, t, e.RefJob("SGMCurve "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			v, err := ctx.SGMCurve(0.01, 1, steps, []float64{2})
			if err != nil {
				return nil, err
			}
			return v[0], nil
		}), nil)
	}

	g = b.Group("gaussian", schema.Gaussian, "Gaussian: sigma finite and >= 0, alpha >= 0, none NaN", ClosedTolerance)
	for _, c := range [][2]float64{{-1, 2}, {inf, 2}, {nan, 2}, {-inf, 2}, {1, -1}, {1, nan}, {1, -inf}} {
		v := c[0]
		if !(math.IsNaN(v) || v < 0 || math.IsInf(v, 0)) {
			v = c[1]
		}
		t := invalid(closedTest(fmt.Sprintf("sigma=%g alpha=%g", c[0], c[1]), []string{BadFlag(v)}, "sigma", c[0], "alpha", c[1]))
		b.Test(g, t, e.RefJob("Gaussian "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.Gaussian(c[0], c[1]) }), nil)
	}

	g = b.Group("laplace", schema.Laplace, "Laplace: b finite and >= 0, alpha >= 1, none NaN", ClosedTolerance)
	for _, c := range [][2]float64{{-1, 2}, {inf, 2}, {nan, 2}, {1, 0.5}, {1, 0}, {1, -1}, {1, nan}} {
		v := c[0]
		if !(math.IsNaN(v) || v < 0 || math.IsInf(v, 0)) {
			v = c[1]
		}
		t := invalid(closedTest(fmt.Sprintf("b=%g alpha=%g", c[0], c[1]), []string{BadFlag(v)}, "b", c[0], "alpha", c[1]))
		b.Test(g, t, e.RefJob("Laplace "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.Laplace(c[0], c[1]) }), nil)
	}

	g = b.Group("randomized-response", schema.RandomizedResponse, "RandomizedResponse: p in [0, 1], alpha >= 0, none NaN", ClosedTolerance)
	for _, c := range [][2]float64{{-0.1, 2}, {1.1, 2}, {nan, 2}, {inf, 2}, {0.75, -1}, {0.75, nan}} {
		v := c[0]
		if !(math.IsNaN(v) || v < 0 || v > 1) {
			v = c[1]
		}
		t := invalid(closedTest(fmt.Sprintf("p=%g alpha=%g", c[0], c[1]), []string{BadFlag(v)}, "p", c[0], "alpha", c[1]))
		b.Test(g, t, e.RefJob("RandomizedResponse "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.RandomizedResponse(c[0], c[1]) }), nil)
	}

	g = b.Group("gaussian-divergence", schema.GaussianDivergence, "GaussianDivergence: sd1, sd2 > 0 and finite, means finite, alpha >= 0, none NaN", ClosedTolerance)
	for _, c := range []struct {
		m1, s1, m2, s2, alpha float64
		bad                   float64
	}{
		{0, 0, 1, 1, 2, 0}, {0, -1, 1, 1, 2, -1}, {0, 1, 1, 0, 2, 0}, {0, 1, 1, inf, 2, inf},
		{inf, 1, 0, 1, 2, inf}, {nan, 1, 0, 1, 2, nan}, {0, 1, 1, 1, -1, -1}, {0, 1, 1, 1, nan, nan},
	} {
		t := invalid(closedTest(fmt.Sprintf("N(%g, %g^2) || N(%g, %g^2) alpha=%g", c.m1, c.s1, c.m2, c.s2, c.alpha), []string{BadFlag(c.bad)},
			"mean1", c.m1, "sd1", c.s1, "mean2", c.m2, "sd2", c.s2, "alpha", c.alpha))
		b.Test(g, t, e.RefJob("GaussianDivergence "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.GaussianDivergence(c.m1, c.s1, c.m2, c.s2, c.alpha)
		}), nil)
	}

	g = b.Group("divergence", schema.Divergence, "Divergence: non-empty vectors of equal length, entries finite and >= 0, each summing to 1 within len * 2^-52; alpha >= 0, not NaN", DivergenceTolerance)
	for _, c := range []struct {
		name  string
		p, q  []float64
		alpha float64
		flag  string
	}{
		{"different lengths", []float64{0.5, 0.5}, []float64{0.25, 0.25, 0.5}, 2, "BadDistribution"},
		{"empty", []float64{}, []float64{}, 2, "BadDistribution"},
		{"negative entry", []float64{1.5, -0.5}, []float64{0.5, 0.5}, 2, "OutOfRange"},
		{"NaN entry", []float64{nan, 0.5}, []float64{0.5, 0.5}, 2, "NaNInput"},
		{"infinite entry", []float64{inf, 0.5}, []float64{0.5, 0.5}, 2, "InfiniteInput"},
		{"P sums to 0.9", []float64{0.4, 0.5}, []float64{0.5, 0.5}, 2, "BadDistribution"},
		{"Q sums to 1.1", []float64{0.5, 0.5}, []float64{0.6, 0.5}, 2, "BadDistribution"},
		{"P sums to 1 + 2^-40", []float64{0.5 + math.Ldexp(1, -40), 0.5}, []float64{0.5, 0.5}, 2, "BadDistribution"},
		{"alpha < 0", []float64{0.5, 0.5}, []float64{0.25, 0.75}, -1, "OutOfRange"},
		{"alpha NaN", []float64{0.5, 0.5}, []float64{0.25, 0.75}, nan, "NaNInput"},
		{"alpha -inf", []float64{0.5, 0.5}, []float64{0.25, 0.75}, -inf, "InfiniteInput"},
	} {
		t := invalid(&schema.Test{Comment: fmt.Sprintf("%s: D(%s || %s) alpha=%g", c.name, fmtDist(c.p), fmtDist(c.q), c.alpha), Flags: []string{c.flag}})
		t.DistP, t.DistPHex = schema.Lists(c.p)
		t.DistQ, t.DistQHex = schema.Lists(c.q)
		t.SetFloat("alpha", c.alpha)
		b.Test(g, t, e.RefJob("Divergence "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.Divergence(c.p, c.q, c.alpha) }), nil)
	}

	// The reference takes RDP values as big.Float, which has no NaN; NaN RDP
	// values are therefore not among these tests.
	badCurves := []struct {
		name   string
		orders []float64
		rdp    []float64
		flag   string
	}{
		{"empty curve", []float64{}, []float64{}, "BadCurve"},
		{"orders and rdp of different lengths", []float64{2, 4}, []float64{0.1}, "BadCurve"},
		{"order 1", []float64{1, 2}, []float64{0.1, 0.2}, "BadCurve"},
		{"order 0.5", []float64{0.5, 2}, []float64{0.1, 0.2}, "BadCurve"},
		{"order NaN", []float64{nan, 2}, []float64{0.1, 0.2}, "NaNInput"},
		{"order -inf", []float64{-inf, 2}, []float64{0.1, 0.2}, "InfiniteInput"},
		{"negative rdp", []float64{2, 4}, []float64{0.1, -0.2}, "BadCurve"},
	}
	good := []float64{2, 4, 8}
	goodRDP := []float64{0.1, 0.2, 0.4}
	curveTest := func(g *schema.Group, name string, orders, rdp []float64, conv reference.Conversion, arg string, x float64, flag string) {
		t := invalid(&schema.Test{Comment: fmt.Sprintf("%s, %s=%g, %s", name, arg, x, conv), Flags: []string{flag}, Conversion: conv.String()})
		t.Orders, t.OrdersHex = schema.Lists(orders)
		t.RDP, t.RDPHex = schema.Lists(rdp)
		t.SetFloat(arg, x)
		b.Test(g, t, e.RefJob(g.Function+" "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			var v *big.Float
			var err error
			if arg == "delta" {
				v, _, err = ctx.Epsilon(orders, BigList(rdp), x, conv)
			} else {
				v, _, err = ctx.Delta(orders, BigList(rdp), x, conv)
			}
			return v, err
		}), nil)
	}
	g = b.Group("epsilon", schema.Epsilon, "Epsilon: a non-empty curve of equal lengths, orders > 1 (or +inf), rdp >= 0; delta in (0, 1), not NaN", ConversionTolerance)
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		for _, c := range badCurves {
			curveTest(g, c.name, c.orders, c.rdp, conv, "delta", 1e-5, c.flag)
		}
		for _, d := range []float64{0, 1, -1e-5, 1.5, nan, inf} {
			curveTest(g, "good curve", good, goodRDP, conv, "delta", d, BadFlag(d))
		}
	}
	g = b.Group("delta", schema.Delta, "Delta: the curve as for Epsilon; eps finite and >= 0, not NaN", DeltaTolerance)
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		for _, c := range badCurves {
			curveTest(g, c.name, c.orders, c.rdp, conv, "eps", 1, c.flag)
		}
		for _, x := range []float64{-1, nan, inf} {
			curveTest(g, "good curve", good, goodRDP, conv, "eps", x, BadFlag(x))
		}
	}

	g = b.Group("dpsgd-epsilon", schema.DPSGDEpsilon, "DPSGDEpsilon: as SGM and Epsilon, and steps > 0", DPSGDTolerance)
	g.Orders, g.OrdersHex = schema.Lists(good)
	for _, c := range []struct {
		q, sigma float64
		steps    int
		delta    float64
		flag     string
	}{
		{0.01, 1, 0, 1e-5, "BadSteps"}, {0.01, 1, -10, 1e-5, "BadSteps"},
		{1.5, 1, 100, 1e-5, "OutOfRange"}, {0.01, -1, 100, 1e-5, "OutOfRange"}, {nan, 1, 100, 1e-5, "NaNInput"},
		{0.01, 1, 100, 0, "OutOfRange"}, {0.01, 1, 100, 1, "OutOfRange"}, {0.01, 1, 100, nan, "NaNInput"},
	} {
		t := invalid(DPSGDTest(c.q, c.sigma, c.steps, c.delta, reference.Improved))
		t.Flags = []string{c.flag}
		t.Comment = fmt.Sprintf("q=%g sigma=%g steps=%d delta=%g", c.q, c.sigma, c.steps, c.delta)
		b.Test(g, t, e.RefJob("DPSGDEpsilon "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			rdp, err := ctx.SGMCurve(c.q, c.sigma, c.steps, good)
			if err != nil {
				return nil, err
			}
			v, _, err := ctx.Epsilon(good, rdp, c.delta, reference.Improved)
			return v, err
		}), nil)
	}
	return b, nil
}
