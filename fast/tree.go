package fast

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/tree"
)

// TreeRestarts selects the reading of a restarted tree; it is
// rdpcheck.TreeRestarts, shared with package reference.
type TreeRestarts = rdpcheck.TreeRestarts

const (
	// TreeOneTree: a record in one tree only (dp_accounting's
	// SingleEpochTreeAggregationDpEvent): k = ceil(log2(max steps + 1)).
	TreeOneTree = rdpcheck.TreeOneTree
	// TreeEveryTree: a record in every restarted tree (TF Privacy's
	// compute_rdp_tree_restart): k = sum of floor(log2 steps) + 1.
	TreeEveryTree = rdpcheck.TreeEveryTree
)

// TreeAggregation returns the RDP of DP-FTRL's tree aggregation protocol
// with restarts (Kairouz et al. 2021, arXiv 2103.00039, appendix D), alpha
// k/(2 sigma^2) with k as restarts says (see reference.TreeAggregation).
//
// Special cases are:
//
//	TreeAggregation(sigma, steps all 0, restarts, alpha) = 0
//	TreeAggregation(sigma, steps, restarts, +Inf) = +Inf when some steps[i] > 0
//	TreeAggregation = error for sigma <= 0, +Inf or NaN, an empty step list,
//	    a negative step count, alpha < 0 or NaN, an unknown reading
//
// Accuracy: rounded up, within 8 ulps of the exact value.
//
// Slices: steps is only read.
func TreeAggregation(sigma float64, steps []int, restarts TreeRestarts, alpha float64) (float64, error) {
	const fn = "TreeAggregation"
	k, err := treeDepths(fn, sigma, steps, restarts)
	if err != nil {
		return 0, err
	}
	return treeValue(fn, sigma, k, alpha)
}

// TreeAggregationCurve writes TreeAggregation at each order to out.
//
// Slices: out may be the same slice as orders, or overlap it; steps is only read.
func TreeAggregationCurve(sigma float64, steps []int, restarts TreeRestarts, orders, out []float64) error {
	orders = unaliased(orders, out)
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
	c, normal := tree.Line(sigma, k)
	for i, a := range orders {
		if !normal || k == 0 || a == 0 || math.IsNaN(a) || a < 0 || a > 0x1p100 {
			if out[i], err = treeValue(fn, sigma, k, a); err != nil {
				return err
			}
			continue
		}
		out[i] = errfloat.Mul(errfloat.Exact(a), c).Up()
	}
	return nil
}

func treeDepths(fn string, sigma float64, steps []int, restarts TreeRestarts) (int64, error) {
	if err := rdpcheck.CheckTree(pkgName, fn, sigma, steps, restarts); err != nil {
		return 0, err
	}
	var k int64
	for _, s := range steps {
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
	return tree.Value(sigma, k, alpha), nil
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
	// A separation of n leaves or more allows one participation, as n
	// does; the tables are (m+1) (s+1)^2 entries whatever n (s = 2^20 at
	// n = 3 asked for 16 TiB and the process died).
	sFit := min(s, n)
	if cost, mFit := tree.Cost(n, m, sFit); mFit == 1 {
		return int64(bits.Len64(uint64(n))), nil // the deepest leaf's path
	} else if cost > 4e8 {
		return 0, fmt.Errorf("fast.%s: (n, m, s) = (%d, %d, %d) costs %.3g steps: %w", fn, n, mFit, s, cost, ErrTooLarge)
	}
	return tree.SquareSum(n, m, sFit), nil
}
