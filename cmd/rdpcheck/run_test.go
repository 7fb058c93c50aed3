package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEpsilonAgreesWithAccount: a run described to epsilon (phases,
// sampling, several targets in one command) and the equivalent event file
// in examples/events given to account, one target at a time, print the
// same eps (or delta), order and per-phase RDP, to the bit. The two paths
// meet only in package fast: epsilon composes its phases itself, account
// decodes and plans the file in package dpevent.
func TestEpsilonAgreesWithAccount(t *testing.T) {
	cases := []struct {
		name string
		run  []string // epsilon's description of the run
		file string   // the same run as dp_accounting events
	}{
		{"two Poisson phases", []string{"-phase", "q=0.01,sigma=1,steps=1000", "-phase", "q=0.001,sigma=0.8,steps=5000"}, "dpsgd_two_phases.json"},
		// the same phases given as n, batch and epochs: q = 600/60000 is
		// 0.01 in float64, steps = ceil(10 * 60000/600) = 1000
		{"two phases by epochs", []string{"-phase", "n=60000,batch=600,epochs=10,sigma=1", "-phase", "q=0.001,sigma=0.8,steps=5e3"}, "dpsgd_two_phases.json"},
		// a phase resumed after another: composed as one with its steps
		// added, as account's plan adds the counts of one event
		{"a phase resumed", []string{"-phase", "q=0.01,sigma=1,steps=400", "-phase", "q=0.001,sigma=0.8,steps=5000", "-phase", "q=0.01,sigma=1,steps=600"}, "dpsgd_two_phases.json"},
		{"a phase in two parts", []string{"-phase", "q=0.01,sigma=1,steps=400", "-phase", "q=0.01,sigma=1,steps=600", "-phase", "q=0.001,sigma=0.8,steps=5000"}, "dpsgd_two_phases.json"},
		{"fixed batches without replacement", []string{"-sampling", "wor", "-n", "60000", "-batch", "256", "-steps", "14040", "-sigma", "1.1"}, "dpsgd_fixed_batches.json"},
		{"fixed batches as a phase", []string{"-sampling", "wor", "-phase", "n=60000,batch=256,steps=14040,sigma=1.1"}, "dpsgd_fixed_batches.json"},
		// one Poisson phase, by the single-phase flags: the same accounting
		// on every orders flag (on a grid or a list it used to be summed
		// another way, one ulp apart)
		{"one Poisson phase", []string{"-q", "0.01", "-sigma", "1.1", "-steps", "10000"}, "one_phase"},
	}
	onePhase := filepath.Join(t.TempDir(), "one_phase.json")
	if err := os.WriteFile(onePhase, []byte(`{"neighboring_relation": "ADD_OR_REMOVE_ONE", "event": {"class_name": "SelfComposedDpEvent", "count": 10000,
		"event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.1}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	targets := []struct {
		flag   string
		values []string
	}{
		{"-delta", []string{"1e-5", "1e-6", "1e-10"}},
		{"-eps", []string{"1", "3"}},
	}
	for _, c := range cases {
		file := filepath.Join("..", "..", "examples", "events", c.file)
		if c.file == "one_phase" {
			file = onePhase
		}
		for _, orders := range []string{"best", "grid", "2,4.5,8,32"} {
			for _, tg := range targets {
				args := append([]string{"epsilon"}, c.run...)
				args = append(args, tg.flag, strings.Join(tg.values, ","), "-orders", orders, "-json")
				code, out, errOut := runCLI(args...)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
				}
				var got []map[string]any
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
				if len(got) != len(tg.values) {
					t.Fatalf("%s: %d results, want %d", strings.Join(args, " "), len(got), len(tg.values))
				}
				for i, v := range tg.values {
					acc := []string{"account", tg.flag, v, "-orders", orders, "-json", file}
					code, aout, errOut := runCLI(acc...)
					if code != 0 {
						t.Fatalf("%s: exit %d: %s", strings.Join(acc, " "), code, errOut)
					}
					var want map[string]any
					if err := json.Unmarshal([]byte(aout), &want); err != nil {
						t.Fatal(err)
					}
					where := c.name + ": " + strings.Join(args, " ") + " vs " + strings.Join(acc, " ")
					for _, k := range []string{"epsilon", "delta", "order", "relation", "conversion", "orders"} {
						if got[i][k] != want[k] {
							t.Errorf("%s: %s %v, account %v", where, k, got[i][k], want[k])
						}
					}
					// each distinct phase's RDP is account's row for it
					phases := got[i]["phases"].([]any)
					events := want["events"].([]any)
					if len(phases) != len(events) {
						continue // a phase repeated: its parts are rows of their own
					}
					for j := range phases {
						p, e := phases[j].(map[string]any), events[j].(map[string]any)
						if p["rdp"] != e["rdp"] || p["steps"] != e["count"] {
							t.Errorf("%s: phase %d: rdp %v steps %v, account rdp %v count %v", where, j+1, p["rdp"], p["steps"], e["rdp"], e["count"])
						}
					}
				}
			}
		}
	}
}
