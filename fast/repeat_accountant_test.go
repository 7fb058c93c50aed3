package fast

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// TestComposeRepeatAndSelect: count events at the accountant's orders give
// count times reference.RepeatAndSelect at each order (at DefaultPrec),
// never below it and within 1e-12; +Inf among the accountant's orders is
// answered from the base curve's +Inf; an accountant order above every
// base order gets +Inf (no bound known there: since the accountant
// remembers its events, refusing would leave BestEpsilon, which searches
// up to order 4096, nothing to evaluate).
func TestComposeRepeatAndSelect(t *testing.T) {
	base := []float64{1.5, 2, 4, 8, 32, math.Inf(1)}
	curve := []float64{0.05, 0.08, 0.2, 0.45, 1.2, 2}
	acc := []float64{1.5, 3, 8, 20, math.Inf(1)}
	for _, shape := range []float64{0, 1, 0.5, math.Inf(1)} {
		a := &Accountant{Orders: acc}
		const count = 7
		if err := a.ComposeRepeatAndSelect(base, curve, 10, shape, count); err != nil {
			t.Fatalf("shape %v: %v", shape, err)
		}
		_, got := a.Curve()
		bc := make([]*big.Float, len(curve))
		for i, v := range curve {
			bc[i] = big.NewFloat(v)
		}
		for i, x := range acc {
			r, err := reference.RepeatAndSelect(base, bc, 10, shape, x)
			if err != nil {
				t.Fatalf("reference at %v: %v", x, err)
			}
			want, _ := new(big.Float).Mul(r, big.NewFloat(count)).Float64()
			if got[i] < want || got[i] > want*(1+1e-12) {
				t.Errorf("shape %v, alpha %v: %v, want %v (reference times %d)", shape, x, got[i], want, count)
			}
		}
	}
	for _, top := range []float64{64, math.Inf(1)} {
		a := &Accountant{Orders: []float64{2, top}}
		if err := a.ComposeRepeatAndSelect(base[:5], curve[:5], 10, 1, 1); err != nil {
			t.Fatalf("accountant order %v above the base's 32: %v", top, err)
		}
		if _, c := a.Curve(); !(c[0] > 0 && !math.IsInf(c[0], 1) && math.IsInf(c[1], 1)) {
			t.Errorf("accountant orders 2 and %v, base up to 32: %v, want finite then +Inf", top, c)
		}
		if eps, _, err := a.BestEpsilon(1e-5, Improved); err != nil || math.IsInf(eps, 1) {
			t.Errorf("BestEpsilon, base up to 32: %v, %v", eps, err)
		}
	}
	a := &Accountant{Orders: []float64{2, math.Inf(1)}}
	if err := a.ComposeRepeatAndSelect(base, curve, 0.5, 1, 1); !errors.Is(err, ErrInput) {
		t.Fatalf("mean 0.5: err = %v, want ErrInput", err)
	}
	if a.Events() != 0 {
		t.Errorf("a refused event was counted")
	}
}

// TestEpsilonInfOrderAfterEvents: with +Inf among the accountant's orders,
// epsilon after a discrete Gaussian or a tree (RDP +Inf there) comes from
// a finite order, and equals the conversion without +Inf (dp_accounting
// returns 0 here, events_FINDINGS.md); after repeat-and-select, whose curve is
// finite at +Inf, it is at most rdp(+Inf) (the conversion's value there).
func TestEpsilonInfOrderAfterEvents(t *testing.T) {
	fin := []float64{1.5, 2, 4, 8, 16, 32, 64}
	withInf := append(append([]float64(nil), fin...), math.Inf(1))
	events := map[string]func(a *Accountant) error{
		"DiscreteGaussian": func(a *Accountant) error { return a.ComposeDiscreteGaussian(2, 1, 10) },
		"TreeAggregation":  func(a *Accountant) error { return a.ComposeTreeAggregation(5, []int{100, 100}, TreeEveryTree, 10) },
		"TreeMulti":        func(a *Accountant) error { return a.ComposeTreeMultiParticipation(5, 64, 4, 3, 10) },
	}
	for name, ev := range events {
		for _, conv := range []Conversion{Classic, Improved} {
			a, b := &Accountant{Orders: withInf}, &Accountant{Orders: fin}
			if err := ev(a); err != nil {
				t.Fatal(name, err)
			}
			if err := ev(b); err != nil {
				t.Fatal(name, err)
			}
			e1, o1, err1 := a.Epsilon(1e-5, conv)
			e2, _, err2 := b.Epsilon(1e-5, conv)
			if err1 != nil || err2 != nil || e1 != e2 || e1 <= 0 || math.IsInf(o1, 1) {
				t.Errorf("%s %v: eps %v at order %v with +Inf (%v), %v without (%v)", name, conv, e1, o1, err1, e2, err2)
			}
		}
	}
	base := []float64{2, 8, math.Inf(1)}
	curve := []float64{0.3, 0.9, 1.1}
	a := &Accountant{Orders: []float64{2, math.Inf(1)}}
	if err := a.ComposeRepeatAndSelect(base, curve, 5, 1, 1); err != nil {
		t.Fatal(err)
	}
	_, c := a.Curve()
	e, _, err := a.Epsilon(1e-9, Improved)
	if err != nil || e <= 0 || e > c[1] {
		t.Errorf("repeat-and-select: eps %v (%v), want in (0, rdp(+Inf) = %v]", e, err, c[1])
	}
}

// TestRepeatAndSelectMeanNearOne: a regression, found by FuzzAccountant:
// for a mean just above 1 the search for log(1/gamma) stepped by ulps of
// the small u and gave up before the mean's error bound was cleared
// (ErrNotConverged). The value is checked against the reference at
// DefaultPrec, never below it and within 1e-12.
func TestRepeatAndSelectMeanNearOne(t *testing.T) {
	orders := []float64{1.5, 2, 8, math.Inf(1)}
	curve := []float64{0.01, 0.02, 0.05, 0.1}
	bc := make([]*big.Float, len(curve))
	for i, v := range curve {
		bc[i] = big.NewFloat(v)
	}
	for _, shape := range []float64{0, 0.5, 1, 3} {
		for _, mean := range []float64{1.0033985300839006, 1 + 1e-9, 1 + 1e-15} {
			got, err := RepeatAndSelect(orders, curve, mean, shape, 2)
			if err != nil {
				t.Errorf("shape %v mean %v: %v", shape, mean, err)
				continue
			}
			r, err := reference.RepeatAndSelect(orders, bc, mean, shape, 2)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := r.Float64()
			if got < want || got > want*(1+1e-12) {
				t.Errorf("shape %v mean %v: %v, reference %v", shape, mean, got, want)
			}
		}
	}
}
