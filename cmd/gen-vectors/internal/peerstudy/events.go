package peerstudy

// vectors/events_FINDINGS.md: dp_accounting 0.6.0 and autodp 0.2.3.1 on
// every event of peers/accountants/events.json but the two sampled ones
// (WORGaussian: wor_FINDINGS.md; SampledLaplace: sampled_FINDINGS.md), and
// on the conversions of conversions.json, judged against package reference.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/rdpcheck/rdpcheck/internal/workers"
	"github.com/rdpcheck/rdpcheck/reference"
)

// EventsFindingsName is the report, relative to vectors/.
const EventsFindingsName = "events_FINDINGS.md"

// eventOrder is the order of the events in the report.
var eventOrder = []string{"Laplace", "RandomizedResponse", "DiscreteGaussian", "TreeAggregation", "ExponentialMechanism", "PermuteAndFlip", "PureDP", "ZCDP", "RepeatAndSelect"}

// eventNotes says, per event, what the truth is and which formula or bound
// each peer evaluates (read from the peers' sources at the commits named in
// peers/accountants/README.md).
var eventNotes = map[string]string{
	"Laplace":              "Truth: `reference.Laplace(b, alpha)`, the exact RDP (Mironov 2017, Proposition 6), +inf order = 1/b. dp_accounting's `_laplace_rdp(1/b, alpha)` evaluates the same closed form in float64; autodp's `RDP_laplace` likewise.",
	"RandomizedResponse":   "Truth: `reference.KaryRandomizedResponse(p, k, relation, alpha)`, exact. dp_accounting: `_randomized_response_rdp_replace_one` / `_replace_special`, the same closed forms in float64; ADD_OR_REMOVE_ONE is refused (the reference has no such relation either: `refused`). autodp's `RandresponseMechanism(p = 1 - p/2)` is binary randomized response given the truth probability; it is judged against `reference.RandomizedResponse(autodp_p_truth, alpha)`, the RDP of what it was given.",
	"DiscreteGaussian":     "Truth: `reference.DiscreteGaussian(sigma, sensitivity, alpha)`, the exact divergence between discrete Gaussians (ratio of theta sums). Both peers account the event as its zCDP line alpha s^2/(2 sigma^2) (Canonne, Kamath, Steinke 2020, Proposition 5): an upper bound, equal to the exact value where (alpha - 1) s is an integer, larger elsewhere. autodp is given sigma/s (it has no sensitivity argument); it is judged against the event.",
	"TreeAggregation":      "Truth: `reference.TreeAggregation(sigma, steps, TreeOneTree, alpha)`: a record in one tree, depth ceil(log2(max steps + 1)), alpha depth/(2 sigma^2). dp_accounting's `_compute_rdp_single_epoch_tree_aggregation` evaluates the same reading.",
	"ExponentialMechanism": "dp_accounting evaluates the bounded-range bound of Cesar and Rogers 2021 as it states it, min(xi + eps^2 alpha/8, eps); the truth for it is `reference.ExponentialMechanism(eps, alpha)`, the exact value of that same bound. **Its `count10` and `selfcomposed10` are judged against 10 times that value.** autodp's `ExponentialMechanism` (the later of its two class definitions) is a zCDP mechanism with rho = eps^2/8 and pure DP eps; it prints min(alpha eps^2/8, tight pure-DP curve), judged against the exact value of that bound: min(`reference.ZCDP(eps^2/8, 0, alpha)`, `reference.PureDP(eps, alpha)`).",
	"PermuteAndFlip":       "dp_accounting accounts permute-and-flip with the Laplace mechanism's RDP at b = 1/eps, on the claim (a comment in `rdp_privacy_accountant.py`) that its privacy loss distribution is that of the Laplace mechanism. rdpcheck has no permute-and-flip function and cannot judge that claim; it judges only the evaluation: truth `reference.Laplace(1/eps, alpha)` (1/eps rounded to float64). autodp has no permute-and-flip mechanism.",
	"PureDP":               "Truth: `reference.PureDP(eps, alpha)`, the tight RDP of an eps-DP mechanism (binary randomized response's curve), eps at alpha = inf. dp_accounting (`EpsilonDeltaDpEvent`, delta 0) evaluates the same curve by logaddexp in float64; autodp's `PureDP_Mechanism` and `rdp_bank.RDP_pureDP` by a sinh form (Bun and Steinke 2016, Lemma 4's proof).",
	"ZCDP":                 "Truth: `reference.ZCDP(rho, xi, alpha)` = xi + rho alpha.",
	"RepeatAndSelect":      "Truth: `reference.RepeatAndSelect` on the Gaussian curve at the accountant's orders, mean and shape: Papernot and Steinke 2022, Theorem 6 (Poisson) or 2 (truncated negative binomial), with dp_accounting's choice of the auxiliary order, exactly (gamma to working precision instead of dp_accounting's bisection to 1e-9). The single-order keys (`accountant`, `helper`: orders = [alpha]) are judged against the reference on that one order, `accountant_orders_grid` against the reference on the 25 orders of the grid. dp_accounting's `_compute_rdp_repeat_and_select` applies the monotonicity of RDP (the minimum over higher orders) only in its truncated-negative-binomial branch; its Poisson branch (shape = inf) returns each order's own Theorem 6 value, which at orders near 1 carries log(mean)/(alpha - 1) and so exceeds the value at a higher order of the same grid (the over-estimates of `accountant_orders_grid` below; safe, but loose).",
}

// eventOrders is the accountant_orders_grid list of events.json.
func eventOrders(header map[string]json.RawMessage) ([]float64, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(header["orders"], &raw); err != nil {
		return nil, err
	}
	out := make([]float64, len(raw))
	for i, r := range raw {
		v, _, ok := peerNumber(r)
		if !ok {
			return nil, fmt.Errorf("bad order %s", r)
		}
		out[i] = v
	}
	return out, nil
}

type caseFields map[string]json.RawMessage

func (c caseFields) num(k string) float64 {
	v, _, ok := peerNumber(c[k])
	if !ok {
		return math.NaN()
	}
	return v
}

func (c caseFields) str(k string) string {
	var s string
	_ = json.Unmarshal(c[k], &s)
	return s
}

// sub returns the named sub-call of a peer key, or the scalar itself for
// sub == "".
func (c caseFields) sub(peer, sub string) (json.RawMessage, bool) {
	raw, ok := c[peer]
	if !ok {
		return nil, false
	}
	if sub == "" {
		return raw, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	r, ok := m[sub]
	return r, ok
}

const (
	dpKey     = "dp_accounting_0_6_0"
	autodpKey = "autodp_0_2_3_1"
)

// peerCall is one peer value of a case and the truth it is judged against:
// times the truth of the case's event at one order.
type peerCall struct {
	peer, key, sub string
	times          int64
	truth          func() (*big.Float, error)
}

func scaled(t *big.Float, k int64) *big.Float {
	if t == nil || k == 1 {
		return t
	}
	return new(big.Float).SetPrec(t.Prec()+64).Mul(t, new(big.Float).SetInt64(k))
}

func minBig(a, b *big.Float) *big.Float {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

// eventCalls lists the peer values of one case of events.json.
func eventCalls(c caseFields, ctx reference.Context, grid []float64) (inputs string, alpha float64, calls []peerCall, err error) {
	fn := c.str("function")
	alpha = c.num("alpha")
	count := int64(1)
	if _, ok := c["count"]; ok {
		count = int64(c.num("count"))
	}
	dpName := func(sub string) string { return "dp_accounting 0.6.0 (" + sub + ")" }
	adName := func(sub string) string {
		if sub == "" {
			return "autodp 0.2.3.1"
		}
		return "autodp 0.2.3.1 (" + sub + ")"
	}
	// std: the usual keys for an event with a "count" field.
	std := func(t func() (*big.Float, error), dpSubs []string, adSubs []string) {
		for _, s := range dpSubs {
			calls = append(calls, peerCall{dpName(s), dpKey, s, count, t})
		}
		if count == 1 {
			for _, s := range adSubs {
				calls = append(calls, peerCall{adName(s), autodpKey, s, 1, t})
			}
		}
	}
	switch fn {
	case "Laplace":
		b := c.num("b")
		inputs = fmt.Sprintf("b=%g", b)
		std(func() (*big.Float, error) { return ctx.Laplace(b, alpha) }, []string{"accountant", "helper"}, []string{"mechanism", "rdp_bank"})
	case "RandomizedResponse":
		p, k, rel := c.num("p"), c.num("k"), c.str("relation")
		inputs = fmt.Sprintf("p=%g k=%g %s", p, k, rel)
		t := func() (*big.Float, error) {
			r, ok := map[string]string{"replace_one": reference.ReplaceOne, "replace_special": reference.ReplaceSpecial}[rel]
			if !ok {
				return nil, nil
			}
			return ctx.KaryRandomizedResponse(p, k, r, alpha)
		}
		std(t, []string{"accountant", "helper"}, nil)
		if _, ok := c[autodpKey]; ok && count == 1 {
			pt := c.num("autodp_p_truth")
			calls = append(calls, peerCall{adName(""), autodpKey, "", 1, func() (*big.Float, error) { return ctx.RandomizedResponse(pt, alpha) }})
		}
	case "DiscreteGaussian":
		s, sens := c.num("sigma"), c.num("sensitivity")
		inputs = fmt.Sprintf("sigma=%g s=%g", s, sens)
		std(func() (*big.Float, error) { return ctx.DiscreteGaussian(s, sens, alpha) }, []string{""}, []string{""})
	case "TreeAggregation":
		s := c.num("sigma")
		var steps []int
		if err := json.Unmarshal(c["step_counts"], &steps); err != nil {
			var one int
			if err := json.Unmarshal(c["step_counts"], &one); err != nil {
				return "", 0, nil, err
			}
			steps = []int{one}
		}
		inputs = fmt.Sprintf("sigma=%g steps=%v", s, steps)
		std(func() (*big.Float, error) { return ctx.TreeAggregation(s, steps, reference.TreeOneTree, alpha) }, []string{"accountant", "helper"}, nil)
	case "ExponentialMechanism":
		e := c.num("epsilon")
		inputs = fmt.Sprintf("eps=%g", e)
		t := func() (*big.Float, error) { return ctx.ExponentialMechanism(e, alpha) }
		calls = append(calls, peerCall{dpName("count1"), dpKey, "count1", 1, t}, peerCall{dpName("count10"), dpKey, "count10", 10, t}, peerCall{dpName("selfcomposed10"), dpKey, "selfcomposed10", 10, t})
		ta := func() (*big.Float, error) {
			z, err := ctx.ZCDP(e*e/8, 0, alpha)
			if err != nil {
				return nil, err
			}
			p, err := ctx.PureDP(e, alpha)
			if err != nil {
				return nil, err
			}
			return minBig(z, p), nil
		}
		calls = append(calls, peerCall{adName("count1"), autodpKey, "count1", 1, ta}, peerCall{adName("count10"), autodpKey, "count10", 10, ta})
	case "PermuteAndFlip":
		e := c.num("epsilon")
		inputs = fmt.Sprintf("eps=%g", e)
		t := func() (*big.Float, error) { return ctx.Laplace(1/e, alpha) }
		calls = append(calls, peerCall{dpName("count1"), dpKey, "count1", 1, t}, peerCall{dpName("count10"), dpKey, "count10", 10, t})
	case "PureDP":
		e := c.num("epsilon")
		inputs = fmt.Sprintf("eps=%g", e)
		t := func() (*big.Float, error) { return ctx.PureDP(e, alpha) }
		calls = append(calls, peerCall{dpName("count1"), dpKey, "count1", 1, t}, peerCall{dpName("count10"), dpKey, "count10", 10, t},
			peerCall{adName("count1"), autodpKey, "count1", 1, t}, peerCall{adName("count10"), autodpKey, "count10", 10, t}, peerCall{adName("rdp_bank"), autodpKey, "rdp_bank", 1, t})
	case "ZCDP":
		rho, xi := c.num("rho"), c.num("xi")
		inputs = fmt.Sprintf("rho=%g xi=%g", rho, xi)
		std(func() (*big.Float, error) { return ctx.ZCDP(rho, xi, alpha) }, []string{""}, []string{""})
	case "RepeatAndSelect":
		s, mean, shape := c.num("sigma"), c.num("mean"), c.num("shape")
		inputs = fmt.Sprintf("sigma=%g mean=%g shape=%g", s, mean, shape)
		on := func(orders []float64) func() (*big.Float, error) {
			return func() (*big.Float, error) {
				rdp := make([]*big.Float, len(orders))
				for i, a := range orders {
					var err error
					if rdp[i], err = ctx.Gaussian(s, a); err != nil {
						return nil, err
					}
				}
				return ctx.RepeatAndSelect(orders, rdp, mean, shape, alpha)
			}
		}
		std(on([]float64{alpha}), []string{"accountant", "helper"}, nil)
		if count == 1 {
			calls = append(calls, peerCall{dpName("accountant_orders_grid"), dpKey, "accountant_orders_grid", 1, on(grid)})
		}
	default:
		return "", 0, nil, nil
	}
	return inputs, alpha, calls, nil
}

// judgeEvents judges every peer value of the events named in fns.
func judgeEvents(events []byte, prec uint, fns map[string]bool, calls func(caseFields, reference.Context, []float64) (string, float64, []peerCall, error)) ([]judged, error) {
	var file struct {
		Header map[string]json.RawMessage `json:"header"`
		Cases  []caseFields               `json:"cases"`
	}
	if err := json.Unmarshal(events, &file); err != nil {
		return nil, err
	}
	grid, err := eventOrders(file.Header)
	if err != nil {
		return nil, err
	}
	var cs []caseFields
	for _, c := range file.Cases {
		if fns[c.str("function")] {
			cs = append(cs, c)
		}
	}
	ctx := reference.Context{Prec: prec}
	out := make([][]judged, len(cs))
	errs := make([]error, len(cs))
	workers.Run(len(cs), func(i int) {
		c := cs[i]
		inputs, alpha, pcs, err := calls(c, ctx, grid)
		if err != nil {
			errs[i] = err
			return
		}
		// The truth is computed once per distinct function of a case.
		done := map[string]*big.Float{}
		for _, pc := range pcs {
			raw, ok := c.sub(pc.key, pc.sub)
			if !ok {
				continue
			}
			// The truth differs between the peers' keys and for the grid.
			tk := pc.key
			if pc.sub == "accountant_orders_grid" {
				tk += "/grid"
			}
			t, seen := done[tk]
			if !seen {
				t, err = pc.truth()
				if err != nil {
					// Outside the reference's domain: no truth.
					t = nil
				}
				done[tk] = t
			}
			j := judged{event: c.str("function"), peer: pc.peer, region: fmt.Sprintf("%s, count %d", orderRegion(alpha), pc.times), inputs: inputs, alpha: alpha, truth: scaled(t, pc.times)}
			classify(&j, raw)
			out[i] = append(out[i], j)
		}
	})
	var all []judged
	for i := range cs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		all = append(all, out[i]...)
	}
	return all, nil
}

// EventsFindings judges the peers' values for the events of events.json
// (all but WORGaussian and SampledLaplace) and the conversions of
// conversions.json against the reference at prec bits and returns the
// report.
func EventsFindings(events, conversions []byte, prec uint) ([]byte, error) {
	fns := map[string]bool{}
	for _, f := range eventOrder {
		fns[f] = true
	}
	js, err := judgeEvents(events, prec, fns, eventCalls)
	if err != nil {
		return nil, err
	}
	conv, err := judgeConversions(conversions, prec)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Peers on the other events and on conversions with an infinite order\n\n")
	fmt.Fprintf(&b, "Generated by `go run ./cmd/gen-vectors` (and `go test ./cmd/gen-vectors/internal/peerstudy -run TestEventsFindings -update`) from `peers/accountants/events.json` and `conversions.json` (see that folder's README for every call). The truth is package `reference` at %d bits. Classes: within 1e-12 of the truth; digits lost (over by at most 1e-6 relative); over-estimate (> 1e-6, safe but loose); under-estimate (unsafe: the peer claims less than the truth); non-finite (nan or inf for a finite truth); error (the peer raised on a valid input); refused (raised where the reference rejects the input too); no truth (a number printed where the reference rejects the input). A count-10 value is judged against 10 times the count-1 truth (RDP composes additively). Regions are order class and count.\n\n", prec)
	b.WriteString("## What each accountant gets wrong, by event\n\n")
	b.Write(summaryTable(js, conv))
	for _, ev := range eventOrder {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", ev, eventNotes[ev])
		var rows []judged
		for _, j := range js {
			if j.event == ev {
				rows = append(rows, j)
			}
		}
		peerTables(&b, rows)
		if ev == "DiscreteGaussian" {
			b.Write(dgExcess(rows))
		}
		if ev == "ExponentialMechanism" {
			b.Write(emCompare(rows))
		}
	}
	b.WriteString(conversionsSection(conv))
	return b.Bytes(), nil
}

// summaryPeers are the columns of the summary table: the peer names whose
// prefix matches.
var summaryPeers = []struct{ col, prefix string }{
	{"dp_accounting 0.6.0", "dp_accounting"},
	{"autodp 0.2.3.1", "autodp"},
}

// summaryTable is the table "what each accountant gets wrong, by event",
// one row per event and count, also copied into docs/findings.md.
func summaryTable(js []judged, conv []convJudged) []byte {
	var b bytes.Buffer
	b.WriteString("| event | count | ")
	for _, p := range summaryPeers {
		b.WriteString(p.col + " | ")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(summaryPeers)) + "\n")
	for _, ev := range eventOrder {
		for _, count := range []string{"count 1", "count 10"} {
			fmt.Fprintf(&b, "| %s | %s | ", ev, strings.TrimPrefix(count, "count "))
			for _, p := range summaryPeers {
				var rows []judged
				for _, j := range js {
					// The helper repeats the accountant (identical values
					// everywhere); the summary counts the accountant only.
					if j.event == ev && strings.HasPrefix(j.peer, p.prefix) && strings.HasSuffix(j.region, count) && !strings.Contains(j.peer, "(helper)") {
						rows = append(rows, j)
					}
				}
				b.WriteString(summaryCell(rows) + " | ")
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "| conversion, orders with +Inf | – | %s | – |\n", convSummary(conv, true))
	fmt.Fprintf(&b, "| conversion, finite orders | – | %s | – |\n\n", convSummary(conv, false))
	b.WriteString("Each cell counts the peer's values on the grid of `peers/accountants` (every sub-call of that peer but dp_accounting's `helper`, which equals its `accountant` everywhere) and names the worst; the sections below give them by region.\n\n")
	return b.Bytes()
}

// dgExcess measures how much the zCDP line exceeds the exact discrete
// Gaussian RDP, by sigma and order class.
func dgExcess(rows []judged) []byte {
	var b bytes.Buffer
	b.WriteString("How far the zCDP line alpha s^2/(2 sigma^2), which both peers print, lies above the exact discrete Gaussian RDP, over the grid's orders (the line evaluated exactly; relative excess (line - exact)/exact; 0 where the line is exact, at integer orders as Canonne, Kamath and Steinke prove; a negative entry would contradict their bound):\n\n| inputs | integer orders: max excess | fractional orders: max excess | at order |\n|---|---|---|---|\n")
	type agg struct {
		intMax, fracMax float64
		at              float64
	}
	m := map[string]*agg{}
	var keys []string
	for _, j := range rows {
		if j.peer != "dp_accounting 0.6.0 ()" || !strings.HasSuffix(j.region, "count 1") || j.truth == nil || math.IsInf(j.alpha, 0) {
			continue
		}
		a := m[j.inputs]
		if a == nil {
			a = &agg{}
			m[j.inputs] = a
			keys = append(keys, j.inputs)
		}
		// The line alpha s^2/(2 sigma^2), exact at 256 bits (not the
		// peer's float64 value, whose rounding would hide small excesses).
		var sigma, sens float64
		fmt.Sscanf(j.inputs, "sigma=%g s=%g", &sigma, &sens)
		f := func(x float64) *big.Float { return new(big.Float).SetPrec(256).SetFloat64(x) }
		line := f(j.alpha)
		line.Mul(line, f(sens)).Mul(line, f(sens)).Quo(line, f(2)).Quo(line, f(sigma)).Quo(line, f(sigma))
		rel, _ := line.Sub(line, j.truth).Quo(line, j.truth).Float64()
		if j.alpha == math.Trunc(j.alpha) {
			a.intMax = math.Max(a.intMax, rel)
		} else if rel > a.fracMax {
			a.fracMax, a.at = rel, j.alpha
		}
	}
	for _, k := range keys {
		a := m[k]
		fmt.Fprintf(&b, "| %s | %.3g | %.3g | %g |\n", k, a.intMax, a.fracMax, a.at)
	}
	b.WriteString("\n")
	return b.Bytes()
}

// emCompare sets the two peers' exponential-mechanism bounds side by side,
// each evaluated exactly by package reference: dp_accounting's
// min(xi + eps^2 alpha/8, eps) and autodp's min(alpha eps^2/8, PureDP).
func emCompare(rows []judged) []byte {
	type pair struct{ dp, ad *big.Float }
	at := map[string]*pair{}
	var keys []string
	for _, j := range rows {
		if j.truth == nil || !strings.HasSuffix(j.region, "count 1") {
			continue
		}
		k := j.inputs + " alpha=" + fmtAlpha(j.alpha)
		p := at[k]
		if p == nil {
			p = &pair{}
			at[k] = p
			keys = append(keys, k)
		}
		switch j.peer {
		case "dp_accounting 0.6.0 (count1)":
			p.dp = j.truth
		case "autodp 0.2.3.1 (count1)":
			p.ad = j.truth
		}
	}
	type agg struct {
		dpSmaller, equal, adSmaller int
		most                        float64 // largest (autodp - dp)/dp
		mostAt                      string
		least                       float64
		leastAt                     string
	}
	byEps := map[string]*agg{}
	var epss []string
	for _, k := range keys {
		p := at[k]
		if p.dp == nil || p.ad == nil || p.dp.Sign() == 0 || p.dp.IsInf() {
			continue
		}
		e := k[:strings.Index(k, " ")]
		a := byEps[e]
		if a == nil {
			a = &agg{most: math.Inf(-1), least: math.Inf(1)}
			byEps[e] = a
			epss = append(epss, e)
		}
		r, _ := new(big.Float).Quo(new(big.Float).Sub(p.ad, p.dp), p.dp).Float64()
		switch {
		case math.Abs(r) <= 1e-15:
			a.equal++
		case r > 0:
			a.dpSmaller++
		default:
			a.adSmaller++
		}
		if r > a.most {
			a.most, a.mostAt = r, k[strings.Index(k, " ")+1:]
		}
		if r < a.least {
			a.least, a.leastAt = r, k[strings.Index(k, " ")+1:]
		}
	}
	var b bytes.Buffer
	b.WriteString("Which of the two bounds is smaller, both evaluated exactly (package reference), over the grid's orders (alpha = inf included, where both are eps): autodp's excess is (autodp's - dp_accounting's)/dp_accounting's, dp_accounting's the reverse.\n\n| eps | dp_accounting's smaller | equal (1e-15) | autodp's smaller | largest excess of autodp's | at | largest excess of dp_accounting's | at |\n|---|---|---|---|---|---|---|---|\n")
	for _, e := range epss {
		a := byEps[e]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.3g | %s | %.3g | %s |\n", strings.TrimPrefix(e, "eps="), a.dpSmaller, a.equal, a.adSmaller, a.most, a.mostAt, -a.least/(1+a.least), a.leastAt)
	}
	b.WriteString("\n")
	return b.Bytes()
}
