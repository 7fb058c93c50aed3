package main

import (
	"fmt"
	"io"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const stepsDoc = `Prints the largest number of steps of the sampled Gaussian mechanism
(rate q, noise multiplier sigma) that still meets a target (eps, delta), and
the eps it achieves. One more step would exceed the target.

The eps of each count is accounted as epsilon accounts it (-orders best by
default: the least over every order in (1, 2^20] and +Inf), so the count
printed, read back by 'rdpcheck epsilon' with the same run and -orders,
meets the target. Counts are searched up to 2^40.

A run of several phases is given by repeated -phase flags as for epsilon:
every phase gives sigma=, and every phase but one gives steps= (or epochs=);
the count printed is that one phase's (for example the last phase after a
fixed warm-up). A table gives each phase's RDP at the order found and share.

` + samplingDoc + `

examples:
  rdpcheck steps -q 0.01 -sigma 1.1 -eps 3 -delta 1e-5
  rdpcheck steps -phase q=0.01,sigma=1,steps=2000 -phase q=0.02,sigma=1.2 -eps 5 -delta 1e-5`

func init() {
	register(command{name: "steps", summary: "most steps that meet a target (eps, delta) at a given sigma", run: runSteps})
}

func runSteps(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("steps", stepsDoc, stderr)
	var rf runFlags
	rf.register(fs, false)
	sigma := sigmaFlag()
	fs.Var(sigma, "sigma", "noise multiplier (> 0)")
	eps := epsFlag()
	fs.Var(eps, "eps", "target epsilon (> 0)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	r, err := rf.resolve(false, sigma)
	if err != nil {
		return usageError(stderr, "steps", err.Error())
	}
	if err := r.needEach("sigma", "the noise multiplier, > 0"); err != nil {
		return usageError(stderr, "steps", err.Error())
	}
	if err := needTarget(eps, &d); err != nil {
		return usageError(stderr, "steps", err.Error())
	}
	free := r.missing("steps")
	if len(free) != 1 {
		return usageError(stderr, "steps", fmt.Sprintf("give steps= (or epochs=) to every -phase but one, whose steps to find (%d phases leave it out)", len(free)))
	}
	target, delta, conv := eps.v, d.delta.v, d.conv.conv
	if p := r.phases[free[0]-1]; p.q == 0 {
		return fail(stderr, "steps", fmt.Errorf("%s samples no record: every number of steps meets the target", r.value("q", 0)))
	}
	pr := startProgress(stderr, "steps")
	pr.set("searching counts up to 2^40 (%s)", d.orders.describe())
	// every count's eps is the run's plan's, one phase or several, so that
	// the count printed, read back by epsilon, meets the target
	// (fast.MaxSteps scales its own one-step curve and rounds once less
	// than the plan's accountant: its count could be one too many there)
	steps, achieved, err := fast.MaxStepsFunc(target, func(t int) (float64, error) {
		e, _, err := r.withSteps(t).epsilon(delta, conv, &d.orders)
		return e, err
	})
	if err != nil {
		pr.end()
		return fail(stderr, "steps", err)
	}
	a := found{cmd: "steps", pr: pr, run: r.withSteps(steps), flags: r.flags, target: target, achieved: achieved, d: &d,
		head: fmt.Sprintf("steps = %d for %s", steps, numbers(free))}
	p := r.phases[0]
	if r.flags {
		a.json = stepsJSON(p.q, p.sigma, target, delta, conv, steps, achieved, d.orders.String())
		desc := fmt.Sprintf("q = %g, sigma = %g", p.q, p.sigma)
		if r.wor {
			desc = fmt.Sprintf("batches of %g of %g drawn without replacement (q = %g), sigma = %g, replace-one", p.batch, p.n, p.q, p.sigma)
		}
		a.line = fmt.Sprintf("steps = %d  (achieves eps = %s <= %g at delta = %g; %s, %v conversion, %s)", steps, bound(achieved), target, delta, desc, conv, d.orders.describe())
		if p.n > 0 {
			a.line += fmt.Sprintf("; %.4g epochs of %g examples", float64(steps)*p.batch/p.n, p.n)
		}
	} else {
		a.json = map[string]any{"eps": schema.JSONFloat(target), "delta": schema.JSONFloat(delta), "conversion": conv.String(),
			"steps": steps, "epsilon_achieved": schema.JSONFloat(achieved), "orders": d.orders.String(), "searched_phase": free[0]}
	}
	return a.print(stdout, stderr)
}

// stepsJSON is steps -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func stepsJSON(q, sigma, eps, delta float64, conv fast.Conversion, steps int, achieved float64, orders string) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "sigma": schema.JSONFloat(sigma), "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "steps": steps, "epsilon_achieved": schema.JSONFloat(achieved), "orders": orders}
}
