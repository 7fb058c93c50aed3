package reference

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/rdpcheck/rdpcheck"
)

// TreeRestarts selects the reading of a restarted tree; it is
// rdpcheck.TreeRestarts, shared with package fast.
type TreeRestarts = rdpcheck.TreeRestarts

const (
	// TreeOneTree: a record in one tree only (dp_accounting).
	TreeOneTree = rdpcheck.TreeOneTree
	// TreeEveryTree: a record in every restarted tree (TF Privacy).
	TreeEveryTree = rdpcheck.TreeEveryTree
)

// TreeAggregation returns the RDP of the tree aggregation protocol of
// DP-FTRL with Gaussian noise of standard deviation sigma per node (in units
// of a leaf's l2-sensitivity), trees restarted with steps[i] leaves each
// (Kairouz et al. 2021, arXiv 2103.00039, appendix D): the Gaussian
// mechanism with sensitivity squared k, alpha k/(2 sigma^2), exactly. A
// record changes one leaf of a tree with n leaves, and with it the
// floor(log2 n) + 1 nodes on its path (the nodes are the dyadic intervals
// inside [0, n): a complete binary tree per 1 of n's binary digits, the
// record's leaf in the largest at worst); k is
//
//	TreeOneTree:   max_i (floor(log2 steps[i]) + 1) = ceil(log2(max steps + 1))
//	TreeEveryTree: sum_i (floor(log2 steps[i]) + 1)
//
// (a tree of 0 steps contributing 0), the readings of dp_accounting's
// SingleEpochTreeAggregationDpEvent and TF Privacy's
// compute_rdp_tree_restart. The value is exact: an upper bound only in
// that the Gaussian bound is tight for the worst record.
//
// Special cases are:
//
//	TreeAggregation(sigma, steps all 0, restarts, alpha) = 0
//	TreeAggregation(sigma, steps, restarts, +Inf) = +Inf when some steps[i] > 0
//	TreeAggregation = error for sigma <= 0, ±Inf or NaN, an empty step list,
//	    a negative step count, alpha < 0 or NaN, an unknown reading
//
// Slices: steps is only read.
func (c Context) TreeAggregation(sigma float64, steps []int, restarts TreeRestarts, alpha float64) (*big.Float, error) {
	const fn = "TreeAggregation"
	k, err := treeDepths(fn, sigma, steps, restarts)
	if err != nil {
		return nil, err
	}
	return c.treeValue(fn, sigma, k, alpha)
}

// TreeAggregation is Context{}.TreeAggregation at DefaultPrec.
//
// Slices: steps is only read.
func TreeAggregation(sigma float64, steps []int, restarts TreeRestarts, alpha float64) (*big.Float, error) {
	return Context{}.TreeAggregation(sigma, steps, restarts, alpha)
}

// treeDepths returns k, the sensitivity squared, of valid arguments.
//
// The arguments are checked by rdpcheck.CheckTree, as fast checks them (one
// domain, one check). The depth is the reference's own copy, not shared
// with fast: it is the value's substance, and a depth wrong in a shared
// helper would be wrong in both packages alike, where the agreement tests
// could not see it. It is written from the formulas above (a tree's depth
// counted by halving, the deepest tree for one-tree, the sum for
// every-tree), fast's with math/bits.
func treeDepths(fn string, sigma float64, steps []int, restarts TreeRestarts) (int64, error) {
	if err := rdpcheck.CheckTree(pkgName, fn, sigma, steps, restarts); err != nil {
		return 0, err
	}
	depth := func(s int) (d int64) { // floor(log2 s) + 1, 0 for s = 0
		for ; s > 0; s >>= 1 {
			d++
		}
		return d
	}
	if restarts == TreeOneTree {
		return depth(slices.Max(steps)), nil
	}
	var k int64
	for _, s := range steps {
		k += depth(s)
	}
	return k, nil
}

// treeValue returns alpha k/(2 sigma^2) correctly rounded, +Inf at alpha =
// +Inf when k > 0.
func (c Context) treeValue(fn string, sigma float64, k int64, alpha float64) (*big.Float, error) {
	if err := checkOrder(fn, alpha, 0, false); err != nil {
		return nil, err
	}
	p := c.prec()
	switch {
	case k == 0 || alpha == 0:
		return newF(p), nil
	case math.IsInf(alpha, 1):
		return newF(p).SetInf(false), nil
	}
	num := newF(2*64).Mul(fl(alpha, 64), intF(k, 64)) // exact
	den := newF(2*64+2).Mul(fl(sigma, 64), fl(sigma, 64))
	den.SetMantExp(den, 1)
	return newF(p).Quo(num, den), nil
}

// TreeMultiParticipation returns the RDP of one tree of DP-FTRL without
// restarts over totalSteps leaves, a record contributing to at most
// maxParticipation leaves, any two of them at least minSeparation leaves
// apart (positions x < y with y - x - 1 >= minSeparation) (Kairouz et al.
// 2021, appendix D.2): alpha k/(2 sigma^2), k the worst-case sum over the
// tree's nodes of the squared number of the record's leaves below the node
// (TreeSensitivitySquareSum), the reading of TF Privacy's
// compute_rdp_single_tree.
//
// Special cases are:
//
//	TreeMultiParticipation(sigma, 0, m, s, alpha) = TreeMultiParticipation(sigma, n, 0, s, alpha) = 0
//	TreeMultiParticipation(sigma, n > 0, m > 0, s, +Inf) = +Inf
//	TreeMultiParticipation = error as TreeSensitivitySquareSum, and for sigma <= 0, ±Inf or NaN, alpha < 0 or NaN
func (c Context) TreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation int, alpha float64) (*big.Float, error) {
	const fn = "TreeMultiParticipation"
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return nil, inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	k, err := treeSquareSum(fn, totalSteps, maxParticipation, minSeparation)
	if err != nil {
		return nil, err
	}
	return c.treeValue(fn, sigma, k, alpha)
}

// TreeMultiParticipation is Context{}.TreeMultiParticipation at DefaultPrec.
func TreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation int, alpha float64) (*big.Float, error) {
	return Context{}.TreeMultiParticipation(sigma, totalSteps, maxParticipation, minSeparation, alpha)
}

// TreeSensitivitySquareSum returns the largest sum, over the nodes of the
// tree of n leaves (the dyadic intervals inside [0, n)), of the squared
// number of chosen leaves below the node, over sets of at most m leaves
// with any two at least s leaves apart (y - x - 1 >= s).
//
// Method: dynamic programming over the complete subtrees, bottom up by
// height, then across the forest that n's binary digits make. A subtree's
// table holds, for each number j of chosen leaves, each count of empty
// leaves before the first (capped at s) and after the last (capped at s),
// the best sum inside it; two neighbours join when the empty leaves between
// their chosen ones number at least s (with both counts capped at s, the
// capped sum is >= s exactly when the true sum is), and a complete
// subtree's root adds j^2. A subtree of w leaves holds at most min(m,
// ceil(w/(s+1))) chosen ones and at most min(w, s) empty ones at either end,
// which bounds the cost of each join (joinCost).
//
// Special cases are:
//
//	TreeSensitivitySquareSum(0, m, s) = TreeSensitivitySquareSum(n, 0, s) = 0
//	TreeSensitivitySquareSum(n, 1, s) = floor(log2 n) + 1
//	TreeSensitivitySquareSum = error for n, m or s < 0; error wrapping
//	    ErrTooLarge when the cost above exceeds 4e8
func TreeSensitivitySquareSum(n, m, s int) (int64, error) {
	return treeSquareSum("TreeSensitivitySquareSum", n, m, s)
}

func treeSquareSum(fn string, n, m, s int) (int64, error) {
	for _, a := range []struct {
		name string
		v    int
	}{{"totalSteps", n}, {"maxParticipation", m}, {"minSeparation", s}} {
		if a.v < 0 {
			return 0, inputErr(fn, a.name, float64(a.v), "must be >= 0")
		}
	}
	if n == 0 || m == 0 {
		return 0, nil
	}
	// A separation of n leaves or more allows one participation, as n
	// does; the tables are (m+1) (s+1)^2 entries whatever n.
	sIn := s
	s = min(s, n)
	m = fitLeaves(n, m, s)
	if m == 1 {
		// one participation: the nodes on the deepest leaf's path
		return int64(bits.Len64(uint64(n))), nil
	}
	var cost float64
	for h, fs := 0, 0; h < bits.Len64(uint64(n)); h++ {
		cost += joinCost(1<<h, 1<<h, m, s)
		if n&(1<<h) != 0 {
			cost += joinCost(1<<h, fs, m, s)
			fs += 1 << h
		}
	}
	if cost > 4e8 {
		return 0, fmt.Errorf("reference.%s: (n, m, s) = (%d, %d, %d) costs %.3g steps: %w", fn, n, m, sIn, cost, ErrTooLarge)
	}
	tb := newTreeTable(m, s)
	leaf := tb.empty(1)
	leaf.set(1, 0, 0, 1) // the leaf itself is a node
	var forest *treeTab
	var forestSize int
	cur, size := leaf, 1
	for h := 0; h < bits.Len64(uint64(n)); h++ {
		if n&(1<<h) != 0 {
			// The forest's complete subtrees, right to left: this one
			// stands left of those joined so far.
			if forest == nil {
				forest, forestSize = cur, size
			} else {
				forest = tb.join(cur, size, forest, forestSize, false)
				forestSize += size
			}
		}
		if h+1 < bits.Len64(uint64(n)) {
			cur = tb.join(cur, size, cur, size, true)
			size *= 2
		}
	}
	best := int64(0)
	for j := 1; j <= m; j++ {
		for l := 0; l <= s; l++ {
			for t := 0; t <= s; t++ {
				best = max(best, forest.get(j, l, t))
			}
		}
	}
	return best, nil
}

// treeTab is a table v[j][lead][trail] (flattened), -1 where impossible.
type treeTab struct {
	m, s int
	jm   int // most leaves that fit: min(m, ceil(size/(s+1)))
	em   int // largest lead or trail count: min(size, s)
	v    []int64
}

type treeTable struct{ m, s int }

func newTreeTable(m, s int) treeTable { return treeTable{m, s} }

func (tb treeTable) empty(size int) *treeTab {
	t := &treeTab{tb.m, tb.s, fitLeaves(size, tb.m, tb.s), min(size, tb.s), make([]int64, (tb.m+1)*(tb.s+1)*(tb.s+1))}
	for i := range t.v {
		t.v[i] = -1
	}
	e := min(size, tb.s)
	t.set(0, e, e, 0)
	return t
}

// fitLeaves is the most leaves, at most m, that fit in size leaves s apart.
func fitLeaves(size, m, s int) int { return min(m, (size-1)/(s+1)+1) }

// joinCost is the number of inner steps of join for the sizes given.
func joinCost(a, b, m, s int) float64 {
	ja, jb := float64(fitLeaves(a, m, s)), float64(fitLeaves(b, m, s))
	ea, eb := float64(min(a, s)+1), float64(min(b, s)+1)
	return ja*jb*ea*eb*(eb+1) + (ja+jb)*ea*eb
}

func (t *treeTab) idx(j, l, r int) int   { return (j*(t.s+1)+l)*(t.s+1) + r }
func (t *treeTab) get(j, l, r int) int64 { return t.v[t.idx(j, l, r)] }
func (t *treeTab) set(j, l, r int, v int64) {
	if i := t.idx(j, l, r); v > t.v[i] {
		t.v[i] = v
	}
}

// join returns the table of A (size a) followed by B (size b); root adds
// j^2 for the node over both (a complete subtree). For chosen leaves on both
// sides the constraint is t1 + l2 >= s, so A's table is first maximised over
// trails >= t (suffix maxima): the join then costs (m+1)^2 (s+1)^3.
func (tb treeTable) join(A *treeTab, a int, B *treeTab, b int, root bool) *treeTab {
	s, m := tb.s, tb.m
	C := tb.empty(a + b)
	sq := func(j int) int64 {
		if root {
			return int64(j) * int64(j)
		}
		return 0
	}
	// One side empty.
	for j := 1; j <= max(A.jm, B.jm); j++ {
		for l := 0; l <= s; l++ {
			for t := 0; t <= s; t++ {
				if j <= B.jm && l <= B.em && t <= B.em {
					if v := B.get(j, l, t); v >= 0 {
						C.set(j, min(a+l, s), t, v+sq(j))
					}
				}
				if j <= A.jm && l <= A.em && t <= A.em {
					if v := A.get(j, l, t); v >= 0 {
						C.set(j, l, min(t+b, s), v+sq(j))
					}
				}
			}
		}
	}
	// Both sides chosen.
	suf := make([]int64, s+1)
	for j1 := 1; j1 <= min(A.jm, m-1); j1++ {
		for l1 := 0; l1 <= A.em; l1++ {
			best := int64(-1)
			for t := s; t >= 0; t-- {
				best = max(best, A.get(j1, l1, t))
				suf[t] = best
			}
			if best < 0 {
				continue
			}
			for j2 := 1; j2 <= B.jm && j1+j2 <= m; j2++ {
				for l2 := 0; l2 <= B.em; l2++ {
					va := suf[max(0, s-l2)]
					if va < 0 {
						continue
					}
					for t2 := 0; t2 <= B.em; t2++ {
						if vb := B.get(j2, l2, t2); vb >= 0 {
							C.set(j1+j2, l1, t2, va+vb+sq(j1+j2))
						}
					}
				}
			}
		}
	}
	return C
}
