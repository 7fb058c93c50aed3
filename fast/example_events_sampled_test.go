package fast_test

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/fast"
)

// DP-FTRL's tree aggregation in dp_accounting's one-tree reading: epochs
// of 500 and 300 steps give a tree of depth ceil(log2(501)) = 9, so the
// RDP is 9 alpha/(2 sigma^2) = 9/32 alpha at sigma 4.
func ExampleTreeAggregationEvent() {
	e := fast.TreeAggregationEvent(4, []int{500, 300}, fast.TreeOneTree)
	out := make([]float64, 2)
	if err := e.RDP([]float64{2, 32}, out); err != nil {
		panic(err)
	}
	fmt.Printf("%.6f %.6f\n", out[0], out[1])
	// Output: 0.562500 9.000000
}

// Hyperparameter tuning: a Gaussian (sigma 4) run a Poisson(10) number of
// times (shape +Inf), the best run released. dp_accounting 0.6.0 prints eps
// 2.3538058913156497 at order 16 for delta 1e-5
// (peers/accountants/dpevents/hyperparameter_tuning.json).
func ExampleRepeatAndSelectEvent() {
	var a fast.Accountant
	if err := a.Compose(fast.RepeatAndSelectEvent(fast.GaussianEvent(4), 10, math.Inf(1)), 1); err != nil {
		panic(err)
	}
	eps, order, err := a.BestEpsilon(1e-5, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("eps %.9f at order %g\n", eps, order)
	// Output: eps 2.353805891 at order 16
}
