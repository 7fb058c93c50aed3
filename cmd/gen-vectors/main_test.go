package main

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// timeZero is a start time for checks that are not timed.
var timeZero = time.Now()

func runGen(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// casesInput covers every kind of -cases line: RDP at a number and at
// "inf", an epsilon case, inputs the reference rejects, malformed lines, a
// blank line (skipped) and a line that is not an object.
const casesInput = `{"q": 0.01, "sigma": 1.1, "alpha": 8}
{"q": 1, "sigma": 1.1, "alpha": 2}
{"q": 0.01, "sigma": 1, "alpha": "inf"}

{"kind": "epsilon", "q": 0.004266666666666667, "sigma": 1.1, "steps": 14063, "delta": 1e-5, "orders": [2, 4, 8, 8.1, 16, 32]}
{"q": 1.5, "sigma": 1, "alpha": 2}
{"q": 0.01, "sigma": 1, "alpha": "many"}
{"q": 0.01, "sigma": 1}
{"kind": "delta", "q": 0.01, "sigma": 1}
{"q": 0.01, "sigma": 1, "alpha": 2, "extra": 1}
[1, 2]
`

// TestCases pins -cases' output format: one line per non-blank input line,
// in order, the input echoed byte for byte and the answer's fields added;
// the values are those of package reference (50 significant digits) and
// package fast at the same inputs.
func TestCases(t *testing.T) {
	code, out, errOut := runGen(t, casesInput, "-cases", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var inputs []string
	for _, l := range strings.Split(casesInput, "\n") {
		if strings.TrimSpace(l) != "" {
			inputs = append(inputs, l)
		}
	}
	if len(lines) != len(inputs) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(lines), len(inputs), out)
	}
	ref := func(q, sigma, alpha float64) string {
		v, err := reference.SGM(q, sigma, alpha)
		if err != nil {
			t.Fatal(err)
		}
		return decimal(v)
	}
	fastOf := func(q, sigma, alpha float64) float64 {
		v, err := fast.SGM(q, sigma, alpha)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	type answer struct {
		Reference, Error, Epsilon string
		Fast, Order, EpsFast      any
	}
	parse := func(i int) (answer, map[string]json.RawMessage) {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(lines[i]), &raw); err != nil {
			t.Fatalf("line %d %q: %v", i+1, lines[i], err)
		}
		var a answer
		json.Unmarshal(raw["reference"], &a.Reference)
		json.Unmarshal(raw["error"], &a.Error)
		json.Unmarshal(raw["epsilon_reference"], &a.Epsilon)
		json.Unmarshal(raw["fast"], &a.Fast)
		json.Unmarshal(raw["order"], &a.Order)
		json.Unmarshal(raw["epsilon_fast"], &a.EpsFast)
		return a, raw
	}
	for i := 0; i < len(inputs)-1; i++ { // the last input is not an object
		in := strings.TrimSpace(inputs[i])
		if !strings.HasPrefix(lines[i], strings.TrimSuffix(in, "}")) {
			t.Errorf("line %d does not echo its input %q: %q", i+1, in, lines[i])
		}
	}
	if a, _ := parse(0); a.Reference != ref(0.01, 1.1, 8) || a.Fast != fastOf(0.01, 1.1, 8) {
		t.Errorf("line 1: %+v, want reference %s fast %v", a, ref(0.01, 1.1, 8), fastOf(0.01, 1.1, 8))
	}
	// q = 1: alpha / (2 sigma^2) for the double nearest 1.1, in exact
	// rational arithmetic (Python: Fraction(2) / (2 * Fraction(1.1)**2),
	// printed with decimal at 60 digits): 0.82644628099173540372976413221260334080184621703930027762...;
	// -cases writes 50 significant digits in %g form, which drops the
	// trailing zero.
	if a, _ := parse(1); a.Reference != "0.8264462809917354037297641322126033408018462170393" {
		t.Errorf("line 2: reference %s, want 0.8264462809917354037297641322126033408018462170393", a.Reference)
	}
	if a, _ := parse(2); a.Reference != "inf" || a.Fast != "inf" {
		t.Errorf("line 3: %+v, want inf and inf", a)
	}
	orders := []float64{2, 4, 8, 8.1, 16, 32}
	rdp, _ := reference.SGMCurve(0.004266666666666667, 1.1, 14063, orders)
	eps, order, _ := reference.Epsilon(orders, rdp, 1e-5, reference.Improved)
	if a, raw := parse(3); a.Epsilon != decimal(eps) || a.Order != order || raw["epsilon_fast"] == nil || raw["order_fast"] == nil {
		t.Errorf("line 4: %s, want epsilon_reference %s at order %v and fast fields", lines[3], decimal(eps), order)
	}
	for i, want := range map[int]string{4: "q", 5: "many", 6: `"alpha" is required`, 7: "unknown kind", 8: "bad input line", 9: "bad input line"} {
		if a, _ := parse(i); !strings.Contains(a.Error, want) {
			t.Errorf("line %d: error %q, want it to mention %q", i+1, a.Error, want)
		}
	}
	if !strings.HasPrefix(lines[9], `{"input":"[1, 2]"`) {
		t.Errorf("a non-object line is not wrapped: %s", lines[9])
	}
}

// TestCasesVectors: -format vectors writes the same points as a vector file
// that passes the lint, with the same values as -cases' JSON lines.
func TestCasesVectors(t *testing.T) {
	in := `{"q": 0.01, "sigma": 1.1, "alpha": 8}
{"q": 1.5, "sigma": 1, "alpha": 2}
{"kind": "epsilon", "q": 0.01, "sigma": 2, "steps": 100, "delta": 1e-5, "orders": [2, 4, 8, "inf"]}
{"kind": "epsilon", "q": 0.01, "sigma": 2, "steps": 0, "delta": 1e-5, "orders": [2, 4]}
`
	code, out, errOut := runGen(t, in, "-cases", "-", "-format", "vectors")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errs := schema.Lint([]byte(out)); len(errs) > 0 {
		t.Fatalf("not a valid vector file: %v", errs)
	}
	f, _ := schema.Parse([]byte(out))
	if len(f.TestGroups) != 2 || f.NumberOfTests != 4 {
		t.Fatalf("groups %d, tests %d; want 2 and 4", len(f.TestGroups), f.NumberOfTests)
	}
	rdp := f.TestGroups[0].Tests
	v, _ := reference.SGM(0.01, 1.1, 8)
	if rdp[0].Expected != schema.Exact(v) || rdp[0].Result != schema.Valid || rdp[1].Result != schema.Invalid {
		t.Errorf("rdp tests: %+v %+v", rdp[0], rdp[1])
	}
	eps := f.TestGroups[1].Tests
	if eps[0].Result != schema.Valid || eps[0].ExpectedOrder == "" || eps[1].Result != schema.Invalid || !eps[1].HasFlag("BadSteps") {
		t.Errorf("epsilon tests: %+v %+v", eps[0], eps[1])
	}
	// A malformed line is an error, not a test.
	if code, _, errOut := runGen(t, "{\"q\": 1}\n", "-cases", "-", "-format", "vectors"); code != 1 || !strings.Contains(errOut, "line 1") {
		t.Errorf("malformed line: exit %d, %s", code, errOut)
	}
	if code, _, _ := runGen(t, "", "-cases", "-", "-format", "xml"); code != 2 {
		t.Errorf("-format xml: exit %d, want 2", code)
	}
	if code, _, _ := runGen(t, "", "-format", "vectors"); code != 2 {
		t.Errorf("-format without -cases: exit %d, want 2", code)
	}
}

// cheapFiles regenerate in seconds without the peers' data.
var cheapFiles = map[string]bool{"closed_forms.json": true, "divergence.json": true, "invalid_inputs.json": true}

// TestCommittedCheapFiles is the golden-file check for the files that
// regenerate in seconds: they must equal the committed ones byte for byte.
// (go run ./cmd/gen-vectors -check covers every file.)
func TestCommittedCheapFiles(t *testing.T) {
	files, err := generate(options{only: cheapFiles}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(cheapFiles) {
		t.Fatalf("generated %d files, want %d", len(files), len(cheapFiles))
	}
	var progress bytes.Buffer
	if code := checkFiles(files, filepath.Join("..", "..", "vectors"), false, timeZero, &progress); code != 0 {
		t.Errorf("committed files differ from the regenerated ones: %s", progress.String())
	}
	again, err := generate(options{only: map[string]bool{"closed_forms.json": true}}, &bytes.Buffer{})
	if err != nil || !bytes.Equal(again["closed_forms.json"], files["closed_forms.json"]) {
		t.Errorf("two runs differ (%v)", err)
	}
}

// TestCheckFiles: a changed byte, a missing file and a stray file fail.
func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"a.json": []byte("{}\n"), "tfprivacy/b.json": []byte("[]\n")}
	for n, d := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(n)), 0o755)
		os.WriteFile(filepath.Join(dir, n), d, 0o644)
	}
	var w bytes.Buffer
	if code := checkFiles(files, dir, true, timeZero, &w); code != 0 {
		t.Errorf("identical files: exit %d: %s", code, w.String())
	}
	os.WriteFile(filepath.Join(dir, "stray.json"), []byte("{}"), 0o644)
	if code := checkFiles(files, dir, true, timeZero, &w); code != 1 || !strings.Contains(w.String(), "stray.json is not written") {
		t.Errorf("stray file: exit %d: %s", code, w.String())
	}
	os.Remove(filepath.Join(dir, "stray.json"))
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("{ }\n"), 0o644)
	if code := checkFiles(files, dir, true, timeZero, &w); code != 1 || !strings.Contains(w.String(), "a.json differs") {
		t.Errorf("changed file: exit %d: %s", code, w.String())
	}
	os.Remove(filepath.Join(dir, "a.json"))
	if code := checkFiles(files, dir, true, timeZero, &w); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

// TestSampling: with sampling, a job reading an unsampled pair takes its
// value from the committed file, and a sampled one is recomputed (so a
// tampered sampled value is caught). The points have q = 1 (exact, cheap).
func TestSampling(t *testing.T) {
	build := func(e *engine) *fileBuilder {
		b := newFile("test", []string{"test"}, "test")
		g := b.group("g", schema.SGM, "c", sgmTolerance)
		for _, s := range []float64{1, 2} {
			b.test(g, sgmTest(1, s, 3), e.sgmJob(1, s, 3), nil)
		}
		return b
	}
	full := func(sample int, committed *schema.File) ([]byte, *engine) {
		e := newEngine(&bytes.Buffer{})
		e.sampleEvery = sample
		b := build(e)
		if err := e.run(); err != nil {
			t.Fatal(err)
		}
		data, err := b.finalize(committed)
		if err != nil {
			t.Fatal(err)
		}
		return data, e
	}
	want, _ := full(0, nil)
	committed, _ := schema.Parse(want)
	got, e := full(2, committed)
	if !bytes.Equal(got, want) {
		t.Errorf("sampled regeneration differs:\n%s\nwant\n%s", got, want)
	}
	if copied := e.jobs[1].copied; !copied || e.jobs[0].copied {
		t.Errorf("copied = %v, %v; want the second pair's job copied", e.jobs[0].copied, e.jobs[1].copied)
	}
	// Tamper with both values: the sampled one is recomputed (and differs
	// from the tampered file), the copied one is taken as committed.
	tampered, _ := schema.Parse(want)
	for _, tc := range tampered.TestGroups[0].Tests {
		tc.Expected, tc.ExpectedFloat64 = schema.Exact(big.NewFloat(7)), "7"
	}
	got, _ = full(2, tampered)
	f, _ := schema.Parse(got)
	if f.TestGroups[0].Tests[0].Expected == schema.Exact(big.NewFloat(7)) || f.TestGroups[0].Tests[1].Expected != schema.Exact(big.NewFloat(7)) {
		t.Errorf("sampled test %s, copied test %s", f.TestGroups[0].Tests[0].Expected, f.TestGroups[0].Tests[1].Expected)
	}
}

func TestExpansionCheck(t *testing.T) {
	// Where the expansion applies it agrees with the reference to 1e-13;
	// where higher terms dominate (alpha = 256, sigma = 0.5) it does not
	// apply.
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 1, 8}, {1e-100, 0.5, 32}, {1e-25, 2, 10.5}} {
		if !expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion not valid at %+v", c)
			continue
		}
		v, _ := reference.SGM(c.q, c.sigma, c.alpha)
		f, _ := v.Float64()
		if r := (f - tinyQExpansion(c.q, c.sigma, c.alpha)) / f; r > 1e-13 || r < -1e-13 {
			t.Errorf("%+v: reference %g, expansion %g", c, f, tinyQExpansion(c.q, c.sigma, c.alpha))
		}
	}
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 0.5, 256}, {1e-10, 1, 2}, {1e-30, 0.5, 40.5}} {
		if expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion claimed valid at %+v", c)
		}
	}
}
