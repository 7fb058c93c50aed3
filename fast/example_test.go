package fast_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/fast"
)

// One step of DP-SGD's sampled Gaussian at order 8. The reference
// (Context{Prec: 128}) gives 5.8407033552e-04.
func ExampleSGM() {
	rdp, err := fast.SGM(0.01, 1.1, 8)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.6e\n", rdp)
	// Output: 5.840703e-04
}

// The DP-SGD setting of TF Privacy's MNIST tutorial: n = 60000, batch 256,
// noise multiplier 1.1, 60 epochs, delta = 1e-5. TF computes
// steps = int(epochs * n / batch) = 14062. For comparison, the peers
// (peers/tfprivacy/dpsgd_epsilon.json, steps 14063) printed 3.008
// (classic, order 8.8) and 2.5967 (improved, order 8.1).
func ExampleSGMCurve_dpsgd() {
	n, batch, epochs := 60000, 256, 60
	q := float64(batch) / float64(n)
	steps := epochs * n / batch
	orders := fast.DefaultOrders()
	rdp := make([]float64, len(orders))
	if err := fast.SGMCurve(q, 1.1, steps, orders, rdp); err != nil {
		panic(err)
	}
	for _, conv := range []fast.Conversion{fast.Classic, fast.Improved} {
		eps, order, err := fast.Epsilon(orders, rdp, 1e-5, conv)
		if err != nil {
			panic(err)
		}
		fmt.Printf("steps=%d %s: eps=%.4f at order %g\n", steps, conv, eps, order)
	}
	// Output:
	// steps=14062 classic: eps=3.0083 at order 8.8
	// steps=14062 improved: eps=2.5966 at order 8.1
}

// Composing heterogeneous events and reading off eps and delta.
func ExampleAccountant() {
	var acc fast.Accountant // default orders
	if err := acc.ComposeSGM(0.01, 1.1, 1000); err != nil {
		panic(err)
	}
	if err := acc.ComposeGaussian(10, 5); err != nil {
		panic(err)
	}
	if err := acc.ComposeLaplace(20, 3); err != nil {
		panic(err)
	}
	eps, order, err := acc.Epsilon(1e-6, fast.Improved)
	if err != nil {
		panic(err)
	}
	delta, dOrder, err := acc.Delta(1, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("eps=%.4f (order %g), delta(eps=1)=%.3e (order %g)\n", eps, order, delta, dOrder)
	// Output: eps=2.2538 (order 9.6), delta(eps=1)=8.524e-03 (order 6.2)
}

// The smallest noise multiplier for (eps, delta) = (1, 1e-5) at q = 0.01
// over 10,000 steps, to a relative tolerance of 1e-6.
func ExampleCalibrateSigma() {
	sigma, achieved, err := fast.CalibrateSigma(0.01, 10000, 1, 1e-5, fast.Improved, nil, 1e-6)
	if err != nil {
		panic(err)
	}
	fmt.Printf("sigma=%.5f eps=%.6f\n", sigma, achieved)
	// Output: sigma=4.12580 eps=1.000000
}

// The most steps at q = 0.01, sigma = 1 that keep eps <= 2 at delta = 1e-5.
func ExampleMaxSteps() {
	steps, achieved, err := fast.MaxSteps(0.01, 1, 2, 1e-5, fast.Improved, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("steps=%d eps=%.6f\n", steps, achieved)
	// Output: steps=881 eps=1.999632
}

// The README's Go example (README.md, "In Go:"): TF Privacy's MNIST
// tutorial run (q = 256/60000, sigma = 1.1, 14063 steps) composed with
// ComposeSGM, converted on the accountant's 156 orders and then at the
// best order in (1, 4096] (the accountant remembers the event, so
// BestEpsilon can evaluate it off the grid), and the smallest noise
// multiplier for (eps, delta) = (2, 1e-5). The table of docs/best-order.md gives the
// same eps: 2.59666 on dp_accounting's orders, 2.59664 at order 8.122.
func ExampleAccountant_readme() {
	var acc fast.Accountant // dp_accounting's 156 default orders
	if err := acc.ComposeSGM(256.0/60000, 1.1, 14063); err != nil {
		panic(err)
	}
	eps, order, err := acc.Epsilon(1e-5, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("grid: eps = %.5f at order %g\n", eps, order)
	best, bestOrder, err := acc.BestEpsilon(1e-5, fast.Improved)
	if err != nil {
		panic(err)
	}
	fmt.Printf("best: eps = %.5f at order %.3f\n", best, bestOrder)

	// The smallest noise multiplier for (eps, delta) = (2, 1e-5), to 1e-6 relative:
	sigma, achieved, err := fast.CalibrateSigma(256.0/60000, 14063, 2, 1e-5, fast.Improved, nil, 1e-6)
	if err != nil {
		panic(err)
	}
	fmt.Printf("sigma = %.4f (eps %.6f)\n", sigma, achieved)
	// Output:
	// grid: eps = 2.59666 at order 8.1
	// best: eps = 2.59664 at order 8.122
	// sigma = 1.2953 (eps 2.000000)
}
