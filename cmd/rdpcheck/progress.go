package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressAfter and progressEvery: a run that lasts progressAfter prints
// what it is doing on stderr, then again every progressEvery; a shorter
// run prints nothing (so that transcripts stay the same). Variables so
// that tests can shorten them.
var progressAfter, progressEvery = 2 * time.Second, 2 * time.Second

// progressEachStep (tests) also reports every step as it is set, so that
// a test sees each one however fast the run.
var progressEachStep = false

// progress reports a long run's current step on stderr.
type progress struct {
	once  sync.Once // end may be called again
	cmd   string
	w     io.Writer
	start time.Time
	mu    sync.Mutex
	step  string
	stop  chan struct{}
	done  chan struct{}
}

// startProgress starts reporting; end must be called before anything
// else is written to w.
func startProgress(w io.Writer, cmd string) *progress {
	p := &progress{cmd: cmd, w: w, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.NewTimer(progressAfter)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.report()
				p.mu.Unlock()
				t.Reset(progressEvery)
			}
		}
	}()
	return p
}

// set names the current step.
func (p *progress) set(format string, args ...any) {
	p.mu.Lock()
	p.step = fmt.Sprintf(format, args...)
	if progressEachStep {
		p.report()
	}
	p.mu.Unlock()
}

// report writes the current step's line; p.mu must be held.
func (p *progress) report() {
	fmt.Fprintf(p.w, "rdpcheck %s: %.0f s: %s\n", p.cmd, time.Since(p.start).Seconds(), p.step)
}

// end stops reporting.
func (p *progress) end() {
	p.once.Do(func() { close(p.stop) })
	<-p.done
}
