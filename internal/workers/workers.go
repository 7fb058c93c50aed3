// Package workers is the one worker pool of the commands and the vector
// generator: a fixed number of goroutines taking indices in order.
package workers

import (
	"runtime"
	"sync"
)

// Run calls f(0), ..., f(n-1) on GOMAXPROCS goroutines (at most n),
// handing out indices in increasing order, and returns when all are done.
// f must write its result to its own index: the order in which calls
// finish is not defined.
func Run(n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
