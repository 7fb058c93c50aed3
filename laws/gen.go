package laws

import (
	"math"
	"slices"

	"pgregory.net/rapid"
)

// logUniform draws from [lo, hi] uniformly in log scale, so that 1e-12 and
// 0.5 are both likely sampling rates.
func logUniform(lo, hi float64) *rapid.Generator[float64] {
	return rapid.Map(rapid.Float64Range(math.Log(lo), math.Log(hi)), func(x float64) float64 {
		return min(max(math.Exp(x), lo), hi)
	})
}

// onePlus is the smallest float64 above 1: orders are > 1 for SGM.
var onePlus = math.Nextafter(1, 2)

// specialOrders are orders that broke peers or sit on a branch point:
// 1+1e-8 and 1.01 (TF's improved conversion starts at 1.01), 1.1 to 1.5
// (dp_accounting prints inf at q = 0.1, sigma = 1), half-integers, and the
// integers next to them.
var specialOrders = []float64{1 + 1e-8, 1.01, 1.1, 1.25, 1.5, 2, 2.5, 3, 4.5, 8, 10.5, 32, 58.5, 59, 59.5, 64, 128, 256, 1030, 1031, 4096, 10000}

// order draws an SGM order in (lo, hi]: an integer, any float, or a
// special order, each a third of the time.
func order(lo, hi float64, intMax int) *rapid.Generator[float64] {
	lo = max(lo, onePlus)
	var sp []float64
	for _, a := range specialOrders {
		if a >= lo && a <= hi {
			sp = append(sp, a)
		}
	}
	gens := []*rapid.Generator[float64]{rapid.Float64Range(lo, hi)}
	if iLo, iHi := int(math.Ceil(lo)), intMax; iLo <= iHi {
		gens = append(gens, rapid.Map(rapid.IntRange(iLo, iHi), func(n int) float64 { return float64(n) }))
	}
	if len(sp) > 0 {
		gens = append(gens, rapid.SampledFrom(sp))
	}
	return rapid.OneOf(gens...)
}

// sgmPoint is one (q, sigma, alpha) for SGM.
type sgmPoint struct{ q, sigma, alpha float64 }

// sgmRegions are the regions where the peers (TF Privacy, dp_accounting)
// print wrong values, as the comments below say, drawn besides the whole
// domain.
var sgmRegions = []string{"any", "any", "any", "tiny q", "q = 1-1e-9", "q=0.4 sigma=12 alpha~59", "q=0.1 sigma=1 alpha 1.1-1.5", "q = 1"}

// drawSGM draws an SGM point from the domain, with orders at most aMax.
func (d Domain) drawSGM(t *rapid.T, aMax float64) sgmPoint {
	aMax = min(aMax, d.OrderMax)
	intMax := min(int(aMax), d.IntOrderMax)
	region := rapid.SampledFrom(sgmRegions).Draw(t, "region")
	p := sgmPoint{
		q:     rapid.OneOf(logUniform(d.QMin, 1), rapid.SampledFrom([]float64{d.QMin, 0.01, 0.5, 1})).Draw(t, "q"),
		sigma: rapid.OneOf(logUniform(d.SigmaMin, d.SigmaMax), rapid.SampledFrom([]float64{d.SigmaMin, 1})).Draw(t, "sigma"),
	}
	switch region {
	case "tiny q": // TF prints negative RDP at q = 1e-10
		p.q = logUniform(d.QMin, max(d.QMin, 1e-10)*100).Draw(t, "q tiny")
	case "q = 1-1e-9":
		p.q = 1 - 1e-9
	case "q=0.4 sigma=12 alpha~59": // TF stops its series early: negative RDP
		if aMax >= 59.5 {
			p.q, p.sigma = 0.4, 12
			p.alpha = rapid.Float64Range(58.5, 59.5).Draw(t, "alpha near 59")
			return p
		}
	case "q=0.1 sigma=1 alpha 1.1-1.5": // dp_accounting prints inf
		if aMax >= 1.5 {
			p.q, p.sigma = 0.1, 1
			p.alpha = rapid.Float64Range(1.1, 1.5).Draw(t, "alpha 1.1-1.5")
			return p
		}
	case "q = 1":
		p.q = 1
	}
	p.alpha = order(onePlus, aMax, intMax).Draw(t, "alpha")
	return p
}

// dyadic draws a probability vector of n entries, each a multiple of
// 2^-bits, summing to exactly 1: the entries are exact binary numbers, so
// products and mixtures of them (bits small enough) are exact too, and the
// laws compare the implementation with exact identities, not with rounding.
// With positive, every entry is > 0.
func dyadic(t *rapid.T, label string, n, bits int, positive bool) []float64 {
	total := 1 << bits
	var cuts []int
	if positive {
		cuts = rapid.SliceOfNDistinct(rapid.IntRange(1, total-1), n-1, n-1, rapid.ID[int]).Draw(t, label)
	} else {
		cuts = rapid.SliceOfN(rapid.IntRange(0, total), n-1, n-1).Draw(t, label)
	}
	slices.Sort(cuts)
	p := make([]float64, n)
	prev := 0
	for i, c := range append(cuts, total) {
		p[i] = math.Ldexp(float64(c-prev), -bits)
		prev = c
	}
	return p
}

// pairPQ draws two dyadic distributions of the same length, labelled
// with the given suffix ("P1", "Q1").
func pairPQ(t *rapid.T, suffix string, nMax, bitsMax int, positive bool) (p, q []float64) {
	n := rapid.IntRange(2, nMax).Draw(t, "n"+suffix)
	bits := rapid.IntRange(max(3, bitsForN(n)), bitsMax).Draw(t, "bits"+suffix)
	return dyadic(t, "P"+suffix, n, bits, positive), dyadic(t, "Q"+suffix, n, bits, positive)
}

// bitsForN is the fewest bits that leave room for n distinct positive cuts.
func bitsForN(n int) int {
	b := 1
	for 1<<b <= n {
		b++
	}
	return b
}

// divOrder draws an order for discrete divergences, anywhere in [0, hi]
// including the special orders 0, 1/2, 1 and +Inf.
func divOrder(hi float64, inf bool) *rapid.Generator[float64] {
	sp := []float64{0, 0.5, 1, 1 - 1e-8, 1 + 1e-8, 1.01, 2}
	if inf {
		sp = append(sp, math.Inf(1))
	}
	return rapid.OneOf(rapid.Float64Range(0, hi), rapid.Float64Range(0, 1), rapid.SampledFrom(sp))
}
