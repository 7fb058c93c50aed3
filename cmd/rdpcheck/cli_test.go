package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// The DP-SGD case of TF Privacy's tutorial (n = 60000, batch 256, 60 epochs,
// sigma 1.1, delta 1e-5, dp_accounting's default orders). Expected: what
// tensorflow/privacy 3059fba printed, 2.596655528688368 at order 8.1
// (peers/tfprivacy/dpsgd_epsilon.json, first case). TF's value is within
// float64 noise of the truth (3e-12 relative), so 1e-9 is a tolerance no
// wrong formula passes.
func TestEpsilonTutorial(t *testing.T) {
	code, out, errOut := runCLI("epsilon", "-n", "60000", "-batch", "256", "-epochs", "60", "-sigma", "1.1", "-delta", "1e-5", "-json", "-orders", "grid")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Epsilon, Order, Q float64
		Steps             int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	// steps = ceil(60 * 60000/256), as compute_dp_sgd_privacy counts them.
	type setting struct {
		Order, Q float64
		Steps    int
	}
	if diff := cmp.Diff(setting{Order: 8.1, Q: 256.0 / 60000, Steps: 14063}, setting{got.Order, got.Q, got.Steps}); diff != "" {
		t.Errorf("order, q and steps (-want +got):\n%s", diff)
	}
	if r := schema.RelativeError(got.Epsilon, big.NewFloat(2.596655528688368)); !(r <= 1e-9) {
		t.Errorf("eps %v (relative error %.2g), TF printed 2.596655528688368", got.Epsilon, r)
	}
}

func TestCalibrationCommands(t *testing.T) {
	code, out, errOut := runCLI("sigma", "-q", "0.01", "-steps", "1000", "-eps", "2", "-delta", "1e-5", "-json")
	if code != 0 {
		t.Fatalf("sigma: exit %d: %s", code, errOut)
	}
	var s struct{ Sigma, Epsilon_achieved float64 }
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if !(s.Epsilon_achieved <= 2) || !(s.Sigma > 0.5 && s.Sigma < 5) {
		t.Errorf("sigma: %+v", s)
	}
	// Feeding the calibrated sigma back must give at most the target eps.
	code, out, _ = runCLI("epsilon", "-q", "0.01", "-steps", "1000", "-delta", "1e-5", "-json", "-sigma", jsonNum(s.Sigma))
	var e struct{ Epsilon float64 }
	if json.Unmarshal([]byte(out), &e); code != 0 || e.Epsilon > 2 {
		t.Errorf("epsilon at calibrated sigma: %v (exit %d)", e.Epsilon, code)
	}
	code, out, errOut = runCLI("steps", "-q", "0.01", "-sigma", "1.1", "-eps", "2", "-delta", "1e-5", "-json")
	var st struct {
		Steps            int
		Epsilon_achieved float64
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Steps <= 0 || st.Epsilon_achieved > 2 {
		t.Errorf("steps: exit %d %q %q", code, out, errOut)
	}
}

func jsonNum(x float64) string { b, _ := json.Marshal(x); return string(b) }

func TestCurve(t *testing.T) {
	code, out, errOut := runCLI("curve", "-q", "1", "-sigma", "2", "-steps", "3", "-orders", "2,4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// q = 1 is the Gaussian line: 3 * alpha/(2*4) = 0.75 and 1.5.
	if !strings.Contains(out, "0.75") || !strings.Contains(out, "1.5") {
		t.Errorf("table:\n%s", out)
	}
	dir := t.TempDir()
	for _, name := range []string{"c.png", "c.svg"} {
		path := filepath.Join(dir, name)
		code, _, errOut = runCLI("curve", "-mech", "sgm:q=0.01,sigma=1.1,steps=100", "-mech", "gaussian:sigma=5,count=2", "-mech", "zcdp:rho=0.1", "-"+strings.TrimPrefix(filepath.Ext(name), "."), path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 1000 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
}

// TestJSONInfinity: sigma -json and steps -json write an infinite value as
// "inf", as the other JSON outputs do (encoding/json cannot write +Inf).
func TestJSONInfinity(t *testing.T) {
	inf := math.Inf(1)
	for name, v := range map[string]map[string]any{
		"sigma": sigmaJSON(0.01, 10, 1, 1e-5, fast.Improved, inf, inf, "best"),
		"steps": stepsJSON(0.01, 1, 1, 1e-5, fast.Improved, 10, inf, "best"),
	} {
		var b bytes.Buffer
		if err := writeJSON(&b, v); err != nil {
			t.Errorf("%s -json: %v", name, err)
			continue
		}
		var got map[string]any
		json.Unmarshal(b.Bytes(), &got)
		want := map[string]any{"epsilon_achieved": "inf"}
		if name == "sigma" {
			want["sigma"] = "inf"
		}
		gotSub := map[string]any{}
		for k := range want {
			gotSub[k] = got[k]
		}
		if diff := cmp.Diff(want, gotSub); diff != "" {
			t.Errorf("%s -json (-want +got):\n%s", name, diff)
		}
	}
}

// TestEpsilonReferenceProgress: epsilon -reference reports each tenth of the
// orders on stderr (one line per order for 5 orders) and prints the same
// reference eps as dpevent.DPSGDReferenceEpsilon without progress.
func TestEpsilonReferenceProgress(t *testing.T) {
	code, out, errOut := runCLI("epsilon", "-q", "0.01", "-sigma", "2", "-steps", "100", "-delta", "1e-5", "-orders", "2,4,8,16,32", "-reference", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var progress []string
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasSuffix(l, " orders") && strings.Contains(l, "/") {
			progress = append(progress, l)
		}
	}
	want := []string{"reference: 1/5 orders", "reference: 2/5 orders", "reference: 3/5 orders", "reference: 4/5 orders", "reference: 5/5 orders"}
	if diff := cmp.Diff(want, progress); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s\nstderr: %s", diff, errOut)
	}
	var got struct {
		EpsilonReference string `json:"epsilon_reference"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	eps, _, err := dpevent.DPSGDReferenceEpsilon(reference.Context{}, dpevent.Phase{Q: 0.01, Sigma: 2, Steps: 100}, []float64{2, 4, 8, 16, 32}, 1e-5, reference.Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.EpsilonReference != schema.BigDec(eps) {
		t.Errorf("epsilon_reference %s, want %s", got.EpsilonReference, schema.BigDec(eps))
	}
}

// TestCalibrationProgress: sigma, steps and epsilon name their steps for
// the progress lines on stderr (a calibration takes milliseconds, so
// each step is reported as it is set rather than by the timer, which
// TestAccountProgress tests).
func TestCalibrationProgress(t *testing.T) {
	defer func(e bool) { progressEachStep = e }(progressEachStep)
	progressEachStep = true
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sigma", "-q", "0.01", "-steps", "100", "-eps", "1", "-delta", "1e-5"}, "rdpcheck sigma: 0 s: searching sigma in [0.01, 10000]"},
		{[]string{"steps", "-q", "0.01", "-sigma", "300", "-eps", "0.01", "-delta", "1e-5"}, "rdpcheck steps: 0 s: searching counts up to 2^40"},
		{[]string{"epsilon", "-q", "0.01", "-sigma", "1000", "-steps", "100", "-delta", "1e-5"}, "rdpcheck epsilon: 0 s: searching the best order"}, // best order near 18000: about 0.1 s
	} {
		code, _, errOut := runCLI(c.args...)
		if code != 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestRoundDigits: the printed bounds keep their direction: roundDownDigits
// is at most x and roundUpDigits at least x, each has at most n significant
// digits when printed, and they are within one unit of the n-th digit of x.
func TestRoundDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		x := math.Exp(rng.Float64()*80 - 40)
		for _, n := range []int{1, 7, 8, 15} {
			lo, hi := roundDownDigits(x, n), roundUpDigits(x, n)
			unit := math.Pow(10, math.Floor(math.Log10(x))-float64(n-1))
			if lo > x || hi < x || x-lo > 1.0001*unit || hi-x > 1.0001*unit {
				t.Fatalf("x = %.17g, n = %d: down %.17g, up %.17g", x, n, lo, hi)
			}
			for _, v := range []float64{lo, hi} {
				digits := strings.TrimLeft(strings.ReplaceAll(strings.Split(strconv.FormatFloat(v, 'e', -1, 64), "e")[0], ".", ""), "0")
				if len(digits) > n {
					t.Fatalf("x = %.17g, n = %d: %v prints with %d digits", x, n, v, len(digits))
				}
			}
		}
	}
	// caught: "sigma printed rounded to nearest read back above the target"
	if got := roundUpDigits(0.5831149057, 8); got != 0.58311491 {
		t.Errorf("roundUpDigits(0.5831149057, 8) = %v, want 0.58311491", got)
	}
	if got := roundDownDigits(0.58311491, 8); got != 0.58311491 {
		t.Errorf("roundDownDigits of an 8-digit number changed it: %v", got)
	}
}

// failWriter refuses every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// writeCases are a run of each command that writes on stdout, as text and
// as JSON.
var writeCases = [][]string{
	{"help"},
	{"epsilon", "-q", "0.01", "-sigma", "1", "-steps", "100", "-delta", "1e-5"},
	{"epsilon", "-q", "0.01", "-sigma", "1", "-steps", "100", "-delta", "1e-5", "-json"},
	{"epsilon", "-phase", "q=0.01,sigma=1,steps=100", "-phase", "q=0.02,sigma=1,steps=10", "-eps", "1"},
	{"sigma", "-q", "0.01", "-steps", "100", "-eps", "1", "-delta", "1e-5"},
	{"sigma", "-q", "0.01", "-steps", "100", "-eps", "1", "-delta", "1e-5", "-json"},
	{"steps", "-q", "0.01", "-sigma", "1", "-eps", "1", "-delta", "1e-5"},
	{"steps", "-q", "0.01", "-sigma", "1", "-eps", "1", "-delta", "1e-5", "-json"},
	{"account", "-delta", "1e-5", eventDir + "queries_mixed.json"},
	{"account", "-delta", "1e-5", "-json", eventDir + "queries_mixed.json"},
	{"curve", "-mech", "gaussian:sigma=1", "-orders", "2,4"},
	{"curve", "-mech", "gaussian:sigma=1", "-orders", "2,4", "-json"},
	{"score", "-digests", "embedded"},
}

// TestWriteErrors: output that cannot be written fails every command with
// exit status 1 and says so (text output once exited 0 on /dev/full,
// where -json reported the error).
func TestWriteErrors(t *testing.T) {
	for _, args := range writeCases {
		var errOut bytes.Buffer
		code := run(args, failWriter{}, &errOut)
		if want := "cannot write the output: no space left on device\n"; code != 1 || !strings.HasSuffix(errOut.String(), want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q", args, code, errOut.String(), want)
		}
		if strings.Count(errOut.String(), "cannot write") != 1 {
			t.Errorf("%v: the write error said more than once: %q", args, errOut.String())
		}
	}
	// the device itself, where the system has one
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	var errOut bytes.Buffer
	if code := run(writeCases[1], full, &errOut); code != 1 || !strings.Contains(errOut.String(), "rdpcheck epsilon: cannot write the output: write /dev/full: no space left on device") {
		t.Errorf("epsilon > /dev/full: exit %d, stderr %q", code, errOut.String())
	}
}

// TestFlagGivenTwice: every command refuses a flag given twice (package
// flag keeps the last value: -q 0.01 -q 0.02 was the run at 0.02), with
// both values, exit status 2; a list flag adds to its list.
func TestFlagGivenTwice(t *testing.T) {
	dir := t.TempDir()
	png := []string{filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"epsilon", "-q", "0.01", "-q", "0.02", "-sigma", "1", "-steps", "10", "-delta", "1e-5"}, "-q given twice (0.01, then 0.02)"},
		{[]string{"epsilon", "-phase", "q=0.01,sigma=1,steps=10", "-delta", "1e-5", "-conv", "classic", "-conv", "improved"}, "-conv given twice (classic, then improved)"},
		{[]string{"sigma", "-q", "0.01", "-steps", "100", "-eps", "1", "-eps", "2", "-delta", "1e-5"}, "-eps given twice (1, then 2)"},
		{[]string{"steps", "-q", "0.01", "-sigma", "1", "-eps", "1", "-delta", "1e-5", "-delta", "1e-6"}, "-delta given twice (1e-5, then 1e-6)"},
		{[]string{"account", "-delta", "1e-5", eventDir + "queries_mixed.json", "-exact", "-exact"}, "-exact given twice"},
		{[]string{"account", "-relation", "REPLACE_ONE", "-relation", "REPLACE_SPECIAL", "-delta", "1e-5", eventDir + "queries_mixed.json"}, "-relation given twice (REPLACE_ONE, then REPLACE_SPECIAL)"},
		{[]string{"curve", "-q", "0.01", "-sigma", "1", "-steps", "10", "-steps", "20"}, "-steps given twice (10, then 20)"},
		{[]string{"curve", "-mech", "gaussian:sigma=1", "-png", png[0], "-png", png[1]}, "-png given twice (" + png[0] + ", then " + png[1] + ")"},
		{[]string{"score", "-vectors", "sgm_rdp.json", "-worst", "2", "-worst", "5", "answers.jsonl"}, "-worst given twice (2, then 5)"},
	} {
		code, out, errOut := runCLI(c.args...)
		want := fmt.Sprintf("rdpcheck %s: %s: give it once\nrun 'rdpcheck %s -h' for usage\n", c.args[0], c.want, c.args[0])
		if code != 2 || errOut != want || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and %q", c.args, code, errOut, out, want)
		}
	}
	// lists: each use adds
	code, out, errOut := runCLI("epsilon", "-phase", "q=0.01,sigma=1,steps=10", "-phase", "q=0.02,sigma=1,steps=10", "-delta", "1e-5", "-delta", "1e-6")
	if code != 0 || strings.Count(out, "eps = ") != 2 {
		t.Errorf("repeated -phase and -delta: exit %d, %q %q", code, out, errOut)
	}
}

// TestPrintExact: RDP's slack above the certified interval is one number
// when both ends print alike (it once printed "10.6% to 10.6%"), else a
// range; the interval's ends are rounded outward.
func TestPrintExact(t *testing.T) {
	for _, c := range []struct {
		iv   pld.Interval
		rdp  float64
		want string
	}{
		// 1.106/1.00001 - 1 = 10.599% and 1.106/0.99999 - 1 = 10.601%: both 10.6%
		{pld.Interval{Lo: 0.99999, Hi: 1.00001}, 1.106, "optimal eps in [0.99999, 1.00001]  (certified, from the privacy loss distribution: no accountant may report less than 0.99999)\nRDP's eps is 10.6% above the optimal\n"},
		// 1.2/1.1 - 1 = 9.09% and 1.2/1.0 - 1 = 20%
		{pld.Interval{Lo: 1, Hi: 1.1}, 1.2, "optimal eps in [1, 1.1]  (certified, from the privacy loss distribution: no accountant may report less than 1)\nRDP's eps is 9.09% to 20% above the optimal\n"},
	} {
		var b bytes.Buffer
		printExact(&b, c.iv, c.rdp, false)
		if diff := cmp.Diff(c.want, b.String()); diff != "" {
			t.Errorf("printExact(%v, %v) (-want +got):\n%s", c.iv, c.rdp, diff)
		}
	}
}

// TestHelpInUsersWords: no command's -h names a Go package or function
// (epsilon's once said "see fast.BestEpsilon" and "package fast") or shows
// a default of NaN (curve's -q once did).
func TestHelpInUsersWords(t *testing.T) {
	goWords := regexp.MustCompile(`\b(fast|reference|pld|dpsgd|dpevent|cases|schema|score|vectorstest|rdp)\.[A-Z]|\bpackage |\(default NaN\)`)
	for name := range commands {
		code, _, errOut := runCLI(name, "-h")
		if code != 0 || !strings.HasPrefix(errOut, "usage: rdpcheck "+name) {
			t.Errorf("%s -h: exit %d, %.80q", name, code, errOut)
		}
		if m := goWords.FindString(errOut); m != "" {
			t.Errorf("%s -h says %q", name, m)
		}
	}
}

// TestRoundDigitsSubnormal: a subnormal is rounded by one unit of its
// n-th digit, as any number (caught: "5.8558572761e-312 rounded up to
// 5.855867276e-312": math.Log10 of a subnormal is wrong on amd64,
// golang/go#56600, and gave the digit's place).
func TestRoundDigitsSubnormal(t *testing.T) {
	if got := roundUpDigits(5.8558572761e-312, 10); got != 5.855857277e-312 {
		t.Errorf("roundUpDigits(5.8558572761e-312, 10) = %v, want 5.855857277e-312", got)
	}
	if got := roundDownDigits(5.8558572761e-312, 10); got != 5.855857276e-312 {
		t.Errorf("roundDownDigits(5.8558572761e-312, 10) = %v, want 5.855857276e-312", got)
	}
}
