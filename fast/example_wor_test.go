package fast_test

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// Theorem 27 of Wang, Balle and Kasiviswanathan for a batch of 1% of the
// records drawn without replacement, noise multiplier 1.1, at order 3
// (reference: 0.000697002352015703456...; fast rounds up).
func ExampleWORGaussian() {
	v, err := fast.WORGaussian(0.01, 1.1, 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.12g\n", v)
	// Output: 0.000697002352016
}

// Theorem 9 for any base curve: here the Gaussian with sigma = 2, whose
// RDP is j/8 at order j and which has no pure-DP bound.
func ExampleWORBound() {
	base := rdpcheck.BaseCurve{Eps: []float64{2.0 / 8, 3.0 / 8}, Inf: math.Inf(1)}
	v, err := fast.WORBound(0.01, 3, base)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.12g\n", v)
	// Output: 0.000172502489498
}

// An accountant composing 1000 fixed-size batches: at each order the least
// of the bound, the bound at higher orders and the unsampled Gaussian.
func ExampleAccountant_ComposeWORGaussian() {
	acc := fast.Accountant{}
	if err := acc.ComposeWORGaussian(0.01, 1.1, 1000); err != nil {
		panic(err)
	}
	eps, order, _ := acc.Epsilon(1e-5, fast.Improved)
	fmt.Printf("eps=%.4f at order %g\n", eps, order)
	// Output: eps=3.1900 at order 7
}
