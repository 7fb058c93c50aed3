package gen

// vectors/sampled.json: the exact RDP of Poisson-sampled Laplace and
// discrete mechanisms, by region, and their invalid inputs.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// SampledTolerance: package fast is within 2.4e-13 of these values over its
// sweeps (TestSampledLaplaceAccuracySweep, TestSampledDivergenceAccuracySweep);
// 1e-12 is what float64 accounting can promise.
const SampledTolerance = 1e-12

func sampledFlags(q, a float64) []string { return samplingFlags(q, a, "", true) }

// samplingFlags are the flags of a sampled mechanism's test at rate q and
// order a: the order's, the rate's (whole names q = 1 where it is a
// mechanism of its own; nearOne flags q within 1e-6 of 1), and fractional
// or large orders.
func samplingFlags(q, a float64, whole string, nearOne bool) []string {
	flags := orderFlags(a)
	switch {
	case q == 0:
		flags = append(flags, "ZeroRate")
	case q == 1 && whole != "":
		flags = append(flags, whole)
	case q < 1e-9:
		flags = append(flags, "TinyRate")
	case nearOne && q < 1 && 1-q < 1e-6:
		flags = append(flags, "RateNearOne")
	}
	if a != math.Trunc(a) && !math.IsInf(a, 1) {
		flags = append(flags, "FractionalOrder")
	}
	if a > 1000 && !math.IsInf(a, 1) {
		flags = append(flags, "LargeOrder")
	}
	return flags
}

func buildSampled(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("RDP-Poisson-sampled-Laplace-and-discrete", []string{
		"Exact RDP of Poisson sampling with rate q, add/remove neighbours: the larger of D_alpha(mu || mu0) and D_alpha(mu0 || mu), mu = (1-q) mu0 + q mu1, mu0 the output without the individual and mu1 with it.",
		"SampledLaplace(q, b, alpha): mu0 = Lap(0, b), mu1 = Lap(1, b) (l1-sensitivity 1); alpha = inf gives max(log(1 - q + q e^(1/b)), -log(1 - q + q e^(-1/b))); q = 1 gives Laplace(b, alpha).",
		"SampledDivergence(q, distP, distQ, alpha): mu0 = distQ, mu1 = distP, discrete; q = 1 gives max(Divergence(P, Q), Divergence(Q, P)); +inf if some P_i > 0 has Q_i = 0. Entries are taken exactly as given.",
		"No published formula gives these values for fractional orders or the backward direction; Zhu and Wang 2019 (ICML, Poisson Subsampled Renyi DP) give the forward direction at integer orders as a finite binomial sum.",
		"PoissonBound(q, base, alpha): Zhu and Wang 2019's general upper bound for any base mechanism given by its RDP at orders 2, 3, ... (base[k] at order k+2), as reference.PoissonBound evaluates it: a bound, not the RDP (groups poisson-bound/*, appended after the exact groups).",
	}, "SampledLaplace: two closed-form tails plus Gauss-Legendre on [0, 1] with a proven truncation bound (Trefethen, ATAP, Thm 19.3); SampledDivergence: a finite sum. In both the moment's 1 is split off exactly (E[(1+t)^g] - 1 = E[(1+t)^g - 1 - g t] + exact defect) and the pointwise cancellation is measured and paid for in working bits.")

	type lapRegion struct {
		name   string
		qs, bs []float64
		alphas []float64
	}
	for _, r := range []lapRegion{
		{"sampled-laplace/tiny-q", []float64{1e-10, 1e-6}, []float64{0.05, 1, 1000}, []float64{1.5, 2, 32, 256}},
		{"sampled-laplace/moderate-q", []float64{0.001, 0.01, 0.1}, []float64{0.1, 1, 10}, []float64{1.1, 2, 8.5, 64, 1024}},
		{"sampled-laplace/large-q", []float64{0.5, 0.99, 1 - 1e-9}, []float64{0.05, 1}, []float64{2, 10.5, 256}},
		{"sampled-laplace/q-0-and-1", []float64{0, 1}, []float64{0.5, 2}, []float64{2, 16.5}},
		{"sampled-laplace/alpha-1-and-inf", []float64{1e-6, 0.01, 0.5}, []float64{0.2, 5}, []float64{1, inf}},
	} {
		g := b.Group(r.name, schema.SampledLaplace, fmt.Sprintf("q in %v, b in %v, alpha in %v", r.qs, r.bs, r.alphas), SampledTolerance)
		for _, q := range r.qs {
			for _, bb := range r.bs {
				for _, a := range r.alphas {
					t := closedTest(fmt.Sprintf("q=%g b=%g alpha=%g", q, bb, a), sampledFlags(q, a), "q", q, "b", bb, "alpha", a)
					b.Test(g, t, e.RefJob("SampledLaplace "+t.Comment, func(c reference.Context) (*big.Float, error) { return c.SampledLaplace(q, bb, a) }), nil)
				}
			}
		}
	}

	pairs := []distPair{
		{"randomized-response", []float64{0.75, 0.25}, []float64{0.25, 0.75}, nil},
		{"three-point", []float64{0.1, 0.2, 0.7}, []float64{0.3, 0.3, 0.4}, nil},
		{"skewed", []float64{0.999, 0.001}, []float64{0.001, 0.999}, nil},
		{"p-has-zero", []float64{0.5, 0.5, 0}, []float64{0.25, 0.25, 0.5}, []string{"ZeroProbability"}},
		{"q-has-zero", []float64{0.5, 0.5}, []float64{1, 0}, []string{"ZeroProbability"}},
		{"identical", []float64{0.1, 0.2, 0.7}, []float64{0.1, 0.2, 0.7}, nil},
	}
	for _, r := range []struct {
		name   string
		qs     []float64
		alphas []float64
	}{
		{"sampled-divergence/tiny-q", []float64{1e-10}, []float64{1, 2, 256.5}},
		{"sampled-divergence/moderate-q", []float64{0.001, 0.3}, []float64{1.5, 2, 10.5, 1024, inf}},
		{"sampled-divergence/q-0-and-1", []float64{0, 1}, []float64{2, inf}},
	} {
		g := b.Group(r.name, schema.SampledDivergence, fmt.Sprintf("q in %v, alpha in %v", r.qs, r.alphas), SampledTolerance)
		for _, d := range pairs {
			for _, q := range r.qs {
				for _, a := range r.alphas {
					flags := append(append([]string{}, d.flags...), sampledFlags(q, a)...)
					t := &schema.Test{Comment: fmt.Sprintf("%s: q=%g P=%s Q=%s alpha=%g", d.name, q, fmtDist(d.p), fmtDist(d.q), a), Flags: flags}
					t.SetFloat("q", q)
					t.DistP, t.DistPHex = schema.Lists(d.p)
					t.DistQ, t.DistQHex = schema.Lists(d.q)
					t.SetFloat("alpha", a)
					b.Test(g, t, e.RefJob("SampledDivergence "+t.Comment, func(c reference.Context) (*big.Float, error) {
						return c.SampledDivergence(q, d.p, d.q, a)
					}), nil)
				}
			}
		}
	}

	invalid := func(t *schema.Test) *schema.Test { t.Result = schema.Invalid; return t }
	nan := math.NaN()
	g := b.Group("invalid/sampled-laplace", schema.SampledLaplace, "SampledLaplace: q in [0, 1], b finite and > 0, alpha >= 1 (or +inf), none NaN", SampledTolerance)
	for _, c := range []struct{ q, b, alpha, bad float64 }{
		{-0.1, 1, 2, -0.1}, {1.5, 1, 2, 1.5}, {nan, 1, 2, nan}, {inf, 1, 2, inf},
		{0.1, 0, 2, 0}, {0.1, -1, 2, -1}, {0.1, inf, 2, inf}, {0.1, nan, 2, nan},
		{0.1, 1, 0.5, 0.5}, {0.1, 1, nan, nan}, {0.1, 1, -inf, -inf},
	} {
		t := invalid(closedTest(fmt.Sprintf("q=%g b=%g alpha=%g", c.q, c.b, c.alpha), []string{BadFlag(c.bad)}, "q", c.q, "b", c.b, "alpha", c.alpha))
		b.Test(g, t, e.RefJob("SampledLaplace "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.SampledLaplace(c.q, c.b, c.alpha) }), nil)
	}
	g = b.Group("invalid/sampled-divergence", schema.SampledDivergence, "SampledDivergence: q in [0, 1]; non-empty vectors of equal length, entries finite and >= 0, each summing to 1 within len * 2^-52; alpha >= 1 (or +inf), not NaN", SampledTolerance)
	for _, c := range []struct {
		name  string
		q     float64
		p, qd []float64
		alpha float64
		flag  string
	}{
		{"q < 0", -0.5, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2, "OutOfRange"},
		{"q NaN", nan, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2, "NaNInput"},
		{"different lengths", 0.1, []float64{0.5, 0.5}, []float64{0.25, 0.25, 0.5}, 2, "BadDistribution"},
		{"negative entry", 0.1, []float64{1.5, -0.5}, []float64{0.5, 0.5}, 2, "OutOfRange"},
		{"P sums to 0.9", 0.1, []float64{0.4, 0.5}, []float64{0.5, 0.5}, 2, "BadDistribution"},
		{"alpha < 1", 0.1, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 0.5, "OutOfRange"},
		{"alpha NaN", 0.1, []float64{0.75, 0.25}, []float64{0.25, 0.75}, nan, "NaNInput"},
	} {
		t := invalid(&schema.Test{Comment: fmt.Sprintf("%s: q=%g P=%s Q=%s alpha=%g", c.name, c.q, fmtDist(c.p), fmtDist(c.qd), c.alpha), Flags: []string{c.flag}})
		t.SetFloat("q", c.q)
		t.DistP, t.DistPHex = schema.Lists(c.p)
		t.DistQ, t.DistQHex = schema.Lists(c.qd)
		t.SetFloat("alpha", c.alpha)
		b.Test(g, t, e.RefJob("SampledDivergence "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.SampledDivergence(c.q, c.p, c.qd, c.alpha)
		}), nil)
	}
	b.poissonBoundGroups(e)
	return b, nil
}
