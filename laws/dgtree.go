package laws

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
)

// checkDGTreeRepeat: the laws of the discrete Gaussian, tree aggregation
// and repeat-and-select, one drawn per check.
//
//   - dgline: DiscreteGaussian(sigma, D, alpha) <= alpha D^2/(2 sigma^2),
//     the zCDP line, with equality where (1-alpha) D is an integer
//     (Canonne, Kamath, Steinke 2020, Prop 5; the line is formed exactly in
//     big.Float).
//   - tree: TreeAggregation = k alpha/(2 sigma^2) with k counted by brute
//     force: the dyadic intervals [j 2^h, (j+1) 2^h) inside [0, n) that
//     hold the worst leaf, the largest over the trees (one tree) or their
//     sum (every tree) (Kairouz et al. 2021, appendix D).
//   - treemulti: TreeMultiParticipation = k alpha/(2 sigma^2) with k the
//     largest sum over those intervals of the squared number of chosen
//     leaves, over every set of at most m leaves any two at least s apart,
//     enumerated (n <= 14).
//   - repeat: RepeatAndSelect is non-decreasing in the mean (every term of
//     Papernot and Steinke 2022, Theorems 2 and 6, grows with it) and at a
//     curve order at least the base curve there (the terms added are >= 0
//     for mean >= 1; the base is a Gaussian's, non-decreasing).
//
// Slack: the implementation's Events bound on each value.
func (im *Impl) checkDGTreeRepeat(t *rapid.T) {
	const law = "dgauss-tree-repeat"
	rel := im.Acc.Events
	near := func(what string, got float64, want *big.Float) {
		t.Helper()
		w, _ := want.Float64()
		if math.IsInf(w, 1) && got == w {
			return
		}
		if !(math.Abs(got-w) <= rel*w+2*u*w+tiny) {
			lawf(t, law, "%s = %v, want %v", what, got, w)
		}
	}
	line := func(k, alpha, sigma float64) *big.Float {
		if math.IsInf(alpha, 1) {
			return new(big.Float).SetInf(false)
		}
		num := new(big.Float).SetPrec(256).Mul(big.NewFloat(k), big.NewFloat(alpha))
		den := new(big.Float).SetPrec(256).Mul(big.NewFloat(sigma), big.NewFloat(sigma))
		den.Mul(den, big.NewFloat(2))
		return num.Quo(num, den)
	}
	sigma := logUniform(0.1, 20).Draw(t, "sigma")
	switch rapid.SampledFrom([]string{"dgline", "tree", "treemulti", "repeat"}).Draw(t, "event") {
	case "dgline":
		d := float64(rapid.IntRange(1, 4).Draw(t, "sensitivity"))
		exact := rapid.Bool().Draw(t, "(1-alpha) D integer")
		var alpha float64
		if exact { // alpha = j/D
			alpha = float64(rapid.IntRange(int(d)+1, 1000).Draw(t, "alpha D")) / d
			if p := alpha * d; p != math.Trunc(p) || math.FMA(alpha, d, -p) != 0 {
				return // j/D not exact in float64
			}
		} else {
			alpha = rapid.OneOf(order(onePlus, 1000, 1000), rapid.Just(math.Inf(1))).Draw(t, "alpha")
		}
		v := must(t, "DiscreteGaussian(%v, %v, %v)", sigma, d, alpha)(im.DiscreteGaussian(sigma, d, alpha))
		l := line(d*d, alpha, sigma)
		name := fmt.Sprintf("DiscreteGaussian(sigma=%v, D=%v, alpha=%v)", sigma, d, alpha)
		// (1-alpha) D is an integer exactly when alpha D is (D integer).
		if p := alpha * d; exact || (p == math.Trunc(p) && math.FMA(alpha, d, -p) == 0) {
			near(name+" on its zCDP line", v, l)
			return
		}
		lw, _ := l.Float64()
		if !(v <= lw*(1+rel+2*u)) {
			lawf(t, law, "%s = %v above the zCDP line %v", name, v, lw)
		}
	case "tree":
		steps := rapid.SliceOfN(rapid.OneOf(rapid.IntRange(0, 300), rapid.Map(rapid.IntRange(0, 20), func(h int) int { return 1 << h })), 1, 4).Draw(t, "steps")
		r := rapid.SampledFrom([]rdpcheck.TreeRestarts{rdpcheck.TreeOneTree, rdpcheck.TreeEveryTree}).Draw(t, "restarts")
		alpha := rapid.OneOf(order(onePlus, 1000, 1000), rapid.Just(math.Inf(1))).Draw(t, "alpha")
		var k int
		for _, n := range steps {
			depth := bruteDepth(n)
			if r == rdpcheck.TreeEveryTree {
				k += depth
			} else {
				k = max(k, depth)
			}
		}
		v := must(t, "TreeAggregation(%v, %v, %v, %v)", sigma, steps, r, alpha)(im.TreeAggregation(sigma, steps, r, alpha))
		if k == 0 {
			if v != 0 {
				lawf(t, law, "TreeAggregation(steps=%v) = %v, want 0", steps, v)
			}
			return
		}
		near(fmt.Sprintf("TreeAggregation(sigma=%v, steps=%v, %v, alpha=%v) with k = %d", sigma, steps, r, alpha, k), v, line(float64(k), alpha, sigma))
	case "treemulti":
		n := rapid.IntRange(1, 14).Draw(t, "totalSteps")
		m := rapid.IntRange(1, 4).Draw(t, "maxParticipation")
		s := rapid.IntRange(0, 4).Draw(t, "minSeparation")
		alpha := order(onePlus, 1000, 1000).Draw(t, "alpha")
		k := bruteSquareSum(n, m, s)
		v := must(t, "TreeMultiParticipation(%v, %d, %d, %d, %v)", sigma, n, m, s, alpha)(im.TreeMultiParticipation(sigma, n, m, s, alpha))
		near(fmt.Sprintf("TreeMultiParticipation(sigma=%v, n=%d, m=%d, s=%d, alpha=%v) with k = %d", sigma, n, m, s, alpha, k), v, line(float64(k), alpha, sigma))
	case "repeat":
		orders := []float64{1.5, 2, 3, 4, 8, 16, 32, 64, math.Inf(1)}
		curve := make([]float64, len(orders))
		for i, a := range orders {
			curve[i] = must(t, "Gaussian(%v, %v)", sigma, a)(im.Gaussian(sigma, a))
		}
		shape := rapid.SampledFrom([]float64{0, 0.5, 1, 3, math.Inf(1)}).Draw(t, "shape")
		m1 := rapid.OneOf(rapid.Float64Range(1, 1000), rapid.Just(1.0)).Draw(t, "mean1")
		m2 := rapid.Float64Range(m1, 1000).Draw(t, "mean2")
		i := rapid.IntRange(0, len(orders)-2).Draw(t, "order index")
		a := orders[i]
		v1 := must(t, "RepeatAndSelect(mean=%v, shape=%v, alpha=%v)", m1, shape, a)(im.RepeatAndSelect(orders, curve, m1, shape, a))
		v2 := must(t, "RepeatAndSelect(mean=%v, shape=%v, alpha=%v)", m2, shape, a)(im.RepeatAndSelect(orders, curve, m2, shape, a))
		if !(v1 <= v2*(1+rel)+tiny) {
			lawf(t, law, "RepeatAndSelect(Gaussian sigma=%v, shape=%v, alpha=%v) = %v at mean %v > %v at the larger mean %v", sigma, shape, a, v1, m1, v2, m2)
		}
		if !(v1*(1+rel) >= curve[i]) {
			lawf(t, law, "RepeatAndSelect(Gaussian sigma=%v, mean=%v, shape=%v, alpha=%v) = %v below the base curve %v", sigma, m1, shape, a, v1, curve[i])
		}
	}
}

// bruteDepth is the number of dyadic intervals [j 2^h, (j+1) 2^h) inside
// [0, n) holding a leaf, the largest over the leaves.
func bruteDepth(n int) int {
	best := 0
	for leaf := 0; leaf < min(n, 1<<12); leaf++ {
		c := 0
		for h := 0; 1<<h <= n; h++ {
			if j := leaf >> h; (j+1)<<h <= n {
				c++
			}
		}
		best = max(best, c)
	}
	if n > 1<<12 { // leaf 0 lies in the most intervals: one per h with 2^h <= n
		best = bits.Len(uint(n))
	}
	return best
}

// bruteSquareSum enumerates every set of at most m of the n leaves, any
// two at least s leaves apart, and returns the largest sum over the
// dyadic intervals inside [0, n) of the squared number of chosen leaves.
func bruteSquareSum(n, m, s int) int {
	best := 0
	for set := 1; set < 1<<n; set++ {
		if bits.OnesCount(uint(set)) > m {
			continue
		}
		ok, last := true, -1
		for x := 0; x < n; x++ {
			if set&(1<<x) != 0 {
				if last >= 0 && x-last-1 < s {
					ok = false
					break
				}
				last = x
			}
		}
		if !ok {
			continue
		}
		sum := 0
		for h := 0; 1<<h <= n; h++ {
			for j := 0; (j+1)<<h <= n; j++ {
				c := bits.OnesCount(uint(set >> (j << h) & (1<<(1<<h) - 1)))
				sum += c * c
			}
		}
		best = max(best, sum)
	}
	return best
}
