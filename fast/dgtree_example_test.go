package fast_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/fast"
)

// The discrete Gaussian with sigma 0.5: on its zCDP line 2 alpha at
// integer orders, below it between them.
func ExampleDiscreteGaussian() {
	for _, a := range []float64{1.5, 2} {
		v, _ := fast.DiscreteGaussian(0.5, 1, a)
		fmt.Printf("alpha %g: %.6f (zCDP line %g)\n", a, v, 2*a)
	}
	// Output:
	// alpha 1.5: 2.942461 (zCDP line 3)
	// alpha 2: 4.000000 (zCDP line 4)
}

// DP-FTRL with three epochs of 100 steps, a tree per epoch: a record in
// one tree (dp_accounting) has depth 7, a record in every tree (TF
// Privacy) 21.
func ExampleTreeAggregation() {
	steps := []int{100, 100, 100}
	one, _ := fast.TreeAggregation(2, steps, fast.TreeOneTree, 2)
	every, _ := fast.TreeAggregation(2, steps, fast.TreeEveryTree, 2)
	fmt.Printf("%.6g %.6g\n", one, every) // rounded up: a few ulps above 7/4 and 21/4
	// Output: 1.75 5.25
}

// A tree of 16 steps in which a record takes part up to twice, at least
// 3 steps apart: the worst sum of squared node counts, and the RDP.
func ExampleTreeMultiParticipation() {
	k, _ := fast.TreeSensitivitySquareSum(16, 2, 3)
	v, _ := fast.TreeMultiParticipation(2, 16, 2, 3, 2)
	fmt.Printf("%d %.6g\n", k, v) // 14 alpha/(2 sigma^2)
	// Output: 14 3.5
}
