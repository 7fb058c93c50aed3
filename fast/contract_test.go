package fast_test

import (
	"math"
	"slices"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// SGMCurve with out the same slice as orders: the engine kept each
// fractional order's window level in out, then read the order back from
// the same memory (negative RDP with a nil error).
func TestSGMCurveOutIsOrders(t *testing.T) {
	orders := []float64{1.5, 2, 2.5, 10.3, 64, 100.5, math.Inf(1)}
	want := make([]float64, len(orders))
	if err := fast.SGMCurve(0.01, 1.1, 1000, orders, want); err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(orders)
	if err := fast.SGMCurve(0.01, 1.1, 1000, got, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("SGMCurve(0.01, 1.1, 1000, o, o) = %v, want %v (o and out apart)", got, want)
	}
}

// The Accountant's exported Orders cannot change a result after its first
// use: it accounts on its own copy. Reversing the field's elements after
// ComposeSGM turned eps = 1.798 at order 8 into 0.1965 at 64 with a nil
// error (each order read back against another order's RDP), and
// replacing the field made Epsilon fail. Curve gives the orders in use.
func TestAccountantOrdersAfterUse(t *testing.T) {
	fresh := func() *fast.Accountant {
		a := &fast.Accountant{Orders: []float64{1.5, 2, 4, 8, 16, 32, 64}}
		if err := a.ComposeSGM(0.01, 1.1, 1000); err != nil {
			t.Fatal(err)
		}
		return a
	}
	want, wantOrder, err := fresh().Epsilon(1e-5, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(a *fast.Accountant)
	}{
		{"elements reversed", func(a *fast.Accountant) { slices.Reverse(a.Orders) }},
		{"elements overwritten", func(a *fast.Accountant) { clear(a.Orders) }},
		{"field replaced", func(a *fast.Accountant) { a.Orders = []float64{1000} }},
		{"field emptied", func(a *fast.Accountant) { a.Orders = nil }},
	} {
		a := fresh()
		c.change(a)
		got, order, err := a.Epsilon(1e-5, fast.Improved)
		if err != nil || got != want || order != wantOrder {
			t.Errorf("%s after ComposeSGM: Epsilon = %v at %v (%v), want %v at %v", c.name, got, order, err, want, wantOrder)
		}
		if o, _ := a.Curve(); !slices.Equal(o, []float64{1.5, 2, 4, 8, 16, 32, 64}) {
			t.Errorf("%s after ComposeSGM: Curve's orders %v", c.name, o)
		}
	}
	// The zero value's default orders: the field stays nil, Curve gives them.
	var z fast.Accountant
	if err := z.ComposeGaussian(2, 1); err != nil {
		t.Fatal(err)
	}
	if o, _ := z.Curve(); z.Orders != nil || !slices.Equal(o, fast.DefaultOrders()) {
		t.Errorf("zero Accountant: Orders = %v, Curve's orders %v", z.Orders, o)
	}
}
