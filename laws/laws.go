package laws

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
)

// Law is one law of Rényi divergence written as a rapid property of an
// implementation.
type Law struct {
	Name  string
	Check func(*rapid.T)
}

// Laws returns the laws checked on im, in the order. Each failure
// message starts with "law NAME:" so that a test can tell a broken law
// from an error return ("call failed:").
func (im *Impl) Laws() []Law {
	return []Law{
		{"monotone-alpha", im.checkMonotoneAlpha},
		{"log-moment-convex", im.checkLogMomentConvex},
		{"product-additive", im.checkProductAdditivity},
		{"sgm-steps-additive", im.checkSGMSteps},
		{"accountant", im.checkAccountant},
		{"data-processing", im.checkDataProcessing},
		{"binned-sgm", im.checkBinnedSGM},
		{"gaussian-line", im.checkGaussianLine},
		{"monotone-q-sigma", im.checkMonotoneQSigma},
		{"bad-outcomes", im.checkBadOutcomes},
		{"limits", im.checkLimits},
		{"conversions", im.checkConversions},
		{"agreement", im.checkAgreement},
		{"sampled-limits", im.checkSampledLimits},
		{"sampled-monotone", im.checkSampledMonotone},
		{"sampled-below-bound", im.checkSampledBelowBound},
		{"sampled-binning", im.checkSampledBinning},
		{"sampled-binned-sgm", im.checkSampledBinnedSGM},
		{"wor", im.checkWOR},
		{"events", im.checkEvents},
		{"zcdp-tight", im.checkZCDPTight},
		{"dgauss-tree-repeat", im.checkDGTreeRepeat},
	}
}

// lawf fails the property with the law's tag.
func lawf(t *rapid.T, law, format string, args ...any) {
	t.Helper()
	t.Fatalf("law %s: %s", law, fmt.Sprintf(format, args...))
}

// val returns v, failing the property on an error or a NaN: every call the
// laws make is on valid input.
func val(t *rapid.T, v float64, err error, format string, args ...any) float64 {
	t.Helper()
	if err != nil {
		t.Fatalf("call failed: %s: unexpected error: %v", fmt.Sprintf(format, args...), err)
	}
	if math.IsNaN(v) {
		t.Fatalf("call failed: %s = NaN", fmt.Sprintf(format, args...))
	}
	return v
}

// must returns a function that passes a (value, error) pair through val,
// so that a call reads must(t, "SGM(q=%v)", q)(im.SGM(q, s, a)).
func must(t *rapid.T, format string, args ...any) func(float64, error) float64 {
	return func(v float64, err error) float64 {
		t.Helper()
		return val(t, v, err, format, args...)
	}
}

// fn is one mechanism's RDP curve in alpha, named for messages, with the
// implementation's relative error bound and the orders it accepts.
type fn struct {
	name   string
	f      func(alpha float64) (float64, error)
	rel    float64
	lo, hi float64 // orders drawn: [lo, hi]
	inf    bool    // +Inf is a valid order
	first  float64 // an order already drawn (SGM's), or NaN
	intMax int
}

func (c fn) at(t *rapid.T, a float64) float64 {
	t.Helper()
	v, err := c.f(a)
	return val(t, v, err, c.name, a)
}

var mechanisms = []string{"SGM", "Divergence", "Gaussian", "GaussianDivergence", "Laplace", "RandomizedResponse",
	"KaryRandomizedResponse", "PureDP", "ZCDP", "DiscreteGaussian", "TreeAggregation"}

// drawMechanism draws a mechanism and its parameters.
func (im *Impl) drawMechanism(t *rapid.T, divHi float64) fn {
	switch rapid.SampledFrom(mechanisms).Draw(t, "mechanism") {
	case "SGM":
		p := im.Dom.drawSGM(t, im.Dom.OrderMax)
		return fn{fmt.Sprintf("SGM(q=%v, sigma=%v, alpha=%%v)", p.q, p.sigma),
			func(a float64) (float64, error) { return im.SGM(p.q, p.sigma, a) },
			im.Acc.SGM, onePlus, im.Dom.OrderMax, true, p.alpha, im.Dom.IntOrderMax}
	case "Divergence":
		P, Q := pairPQ(t, "", 6, 24, false)
		return fn{fmt.Sprintf("Divergence(%v, %v, alpha=%%v)", P, Q),
			func(a float64) (float64, error) { return im.Divergence(P, Q, a) },
			im.Acc.Divergence, 0, divHi, true, math.NaN(), 64}
	case "Gaussian":
		s := logUniform(0.1, 100).Draw(t, "sigma")
		return fn{fmt.Sprintf("Gaussian(sigma=%v, alpha=%%v)", s),
			func(a float64) (float64, error) { return im.Gaussian(s, a) },
			im.Acc.Closed, 0, 1000, true, math.NaN(), 1000}
	case "GaussianDivergence":
		m1 := rapid.Float64Range(-5, 5).Draw(t, "m1")
		m2 := rapid.Float64Range(-5, 5).Draw(t, "m2")
		s1 := logUniform(0.1, 10).Draw(t, "s1")
		s2 := rapid.OneOf(logUniform(0.1, 10), rapid.Just(s1)).Draw(t, "s2")
		return fn{fmt.Sprintf("GaussianDivergence(%v, %v, %v, %v, alpha=%%v)", m1, s1, m2, s2),
			func(a float64) (float64, error) { return im.GaussianDivergence(m1, s1, m2, s2, a) },
			im.Acc.Closed, 0, 100, true, math.NaN(), 100}
	case "Laplace":
		b := logUniform(0.05, 100).Draw(t, "b")
		return fn{fmt.Sprintf("Laplace(b=%v, alpha=%%v)", b),
			func(a float64) (float64, error) { return im.Laplace(b, a) },
			im.Acc.Closed, 1, 1000, true, math.NaN(), 1000}
	case "KaryRandomizedResponse": // a divergence (replace-special: the larger of two)
		n := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{1e-9, 0.5, 1 - 1e-9})).Draw(t, "noise")
		k := float64(rapid.SampledFrom([]int{2, 3, 10, 1000, 1e6}).Draw(t, "buckets"))
		rel := rapid.SampledFrom([]string{"replace-one", "replace-special"}).Draw(t, "relation")
		return fn{fmt.Sprintf("KaryRandomizedResponse(noise=%v, buckets=%v, %s, alpha=%%v)", n, k, rel),
			func(a float64) (float64, error) { return im.KaryRandomizedResponse(n, k, rel, a) },
			im.Acc.Events, onePlus, 1000, true, math.NaN(), 1000}
	case "PureDP": // binary randomized response's divergence
		e := rapid.OneOf(logUniform(1e-6, 50), rapid.Just(0.0)).Draw(t, "eps")
		return fn{fmt.Sprintf("PureDP(eps=%v, alpha=%%v)", e),
			func(a float64) (float64, error) { return im.PureDP(e, a) },
			im.Acc.Events, onePlus, 1000, true, math.NaN(), 1000}
	case "ZCDP": // a line: monotone, (alpha-1)(xi + rho alpha) convex
		rho, xi := logUniform(1e-8, 10).Draw(t, "rho"), rapid.OneOf(logUniform(1e-8, 1), rapid.Just(0.0)).Draw(t, "xi")
		return fn{fmt.Sprintf("ZCDP(rho=%v, xi=%v, alpha=%%v)", rho, xi),
			func(a float64) (float64, error) { return im.ZCDP(rho, xi, a) },
			im.Acc.Events, onePlus, 1000, true, math.NaN(), 1000}
	case "DiscreteGaussian": // a divergence between two discrete Gaussians
		s := logUniform(0.1, 20).Draw(t, "sigma")
		d := float64(rapid.IntRange(-3, 3).Draw(t, "sensitivity"))
		return fn{fmt.Sprintf("DiscreteGaussian(sigma=%v, sensitivity=%v, alpha=%%v)", s, d),
			func(a float64) (float64, error) { return im.DiscreteGaussian(s, d, a) },
			im.Acc.Events, onePlus, 1000, true, math.NaN(), 1000}
	case "TreeAggregation": // a Gaussian divergence, sensitivity^2 k
		s := logUniform(0.1, 100).Draw(t, "sigma")
		steps := rapid.SliceOfN(rapid.IntRange(0, 5000), 1, 3).Draw(t, "steps")
		r := rapid.SampledFrom([]rdpcheck.TreeRestarts{rdpcheck.TreeOneTree, rdpcheck.TreeEveryTree}).Draw(t, "restarts")
		return fn{fmt.Sprintf("TreeAggregation(sigma=%v, steps=%v, %v, alpha=%%v)", s, steps, r),
			func(a float64) (float64, error) { return im.TreeAggregation(s, steps, r, a) },
			im.Acc.Events, onePlus, 1000, true, math.NaN(), 1000}
	default: // RandomizedResponse
		p := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0.5, 0.75, 1 - 1e-9, 1e-9})).Draw(t, "p")
		return fn{fmt.Sprintf("RandomizedResponse(p=%v, alpha=%%v)", p),
			func(a float64) (float64, error) { return im.RandomizedResponse(p, a) },
			im.Acc.Closed, 1, 1000, true, math.NaN(), 1000}
	}
}

// orderIn draws an order in [lo, hi] for c.
func (c fn) orderIn(t *rapid.T, label string, lo, hi float64) float64 {
	if lo >= hi {
		return lo
	}
	if lo > 1 {
		return order(lo, hi, c.intMax).Draw(t, label)
	}
	if lo == 1 { // alpha = 1 (KL) is valid for Laplace and randomized response
		return rapid.OneOf(order(onePlus, hi, c.intMax), rapid.Just(1.0)).Draw(t, label)
	}
	return rapid.OneOf(rapid.Float64Range(lo, hi), rapid.SampledFrom([]float64{lo, 0.5, 1})).Filter(func(a float64) bool {
		return a >= lo && a <= hi
	}).Draw(t, label)
}

// above draws a second order >= a: close to it (a relative 2^-8 to 2^-52
// above, across the integer/fractional boundary), anywhere above, the next
// integer, or +Inf.
func (c fn) above(t *rapid.T, label string, a float64) float64 {
	kinds := []string{"near", "anywhere", "next integer"}
	if c.inf {
		kinds = append(kinds, "+Inf")
	}
	switch rapid.SampledFrom(kinds).Draw(t, label+" kind") {
	case "near":
		k := rapid.IntRange(8, 52).Draw(t, label+" 2^-k")
		return math.Min(math.Max(a*(1+math.Ldexp(1, -k)), a), c.hi)
	case "next integer":
		return math.Min(math.Floor(a)+1, c.hi)
	case "+Inf":
		return math.Inf(1)
	}
	return c.orderIn(t, label, a, c.hi)
}

// checkMonotoneAlpha: D_alpha is non-decreasing in alpha (van Erven and
// Harremoës 2014, Thm 3), for every mechanism. Slack: the implementation's
// relative bound, since v(a1) <= D(a1)(1+rel) <= D(a2)(1+rel) and
// v(a2) >= D(a2) (fast rounds up); rounding to nearest (the reference) is
// inside its 4u.
func (im *Impl) checkMonotoneAlpha(t *rapid.T) {
	c := im.drawMechanism(t, 30)
	a1 := c.first
	if math.IsNaN(a1) {
		a1 = c.orderIn(t, "alpha1", c.lo, c.hi)
	}
	a2 := c.above(t, "alpha2", a1)
	v1, v2 := c.at(t, a1), c.at(t, a2)
	if !(v1 <= v2+c.rel*math.Abs(v2)+tiny) {
		lawf(t, "monotone-alpha", "%s = %v > %s = %v (alpha1 < alpha2, slack %.3g relative)",
			fmt.Sprintf(c.name, a1), v1, fmt.Sprintf(c.name, a2), v2, c.rel)
	}
}

// checkLogMomentConvex: (alpha-1) D_alpha is convex in alpha (it is the
// cumulant generating function of the log-likelihood ratio; van Erven and
// Harremoës 2014, Cor 2). At a2 = l a1 + (1-l) a3 the value must not exceed
// the chord. Slack: rel on each of the three values plus 8u for (alpha-1),
// the weights and the chord.
func (im *Impl) checkLogMomentConvex(t *rapid.T) {
	c := im.drawMechanism(t, 20)
	a1 := c.first
	if math.IsNaN(a1) {
		a1 = c.orderIn(t, "alpha1", c.lo, c.hi)
	}
	a3 := c.orderIn(t, "alpha3", a1, c.hi)
	s := rapid.Float64Range(0, 1).Draw(t, "s")
	a2 := a1 + s*(a3-a1)
	if !(a1 < a2 && a2 < a3) {
		return // the three orders collapsed in float64
	}
	f := func(a float64) float64 {
		d := c.at(t, a)
		if a == 1 && math.IsInf(d, 1) {
			t.Skip("(alpha-1) D_alpha at alpha = 1 with D = +Inf is 0 * Inf")
		}
		return (a - 1) * d
	}
	f1, f2, f3 := f(a1), f(a2), f(a3)
	if math.IsInf(f1, 0) || math.IsInf(f3, 0) {
		return // convex in the extended sense: +-Inf at an end bounds nothing
	}
	l := (a3 - a2) / (a3 - a1)
	r := (a2 - a1) / (a3 - a1)
	chord := l*f1 + r*f3
	mag := math.Abs(f1) + math.Abs(f2) + math.Abs(f3)
	if !(f2 <= chord+(c.rel+8*u)*mag+tiny) {
		lawf(t, "log-moment-convex", "(alpha-1) %s at alpha = %v, %v, %v is %v, %v, %v: the middle is %.3g above the chord",
			fmt.Sprintf(c.name, "alpha"), a1, a2, a3, f1, f2, f3, f2-chord)
	}
}

// outer is the product distribution P x Q, exact for dyadic entries of at
// most 26 bits each.
func outer(p, q []float64) []float64 {
	out := make([]float64, 0, len(p)*len(q))
	for _, x := range p {
		for _, y := range q {
			out = append(out, x*y)
		}
	}
	return out
}

// checkProductAdditivity: D_alpha(P1 x P2 || Q1 x Q2) = D_alpha(P1||Q1) +
// D_alpha(P2||Q2) (van Erven and Harremoës 2014, Thm 28), on the explicit
// product distribution, which is exact (12-bit dyadic factors). Slack: rel
// on each value plus 2u for the sum.
func (im *Impl) checkProductAdditivity(t *rapid.T) {
	P1, Q1 := pairPQ(t, "1", 4, 12, false)
	P2, Q2 := pairPQ(t, "2", 4, 12, false)
	a := divOrder(30, true).Draw(t, "alpha")
	d1 := must(t, "Divergence(%v, %v, alpha=%v)", P1, Q1, a)(im.Divergence(P1, Q1, a))
	d2 := must(t, "Divergence(%v, %v, alpha=%v)", P2, Q2, a)(im.Divergence(P2, Q2, a))
	P, Q := outer(P1, P2), outer(Q1, Q2)
	d12 := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
	sum := d1 + d2
	if math.IsInf(sum, 1) || math.IsInf(d12, 1) {
		if sum != d12 {
			lawf(t, "product-additive", "D_%v(P1 x P2 || Q1 x Q2) = %v, D(P1||Q1) + D(P2||Q2) = %v + %v", a, d12, d1, d2)
		}
		return
	}
	slack := im.Acc.Divergence*(d12+d1+d2) + 2*u*sum + 3*tiny
	if math.Abs(d12-sum) > slack {
		lawf(t, "product-additive", "D_%v(P1 x P2 || Q1 x Q2) = %v, D(P1||Q1) + D(P2||Q2) = %v + %v = %v (P1 %v Q1 %v P2 %v Q2 %v)",
			a, d12, d1, d2, sum, P1, Q1, P2, Q2)
	}
}

// checkSGMSteps: T steps of the sampled Gaussian have T times the RDP of
// one (composition, Mironov 2017, Prop 1): SGMCurve(q, sigma, T, orders)
// against T * SGM(q, sigma, alpha). Slack: rel (both are within rel of the
// same exact value) plus 2u for the product.
func (im *Impl) checkSGMSteps(t *rapid.T) {
	p := im.Dom.drawSGM(t, im.Dom.OrderMax)
	steps := rapid.OneOf(rapid.IntRange(1, 100), rapid.IntRange(1, 1_000_000), rapid.SampledFrom([]int{1, 2, 1000, 14063})).Draw(t, "steps")
	orders := []float64{p.alpha}
	if rapid.Bool().Draw(t, "second order") {
		orders = append(orders, order(onePlus, im.Dom.OrderMax, im.Dom.IntOrderMax).Draw(t, "alpha2"))
	}
	curve := make([]float64, len(orders))
	if err := im.SGMCurve(p.q, p.sigma, steps, orders, curve); err != nil {
		t.Fatalf("call failed: SGMCurve(q=%v, sigma=%v, steps=%d, %v): %v", p.q, p.sigma, steps, orders, err)
	}
	for i, a := range orders {
		one := must(t, "SGM(q=%v, sigma=%v, alpha=%v)", p.q, p.sigma, a)(im.SGM(p.q, p.sigma, a))
		want := float64(steps) * one
		if math.IsInf(want, 1) || math.IsInf(curve[i], 1) {
			if want != curve[i] {
				lawf(t, "sgm-steps-additive", "SGMCurve(q=%v, sigma=%v, steps=%d)[alpha=%v] = %v, steps * SGM = %v", p.q, p.sigma, steps, a, curve[i], want)
			}
			continue
		}
		if math.Abs(curve[i]-want) > (im.Acc.SGM+2*u)*want+float64(steps)*tiny || math.IsNaN(curve[i]) {
			lawf(t, "sgm-steps-additive", "SGMCurve(q=%v, sigma=%v, steps=%d)[alpha=%v] = %v, steps * SGM = %d * %v = %v",
				p.q, p.sigma, steps, a, curve[i], steps, one, want)
		}
	}
}

// stochastic draws an n x m row-stochastic matrix with 8-bit dyadic
// entries, so that PK is exact for dyadic P of up to 44 bits.
func stochastic(t *rapid.T, n, m int) [][]float64 {
	K := make([][]float64, n)
	for i := range K {
		if m == 1 {
			K[i] = []float64{1}
			continue
		}
		K[i] = dyadic(t, fmt.Sprintf("K[%d]", i), m, 8, false)
	}
	return K
}

func apply(p []float64, K [][]float64) []float64 {
	out := make([]float64, len(K[0]))
	for i, x := range p {
		for j, k := range K[i] {
			out[j] += x * k
		}
	}
	return out
}

// checkDataProcessing: D_alpha(PK || QK) <= D_alpha(P || Q) for every
// Markov kernel K (van Erven and Harremoës 2014, Thm 9 and Example 2), all
// orders in [0, +Inf]. PK is exact. Slack: rel on both values.
func (im *Impl) checkDataProcessing(t *rapid.T) {
	P, Q := pairPQ(t, "", 5, 16, false)
	m := rapid.IntRange(1, 5).Draw(t, "m")
	K := stochastic(t, len(P), m)
	a := divOrder(50, true).Draw(t, "alpha")
	d := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
	PK, QK := apply(P, K), apply(Q, K)
	dk := must(t, "Divergence(%v, %v, alpha=%v)", PK, QK, a)(im.Divergence(PK, QK, a))
	if !(dk <= d+im.Acc.Divergence*(d+dk)+tiny) {
		lawf(t, "data-processing", "D_%v(PK||QK) = %v > D_%v(P||Q) = %v (P %v Q %v K %v)", a, dk, a, d, P, Q, K)
	}
}

// normal tails, computed on the side where they are small so that bins far
// out keep their relative accuracy.
func lowerTail(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
func upperTail(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// normalBins returns the N(mean, s^2) probabilities of the intervals
// (-Inf, e0], (e0, e1], ..., (e_last, +Inf), made to sum to 1 within an ulp
// by correcting the largest (so Divergence accepts them; the correction is
// ~1e-16 absolute on a bin of mass >= 1/len). The edges must be at least
// s/100 apart: then no difference of tails cancels by more than ~125x.
func normalBins(edges []float64, mean, s float64) []float64 {
	b := make([]float64, len(edges)+1)
	lo := math.Inf(-1)
	for i := range b {
		hi := math.Inf(1)
		if i < len(edges) {
			hi = edges[i]
		}
		x, y := (lo-mean)/s, (hi-mean)/s
		switch {
		case y <= 0:
			b[i] = lowerTail(y) - lowerTail(x)
		case x >= 0:
			b[i] = upperTail(x) - upperTail(y)
		default: // straddles the mean: a sum of two positive halves
			b[i] = 0.5*math.Erf(y/math.Sqrt2) - 0.5*math.Erf(x/math.Sqrt2)
		}
		lo = hi
	}
	fixSum(b)
	return b
}

// sumMinus1 is sum(b) - 1, from a compensated sum (error ~u^2).
func sumMinus1(b []float64) float64 {
	var s, c float64
	for _, x := range b {
		tt := s + x
		if math.Abs(s) >= math.Abs(x) {
			c += (s - tt) + x
		} else {
			c += (x - tt) + s
		}
		s = tt
	}
	return (s - 1) + c
}

// fixSum adds 1 - sum(b), formed with a compensated sum, to the largest entry.
func fixSum(b []float64) {
	var s, c float64
	big := 0
	for i, x := range b {
		tt := s + x
		if math.Abs(s) >= math.Abs(x) {
			c += (s - tt) + x
		} else {
			c += (x - tt) + s
		}
		s = tt
		if x > b[big] {
			big = i
		}
	}
	b[big] += (1 - s) - c
}

// checkBinnedSGM: the sampled Gaussian's output binned into intervals is a
// post-processing of it, so D_alpha(binned mu || binned mu0) <= D_alpha(mu
// || mu0) <= SGM (data processing; mu = (1-q) N(0, s^2) + q N(1, s^2),
// mu0 = N(0, s^2)). The binned divergence is a discrete Divergence of
// normal-CDF bin probabilities. Domain: q >= 1e-3 and sigma <= 20 so that
// the ~1e-16 absolute error of the bin probabilities moves the binned
// divergence by less than 1e-11 relative; edges within 30 sigma so that no
// bin underflows. Slack: 1e-9 relative, far below the gap of any broken
// SGM the tests try.
func (im *Impl) checkBinnedSGM(t *rapid.T) {
	p := im.Dom.drawSGM(t, im.Dom.OrderMax)
	p.q = max(p.q, 1e-3)
	p.sigma = min(p.sigma, 20)
	// Orders >= 1.01: the bins sum to 1 only within an ulp, which moves D
	// by ~u alpha/(alpha-1) (see c below); at 1.01 that is far below the
	// smallest SGM drawn here (~1e-9).
	p.alpha = max(p.alpha, 1.01)
	s := p.sigma
	lo := max(-6*s, -30*s)
	hi := min(math.Min(p.alpha, 1e3)+6*s, 30*s)
	m := rapid.IntRange(1, 40).Draw(t, "edges")
	var edges []float64
	if rapid.Bool().Draw(t, "uniform grid") {
		m = min(m, int((hi-lo)/(s/100)))
		for i := 0; i < m; i++ {
			edges = append(edges, lo+(hi-lo)*float64(i)/float64(max(m-1, 1)))
		}
	} else {
		edges = rapid.SliceOfN(rapid.Float64Range(lo, hi), m, m).Draw(t, "edge list")
		sortSpaced(&edges, s/100)
	}
	b0, b1 := normalBins(edges, 0, s), normalBins(edges, 1, s)
	mu := make([]float64, len(b0))
	for i := range mu {
		mu[i] = (1-p.q)*b0[i] + p.q*b1[i]
	}
	fixSum(mu)
	db := must(t, "Divergence(%v, %v, alpha=%v)", mu, b0, p.alpha)(im.Divergence(mu, b0, p.alpha))
	// The float64 bins sum to 1 only within an ulp, and Divergence takes
	// them as given: D of the vectors divided by their exact sums s_mu, s_0
	// is D - (alpha log s_mu + (1-alpha) log s_0)/(alpha-1), which matters
	// as alpha -> 1 (at alpha = 1+2^-52 an ulp of mass moves D by 0.5).
	c := (p.alpha*sumMinus1(mu) + (1-p.alpha)*sumMinus1(b0)) / (p.alpha - 1)
	db -= c
	v := must(t, "SGM(q=%v, sigma=%v, alpha=%v)", p.q, p.sigma, p.alpha)(im.SGM(p.q, p.sigma, p.alpha))
	if !(db <= v*(1+1e-9+im.Acc.Divergence+im.Acc.SGM)+(im.Acc.Divergence+4*u)*(math.Abs(db)+math.Abs(c))) {
		lawf(t, "binned-sgm", "SGM(q=%v, sigma=%v, alpha=%v) = %v < %v, the divergence of its output binned at %v",
			p.q, p.sigma, p.alpha, v, db, edges)
	}
}

// sortSpaced sorts the edges and drops those closer than gap to the
// previous one (narrow bins would lose their digits to cancellation).
func sortSpaced(e *[]float64, gap float64) {
	x := *e
	slices.Sort(x)
	out := x[:0]
	for i, v := range x {
		if i == 0 || v-out[len(out)-1] >= gap {
			out = append(out, v)
		}
	}
	*e = out
}

// exactGaussianLine is alpha mu^2 / (2 s^2) for float64 inputs, in
// big.Float (Mironov 2017, Prop 7; Gil, Alajaji, Linder 2013 with equal
// variances).
func exactGaussianLine(alpha, m1, m2, s float64) *big.Float {
	d := new(big.Float).SetPrec(256).Sub(big.NewFloat(m1), big.NewFloat(m2))
	d.Mul(d, d)
	s2 := new(big.Float).SetPrec(256).Mul(big.NewFloat(s), big.NewFloat(s))
	s2.SetMantExp(s2, 1)
	d.Mul(d, big.NewFloat(alpha))
	return d.Quo(d, s2)
}

// checkGaussianLine: SGM at q = 1 is the Gaussian mechanism,
// alpha/(2 sigma^2); so are Gaussian(sigma, alpha) and
// GaussianDivergence(m, s, m+mu, s, alpha) = alpha mu^2/(2 s^2). Expected
// values are exact (big.Float from the float64 inputs). Slack: rel, and
// for an implementation that rounds up, never below.
func (im *Impl) checkGaussianLine(t *rapid.T) {
	a := rapid.OneOf(rapid.Float64Range(onePlus, im.Dom.OrderMax), rapid.SampledFrom([]float64{1 + 1e-8, 1.01, 2, 59.5, im.Dom.OrderMax})).Draw(t, "alpha")
	s := rapid.OneOf(logUniform(im.Dom.SigmaMin, im.Dom.SigmaMax), rapid.SampledFrom([]float64{0.05, 1, 12})).Draw(t, "sigma")
	line := exactGaussianLine(a, 0, 1, s)
	check := func(name string, got float64, want *big.Float, rel float64) {
		w, _ := want.Float64()
		if math.IsInf(w, 1) || w == 0 {
			// an exact value below the smallest subnormal may come back as
			// a few subnormal steps from an implementation that rounds up
			if got != w && !(w == 0 && got >= 0 && got <= tiny) {
				lawf(t, "gaussian-line", "%s = %v, want %v", name, got, w)
			}
			return
		}
		diff := new(big.Float).SetPrec(256).Sub(big.NewFloat(got), want)
		rd, _ := diff.Quo(diff, want).Float64()
		// Below 2^-1022 float64 has no relative precision to give (tiny).
		sub := tiny / math.Abs(w)
		if math.Abs(rd) > rel+sub || (im.Acc.RoundsUp && rd < -sub) {
			lawf(t, "gaussian-line", "%s = %v, want %s (relative error %.3g)", name, got, want.Text('g', 20), rd)
		}
	}
	check(fmt.Sprintf("SGM(q=1, sigma=%v, alpha=%v)", s, a), must(t, "SGM(q=1, sigma=%v, alpha=%v)", s, a)(im.SGM(1, s, a)), line, im.Acc.SGM)
	check(fmt.Sprintf("Gaussian(sigma=%v, alpha=%v)", s, a), must(t, "Gaussian(sigma=%v, alpha=%v)", s, a)(im.Gaussian(s, a)), line, im.Acc.Closed)
	m1 := rapid.Float64Range(-10, 10).Draw(t, "m1")
	m2 := rapid.Float64Range(-10, 10).Draw(t, "m2")
	a0 := rapid.OneOf(rapid.Float64Range(0, 100), rapid.SampledFrom([]float64{0, 0.5, 1, 2})).Draw(t, "alpha (GaussianDivergence)")
	gd := must(t, "GaussianDivergence(%v, %v, %v, %v, alpha=%v)", m1, s, m2, s, a0)(im.GaussianDivergence(m1, s, m2, s, a0))
	check(fmt.Sprintf("GaussianDivergence(%v, %v, %v, %v, alpha=%v)", m1, s, m2, s, a0), gd, exactGaussianLine(a0, m1, m2, s), im.Acc.Closed)
}

// checkMonotoneQSigma: SGM is non-decreasing in q and non-increasing in
// sigma, and 0 <= SGM(q, sigma, alpha) <= alpha/(2 sigma^2) (q = 1 is the
// Gaussian mechanism, the largest; subsampling only helps, Mironov, Talwar,
// Zhang 2019, Sec 3). Slack: rel, as for monotonicity in alpha.
func (im *Impl) checkMonotoneQSigma(t *rapid.T) {
	p := im.Dom.drawSGM(t, im.Dom.OrderMax)
	var q2 float64
	switch rapid.SampledFrom([]string{"near", "anywhere", "1"}).Draw(t, "q2 kind") {
	case "near":
		q2 = math.Min(p.q*(1+math.Ldexp(1, -rapid.IntRange(8, 52).Draw(t, "q2 2^-k"))), 1)
	case "anywhere":
		q2 = rapid.Float64Range(p.q, 1).Draw(t, "q2")
	default:
		q2 = 1
	}
	s2 := math.Max(p.sigma*rapid.Float64Range(0.5, 1).Draw(t, "sigma2/sigma"), im.Dom.SigmaMin)
	rel := im.Acc.SGM
	v11 := must(t, "SGM(q=%v, sigma=%v, alpha=%v)", p.q, p.sigma, p.alpha)(im.SGM(p.q, p.sigma, p.alpha))
	v21 := must(t, "SGM(q=%v, sigma=%v, alpha=%v)", q2, p.sigma, p.alpha)(im.SGM(q2, p.sigma, p.alpha))
	v22 := must(t, "SGM(q=%v, sigma=%v, alpha=%v)", q2, s2, p.alpha)(im.SGM(q2, s2, p.alpha))
	if !(v11 <= v21*(1+rel)+tiny) {
		lawf(t, "monotone-q-sigma", "SGM(q=%v, sigma=%v, alpha=%v) = %v > SGM(q=%v, ...) = %v: decreasing in q", p.q, p.sigma, p.alpha, v11, q2, v21)
	}
	if !(v21 <= v22*(1+rel)+tiny) {
		lawf(t, "monotone-q-sigma", "SGM(q=%v, sigma=%v, alpha=%v) = %v > SGM(..., sigma=%v, ...) = %v: increasing in sigma", q2, p.sigma, p.alpha, v21, s2, v22)
	}
	for _, c := range []struct {
		q, s, v float64
	}{{p.q, p.sigma, v11}, {q2, p.sigma, v21}, {q2, s2, v22}} {
		bound := p.alpha / (2 * c.s * c.s) // 3 roundings
		if !(c.v >= 0 && c.v <= bound*(1+rel+4*u)) {
			lawf(t, "monotone-q-sigma", "SGM(q=%v, sigma=%v, alpha=%v) = %v outside [0, alpha/(2 sigma^2) = %v]", c.q, c.s, p.alpha, c.v, bound)
		}
	}
}

// checkBadOutcomes: for every event S, P(S) <= (e^{D_alpha(P||Q)} Q(S))^((alpha-1)/alpha)
// (probability preservation, Mironov 2017, Prop 10), on all 2^n events of
// dyadic P, Q (sums exact). Slack: the relative error of the right side
// given rel on D and 8u for exp, log and the product.
func (im *Impl) checkBadOutcomes(t *rapid.T) {
	P, Q := pairPQ(t, "", 6, 20, false)
	a := rapid.OneOf(rapid.Float64Range(onePlus, 100), rapid.SampledFrom([]float64{1 + 1e-8, 1.01, 2, math.Inf(1)})).Draw(t, "alpha")
	d := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
	if math.IsInf(d, 1) {
		return
	}
	k := 1.0
	if !math.IsInf(a, 1) {
		k = (a - 1) / a
	}
	for S := 1; S < 1<<len(P); S++ {
		var ps, qs float64
		for i := range P {
			if S&(1<<i) != 0 {
				ps += P[i]
				qs += Q[i]
			}
		}
		var rhs, slack float64
		if qs > 0 {
			x := k * (d + math.Log(qs))
			rhs = math.Exp(x)
			slack = rhs * (im.Acc.Divergence*k*d + 8*u*(1+math.Abs(x)+k*d))
		}
		if !(ps <= rhs+slack+tiny) {
			lawf(t, "bad-outcomes", "P(S) = %v > (e^D Q(S))^((a-1)/a) = %v for S = %b, alpha = %v, D = %v, Q(S) = %v (P %v Q %v)",
				ps, rhs, S, a, d, qs, P, Q)
		}
	}
}

// checkLimits: the limits of D_alpha at alpha -> 1 (KL) and alpha -> inf
// (D_inf), with quantitative bounds, and the skew symmetry
// (1-alpha) D_alpha(P||Q) = alpha D_{1-alpha}(Q||P) for alpha in (0,1)
// (van Erven and Harremoës 2014, Prop 2).
func (im *Impl) checkLimits(t *rapid.T) {
	switch rapid.SampledFrom([]string{"alpha->1", "alpha->inf", "skew"}).Draw(t, "limit") {
	case "alpha->1":
		// D_alpha = K(t)/t with K the cumulant generating function of
		// X = log(p/q) under P and t = alpha-1; Taylor with K''(xi) <= R^2/4
		// (Popoviciu: a variance on an interval of length R = max X - min X)
		// gives |D_alpha - KL| <= |alpha-1| R^2 / 8.
		P, Q := pairPQ(t, "", 6, 20, true)
		eps := rapid.OneOf(logUniform(1e-10, 0.05), rapid.SampledFrom([]float64{1e-8, 0.01, 1e-6})).Draw(t, "|alpha-1|")
		kl := must(t, "Divergence(%v, %v, alpha=1)", P, Q)(im.Divergence(P, Q, 1))
		xmin, xmax := math.Inf(1), math.Inf(-1)
		for i := range P {
			x := math.Log1p((P[i] - Q[i]) / Q[i])
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		}
		R := (xmax - xmin) + 8*u*(1+math.Abs(xmax)+math.Abs(xmin)) // an upper bound on the exact range
		for _, a := range []float64{1 + eps, 1 - eps} {
			d := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
			bound := math.Abs(a-1)*R*R/8*(1+4*u) + im.Acc.Divergence*(d+kl) + 4*u*kl + tiny
			if !(math.Abs(d-kl) <= bound) {
				lawf(t, "limits", "D_%v(P||Q) = %v, KL = %v: |difference| %.3g > |alpha-1| R^2/8 = %.3g (P %v Q %v)",
					a, d, kl, math.Abs(d-kl), math.Abs(a-1)*R*R/8, P, Q)
			}
		}
	case "alpha->inf":
		// With i* maximising p/q (the largest p among ties),
		// log(p*/q*) + log(p*)/(alpha-1) <= D_alpha <= log(p*/q*) = D_inf:
		// keep only the i* term of the sum, or bound every ratio by p*/q*.
		P, Q := pairPQ(t, "", 6, 20, false)
		for i := range Q {
			if Q[i] == 0 { // supp P within supp Q: finite D_inf
				return
			}
		}
		a := rapid.OneOf(logUniform(50, 1e6), rapid.SampledFrom([]float64{1030, 1e4, 1e6})).Draw(t, "alpha")
		is := 0
		for i := range P {
			// p_i/q_i > p_is/q_is, exact for 20-bit dyadics
			if P[i]*Q[is] > P[is]*Q[i] || (P[i]*Q[is] == P[is]*Q[i] && P[i] > P[is]) {
				is = i
			}
		}
		dInf := math.Log1p((P[is] - Q[is]) / Q[is]) // p-q exact: no log of a ratio near 1
		lower := dInf + math.Log(P[is])/(a-1)
		d := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
		di := must(t, "Divergence(%v, %v, alpha=+Inf)", P, Q)(im.Divergence(P, Q, math.Inf(1)))
		slack := im.Acc.Divergence*math.Abs(d) + 8*u*(math.Abs(dInf)+math.Abs(lower)) + tiny
		if !(d >= lower-slack && d <= dInf+slack) {
			lawf(t, "limits", "D_%v(P||Q) = %v outside [%v, %v] = [D_inf + log p*/(alpha-1), D_inf] (P %v Q %v)", a, d, lower, dInf, P, Q)
		}
		if !(math.Abs(di-dInf) <= im.Acc.Divergence*di+8*u*math.Abs(dInf)+tiny) {
			lawf(t, "limits", "D_inf(P||Q) = %v, want log max p/q = %v (P %v Q %v)", di, dInf, P, Q)
		}
	default:
		// alpha = k/2^20, so 1-alpha is exact.
		P, Q := pairPQ(t, "", 6, 20, false)
		a := math.Ldexp(float64(rapid.IntRange(1, 1<<20-1).Draw(t, "alpha*2^20")), -20)
		dl := must(t, "Divergence(%v, %v, alpha=%v)", P, Q, a)(im.Divergence(P, Q, a))
		dr := must(t, "Divergence(%v, %v, alpha=%v)", Q, P, 1-a)(im.Divergence(Q, P, 1-a))
		l, r := (1-a)*dl, a*dr
		if math.IsInf(l, 1) || math.IsInf(r, 1) {
			if l != r {
				lawf(t, "limits", "(1-a) D_a(P||Q) = %v, a D_(1-a)(Q||P) = %v at a = %v", l, r, a)
			}
			return
		}
		if math.Abs(l-r) > (im.Acc.Divergence+4*u)*(l+r)+tiny {
			lawf(t, "limits", "(1-a) D_a(P||Q) = %v != a D_(1-a)(Q||P) = %v at a = %v (P %v Q %v)", l, r, a, P, Q)
		}
	}
}

// convMag is the magnitude of the terms of the conversion at order a (what
// fast's error bound is relative to); +Inf orders have only rdp.
func convMag(conv Conversion, a, rdp, delta float64) float64 {
	if math.IsInf(a, 1) {
		return rdp
	}
	ld := math.Abs(math.Log(delta))
	if conv == Classic {
		return rdp + ld/(a-1)
	}
	return rdp + math.Abs(math.Log1p(-1/a)) + (ld+math.Log(a))/(a-1) + ld/(a-1)
}

// checkConversions: eps(delta) >= 0 and non-increasing in delta, the
// improved conversion never above the classic one, delta(eps(delta)) <=
// delta on the same curve, and the zCDP line rho*alpha converts to
// rho + 2 sqrt(rho log(1/delta)) (Bun and Steinke 2016, Prop 1.3: the
// classic conversion minimised over real alpha). Slack: Acc.Conversion
// times the magnitude of the terms at the orders involved.
func (im *Impl) checkConversions(t *rapid.T) {
	n := rapid.IntRange(1, 6).Draw(t, "n")
	orders := rapid.SliceOfN(rapid.OneOf(
		logUniform(1.0001, 1e5),
		rapid.Float64Range(onePlus, 100),
		rapid.SampledFrom([]float64{1 + 1e-8, 1.01, 1.5, 2, 10, 64, 1024, 1e4, math.Inf(1)}),
	), n, n).Draw(t, "orders")
	rdp := rapid.SliceOfN(rapid.OneOf(
		logUniform(1e-10, 100),
		rapid.SampledFrom([]float64{0, 1e-300, 1, math.Inf(1)}),
	), n, n).Draw(t, "rdp")
	delta := rapid.OneOf(
		logUniform(1e-300, 0.5),
		rapid.Float64Range(0.5, 1),
		rapid.SampledFrom([]float64{1e-300, 1e-5, 0.5, 1 - 1e-9, math.Nextafter(1, 0)}),
	).Filter(func(d float64) bool { return d > 0 && d < 1 }).Draw(t, "delta")
	delta2 := rapid.OneOf(
		rapid.Float64Range(delta, 1),
		rapid.Just(math.Min(delta*(1+1e-9), math.Nextafter(1, 0))),
	).Filter(func(d float64) bool { return d >= delta && d < 1 }).Draw(t, "delta2")
	eps := map[Conversion]float64{}
	epsOrder := map[Conversion]float64{}
	// maxAt is the largest f(rdp[i]) over the entries at order a (orders
	// may repeat with different rdp), skipping rdp = +Inf.
	maxAt := func(a float64, f func(r float64) float64) float64 {
		m, found := 0.0, false
		for i, o := range orders {
			if o == a {
				found = true
				if !math.IsInf(rdp[i], 1) {
					m = math.Max(m, f(rdp[i]))
				}
			}
		}
		if !found {
			lawf(t, "conversions", "order %v returned is not among the orders %v", a, orders)
		}
		return m
	}
	slackAt := func(conv Conversion, a, d float64) float64 {
		return maxAt(a, func(r float64) float64 { return im.Acc.Conversion * convMag(conv, a, r, d) })
	}
	for _, conv := range []Conversion{Classic, Improved} {
		e1, o1, err := im.Epsilon(orders, rdp, delta, conv)
		val(t, e1, err, "Epsilon(%v, %v, delta=%v, %v)", orders, rdp, delta, conv)
		e2, o2, err := im.Epsilon(orders, rdp, delta2, conv)
		val(t, e2, err, "Epsilon(%v, %v, delta=%v, %v)", orders, rdp, delta2, conv)
		eps[conv], epsOrder[conv] = e1, o1
		if !(e1 >= 0 && e2 >= 0) {
			lawf(t, "conversions", "%v eps(%v) = %v, eps(%v) = %v: negative", conv, delta, e1, delta2, e2)
		}
		if math.IsInf(e1, 1) {
			continue
		}
		if !(e2 <= e1+slackAt(conv, o1, delta)+slackAt(conv, o2, delta2)+tiny) {
			lawf(t, "conversions", "%v eps(delta=%v) = %v < eps(delta=%v) = %v: increasing in delta (orders %v rdp %v)",
				conv, delta, e1, delta2, e2, orders, rdp)
		}
		d, _, err := im.Delta(orders, rdp, e1, conv)
		val(t, d, err, "Delta(%v, %v, eps=%v, %v)", orders, rdp, e1, conv)
		// Delta is at most the exact delta at eps's order o1 (<= delta, as
		// eps is at least the exact eps there) with its log raised by
		// Acc.Conversion times the magnitude of its terms there (fast's
		// margin is 8u of (alpha-1)(|rdp-eps| + |log1p(-1/alpha)| + rdp +
		// eps) + log alpha); a reference eps rounded down by u moves it by
		// (alpha-1) u eps, inside that.
		var ls float64
		if !math.IsInf(o1, 1) {
			ls = maxAt(o1, func(r float64) float64 {
				return im.Acc.Conversion * (2 + (o1-1)*(math.Abs(r-e1)+math.Abs(math.Log1p(-1/o1))+r+e1) + math.Log(o1))
			})
		}
		if !(d >= 0 && d <= delta*math.Exp(ls)+tiny) {
			lawf(t, "conversions", "%v delta(eps(delta)) = delta(%v) = %v > delta = %v (orders %v rdp %v)", conv, e1, d, delta, orders, rdp)
		}
	}
	if ec, ei := eps[Classic], eps[Improved]; !math.IsInf(ec, 1) &&
		!(ei <= ec+slackAt(Classic, epsOrder[Classic], delta)+slackAt(Improved, epsOrder[Improved], delta)+tiny) {
		lawf(t, "conversions", "improved eps = %v > classic eps = %v at delta = %v (orders %v rdp %v)", ei, ec, delta, orders, rdp)
	}

	// The zCDP line: orders around alpha* = 1 + sqrt(log(1/delta)/rho),
	// the classic conversion's minimiser over real alpha.
	rho := logUniform(1e-6, 10).Draw(t, "rho")
	ld := -math.Log(delta)
	astar := 1 + math.Sqrt(ld/rho)
	zo := []float64{astar, 1 + (astar-1)/2, 1 + 2*(astar-1)}
	zr := make([]float64, len(zo))
	for i, a := range zo {
		zr[i] = rho * a
	}
	want := rho + 2*math.Sqrt(rho*ld) // 4 roundings
	got, o, err := im.Epsilon(zo, zr, delta, Classic)
	val(t, got, err, "Epsilon(%v, %v, delta=%v, classic)", zo, zr, delta)
	// The grid minimum is never below the minimum over all real orders.
	slack := im.Acc.Conversion*convMag(Classic, o, rho*o, delta) + 8*u*want
	if !(math.Abs(got-want) <= slack) {
		lawf(t, "conversions", "rho-zCDP line rho*alpha, rho = %v: classic eps(delta=%v) = %v at order %v, want rho + 2 sqrt(rho log(1/delta)) = %v",
			rho, delta, got, o, want)
	}
	if im.ZCDPEpsilon != nil {
		z := must(t, "ZCDPEpsilon(rho=%v, delta=%v)", rho, delta)(im.ZCDPEpsilon(rho, delta))
		if !(math.Abs(z-want) <= 24*u*want) || (im.Acc.RoundsUp && z < want*(1-8*u)) {
			lawf(t, "conversions", "ZCDPEpsilon(rho=%v, delta=%v) = %v, want %v", rho, delta, z, want)
		}
	}
}
