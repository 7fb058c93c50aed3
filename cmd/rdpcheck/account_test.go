package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const eventDir = "../../peers/accountants/dpevents/"

// TestEpsilonBestOrder: epsilon's default is the best order: not above the
// grid's eps (-orders grid), not below the reference's eps at the order it
// returns (which -reference prints).
func TestEpsilonBestOrder(t *testing.T) {
	args := []string{"epsilon", "-q", "0.01", "-sigma", "1.1", "-steps", "1000", "-delta", "1e-5", "-json"}
	var best, grid struct {
		Epsilon, Order   float64
		Orders           string
		EpsilonReference string `json:"epsilon_reference"`
	}
	for _, c := range []struct {
		extra []string
		into  any
	}{{[]string{"-reference"}, &best}, {[]string{"-orders", "grid"}, &grid}} {
		code, out, errOut := runCLI(append(args, c.extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := json.Unmarshal([]byte(out), c.into); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
	}
	if best.Orders != "best" || grid.Orders != "grid" || best.Epsilon > grid.Epsilon {
		t.Errorf("best %+v, grid %+v", best, grid)
	}
	ref, _, err := dpevent.DPSGDReferenceEpsilon(reference.Context{}, dpevent.Phase{Q: 0.01, Sigma: 1.1, Steps: 1000}, []float64{best.Order}, 1e-5, reference.Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	if best.EpsilonReference != schema.BigDec(ref) || ref.Cmp(big.NewFloat(best.Epsilon)) > 0 {
		t.Errorf("reference %s (printed %s), fast %v", schema.BigDec(ref), best.EpsilonReference, best.Epsilon)
	}
}

// TestAccountJSON: account -json on dp_accounting's MNIST event file gives
// the epsilon of epsilon with the same setting (q = 256/60000, sigma =
// 1.1, 14063 steps), both at the grid and at the best order.
func TestAccountJSON(t *testing.T) {
	for _, orders := range []string{"grid", "best"} {
		code, out, errOut := runCLI("account", "-delta", "1e-5", "-json", "-orders", orders, eventDir+"dpsgd_mnist_tutorial.json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got struct {
			Epsilon, Delta, Order float64
			Relation              string
			Events                []struct {
				Path  string
				Count int
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		code, out2, _ := runCLI("epsilon", "-q", "0.004266666666666667", "-sigma", "1.1", "-steps", "14063", "-delta", "1e-5", "-json", "-orders", orders)
		var want struct{ Epsilon, Order float64 }
		if code != 0 || json.Unmarshal([]byte(out2), &want) != nil {
			t.Fatalf("epsilon: exit %d %q", code, out2)
		}
		if got.Epsilon != want.Epsilon || got.Order != want.Order || got.Delta != 1e-5 || got.Relation != "ADD_OR_REMOVE_ONE" {
			t.Errorf("-orders %s: account %+v, epsilon %+v", orders, got, want)
		}
		if diff := cmp.Diff([]struct {
			Path  string
			Count int
		}{{"event.event", 14063}}, got.Events); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	}
}

// TestAccountOutputs: -eps, infinities as "inf", -relation, -reference,
// and the errors a person can act on.
func TestAccountOutputs(t *testing.T) {
	code, out, errOut := runCLI("account", "-json", eventDir+"noop_and_nonprivate.json", "-delta", "1e-5")
	var inf map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &inf) != nil || inf["epsilon"] != "inf" {
		t.Errorf("non-private: exit %d, %q %s", code, out, errOut)
	}
	code, out, errOut = runCLI("account", "-eps", "3", "-orders", "grid", "-reference", eventDir+"queries_mixed.json")
	// dp_accounting printed delta 3.5928248047533114e-09 at order 13
	if code != 0 || !strings.HasPrefix(out, "delta = 3.592824805e-09 at order 13 ") || !strings.Contains(out, "reference delta = 3.59282480") {
		t.Errorf("queries -eps 3: exit %d\n%s%s", code, out, errOut)
	}
	if errOut != "" {
		t.Errorf("a run of less than %v wrote on stderr: %q", progressAfter, errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-delta", "1e-5", "-relation", "ADD_OR_REMOVE_ONE", eventDir + "label_dp_rr.json"}, 1, "event: RandomizedResponseDpEvent needs the relation REPLACE_ONE or REPLACE_SPECIAL"},
		{[]string{"-delta", "1e-5", "-relation", "REPLACE_ONE", eventDir + "dpsgd_two_phases.json"}, 1, "event.events[0].event: PoissonSampledDpEvent needs the relation"},
		// caught: "a bad -relation exited 1 without the pointer to -h"
		{[]string{"-delta", "1e-5", "-relation", "nope", eventDir + "dpsgd_two_phases.json"}, 2, "rdpcheck account: -relation nope: want ADD_OR_REMOVE_ONE, REPLACE_ONE or REPLACE_SPECIAL\nrun 'rdpcheck account -h' for usage\n"},
		{[]string{"-delta", "1e-10", eventDir + "pure_and_approx.json"}, 1, "not above the delta of the (epsilon, delta) events"},
		{[]string{eventDir + "queries_mixed.json"}, 2, "give one of -delta"},
		{[]string{"-delta", "1e-5"}, 2, "want one event file"},
		{[]string{"-delta", "1e-5", "no-such-file.json"}, 1, "rdpcheck account: cannot read no-such-file.json: no such file or directory\n"},
	} {
		code, _, errOut := runCLI(append([]string{"account"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestAccountEveryPeerFile: account reads every file dp_accounting 0.6.0
// wrote (peers/accountants/dpevents) and, on dp_accounting's grid, prints
// the epsilon at delta 1e-5 it printed (within 1e-12; dp_accounting above
// by the causes in dpevent/FINDINGS.md where listed); the best order is
// never above the grid.
func TestAccountEveryPeerFile(t *testing.T) {
	// dp_accounting's largest relative excess at delta 1e-5, with its cause
	above := map[string]float64{
		"dpsgd_mnist_tutorial.json": 3e-7,   // _compute_log_a_frac's |C(alpha, i)|
		"dpsgd_two_phases.json":     2.1e-5, // the same
	}
	names, err := filepath.Glob(eventDir + "*.json")
	if err != nil || len(names) != 12 {
		t.Fatalf("want the 12 files of %s, have %d (%v)", eventDir, len(names), err)
	}
	for _, n := range names {
		base := filepath.Base(n)
		var eps [2]float64
		for i, orders := range []string{"grid", "best"} {
			code, out, errOut := runCLI("account", "-delta", "1e-5", "-json", "-orders", orders, n)
			if code != 0 {
				t.Fatalf("%s -orders %s: exit %d: %s", base, orders, code, errOut)
			}
			var got struct{ Epsilon any }
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s: %v in %q", base, err, out)
			}
			switch v := got.Epsilon.(type) {
			case float64:
				eps[i] = v
			default:
				eps[i] = math.Inf(1) // "inf"
			}
		}
		if eps[1] > eps[0] {
			t.Errorf("%s: best-order eps %v above the grid's %v", base, eps[1], eps[0])
		}
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			Dp map[string][2]any `json:"dp_accounting_0_6_0"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatal(err)
		}
		var want float64
		switch v := w.Dp["epsilon_at_delta_1e-05"][0].(type) {
		case float64:
			want = v
		default:
			want = math.Inf(1)
		}
		switch rel := (want - eps[0]) / eps[0]; {
		case want == eps[0]:
		case base == "exponential_mechanism_10.json":
			// dp_accounting ignores the count of 10 (FINDINGS.md): it is far below
			if !(want < eps[0]/4) {
				t.Errorf("%s: dp_accounting %v, rdpcheck %v: want dp_accounting far below (count ignored)", base, want, eps[0])
			}
		case math.Abs(rel) <= 1e-12, rel > 0 && rel <= above[base]:
		default:
			t.Errorf("%s: rdpcheck %.17g on the grid, dp_accounting %.17g (rel %.3g)", base, eps[0], want, rel)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestAccountProgress: a run longer than progressAfter says on stderr what
// it is doing, every progressEvery, and nothing once ended (a shorter run
// prints nothing: TestAccountOutputs).
func TestAccountProgress(t *testing.T) {
	defer func(a, e time.Duration) { progressAfter, progressEvery = a, e }(progressAfter, progressEvery)
	progressAfter, progressEvery = 0, time.Millisecond
	var w syncBuffer
	p := startProgress(&w, "account")
	p.set("reference at order %g: event %d of %d", 8.5, 2, 3)
	for deadline := time.Now().Add(10 * time.Second); strings.Count(w.String(), "event 2 of 3") < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no progress in 10 s: %q", w.String())
		}
	}
	p.end()
	out := w.String()
	time.Sleep(20 * time.Millisecond)
	if w.String() != out {
		t.Errorf("progress after end: %q", strings.TrimPrefix(w.String(), out))
	}
	line := regexp.MustCompile(`^rdpcheck account: [0-9]+ s: (reference at order 8.5: event 2 of 3)?$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("progress line %q", l)
		}
	}
}

// TestAccountScale: the deep and wide files a user once fed it (35 s and 3 GB, unusable output), read through the
// command: one row per distinct event with its count, JSON likewise, and
// "-" reads standard input.
func TestAccountScale(t *testing.T) {
	g := `{"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}`
	deep := strings.Repeat(`{"class_name": "ComposedDpEvent", "events": [`+g+`, `, 4900) + g + strings.Repeat("]}", 4900)
	wide := `{"class_name": "ComposedDpEvent", "events": [` + strings.Repeat(`{"class_name": "GaussianDpEvent", "noise_multiplier": 2.0}, `, 100000) + g + `]}`
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		rows       [][2]any // event, count
	}{
		{"deep.json", deep, [][2]any{{"Gaussian sigma=1", 4901.0}}},
		{"wide.json", wide, [][2]any{{"Gaussian sigma=2", 100000.0}, {"Gaussian sigma=1", 1.0}}},
	} {
		name := filepath.Join(dir, c.name)
		if err := os.WriteFile(name, []byte(c.data), 0o666); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI("account", "-delta", "1e-5", "-json", name)
		var got struct {
			Events []struct {
				Event string
				Count float64
			}
		}
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%s: exit %d: %s%s", c.name, code, out, errOut)
		}
		var rows [][2]any
		for _, e := range got.Events {
			rows = append(rows, [2]any{e.Event, e.Count})
		}
		if diff := cmp.Diff(c.rows, rows); diff != "" {
			t.Errorf("%s: rows (-want +got):\n%s", c.name, diff)
		}
		code, table, errOut := runCLI("account", "-delta", "1e-5", name)
		if n := strings.Count(table, "\n"); code != 0 || n != 3+len(c.rows) {
			t.Errorf("%s: exit %d, %d lines:\n%s%s", c.name, code, n, table, errOut)
		}
		// the same from standard input
		stdin = strings.NewReader(c.data)
		code, fromStdin, errOut := runCLI("account", "-delta", "1e-5", "-")
		stdin = os.Stdin
		if code != 0 || fromStdin != table {
			t.Errorf("%s from stdin: exit %d\n%s%s\nwant\n%s", c.name, code, fromStdin, errOut, table)
		}
	}
}
