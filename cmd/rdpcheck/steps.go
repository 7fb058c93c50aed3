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

The eps of each count is accounted as epsilon accounts it (-orders best by
default: the least over every order in (1, 2^20] and +Inf), so the count
printed, read back by 'rdpcheck epsilon' with the same -orders, meets the
target. Counts are searched up to 2^40.

example:
  rdpcheck steps -q 0.01 -sigma 1.1 -eps 3 -delta 1e-5`

func init() {
	register(command{name: "steps", summary: "most steps that meet a target (eps, delta) at a given sigma", run: runSteps})
}

func runSteps(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("steps", stepsDoc, stderr)
	var s sgmFlags
	s.register(fs, false)
	sigma := sigmaFlag()
	fs.Var(sigma, "sigma", "noise multiplier (> 0)")
	eps := epsFlag()
	fs.Var(eps, "eps", "target epsilon (> 0)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(false); err != nil {
		return usageError(stderr, "steps", err.Error())
	}
	for _, n := range []struct {
		name string
		f    *numFlag
		what string
	}{{"sigma", sigma, "the noise multiplier, > 0"}, {"eps", eps, "the target epsilon, > 0"}, {"delta", d.delta, "the target delta, in (0, 1)"}} {
		if err := need(n.name, n.f, n.what); err != nil {
			return usageError(stderr, "steps", err.Error())
		}
	}
	q, sg, target, delta, conv := s.q.v, sigma.v, eps.v, d.delta.v, d.conv.conv
	if q == 0 {
		return fail(stderr, "steps", fmt.Errorf("-q 0 samples no record: every number of steps meets the target"))
	}
	var steps int
	var achieved float64
	var err error
	pr := startProgress(stderr, "steps")
	pr.set("searching counts up to 2^40 (%s)", d.orders.describe())
	if d.orders.best() {
		steps, achieved, err = fast.MaxStepsBest(q, sg, target, delta, conv)
	} else {
		steps, achieved, err = fast.MaxSteps(q, sg, target, delta, conv, d.orders.orders())
	}
	pr.end()
	if err != nil {
		return fail(stderr, "steps", err)
	}
	if d.json {
		if err := writeJSON(stdout, stepsJSON(q, sg, target, delta, conv, steps, achieved, d.orders.String())); err != nil {
			return fail(stderr, "steps", err)
		}
		return 0
	}
	line := fmt.Sprintf("steps = %d  (achieves eps = %s <= %g at delta = %g; q = %g, sigma = %g, %v conversion, %s)", steps, bound(achieved), target, delta, q, sg, conv, d.orders.describe())
	if s.n.set {
		line += fmt.Sprintf("; %.4g epochs of %g examples", float64(steps)*s.batch.v/s.n.v, s.n.v)
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// stepsJSON is steps -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func stepsJSON(q, sigma, eps, delta float64, conv fast.Conversion, steps int, achieved float64, orders string) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "sigma": schema.JSONFloat(sigma), "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "steps": steps, "epsilon_achieved": schema.JSONFloat(achieved), "orders": orders}
}
