package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const sigmaDoc = `Prints the smallest noise multiplier sigma for which steps compositions of
the sampled Gaussian mechanism with rate q meet a target (eps, delta),
and the eps that sigma achieves (never above the target).

The eps of each sigma is accounted as epsilon accounts it (-orders best by
default: the least over every order in (1, 2^20] and +Inf), and sigma is
searched in [0.01, 10000] to -tol relative. The sigma printed is rounded UP
to 8 significant digits, and the eps printed is that of the printed sigma:
read back by 'rdpcheck epsilon' with the same run and -orders, it meets the
target.

A run of several phases is given by repeated -phase flags as for epsilon
(q=Q,steps=T or n=N,batch=B,epochs=E). The sigma printed is the noise
multiplier of every phase that leaves sigma= out; a phase that gives sigma=S
keeps S. At least one phase must leave it out. A table gives each phase's
sigma, RDP at the order found and share.

` + samplingDoc + `

examples:
  rdpcheck sigma -q 0.01 -steps 10000 -eps 3 -delta 1e-5
  rdpcheck sigma -n 60000 -batch 256 -epochs 60 -eps 2 -delta 1e-5
  rdpcheck sigma -phase q=0.01,steps=2000 -phase q=0.02,sigma=1.2,steps=500 -eps 4 -delta 1e-5`

func init() {
	register(command{name: "sigma", summary: "smallest noise multiplier for a target (eps, delta)", run: runSigma})
}

func runSigma(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sigma", sigmaDoc, stderr)
	var rf runFlags
	rf.register(fs, true)
	eps := epsFlag()
	fs.Var(eps, "eps", "target epsilon (> 0)")
	tol := &numFlag{v: 1e-6, in: func(x float64) bool { return x >= 1e-12 && x < 1 }, domain: "a relative tolerance in [1e-12, 1)"}
	fs.Var(tol, "tol", "relative tolerance on sigma, in [1e-12, 1) (default 1e-6)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	r, err := rf.resolve(true, nil)
	if err != nil {
		return usageError(stderr, "sigma", err.Error())
	}
	if err := r.needEach("steps", "a whole number >= 1, or epochs= with n= and batch="); err != nil {
		return usageError(stderr, "sigma", err.Error())
	}
	if err := needTarget(eps, &d); err != nil {
		return usageError(stderr, "sigma", err.Error())
	}
	free := r.missing("sigma")
	if len(free) == 0 {
		return usageError(stderr, "sigma", "every -phase gives sigma=: leave it out of the phases whose noise multiplier to find")
	}
	target, delta, conv := eps.v, d.delta.v, d.conv.conv
	if len(r.phases) == 1 && r.phases[0].q == 0 {
		return fail(stderr, "sigma", fmt.Errorf("%s samples no record: every sigma meets the target", r.value("q", 0)))
	}
	epsAt := func(sigma float64) (float64, error) {
		e, _, err := r.withSigma(sigma).epsilon(delta, conv, &d.orders)
		return e, err
	}
	pr := startProgress(stderr, "sigma")
	pr.set("searching sigma in [0.01, 10000] (%s)", d.orders.describe())
	// every sigma's eps is the run's plan's, one run or several phases
	// (fast.CalibrateSigma's own SGMCurve and Epsilon round once less than
	// the plan's accountant: a second path to a slightly different eps)
	sigma, _, err := fast.CalibrateSigmaFunc(target, tol.v, epsAt)
	if err != nil {
		pr.end()
		return fail(stderr, "sigma", err)
	}
	// the printed sigma, rounded up, and its own eps
	pr.set("checking the printed sigma")
	printed, achieved, err := roundUpMeeting(sigma, target, epsAt)
	if err != nil {
		pr.end()
		return fail(stderr, "sigma", err)
	}
	a := found{cmd: "sigma", pr: pr, run: r.withSigma(printed), flags: r.flags, target: target, achieved: achieved, d: &d,
		head: fmt.Sprintf("sigma = %s for %s", strconv.FormatFloat(printed, 'g', -1, 64), numbers(free))}
	if r.flags {
		p := r.phases[0]
		a.json = sigmaJSON(p.q, p.steps, target, delta, conv, printed, achieved, d.orders.String())
		desc := fmt.Sprintf("q = %g, steps = %d", p.q, p.steps)
		if r.wor {
			desc = fmt.Sprintf("batches of %g of %g drawn without replacement (q = %g), steps = %d, replace-one", p.batch, p.n, p.q, p.steps)
		}
		a.line = fmt.Sprintf("sigma = %s  (achieves eps = %s <= %g at delta = %g; %s, %v conversion, %s)",
			strconv.FormatFloat(printed, 'g', -1, 64), bound(achieved), target, delta, desc, conv, d.orders.describe())
	} else {
		a.json = map[string]any{"eps": schema.JSONFloat(target), "delta": schema.JSONFloat(delta), "conversion": conv.String(),
			"sigma": schema.JSONFloat(printed), "epsilon_achieved": schema.JSONFloat(achieved), "orders": d.orders.String(), "calibrated_phases": free}
	}
	return a.print(stdout, stderr)
}

// found is what sigma and steps print once their search has found the
// run: the order at which the run's plan reaches its eps, each phase's RDP
// there, and either the one-phase flags form's line and JSON or the
// phases' table.
type found struct {
	cmd              string
	pr               *progress // ended once the order is found
	run              *dpRun
	flags            bool // the one-phase flags form (-q, -sigma, ...), not -phase
	target, achieved float64
	d                *dpFlags
	json             map[string]any // -json's object, without order and the run
	line             string         // the flags form's line
	head             string         // the phases form's first words ("sigma = 1.2 for phase 1")
}

func (a found) print(stdout, stderr io.Writer) int {
	delta, conv := a.d.delta.v, a.d.conv.conv
	_, order, err := a.run.epsilon(delta, conv, &a.d.orders)
	var rdp []float64
	if err == nil {
		rdp, err = a.run.phaseRDP(order)
	}
	a.pr.end()
	if err != nil {
		return fail(stderr, a.cmd, err)
	}
	if a.d.json {
		a.json["order"] = schema.JSONFloat(order)
		a.run.runJSON(a.json, rdp)
		if err := writeJSON(stdout, a.json); err != nil {
			return fail(stderr, a.cmd, err)
		}
		return 0
	}
	if a.flags {
		fmt.Fprintln(stdout, a.line)
		return 0
	}
	fmt.Fprintf(stdout, "%s  (achieves eps = %s <= %g at delta = %g; %s, %v conversion, %s)\n",
		a.head, bound(a.achieved), a.target, delta, a.run.describe(), conv, a.d.orders.describe())
	if err := a.run.printPhases(stdout, order, rdp); err != nil {
		return fail(stderr, a.cmd, err)
	}
	return 0
}

// sigmaDigits is how many significant digits sigma is printed with.
const sigmaDigits = 8

// roundUpMeeting rounds sigma up to sigmaDigits significant digits, and
// further if need be, so that the sigma printed meets the target when
// read back, and returns it with its eps (epsAt is how epsilon reads it).
func roundUpMeeting(sigma, target float64, epsAt func(float64) (float64, error)) (float64, float64, error) {
	return printedMeeting(sigma, sigmaDigits, target, math.Inf(1), func(s float64, _ int) (float64, float64, error) {
		e, err := epsAt(s)
		return e, math.NaN(), err
	})
}

// sigmaJSON is sigma -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func sigmaJSON(q float64, steps int, eps, delta float64, conv fast.Conversion, sigma, achieved float64, orders string) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "steps": steps, "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "sigma": schema.JSONFloat(sigma), "epsilon_achieved": schema.JSONFloat(achieved), "orders": orders}
}

// needTarget requires the target (eps, delta) that sigma and steps search
// for.
func needTarget(eps *numFlag, d *dpFlags) error {
	if err := need("eps", eps, "the target epsilon, > 0"); err != nil {
		return err
	}
	return need("delta", d.delta, "the target delta, in (0, 1)")
}
