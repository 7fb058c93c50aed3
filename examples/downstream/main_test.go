package main

import (
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/vectorstest"
)

// The contract holds, as the command prints it.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
}

// rdpcheck's vectors for the closed forms and the conversions, run on
// package fast from this module's test, as a downstream implementation
// runs them on its own.
func TestVectors(t *testing.T) {
	vectorstest.RunFiles(t, vectorstest.Impl{
		Gaussian:           fast.Gaussian,
		Laplace:            fast.Laplace,
		RandomizedResponse: fast.RandomizedResponse,
		GaussianDivergence: fast.GaussianDivergence,
		Epsilon:            fast.Epsilon,
	}, "closed_forms.json", "conversions.json")
}
