package peerstudy

// vectors/pld_FINDINGS.md: what the PLD, PRV, GDP and RDP accountants of
// peers/pld/profile.json print for the optimal (eps, delta) of DP-SGD runs,
// graded against package pld's certified intervals (peers/pld/certified.json).
// Generated, deterministic; reads the cache, computes nothing with pld.

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// PLDFindingsName is the report, relative to vectors/.
const PLDFindingsName = "pld_FINDINGS.md"

// pldMethod is a method of profile.json and what its peer says it returns.
type pldMethod struct{ name, peer, claim string }

var pldMethods = []pldMethod{
	{"dp_accounting_pld_pessimistic_0.0001", "dp_accounting 0.6.0", "upper bound (docstring: an eps for which the mechanism is (eps, delta)-DP)"},
	{"dp_accounting_pld_pessimistic_1e-05", "dp_accounting 0.6.0", "upper bound (as above, finer grid)"},
	{"dp_accounting_pld_optimistic_0.0001", "dp_accounting 0.6.0", "none (optimistic rounding, Privacy Buckets)"},
	{"dp_accounting_rdp", "dp_accounting 0.6.0", "none stated (RDP conversion, an upper bound in theory)"},
	{"opacus_gdp_poisson", "Opacus 1.5.4", "none (CLT; warns it \"can underestimate privacy expenditure\")"},
	{"opacus_gdp_poisson_via_step", "Opacus 1.5.4", "none (CLT)"},
	{"opacus_prv", "Opacus 1.5.4", "upper bound (\"return upper bound as we want guarantee\"; remove direction only)"},
	{"opacus_prv_lower", "Opacus 1.5.4", "lower"},
	{"opacus_prv_estimate", "Opacus 1.5.4", "estimate"},
	{"opacus_rdp", "Opacus 1.5.4", "none stated (RDP conversion, an upper bound in theory)"},
	{"prv_accountant_lower", "prv_accountant 0.2.0", "lower"},
	{"prv_accountant_estimate", "prv_accountant 0.2.0", "estimate"},
	{"prv_accountant_upper", "prv_accountant 0.2.0", "upper bound (remove direction only)"},
}

const (
	gUnsound   = "unsound"
	gExact     = "exact"
	gLoose     = "loose"
	gPeerError = "peer error"
	gNoCert    = "not certified"
	gNaN       = "nan"
)

// pldGraded is one peer answer against the certified interval.
type pldGraded struct {
	rec      pldRecord
	v        float64
	lo, hi   float64
	grade    string
	short    float64 // unsound: (lo - v)/lo, NaN when lo <= 0
	slack    float64 // loose: v/hi - 1
	certNote string
}

func gradePLD(recs []pldRecord, cert *PLDCertified) ([]pldGraded, error) {
	var out []pldGraded
	for _, r := range recs {
		g := pldGraded{rec: r, short: math.NaN(), slack: math.NaN()}
		e := cert.Lookup(r.Run, r.Query)
		if e == nil {
			return nil, fmt.Errorf("%s has no entry for %v %s", PLDCertifiedName, r.Run, r.Query)
		}
		g.lo, g.hi = float64(e.Lo), float64(e.Hi)
		switch {
		case r.Error != nil:
			g.grade = gPeerError
		case e.Error != "":
			g.grade, g.certNote = gNoCert, e.Error
		default:
			v, err := parseValue(r.Value)
			if err != nil {
				return nil, fmt.Errorf("%s %v %s: %w", r.Method, r.Run, r.Query, err)
			}
			g.v = v
			switch {
			case math.IsNaN(v):
				g.grade = gNaN
			case v < g.lo:
				g.grade = gUnsound
				if g.lo > 0 {
					g.short = (g.lo - v) / g.lo
				}
			case v <= g.hi:
				g.grade = gExact
			default:
				g.grade = gLoose
				g.slack = v/g.hi - 1
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// fmtRun writes a run as (q, sigma, T) per phase, joined by " then ".
func fmtRun(run [][3]float64) string {
	var ps []string
	for _, p := range run {
		q := strconv.FormatFloat(p[0], 'g', 6, 64)
		if p[0] == 256.0/60000 {
			q = "256/60000"
		} else if p[0] == 512.0/60000 {
			q = "512/60000"
		}
		ps = append(ps, fmt.Sprintf("(%s, %g, %g)", q, p[1], p[2]))
	}
	return strings.Join(ps, " then ")
}

func g4(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func pct(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	if math.IsNaN(x) {
		return "–"
	}
	if math.Abs(x) >= 10 {
		return strconv.FormatFloat(100*x, 'g', 3, 64) + "%"
	}
	return strconv.FormatFloat(100*x, 'f', 2, 64) + "%"
}

// worseUnsound orders unsound answers: larger relative shortfall first;
// those below a floor of 0 (no relative size) after, by value ascending.
func worseUnsound(a, b pldGraded) bool {
	an, bn := math.IsNaN(a.short), math.IsNaN(b.short)
	if an != bn {
		return !an
	}
	if !an && a.short != b.short {
		return a.short > b.short
	}
	return a.v < b.v
}

// confirmWithoutPLD says whether the single-event bounds of pldevent.go
// show the unsound answer g below the truth without package pld.
func confirmWithoutPLD(g pldGraded) string {
	if g.v < 0 {
		return "confirmed without the PLD: below 0"
	}
	var lb float64
	var what, name string
	if q := g.rec.Query; q.Delta != nil {
		lb, what = maxEventEpsilon(g.rec.Run, *q.Delta)
		name = "eps"
	} else {
		lb, what = maxEventDelta(g.rec.Run, *q.Eps)
		name = "delta"
	}
	if lb > g.v {
		return fmt.Sprintf("confirmed without the PLD: the event (%s) alone gives %s >= %s", what, name, g6(lb))
	}
	return fmt.Sprintf("rests on the PLD certificate (the best single event gives %s >= %s)", name, g6(lb))
}

func describeUnsound(g pldGraded) string {
	s := fmt.Sprintf("%s, %s: %s < Lo %s", fmtRun(g.rec.Run), g.rec.Query, g6(g.v), g6(g.lo))
	if !math.IsNaN(g.short) {
		s += fmt.Sprintf(" (%s below)", pct(g.short))
	}
	return s
}

// PLDFindings grades the peers' values in profile against cert and returns
// the report.
func PLDFindings(profile []byte, cert *PLDCertified) ([]byte, error) {
	recs, err := readPLDProfile(profile)
	if err != nil {
		return nil, err
	}
	gs, err := gradePLD(recs, cert)
	if err != nil {
		return nil, err
	}
	byMethod := map[string][]pldGraded{}
	for _, g := range gs {
		byMethod[g.rec.Method] = append(byMethod[g.rec.Method], g)
	}
	for m := range byMethod {
		known := false
		for _, pm := range pldMethods {
			known = known || pm.name == m
		}
		if !known {
			return nil, fmt.Errorf("profile.json: method %q not described", m)
		}
	}
	runs, queries := pldRuns(recs), pldQueries(recs)

	var b bytes.Buffer
	b.WriteString("# The floor under every accountant: PLD, PRV, GDP and RDP peers against certified intervals\n\n")
	fmt.Fprintf(&b, "Generated by `go test ./cmd/gen-vectors/internal/peerstudy -run TestPLDFindings -update` from `peers/pld/profile.json` (%d records: %d runs of the Poisson-subsampled Gaussian, add/remove, %d queries each; peers, commits, calls and environment in `peers/pld/README.md`) and the certified intervals of `%s` (rewritten by `%s`).\n\n", len(recs), len(runs), len(queries), PLDCertifiedName, PLDCertifiedCommand)
	fmt.Fprintf(&b, "The intervals: package `pld` at commit %s (HEAD %s when written%s), one certified interval per fixed grid spacing h in {%s} (`pld.Options{H: h}`), and their intersection, which holds the optimal eps(delta) or delta(eps) because each does. Computing the %d intervals took %g s wall with %d workers (`%s`). A peer's value below Lo reports less privacy loss than the run provably spends (**unsound**); within [Lo, Hi] it is **exact** to the certificate; above Hi it is a valid bound, **loose** by at least value/Hi - 1 (the true slack is between that and value/Lo - 1). Values and bounds are compared as the float64 numbers they are.\n\n",
		short(cert.PLDCommit), short(cert.Head), map[bool]string{true: ", pld/ modified", false: ""}[cert.PLDDirty],
		hList(cert), len(cert.Entries), cert.Seconds, cert.Workers, cert.Command)

	// Certificate widths.
	b.WriteString("## The certificates\n\n| query | intervals | Hi/Lo - 1 <= 1e-3 | <= 1e-2 | wider | Lo = 0 (no floor) | not certified |\n|---|---:|---:|---:|---:|---:|---:|\n")
	var notCert []PLDCertEntry
	for _, q := range queries {
		var n, w3, w2, wide, lo0, nc int
		for _, r := range runs {
			e := cert.Lookup(r, q)
			if e == nil {
				continue
			}
			n++
			switch {
			case e.Error != "":
				nc++
				notCert = append(notCert, *e)
			case e.Lo <= 0:
				lo0++
			case float64(e.Hi)/float64(e.Lo)-1 <= 1e-3:
				w3++
			case float64(e.Hi)/float64(e.Lo)-1 <= 1e-2:
				w2++
			default:
				wide++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", q, n, w3, w2, wide, lo0, nc)
	}
	b.WriteString("\nWhere Lo = 0 the floor says nothing (every non-negative value passes it); where the interval is wide, few answers can be called exact and the slacks below are lower bounds.\n\n")
	if len(notCert) > 0 {
		b.WriteString("Not certified (no answer graded on these):\n\n")
		for _, e := range notCert {
			fmt.Fprintf(&b, "- %s, %s: %s\n", fmtRun(e.Run), e.Query, e.Error)
		}
		b.WriteString("\n")
	}

	// Per method.
	b.WriteString("## Each method against the certified interval\n\n")
	b.WriteString("Counts over all 8 queries; the slack and the worst cases are split by query kind, since a delta near 1e-15 printed where the optimal delta is 1e-26 is a huge relative slack of no practical weight.\n\n")
	b.WriteString("| method | peer | what the peer says it returns | graded | unsound | exact | loose | median slack of loose eps | not graded | worst unsound eps (run, query: value < Lo) | worst unsound delta |\n|---|---|---|---:|---:|---:|---:|---:|---|---|---|\n")
	var belowFloor []string
	for _, pm := range pldMethods {
		rows := byMethod[pm.name]
		if len(rows) == 0 {
			continue
		}
		cnt := map[string]int{}
		var worstE, worstD *pldGraded
		var slacks []float64
		for i := range rows {
			g := rows[i]
			cnt[g.grade]++
			isEps := g.rec.Query.Delta != nil
			if g.grade == gUnsound {
				if isEps && (worstE == nil || worseUnsound(g, *worstE)) {
					worstE = &rows[i]
				}
				if !isEps && (worstD == nil || worseUnsound(g, *worstD)) {
					worstD = &rows[i]
				}
			}
			if g.grade == gLoose && isEps {
				slacks = append(slacks, g.slack)
			}
		}
		graded := cnt[gUnsound] + cnt[gExact] + cnt[gLoose]
		var ng []string
		for _, k := range []string{gPeerError, gNoCert, gNaN} {
			if cnt[k] > 0 {
				ng = append(ng, fmt.Sprintf("%d %s", cnt[k], k))
			}
		}
		we, wd := "–", "–"
		if worstE != nil {
			we = describeUnsound(*worstE)
		}
		if worstD != nil {
			wd = describeUnsound(*worstD)
		}
		if cnt[gUnsound] > 0 {
			belowFloor = append(belowFloor, fmt.Sprintf("%s (%d of %d)", pm.name, cnt[gUnsound], graded))
		}
		med := "–"
		if len(slacks) > 0 {
			sort.Float64s(slacks)
			med = pct(slacks[len(slacks)/2])
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d | %d | %d | %d | %s | %s | %s | %s |\n", pm.name, pm.peer, pm.claim, graded, cnt[gUnsound], cnt[gExact], cnt[gLoose], med, orDash(strings.Join(ng, ", ")), we, wd)
	}
	b.WriteString("\n")
	if len(belowFloor) > 0 {
		fmt.Fprintf(&b, "Below the floor somewhere: %s.\n\n", strings.Join(belowFloor, ", "))
	}

	b.WriteString("Two things to read with these counts. Opacus's PRV and prv_accountant account the remove direction only (`peers/pld/README.md`), while the interval is the larger of both directions' profiles; none of their upper values falls below it here. The `_lower`, `_estimate` and optimistic outputs are not offered as guarantees by their peers; they are graded all the same, because a user can print them.\n\n")
	b.WriteString("## The picture\n\n")
	fmt.Fprintf(&b, "![Each method's eps at delta = 1e-5 over the certified lower bound, against the run's steps](%s)\n\n", PLDSlackName)
	rdpLo, rdpHi := slackRange(gs, "dp_accounting_rdp")
	pldLo, pldHi := slackRange(gs, "dp_accounting_pld_pessimistic_0.0001")
	gdpLo, _ := slackRange(gs, "opacus_gdp_poisson")
	fmt.Fprintf(&b, "Each mark is one run's eps at delta = 1e-5 divided by the certified lower bound Lo on the optimal eps (runs with Lo = 0 or an interval wider than 1%% left out). At 1 (dashed) an answer meets the floor; below it the answer is unsound; the height above it is at least the method's over-statement and at most that plus the interval's width. Here RDP's eps is %s to %s times Lo, furthest above it at a few steps; dp_accounting's pessimistic PLD %s to %s times; the central-limit GDP goes down to %s times Lo. Drawn by `go test ./cmd/gen-vectors/internal/peerstudy -run TestPLDFindings -update`.\n\n", g4(rdpLo), g4(rdpHi), g4(pldLo), g4(pldHi), g4(gdpLo))
	// Unsound answers of methods offered as upper bounds, all of them.
	b.WriteString("## Unsound answers of the methods offered as upper bounds\n\n")
	b.WriteString("Every answer below Lo of the methods whose peer says they return an upper bound (dp_accounting's pessimistic PLD, Opacus's `get_epsilon` of PRV, prv_accountant's upper) and of the RDP conversions. Each is checked a second way that shares no code with package `pld`: a negative value is below the floor 0 of every profile; otherwise the single events {some step's output above c} (remove direction) and {some output below -c} (add direction), whose probabilities are normal tails in closed form, give delta(eps) >= P(S) - e^eps Q(S) (and eps(delta) >= log((P(S) - delta)/Q(S))) for c on a grid of 0.05 up to 20, with 1e-12 relative taken off each probability for rounding (`cmd/gen-vectors/internal/peerstudy/pldevent.go`). Where one event alone exceeds the peer's value, the finding does not rest on the PLD.\n\n")
	anyU := false
	for _, pm := range pldMethods {
		if !strings.HasPrefix(pm.claim, "upper") && !strings.HasSuffix(pm.name, "_rdp") {
			continue
		}
		var us []pldGraded
		for _, g := range byMethod[pm.name] {
			if g.grade == gUnsound {
				us = append(us, g)
			}
		}
		sort.SliceStable(us, func(i, j int) bool { return worseUnsound(us[i], us[j]) })
		for _, g := range us {
			anyU = true
			fmt.Fprintf(&b, "- `%s`: %s; %s\n", pm.name, describeUnsound(g), confirmWithoutPLD(g))
		}
	}
	if !anyU {
		b.WriteString("None.\n")
	}
	b.WriteString("\n")

	// GDP at delta = 1e-5.
	d5 := pldQuery{Delta: ptr(1e-5)}
	b.WriteString("## Opacus GDP: eps at delta = 1e-5\n\n")
	b.WriteString("`opacus_gdp_poisson` (the central-limit mu of the whole run; on two phases it reads only the last phase), against the certified interval; below = (Lo - value)/Lo.\n\n| run (q, sigma, steps) | GDP eps | Lo | Hi | grade | below the floor by |\n|---|---:|---:|---:|---|---:|\n")
	for _, g := range byMethod["opacus_gdp_poisson"] {
		if g.rec.Query.String() != d5.String() {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", fmtRun(g.rec.Run), g6(g.v), g6(g.lo), g6(g.hi), g.grade, pct(g.short))
	}
	b.WriteString("\n")

	// RDP slack at delta = 1e-5.
	b.WriteString("## RDP's slack: eps at delta = 1e-5\n\n")
	b.WriteString("`dp_accounting_rdp` (its 156 orders, best order as it reports) and `opacus_rdp` (151 orders up to 63) against the certified interval. The slack is value/Hi - 1, a lower bound on how far the RDP eps sits above the optimal eps; value/Lo - 1 is an upper bound on it.\n\n| run (q, sigma, steps) | Lo | Hi | dp_accounting RDP eps | order | slack >= | slack <= | Opacus RDP eps | slack >= |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	opRDP := map[string]pldGraded{}
	for _, g := range byMethod["opacus_rdp"] {
		opRDP[fmt.Sprint(g.rec.Run, g.rec.Query)] = g
	}
	var rdpSlack []float64
	for _, g := range byMethod["dp_accounting_rdp"] {
		if g.rec.Query.String() != d5.String() {
			continue
		}
		order := "–"
		if o, ok := orderOf(g.rec); ok {
			order = o
		}
		lower, upper := "–", "–"
		if g.grade != gNoCert && g.grade != gPeerError {
			lower = pct(g.v/g.hi - 1)
			if g.grade != gLoose {
				lower = g.grade
			}
			if g.lo > 0 {
				upper = pct(g.v/g.lo - 1)
			} else {
				upper = "+Inf"
			}
			if g.grade == gLoose {
				rdpSlack = append(rdpSlack, g.slack)
			}
		}
		o := opRDP[fmt.Sprint(g.rec.Run, g.rec.Query)]
		ov, os := "–", "–"
		if o.rec.Method != "" && o.grade != gPeerError && o.grade != gNoCert {
			ov, os = g6(o.v), pct(o.v/o.hi-1)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", fmtRun(g.rec.Run), g6(g.lo), g6(g.hi), g6(g.v), order, lower, upper, ov, os)
	}
	if len(rdpSlack) > 0 {
		sort.Float64s(rdpSlack)
		fmt.Fprintf(&b, "\ndp_accounting RDP's slack at delta = 1e-5 (lower bounds, over the %d runs where its value is above Hi): median %s, from %s to %s.\n", len(rdpSlack), pct(rdpSlack[len(rdpSlack)/2]), pct(rdpSlack[0]), pct(rdpSlack[len(rdpSlack)-1]))
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func ptr(x float64) *float64 { return &x }

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func hList(c *PLDCertified) string {
	var s []string
	for _, o := range c.Options {
		s = append(s, "2^"+strconv.Itoa(int(math.Round(math.Log2(o.H)))))
	}
	return strings.Join(s, ", ")
}

// orderOf returns the RDP order the record reports, from the raw profile.
func orderOf(r pldRecord) (string, bool) {
	if r.Order == nil {
		return "", false
	}
	v, err := parseValue(r.Order)
	if err != nil {
		return "", false
	}
	return strconv.FormatFloat(v, 'g', 4, 64), true
}
