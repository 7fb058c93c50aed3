package score

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Markdown writes the report of one vector file (named name) as a
// Markdown section: the group-by-group table, then the worst tests of each
// failing group (at most worstN) with their inputs.
func (r *Report) Markdown(w io.Writer, name string, worstN int) {
	c := r.Count()
	fmt.Fprintf(w, "## %s\n\n%s; %s.\n\n", name, c.answered(r.Tests), c.Groups())
	fmt.Fprintln(w, "| group | answered | max rel | RMS rel | tolerance | below truth (beyond tolerance) | worst under | negative | NaN | inf | rejected valid | accepted invalid | tighter valid | unsupported | hang | crashed | adapter errors | status |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, g := range r.Groups {
		rms, maxRel := "-", "-"
		if g.Finite > 0 {
			rms = fmtRel(g.RMS())
		}
		if g.Valued > 0 {
			maxRel = fmtRel(g.MaxRel)
		}
		under := "-"
		if g.WorstUnder != nil {
			under = strconv.Itoa(g.WorstUnder.ID)
		}
		fmt.Fprintf(w, "| %s | %d/%d | %s | %s | %g | %d | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
			g.Name, g.Answered, g.Tests, maxRel, rms, g.Tolerance, g.Below, under, g.Negative, g.NaN, g.Inf,
			g.RejectedValid, g.AcceptedInvalid, g.TighterValid, g.Unsupported, g.Hang, g.Crashed, g.AdapterErrors, g.Status())
	}
	first := true
	for _, g := range r.Groups {
		if !g.Failed() {
			continue
		}
		if first {
			fmt.Fprintf(w, "\nWorst tests of the failing groups (at most %d each):\n", worstN)
			first = false
		}
		fmt.Fprintf(w, "\n- **%s** (%s, tolerance %g): %s\n", g.Name, g.Function, g.Tolerance, strings.Join(g.Reasons(), ", "))
		for _, c := range g.Worst[:min(worstN, len(g.Worst))] {
			fmt.Fprintf(w, "  - tcId %d, `%s`: %s\n", c.ID, c.Inputs, c.Verdict())
		}
	}
	fmt.Fprintln(w)
}
