package rdpcheck

import "fmt"

// TreeRestarts selects how the tree aggregation protocol of DP-FTRL
// (Kairouz et al. 2021, arXiv 2103.00039, appendix D) is accounted when the
// tree is restarted: steps[i] leaves in the i-th tree. fast.TreeRestarts
// and reference.TreeRestarts are aliases of it.
type TreeRestarts int

const (
	// TreeOneTree: a record contributes to one leaf of one tree only (one
	// epoch, or restarts at epoch boundaries with each record seen once);
	// the sensitivity squared is the depth of the deepest tree,
	// ceil(log2(max steps + 1)). dp_accounting's
	// SingleEpochTreeAggregationDpEvent.
	TreeOneTree TreeRestarts = iota
	// TreeEveryTree: a record contributes one leaf to every restarted tree
	// (one participation per epoch, a tree per epoch); the sensitivities
	// squared add up, sum over the trees of floor(log2 steps) + 1. TF
	// Privacy's compute_rdp_tree_restart.
	TreeEveryTree
)

// Valid reports whether v is one of the readings above.
func (v TreeRestarts) Valid() bool { return v == TreeOneTree || v == TreeEveryTree }

// String returns "one-tree", "every-tree", or "TreeRestarts(n)".
func (v TreeRestarts) String() string {
	switch v {
	case TreeOneTree:
		return "one-tree"
	case TreeEveryTree:
		return "every-tree"
	}
	return fmt.Sprintf("TreeRestarts(%d)", int(v))
}

// ParseTreeRestarts returns the reading named s, as String names it
// ("one-tree", "every-tree"); any other name gives TreeRestarts(-1), which
// Valid rejects, so that a function handed it refuses it as it refuses
// any unknown reading.
func ParseTreeRestarts(s string) TreeRestarts {
	for _, v := range []TreeRestarts{TreeOneTree, TreeEveryTree} {
		if s == v.String() {
			return v
		}
	}
	return TreeRestarts(-1)
}
