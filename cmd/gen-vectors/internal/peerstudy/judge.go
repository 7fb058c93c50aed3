package peerstudy

// The judging shared by events_FINDINGS.md and sampled_FINDINGS.md: one
// peer value against the reference's, classified as wor_FINDINGS.md does.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// judged is one peer value against the truth.
type judged struct {
	event, peer, region string
	inputs              string // the case's inputs, for the worst-case column
	alpha               float64
	truth               *big.Float // nil: no truth (the case is outside the reference's domain)
	value               float64
	text                string // the peer's error text, when it raised
	rel                 float64
	class               string
}

// Classes, in report order. "refused" is a raised error on an input the
// reference rejects too (a correct refusal); "no truth" is a number printed
// for such an input.
var judgeClasses = []string{"within 1e-12", "digits lost (over, <= 1e-6)", "over-estimate (> 1e-6)", "under-estimate (unsafe)", "non-finite", "error", "refused", "no truth"}

// classify fills j.class and j.rel from the peer's raw value and j.truth.
// A zero truth makes any positive value an over-estimate of relative size
// +Inf.
func classify(j *judged, raw json.RawMessage) {
	v, text, ok := peerNumber(raw)
	j.value, j.text = v, text
	t := j.truth
	switch {
	case t == nil && !ok:
		j.class = "refused"
	case t == nil:
		j.class = "no truth"
	case !ok:
		j.class = "error"
	case t.IsInf():
		if math.IsInf(v, 1) {
			j.class = "within 1e-12"
		} else {
			j.class, j.rel = "under-estimate (unsafe)", math.Inf(-1)
		}
	case math.IsInf(v, 0) || math.IsNaN(v):
		j.class = "non-finite"
	default:
		d := new(big.Float).SetPrec(256).Sub(new(big.Float).SetFloat64(v), t)
		switch {
		case t.Sign() != 0:
			d.Quo(d, t)
			j.rel, _ = d.Float64()
		case d.Sign() > 0:
			j.rel = math.Inf(1)
		case d.Sign() < 0:
			j.rel = math.Inf(-1)
		}
		switch {
		case math.Abs(j.rel) <= 1e-12:
			j.class = "within 1e-12"
		case j.rel < 0:
			j.class = "under-estimate (unsafe)"
		case j.rel <= 1e-6:
			j.class = "digits lost (over, <= 1e-6)"
		default:
			j.class = "over-estimate (> 1e-6)"
		}
	}
}

// badness orders deviations: unsafe first, then errors and non-finite
// values, then the other deviations; within a rank, by size. (A single
// float such as 1e300 + |rel| would lose the size to rounding.) Rank -1:
// not a deviation.
func (j judged) badness() (rank int, size float64) {
	switch j.class {
	case "within 1e-12", "refused":
		return -1, 0
	case "under-estimate (unsafe)":
		return 3, math.Abs(j.rel)
	case "error", "non-finite":
		return 2, 0
	case "no truth":
		// The reference rejects the input; what a peer prints there is
		// noted, but any real deviation is worse.
		return 0, 0
	}
	return 1, math.Abs(j.rel)
}

// worse reports whether a is a worse deviation than b.
func worse(a, b judged) bool {
	ra, sa := a.badness()
	rb, sb := b.badness()
	if ra != rb {
		return ra > rb
	}
	return sa > sb
}

func (j judged) describe() string {
	s := j.inputs
	if !math.IsNaN(j.alpha) {
		s += " alpha=" + fmtAlpha(j.alpha)
	}
	s += ": " + j.class
	switch j.class {
	case "error", "refused":
		s += " (" + strings.TrimPrefix(j.text, "error: ") + ")"
	case "non-finite", "no truth":
		s += fmt.Sprintf(", printed %g", j.value)
	default:
		s += fmt.Sprintf(", printed %.6g, rel %.3g", j.value, j.rel)
	}
	if j.truth != nil && j.class != "within 1e-12" {
		s += ", truth " + j.truth.Text('g', 6)
	}
	return s
}

func fmtAlpha(a float64) string {
	if math.IsInf(a, 1) {
		return "inf"
	}
	return fmt.Sprint(a)
}

// orderRegion names the order class of alpha.
func orderRegion(alpha float64) string {
	switch {
	case math.IsInf(alpha, 1):
		return "alpha = inf"
	case alpha < 2:
		return "alpha in (1, 2)"
	case alpha != math.Trunc(alpha):
		return "fractional alpha > 2"
	case alpha <= 256:
		return "integer 2..256"
	}
	return "integer > 256"
}

// peerTables writes, for each peer of js in first-seen order, the table of
// classes by region with the worst case of each region, under a heading
// "#### peer".
func peerTables(b *bytes.Buffer, js []judged) { peerTablesAt(b, js, "####") }

// peerTablesAt is peerTables with the peers' headings at the given level.
func peerTablesAt(b *bytes.Buffer, js []judged, heading string) {
	var peers []string
	seen := map[string]bool{}
	for _, j := range js {
		if !seen[j.peer] {
			seen[j.peer] = true
			peers = append(peers, j.peer)
		}
	}
	for _, p := range peers {
		fmt.Fprintf(b, "%s %s\n\n| region | n | %s | worst |\n|---|---|%s---|\n", heading, p, strings.Join(judgeClasses, " | "), strings.Repeat("---|", len(judgeClasses)))
		regions := map[string][]judged{}
		var names []string
		for _, j := range js {
			if j.peer != p {
				continue
			}
			if regions[j.region] == nil {
				names = append(names, j.region)
			}
			regions[j.region] = append(regions[j.region], j)
		}
		sort.Strings(names)
		for _, r := range names {
			rows := regions[r]
			counts, worst := tally(rows)
			cells := make([]string, len(judgeClasses))
			for i, c := range judgeClasses {
				cells[i] = fmt.Sprint(counts[c])
			}
			w := ""
			if worst != nil {
				w = worst.describe()
			}
			fmt.Fprintf(b, "| %s | %d | %s | %s |\n", r, len(rows), strings.Join(cells, " | "), w)
		}
		b.WriteString("\n")
	}
}

// tally counts the classes of rows and returns the worst deviation (nil if
// none).
func tally(rows []judged) (map[string]int, *judged) {
	counts := map[string]int{}
	var worst *judged
	for i := range rows {
		counts[rows[i].class]++
		if r, _ := rows[i].badness(); r >= 0 && (worst == nil || worse(rows[i], *worst)) {
			worst = &rows[i]
		}
	}
	return counts, worst
}

// summaryCell is one cell of the "what each accountant gets wrong" table:
// the counts of every non-zero class but "within", and the worst case.
func summaryCell(rows []judged) string {
	if len(rows) == 0 {
		return "–"
	}
	counts, worst := tally(rows)
	var parts []string
	for _, c := range judgeClasses {
		if counts[c] > 0 && c != "within 1e-12" {
			parts = append(parts, fmt.Sprintf("%d %s", counts[c], c))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("all %d within 1e-12", len(rows))
	}
	s := fmt.Sprintf("%d of %d within 1e-12; %s", counts["within 1e-12"], len(rows), strings.Join(parts, ", "))
	if worst != nil {
		s += "; worst " + worst.describe()
	}
	return s
}
