package main

import (
	"fmt"
	"io"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

const epsilonDoc = `Prints the (eps, delta)-DP guarantee of DP-SGD: steps compositions of the
Poisson-sampled Gaussian mechanism with sampling rate q and noise multiplier
sigma, accounted in RDP over a list of orders, and the order that attains it.
The value comes from package fast (never below the exact eps for those
orders); -reference also computes it in arbitrary precision.

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
	sigma := fs.Float64("sigma", 0, "noise multiplier: noise standard deviation over l2-sensitivity (> 0)")
	var d dpFlags
	d.register(fs)
	withRef := fs.Bool("reference", false, "also compute eps with the arbitrary-precision reference (slower; progress on stderr)")
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := s.resolve(true); err != nil {
		return fail(stderr, "epsilon", err)
	}
	if d.delta == 0 {
		return fail(stderr, "epsilon", fmt.Errorf("missing -delta"))
	}
	o := d.orders.get()
	curve := make([]float64, len(o))
	if err := fast.SGMCurve(s.q, *sigma, s.steps, o, curve); err != nil {
		return fail(stderr, "epsilon", err)
	}
	eps, order, err := fast.Epsilon(o, curve, d.delta, d.conv.conv)
	if err != nil {
		return fail(stderr, "epsilon", err)
	}
	out := map[string]any{
		"q": s.q, "sigma": *sigma, "steps": s.steps, "delta": d.delta,
		"conversion": d.conv.conv.String(), "epsilon": jsonFloat(eps), "order": jsonFloat(order),
	}
	var refEps string
	if *withRef {
		refEps, err = referenceEpsilon(s.q, *sigma, s.steps, o, d.delta, d.conv.conv, stderr)
		if err != nil {
			return fail(stderr, "epsilon", err)
		}
		out["epsilon_reference"] = refEps
	}
	if d.json {
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "epsilon", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "eps = %.10g at order %g  (%v conversion, delta = %g; q = %g, sigma = %g, steps = %d, %d orders)\n",
		eps, order, d.conv.conv, d.delta, s.q, *sigma, s.steps, len(o))
	if *withRef {
		fmt.Fprintf(stdout, "reference eps = %s\n", refEps)
	}
	return 0
}

// referenceEpsilon computes eps in arbitrary precision, orders in parallel,
// reporting progress on stderr (a run with small sigma or large orders can
// take minutes).
func referenceEpsilon(q, sigma float64, steps int, orders []float64, delta float64, conv fast.Conversion, stderr io.Writer) (string, error) {
	rc := reference.Improved
	if conv == fast.Classic {
		rc = reference.Classic
	}
	rdp := make([]*big.Float, len(orders))
	errs := make([]error, len(orders))
	var done atomic.Int64
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				v, err := reference.SGM(q, sigma, orders[i])
				if err == nil {
					v.Mul(v, new(big.Float).SetInt64(int64(steps)))
				}
				rdp[i], errs[i] = v, err
				if n := int(done.Add(1)); n*10/len(orders) != (n-1)*10/len(orders) || n == len(orders) {
					fmt.Fprintf(stderr, "reference: %d/%d orders\n", n, len(orders))
				}
			}
		})
	}
	for i := range orders {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	eps, _, err := reference.Epsilon(orders, rdp, delta, rc)
	if err != nil {
		return "", err
	}
	return eps.Text('g', 40), nil
}
