package peerstudy

// The conversions of peers/accountants/conversions.json against
// reference.Epsilon and reference.Delta (improved conversion), for
// events_FINDINGS.md.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/rdpcheck/rdpcheck/reference"
)

type convJudged struct {
	judged
	kind, note  string
	withInf     bool
	target      string  // "eps" or "delta"
	given       float64 // the delta (target eps) or eps (target delta) asked for
	order       string  // the order the peer chose
	truthOrder  float64
	peerPrinted string
}

// convEvent is the truth of an accountant case's event at one order, and
// the delta the event keeps aside (EpsilonDeltaDpEvent).
func convEvent(ctx reference.Context, event string, count int64, alpha float64) (*big.Float, float64, error) {
	var t *big.Float
	var err error
	extra := 0.0
	switch event {
	case "RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2)":
		t, err = ctx.KaryRandomizedResponse(0.5, 2, reference.ReplaceOne, alpha)
	case "SingleEpochTreeAggregationDpEvent(noise_multiplier=1.0, step_counts=100)":
		t, err = ctx.TreeAggregation(1, []int{100}, reference.TreeOneTree, alpha)
	case "LaplaceDpEvent(noise_multiplier=1.0)":
		t, err = ctx.Laplace(1, alpha)
	case "EpsilonDeltaDpEvent(epsilon=1.0, delta=1e-06)":
		t, err = ctx.PureDP(1, alpha)
		extra = 1 - math.Pow(1-1e-6, float64(count))
	default:
		return nil, 0, fmt.Errorf("conversions.json: unknown event %q", event)
	}
	if err != nil {
		return nil, 0, err
	}
	return scaled(t, count), extra, nil
}

func judgeConversions(conversions []byte, prec uint) ([]convJudged, error) {
	var file struct {
		Cases []caseFields `json:"cases"`
	}
	if err := json.Unmarshal(conversions, &file); err != nil {
		return nil, err
	}
	ctx := reference.Context{Prec: prec}
	var out []convJudged
	for _, c := range file.Cases {
		var rawOrders []json.RawMessage
		if err := json.Unmarshal(c["orders"], &rawOrders); err != nil {
			return nil, err
		}
		orders := make([]float64, len(rawOrders))
		withInf := false
		for i, r := range rawOrders {
			orders[i], _, _ = peerNumber(r)
			withInf = withInf || math.IsInf(orders[i], 1)
		}
		kind, note := c.str("kind"), c.str("note")
		// given: the rdp the conversion received (the peer's own vector for
		// accountant cases), nil where the reference rejects it.
		var given []*big.Float
		var rawRDP []json.RawMessage
		key := "rdp"
		if kind == "accountant" {
			key, note = "accountant_rdp", c.str("event")
			if c.num("count") != 1 {
				note += fmt.Sprintf(" x %g", c.num("count"))
			}
		}
		if json.Unmarshal(c[key], &rawRDP) == nil && rawRDP != nil {
			given = make([]*big.Float, len(rawRDP))
			for i, r := range rawRDP {
				v, _, ok := peerNumber(r)
				if !ok || math.IsNaN(v) {
					given = nil
					break
				}
				given[i] = new(big.Float).SetFloat64(v)
			}
		}
		// truthRDP: what the dp_accounting value is judged on: the event's
		// exact curve for accountant cases, the given rdp otherwise.
		truthRDP, extra := given, 0.0
		if kind == "accountant" {
			truthRDP = make([]*big.Float, len(orders))
			for i, a := range orders {
				var err error
				if truthRDP[i], extra, err = convEvent(ctx, c.str("event"), int64(c.num("count")), a); err != nil {
					return nil, err
				}
			}
		}
		target := "eps"
		if kind == "compute_delta" || c.str("target") == "delta" {
			target = "delta"
		}
		for _, peer := range []string{dpKey, "opacus_1_5_4"} {
			raw, ok := c[peer]
			if !ok {
				continue
			}
			rdpIn := truthRDP
			if peer != dpKey {
				rdpIn = given // Opacus was handed the dp_accounting vector
			}
			j := convJudged{kind: kind, note: note, withInf: withInf, target: target}
			j.peer, j.event, j.region = peer, "conversion", note
			var res map[string]json.RawMessage
			valRaw := raw
			if json.Unmarshal(raw, &res) == nil {
				valRaw = res[target]
				ov, _, _ := peerNumber(res["order"])
				j.order = fmtAlpha(ov)
			}
			j.peerPrinted = string(valRaw)
			if rdpIn != nil {
				var t *big.Float
				var err error
				if target == "eps" {
					j.given = c.num("delta")
					d := j.given
					if extra > 0 && peer == dpKey {
						d = (d - extra) / (1 - extra) // the delta left to the conversion
					}
					t, j.truthOrder, err = ctx.Epsilon(orders, rdpIn, d, reference.Improved)
				} else {
					j.given = c.num("epsilon")
					t, j.truthOrder, err = ctx.Delta(orders, rdpIn, j.given, reference.Improved)
					if err == nil {
						t, j.truthOrder = tvMin(orders, rdpIn, t, j.truthOrder)
					}
					if err == nil && extra > 0 && peer == dpKey {
						// delta + extra - delta extra
						e := new(big.Float).SetPrec(t.Prec()).SetFloat64(extra)
						t = new(big.Float).SetPrec(t.Prec()).Sub(new(big.Float).Add(t, e), new(big.Float).Mul(t, e))
					}
				}
				if err == nil {
					j.truth = t
				}
			} else if target == "eps" {
				j.given = c.num("delta")
			} else {
				j.given = c.num("epsilon")
			}
			j.inputs, j.alpha = fmt.Sprintf("%s %s, %s", j.kind, j.target, j.note), math.NaN()
			classify(&j.judged, valRaw)
			out = append(out, j)
		}
	}
	return out, nil
}

// convSummary is dp_accounting's cell of the summary table for the
// conversions with (withInf) or without +Inf among the orders.
func convSummary(conv []convJudged, withInf bool) string {
	var rows []judged
	for _, j := range conv {
		if j.peer == dpKey && j.withInf == withInf {
			rows = append(rows, j.judged)
		}
	}
	return summaryCell(rows)
}

func conversionsSection(conv []convJudged) string {
	var b strings.Builder
	b.WriteString("## Conversions (conversions.json)\n\n")
	b.WriteString("Truth: `reference.Epsilon` / `reference.Delta` with the improved conversion (Canonne, Kamath, Steinke 2020; for delta, lowered to the total-variation bound sqrt(1 - e^-rdp) where that is smaller, as dp_accounting's `compute_delta` does), which takes an order +Inf as pure DP (eps = its RDP) and never chooses an undefined value. For `compute_epsilon` and `compute_delta` the truth converts the rdp given; for `accountant` cases dp_accounting is judged on the event's exact curve (package reference) with the delta of an `EpsilonDeltaDpEvent` kept aside as dp_accounting does (1 - (1 - delta_conv)(1 - delta_event)), and Opacus, handed dp_accounting's rdp vector, on that vector. \"no truth\": the reference rejects the input (delta outside (0, 1), a nan or negative rdp), and the peer printed a number.\n\n")
	b.WriteString("| kind | case | orders with +Inf | asked | peer | printed (order) | truth (order) | class |\n|---|---|---|---|---|---|---|---|\n")
	for _, j := range conv {
		truth := "–"
		if j.truth != nil {
			truth = fmt.Sprintf("%s (%s)", j.truth.Text('g', 8), fmtAlpha(j.truthOrder))
		}
		asked := "delta"
		if j.target == "delta" {
			asked = "eps"
		}
		printed := j.peerPrinted
		if j.order != "" {
			printed += " (" + j.order + ")"
		}
		fmt.Fprintf(&b, "| %s %s | %s | %v | %s = %g | %s | %s | %s | %s |\n", j.kind, j.target, j.note, j.withInf, asked, j.given, j.peer, printed, truth, j.class)
	}
	b.WriteString("\n")
	counts := map[bool]map[string]int{true: {}, false: {}}
	for _, j := range conv {
		if j.peer == dpKey {
			counts[j.withInf][j.class]++
		}
	}
	var buf bytes.Buffer
	for _, w := range []bool{true, false} {
		fmt.Fprintf(&buf, "dp_accounting, orders %s +Inf:", map[bool]string{true: "with", false: "without"}[w])
		for _, c := range judgeClasses {
			if counts[w][c] > 0 {
				fmt.Fprintf(&buf, " %d %s;", counts[w][c], c)
			}
		}
		buf.WriteString("\n\n")
	}
	b.Write(buf.Bytes())
	return b.String()
}

// tvMin lowers a delta to the total-variation bound delta <= TV <=
// sqrt(1 - e^-KL) <= sqrt(1 - e^-rdp(alpha)) (Bretagnolle and Huber; KL is
// at most every D_alpha, alpha >= 1), the smallest over the orders, as
// dp_accounting's compute_delta does. It is formed in float64 (relative
// error near 1e-16, far below the 1e-12 of the classes).
func tvMin(orders []float64, rdp []*big.Float, t *big.Float, at float64) (*big.Float, float64) {
	for i, r := range rdp {
		if r.IsInf() {
			continue
		}
		x, _ := r.Float64()
		tv := math.Sqrt(-math.Expm1(-x))
		if new(big.Float).SetFloat64(tv).Cmp(t) < 0 {
			t, at = new(big.Float).SetPrec(t.Prec()).SetFloat64(tv), orders[i]
		}
	}
	return t, at
}
