package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// exactInterval is -exact's computation: the certified interval around
// the optimal eps at delta = target (or, with wantDelta, the optimal delta
// at eps = target) of a run of sampled Gaussian phases, from its privacy
// loss distribution, with progress on stderr. An interval wider than asked
// is still certified: it is returned with a line on stderr.
func exactInterval(stderr io.Writer, cmd string, phases []pld.Phase, wantDelta bool, target float64) (pld.Interval, error) {
	pr := startProgress(stderr, cmd)
	steps := 0
	for _, p := range phases {
		steps += p.Steps
	}
	pr.set("computing the privacy loss distribution of %d steps", steps)
	var iv pld.Interval
	var err error
	if wantDelta {
		iv, err = pld.SGMDelta(phases, target)
	} else {
		iv, err = pld.SGMEpsilon(phases, target)
	}
	pr.end()
	if errors.Is(err, pld.ErrPrecision) {
		fmt.Fprintf(stderr, "rdpcheck %s: the optimal value's interval is wider than asked: %s\n", cmd, userMessage(err))
		err = nil
	}
	return iv, err
}

// exactJSON is -exact's part of -json: the interval, unrounded.
func exactJSON(iv pld.Interval) map[string]any {
	return map[string]any{"lower": schema.JSONFloat(iv.Lo), "upper": schema.JSONFloat(iv.Hi)}
}

// printExact prints the certified interval, its ends rounded outward to 7
// digits, and how far the RDP value rdp is above it: a range of
// percentages, or one where both ends print alike.
func printExact(w io.Writer, iv pld.Interval, rdp float64, wantDelta bool) {
	name := "eps"
	if wantDelta {
		name = "delta"
	}
	lo, hi := formatDigits(roundDownDigits(iv.Lo, 7)), formatDigits(roundUpDigits(iv.Hi, 7))
	fmt.Fprintf(w, "optimal %s in [%s, %s]  (certified, from the privacy loss distribution: no accountant may report less than %s)\n", name, lo, hi, lo)
	if iv.Lo > 0 {
		least, most := fmt.Sprintf("%.3g%%", 100*(rdp/iv.Hi-1)), fmt.Sprintf("%.3g%%", 100*(rdp/iv.Lo-1))
		above := least + " to " + most
		if least == most {
			above = least
		}
		fmt.Fprintf(w, "RDP's %s is %s above the optimal\n", name, above)
	}
}
