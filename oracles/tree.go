package oracles

// TreeSquareSumBrute returns the largest sum, over the nodes of the tree
// aggregation tree of n leaves, of the squared number of chosen leaves below
// each node, over every set of at most m leaves with any two at least s
// leaves apart (y - x - 1 >= s), by enumerating the sets. A node is every
// interval [i 2^h, (i+1) 2^h) inside [0, n): the nodes the online tree holds
// after n steps (Kairouz et al. 2021, arXiv 2103.00039, appendix D; TF
// Privacy's tree_aggregation_accountant builds the same tree recursively).
// For n <= 24 (2^24 subsets at most).
func TreeSquareSumBrute(n, m, s int) (int64, error) {
	const fn = "TreeSquareSumBrute"
	if n < 0 || n > 24 {
		return 0, inErr(fn, "n", float64(n), "must be in [0, 24]")
	}
	if m < 0 || s < 0 {
		return 0, inErr(fn, "m, s", float64(min(m, s)), "must be >= 0")
	}
	var nodes [][2]int
	for w := 1; w <= n; w *= 2 {
		for lo := 0; lo+w <= n; lo += w {
			nodes = append(nodes, [2]int{lo, lo + w})
		}
	}
	var best int64
	var chosen []int
	var rec func(next int)
	rec = func(next int) {
		var sum int64
		for _, nd := range nodes {
			var c int64
			for _, x := range chosen {
				if x >= nd[0] && x < nd[1] {
					c++
				}
			}
			sum += c * c
		}
		best = max(best, sum)
		if len(chosen) == m {
			return
		}
		for x := next; x < n; x++ {
			chosen = append(chosen, x)
			rec(x + s + 1)
			chosen = chosen[:len(chosen)-1]
		}
	}
	rec(0)
	return best, nil
}
