package workers

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Run calls f once for every index, from several goroutines: each call
// writes its own index (go test -race checks that the pool hands them
// over without a race), and Run returns after the last.
func TestRunEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, runtime.GOMAXPROCS(0) + 3, 1000} {
		calls := make([]int, n)
		var total atomic.Int64
		Run(n, func(i int) {
			calls[i]++
			total.Add(1)
		})
		for i, c := range calls {
			if c != 1 {
				t.Errorf("n = %d: f(%d) called %d times", n, i, c)
			}
		}
		if total.Load() != int64(n) {
			t.Errorf("n = %d: %d calls", n, total.Load())
		}
	}
}
