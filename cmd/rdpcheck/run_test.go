package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
)

// TestEpsilonAgreesWithAccount: a run described to epsilon (phases,
// sampling, several targets in one command) and the equivalent event file
// in examples/events given to account, one target at a time, print the
// same eps (or delta), order and per-phase RDP, to the bit: epsilon plans
// the run with dpevent.DPSGD, account decodes and plans the file.
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

// TestRunsTakeTheOnePath: epsilon's eps, sigma's and steps' achieved eps
// are dpevent.DPSGD's plan's Epsilon, bit for bit, for one phase and
// several, Poisson and without replacement, on every orders flag; and
// epsilon -exact's interval is DPSGDExact's. The
// first run is one where another way to the same eps (fast.SGMCurve then
// fast.Epsilon, which rounds once less than the plan's accountant) gives
// other bits, so a command that went around the plan would fail here.
func TestRunsTakeTheOnePath(t *testing.T) {
	type run struct {
		name   string
		flags  []string // the run for epsilon
		phases []dpevent.Phase
		wor    bool
	}
	runs := []run{
		{"one Poisson phase", []string{"-q", "0.1", "-sigma", "1.1", "-steps", "100"}, []dpevent.Phase{{Q: 0.1, Sigma: 1.1, Steps: 100}}, false},
		{"two phases, one resumed", []string{"-phase", "q=0.01,sigma=1,steps=400", "-phase", "q=0.001,sigma=0.8,steps=5000", "-phase", "q=0.01,sigma=1,steps=600"},
			[]dpevent.Phase{{Q: 0.01, Sigma: 1, Steps: 400}, {Q: 0.001, Sigma: 0.8, Steps: 5000}, {Q: 0.01, Sigma: 1, Steps: 600}}, false},
		{"fixed batches", []string{"-sampling", "wor", "-n", "60000", "-batch", "256", "-steps", "3000", "-sigma", "1.1"}, []dpevent.Phase{{N: 60000, Batch: 256, Sigma: 1.1, Steps: 3000}}, true},
	}
	const delta = 1e-5
	planEps := func(t *testing.T, phases []dpevent.Phase, wor bool, orders []float64) (float64, float64) {
		t.Helper()
		p, err := dpevent.DPSGD(phases, wor)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Epsilon(delta, orders, fast.Improved)
		if err != nil {
			t.Fatal(err)
		}
		return r.Epsilon, r.Order
	}
	cli := func(t *testing.T, args ...string) map[string]any {
		t.Helper()
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return got
	}
	num := func(v any) float64 { f, _ := v.(float64); return f }

	// the first run tells a bypass from the plan
	p := runs[0].phases[0]
	curve := make([]float64, len(fast.DefaultOrders()))
	if err := fast.SGMCurve(p.Q, p.Sigma, int(p.Steps), fast.DefaultOrders(), curve); err != nil {
		t.Fatal(err)
	}
	other, _, err := fast.Epsilon(fast.DefaultOrders(), curve, delta, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := planEps(t, runs[0].phases, false, fast.DefaultOrders()); e == other {
		t.Fatalf("SGMCurve and Epsilon give the plan's %v on dp_accounting's orders: the test would not see a bypass", e)
	}

	// -exact: the run's event file's distributions, as account -exact
	// (pld.SGMEpsilon of the phases, epsilon's former way, gives the same
	// interval here: this holds the command to DPSGDExact, it cannot show
	// a bypass that computes alike)
	exactRun := []string{"epsilon", "-phase", "q=0.01,sigma=1,steps=50", "-phase", "q=0.01,sigma=2,steps=50", "-phase", "q=0.01,sigma=1,steps=30", "-delta", "1e-5", "-exact", "-json"}
	x, err := dpevent.DPSGDExact([]dpevent.Phase{{Q: 0.01, Sigma: 1, Steps: 50}, {Q: 0.01, Sigma: 2, Steps: 50}, {Q: 0.01, Sigma: 1, Steps: 30}}, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := x.Epsilon(context.Background(), delta)
	if err != nil {
		t.Fatal(err)
	}
	opt := cli(t, exactRun...)["epsilon_optimal"].(map[string]any)
	if num(opt["lower"]) != want.Lo || num(opt["upper"]) != want.Hi {
		t.Errorf("epsilon -exact %v, DPSGDExact's [%v, %v]", opt, want.Lo, want.Hi)
	}

	for _, r := range runs {
		for _, o := range []struct {
			flag   string
			orders []float64
		}{{"best", nil}, {"grid", fast.DefaultOrders()}, {"2,4.5,8,32", []float64{2, 4.5, 8, 32}}} {
			where := r.name + ", -orders " + o.flag
			// epsilon
			got := cli(t, append(append([]string{"epsilon"}, r.flags...), "-delta", "1e-5", "-orders", o.flag, "-json")...)
			if e, ord := planEps(t, r.phases, r.wor, o.orders); num(got["epsilon"]) != e || num(got["order"]) != ord {
				t.Errorf("%s: epsilon %v at %v, the plan's %v at %v", where, got["epsilon"], got["order"], e, ord)
			}
			// steps: the last phase's count searched, the others kept
			last := len(r.phases) - 1
			steps := []string{"steps"}
			switch {
			case len(r.phases) > 1:
				for _, f := range r.flags {
					steps = append(steps, strings.TrimSuffix(f, ",steps=600")) // the last phase's count searched
				}
			default:
				for i := 0; i < len(r.flags); i += 2 {
					if r.flags[i] != "-steps" {
						steps = append(steps, r.flags[i], r.flags[i+1])
					}
				}
			}
			got = cli(t, append(steps, "-eps", "2", "-delta", "1e-5", "-orders", o.flag, "-json")...)
			found := append([]dpevent.Phase(nil), r.phases...)
			found[last].Steps = int64(num(got["steps"]))
			if e, _ := planEps(t, found, r.wor, o.orders); num(got["epsilon_achieved"]) != e || e > 2 {
				t.Errorf("%s: steps %v achieves %v, the plan's %v (target 2)", where, got["steps"], got["epsilon_achieved"], e)
			}
			found[last].Steps++
			if e, _ := planEps(t, found, r.wor, o.orders); e <= 2 {
				t.Errorf("%s: one step more than steps's %v gives the plan's %v, within the target 2", where, got["steps"], e)
			}
			// sigma: every phase's noise searched
			sigma := []string{"sigma"}
			for i := 0; i < len(r.flags); i++ {
				switch f := r.flags[i]; {
				case f == "-sigma":
					i++
				case strings.Contains(f, ",sigma="):
					parts := strings.Split(f, ",")
					kept := parts[:0]
					for _, s := range parts {
						if !strings.HasPrefix(s, "sigma=") {
							kept = append(kept, s)
						}
					}
					sigma = append(sigma, strings.Join(kept, ","))
				default:
					sigma = append(sigma, f)
				}
			}
			got = cli(t, append(sigma, "-eps", "2", "-delta", "1e-5", "-orders", o.flag, "-json")...)
			found = append([]dpevent.Phase(nil), r.phases...)
			for i := range found {
				found[i].Sigma = num(got["sigma"])
			}
			if e, _ := planEps(t, found, r.wor, o.orders); num(got["epsilon_achieved"]) != e || e > 2 {
				t.Errorf("%s: sigma %v achieves %v, the plan's %v (target 2)", where, got["sigma"], got["epsilon_achieved"], e)
			}
		}
	}
}
