package main

import (
	"fmt"
	"io"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const sigmaDoc = `Prints the smallest noise multiplier sigma for which steps compositions of
the Poisson-sampled Gaussian mechanism with rate q meet a target (eps, delta),
and the eps that sigma achieves (never above the target).

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
	eps := fs.Float64("eps", 0, "target epsilon (> 0)")
	tol := fs.Float64("tol", 1e-6, "relative tolerance on sigma, in [1e-12, 1)")
	var d dpFlags
	d.register(fs)
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(true); err != nil {
		return fail(stderr, "sigma", err)
	}
	sigma, achieved, err := fast.CalibrateSigma(s.q, s.steps, *eps, d.delta, d.conv.conv, d.orders.orders, *tol)
	if err != nil {
		return fail(stderr, "sigma", err)
	}
	if d.json {
		if err := writeJSON(stdout, sigmaJSON(s.q, s.steps, *eps, d.delta, d.conv.conv, sigma, achieved)); err != nil {
			return fail(stderr, "sigma", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "sigma = %.8g  (achieves eps = %.10g <= %g at delta = %g; q = %g, steps = %d, %v conversion)\n",
		sigma, achieved, *eps, d.delta, s.q, s.steps, d.conv.conv)
	return 0
}

// sigmaJSON is sigma -json's output; every float goes through
// schema.JSONFloat, so that an infinite one is written "inf".
func sigmaJSON(q float64, steps int, eps, delta float64, conv fast.Conversion, sigma, achieved float64) map[string]any {
	return map[string]any{"q": schema.JSONFloat(q), "steps": steps, "eps": schema.JSONFloat(eps), "delta": schema.JSONFloat(delta),
		"conversion": conv.String(), "sigma": schema.JSONFloat(sigma), "epsilon_achieved": schema.JSONFloat(achieved)}
}
