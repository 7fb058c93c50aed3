package fast_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/fast"
)

// The TF Privacy MNIST tutorial's DP-SGD run (q = 256/60000, sigma = 1.1,
// 14063 steps) at delta = 1e-5: dp_accounting's grid gives its order 8.1;
// the best order is a little above it, and its eps a little lower. The
// reference at 256 bits gives 2.5966419149 at the best order (rdpcheck
// epsilon -n 60000 -batch 256 -epochs 60 -sigma 1.1 -delta 1e-5
// -reference, the README's tutorial run); on the grid, TF Privacy 2021
// and dp_accounting 0.6.0 printed 2.596656 at order 8.1
// (peers/tfprivacy/dpsgd_epsilon.json).
func ExampleAccountant_BestEpsilon() {
	var acc fast.Accountant
	if err := acc.Compose(fast.SGMEvent(256.0/60000, 1.1), 14063); err != nil {
		panic(err)
	}
	grid, gridOrder, _ := acc.Epsilon(1e-5, fast.Improved)
	best, order, err := acc.BestEpsilon(1e-5, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("grid: %.6f at %g\nbest: %.6f at %.2f\n", grid, gridOrder, best, order)
	// Output:
	// grid: 2.596656 at 8.1
	// best: 2.596642 at 8.12
}

// k Gaussian mechanisms with the classic conversion: by calculus the best
// order is 1 + sqrt(2 sigma^2 log(1/delta)/k) = 11.47 for sigma = 10,
// k = 21 (between dp_accounting's grid orders 11 and 12), and the eps there
// k/(2 sigma^2) + 2 sqrt(k log(1/delta)/(2 sigma^2)) = 2.303961.
func ExampleBestEpsilon() {
	gauss := fast.OrderFunc(func(alpha float64) (float64, error) {
		v, err := fast.Gaussian(10, alpha)
		return 21 * v, err
	})
	eps, order, err := fast.BestEpsilon(gauss, nil, 1e-5, fast.Classic)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.6f at %.2f\n", eps, order)
	// Output: 2.303961 at 11.47
}

// Heterogeneous events in one accountant, then the delta at eps = 1 at the
// best order: a Gaussian query (sigma 3), 20 Laplace queries (b 20), a
// 0.05-zCDP release and a pure 0.1-DP one.
func ExampleAccountant_Compose() {
	var acc fast.Accountant
	for _, c := range []struct {
		e fast.Event
		n int
	}{
		{fast.GaussianEvent(3), 1},
		{fast.LaplaceEvent(20), 20},
		{fast.ZCDPEvent(0.05, 0), 1},
		{fast.PureDPEvent(0.1), 1},
	} {
		if err := acc.Compose(c.e, c.n); err != nil {
			panic(err)
		}
	}
	grid, _, _ := acc.Delta(1, fast.Improved)
	best, order, err := acc.BestDelta(1, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("grid %.4g, best %.4g at order %.2f\n", grid, best, order)
	// Output: grid 0.02223, best 0.02222 at order 5.04
}

// The smallest noise multiplier that keeps TF Privacy's MNIST tutorial
// run (q = 256/60000, 14063 steps) within (eps, delta) = (2, 1e-5) when
// eps is read at the best order, and that eps read back. rdpcheck sigma
// prints the same run's sigma rounded up, 1.2952592 (eps 1.999999994),
// and the reference at 256 bits gives eps 1.9999999936 there (order 10.01)
// (rdpcheck epsilon -q 0.004266666666666667 -sigma 1.2952592 -steps 14063
// -delta 1e-5 -reference).
func ExampleCalibrateSigmaBest() {
	sigma, achieved, err := fast.CalibrateSigmaBest(256.0/60000, 14063, 2, 1e-5, fast.Improved, 1e-6)
	if err != nil {
		panic(err)
	}
	var acc fast.Accountant
	if err := acc.ComposeSGM(256.0/60000, sigma, 14063); err != nil {
		panic(err)
	}
	eps, order, err := acc.BestEpsilon(1e-5, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("sigma = %.6f (eps %.6f); read back: eps %.6f at order %.2f\n", sigma, achieved, eps, order)
	// Output: sigma = 1.295259 (eps 2.000000); read back: eps 2.000000 at order 10.01
}
