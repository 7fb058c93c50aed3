package search

import (
	"cmp"
	"math"
	"slices"
)

// MinOverHigher replaces each b[i] by the least b[j] over the orders[j]
// >= orders[i], the orders in any order. RDP is non-decreasing in the
// order (van Erven and Harremoës 2014, Theorem 3), so an upper bound at a
// higher order is one at a lower order too: fast's events whose bounds
// need not be monotone (sampling without replacement, Zhu and Wang's
// Poisson bound) use it to take the best of the orders of one call.
func MinOverHigher(orders, b []float64) {
	idx := make([]int, len(orders))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Compare(orders[j], orders[i]) }) // descending
	m := math.Inf(1)
	for k := 0; k < len(idx); {
		end := k // equal orders share their least value
		for end < len(idx) && orders[idx[end]] == orders[idx[k]] {
			m = math.Min(m, b[idx[end]])
			end++
		}
		for ; k < end; k++ {
			b[idx[k]] = m
		}
	}
}
