package main

import (
	"fmt"
	"io"

	"github.com/rdpcheck/rdpcheck/cases"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const epsilonDoc = `Prints the (eps, delta)-DP guarantee of DP-SGD: steps compositions of the
Poisson-sampled Gaussian mechanism with sampling rate q and noise multiplier
sigma, accounted in RDP, and the order that attains it. The value comes from
package fast (never below the exact eps at that order); -reference also
computes it in arbitrary precision.

By default (-orders best) eps is the least over every order in (1, 2^20]
and +Inf, to 1e-6 relative: dp_accounting's 156 orders first, then a
search that brackets the best of them and shrinks the bracket until no
order inside can do better (see fast.BestEpsilon). Every order gives a
valid bound, so the result is safe whatever the search does. -orders grid
gives the peers' answer (the best of dp_accounting's 156 orders);
-orders 2,4,8,... any list. sigma, steps and account use the same orders.

examples:
  rdpcheck epsilon -q 0.01 -sigma 1.1 -steps 10000 -delta 1e-5
  rdpcheck epsilon -n 60000 -batch 256 -epochs 60 -sigma 1.1 -delta 1e-5`

func init() {
	register(command{name: "epsilon", summary: "epsilon (and order) of a DP-SGD run for a target delta", run: runEpsilon})
}

func runEpsilon(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("epsilon", epsilonDoc, stderr)
	var s sgmFlags
	s.register(fs, true)
	sigma := sigmaFlag()
	fs.Var(sigma, "sigma", "noise multiplier: noise standard deviation over l2-sensitivity (> 0)")
	var d dpFlags
	d.register(fs)
	withRef := fs.Bool("reference", false, "also compute eps with the arbitrary-precision reference (slower; progress on stderr)")
	exact := fs.Bool("exact", false, "also print a certified interval around the optimal eps of the run, from its privacy loss distribution, and how far RDP's eps is above it (seconds to a minute)")
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(true); err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	if err := need("sigma", sigma, "the noise multiplier, > 0"); err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	if err := need("delta", d.delta, "the target delta, in (0, 1)"); err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	q, sg, steps, delta, ob := s.q.v, sigma.v, s.stepCount(), d.delta.v, &d.orders
	o := ob.orders()
	var eps, order float64
	var err error
	pr := startProgress(stderr, "epsilon")
	pr.set("searching the best order (%s)", ob.describe())
	eps, order, err = sgmEpsilon(q, sg, steps, delta, d.conv.conv, ob)
	pr.end()
	if err != nil {
		return fail(stderr, "epsilon", err)
	}
	out := map[string]any{
		"q": q, "sigma": sg, "steps": steps, "delta": delta,
		"conversion": d.conv.conv.String(), "epsilon": schema.JSONFloat(eps), "order": schema.JSONFloat(order),
		"orders": ob.String(),
	}
	var refEps string
	if *withRef {
		ro := o
		if ob.best() {
			ro = []float64{order} // the reference's eps at the order found
		}
		refEps, err = referenceEpsilon(q, sg, steps, ro, delta, d.conv.conv, stderr)
		if err != nil {
			return fail(stderr, "epsilon", err)
		}
		out["epsilon_reference"] = refEps
	}
	var opt pld.Interval
	if *exact {
		if opt, err = exactInterval(stderr, "epsilon", []pld.Phase{{Q: q, Sigma: sg, Steps: steps}}, false, delta); err != nil {
			return fail(stderr, "epsilon", err)
		}
		out["epsilon_optimal"] = exactJSON(opt)
	}
	if d.json {
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "epsilon", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "eps = %s at order %.10g  (%v conversion, delta = %g; q = %g, sigma = %g, steps = %d, %s)\n",
		bound(eps), order, d.conv.conv, delta, q, sg, steps, ob.describe())
	if *withRef {
		fmt.Fprintf(stdout, "reference eps = %s\n", refEps)
	}
	if *exact {
		printExact(stdout, opt, eps, false)
	}
	return 0
}

// referenceEpsilon is cases.ReferenceEpsilon at the default precision,
// reporting each tenth of the orders on stderr.
func referenceEpsilon(q, sigma float64, steps int, orders []float64, delta float64, conv fast.Conversion, stderr io.Writer) (string, error) {
	fmt.Fprintf(stderr, "reference: %d orders (minutes for small sigma or large orders)\n", len(orders))
	progress := func(done, total int) { fmt.Fprintf(stderr, "reference: %d/%d orders\n", done, total) }
	eps, _, err := cases.ReferenceEpsilon(reference.Context{}, q, sigma, steps, orders, delta, conv, progress)
	if err != nil {
		return "", err
	}
	return cases.Decimal(eps), nil
}
