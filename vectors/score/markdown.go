package score

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Markdown writes the report of one vector file (named name) as a
// Markdown section: a table of its value groups (graded by relative error
// against the group's tolerance), a table of its interval groups (graded
// against each test's certified interval, schema.IsProfile), then the
// worst tests of each failing group (at most worstN) with their inputs.
func (r *Report) Markdown(w io.Writer, name string, worstN int) {
	c := r.Count()
	fmt.Fprintf(w, "## %s\n\n%s; %s.\n\n", name, c.answered(r.Tests), c.Groups())
	var values, intervals []*Group
	for _, g := range r.Groups {
		if g.Profile {
			intervals = append(intervals, g)
		} else {
			values = append(values, g)
		}
	}
	if len(values) > 0 {
		fmt.Fprintln(w, "| group | answered | max rel | RMS rel | tolerance | below truth (beyond tolerance) | worst under | negative | NaN | inf | rejected valid | accepted invalid | tighter valid | unsupported | hang | crashed | adapter errors | status |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
		for _, g := range values {
			maxRel, rms, tol, below := g.valueColumns()
			fmt.Fprintf(w, "| %s | %d/%d | %s | %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
				g.Name, g.Answered, g.Tests, maxRel, rms, tol, below, worstUnder(g), g.Negative, g.NaN, g.Inf,
				g.RejectedValid, g.AcceptedInvalid, g.TighterValid, g.Unsupported, g.Hang, g.Crashed, g.AdapterErrors, g.Status())
		}
	}
	if len(intervals) > 0 {
		if len(values) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "Interval groups: each test's truth is a certified interval [lower, upper], with no tolerance; an answer below lower is unsound (a failure), one above upper valid but loose by answer/upper - 1.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| group | answered | unsound (below lower) | worst unsound | exact (in the interval) | loose (above upper) | max loose | NaN | inf | rejected valid | accepted invalid | unsupported | hang | crashed | adapter errors | status |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
		for _, g := range intervals {
			loose := "-"
			if g.Loose > 0 {
				loose = fmtRel(g.MaxLoose)
			}
			fmt.Fprintf(w, "| %s | %d/%d | %d | %s | %d | %d | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
				g.Name, g.Answered, g.Tests, g.Unsound, worstUnder(g), g.Exact, g.Loose, loose, g.NaN, g.Inf,
				g.RejectedValid, g.AcceptedInvalid, g.Unsupported, g.Hang, g.Crashed, g.AdapterErrors, g.Status())
		}
	}
	if hangs := r.hangLines(); len(hangs) > 0 {
		fmt.Fprintln(w, "\nTests that ran into the runner's time limit (hang):")
		fmt.Fprintln(w)
		for _, l := range hangs {
			fmt.Fprintln(w, "- "+l)
		}
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
		if g.Profile {
			fmt.Fprintf(w, "\n- **%s** (%s, certified intervals): %s\n", g.Name, g.Function, strings.Join(g.Reasons(), ", "))
		} else {
			fmt.Fprintf(w, "\n- **%s** (%s, tolerance %g): %s\n", g.Name, g.Function, g.Tolerance, strings.Join(g.Reasons(), ", "))
		}
		for _, c := range g.Worst[:min(worstN, len(g.Worst))] {
			fmt.Fprintf(w, "  - tcId %d, `%s`: %s\n", c.ID, c.Inputs, c.Verdict())
		}
	}
	fmt.Fprintln(w)
}

// worstUnder is the tcId of the group's worst answer below the truth (or
// below a certified interval), "-" if none.
func worstUnder(g *Group) string {
	if g.WorstUnder == nil {
		return "-"
	}
	return strconv.Itoa(g.WorstUnder.ID)
}
