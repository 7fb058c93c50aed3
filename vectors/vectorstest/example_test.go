package vectorstest_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/vectors/vectorstest"
)

// gaussian is the RDP of the Gaussian mechanism, alpha / (2 sigma^2), as
// another module might write it.
func gaussian(sigma, alpha float64) (float64, error) {
	if !(sigma > 0 && sigma < math.Inf(1) && alpha >= 0) {
		return 0, errors.New("gaussian: want sigma in (0, inf) and alpha >= 0")
	}
	return alpha / (2 * sigma * sigma), nil
}

// In another module, one line in a test runs every vector group of the
// functions it offers; the groups of the others are skipped, saying so.
// (The example is compiled, not run: it needs the test's t.)
func ExampleRun() {
	var t *testing.T // TestVectors(t *testing.T)'s t
	vectorstest.Run(t, vectorstest.Impl{Gaussian: gaussian})
}

// Outside a test, Score grades the same answers as one report: here the
// Gaussian above on the closed forms' file (91 of its 299 tests; the
// groups of the other functions are left unanswered, reported and not
// failed), and a Gaussian that refuses orders up to 1, which the domain
// (rdp's table) includes.
func ExampleScore() {
	strict := func(sigma, alpha float64) (float64, error) {
		if alpha <= 1 {
			return 0, errors.New("want alpha > 1")
		}
		return gaussian(sigma, alpha)
	}
	for _, f := range []func(sigma, alpha float64) (float64, error){gaussian, strict} {
		r, err := vectorstest.Score(vectorstest.Impl{Gaussian: f}, "closed_forms.json")
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, g := range r.Groups {
			if g.Function == "Gaussian" {
				fmt.Printf("group %s: %d of %d answered, failed %v %v\n", g.Name, g.Answered, g.Tests, g.Failed(), g.Reasons())
			}
		}
		fmt.Printf("file: %d of %d answered, failed %v\n", r.Count().Answered, r.Tests, r.Failed())
	}
	// Output:
	// group gaussian: 91 of 91 answered, failed false []
	// file: 91 of 299 answered, failed false
	// group gaussian: 91 of 91 answered, failed true [30 valid inputs rejected]
	// file: 91 of 299 answered, failed true
}
