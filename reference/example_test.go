package reference_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/reference"
)

// The RDP of one step of DP-SGD's sampled Gaussian mechanism at order 8.
// (mpmath's exact binomial sum at 50 digits gives the same 30 digits.)
func ExampleSGM() {
	eps, err := reference.SGM(0.01, 1.1, 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(eps.Text('g', 30))
	// Output: 0.000584070335520251082009385069771
}

// Both directions of the divergence; the forward one is the RDP.
func ExampleSGMDirections() {
	fwd, bwd, _ := reference.SGMDirections(0.01, 1.1, 8)
	fmt.Println(fwd.Cmp(bwd) > 0)
	// Output: true
}

// A lower precision is much faster and still far beyond float64.
func ExampleContext() {
	ctx := reference.Context{Prec: 64} // relative error below 2^-63
	eps, _ := ctx.SGM(0.01, 1.1, 8.5)
	f, _ := eps.Float64()
	fmt.Printf("%.15g\n", f)
	// Output: 0.000629840101908792
}

// (eps, delta) after 1000 steps, from a curve over a few orders, with the
// classic conversion; at order 8: 1000 * SGM + log(1e5)/7 (mpmath:
// 2.22877397337314084462...).
func ExampleEpsilon() {
	orders := []float64{2, 4, 8, 16}
	rdp, _ := reference.SGMCurve(0.01, 1.1, 1000, orders)
	eps, order, _ := reference.Epsilon(orders, rdp, 1e-5, reference.Classic)
	fmt.Println(eps.Text('g', 20), "at order", order)
	// Output: 2.2287739733731408446 at order 8
}

// Bad input is an error value, never a panic.
func ExampleInputError() {
	_, err := reference.SGM(1.5, 1, 2)
	fmt.Println(err)
	// Output: reference.SGM: q = 1.5: sampling rate must be in [0, 1]
}
