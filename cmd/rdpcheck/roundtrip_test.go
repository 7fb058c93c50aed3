package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// roundTripRuns are the runs the read-back tests sweep: single phases over
// the rates, noise and lengths DP-SGD uses, as flags and as TF Privacy's
// n, batch and epochs, a run of two phases, fixed batches drawn without
// replacement; each on the best order, dp_accounting's grid or a list.
// With -short, a quarter of them (no sigma of 8, whose best orders in the
// hundreds take a tenth of a second a search), and the two that once
// failed.
func roundTripRuns() [][]string {
	type run struct {
		args   []string
		short  bool
		orders string // "" for best, grid and a list in turn
	}
	var runs []run
	for _, q := range []string{"0.001", "0.01", "0.05", "0.2"} {
		for _, sigma := range []string{"0.7", "1.1", "2", "8"} {
			for _, steps := range []string{"1", "100", "10000"} {
				runs = append(runs, run{[]string{"-q", q, "-sigma", sigma, "-steps", steps}, len(runs)%4 == 0 && sigma != "8", ""})
			}
		}
	}
	runs = append(runs,
		// the two that once read back above eps 30
		run{[]string{"-q", "0.01", "-sigma", "1.1", "-steps", "10000"}, true, "best"},
		run{[]string{"-n", "60000", "-batch", "256", "-epochs", "60", "-sigma", "1.1"}, true, "best"},
		run{[]string{"-n", "50000", "-batch", "500", "-epochs", "1.1", "-sigma", "0.9"}, false, ""},
		run{[]string{"-phase", "q=0.01,sigma=1,steps=2000", "-phase", "q=0.02,sigma=1.2,steps=500"}, true, ""},
		run{[]string{"-sampling", "wor", "-n", "60000", "-batch", "256", "-epochs", "3", "-sigma", "0.6"}, true, ""},
		run{[]string{"-sampling", "wor", "-n", "1000", "-batch", "300", "-steps", "50", "-sigma", "2"}, false, ""},
	)
	var out [][]string
	for i, r := range runs {
		if testing.Short() && !r.short {
			continue
		}
		orders := r.orders
		if orders == "" {
			orders = []string{"best", "grid", "2,3.5,8,32,inf"}[i%3]
		}
		out = append(out, append(r.args, "-orders", orders))
		if i%5 == 0 { // the classic conversion on some
			out = append(out, append(r.args, "-orders", "best", "-conv", "classic"))
		}
	}
	return out
}

// roundTripTargets are the target eps of the read-back tests.
var roundTripTargets = []string{"0.1", "0.5", "1", "3", "8", "30"}

var (
	printedDelta = regexp.MustCompile(`(?m)^delta = (\S+) at order `)
	printedEps   = regexp.MustCompile(`(?m)^eps = (\S+) at order `)
)

// TestDeltaReadBack: the delta epsilon prints for a target eps, given back
// to epsilon as -delta with the same run and -orders, gives at most that
// eps: the line printed and the value -json writes, each read back as
// printed. (It once printed delta = 5.48586337e-88 for eps 30 at q 0.01,
// sigma 1.1, 10000 steps, which read back gave eps = 30.00000001.)
func TestDeltaReadBack(t *testing.T) {
	runs := roundTripRuns()
	checked, held := 0, 0
	for _, run := range runs {
		for _, target := range roundTripTargets {
			for _, asJSON := range []bool{false, true} {
				got, ok := deltaReadBack(t, run, target, asJSON)
				if !ok {
					continue // delta 0 or 1: nothing to read back
				}
				checked++
				if got <= mustFloat(t, target) {
					held++
					continue
				}
				t.Errorf("%s -eps %s (json %v): the delta printed, read back, gives eps %v", strings.Join(run, " "), target, asJSON, got)
			}
		}
	}
	t.Logf("%d of %d read-backs hold", held, checked)
	if checked < 80 {
		t.Errorf("only %d read-backs checked: the sweep lost its cases", checked)
	}
}

// deltaReadBack runs epsilon -eps target on run and then epsilon -delta
// with the delta printed (the line's or -json's), and returns the eps
// that prints; ok is false when the delta printed is 0 or 1, which
// -delta does not take.
func deltaReadBack(t *testing.T, run []string, target string, asJSON bool) (eps float64, ok bool) {
	t.Helper()
	args := append(append([]string{"epsilon"}, run...), "-eps", target)
	if asJSON {
		args = append(args, "-json")
	}
	code, out, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	delta := printedValue(t, out, printedDelta, "delta", asJSON)
	if d := mustFloat(t, delta); d == 0 || d >= 1 {
		return 0, false
	}
	args = append(append([]string{"epsilon"}, run...), "-delta", delta)
	if asJSON {
		args = append(args, "-json")
	}
	code, out, errOut = runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return mustFloat(t, printedValue(t, out, printedEps, "epsilon", asJSON)), true
}

// printedValue is the number a result line prints (re's group) or, for
// -json, the field key as JSON writes it.
func printedValue(t *testing.T, out string, re *regexp.Regexp, key string, asJSON bool) string {
	t.Helper()
	if !asJSON {
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no %s line in %q", key, out)
		}
		return m[1]
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return strings.Trim(string(v[key]), `"`)
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(fmt.Errorf("printed %q: %v", s, err))
	}
	return f
}

// TestEpsReadBack: the eps epsilon prints for a target delta, given back as
// -eps, gives a printed delta of at most that delta. (The line's: -json's
// unrounded eps, read back, gives a delta up to 3e-12 relative above the
// target in about half these runs, as the searches of the two directions
// stop at different orders.)
func TestEpsReadBack(t *testing.T) {
	runs := roundTripRuns()
	checked, held := 0, 0
	for _, run := range runs {
		for _, target := range []string{"1e-3", "1e-5", "1e-8", "1e-12"} {
			args := append(append([]string{"epsilon"}, run...), "-delta", target)
			code, out, errOut := runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			eps := printedValue(t, out, printedEps, "epsilon", false)
			args = append(append([]string{"epsilon"}, run...), "-eps", eps)
			code, out, errOut = runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			checked++
			got := mustFloat(t, printedValue(t, out, printedDelta, "delta", false))
			if got <= mustFloat(t, target) {
				held++
				continue
			}
			t.Errorf("%s -delta %s: the eps printed, %s, read back, gives delta %v", strings.Join(run, " "), target, eps, got)
		}
	}
	t.Logf("%d of %d read-backs hold", held, checked)
}

// TestAccountReadBack: account's delta for a target eps, given back as
// -delta with the same file, gives at most that eps, for every event file
// of the examples and of dp_accounting's peers.
func TestAccountReadBack(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "events", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	peers, err := filepath.Glob(eventDir + "*.json")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, peers...)
	targets := []string{"0.5", "3", "30"}
	if testing.Short() {
		targets = []string{"3"}
	}
	checked, held := 0, 0
	for _, f := range files {
		for _, target := range targets {
			for _, asJSON := range []bool{false, true} {
				for _, orders := range []string{"best", "grid"} {
					args := []string{"account", "-orders", orders, "-eps", target, f}
					if asJSON {
						args = append(args, "-json")
					}
					code, out, errOut := runCLI(args...)
					if code != 0 {
						t.Fatalf("%v: exit %d: %s", args, code, errOut)
					}
					delta := printedValue(t, out, printedDelta, "delta", asJSON)
					if d := mustFloat(t, delta); d == 0 || d >= 1 {
						continue
					}
					args[3], args[4] = "-delta", delta
					code, out, errOut = runCLI(args...)
					if code != 0 {
						t.Fatalf("%v: exit %d: %s", args, code, errOut)
					}
					checked++
					if got := mustFloat(t, printedValue(t, out, printedEps, "epsilon", asJSON)); got > mustFloat(t, target) {
						t.Errorf("%s -orders %s -eps %s (json %v): the delta printed, %s, read back, gives eps %v", filepath.Base(f), orders, target, asJSON, delta, got)
						continue
					}
					held++
				}
			}
		}
	}
	t.Logf("%d of %d read-backs hold", held, checked)
}
