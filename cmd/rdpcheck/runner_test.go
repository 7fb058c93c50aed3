package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// hangImpl is a Python module whose Gaussian loops forever on a NaN order,
// declines negative orders with NotImplementedError and rejects sigma <= 0:
// the three outcomes examples/run_vectors.py records beside a value.
const hangImpl = `import math
def Gaussian(sigma, alpha):
    if math.isnan(alpha):
        while True:
            pass
    if alpha < 0:
        raise NotImplementedError("negative orders")
    if not sigma > 0:
        raise ValueError("sigma must be > 0")
    return alpha / (2 * sigma * sigma)
`

// readAnswerLines reads run_vectors.py's output: tcId -> the line's fields
// other than tcId.
func readAnswerLines(t *testing.T, path string) map[int]map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		id := int(m["tcId"].(float64))
		delete(m, "tcId")
		out[id] = m
	}
	return out
}

// The runner survives a test that never returns (recorded as a hang, the
// worker replaced, later tests still answered) and records
// NotImplementedError as unsupported, not as a rejection. The tcIds are the
// Gaussian group of vectors/invalid_inputs.json (inputs from its comments):
// 23 sigma = -1, 24 sigma = +Inf, 25 sigma = NaN, 26 sigma = -Inf (all with
// alpha = 2), and sigma = 1 with 27 alpha = -1, 28 alpha = NaN,
// 29 alpha = -Inf. The module's own input check is a rejection raised in
// the adapter (raisedIn "adapter"), not an adapter bug.
func TestPythonRunnerOutcomes(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "hang_impl.py")
	if err := os.WriteFile(impl, []byte(hangImpl), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "answers.jsonl")
	cmd := exec.Command(py, "../../examples/run_vectors.py", "-timeout", "2", "../../vectors/invalid_inputs.json", impl, "-o", answers)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, out)
	}
	got := readAnswerLines(t, answers)
	want := map[int]map[string]any{
		23: {"error": "ValueError: sigma must be > 0", "errorType": "ValueError", "raisedIn": "adapter"},
		24: {"value": 0.0}, // 2 / (2 inf^2)
		25: {"error": "ValueError: sigma must be > 0", "errorType": "ValueError", "raisedIn": "adapter"},
		26: {"error": "ValueError: sigma must be > 0", "errorType": "ValueError", "raisedIn": "adapter"},
		27: {"unsupported": true},
		28: {"hang": true, "timeout": 2.0},
		29: {"unsupported": true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// -all writes one answers file per vector file the module answers, under
// the vector file's relative name, and none for files it answers nothing of.
func TestPythonRunnerAll(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "gauss_impl.py")
	if err := os.WriteFile(impl, []byte("def Gaussian(sigma, alpha):\n    return alpha / (2 * sigma * sigma)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "answers")
	cmd := exec.Command(py, "../../examples/run_vectors.py", "-all", impl, "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py -all: %v\n%s", err, b)
	}
	var files []string
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Gaussian groups are in closed_forms.json and invalid_inputs.json only.
	if diff := cmp.Diff([]string{"closed_forms.jsonl", "invalid_inputs.jsonl"}, files); diff != "" {
		t.Errorf("answer files (-want +got):\n%s", diff)
	}
}

// runPython runs examples/run_vectors.py with args and returns the answer
// lines it wrote to the answers file, skipping the test without python3.
func runPython(t *testing.T, impl string, args ...string) map[int]map[string]any {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "impl.py")
	if err := os.WriteFile(path, []byte(impl), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "answers.jsonl")
	args = append(append([]string{"../../examples/run_vectors.py"}, args...), path, "-o", answers)
	if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, out)
	}
	return readAnswerLines(t, answers)
}

// typoImpl's Gaussian calls a function math does not have: every call
// fails in the adapter's own code.
const typoImpl = `import math
def Gaussian(sigma, alpha):
    return math.gausian_rdp(sigma, alpha)
`

// An AttributeError raised in the adapter's own file is the adapter's bug,
// written as adapterError and never as a rejection of the input.
func TestPythonRunnerAdapterError(t *testing.T) {
	got := runPython(t, typoImpl, "../../vectors/closed_forms.json")
	if len(got) == 0 {
		t.Fatal("no answers")
	}
	for id, m := range got {
		msg, ok := m["adapterError"].(string)
		if !ok || !strings.HasPrefix(msg, "AttributeError: ") || m["raisedIn"] != "adapter" || len(m) != 2 {
			t.Errorf("tcId %d: %v, want adapterError AttributeError raised in the adapter and nothing else", id, m)
		}
	}
}

// strictImpl takes exactly the inputs schema/functions.json declares for
// the functions of vectors/tfprivacy/expectations.json, no **kwargs, and
// checks each input's type: a peer's metadata (peer, peerValue, ...)
// passed as an input, or an input of the wrong kind, makes the call fail.
const strictImpl = `def _check(**kinds):
    for name, (v, kind) in kinds.items():
        if kind is list:
            ok = isinstance(v, list) and all(type(x) is float for x in v)
        else:
            ok = type(v) is kind
        if not ok:
            raise TypeError("%s: %r is not a %s" % (name, v, kind))

def SGMCurve(q, sigma, steps, alpha):
    _check(q=(q, float), sigma=(sigma, float), steps=(steps, int), alpha=(alpha, float))
    return 1.0

def Epsilon(orders, rdp, delta, conversion):
    _check(orders=(orders, list), rdp=(rdp, list), delta=(delta, float), conversion=(conversion, str))
    return 1.0, orders[0]

def DPSGDEpsilon(q, sigma, steps, delta, orders, conversion):
    _check(q=(q, float), sigma=(sigma, float), steps=(steps, int), delta=(delta, float),
           orders=(orders, list), conversion=(conversion, str))
    return 1.0, orders[0]
`

// The runner passes the function table's inputs and nothing else: on the
// TF Privacy expectations (tests and groups carrying peer, peerValue,
// peerOrder, ...) a module taking exactly those inputs, of their kinds,
// answers every valid test with a value (DPSGDEpsilon's orders come from
// the group where the test has none).
func TestPythonRunnerTableInputs(t *testing.T) {
	const vec = "../../vectors/tfprivacy/expectations.json"
	got := runPython(t, strictImpl, vec)
	data, err := os.ReadFile(vec)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		TestGroups []struct {
			Tests []struct {
				TcID   int    `json:"tcId"`
				Result string `json:"result"`
			} `json:"tests"`
		} `json:"testGroups"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range file.TestGroups {
		for _, tc := range g.Tests {
			if tc.Result != "valid" {
				continue
			}
			n++
			if _, ok := got[tc.TcID]["value"]; !ok {
				t.Errorf("tcId %d: %v, want a value", tc.TcID, got[tc.TcID])
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s: no valid tests", vec)
	}
}

// TestPythonRunnerAsksEachPointOnce: a point that two tests ask (here two
// groups of one file holding the same three points, as two vector files
// can share points under -all) is run once and its answer given to both.
// The implementation counts its calls in a file.
func TestPythonRunnerAsksEachPointOnce(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls.txt")
	impl := filepath.Join(dir, "counting.py")
	src := "import math\ndef SGM(q, sigma, alpha):\n    with open(" + strconv.Quote(calls) + ", 'a') as f:\n        f.write('x')\n    return q * q * alpha / (sigma * sigma)\n"
	if err := os.WriteFile(impl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := vectors.Load("sgm_rdp.json")
	if err != nil {
		t.Fatal(err)
	}
	points := f.TestGroups[0].Tests[:3]
	var groups []string
	tcID := 0
	for _, name := range []string{"first", "again"} {
		var tests []string
		for _, p := range points {
			tcID++
			tests = append(tests, fmt.Sprintf(`{"tcId": %d, "q": %q, "qHex": %q, "sigma": %q, "sigmaHex": %q, "alpha": %q, "alphaHex": %q, "result": "valid"}`, tcID, p.Q, p.QHex, p.Sigma, p.SigmaHex, p.Alpha, p.AlphaHex))
		}
		groups = append(groups, fmt.Sprintf(`{"name": %q, "function": "SGM", "tests": [%s]}`, name, strings.Join(tests, ", ")))
	}
	vec := filepath.Join(dir, "twice.json")
	if err := os.WriteFile(vec, []byte(`{"testGroups": [`+strings.Join(groups, ", ")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "a.jsonl")
	if b, err := exec.Command(py, "../../examples/run_vectors.py", vec, impl, "-o", answers, "-functions", "../../vectors/schema/functions.json").CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, b)
	}
	n, _ := os.ReadFile(calls)
	lines := readAnswerLines(t, answers)
	if len(n) != 3 || len(lines) != 6 {
		t.Errorf("%d calls for %d answers, want 3 for 6", len(n), len(lines))
	}
}

// A returned order that says none was chosen (0, nan or None: how
// dp_accounting and Opacus say so, beside eps = inf) is left out of the
// answer, which the scorer would refuse, while one of the test's orders is
// kept. The implementation cycles through them, test after test, in one
// worker: 0, nan, None, the test's first order, its last.
func TestPythonRunnerNoOrder(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "impl.py")
	src := `import itertools
_orders = itertools.cycle([0, float('nan'), None, 'first', 'last'])
def Epsilon(orders, rdp, delta, conversion):
    o = next(_orders)
    return float('inf'), {'first': orders[0], 'last': orders[-1]}.get(o, o)
`
	if err := os.WriteFile(impl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "a.jsonl")
	if b, err := exec.Command(py, "../../examples/run_vectors.py", "../../vectors/conversions.json", impl, "-o", answers).CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, b)
	}
	f, err := vectors.Load("conversions.json")
	if err != nil {
		t.Fatal(err)
	}
	ends := map[int][2]string{} // tcId -> its first and last order
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			o := g.InputOrders(tc)
			ends[tc.TcID] = [2]string{o[0], o[len(o)-1]}
		}
	}
	none, kept := 0, 0
	for id, m := range readAnswerLines(t, answers) {
		o, ok := m["order"]
		switch {
		case m["value"] != "inf" || len(m) > 2:
			t.Errorf("tcId %d: %v, want value inf and at most an order", id, m)
		case !ok:
			none++
		default:
			kept++
			x, _ := schema.ParseFloat(ends[id][0])
			y, _ := schema.ParseFloat(ends[id][1])
			if got := fmt.Sprint(o); got != fmt.Sprint(x) && got != fmt.Sprint(y) && !(got == "inf" && math.IsInf(y, 1)) {
				t.Errorf("tcId %d: order %v, want %v or %v", id, o, x, y)
			}
		}
	}
	if none == 0 || kept == 0 {
		t.Errorf("%d answers without an order, %d with one; want some of each", none, kept)
	}
	if code, _, errOut := runScoreCLI(t, "-vectors", "conversions.json", answers); code == 2 || strings.Contains(errOut, "order") {
		t.Errorf("score exit %d: %s", code, errOut)
	}
}

// The event functions get the DpEvent as the plain dict of its JSON and
// the relation as dp_accounting's name; run_vectors.to_dp_event builds
// the event's objects with the dp_event module an adapter gives it (here
// a stub whose classes keep their fields), nested events included.
func TestPythonRunnerEvents(t *testing.T) {
	impl := `import run_vectors
class _Event:
    def __init__(self, **fields):
        self.__dict__.update(fields)
class _DpEvent:
    def __getattr__(self, name):
        if not name.endswith("DpEvent"):
            raise AttributeError(name)
        return type(name, (_Event,), {})
def EventEpsilon(event, neighboringRelation, delta):
    if not isinstance(event, dict) or neighboringRelation not in ("ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL"):
        raise RuntimeError("not a dict and a relation: %r %r" % (event, neighboringRelation))
    if not delta > 0:
        raise ValueError("delta must be > 0")
    def check(e):  # dp_accounting's types: floats for numbers, ints for counts
        if e["class_name"] == "GaussianDpEvent" and type(e["noise_multiplier"]) is not float:
            raise RuntimeError("noise_multiplier %r is no float" % e["noise_multiplier"])
        if e["class_name"] == "SelfComposedDpEvent" and type(e["count"]) is not int:
            raise RuntimeError("count %r is no int" % e["count"])
        for v in e.values():
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, dict):
                    check(x)
    check(event)
    ev = run_vectors.to_dp_event(event, _DpEvent())
    if type(ev).__name__ == "SelfComposedDpEvent" and type(ev.event).__name__ == "PoissonSampledDpEvent":
        return ev.count + ev.event.sampling_probability
    if type(ev).__name__ == "NoOpDpEvent":
        return 0.0
    return float("inf")
`
	got := runPython(t, impl, "../../vectors/event_profile.json")
	f, err := vectors.Load("event_profile.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range f.TestGroups {
		if g.Function != schema.EventEpsilon {
			continue
		}
		for _, tc := range g.Tests {
			m := got[tc.TcID]
			delta, _ := tc.Float("delta")
			var want map[string]any
			switch {
			case !(delta > 0):
				want = map[string]any{"error": "ValueError: delta must be > 0", "errorType": "ValueError", "raisedIn": "adapter"}
			case tc.TcID == 1: // Opacus's question: 50 steps at q = 0.2
				want = map[string]any{"value": 50.2}
			case tc.TcID == 61: // 200 steps at q = 0.05 of two GaussianDpEvents written "noise_multiplier":2
				want = map[string]any{"value": 200.05}
			case strings.HasPrefix(string(tc.Event), `{"class_name":"NoOpDpEvent"`):
				want = map[string]any{"value": 0.0}
			}
			if want == nil {
				continue
			}
			if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("tcId %d (%s) (-want +got):\n%s", tc.TcID, tc.Comment, diff)
			}
		}
	}
	if len(got) == 0 {
		t.Fatal("no answers")
	}
}
