package main

import (
	"fmt"
	"io"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const stepsDoc = `Prints the largest number of steps of the Poisson-sampled Gaussian mechanism
(rate q, noise multiplier sigma) that still meets a target (eps, delta), and
the eps it achieves. One more step would exceed the target.

example:
  rdpcheck steps -q 0.01 -sigma 1.1 -eps 3 -delta 1e-5`

func init() {
	register(command{name: "steps", summary: "most steps that meet a target (eps, delta) at a given sigma", run: runSteps})
}

func runSteps(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("steps", stepsDoc, stderr)
	var s sgmFlags
	s.register(fs, false)
	sigma := fs.Float64("sigma", 0, "noise multiplier (> 0)")
	eps := fs.Float64("eps", 0, "target epsilon (> 0)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(false); err != nil {
		return fail(stderr, "steps", err)
	}
	steps, achieved, err := fast.MaxSteps(s.q, *sigma, *eps, d.delta, d.conv.conv, d.orders.orders)
	if err != nil {
		return fail(stderr, "steps", err)
	}
	if d.json {
		if err := writeJSON(stdout, stepsJSON(s.q, *sigma, *eps, d.delta, d.conv.conv, steps, achieved)); err != nil {
			return fail(stderr, "steps", err)
		}
		return 0
	}
	line := fmt.Sprintf("steps = %d  (achieves eps = %.10g <= %g at delta = %g; q = %g, sigma = %g, %v conversion)", steps, achieved, *eps, d.delta, s.q, *sigma, d.conv.conv)
	if s.n > 0 {
		line += fmt.Sprintf("; %.4g epochs of %g examples", float64(steps)*s.batch/s.n, s.n)
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// stepsJSON is steps -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func stepsJSON(q, sigma, eps, delta float64, conv fast.Conversion, steps int, achieved float64) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "sigma": schema.JSONFloat(sigma), "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "steps": steps, "epsilon_achieved": schema.JSONFloat(achieved)}
}
