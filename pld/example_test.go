package pld_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/rdpcheck/rdpcheck/pld"
)

// The run of a user's question to Opacus (q = 0.2, sigma = 3, 50 steps,
// delta = 1/48000): Opacus's GDP accountant answers 1.838, below the
// optimal eps, and its RDP accountant 2.169, above it.
func ExampleSGMEpsilon() {
	iv, err := pld.SGMEpsilon([]pld.Phase{{Q: 0.2, Sigma: 3, Steps: 50}}, 1.0/48000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f <= optimal eps <= %.4f\n", iv.Lo, iv.Hi)
	fmt.Println("GDP's 1.838 is below the optimum:", 1.838 < iv.Lo)
	// Output:
	// 1.9607 <= optimal eps <= 1.9608
	// GDP's 1.838 is below the optimum: true
}

// Events of different kinds composed in one run, as dp_accounting's PLD
// accountant composes a ComposedDpEvent.
func ExampleDelta() {
	c := pld.Composition{
		Relation: pld.ReplaceSpecial,
		Terms: []pld.Term{
			{Event: pld.Laplace{B: 20}, Count: 10},
			{Event: pld.RandomizedResponse{Noise: 0.5, Buckets: 4}, Count: 1},
			{Event: pld.SampledGaussian{Q: 0.01, Sigma: 1}, Count: 100},
		},
	}
	iv, err := pld.Delta(context.Background(), c, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal delta(1) in [%.4g, %.4g]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal delta(1) in [0.03019, 0.03022]
}

// An event under a relation dp_accounting's PLD accountant does not
// support for it is refused, naming the event.
func ExampleEpsilon_unsupported() {
	c := pld.Composition{Terms: []pld.Term{{Event: pld.RandomizedResponse{Noise: 0.5, Buckets: 4}, Count: 1}}}
	_, err := pld.Epsilon(context.Background(), c, 1e-5)
	fmt.Println(errors.Is(err, pld.ErrUnsupported))
	fmt.Println(err)
	// Output:
	// true
	// pld: RandomizedResponse(noise=0.5, buckets=4): not supported under ADD_OR_REMOVE_ONE (supported: REPLACE_ONE, REPLACE_SPECIAL, as dp_accounting's PLD accountant)
}

// Ten releases of a sum with Gaussian noise of standard deviation 2 (at
// sensitivity 1) are one Gaussian mechanism with mu = sqrt(10)/2, whose
// eps(1e-5) by Balle and Wang's closed form is 7.51127590074478 (scipy's
// norm.sf and brentq).
func ExampleGaussianEpsilon() {
	iv, err := pld.GaussianEpsilon(2, 10, 1e-5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal eps(1e-5) in [%.9f, %.9f]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal eps(1e-5) in [7.511275901, 7.511275901]
}

// The same run's delta at eps = 1: 0.352518058894887 by the closed form.
func ExampleGaussianDelta() {
	iv, err := pld.GaussianDelta(2, 10, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal delta(1) in [%.12f, %.12f]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal delta(1) in [0.352518058895, 0.352518058895]
}

// DP-SGD with q = 1 is the Gaussian mechanism: SGMDelta agrees with
// ExampleGaussianDelta's closed form 0.352518058894887.
func ExampleSGMDelta() {
	iv, err := pld.SGMDelta([]pld.Phase{{Q: 1, Sigma: 2, Steps: 10}}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal delta(1) in [%.6f, %.6f]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal delta(1) in [0.352518, 0.352518]
}

// One Laplace release with scale b = 1 at sensitivity 1: delta(eps) = 1 -
// e^((eps - 1/b)/2) for eps <= 1/b, 0.221199216928595 at eps = 0.5, and
// eps(0.1) = 1/b + 2 log(0.9) = 0.789278968684347.
func ExampleLaplaceDelta() {
	d, err := pld.LaplaceDelta(1, 1, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := pld.LaplaceEpsilon(1, 1, 0.1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("delta(0.5) in [%.9f, %.9f]\n", d.Lo, d.Hi)
	fmt.Printf("eps(0.1) in [%.9f, %.9f]\n", e.Lo, e.Hi)
	// Output:
	// delta(0.5) in [0.221199217, 0.221199217]
	// eps(0.1) in [0.789278969, 0.789278969]
}

// Randomized response that keeps a bit with probability 3/4, ten times:
// by exact summation over the binomial of agreements, delta(1) =
// 0.868247625442978, and one release's delta(0.5) = 3/4 - e^0.5/4 =
// 0.337819682324968.
func ExampleRRDelta() {
	ten, err := pld.RRDelta(0.25, 10, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	one, err := pld.RRDelta(0.25, 1, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("ten releases: delta(1) in [%.12f, %.12f]\n", ten.Lo, ten.Hi)
	fmt.Printf("one release: delta(0.5) in [%.12f, %.12f]\n", one.Lo, one.Hi)
	// Output:
	// ten releases: delta(1) in [0.868247625443, 0.868247625443]
	// one release: delta(0.5) in [0.337819682325, 0.337819682325]
}

// The inverse of ExampleRRDelta: at ten releases' delta(1) =
// 0.868247625442978 (exact summation), eps is 1.
func ExampleRREpsilon() {
	iv, err := pld.RREpsilon(0.25, 10, 0.868247625442978)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal eps in [%.9f, %.9f]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal eps in [1.000000000, 1.000000001]
}

// Gaussian mechanisms of different noise composed: one of sigma 1 and four
// of sigma 2 are one Gaussian mechanism with mu^2 = 1 + 4/4, whose
// eps(1e-5) by Balle and Wang's closed form is 6.57297006703033 (scipy).
func ExampleEpsilon() {
	c := pld.Composition{Terms: []pld.Term{
		{Event: pld.Gaussian{Sigma: 1}, Count: 1},
		{Event: pld.Gaussian{Sigma: 2}, Count: 4},
	}}
	iv, err := pld.Epsilon(context.Background(), c, 1e-5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("optimal eps(1e-5) in [%.6f, %.6f]\n", iv.Lo, iv.Hi)
	// Output:
	// optimal eps(1e-5) in [6.572970, 6.572970]
}
