package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// exactJSON is -exact's part of -json: the interval, unrounded.
func exactJSON(iv pld.Interval) map[string]any {
	return map[string]any{"lower": schema.JSONFloat(iv.Lo), "upper": schema.JSONFloat(iv.Hi)}
}

// printExact prints the certified interval, its ends rounded outward to 7
// digits, and how far the RDP value rdp is above it: a range of
// percentages, or one where both ends print alike (nothing when rdp is
// NaN: no RDP value).
func printExact(w io.Writer, iv pld.Interval, rdp float64, wantDelta bool) {
	name := "eps"
	if wantDelta {
		name = "delta"
	}
	lo, hi := formatDigits(roundDownDigits(iv.Lo, 7)), formatDigits(roundUpDigits(iv.Hi, 7))
	fmt.Fprintf(w, "optimal %s in [%s, %s]  (certified, from the privacy loss distribution: no accountant may report less than %s)\n", name, lo, hi, lo)
	if iv.Lo > 0 && !math.IsNaN(rdp) {
		least, most := fmt.Sprintf("%.3g%%", 100*(rdp/iv.Hi-1)), fmt.Sprintf("%.3g%%", 100*(rdp/iv.Lo-1))
		above := least + " to " + most
		if least == most {
			above = least
		}
		fmt.Fprintf(w, "RDP's %s is %s above the optimal\n", name, above)
	}
}

// exactEventInterval is -exact's computation, account's and epsilon's
// (on the run's event file, dpevent.DPSGDExact): the certified interval
// around the optimal eps at delta = target (or, with wantDelta, the
// optimal delta at eps = target) of the event file's run x, with progress
// on stderr. An interval wider than asked is still certified: it is
// returned with a line on stderr.
func exactEventInterval(stderr io.Writer, cmd string, x *dpevent.Exact, wantDelta bool, target float64) (pld.Interval, error) {
	pr := startProgress(stderr, cmd)
	var n int64
	for _, t := range x.Terms() {
		n += t.Count
	}
	pr.set("computing the privacy loss distribution of %d events", n)
	o := pld.Options{Progress: func(msg string) { pr.set("privacy loss distribution of %d events: %s", n, msg) }}
	var iv pld.Interval
	var err error
	if wantDelta {
		iv, err = x.Delta(context.Background(), target, o)
	} else {
		iv, err = x.Epsilon(context.Background(), target, o)
	}
	pr.end()
	if errors.Is(err, pld.ErrPrecision) {
		fmt.Fprintf(stderr, "rdpcheck %s: the optimal value's interval is wider than asked: %s\n", cmd, userMessage(err))
		err = nil
	}
	if err != nil {
		err = fmt.Errorf("-exact: %w", err)
	}
	return iv, err
}

// printExactOnly prints account -exact's result for a file with an event
// that has no RDP accounting (rdpErr names it): the certified interval,
// its notes, and why there is no RDP value.
func printExactOnly(stdout, stderr io.Writer, x *dpevent.Exact, iv pld.Interval, wantDelta, asJSON bool, rdpErr error) int {
	if asJSON {
		out := map[string]any{"relation": x.Relation().String(), "rdp_error": userMessage(rdpErr)}
		if wantDelta {
			out["delta_optimal"] = exactJSON(iv)
		} else {
			out["epsilon_optimal"] = exactJSON(iv)
		}
		if n := x.Notes(); len(n) > 0 {
			out["exact_notes"] = n
		}
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "account", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "no RDP bound: %s\n", userMessage(rdpErr))
	printExact(stdout, iv, math.NaN(), wantDelta)
	for _, n := range x.Notes() {
		fmt.Fprintln(stdout, "note:", n)
	}
	return 0
}
