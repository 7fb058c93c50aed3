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
