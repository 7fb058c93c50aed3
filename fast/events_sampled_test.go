package fast_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// TestNewEventsMatchTheirFunctions checks that each Event of events_sampled.go
// gives, at each order, exactly what the mechanism's own one-order
// function gives (the functions carry the accuracy tests).
func TestNewEventsMatchTheirFunctions(t *testing.T) {
	orders := []float64{1.5, 2, 3.7, 11, 64}
	cases := []struct {
		name string
		e    fast.Event
		f    func(a float64) (float64, error)
	}{
		{"WORGaussian", fast.WORGaussianEvent(0.01, 1.1), func(a float64) (float64, error) { return fast.WORGaussian(0.01, 1.1, a) }},
		{"KaryRR", fast.KaryRandomizedResponseEvent(0.3, 10, fast.ReplaceOne), func(a float64) (float64, error) {
			return fast.KaryRandomizedResponse(0.3, 10, fast.ReplaceOne, a)
		}},
		{"DiscreteGaussian", fast.DiscreteGaussianEvent(3, 1), func(a float64) (float64, error) { return fast.DiscreteGaussian(3, 1, a) }},
		{"ExponentialMechanism", fast.ExponentialMechanismEvent(0.5), func(a float64) (float64, error) { return fast.ExponentialMechanism(0.5, a) }},
		{"Tree", fast.TreeAggregationEvent(4, []int{500, 500}, fast.TreeOneTree), func(a float64) (float64, error) {
			return fast.TreeAggregation(4, []int{500, 500}, fast.TreeOneTree, a)
		}},
		{"SampledLaplace", fast.SampledLaplaceEvent(0.01, 2), func(a float64) (float64, error) { return fast.SampledLaplace(0.01, 2, a) }},
	}
	for _, c := range cases {
		got := make([]float64, len(orders))
		if err := c.e.RDP(orders, got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := make([]float64, len(orders))
		for i, a := range orders {
			v, err := c.f(a)
			if err != nil {
				t.Fatalf("%s(%v): %v", c.name, a, err)
			}
			want[i] = v
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-function +event):\n%s", c.name, d)
		}
	}
}

// TestWORBoundEventGaussian: Theorem 9 with the Gaussian base is a valid
// bound, so it is at or above WBK19 Theorem 27's (WORGaussian is the
// tighter, Gaussian-specific form) and at q = 1, integer orders, equals
// the base itself (WORBound's special case).
func TestWORBoundEventGaussian(t *testing.T) {
	orders := []float64{2, 3, 5, 8}
	g := fast.GaussianEvent(2)
	gen := make([]float64, len(orders))
	if err := fast.WORBoundEvent(0.05, g).RDP(orders, gen); err != nil {
		t.Fatal(err)
	}
	spec := make([]float64, len(orders))
	if err := fast.WORGaussianEvent(0.05, 2).RDP(orders, spec); err != nil {
		t.Fatal(err)
	}
	for i := range orders {
		if !(gen[i] >= spec[i]*(1-1e-12)) || gen[i] > 10*spec[i] {
			t.Errorf("order %v: Theorem 9 %v, Theorem 27 %v: want Theorem 9 at or above, and not 10x", orders[i], gen[i], spec[i])
		}
	}
	one := make([]float64, len(orders))
	if err := fast.WORBoundEvent(1, g).RDP(orders, one); err != nil {
		t.Fatal(err)
	}
	for i, a := range orders {
		// closed form: alpha/(2 sigma^2) = alpha/8
		if w := a / 8; math.Abs(one[i]-w) > 1e-15*w || one[i] < w {
			t.Errorf("q=1, order %v: %v, want %v (alpha/8) from above", a, one[i], w)
		}
	}
}

// TestRepeatAndSelectEvent: at a curve order the event is RepeatAndSelect
// of the base's curve at RepeatAndSelectOrders(); between curve orders it
// takes the next one up; and it is never below the reference's value on
// the same curve (64-bit reference of the Gaussian base).
func TestRepeatAndSelectEvent(t *testing.T) {
	const sigma, mean = 4.0, 10.0
	for _, shape := range []float64{math.Inf(1), 1, 0.5} {
		e := fast.RepeatAndSelectEvent(fast.GaussianEvent(sigma), mean, shape)
		co := fast.RepeatAndSelectOrders()
		bv := make([]float64, len(co))
		if err := fast.GaussianEvent(sigma).RDP(co, bv); err != nil {
			t.Fatal(err)
		}
		orders := []float64{2, 2.05, 16, 63.5, 1024, 2000}
		got := make([]float64, len(orders))
		if err := e.RDP(orders, got); err != nil {
			t.Fatal(err)
		}
		next := []float64{2, 2.1, 16, 128, 1024, math.Inf(1)}
		for i, a := range next {
			w, err := fast.RepeatAndSelect(co, bv, mean, shape, a)
			if err != nil {
				t.Fatal(err)
			}
			if got[i] != w {
				t.Errorf("shape %v, order %v: %v, want RepeatAndSelect at %v = %v", shape, orders[i], got[i], a, w)
			}
		}
		ctx := reference.Context{Prec: 64}
		rb := make([]*big.Float, len(co))
		for i, a := range co {
			v, err := ctx.Gaussian(sigma, a)
			if err != nil {
				t.Fatal(err)
			}
			rb[i] = v
		}
		for i, a := range orders[:4] {
			r, err := ctx.RepeatAndSelect(co, rb, mean, shape, a)
			if err != nil {
				t.Fatal(err)
			}
			rf, _ := r.Float64()
			if got[i] < rf || got[i] > rf*(1+1e-12) {
				t.Errorf("shape %v, order %v: fast %v, reference %v: want within 1e-12 above", shape, a, got[i], rf)
			}
		}
	}
}

// TestBestEpsilonKeptDelta: ComposeEpsilonDelta's events are remembered,
// so BestEpsilon and BestDelta work beside Compose and honour the kept
// delta as Epsilon and Delta do: the target 1e-5 leaves (1e-5 - x)/(1 - x)
// with x = 1 - (1 - 1e-6)^5 for the conversion, so eps is that of an
// accountant without the delta at that target (or just above, by the
// rounding down); a target at or below x gives +Inf.
func TestBestEpsilonKeptDelta(t *testing.T) {
	with := &fast.Accountant{}
	without := &fast.Accountant{}
	for _, a := range []*fast.Accountant{with, without} {
		if err := a.Compose(fast.GaussianEvent(3), 10); err != nil {
			t.Fatal(err)
		}
	}
	if err := with.ComposeEpsilonDelta(0.1, 1e-6, 5); err != nil {
		t.Fatal(err)
	}
	if err := without.Compose(fast.PureDPEvent(0.1), 5); err != nil {
		t.Fatal(err)
	}
	x := -math.Expm1(5 * math.Log1p(-1e-6)) // 4.99999e-6
	got, _, err := with.BestEpsilon(1e-5, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := without.BestEpsilon((1e-5-x)/(1-x), fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	if !(got >= want && got <= want*(1+1e-9)) {
		t.Errorf("BestEpsilon with kept delta %v, want %v (without, at the reduced target) or just above", got, want)
	}
	if e, _, err := with.BestEpsilon(x*0.99, fast.Improved); err != nil || !math.IsInf(e, 1) {
		t.Errorf("BestEpsilon below the kept delta: %v, %v; want +Inf", e, err)
	}
	d, _, err := with.BestDelta(2, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	d0, _, _ := without.BestDelta(2, fast.Improved)
	if w := d0 + x*(1-d0); !(d >= w && d <= w*(1+1e-12)) {
		t.Errorf("BestDelta with kept delta %v, want %v = d + x(1-d) or just above", d, w)
	}
}

// TestWOREventsBeyondRange: beyond rdpcheck.MaxWOROrder (1024) the WOR events
// give the unsampled mechanism's value (sampling never increases the RDP)
// instead of failing, so a best-order search over (1, 4096] can use
// those orders.
func TestWOREventsBeyondRange(t *testing.T) {
	orders := []float64{8, 2000}
	for _, c := range []struct {
		name      string
		e         fast.Event
		unsampled func(a float64) (float64, error)
	}{
		{"WORGaussianEvent", fast.WORGaussianEvent(0.01, 1), func(a float64) (float64, error) { return fast.Gaussian(1, a) }},
		{"WORBoundEvent", fast.WORBoundEvent(0.01, fast.LaplaceEvent(1)), func(a float64) (float64, error) { return fast.Laplace(1, a) }},
	} {
		out := make([]float64, 2)
		if err := c.e.RDP(orders, out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		u, _ := c.unsampled(2000)
		if !(out[0] > 0) || math.IsInf(out[0], 1) || out[1] != u {
			t.Errorf("%s at %v: %v, want finite > 0 then the unsampled %v", c.name, orders, out, u)
		}
	}
	var a fast.Accountant
	if err := a.Compose(fast.WORBoundEvent(1, fast.LaplaceEvent(0.2)), 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.BestEpsilon(1e-5, fast.Improved); err != nil {
		t.Errorf("BestEpsilon with the best grid order at 1024: %v", err)
	}
}

// TestPoissonBoundEvent: for the Laplace base (b = 2), Zhu and Wang's
// general bound is at or above the exact sampled-Laplace RDP
// (SampledLaplace) and at most the unsampled Laplace; at integer orders it
// is within log(3)/(alpha-1) of the exact value (the factor 3 of Theorem
// 6, reference.PoissonBound's doc); above order 1024 it is the base's.
func TestPoissonBoundEvent(t *testing.T) {
	orders := []float64{2, 3, 8, 20.5, 2000}
	e := fast.PoissonBoundEvent(0.05, fast.LaplaceEvent(2))
	out := make([]float64, len(orders))
	if err := e.RDP(orders, out); err != nil {
		t.Fatal(err)
	}
	for i, a := range orders {
		ex, err := fast.SampledLaplace(0.05, 2, a)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := fast.Laplace(2, a)
		if out[i] < ex*(1-1e-12) || out[i] > base {
			t.Errorf("order %v: %v, want in [exact %v, unsampled %v]", a, out[i], ex, base)
		}
		if a == math.Trunc(a) && a <= 1024 && out[i] > ex+math.Log(3)/(a-1) {
			t.Errorf("order %v: %v more than log(3)/(alpha-1) above the exact %v", a, out[i], ex)
		}
		if a > 1024 && out[i] != base {
			t.Errorf("order %v: %v, want the base's %v", a, out[i], base)
		}
	}
	if err := fast.PoissonBoundEvent(1.5, fast.LaplaceEvent(2)).RDP(orders, out); err == nil {
		t.Error("q = 1.5: no error")
	}
}
