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
the Poisson-sampled Gaussian mechanism with rate q meet a target (eps, delta),
and the eps that sigma achieves (never above the target).

The eps of each sigma is accounted as epsilon accounts it (-orders best by
default: the least over every order in (1, 2^20] and +Inf), and sigma is
searched in [0.01, 10000] to -tol relative. The sigma printed is rounded UP
to 8 significant digits, and the eps printed is that of the printed sigma:
read back by 'rdpcheck epsilon' with the same -orders, it meets the target.

examples:
  rdpcheck sigma -q 0.01 -steps 10000 -eps 3 -delta 1e-5
  rdpcheck sigma -n 60000 -batch 256 -epochs 60 -eps 2 -delta 1e-5`

func init() {
	register(command{name: "sigma", summary: "smallest noise multiplier for a target (eps, delta)", run: runSigma})
}

func runSigma(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sigma", sigmaDoc, stderr)
	var s sgmFlags
	s.register(fs, true)
	eps := epsFlag()
	fs.Var(eps, "eps", "target epsilon (> 0)")
	tol := &numFlag{v: 1e-6, in: func(x float64) bool { return x >= 1e-12 && x < 1 }, domain: "a relative tolerance in [1e-12, 1)"}
	fs.Var(tol, "tol", "relative tolerance on sigma, in [1e-12, 1) (default 1e-6)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(true); err != nil {
		return usageError(stderr, "sigma", err.Error())
	}
	for _, n := range []struct {
		name string
		f    *numFlag
		what string
	}{{"eps", eps, "the target epsilon, > 0"}, {"delta", d.delta, "the target delta, in (0, 1)"}} {
		if err := need(n.name, n.f, n.what); err != nil {
			return usageError(stderr, "sigma", err.Error())
		}
	}
	q, steps, target, delta, conv := s.q.v, s.stepCount(), eps.v, d.delta.v, d.conv.conv
	if q == 0 {
		return fail(stderr, "sigma", fmt.Errorf("-q 0 samples no record: every sigma meets the target"))
	}
	epsAt := func(sigma float64) (float64, error) {
		e, _, err := sgmEpsilon(q, sigma, steps, delta, conv, &d.orders)
		return e, err
	}
	pr := startProgress(stderr, "sigma")
	defer pr.end()
	pr.set("searching sigma in [0.01, 10000] (%s)", d.orders.describe())
	var sigma float64
	var err error
	if d.orders.best() {
		sigma, _, err = fast.CalibrateSigmaBest(q, steps, target, delta, conv, tol.v)
	} else {
		sigma, _, err = fast.CalibrateSigma(q, steps, target, delta, conv, d.orders.orders(), tol.v)
	}
	if err != nil {
		return fail(stderr, "sigma", err)
	}
	// the printed sigma, rounded up, and its own eps
	pr.set("checking the printed sigma")
	printed, achieved, err := roundUpMeeting(sigma, target, epsAt)
	pr.end()
	if err != nil {
		return fail(stderr, "sigma", err)
	}
	if d.json {
		if err := writeJSON(stdout, sigmaJSON(q, steps, target, delta, conv, printed, achieved, d.orders.String())); err != nil {
			return fail(stderr, "sigma", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "sigma = %s  (achieves eps = %s <= %g at delta = %g; q = %g, steps = %d, %v conversion, %s)\n",
		strconv.FormatFloat(printed, 'g', -1, 64), bound(achieved), target, delta, q, steps, conv, d.orders.describe())
	return 0
}

// sigmaDigits is how many significant digits sigma is printed with.
const sigmaDigits = 8

// roundUpMeeting rounds sigma up to sigmaDigits significant digits and
// returns it with its eps, which must meet the target (eps is
// non-increasing in sigma, so it does whenever sigma did; it is checked,
// and the next printable sigma taken if not).
func roundUpMeeting(sigma, target float64, epsAt func(float64) (float64, error)) (float64, float64, error) {
	p := roundUpDigits(sigma, sigmaDigits)
	for range 4 {
		e, err := epsAt(p)
		if err != nil {
			return 0, 0, err
		}
		if e <= target {
			return p, e, nil
		}
		p = roundUpDigits(math.Nextafter(p, math.Inf(1)), sigmaDigits)
	}
	return 0, 0, fmt.Errorf("sigma %v rounded up to %d digits does not meet the target", sigma, sigmaDigits)
}

// sigmaJSON is sigma -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func sigmaJSON(q float64, steps int, eps, delta float64, conv fast.Conversion, sigma, achieved float64, orders string) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "steps": steps, "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "sigma": schema.JSONFloat(sigma), "epsilon_achieved": schema.JSONFloat(achieved), "orders": orders}
}
