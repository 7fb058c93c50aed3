package tree

import (
	"math"
	"math/big"
	"math/bits"
	"testing"
)

// exactLine is alpha k/(2 sigma^2) as an exact rational: the expected value
// of Value, computed independently of carry's scaled arithmetic.
func exactLine(sigma float64, k int64, alpha float64) *big.Rat {
	num := new(big.Rat).Mul(new(big.Rat).SetFloat64(alpha), new(big.Rat).SetInt64(k))
	s := new(big.Rat).SetFloat64(sigma)
	den := new(big.Rat).Mul(s, s)
	den.Mul(den, big.NewRat(2, 1))
	return num.Quo(num, den)
}

// TestValueRoundedUp: Value is never below the exact rational alpha
// k/(2 sigma^2) and, where that is a normal float64, within 8 ulps of it
// (fast.TreeMultiParticipation's stated accuracy); an exact value beyond
// float64 gives +Inf, a positive one below it the least subnormal or more.
func TestValueRoundedUp(t *testing.T) {
	cases := []struct {
		sigma float64
		k     int64
		alpha float64
	}{
		{1, 1, 2}, // exactly 1
		{0.7, 14, 2.5},
		{3.3, 7, 1.0000001},
		{1e-3, 1 << 52, 256},
		{0.1, 3, 1e10},
		{1e-200, 5, 1e100},  // product above 2^1024: +Inf
		{1e200, 1, 1.5},     // below 2^-1074: the least subnormal
		{1e150, 9, 3e-10},   // below 2^-1074
		{1e-160, 1, 1e-300}, // 5e19, every intermediate out of range
		{123.456, 999, 0.5},
	}
	for _, c := range cases {
		got := Value(c.sigma, c.k, c.alpha)
		want := exactLine(c.sigma, c.k, c.alpha)
		wf, _ := want.Float64()
		switch {
		case math.IsInf(wf, 1) || wf > math.MaxFloat64:
			if !math.IsInf(got, 1) {
				t.Errorf("Value(%g, %d, %g) = %g, want +Inf (exact above MaxFloat64)", c.sigma, c.k, c.alpha, got)
			}
			continue
		case math.IsInf(got, 1):
			t.Errorf("Value(%g, %d, %g) = +Inf, exact %g", c.sigma, c.k, c.alpha, wf)
			continue
		}
		g := new(big.Rat).SetFloat64(got)
		if g.Cmp(want) < 0 {
			t.Errorf("Value(%g, %d, %g) = %v below the exact %v", c.sigma, c.k, c.alpha, got, want.FloatString(30))
		}
		if wf < 0x1p-1022 {
			if got > 0x1p-1022 {
				t.Errorf("Value(%g, %d, %g) = %g, exact %g is subnormal", c.sigma, c.k, c.alpha, got, wf)
			}
			continue
		}
		lim := new(big.Rat).Mul(want, new(big.Rat).SetFloat64(1+8*0x1p-52))
		if g.Cmp(lim) > 0 {
			t.Errorf("Value(%g, %d, %g) = %v, more than 8 ulps above the exact %v", c.sigma, c.k, c.alpha, got, wf)
		}
	}
	// Special cases of the doc comment.
	if Value(2, 0, 5) != 0 || Value(2, 5, 0) != 0 || !math.IsInf(Value(2, 5, math.Inf(1)), 1) {
		t.Errorf("special cases: Value(2, 0, 5) = %g, Value(2, 5, 0) = %g, Value(2, 5, +Inf) = %g",
			Value(2, 0, 5), Value(2, 5, 0), Value(2, 5, math.Inf(1)))
	}
}

// TestLineEnclosesExact: Line's value with its error bound encloses the
// exact k/(2 sigma^2), the bound is small (a few ulps), and normal says
// whether the value lies in [2^-900, 2^900].
func TestLineEnclosesExact(t *testing.T) {
	for _, c := range []struct {
		sigma  float64
		k      int64
		normal bool
	}{
		{1, 1, true}, {0.3, 7, true}, {0x1p440, 1, true}, {0x1p460, 1, false}, // 2^-881 and 2^-921
		{1e-3, 1 << 40, true}, {1e200, 3, false}, {1e-200, 3, false}, {7e-10, 12345, true},
	} {
		v, normal := Line(c.sigma, c.k)
		want := exactLine(c.sigma, c.k, 1)
		wf, _ := want.Float64()
		if math.IsInf(v.V, 1) {
			// out of range: an enclosure only if the exact value is too
			if wf <= math.MaxFloat64 {
				t.Errorf("Line(%g, %d) = +Inf, exact %g", c.sigma, c.k, wf)
			}
		} else if lo, hi := new(big.Rat).SetFloat64(v.V-v.E), new(big.Rat).SetFloat64(v.V+v.E); lo.Cmp(want) > 0 || hi.Cmp(want) < 0 {
			t.Errorf("Line(%g, %d) = %g ± %g does not enclose %s", c.sigma, c.k, v.V, v.E, want.FloatString(30))
		}
		if normal != c.normal {
			t.Errorf("Line(%g, %d): normal = %v, want %v", c.sigma, c.k, normal, c.normal)
		}
		if normal && v.E > 8*0x1p-53*v.V {
			t.Errorf("Line(%g, %d): error bound %g is above 8u of %g", c.sigma, c.k, v.E, v.V)
		}
	}
}

// bruteSquareSum enumerates every subset of the n leaves as a bit mask
// (its own enumeration, not oracles.TreeSquareSumBrute's recursion): at
// most m chosen, any two at least s leaves apart; the sum over the dyadic
// nodes [i 2^h, (i+1) 2^h) inside [0, n) of the squared count below each.
// It also returns the largest feasible count of chosen leaves.
func bruteSquareSum(n, m, s int) (best int64, most int) {
	var nodes []uint32
	for w := 1; w <= n; w *= 2 {
		for lo := 0; lo+w <= n; lo += w {
			nodes = append(nodes, (1<<w-1)<<lo)
		}
	}
	for set := uint32(1); set < 1<<n; set++ {
		c := bits.OnesCount32(set)
		if c > m {
			continue
		}
		ok, last := true, -1
		for x := 0; x < n && ok; x++ {
			if set&(1<<x) != 0 {
				ok = last < 0 || x-last-1 >= s
				last = x
			}
		}
		if !ok {
			continue
		}
		most = max(most, c)
		var sum int64
		for _, nd := range nodes {
			k := int64(bits.OnesCount32(set & nd))
			sum += k * k
		}
		best = max(best, sum)
	}
	return best, most
}

// TestSquareSumBruteForce: SquareSum equals the brute-force maximum over
// participation patterns for every n <= 13 (10 with -short), m <= 4, s <=
// 3, and Cost's mFit is the most participations that fit.
func TestSquareSumBruteForce(t *testing.T) {
	top := 13
	if testing.Short() {
		top = 10
	}
	for n := 1; n <= top; n++ {
		for m := 1; m <= 4; m++ {
			for s := 0; s <= 3; s++ {
				want, most := bruteSquareSum(n, m, s)
				if got := SquareSum(n, m, s); got != want {
					t.Errorf("SquareSum(%d, %d, %d) = %d, brute force %d", n, m, s, got, want)
				}
				if _, mFit := Cost(n, m, s); mFit != most {
					t.Errorf("Cost(%d, %d, %d): mFit = %d, brute force %d", n, m, s, mFit, most)
				}
			}
		}
	}
}

// TestSquareSumClosedForms: at m = 1 the worst leaf is the deepest one,
// bits.Len(n) nodes above it (each counted once); at s = 0 and m >= n
// every leaf is chosen: sum over the nodes of their size squared, which
// for n = 2^L is sum_h 2^(L-h) 4^h = 2^L (2^(L+1) - 1).
func TestSquareSumClosedForms(t *testing.T) {
	for _, n := range []int{1, 2, 3, 100, 1000, 4095, 4096, 1 << 20} {
		if got, want := SquareSum(n, 1, 0), int64(bits.Len(uint(n))); got != want {
			t.Errorf("SquareSum(%d, 1, 0) = %d, want bits.Len(n) = %d", n, got, want)
		}
	}
	for L := 0; L <= 9; L++ {
		n := 1 << L
		want := int64(n) * int64(2*n-1) // sum_h 2^(L-h) nodes of 4^h each
		if got := SquareSum(n, n, 0); got != want {
			t.Errorf("SquareSum(%d, %d, 0) = %d, want 2^L (2^(L+1) - 1) = %d", n, n, got, want)
		}
	}
}
