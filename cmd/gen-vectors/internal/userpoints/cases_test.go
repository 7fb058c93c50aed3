package userpoints

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

func runLines(t *testing.T, in string) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := Run(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("answer %q: %v", l, err)
		}
		got = append(got, m)
	}
	return got
}

// TestOlderForms pins the two forms of input line -cases took before every
// kind had a name: the input echoed and the answer's fields added, the values
// those of package reference (50 significant digits) and package fast.
func TestOlderForms(t *testing.T) {
	in := `{"q": 0.01, "sigma": 1.1, "alpha": 8}
{"q": 1, "sigma": 1.1, "alpha": 2}
{"q": 0.01, "sigma": 1, "alpha": "inf"}

{"kind": "epsilon", "q": 0.004266666666666667, "sigma": 1.1, "steps": 14063, "delta": 1e-5, "orders": [2, 4, 8, 8.1, 16, 32]}
`
	got := runLines(t, in)
	ref, _ := reference.SGM(0.01, 1.1, 8)
	f, _ := fast.SGM(0.01, 1.1, 8)
	fq1, _ := fast.SGM(1, 1.1, 2)
	orders := []float64{2, 4, 8, 8.1, 16, 32}
	run := dpevent.Phase{Q: 0.004266666666666667, Sigma: 1.1, Steps: 14063}
	eps, order, _ := dpevent.DPSGDReferenceEpsilon(reference.Context{}, run, orders, 1e-5, reference.Improved, nil)
	plan, err := dpevent.DPSGD([]dpevent.Phase{run}, false)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := plan.Epsilon(1e-5, orders, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	feps, forder := fr.Epsilon, fr.Order
	want := []map[string]any{
		{"q": 0.01, "sigma": 1.1, "alpha": 8.0, "reference": schema.BigDec(ref), "fast": f},
		// q = 1: alpha / (2 sigma^2) for the double nearest 1.1, in exact
		// rational arithmetic (Python: Fraction(2) / (2 * Fraction(1.1)**2),
		// printed with decimal at 60 digits): 0.82644628099173540372976413221260334080184621703930027762...;
		// 50 significant digits in %g form drop the trailing zero.
		{"q": 1.0, "sigma": 1.1, "alpha": 2.0, "reference": "0.8264462809917354037297641322126033408018462170393", "fast": fq1},
		{"q": 0.01, "sigma": 1.0, "alpha": "inf", "reference": "inf", "fast": "inf"},
		{"kind": "epsilon", "q": 0.004266666666666667, "sigma": 1.1, "steps": 14063.0, "delta": 1e-5, "orders": []any{2.0, 4.0, 8.0, 8.1, 16.0, 32.0},
			"epsilon_reference": schema.BigDec(eps), "order": order, "epsilon_fast": feps, "order_fast": forder},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// badLines are input lines -cases refuses, each with the words its error
// must hold: the key or line and what is accepted. Each is also a
// FuzzParseLine seed.
var badLines = []struct{ caught, line, want string }{
	{"a value out of SGM's domain (the reference's refusal)", `{"q": 1.5, "sigma": 1, "alpha": 2}`, `q`},
	{"a word for a number", `{"q": 0.01, "sigma": 1, "alpha": "many"}`, `alpha "many"`},
	{"a missing input", `{"q": 0.01, "sigma": 1}`, `SGM needs "alpha" (its keys: kind, q, sigma, alpha)`},
	{"an unknown kind", `{"kind": "delta", "q": 0.01, "sigma": 1}`, `unknown kind "delta" (known: SGM, SGMCurve,`},
	{"an extra key", `{"q": 0.01, "sigma": 1, "alpha": 2, "extra": 1}`, `SGM takes no key "extra" (its keys: kind, q, sigma, alpha)`},
	{"an unknown conversion", `{"kind": "Epsilon", "orders": [2], "rdp": [0.1], "delta": 1e-5, "conversion": "best"}`, `conversion "best"`},
	{"not an object", `[1, 2]`, `bad input line: not a JSON object`},
	{"a misspelt key was reported as missing ones", `{"kind": "SGMCurve", "q": 0.01, "sigmma": 1}`,
		`bad input line: SGMCurve takes no key "sigmma" (its keys: kind, q, sigma, steps, alpha)`},
	{"a duplicate key: the last won", `{"kind": "SGMCurve", "q": 0.01, "sigma": 1, "sigma": 10, "steps": 100, "alpha": 2}`,
		`bad input line: key "sigma" given twice (each key once)`},
	{"a duplicate kind", `{"kind": "SGM", "kind": "Gaussian", "sigma": 1, "alpha": 2}`, `key "kind" given twice`},
	{"fractional steps", `{"kind": "SGMCurve", "q": 0.01, "sigma": 1, "steps": 2.5, "alpha": 2}`, `steps 2.5: want an integer (a whole number such as 100 or 1e4)`},
	{"steps beyond an integer", `{"kind": "SGMCurve", "q": 0.01, "sigma": 1, "steps": 1e30, "alpha": 2}`, `steps 1e30: too large (at most`},
	{"a fractional tree size", `{"kind": "TreeAggregation", "sigma": 1, "trees": [1, 2.5], "restarts": "one-tree", "alpha": 2}`, `trees [1, 2.5]: item 2: want an integer`},
	{"an unknown restarts was the reference's 'restarts = -1'", `{"kind": "TreeAggregation", "sigma": 1, "trees": [4], "restarts": "bogus", "alpha": 2}`, `restarts "bogus": want "one-tree" or "every-tree"`},
	{"a null list was an empty one", `{"kind": "Epsilon", "orders": null, "rdp": [0.1], "delta": 1e-5}`, `orders null: want a list of numbers`},
	{"a bad item of a list", `{"kind": "Epsilon", "orders": [2, "x"], "rdp": [0.1, 0.2], "delta": 1e-5}`, `orders [2, "x"]: item 2: want a number or "inf"`},
	{"a null kind was SGM", `{"kind": null, "q": 0.01, "sigma": 1, "alpha": 2}`, `kind null: want a string, one of SGM,`},
	{"the older epsilon form takes no conversion", `{"kind": "epsilon", "q": 0.01, "sigma": 1, "steps": 10, "delta": 1e-5, "orders": [2], "conversion": "classic"}`,
		`epsilon takes no key "conversion" (its keys: kind, q, sigma, steps, delta, orders)`},
	{"text after the object was ignored", `{"q": 0.01, "sigma": 1, "alpha": 2} {"q": 0.5}`, `bad input line: not one JSON object: text after the closing brace`},
	{"a line cut short", `{"q": 0.01, "sigma": 1`, `bad input line: not a complete JSON object`},
	{"two misspelt keys", `{"kind": "Gaussian", "sigmas": 1, "alfa": 2}`, `Gaussian takes no keys "sigmas", "alfa" (its keys: kind, sigma, alpha)`},
	{"an optional key is listed as such", `{"kind": "Delta", "orders": [2], "rdp": [0.1], "epsilon": 1}`, `its keys: kind, orders, rdp, eps, conversion (optional: "classic" or "improved", the default)`},
}

// TestBadLines: each malformed line gets an error naming what is wrong, and
// a line that is not an object is wrapped.
func TestBadLines(t *testing.T) {
	var in strings.Builder
	for _, c := range badLines {
		in.WriteString(c.line + "\n")
	}
	got := runLines(t, in.String())
	for i, c := range badLines {
		if e, _ := got[i]["error"].(string); !strings.Contains(e, c.want) {
			t.Errorf("caught: %s: line %d: error %q, want it to mention %q", c.caught, i+1, e, c.want)
		}
	}
	if got[6]["input"] != "[1, 2]" {
		t.Errorf("a non-object line is not wrapped: %v", got[6])
	}
}

// refusals are lines whose inputs a function refuses, with the error's
// exact words: the user's key names, no Go package or function, and a
// value only where the line has one (a list's refusal once read
// "reference.Epsilon: orders, rdp = NaN: must be non-empty ...").
var refusals = []struct{ caught, line, want string }{
	{"an empty curve read as orders, rdp = NaN", `{"kind": "Epsilon", "orders": [], "rdp": [], "delta": 1e-5}`,
		"orders, rdp: must be non-empty and of equal length (have 0 and 0)"},
	{"no orders read as orders = NaN", `{"kind": "DPSGDEpsilon", "q": 0.01, "sigma": 1, "steps": 10, "delta": 1e-5, "orders": []}`,
		"orders: must not be empty"},
	{"a value out of range keeps its value", `{"q": 1.5, "sigma": 1, "alpha": 2}`, "q = 1.5: sampling rate must be in [0, 1]"},
	{"a NaN the line gives is named", `{"q": "nan", "sigma": 1, "alpha": 2}`, "q = NaN: sampling rate must be in [0, 1]"},
	{"a NaN in rdp panicked (big.Float holds none)", `{"kind": "Epsilon", "orders": [2], "rdp": ["nan"], "delta": 1e-5}`,
		"rdp[0] = NaN: RDP must be >= 0 (or +Inf)"},
	{"a NaN in rdp panicked in GroupPrivacy too", `{"kind": "GroupPrivacy", "orders": [2, 4], "rdp": [0.1, "nan"], "c": 2, "alpha": 2}`,
		"rdp[1] = NaN: RDP must be >= 0 (or +Inf)"},
	{"Divergence's p and q are the line's distP and distQ", `{"kind": "Divergence", "distP": [0.5], "distQ": [0.5, 0.5], "alpha": 2}`,
		"distP, distQ: probability vectors must be non-empty and of equal length (have 1 and 2)"},
	{"an element of distP", `{"kind": "Divergence", "distP": [-0.5, 1.5], "distQ": [0.5, 0.5], "alpha": 2}`,
		"distP[0] = -0.5: probabilities must be finite and >= 0"},
	{"a sum of distP", `{"kind": "Divergence", "distP": [0.5, 0.6], "distQ": [0.5, 0.5], "alpha": 2}`,
		"sum(distP) = 1.1: probabilities must sum to 1"},
	{"TreeAggregation's steps are the line's trees", `{"kind": "TreeAggregation", "sigma": 1, "trees": [], "restarts": "one-tree", "alpha": 2}`,
		"trees: must be a non-empty list"},
	{"WORBound's base.Eps = 0 was the length of base", `{"kind": "WORBound", "q": 0.1, "base": [], "baseInf": "inf", "alpha": 2}`,
		"len(base) = 0: must hold the orders 2..2 (1 entries)"},
	{"WORBound's base.Inf is the line's baseInf", `{"kind": "WORBound", "q": 0.1, "base": [1], "baseInf": -1, "alpha": 2}`,
		"baseInf = -1: must be >= 0 (or +Inf where unknown)"},
	{"a relation is a string, not NaN", `{"kind": "KaryRandomizedResponse", "noise": 1, "buckets": 3, "relation": "x", "alpha": 2}`,
		`relation: must be "replace-one" or "replace-special", not "x"`},
	{"a run of no phases", `{"kind": "ProfileEpsilon", "phases": [], "delta": 1e-5}`, "phases: must not be empty"},
}

// TestRefusals: the error of each refused line is in the user's words.
func TestRefusals(t *testing.T) {
	var in strings.Builder
	for _, c := range refusals {
		in.WriteString(c.line + "\n")
	}
	got := runLines(t, in.String())
	for i, c := range refusals {
		if e, _ := got[i]["error"].(string); e != c.want {
			t.Errorf("caught: %s: line %d: error %q, want %q", c.caught, i+1, e, c.want)
		}
	}
}

// TestExactIntegers: integers in exponent form are accepted when exact
// (steps 1e4 is steps 10000).
func TestExactIntegers(t *testing.T) {
	_, a, err := Parse([]byte(`{"kind": "TreeMultiParticipation", "sigma": 1, "steps": 1e4, "maxParticipation": 2.0, "minSeparation": 1.5e1, "alpha": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := [3]int{a.Steps, a.MaxParticipation, a.MinSeparation}, [3]int{10000, 2, 15}; got != want {
		t.Errorf("integers %v, want %v", got, want)
	}
	_, a, err = Parse([]byte(`{"kind": "TreeAggregation", "sigma": 1, "trees": [1e2, 3], "restarts": "every-tree", "alpha": 2}`))
	if err != nil || !slices.Equal(a.Trees, []int{100, 3}) {
		t.Errorf("trees: %v, %v", a, err)
	}
}

// FuzzParseLine: Parse never panics, and a line it accepts has each key
// once, each one the kind's.
func FuzzParseLine(f *testing.F) {
	for _, c := range badLines {
		f.Add([]byte(c.line))
	}
	f.Add([]byte(`{"kind": "SGMCurve", "q": 0.01, "sigma": 1, "steps": 1e4, "alpha": 2}`))
	f.Add([]byte(`{"kind": "TreeAggregation", "sigma": 1, "trees": [1e2, 3], "restarts": "every-tree", "alpha": 2}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		k, _, err := Parse(line)
		if err != nil {
			return
		}
		fields, err := score.DecodeObject(line)
		if err != nil {
			t.Fatalf("accepted %q, which is not one object with each key once: %v", line, err)
		}
		for _, fl := range fields {
			if fl.Key != "kind" && !slices.Contains(k.Inputs, fl.Key) {
				t.Errorf("accepted %q with key %q, not an input of %s", line, fl.Key, k.Name)
			}
		}
	})
}

// TestUnknownKindListsKinds: the error names the kind and every known one.
func TestUnknownKindListsKinds(t *testing.T) {
	_, err := Lookup("Renyi")
	for _, k := range append([]string{`"Renyi"`}, KindNames()...) {
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("Lookup(Renyi) = %v, want it to name %s", err, k)
		}
	}
}

// perFunction is how many tests of each function TestKindsAgainstVectors
// feeds to -cases (the first valid tests of each group up to this count per
// function, in file order); -short takes fewer.
func perFunction() int {
	if testing.Short() {
		return 1
	}
	return 6
}

// TestKindsAgainstVectors feeds tests of every function of the committed
// vector files to Run, each as {"kind": FUNCTION, inputs as in the file},
// and compares the answers with the committed values (profile functions:
// -cases's certified interval contains the committed one): "reference" with
// expected (50 digits, written by the reference at 256 bits and confirmed at
// 320), "order" with expectedOrder, and "fast" with expectedFloat64 within
// the group's tolerance. Every function of the files must be covered.
func TestKindsAgainstVectors(t *testing.T) {
	n := perFunction()
	type vecTest struct {
		file string
		g    *schema.Group
		tc   *schema.Test
	}
	var picked []vecTest
	count := map[string]int{}
	for _, name := range vectors.Names() {
		f, err := vectors.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range f.TestGroups {
			for _, tc := range g.Tests {
				if tc.Result != schema.Valid || count[g.Function] >= n || expensive(g, tc) {
					continue
				}
				count[g.Function]++
				picked = append(picked, vecTest{name, g, tc})
			}
		}
	}
	for _, k := range Kinds {
		if count[k.Name] == 0 {
			t.Errorf("no test of %s in the vector files", k.Name)
		}
	}
	var in bytes.Buffer
	for _, p := range picked {
		in.Write(lineOf(t, p.g, p.tc))
		in.WriteByte('\n')
	}
	got := runLines(t, in.String())
	for i, p := range picked {
		a := got[i]
		where := fmt.Sprintf("%s tcId %d (%s, %s)", p.file, p.tc.TcID, p.g.Function, p.tc.Comment)
		if schema.IsProfile(p.g.Function) {
			// The file holds the intersection of pld's default certificate
			// (what -cases computes) with a second one: inside it.
			lo, hi, err := p.tc.Interval()
			glo, okLo := a["lower"].(float64)
			ghi, okHi := a["upper"].(float64)
			if err != nil || !okLo || !okHi || !(glo <= lo && hi <= ghi) {
				t.Errorf("%s: -cases [%v, %v] does not contain the committed [%s, %s] (%v)", where, a["lower"], a["upper"], p.tc.Lower, p.tc.Upper, err)
			}
			continue
		}
		want := map[string]any{"reference": decimalOf(t, p.tc.Expected)}
		gotSub := map[string]any{"reference": a["reference"]}
		if p.tc.ExpectedOrder != "" {
			o, _ := schema.ParseFloat(p.tc.ExpectedOrder)
			want["order"], gotSub["order"] = schema.JSONFloat(o), a["order"]
		}
		if diff := cmp.Diff(want, gotSub); diff != "" {
			t.Errorf("%s (-committed +cases):\n%s\nline %s", where, diff, lineOf(t, p.g, p.tc))
		}
		wantF, _ := schema.ParseFloat(p.tc.ExpectedFloat64)
		switch f := a["fast"].(type) {
		case float64:
			if r := schema.RelativeError(f, mustExact(t, p.tc.Expected)); r > p.g.RelativeTolerance {
				t.Errorf("%s: fast %v, committed %v (relative error %.2g > %g)", where, f, wantF, r, p.g.RelativeTolerance)
			}
		case string:
			if f != schema.Dec(wantF) {
				t.Errorf("%s: fast %q, committed %s", where, f, p.tc.ExpectedFloat64)
			}
		default:
			t.Errorf("%s: no fast value: %v", where, a)
		}
	}
}

// expensive leaves out the tests whose reference value takes seconds (many
// or large fractional orders), so that the test stays quick.
func expensive(g *schema.Group, tc *schema.Test) bool {
	orders, _ := schema.ParseList(g.InputOrders(tc))
	if a, err := tc.Float("alpha"); err == nil {
		orders = append(orders, a)
	}
	frac := 0
	for _, a := range orders {
		if a != math.Trunc(a) && !math.IsInf(a, 0) {
			frac++
			if a > 64 {
				return true
			}
		}
	}
	return frac > 10
}

// lineOf is tc as a -cases line: the kind and the test's inputs, written as
// the vector file writes them (decimal strings).
func lineOf(t *testing.T, g *schema.Group, tc *schema.Test) []byte {
	t.Helper()
	k, err := Lookup(g.Function)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"kind": g.Function}
	for _, in := range k.Inputs {
		switch in {
		case "steps":
			m[in] = *tc.Steps
		case "phases":
			var ph []map[string]any
			for _, p := range tc.Phases {
				ph = append(ph, map[string]any{"q": p.Q, "sigma": p.Sigma, "steps": p.Steps})
			}
			m[in] = ph
		case "conversion":
			m[in] = tc.Conversion
		case "event":
			m[in] = json.RawMessage(tc.Event)
		case "neighboringRelation":
			m[in] = tc.NeighboringRelation
		case "orders":
			m[in] = g.InputOrders(tc)
		case "rdp":
			m[in] = tc.RDP
		case "base":
			m[in] = tc.Base
		case "distP":
			m[in] = tc.DistP
		case "distQ":
			m[in] = tc.DistQ
		case "relation":
			m[in] = tc.Relation
		case "c":
			m[in] = *tc.C
		case "trees":
			m[in] = tc.Trees
		case "restarts":
			m[in] = tc.Restarts
		case "maxParticipation":
			m[in] = *tc.MaxParticipation
		case "minSeparation":
			m[in] = *tc.MinSeparation
		default:
			x, err := tc.Float(in)
			if err != nil {
				t.Fatalf("tcId %d: %s: %v", tc.TcID, in, err)
			}
			m[in] = schema.Dec(x)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustExact(t *testing.T, s string) *big.Float {
	t.Helper()
	v, err := schema.ParseExact(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// decimalOf is the committed 50-digit value as -cases writes it.
func decimalOf(t *testing.T, expected string) string {
	return schema.BigDec(mustExact(t, expected))
}

// TestRunVectors: -format vectors writes the older forms' points as a vector
// file that passes the lint, with the reference's values.
func TestRunVectors(t *testing.T) {
	in := `{"q": 0.01, "sigma": 1.1, "alpha": 8}
{"q": 1.5, "sigma": 1, "alpha": 2}
{"kind": "epsilon", "q": 0.01, "sigma": 2, "steps": 100, "delta": 1e-5, "orders": [2, 4, 8, "inf"]}
{"kind": "epsilon", "q": 0.01, "sigma": 2, "steps": 0, "delta": 1e-5, "orders": [2, 4]}
`
	var out bytes.Buffer
	if err := RunVectors(strings.NewReader(in), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if errs := schema.Lint(out.Bytes()); len(errs) > 0 {
		t.Fatalf("not a valid vector file: %v", errs)
	}
	f, _ := schema.Parse(out.Bytes())
	v, _ := reference.SGM(0.01, 1.1, 8)
	eps, order, _ := dpevent.DPSGDReferenceEpsilon(reference.Context{}, dpevent.Phase{Q: 0.01, Sigma: 2, Steps: 100}, []float64{2, 4, 8, math.Inf(1)}, 1e-5, reference.Improved, nil)
	type row struct{ Group, Result, Expected, Order string }
	var got []row
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			got = append(got, row{g.Name, tc.Result, tc.Expected, tc.ExpectedOrder})
		}
	}
	want := []row{
		{"rdp", schema.Valid, schema.Exact(v), ""},
		{"rdp", schema.Invalid, "", ""},
		{"epsilon", schema.Valid, schema.Exact(eps), schema.Dec(order)},
		{"epsilon", schema.Invalid, "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if !slices.Contains(f.TestGroups[1].Tests[1].Flags, "BadSteps") {
		t.Errorf("steps = 0 not flagged BadSteps: %v", f.TestGroups[1].Tests[1].Flags)
	}
	// A line that is not a valid case is an error naming the line.
	if err := RunVectors(strings.NewReader("{\"q\": 1}\n"), &out, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed line: %v", err)
	}
}

// TestRunVectorsEveryKind: -format vectors takes a line of every kind -cases
// takes. Each becomes a test of its function's group, its expected value
// the kind's reference value (the same computation -cases answers with,
// checked against the committed vectors by TestKindsAgainstVectors) and
// each rejected input an invalid test flagged by the argument named.
func TestRunVectorsEveryKind(t *testing.T) {
	lines := []string{
		`{"kind": "SGM", "q": 0.01, "sigma": 1.1, "alpha": 8}`,
		`{"kind": "SGMCurve", "q": 0.01, "sigma": 1.1, "steps": 10, "alpha": 8}`,
		`{"kind": "Gaussian", "sigma": 2, "alpha": 3}`,
		`{"kind": "Laplace", "b": 1, "alpha": 2}`,
		`{"kind": "RandomizedResponse", "p": 0.75, "alpha": 2}`,
		`{"kind": "GaussianDivergence", "mean1": 0, "sd1": 1, "mean2": 1, "sd2": 1.5, "alpha": 2}`,
		`{"kind": "Divergence", "distP": [0.5, 0.5], "distQ": [0.25, 0.75], "alpha": 2}`,
		`{"kind": "Epsilon", "orders": [2, 4, 8], "rdp": [0.1, 0.3, 0.9], "delta": 1e-5, "conversion": "classic"}`,
		`{"kind": "Epsilon", "orders": [2, 4, 8], "rdp": [0.1, 0.3, 0.9], "delta": 1e-5}`,
		`{"kind": "Delta", "orders": [2, 4, 8], "rdp": [0.1, 0.3, 0.9], "eps": 2}`,
		`{"kind": "DPSGDEpsilon", "q": 0.01, "sigma": 2, "steps": 100, "delta": 1e-5, "orders": [2, 4, 8], "conversion": "classic"}`,
		`{"kind": "DPSGDEpsilon", "q": 0.01, "sigma": 2, "steps": 100, "delta": 1e-5, "orders": [2, 4, 8]}`,
		`{"kind": "Laplace", "b": -1, "alpha": 2}`,
		`{"kind": "Gaussian", "sigma": "nan", "alpha": 2}`,
		`{"kind": "SGMCurve", "q": 0.01, "sigma": 1, "steps": 0, "alpha": 2}`,
		`{"kind": "Divergence", "distP": [0.5, 0.6], "distQ": [0.5, 0.5], "alpha": 2}`,
		`{"kind": "Epsilon", "orders": [0.5], "rdp": [0.1], "delta": 1e-5}`,
		`{"kind": "SampledLaplace", "q": 0.01, "b": 1, "alpha": 8.5}`,
		`{"kind": "SampledDivergence", "q": 0.5, "distP": [0.75, 0.25], "distQ": [0.25, 0.75], "alpha": 2}`,
		`{"kind": "WORGaussian", "q": 0.01, "sigma": 1.1, "alpha": 3}`,
		`{"kind": "KaryRandomizedResponse", "noise": 0.3, "buckets": 10, "relation": "replace-special", "alpha": 2}`,
		`{"kind": "PureDP", "eps": 1, "alpha": 2}`,
		`{"kind": "ZCDP", "rho": 0.1, "xi": 0.01, "alpha": "inf"}`,
		`{"kind": "ExponentialMechanism", "eps": 1, "alpha": 2}`,
		`{"kind": "GroupPrivacy", "orders": [2, 8, "inf"], "rdp": [0.1, 0.3, 0.5], "c": 2, "alpha": 2}`,
		`{"kind": "KaryRandomizedResponse", "noise": 0.3, "buckets": 10, "relation": "add-one", "alpha": 2}`,
		`{"kind": "GroupPrivacy", "orders": [2, 4], "rdp": [0.1, 0.3], "c": 2, "alpha": 2}`,
		`{"kind": "LaplaceZCDP", "eps": 1}`,
		`{"kind": "KaryRRZCDP", "eps": 1, "buckets": 3}`,
		`{"kind": "RAPPORZCDP", "eps": 1}`,
		`{"kind": "BoundedRangeZCDP", "eps": 1}`,
		`{"kind": "KaryRRZCDP", "eps": 1, "buckets": 7}`,
		`{"kind": "DiscreteGaussian", "sigma": 0.5, "sensitivity": 1, "alpha": 2.5}`,
		`{"kind": "TreeAggregation", "sigma": 2, "trees": [100, 100], "restarts": "every-tree", "alpha": 2}`,
		`{"kind": "TreeMultiParticipation", "sigma": 2, "steps": 16, "maxParticipation": 2, "minSeparation": 3, "alpha": 2}`,
		`{"kind": "RepeatAndSelect", "orders": [2, 8, "inf"], "rdp": [0.1, 0.4, 1], "mean": 10, "shape": 1, "alpha": 2}`,
		`{"kind": "DiscreteGaussian", "sigma": 1, "sensitivity": 0.5, "alpha": 2}`,
		`{"kind": "TreeAggregation", "sigma": 2, "trees": [], "restarts": "one-tree", "alpha": 2}`,
		`{"kind": "TreeMultiParticipation", "sigma": 2, "steps": -1, "maxParticipation": 2, "minSeparation": 3, "alpha": 2}`,
		`{"kind": "RepeatAndSelect", "orders": [2, 8, "inf"], "rdp": [0.1, 0.4, 1], "mean": 0.5, "shape": 1, "alpha": 2}`,
		`{"kind": "PoissonBound", "q": 0.01, "base": [0.5, 1, 1.5], "alpha": 4}`,
		`{"kind": "WORBound", "q": 0.01, "base": [0.5, 1, 1.5], "baseInf": "inf", "alpha": 4}`,
		`{"kind": "ProfileEpsilon", "phases": [{"q": 0.01, "sigma": 1, "steps": 1}], "delta": 1e-5}`,
		`{"kind": "ProfileEpsilon", "phases": [], "delta": 1e-5}`,
		`{"kind": "ProfileDelta", "phases": [{"q": 0.01, "sigma": 1, "steps": 1}], "eps": 1}`,
		`{"kind": "ProfileDelta", "phases": [{"q": 0.01, "sigma": 1, "steps": -1}], "eps": 1}`,
		`{"kind": "EventEpsilon", "event": {"class_name": "SelfComposedDpEvent", "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 2}, "count": 10}, "neighboringRelation": "ADD_OR_REMOVE_ONE", "delta": 1e-5}`,
		`{"kind": "EventEpsilon", "event": {"class_name": "GaussianDpEvent", "noise_multiplier": -1}, "neighboringRelation": "ADD_OR_REMOVE_ONE", "delta": 1e-5}`,
		`{"kind": "EventDelta", "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 2}, "neighboringRelation": "REPLACE_ONE", "eps": 1}`,
		`{"kind": "EventDelta", "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 2}, "neighboringRelation": "REPLACE_ONE", "eps": "nan"}`,
	}
	var out bytes.Buffer
	if err := RunVectors(strings.NewReader(strings.Join(lines, "\n")), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if errs := schema.Lint(out.Bytes()); len(errs) > 0 {
		t.Fatalf("not a valid vector file: %v", errs)
	}
	f, _ := schema.Parse(out.Bytes())
	type row struct {
		Group, Function, Result, Expected, Order string
		Flags                                    []string
		Lower, Upper                             string
	}
	var got []row
	covered := map[string]bool{}
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			got = append(got, row{g.Name, g.Function, tc.Result, tc.Expected, tc.ExpectedOrder, tc.Flags, tc.Lower, tc.Upper})
			covered[g.Function] = true
		}
	}
	for _, k := range Kinds {
		if !covered[k.Name] {
			t.Errorf("no test of %s written", k.Name)
		}
	}
	valid := func(i int) (expected, order string) {
		k, a, err := Parse([]byte(lines[i]))
		if err != nil {
			t.Fatal(err)
		}
		v, o, err := k.Reference(reference.Context{}, a)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if k.HasOrder {
			return schema.Exact(v), schema.Dec(o)
		}
		return schema.Exact(v), ""
	}
	ok := func(group, fn string, i int, flags ...string) row {
		e, o := valid(i)
		return row{group, fn, schema.Valid, e, o, append([]string{}, flags...), "", ""}
	}
	bad := func(group, fn, flag string) row {
		return row{group, fn, schema.Invalid, "", "", []string{flag}, "", ""}
	}
	// One step of the SGM is in closed form: both certificates are the
	// same interval, which the file holds.
	interval := func(group, fn string, i int) row {
		k, a, err := Parse([]byte(lines[i]))
		if err != nil {
			t.Fatal(err)
		}
		iv, err := k.Interval(a)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		return row{group, fn, schema.Valid, "", "", []string{}, schema.Dec(iv.Lo), schema.Dec(iv.Hi)}
	}
	// Groups in order of creation: rdp and epsilon first, then the others
	// at their first line; tests in input order within each.
	want := []row{
		ok("rdp", schema.SGM, 0),
		ok("epsilon", schema.DPSGDEpsilon, 11),
		ok("sgm-curve", schema.SGMCurve, 1),
		bad("sgm-curve", schema.SGMCurve, "BadSteps"),
		ok("gaussian", schema.Gaussian, 2),
		bad("gaussian", schema.Gaussian, "NaNInput"),
		ok("laplace", schema.Laplace, 3),
		bad("laplace", schema.Laplace, "OutOfRange"),
		ok("randomized-response", schema.RandomizedResponse, 4),
		ok("gaussian-divergence", schema.GaussianDivergence, 5),
		ok("divergence", schema.Divergence, 6),
		bad("divergence", schema.Divergence, "BadDistribution"),
		ok("epsilon/classic", schema.Epsilon, 7),
		ok("epsilon/improved", schema.Epsilon, 8),
		bad("epsilon/improved", schema.Epsilon, "BadCurve"),
		ok("delta/improved", schema.Delta, 9),
		ok("dpsgd-epsilon/classic", schema.DPSGDEpsilon, 10),
		ok("sampled-laplace", schema.SampledLaplace, 17),
		ok("sampled-divergence", schema.SampledDivergence, 18),
		ok("wor-gaussian", schema.WORGaussian, 19),
		ok("kary-randomized-response", schema.KaryRandomizedResponse, 20),
		bad("kary-randomized-response", schema.KaryRandomizedResponse, "OutOfRange"),
		ok("pure-dp", schema.PureDP, 21),
		ok("zcdp", schema.ZCDP, 22),
		ok("exponential-mechanism", schema.ExponentialMechanism, 23),
		ok("group-privacy", schema.GroupPrivacy, 24),
		bad("group-privacy", schema.GroupPrivacy, "BadCurve"),
		ok("laplace-zcdp", schema.LaplaceZCDP, 27),
		ok("kary-rrzcdp", schema.KaryRRZCDP, 28),
		bad("kary-rrzcdp", schema.KaryRRZCDP, "OutOfRange"),
		ok("rapporzcdp", schema.RAPPORZCDP, 29),
		ok("bounded-range-zcdp", schema.BoundedRangeZCDP, 30),
		ok("discrete-gaussian", schema.DiscreteGaussian, 32),
		bad("discrete-gaussian", schema.DiscreteGaussian, "OutOfRange"),
		ok("tree-aggregation", schema.TreeAggregation, 33),
		bad("tree-aggregation", schema.TreeAggregation, "BadTrees"),
		ok("tree-multi-participation", schema.TreeMultiParticipation, 34),
		bad("tree-multi-participation", schema.TreeMultiParticipation, "BadSteps"),
		ok("repeat-and-select", schema.RepeatAndSelect, 35),
		bad("repeat-and-select", schema.RepeatAndSelect, "OutOfRange"),
		ok("poisson-bound", schema.PoissonBound, 40),
		ok("wor-bound", schema.WORBound, 41),
		interval("profile-epsilon", schema.ProfileEpsilon, 42),
		bad("profile-epsilon", schema.ProfileEpsilon, "OutOfRange"),
		interval("profile-delta", schema.ProfileDelta, 44),
		bad("profile-delta", schema.ProfileDelta, "OutOfRange"),
		// The Gaussian mechanism composed is in closed form: both
		// certificates are the same interval.
		interval("event-epsilon", schema.EventEpsilon, 46),
		bad("event-epsilon", schema.EventEpsilon, "OutOfRange"),
		interval("event-delta", schema.EventDelta, 48),
		bad("event-delta", schema.EventDelta, "NaNInput"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
}

// TestKindsCoverTable: every vector function of the schema's table has its
// computation here and no computation is left without a function; a
// function removed from the table is no kind.
func TestKindsCoverTable(t *testing.T) {
	for name := range computations {
		if schema.Lookup(schema.Functions, name) == nil {
			t.Errorf("computation %s: no vector function of that name in schema.Functions", name)
		}
	}
	if len(Kinds) != len(schema.Functions) {
		t.Errorf("%d kinds for %d functions", len(Kinds), len(schema.Functions))
	}
	var without []schema.Function
	for _, f := range schema.Functions {
		if f.Name != schema.Laplace {
			without = append(without, f)
		}
	}
	for _, k := range kindsFor(without) {
		if k.Name == schema.Laplace {
			t.Errorf("kindsFor of a table without Laplace has a Laplace kind")
		}
	}
}

// TestDPSGDEpsilonTakesTheOnePath: -cases answers DPSGDEpsilon's fast
// value with dpevent.DPSGD's plan, bit for bit, the value rdpcheck
// epsilon prints for the run, at a point where another way to it
// (fast.SGMCurve then fast.Epsilon, which rounds once less than the
// plan's accountant) gives other bits: a computation of its own here
// would fail.
func TestDPSGDEpsilonTakesTheOnePath(t *testing.T) {
	orders := []float64{2, 4, 8, 8.1, 16, 32}
	got := runLines(t, `{"kind": "DPSGDEpsilon", "q": 0.1, "sigma": 1.1, "steps": 100, "delta": 1e-5, "orders": [2, 4, 8, 8.1, 16, 32], "conversion": "improved"}`)
	plan, err := dpevent.DPSGD([]dpevent.Phase{{Q: 0.1, Sigma: 1.1, Steps: 100}}, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plan.Epsilon(1e-5, orders, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	curve := make([]float64, len(orders))
	if err := fast.SGMCurve(0.1, 1.1, 100, orders, curve); err != nil {
		t.Fatal(err)
	}
	if other, _, _ := fast.Epsilon(orders, curve, 1e-5, fast.Improved); other == want.Epsilon {
		t.Fatalf("SGMCurve and Epsilon give the plan's %v here: the test would not see a bypass", other)
	}
	if got[0]["fast"] != want.Epsilon || got[0]["order_fast"] != want.Order {
		t.Errorf("fast %v at %v, the plan's %v at %v", got[0]["fast"], got[0]["order_fast"], want.Epsilon, want.Order)
	}
}
