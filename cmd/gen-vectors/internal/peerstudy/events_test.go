package peerstudy

import (
	"bytes"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// findingsCheck recomputes a report and requires it equal to the committed
// file (-update rewrites it).
func findingsCheck(t *testing.T, name string, make func() ([]byte, error)) []byte {
	t.Helper()
	got, err := make()
	if err != nil {
		t.Fatal(err)
	}
	path := vectorsDir + name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./cmd/gen-vectors/internal/peerstudy -run 'TestEventsFindings|TestSampledFindings' -update", name)
	}
	return got
}

func readPeers(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(root + "peers/accountants/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEventsFindings recomputes vectors/events_FINDINGS.md and requires the
// table "What each accountant gets wrong, by event" of docs/findings.md to
// be the report's, verbatim.
func TestEventsFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("reference values for about 4000 peer values")
	}
	events, conv := readPeers(t, "events.json"), readPeers(t, "conversions.json")
	got := findingsCheck(t, EventsFindingsName, func() ([]byte, error) { return EventsFindings(events, conv, 128) })
	table := summaryOf(got)
	page, err := os.ReadFile(root + findingsPage)
	if err != nil {
		t.Fatal(err)
	}
	if table == "" || !strings.Contains(string(page), table) {
		t.Errorf("%s does not hold the table of %s verbatim", findingsPage, EventsFindingsName)
	}
}

// summaryOf returns the table under "## What each accountant gets wrong,
// by event" of the report.
func summaryOf(report []byte) string {
	s := string(report)
	i := strings.Index(s, "| event | count |")
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], "\n\n")
	return s[i : i+j+1]
}

// findingsPage is the docs page that shows the findings' summary tables
// (from the repository's root).
const findingsPage = "docs/findings.md"

// TestSampledFindings recomputes vectors/sampled_FINDINGS.md and requires
// its summary table in docs/findings.md, verbatim.
func TestSampledFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("400 reference values of the sampled Laplace mechanism up to order 1024")
	}
	events := readPeers(t, "events.json")
	got := findingsCheck(t, SampledFindingsName, func() ([]byte, error) { return SampledFindings(events, 128) })
	s := string(got)
	i := strings.Index(s, "| peer | against the exact RDP |")
	if i < 0 {
		t.Fatal("no summary table")
	}
	table := s[i : i+strings.Index(s[i:], "\n\n")+1]
	page, err := os.ReadFile(root + findingsPage)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), table) {
		t.Errorf("%s does not hold the summary table of %s verbatim", findingsPage, SampledFindingsName)
	}
}

// TestClassify: each class from a constructed value, so a wrong threshold
// or sign fails.
func TestClassify(t *testing.T) {
	one := bigOf(1)
	for _, c := range []struct {
		raw   string
		truth *bigF
		want  string
	}{
		{`1`, one, "within 1e-12"},
		{`1.0000001`, one, "digits lost (over, <= 1e-6)"},
		{`1.1`, one, "over-estimate (> 1e-6)"},
		{`0.999999`, one, "under-estimate (unsafe)"},
		{`"nan"`, one, "non-finite"},
		{`"error: ValueError: x"`, one, "error"},
		{`"error: ValueError: x"`, nil, "refused"},
		{`0`, nil, "no truth"},
		{`5`, bigInf(), "under-estimate (unsafe)"},
		{`"inf"`, bigInf(), "within 1e-12"},
		{`0.5`, bigOf(0), "over-estimate (> 1e-6)"},
	} {
		j := judged{truth: c.truth}
		classify(&j, []byte(c.raw))
		if j.class != c.want {
			t.Errorf("classify(%s, %v) = %q, want %q", c.raw, c.truth, j.class, c.want)
		}
	}
}

type bigF = big.Float

func bigOf(x float64) *big.Float { return new(big.Float).SetFloat64(x) }
func bigInf() *big.Float         { return new(big.Float).SetInf(false) }

// TestWorstKeepsSize: among under-estimates the larger one is the worst,
// however small both are (a sum with 1e300 once lost the difference).
func TestWorstKeepsSize(t *testing.T) {
	rows := []judged{
		{inputs: "small", class: "under-estimate (unsafe)", rel: -2e-11},
		{inputs: "large", class: "under-estimate (unsafe)", rel: -1.9e-3},
		{inputs: "over", class: "over-estimate (> 1e-6)", rel: 15},
		{inputs: "nan", class: "non-finite"},
	}
	if _, w := tally(rows); w == nil || w.inputs != "large" {
		t.Errorf("worst = %+v, want the -1.9e-3 under-estimate", w)
	}
	if _, w := tally(rows[2:]); w == nil || w.inputs != "nan" {
		t.Errorf("worst = %+v, want the non-finite value", w)
	}
}

// TestFindingsTruthSpotChecks: the truth behind two findings, against
// mpmath at 40 digits, computed independently of package reference:
//
//	from mpmath import mp, mpf, exp, log; mp.dps = 40
//	lap = lambda b, a: log(a/(2*a-1)*exp((a-1)/b) + (a-1)/(2*a-1)*exp(-a/b))/(a-1)
//	lap(mpf(100), mpf(1.000000001)); lap(mpf(10000), mpf(1.000001))
//
// (autodp prints 4.973699728853174e-05 for the first, 0.19% low;
// dp_accounting 4.999838337321977e-09 for the second, 2.25e-12 low.)
func TestFindingsTruthSpotChecks(t *testing.T) {
	for _, c := range []struct {
		b, alpha float64
		want     string
	}{
		{100, 1.000000001, "0.00004983374921788650050010426408421143344085"},
		{10000, 1.000001, "0.000000004999838337333245423969362914725894932587"},
	} {
		got, err := reference.Context{Prec: 128}.Laplace(c.b, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := big.ParseFloat(c.want, 10, 200, big.ToNearestEven)
		d := new(big.Float).Sub(got, want)
		d.Quo(d, want)
		if r, _ := d.Float64(); math.Abs(r) > 1e-20 { // mpmath at 40 digits loses up to 15 to cancellation near alpha = 1
			t.Errorf("Laplace(%g, %g) = %s, mpmath %s (rel %g)", c.b, c.alpha, got.Text('g', 30), c.want, r)
		}
	}
}
