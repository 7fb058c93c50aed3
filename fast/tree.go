package fast

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/rdpcheck/rdpcheck/internal/carry"
	"github.com/rdpcheck/rdpcheck/rdp"
)

// TreeRestarts selects the reading of a restarted tree; it is
// rdp.TreeRestarts, shared with package reference.
type TreeRestarts = rdp.TreeRestarts

const (
	// TreeOneTree: a record in one tree only (dp_accounting's
	// SingleEpochTreeAggregationDpEvent): k = ceil(log2(max steps + 1)).
	TreeOneTree = rdp.TreeOneTree
	// TreeEveryTree: a record in every restarted tree (TF Privacy's
	// compute_rdp_tree_restart): k = sum of floor(log2 steps) + 1.
	TreeEveryTree = rdp.TreeEveryTree
)

// TreeAggregation returns the RDP of DP-FTRL's tree aggregation protocol
// with restarts (Kairouz et al. 2021, arXiv 2103.00039, appendix D), alpha
// k/(2 sigma^2) with k as restarts says (see reference.TreeAggregation).
//
// Special cases are:
//
//	TreeAggregation(sigma, steps all 0, alpha) = 0
//	TreeAggregation(sigma, steps, +Inf) = +Inf when some steps[i] > 0
//	TreeAggregation = error for sigma <= 0, +Inf or NaN, an empty step list,
//	    a negative step count, alpha < 0 or NaN, an unknown reading
//
// Accuracy: rounded up, within 8 ulps of the exact value.
func TreeAggregation(sigma float64, steps []int, alpha float64, restarts TreeRestarts) (float64, error) {
	const fn = "TreeAggregation"
	k, err := treeDepths(fn, sigma, steps, restarts)
	if err != nil {
		return 0, err
	}
	return treeValue(fn, sigma, k, alpha)
}

// TreeAggregationCurve writes TreeAggregation at each order to out.
func TreeAggregationCurve(sigma float64, steps []int, restarts TreeRestarts, orders, out []float64) error {
	const fn = "TreeAggregationCurve"
	if len(out) != len(orders) {
		return inputErr(fn, "out", float64(len(out)), "must have the length of orders")
	}
	k, err := treeDepths(fn, sigma, steps, restarts)
	if err != nil {
		return err
	}
	// k/(2 sigma^2) once; where it is a normal float64 far from overflow,
	// each order costs one product with its error bound.
	s := carry.ToScaled(carry.Exact(sigma))
	den := carry.ScaledMul(s, s)
	den.X++
	c := carry.ScaledDiv(carry.ToScaled(carry.Exact(float64(k))), den).Float()
	normal := c.V >= 0x1p-900 && c.V <= 0x1p900
	for i, a := range orders {
		if !normal || k == 0 || a == 0 || math.IsNaN(a) || a < 0 || a > 0x1p100 {
			if out[i], err = treeValue(fn, sigma, k, a); err != nil {
				return err
			}
			continue
		}
		out[i] = carry.Mul(carry.Exact(a), c).Up()
	}
	return nil
}

func treeDepths(fn string, sigma float64, steps []int, restarts TreeRestarts) (int64, error) {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return 0, inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if len(steps) == 0 {
		return 0, &InputError{Pkg: pkgName, Func: fn, Arg: "steps", Value: math.NaN(), Msg: "must be a non-empty list"}
	}
	if !restarts.Valid() {
		return 0, inputErr(fn, "restarts", float64(restarts), "unknown reading")
	}
	var k int64
	for i, s := range steps {
		if s < 0 {
			return 0, inputErr(fn, fmt.Sprintf("steps[%d]", i), float64(s), "must be >= 0")
		}
		d := int64(bits.Len64(uint64(s)))
		if restarts == TreeEveryTree {
			k += d
		} else {
			k = max(k, d)
		}
	}
	return k, nil
}

// treeValue is alpha k/(2 sigma^2) rounded up (k < 2^53 is exact).
func treeValue(fn string, sigma float64, k int64, alpha float64) (float64, error) {
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	switch {
	case k == 0 || alpha == 0:
		return 0, nil
	case math.IsInf(alpha, 1):
		return math.Inf(1), nil
	}
	s := carry.ToScaled(carry.Exact(sigma))
	den := carry.ScaledMul(s, s)
	den.X++
	num := carry.ScaledMul(carry.ToScaled(carry.Exact(alpha)), carry.ToScaled(carry.Exact(float64(k))))
	return carry.ScaledDiv(num, den).Float().Up(), nil
}

// TreeMultiParticipation returns the RDP of one DP-FTRL tree without
// restarts, alpha k/(2 sigma^2) with k = TreeSensitivitySquareSum(totalSteps,
// maxParticipation, minSeparation) (TF Privacy's compute_rdp_single_tree;
// see reference.TreeMultiParticipation).
//
// Special cases are:
//
//	TreeMultiParticipation(sigma, 0, m, s, alpha) = TreeMultiParticipation(sigma, n, 0, s, alpha) = 0
//	TreeMultiParticipation(sigma, n > 0, m > 0, s, +Inf) = +Inf
//	TreeMultiParticipation = error as TreeSensitivitySquareSum, and for sigma <= 0, +Inf or NaN, alpha < 0 or NaN
//
// Accuracy: rounded up, within 8 ulps of the exact value.
func TreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation int, alpha float64) (float64, error) {
	const fn = "TreeMultiParticipation"
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return 0, inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	k, err := treeSquareSum(fn, totalSteps, maxParticipation, minSeparation)
	if err != nil {
		return 0, err
	}
	return treeValue(fn, sigma, k, alpha)
}

// TreeSensitivitySquareSum returns the worst-case sum over the tree's nodes
// of the squared number of a record's leaves below each node, for n leaves,
// at most m participations, any two at least s leaves apart: the same
// dynamic programme as reference.TreeSensitivitySquareSum (tables by number
// of chosen leaves and empty leaves, capped at s, at either end), in int64.
//
// Special cases are:
//
//	TreeSensitivitySquareSum(0, m, s) = TreeSensitivitySquareSum(n, 0, s) = 0
//	TreeSensitivitySquareSum = error for n, m or s < 0; error wrapping
//	    ErrTooLarge beyond the reference's cost limit
func TreeSensitivitySquareSum(n, m, s int) (int64, error) {
	return treeSquareSum("TreeSensitivitySquareSum", n, m, s)
}

func treeSquareSum(fn string, n, m, s int) (int64, error) {
	if n < 0 {
		return 0, inputErr(fn, "totalSteps", float64(n), "must be >= 0")
	}
	if m < 0 {
		return 0, inputErr(fn, "maxParticipation", float64(m), "must be >= 0")
	}
	if s < 0 {
		return 0, inputErr(fn, "minSeparation", float64(s), "must be >= 0")
	}
	if n == 0 || m == 0 {
		return 0, nil
	}
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
	if cost > 4e8 {
		return 0, fmt.Errorf("fast.%s: (n, m, s) = (%d, %d, %d) costs %.3g steps: %w", fn, n, m, s, cost, ErrTooLarge)
	}
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
	return best, nil
}
