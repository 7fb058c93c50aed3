package laws

// Laws of Poisson sampling: the exact SampledLaplace and
// SampledDivergence at q = 0 and 1, monotone in q and alpha and below the
// unsampled curve; SampledLaplace below Zhu and Wang's PoissonBound and
// above every binning of its output; SampledDivergence of the binned
// Gaussian pair below SGM.

import (
	"math"

	"pgregory.net/rapid"
)

// The sampled laws' domain: affordable for the reference at 64 bits
// (b >= 0.2, orders <= 32).
func drawSampledLaplace(t *rapid.T) (q, b, a float64) {
	q = logUniform(1e-6, 1).Draw(t, "q")
	b = logUniform(0.2, 50).Draw(t, "b")
	a = rapid.OneOf(rapid.Float64Range(1, 32), rapid.SampledFrom([]float64{1, 1.5, 2, 3, 8, 16.5, 32})).Draw(t, "alpha")
	return
}

// le reports x <= y within the implementation's sampled accuracy: both
// values are within rel of exact ones, so x <= y exactly means x <= y (1 +
// 2 rel) here; abs covers what rounding of inputs adds.
func le(x, y, rel, abs float64) bool {
	return x <= y+2*rel*math.Abs(y)+abs+tiny
}

// checkSampledLimits: q = 0 gives 0, q = 1 gives the unsampled mechanism
// (Laplace, or the larger direction of Divergence).
func (im *Impl) checkSampledLimits(t *rapid.T) {
	_, b, a := drawSampledLaplace(t)
	if v := must(t, "SampledLaplace(0, %v, %v)", b, a)(im.SampledLaplace(0, b, a)); v != 0 {
		lawf(t, "sampled-limits", "SampledLaplace(q=0, b=%v, alpha=%v) = %v, want 0", b, a, v)
	}
	v := must(t, "SampledLaplace(1, %v, %v)", b, a)(im.SampledLaplace(1, b, a))
	l := must(t, "Laplace(%v, %v)", b, a)(im.Laplace(b, a))
	if math.Abs(v-l) > (im.Acc.Sampled+im.Acc.Closed)*l+tiny {
		lawf(t, "sampled-limits", "SampledLaplace(q=1, b=%v, alpha=%v) = %v, Laplace = %v", b, a, v, l)
	}
	P, Q := pairPQ(t, "", 5, 24, false)
	if v := must(t, "SampledDivergence(0, %v, %v, %v)", P, Q, a)(im.SampledDivergence(0, P, Q, a)); v != 0 {
		lawf(t, "sampled-limits", "SampledDivergence(q=0, %v, %v, alpha=%v) = %v, want 0", P, Q, a, v)
	}
	d := must(t, "SampledDivergence(1, %v, %v, %v)", P, Q, a)(im.SampledDivergence(1, P, Q, a))
	f := must(t, "Divergence(%v, %v, %v)", P, Q, a)(im.Divergence(P, Q, a))
	r := must(t, "Divergence(%v, %v, %v)", Q, P, a)(im.Divergence(Q, P, a))
	if w := math.Max(f, r); !(d == w || math.Abs(d-w) <= (im.Acc.Sampled+im.Acc.Divergence)*math.Abs(w)+tiny) {
		lawf(t, "sampled-limits", "SampledDivergence(q=1, %v, %v, alpha=%v) = %v, max of the divergences = %v", P, Q, a, d, w)
	}
}

// checkSampledMonotone: the exact functions are non-decreasing in alpha and
// in q and never exceed the unsampled curve (joint convexity of
// e^((alpha-1) D) in the pair).
func (im *Impl) checkSampledMonotone(t *rapid.T) {
	q, b, a := drawSampledLaplace(t)
	q2 := rapid.Float64Range(q, 1).Draw(t, "q2")
	a2 := rapid.Float64Range(a, 32).Draw(t, "alpha2")
	rel := im.Acc.Sampled
	v := must(t, "SampledLaplace(%v, %v, %v)", q, b, a)(im.SampledLaplace(q, b, a))
	vq := must(t, "SampledLaplace(%v, %v, %v)", q2, b, a)(im.SampledLaplace(q2, b, a))
	va := must(t, "SampledLaplace(%v, %v, %v)", q, b, a2)(im.SampledLaplace(q, b, a2))
	l := must(t, "Laplace(%v, %v)", b, a)(im.Laplace(b, a))
	switch {
	case !le(v, vq, rel, 0):
		lawf(t, "sampled-monotone", "SampledLaplace(q=%v) = %v > SampledLaplace(q=%v) = %v (b=%v, alpha=%v)", q, v, q2, vq, b, a)
	case !le(v, va, rel, 0):
		lawf(t, "sampled-monotone", "SampledLaplace(alpha=%v) = %v > SampledLaplace(alpha=%v) = %v (q=%v, b=%v)", a, v, a2, va, q, b)
	case !le(v, l, rel+im.Acc.Closed, 0):
		lawf(t, "sampled-monotone", "SampledLaplace(q=%v, b=%v, alpha=%v) = %v > Laplace = %v", q, b, a, v, l)
	}
	P, Q := pairPQ(t, "", 5, 24, true)
	d := must(t, "SampledDivergence(%v, %v, %v, %v)", q, P, Q, a)(im.SampledDivergence(q, P, Q, a))
	dq := must(t, "SampledDivergence(%v, %v, %v, %v)", q2, P, Q, a)(im.SampledDivergence(q2, P, Q, a))
	da := must(t, "SampledDivergence(%v, %v, %v, %v)", q, P, Q, a2)(im.SampledDivergence(q, P, Q, a2))
	f := must(t, "Divergence(%v, %v, %v)", P, Q, a)(im.Divergence(P, Q, a))
	r := must(t, "Divergence(%v, %v, %v)", Q, P, a)(im.Divergence(Q, P, a))
	// The vectors sum to 1 only within ulps, which moves each value by
	// ~u alpha/(alpha-1) absolute (see checkBinnedSGM).
	abs := 16 * u * a / math.Max(a-1, 1e-3)
	switch {
	case !le(d, dq, rel, abs):
		lawf(t, "sampled-monotone", "SampledDivergence(q=%v) = %v > SampledDivergence(q=%v) = %v (%v, %v, alpha=%v)", q, d, q2, dq, P, Q, a)
	case !le(d, da, rel, abs):
		lawf(t, "sampled-monotone", "SampledDivergence(alpha=%v) = %v > SampledDivergence(alpha=%v) = %v (q=%v, %v, %v)", a, d, a2, da, q, P, Q)
	case !le(d, math.Max(f, r), rel+im.Acc.Divergence, abs):
		lawf(t, "sampled-monotone", "SampledDivergence(q=%v, %v, %v, alpha=%v) = %v > unsampled %v", q, P, Q, a, d, math.Max(f, r))
	}
}

// checkSampledBelowBound: SampledLaplace <= PoissonBound with the Laplace
// curve as base (Zhu and Wang 2019's general bound). At orders <= 2 the two are
// equal (the bound's only term has no factor 3 and the forward direction
// is the larger), so the slack is the accuracies' and the base's rounding
// (1e-12 relative of each e^((l-1) eps(l)) term).
func (im *Impl) checkSampledBelowBound(t *rapid.T) {
	q, b, a := drawSampledLaplace(t)
	base := make([]float64, int(math.Ceil(math.Max(a, 2)))-1)
	for i := range base {
		base[i] = must(t, "Laplace(%v, %v)", b, i+2)(im.Laplace(b, float64(i+2)))
	}
	v := must(t, "SampledLaplace(%v, %v, %v)", q, b, a)(im.SampledLaplace(q, b, a))
	pb := must(t, "PoissonBound(%v, %v, Laplace(%v))", q, a, b)(im.PoissonBound(q, a, base))
	if !le(v, pb, im.Acc.Sampled+1e-12, 0) {
		lawf(t, "sampled-below-bound", "SampledLaplace(q=%v, b=%v, alpha=%v) = %v > PoissonBound = %v", q, b, a, v, pb)
	}
}

// laplaceBins returns the Lap(mean, b) probabilities of (-Inf, e0], ...,
// (e_last, +Inf), each from the tail on its side (no cancellation of
// near-1 values), made to sum to 1 within an ulp.
func laplaceBins(edges []float64, mean, b float64) []float64 {
	cdfLo := func(x float64) float64 { // P(X <= x) for x <= mean
		return 0.5 * math.Exp((x-mean)/b)
	}
	cdfHi := func(x float64) float64 { // P(X > x) for x >= mean
		return 0.5 * math.Exp(-(x-mean)/b)
	}
	out := make([]float64, len(edges)+1)
	lo := math.Inf(-1)
	for i := range out {
		hi := math.Inf(1)
		if i < len(edges) {
			hi = edges[i]
		}
		switch {
		case hi <= mean:
			out[i] = cdfLo(hi) - cdfLo(lo)
		case lo >= mean:
			out[i] = cdfHi(lo) - cdfHi(hi)
		default:
			out[i] = (0.5 - cdfLo(lo)) + (0.5 - cdfHi(hi))
		}
		lo = hi
	}
	fixSum(out)
	return out
}

// checkSampledBinning: binning the sampled Laplace mechanism's output is a
// post-processing, so SampledLaplace >= the exact divergence of the binned
// pair, which is SampledDivergence of the binned Lap(1, b) and Lap(0, b)
// (data processing). The edges always include 0 and 1, where the density
// ratio changes form; q >= 1e-3 keeps the binned value far above the
// bins' rounding.
func (im *Impl) checkSampledBinning(t *rapid.T) {
	q, b, a := drawSampledLaplace(t)
	q = max(q, 1e-3)
	m := rapid.IntRange(0, 30).Draw(t, "interior edges")
	edges := []float64{-3 * b, 0}
	for i := 1; i <= m; i++ {
		edges = append(edges, float64(i)/float64(m+1))
	}
	edges = append(edges, 1, 1+3*b)
	P, Q := laplaceBins(edges, 1, b), laplaceBins(edges, 0, b)
	d := must(t, "SampledDivergence(%v, binned Lap(1, %v), binned Lap(0, %v), %v)", q, b, b, a)(im.SampledDivergence(q, P, Q, a))
	v := must(t, "SampledLaplace(%v, %v, %v)", q, b, a)(im.SampledLaplace(q, b, a))
	if !le(d, v, im.Acc.Sampled+1e-9, 16*u*a/math.Max(a-1, 1e-3)) {
		lawf(t, "sampled-binning", "SampledLaplace(q=%v, b=%v, alpha=%v) = %v < %v, its output binned at %v", q, b, a, v, d, edges)
	}
}

// checkSampledBinnedSGM: SampledDivergence of the Gaussian pair binned is a
// post-processing of the sampled Gaussian, so it is at most SGM, and
// refining the bins (adding edges) never decreases it.
func (im *Impl) checkSampledBinnedSGM(t *rapid.T) {
	q := logUniform(1e-3, 1).Draw(t, "q")
	s := logUniform(0.5, 10).Draw(t, "sigma")
	a := rapid.Float64Range(1.01, 32).Draw(t, "alpha")
	lo, hi := -6*s, min(a+6*s, 30*s) // within 30 sigma: no bin underflows
	m := rapid.IntRange(2, 40).Draw(t, "edges")
	var coarse, fine []float64
	for i := 0; i < m; i++ {
		x := lo + (hi-lo)*float64(i)/float64(m-1)
		coarse = append(coarse, x)
		fine = append(fine, x)
		if i < m-1 {
			fine = append(fine, x+(hi-lo)/float64(m-1)/2)
		}
	}
	abs := 16 * u * a / (a - 1)
	val := func(edges []float64) float64 {
		P, Q := normalBins(edges, 1, s), normalBins(edges, 0, s)
		return must(t, "SampledDivergence(%v, binned N(1, %v^2), binned N(0, %v^2), %v)", q, s, s, a)(im.SampledDivergence(q, P, Q, a))
	}
	dc, df := val(coarse), val(fine)
	v := must(t, "SGM(%v, %v, %v)", q, s, a)(im.SGM(q, s, a))
	switch {
	case !le(df, v, im.Acc.Sampled+im.Acc.SGM+1e-9, abs):
		lawf(t, "sampled-binned-sgm", "SampledDivergence of N binned at %d edges = %v > SGM(q=%v, sigma=%v, alpha=%v) = %v", len(fine), df, q, s, a, v)
	case !le(dc, df, im.Acc.Sampled+1e-9, abs):
		lawf(t, "sampled-binned-sgm", "finer bins gave less: %v (%d edges) > %v (%d edges), q=%v sigma=%v alpha=%v", dc, len(coarse), df, len(fine), q, s, a)
	}
}
