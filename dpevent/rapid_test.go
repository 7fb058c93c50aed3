package dpevent

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
	"pgregory.net/rapid"
)

// drawTree draws the JSON of a random event tree of the supported classes.
func drawTree(t *rapid.T, depth int) string {
	kinds := []string{"gauss", "laplace", "zcdp", "epsdelta", "poisson", "noop"}
	if depth > 0 {
		kinds = append(kinds, "composed", "self", "self")
	}
	f := func(label string, lo, hi float64) float64 { return rapid.Float64Range(lo, hi).Draw(t, label) }
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "gauss":
		return fmt.Sprintf(`{"class_name": "GaussianDpEvent", "noise_multiplier": %v}`, f("sigma", 0.5, 20))
	case "laplace":
		return fmt.Sprintf(`{"class_name": "LaplaceDpEvent", "noise_multiplier": %v}`, f("b", 0.5, 50))
	case "zcdp":
		return fmt.Sprintf(`{"class_name": "ZCDpEvent", "rho": %v, "xi": %v}`, f("rho", 0, 1), f("xi", 0, 0.5))
	case "epsdelta":
		d := rapid.SampledFrom([]float64{0, 1e-9}).Draw(t, "delta")
		return fmt.Sprintf(`{"class_name": "EpsilonDeltaDpEvent", "epsilon": %v, "delta": %v}`, f("eps", 0, 3), d)
	case "poisson":
		return fmt.Sprintf(`{"class_name": "PoissonSampledDpEvent", "sampling_probability": %v, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": %v}}`,
			f("q", 1e-4, 0.5), f("sigma", 0.6, 10))
	case "noop":
		return `{"class_name": "NoOpDpEvent"}`
	case "composed":
		n := rapid.IntRange(1, 3).Draw(t, "n")
		var parts []string
		for range n {
			parts = append(parts, drawTree(t, depth-1))
		}
		return `{"class_name": "ComposedDpEvent", "events": [` + strings.Join(parts, ", ") + `]}`
	}
	return fmt.Sprintf(`{"class_name": "SelfComposedDpEvent", "count": %d, "event": %s}`, rapid.IntRange(1, 1000).Draw(t, "count"), drawTree(t, depth-1))
}

// TestRandomTrees: for random trees of the supported classes, the
// best-order eps is at most the grid's and at least the reference's eps at
// the order it returns (64 bits), and the best-order delta at most the
// grid's.
func TestRandomTrees(t *testing.T) {
	ctx := reference.Context{Prec: 64}
	rapid.Check(t, func(t *rapid.T) {
		js := drawTree(t, 2)
		f, err := Decode([]byte(js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		p, err := NewPlan(f.Event, f.Relation)
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		conv := rapid.SampledFrom([]fast.Conversion{fast.Improved, fast.Classic}).Draw(t, "conv")
		delta := rapid.SampledFrom([]float64{1e-5, 1e-8}).Draw(t, "target delta")
		grid, err := p.Epsilon(delta, fast.DefaultOrders(), conv)
		if errors.Is(err, ErrDeltaTooSmall) {
			return // the events' own delta is above the target: refused, as dp_accounting gives inf
		}
		if err != nil {
			t.Fatalf("%s: grid: %v", js, err)
		}
		best, err := p.Epsilon(delta, nil, conv)
		if err != nil {
			t.Fatalf("%s: best: %v", js, err)
		}
		if best.Epsilon > grid.Epsilon {
			t.Fatalf("%s: best eps %v above the grid's %v", js, best.Epsilon, grid.Epsilon)
		}
		if best.Epsilon > 0 && best.Epsilon < 1e6 {
			ref, err := p.ReferenceEpsilon(ctx, delta, best.Order, conv, nil)
			if err != nil {
				t.Fatalf("%s: reference at %v: %v", js, best.Order, err)
			}
			if ref.Cmp(big.NewFloat(best.Epsilon)) > 0 {
				t.Fatalf("%s: best eps %.17g at %v below the reference's %s", js, best.Epsilon, best.Order, ref.Text('g', 17))
			}
		}
		eps := rapid.Float64Range(0.1, 10).Draw(t, "target eps")
		gd, err := p.Delta(eps, fast.DefaultOrders(), conv)
		if err != nil {
			t.Fatalf("%s: grid delta: %v", js, err)
		}
		bd, err := p.Delta(eps, nil, conv)
		if err != nil {
			t.Fatalf("%s: best delta: %v", js, err)
		}
		if bd.Delta > gd.Delta {
			t.Fatalf("%s: best delta %v above the grid's %v", js, bd.Delta, gd.Delta)
		}
	})
}
