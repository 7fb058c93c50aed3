package main

import (
	"fmt"
	"io"
	"math"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const epsilonDoc = `Prints the (eps, delta)-DP guarantee of DP-SGD: steps compositions of the
sampled Gaussian mechanism with sampling rate q and noise multiplier sigma,
accounted in RDP, and the order that attains it; with -eps, the delta of a
target eps instead. The value is computed in float64 and rounded up, never
below the exact value at that order; -reference also computes eps in
arbitrary precision at that order (its own best order is not searched).
A delta printed for -eps, given back as -delta, gives at most that eps.
-delta (or -eps) takes a comma-separated list: one result for each value
(a JSON array with -json).

` + phaseDoc + `
For each result a table gives each phase's RDP at the order found (its steps
times one step's, rounded up) and its share of their sum.

` + samplingDoc + `

By default (-orders best) eps is the least over every order in (1, 2^20]
and +Inf, to 1e-6 relative: dp_accounting's 156 orders first, then a
search that brackets the best of them and shrinks the bracket until no
order inside can do better. Every order gives a
valid bound, so the result is safe whatever the search does. -orders grid
gives the peers' answer (the best of dp_accounting's 156 orders);
-orders 2,4,8,... any list. sigma, steps and account use the same orders.
A run gives the value account gives its event file, to the bit.

examples:
  rdpcheck epsilon -q 0.01 -sigma 1.1 -steps 10000 -delta 1e-5
  rdpcheck epsilon -n 60000 -batch 256 -epochs 60 -sigma 1.1 -delta 1e-5
  rdpcheck epsilon -phase q=0.01,sigma=1,steps=2000 -phase q=0.02,sigma=1.2,steps=500 -delta 1e-5,1e-6
  rdpcheck epsilon -sampling wor -n 60000 -batch 256 -epochs 3 -sigma 0.6 -delta 1e-5
  rdpcheck epsilon -q 0.01 -sigma 1.1 -steps 10000 -eps 3`

func init() {
	register(command{name: "epsilon", summary: "epsilon (and order) of a DP-SGD run for a target delta, or delta for a target epsilon", run: runEpsilon})
}

// targetEpsFlag is one value of -eps: a finite number >= 0.
func targetEpsFlag() *numFlag {
	return &numFlag{in: func(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }, domain: "a finite number >= 0"}
}

func runEpsilon(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("epsilon", epsilonDoc, stderr)
	var rf runFlags
	rf.register(fs, true)
	sigma := sigmaFlag()
	fs.Var(sigma, "sigma", "noise multiplier: noise standard deviation over l2-sensitivity (> 0)")
	deltas := &numList{one: deltaFlag}
	fs.Var(deltas, "delta", "target delta in (0, 1), or a comma-separated list of them (e.g. 1e-5,1e-6,1e-8): eps for each")
	epss := &numList{one: targetEpsFlag}
	fs.Var(epss, "eps", "target epsilon (>= 0), or a comma-separated list of them: delta for each, instead of -delta")
	var d dpFlags
	d.registerConversion(fs)
	withRef := fs.Bool("reference", false, "also compute eps with the arbitrary-precision reference: at the order found with -orders best (the reference's own best order is not searched), the least over the orders with -orders grid or a list (slower; progress on stderr; one Poisson-sampled phase, one -delta)")
	exact := fs.Bool("exact", false, "also print a certified interval around the optimal eps (or delta) of the run, from its privacy loss distribution, and how far RDP's is above it (seconds to a minute; Poisson sampling, one -delta or -eps)")
	if st := parse(fs, args); st >= 0 {
		return st
	}
	r, err := rf.resolve(true, sigma)
	if err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	if err := r.needEach("sigma", "the noise multiplier, > 0"); err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	if err := r.needEach("steps", "a whole number >= 1, or epochs= with n= and batch="); err != nil {
		return usageError(stderr, "epsilon", err.Error())
	}
	wantDelta := len(epss.v) > 0
	targets := deltas.v
	switch {
	case len(deltas.v) == 0 && !wantDelta:
		return usageError(stderr, "epsilon", "missing -delta (the target delta, in (0, 1)), or -eps (a target epsilon, for delta)")
	case len(deltas.v) > 0 && wantDelta:
		return usageError(stderr, "epsilon", "give -delta (for epsilon) or -eps (for delta), not both")
	case wantDelta:
		targets = epss.v
	}
	if (*withRef || *exact) && len(targets) > 1 {
		return usageError(stderr, "epsilon", "-reference and -exact take one -delta or -eps value")
	}
	if *withRef && (wantDelta || !r.sgm()) {
		return usageError(stderr, "epsilon", "-reference recomputes eps for -delta of one Poisson-sampled phase only")
	}
	if *exact && r.wor {
		return usageError(stderr, "epsilon", "-exact takes Poisson sampling only (its privacy loss distribution is the Poisson-sampled Gaussian's)")
	}
	ob, conv := &d.orders, d.conv.conv
	type result struct {
		value, order float64 // eps (delta with -eps) and its order
		rdp          []float64
	}
	results := make([]result, len(targets))
	rb := readBack{digits: boundDigits,
		eps: func(delta float64, orders []float64) (float64, float64, error) {
			if orders == nil {
				orders = ob.orders()
			}
			return r.epsilonOn(delta, conv, orders)
		},
		delta: func(eps float64, orders []float64) (float64, float64, error) {
			if orders == nil {
				orders = ob.orders()
			}
			return r.deltaOn(eps, conv, orders)
		}}
	if d.json {
		rb.digits = jsonDigits
	}
	pr := startProgress(stderr, "epsilon")
	for i, t := range targets {
		pr.set("searching the best order (%s) for the %d. of %d values", ob.describe(), i+1, len(targets))
		res := &results[i]
		if wantDelta {
			if res.value, res.order, err = r.delta(t, conv, ob); err == nil {
				res.value, err = rb.printedDelta(res.value, t)
			}
		} else {
			res.value, res.order, err = r.epsilon(t, conv, ob)
		}
		if err == nil {
			res.rdp, err = r.phaseRDP(res.order)
		}
		if err != nil {
			pr.end()
			return fail(stderr, "epsilon", err)
		}
	}
	pr.end()
	var refEps string
	var refOrder float64
	if *withRef {
		t := r.phases[0]
		t.steps = 0
		for _, p := range r.phases { // one term: the same q and sigma (r.sgm)
			t.steps += p.steps
		}
		ro := ob.orders()
		if ob.best() {
			ro = []float64{results[0].order} // the reference's eps at the order found
		}
		if refEps, refOrder, err = referenceEpsilon(t.q, t.sigma, t.steps, ro, targets[0], conv, stderr); err != nil {
			return fail(stderr, "epsilon", err)
		}
	}
	var opt pld.Interval
	if *exact {
		// the run's event file's distributions, as account -exact takes them
		x, err := dpevent.DPSGDExact(r.dpPhases(), r.wor)
		if err == nil {
			opt, err = exactEventInterval(stderr, "epsilon", x, wantDelta, targets[0])
		}
		if err != nil {
			return fail(stderr, "epsilon", err)
		}
	}
	if d.json {
		outs := make([]map[string]any, len(results))
		for i, res := range results {
			eps, delta := res.value, targets[i]
			if wantDelta {
				eps, delta = targets[i], res.value
			}
			out := map[string]any{
				"delta": schema.JSONFloat(delta), "epsilon": schema.JSONFloat(eps), "order": schema.JSONFloat(res.order),
				"conversion": conv.String(), "orders": ob.String(),
				"sampling": rf.sampling.String(), "relation": r.relation(), "phases": r.phasesJSON(res.rdp),
			}
			if len(r.phases) == 1 {
				p := r.phases[0]
				out["q"], out["sigma"], out["steps"] = p.q, p.sigma, p.steps
			}
			if *withRef {
				out["epsilon_reference"], out["order_reference"] = refEps, schema.JSONFloat(refOrder)
			}
			if *exact {
				if wantDelta {
					out["delta_optimal"] = exactJSON(opt)
				} else {
					out["epsilon_optimal"] = exactJSON(opt)
				}
			}
			outs[i] = out
		}
		var v any = outs
		if len(outs) == 1 {
			v = outs[0]
		}
		if err := writeJSON(stdout, v); err != nil {
			return fail(stderr, "epsilon", err)
		}
		return 0
	}
	for i, res := range results {
		if wantDelta {
			fmt.Fprintf(stdout, "delta = %s at order %.10g  (%v conversion, eps = %g; %s, %s)\n",
				bound(res.value), res.order, conv, targets[i], r.describe(), ob.describe())
		} else {
			fmt.Fprintf(stdout, "eps = %s at order %.10g  (%v conversion, delta = %g; %s, %s)\n",
				bound(res.value), res.order, conv, targets[i], r.describe(), ob.describe())
		}
		if !r.flags {
			if err := r.printPhases(stdout, res.order, res.rdp); err != nil {
				return fail(stderr, "epsilon", err)
			}
		}
	}
	if *withRef {
		which := "the order found above: the reference's own best order is not searched"
		if !ob.best() {
			which = "the least over " + ob.describe()
		}
		fmt.Fprintf(stdout, "reference eps = %s at order %.10g  (%s)\n", refEps, refOrder, which)
	}
	if *exact {
		printExact(stdout, opt, results[0].value, wantDelta)
	}
	return 0
}

// referenceEpsilon is dpevent.DPSGDReferenceEpsilon at the default precision,
// reporting each tenth of the orders on stderr: eps and its order.
func referenceEpsilon(q, sigma float64, steps int, orders []float64, delta float64, conv fast.Conversion, stderr io.Writer) (string, float64, error) {
	fmt.Fprintf(stderr, "reference: %d orders (minutes for small sigma or large orders)\n", len(orders))
	progress := func(done, total int) { fmt.Fprintf(stderr, "reference: %d/%d orders\n", done, total) }
	eps, order, err := dpevent.DPSGDReferenceEpsilon(reference.Context{}, dpevent.Phase{Q: q, Sigma: sigma, Steps: int64(steps)}, orders, delta, conv, progress)
	if err != nil {
		return "", 0, err
	}
	return schema.BigDec(eps), order, nil
}
