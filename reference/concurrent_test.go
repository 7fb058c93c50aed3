package reference_test

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// TestConcurrentUse: the functions are safe for concurrent use (the
// package documentation says so). Each evaluation runs its two Ziv
// precisions on goroutines of their own and shares caches between calls
// (constants, Gauss-Legendre rules, a curve's tails and nodes): several
// goroutines at once give what one gives alone, and go test -race (the
// CI's race step runs this test) finds no race.
func TestConcurrentUse(t *testing.T) {
	ctx := reference.Context{Prec: 64}
	calls := []func() (string, error){
		func() (string, error) { v, err := ctx.SGM(0.01, 1.1, 2.5); return fmt.Sprint(v), err },
		func() (string, error) {
			v, err := ctx.SGMCurve(0.3, 2, 10, []float64{2, 3.5, math.Inf(1)})
			return fmt.Sprint(v), err
		},
		func() (string, error) { v, err := ctx.SampledLaplace(0.1, 1, 2.5); return fmt.Sprint(v), err },
		func() (string, error) { v, err := ctx.Laplace(0.5, 3); return fmt.Sprint(v), err },
		func() (string, error) { v, err := ctx.PureDP(1, 2); return fmt.Sprint(v), err },
		func() (string, error) { v, err := ctx.WORGaussian(0.1, 2, 3); return fmt.Sprint(v), err },
		func() (string, error) {
			v, err := ctx.SampledDivergence(0.2, []float64{0.25, 0.75}, []float64{0.5, 0.5}, 1.5)
			return fmt.Sprint(v), err
		},
	}
	want := make([]string, len(calls))
	for i, f := range calls {
		v, err := f()
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v
	}
	got := make([][]string, 3)
	var wg sync.WaitGroup
	for g := range got {
		got[g] = make([]string, len(calls))
		wg.Go(func() {
			for i := range calls {
				// each goroutine in its own order
				k := (i + g) % len(calls)
				v, err := calls[k]()
				if err != nil {
					v = err.Error()
				}
				got[g][k] = v
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i := range calls {
			if got[g][i] != want[i] {
				t.Errorf("goroutine %d, call %d: %s, alone %s", g, i, got[g][i], want[i])
			}
		}
	}
}
