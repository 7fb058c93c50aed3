package pld

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// TestConcurrentUse runs the entry points on several goroutines at once,
// over runs that share the FFT plan cache (the same and different grid
// lengths), and wants each answer equal to the one computed alone: the
// package's promise of safety for concurrent use, which CI checks under
// the race detector (go test -race -run TestConcurrentUse ./pld).
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	type call struct {
		name string
		f    func() (Interval, error)
	}
	calls := []call{
		{"SGMEpsilon", func() (Interval, error) {
			return SGMEpsilon([]Phase{{Q: 0.01, Sigma: 1.1, Steps: 1000}}, 1e-5)
		}},
		{"SGMDelta", func() (Interval, error) {
			return SGMDelta([]Phase{{Q: 0.05, Sigma: 1, Steps: 100}}, 1)
		}},
		{"Delta heterogeneous", func() (Interval, error) {
			c := Composition{Relation: ReplaceSpecial, Terms: []Term{{Gaussian{3}, 2}, {SampledLaplace{0.1, 1}, 5}, {RandomizedResponse{0.5, 3}, 1}}}
			return Delta(ctx, c, 1)
		}},
		{"Epsilon discrete", func() (Interval, error) {
			c := Composition{Terms: []Term{{DiscreteLaplace{1, 1}, 30}}}
			return Epsilon(ctx, c, 1e-6)
		}},
		{"LaplaceDelta", func() (Interval, error) { return LaplaceDelta(2, 10, 1) }},
	}
	if testtier.Short(t, "the heterogeneous Delta (2 s alone) and two more rounds") {
		calls = slices.DeleteFunc(calls, func(c call) bool { return c.name == "Delta heterogeneous" })
	}
	want := make([]Interval, len(calls))
	for i, c := range calls {
		iv, err := c.f()
		if err != nil {
			t.Fatalf("%s alone: %v", c.name, err)
		}
		want[i] = iv
	}
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	var wg sync.WaitGroup
	for r := 0; r < rounds; r++ {
		for i, c := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				iv, err := c.f()
				if err != nil || iv != want[i] {
					t.Errorf("%s on a goroutine: %v, %v; alone %v", c.name, iv, err, want[i])
				}
			}()
		}
	}
	wg.Wait()
}
