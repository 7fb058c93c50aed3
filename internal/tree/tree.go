package tree

import (
	"math"
	"math/bits"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Value is alpha k/(2 sigma^2) rounded up, for sigma > 0 finite, k >= 0
// (below 2^53, so exact) and alpha >= 0 (or +Inf): the product and
// quotient on scaled mantissas, so that nothing overflows or underflows
// on the way.
func Value(sigma float64, k int64, alpha float64) float64 {
	switch {
	case k == 0 || alpha == 0:
		return 0
	case math.IsInf(alpha, 1):
		return math.Inf(1)
	}
	s := errfloat.ToScaled(errfloat.Exact(sigma))
	den := errfloat.ScaledMul(s, s)
	den.X++
	num := errfloat.ScaledMul(errfloat.ToScaled(errfloat.Exact(alpha)), errfloat.ToScaled(errfloat.Exact(float64(k))))
	return errfloat.ScaledDiv(num, den).Float().Up()
}

// Line returns k/(2 sigma^2) with its error bound, and whether it is a
// normal float64 far from overflow: then alpha times it, with the
// product's bound, rounded up, is an upper bound on the line at any alpha
// up to 2^100 for one product per order (TreeAggregationCurve).
func Line(sigma float64, k int64) (c errfloat.Val, normal bool) {
	s := errfloat.ToScaled(errfloat.Exact(sigma))
	den := errfloat.ScaledMul(s, s)
	den.X++
	c = errfloat.ScaledDiv(errfloat.ToScaled(errfloat.Exact(float64(k))), den).Float()
	return c, c.V >= 0x1p-900 && c.V <= 0x1p900
}

// Cost returns the steps SquareSum's dynamic programme takes at n, m > 0
// and s >= 0, and m capped at the participations n leaves allow, the m
// the programme uses.
func Cost(n, m, s int) (steps float64, mFit int) {
	fit := func(size int) int { return min(m, (size-1)/(s+1)+1) }
	m = fit(n)
	L := bits.Len64(uint64(n))
	var cost float64
	jc := func(a, b int) float64 {
		ja, jb := float64(fit(max(a, 1))), float64(fit(max(b, 1)))
		ea, eb := float64(min(a, s)+1), float64(min(b, s)+1)
		return ja*jb*ea*eb*(eb+1) + (ja+jb)*ea*eb
	}
	for h, fs := 0, 0; h < L; h++ {
		cost += jc(1<<h, 1<<h)
		if n&(1<<h) != 0 {
			cost += jc(1<<h, fs)
			fs += 1 << h
		}
	}
	return cost, m
}

// SquareSum is fast.TreeSensitivitySquareSum for n, m > 0 and s >= 0 (at
// a cost the caller has accepted): the worst case over the placements of
// m participations at least s leaves apart, by tables over the number of
// chosen leaves and the empty leaves, capped at s, at either end of each
// subtree.
func SquareSum(n, m, s int) int64 {
	fit := func(size int) int { return min(m, (size-1)/(s+1)+1) }
	m = fit(n)
	L := bits.Len64(uint64(n))
	S := s + 1
	idx := func(j, l, t int) int { return (j*S+l)*S + t }
	newTab := func(size int) []int64 {
		v := make([]int64, (m+1)*S*S)
		for i := range v {
			v[i] = -1
		}
		e := min(size, s)
		v[idx(0, e, e)] = 0
		return v
	}
	set := func(v []int64, i int, x int64) {
		if x > v[i] {
			v[i] = x
		}
	}
	suf := make([]int64, S)
	join := func(A []int64, a int, B []int64, b int, root bool) []int64 {
		C := newTab(a + b)
		sq := func(j int) int64 {
			if root {
				return int64(j * j)
			}
			return 0
		}
		ja, jb, ea, eb := fit(a), fit(b), min(a, s), min(b, s)
		for j := 1; j <= m; j++ {
			for l := 0; l <= s; l++ {
				for t := 0; t <= s; t++ {
					if j <= jb && l <= eb && t <= eb && B[idx(j, l, t)] >= 0 {
						set(C, idx(j, min(a+l, s), t), B[idx(j, l, t)]+sq(j))
					}
					if j <= ja && l <= ea && t <= ea && A[idx(j, l, t)] >= 0 {
						set(C, idx(j, l, min(t+b, s)), A[idx(j, l, t)]+sq(j))
					}
				}
			}
		}
		for j1 := 1; j1 <= min(ja, m-1); j1++ {
			for l1 := 0; l1 <= ea; l1++ {
				best := int64(-1)
				for t := s; t >= 0; t-- {
					best = max(best, A[idx(j1, l1, t)])
					suf[t] = best
				}
				if best < 0 {
					continue
				}
				for j2 := 1; j2 <= jb && j1+j2 <= m; j2++ {
					for l2 := 0; l2 <= eb; l2++ {
						va := suf[max(0, s-l2)]
						if va < 0 {
							continue
						}
						for t2 := 0; t2 <= eb; t2++ {
							if vb := B[idx(j2, l2, t2)]; vb >= 0 {
								set(C, idx(j1+j2, l1, t2), va+vb+sq(j1+j2))
							}
						}
					}
				}
			}
		}
		return C
	}
	cur, size := newTab(1), 1
	cur[idx(1, 0, 0)] = 1
	var forest []int64
	fsize := 0
	for h := 0; h < L; h++ {
		if n&(1<<h) != 0 {
			if forest == nil {
				forest, fsize = cur, size
			} else {
				forest = join(cur, size, forest, fsize, false)
				fsize += size
			}
		}
		if h+1 < L {
			cur = join(cur, size, cur, size, true)
			size *= 2
		}
	}
	var best int64
	for i := idx(1, 0, 0); i < len(forest); i++ {
		best = max(best, forest[i])
	}
	return best
}
