package dpevent

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// TestDPSGDReferenceEpsilonProgress: with a progress callback the curve is
// computed a tenth of the orders at a time, each tenth reported, and the
// answer is the same as without (what SGMCurve shares between orders does
// not change a value).
func TestDPSGDReferenceEpsilonProgress(t *testing.T) {
	var orders []float64
	for a := 2; a <= 24; a++ {
		orders = append(orders, float64(a))
	}
	p := Phase{Q: 0.01, Sigma: 2, Steps: 100}
	var done []int
	eps, order, err := DPSGDReferenceEpsilon(reference.Context{}, p, orders, 1e-5, reference.Improved, func(d, total int) {
		if total != len(orders) {
			t.Errorf("progress total %d, want %d", total, len(orders))
		}
		done = append(done, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	// 23 orders: tenths of ceil(23/10) = 3 orders.
	if diff := cmp.Diff([]int{3, 6, 9, 12, 15, 18, 21, 23}, done); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	eps0, order0, err := DPSGDReferenceEpsilon(reference.Context{}, p, orders, 1e-5, reference.Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	if eps.Cmp(eps0) != 0 || order != order0 {
		t.Errorf("with progress %s at %v, without %s at %v", eps.Text('g', 80), order, eps0.Text('g', 80), order0)
	}
	// No orders: the reference's input error, with or without progress.
	for _, pr := range []func(int, int){nil, func(int, int) {}} {
		if _, _, err := DPSGDReferenceEpsilon(reference.Context{}, p, nil, 1e-5, reference.Improved, pr); !errors.Is(err, rdpcheck.ErrInput) {
			t.Errorf("no orders: %v, want an input error", err)
		}
	}
}

// TestDPSGDIsItsEventFile: DPSGD's plan is the plan of the event file
// dp_accounting writes for the run (the files in examples/events, written
// by hand as dp_accounting's DP-SGD writes them): the same terms, and the
// same eps and delta to the bit at the best order and on a grid. Phases
// of one (q, sigma) are one term, in the order of the first.
func TestDPSGDIsItsEventFile(t *testing.T) {
	for _, c := range []struct {
		name   string
		phases []Phase
		wor    bool
		file   string
	}{
		{"two Poisson phases", []Phase{{Q: 0.01, Sigma: 1, Steps: 1000}, {Q: 0.001, Sigma: 0.8, Steps: 5000}}, false, "dpsgd_two_phases.json"},
		{"a phase resumed", []Phase{{Q: 0.01, Sigma: 1, Steps: 400}, {Q: 0.001, Sigma: 0.8, Steps: 5000}, {Q: 0.01, Sigma: 1, Steps: 600}}, false, "dpsgd_two_phases.json"},
		{"fixed batches", []Phase{{N: 60000, Batch: 256, Sigma: 1.1, Steps: 14040}}, true, "dpsgd_fixed_batches.json"},
	} {
		got, err := DPSGD(c.phases, c.wor)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := ReadFile(filepath.Join("..", "examples", "events", c.file), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Relation != want.Relation || len(got.Terms) != len(want.Terms) {
			t.Fatalf("%s: %v with %d terms, the file's %v with %d", c.name, got.Relation, len(got.Terms), want.Relation, len(want.Terms))
		}
		for i := range got.Terms {
			if g, w := got.Terms[i], want.Terms[i]; g.What != w.What || g.Count != w.Count {
				t.Errorf("%s: term %d: %s x%d, the file's %s x%d", c.name, i, g.What, g.Count, w.What, w.Count)
			}
		}
		for _, orders := range [][]float64{nil, fast.DefaultOrders()} {
			g, err := got.Epsilon(1e-5, orders, fast.Improved)
			if err != nil {
				t.Fatal(err)
			}
			w, err := want.Epsilon(1e-5, orders, fast.Improved)
			if err != nil {
				t.Fatal(err)
			}
			if g.Epsilon != w.Epsilon || g.Order != w.Order {
				t.Errorf("%s: eps %v at %v, the file's %v at %v", c.name, g.Epsilon, g.Order, w.Epsilon, w.Order)
			}
			gd, err := got.Delta(2, orders, fast.Improved)
			if err != nil {
				t.Fatal(err)
			}
			wd, err := want.Delta(2, orders, fast.Improved)
			if err != nil {
				t.Fatal(err)
			}
			if gd.Delta != wd.Delta || gd.Order != wd.Order {
				t.Errorf("%s: delta %v at %v, the file's %v at %v", c.name, gd.Delta, gd.Order, wd.Delta, wd.Order)
			}
		}
	}
}

// TestDPSGDBadPhases: each argument out of its domain is an input error
// naming it (and the phase, when there are several), never a panic or a
// plan; with wor, Q is not read.
func TestDPSGDBadPhases(t *testing.T) {
	ok := Phase{Q: 0.01, Sigma: 1, Steps: 10}
	nan := math.NaN()
	for _, c := range []struct {
		phases []Phase
		wor    bool
		want   string
	}{
		{nil, false, "phases = NaN: must not be empty"},
		{[]Phase{{Q: nan, Sigma: 1, Steps: 10}}, false, "q = NaN: must be in [0, 1]"},
		{[]Phase{{Q: 1.5, Sigma: 1, Steps: 10}}, false, "q = 1.5: must be in [0, 1]"},
		{[]Phase{{Q: -0.1, Sigma: 1, Steps: 10}}, false, "q = -0.1: must be in [0, 1]"},
		{[]Phase{{Q: 0.01, Sigma: 0, Steps: 10}}, false, "sigma = 0: must be finite and > 0"},
		{[]Phase{{Q: 0.01, Sigma: math.Inf(1), Steps: 10}}, false, "sigma = +Inf: must be finite and > 0"},
		{[]Phase{{Q: 0.01, Sigma: nan, Steps: 10}}, false, "sigma = NaN: must be finite and > 0"},
		{[]Phase{{Q: 0.01, Sigma: 1, Steps: 0}}, false, "steps = 0: must be > 0"},
		{[]Phase{{Q: 0.01, Sigma: 1, Steps: MaxCount + 1}}, false, "steps = 9.007199254740992e+15: must be at most 2^53 (is 9007199254740993)"},
		{[]Phase{ok, {Q: 0.01, Sigma: -1, Steps: 10}}, false, "phases[1].sigma = -1: must be finite and > 0"},
		{[]Phase{{N: 0, Batch: 0, Sigma: 1, Steps: 10}}, true, "n = 0: must be in [1, 2^53] (is 0)"},
		{[]Phase{{N: 100, Batch: 101, Sigma: 1, Steps: 10}}, true, "batch = 101: must be in [0, n] = [0, 100]"},
		{[]Phase{{N: 100, Batch: -1, Sigma: 1, Steps: 10}}, true, "batch = -1: must be in [0, n] = [0, 100]"},
		// the counts of one term add up beyond 2^53: the plan's error
		{[]Phase{{Q: 0.01, Sigma: 1, Steps: MaxCount}, {Q: 0.01, Sigma: 1, Steps: 1}}, false, "more than 2^53"},
	} {
		p, err := DPSGD(c.phases, c.wor)
		if p != nil || !errors.Is(err, rdpcheck.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DPSGD(%+v, wor=%v) = %v, %v; want an input error with %q", c.phases, c.wor, p, err, c.want)
		}
	}
	// with wor, Q is not read: a NaN there is no error
	if _, err := DPSGD([]Phase{{Q: nan, N: 100, Batch: 10, Sigma: 1, Steps: 10}}, true); err != nil {
		t.Errorf("wor with Q NaN: %v", err)
	}
}
