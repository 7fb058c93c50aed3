package fast_test

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// TestConcurrentUse: the functions and the Events of the package are safe
// for concurrent use, as its documentation says (the engines share pooled
// workspaces; RepeatAndSelectEvent computes its curve once, on first use);
// an Accountant is not, so each goroutine has its own. Several goroutines
// at once give what one gives alone, and go test -race (the CI's race step
// runs this test) finds no race.
func TestConcurrentUse(t *testing.T) {
	orders := []float64{1.5, 2, 3.5, 8, 64, math.Inf(1)}
	shared := []fast.Event{
		fast.SGMEvent(0.01, 1.1),
		fast.WORGaussianEvent(0.01, 2),
		fast.SampledLaplaceEvent(0.1, 1),
		fast.RepeatAndSelectEvent(fast.GaussianEvent(2), 3, 1),
		fast.PoissonBoundEvent(0.1, fast.LaplaceEvent(1)),
		fast.BaseCurveEvent(rdpcheck.BaseCurve{Eps: []float64{0.1, 0.2, 0.4}, Inf: 1}),
		fast.TreeAggregationEvent(2, []int{8, 4}, fast.TreeOneTree),
	}
	answer := func() string {
		s := ""
		for _, e := range shared {
			out := make([]float64, len(orders))
			err := e.RDP(orders, out)
			s += fmt.Sprint(out, err)
		}
		var acc fast.Accountant // one per goroutine
		if err := acc.ComposeSGM(0.01, 1.1, 1000); err != nil {
			return err.Error()
		}
		eps, order, err := acc.BestEpsilon(1e-5, fast.Improved)
		v, err2 := fast.SampledLaplace(0.3, 0.5, 2.5)
		return s + fmt.Sprint(eps, order, err, v, err2)
	}
	var got [4]string
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = answer() })
	}
	wg.Wait()
	want := answer()
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d: %s\nalone: %s", i, g, want)
		}
	}
}
