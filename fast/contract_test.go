package fast_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
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

// A sliceCall is an exported function or method of fast that takes or
// fills float64 slices, made callable on slices the test chooses.
// draw draws its scalar arguments and its slices (args); call runs it with
// those slices and out (nil unless outOf >= 0), calling scramble, where
// given, between making what the call keeps and using it (a constructor's
// event, an accountant), and returns its numbers.
type sliceCall struct {
	name string
	// outOf is the index of the slice whose length out has (-1: no out);
	// out may overlap any slice of that length.
	outOf int
	draw  func(t *rapid.T) (args [][]float64, call func(args [][]float64, out []float64, scramble func()) ([]float64, error))
}

// drawOrders draws 1 to 5 orders: the hard ones of fast's sweeps, any in
// (1, 70], +Inf, and now and then an invalid one (the errors must agree
// too).
func drawOrders(t *rapid.T, label string) []float64 {
	hard := []float64{1 + 1e-9, 1.01, 1.5, 2, 2.5, 3, 7.3, 10, 32, 58.5, 64, 100.5, 256, math.Inf(1)}
	return rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom(hard),
		rapid.Float64Range(1.001, 70),
		rapid.SampledFrom([]float64{0.5, math.NaN()}).Filter(func(float64) bool { return rapid.IntRange(0, 20).Draw(t, "invalid") == 0 }),
	), 1, 5).Draw(t, label)
}

// drawCurve draws n RDP values.
func drawCurve(t *rapid.T, n int, label string) []float64 {
	return rapid.SliceOfN(rapid.Float64Range(0, 5), n, n).Draw(t, label)
}

// drawDist draws a probability vector of n entries (n >= 2).
func drawDist(t *rapid.T, n int, label string) []float64 {
	w := rapid.SliceOfN(rapid.Float64Range(0.01, 1), n, n).Draw(t, label)
	s := 0.0
	for _, x := range w {
		s += x
	}
	for i := range w {
		w[i] /= s
	}
	return w
}

// drawBase draws a base curve at orders 2..n+1 (non-decreasing).
func drawBase(t *rapid.T, label string) []float64 {
	d := rapid.SliceOfN(rapid.Float64Range(0, 1), 2, 12).Draw(t, label)
	for i := 1; i < len(d); i++ {
		d[i] += d[i-1]
	}
	return d
}

func drawSteps(t *rapid.T) []int {
	return rapid.SliceOfN(rapid.IntRange(1, 64), 1, 3).Draw(t, "steps")
}

// curveCall adapts a curve function f(orders, out) with drawn scalars.
func curveCall(name string, scalars func(t *rapid.T) func(orders, out []float64) error) sliceCall {
	return sliceCall{name, 0, func(t *rapid.T) ([][]float64, func([][]float64, []float64, func()) ([]float64, error)) {
		f := scalars(t)
		return [][]float64{drawOrders(t, "orders")}, func(a [][]float64, out []float64, _ func()) ([]float64, error) {
			return nil, f(a[0], out)
		}
	}}
}

// eventCall adapts an Event's RDP, the event made from drawn scalars.
func eventCall(name string, ev func(t *rapid.T) fast.Event) sliceCall {
	return curveCall(name+".RDP", func(t *rapid.T) func(orders, out []float64) error { return ev(t).RDP })
}

func f64(t *rapid.T, label string, lo, hi float64) float64 {
	return rapid.Float64Range(lo, hi).Draw(t, label)
}

func drawConv(t *rapid.T) fast.Conversion {
	return rapid.SampledFrom([]fast.Conversion{fast.Classic, fast.Improved}).Draw(t, "conv")
}

// sliceCalls lists every exported function and method of fast that takes
// or fills float64 slices (the []int of the tree functions cannot alias a
// float64 slice; the constructors that keep slices are checked for it).
func sliceCalls() []sliceCall {
	gauss := func(t *rapid.T) fast.Event { return fast.GaussianEvent(f64(t, "sigma", 0.5, 10)) }
	events := []struct {
		name string
		ev   func(t *rapid.T) fast.Event
	}{
		{"SGMEvent", func(t *rapid.T) fast.Event { return fast.SGMEvent(f64(t, "q", 0, 1), f64(t, "sigma", 0.3, 10)) }},
		{"GaussianEvent", gauss},
		{"LaplaceEvent", func(t *rapid.T) fast.Event { return fast.LaplaceEvent(f64(t, "b", 0.1, 10)) }},
		{"RandomizedResponseEvent", func(t *rapid.T) fast.Event { return fast.RandomizedResponseEvent(f64(t, "p", 0, 1)) }},
		{"ZCDPEvent", func(t *rapid.T) fast.Event { return fast.ZCDPEvent(f64(t, "rho", 0, 2), f64(t, "xi", 0, 1)) }},
		{"PureDPEvent", func(t *rapid.T) fast.Event { return fast.PureDPEvent(f64(t, "eps", 0, 3)) }},
		{"BoundedRangeEvent", func(t *rapid.T) fast.Event { return fast.BoundedRangeEvent(f64(t, "eps", 0, 3)) }},
		{"ExponentialMechanismEvent", func(t *rapid.T) fast.Event { return fast.ExponentialMechanismEvent(f64(t, "eps", 0, 3)) }},
		{"InfiniteEvent", func(t *rapid.T) fast.Event { return fast.InfiniteEvent() }},
		{"SampledDivergenceEvent", func(t *rapid.T) fast.Event {
			n := rapid.IntRange(2, 4).Draw(t, "n")
			return fast.SampledDivergenceEvent(f64(t, "q", 0, 1), drawDist(t, n, "P"), drawDist(t, n, "Q"))
		}},
		{"BaseCurveEvent", func(t *rapid.T) fast.Event {
			b := drawBase(t, "base")
			return fast.BaseCurveEvent(rdpcheck.BaseCurve{Eps: b, Inf: b[len(b)-1] + f64(t, "inf", 0, 3)})
		}},
		{"WORGaussianEvent", func(t *rapid.T) fast.Event { return fast.WORGaussianEvent(f64(t, "q", 0, 1), f64(t, "sigma", 0.5, 10)) }},
		{"WORBoundEvent", func(t *rapid.T) fast.Event { return fast.WORBoundEvent(f64(t, "q", 0, 1), gauss(t)) }},
		{"KaryRandomizedResponseEvent", func(t *rapid.T) fast.Event {
			return fast.KaryRandomizedResponseEvent(f64(t, "noise", 0, 1), float64(rapid.IntRange(2, 10).Draw(t, "k")), rapid.SampledFrom([]string{fast.ReplaceOne, fast.ReplaceSpecial}).Draw(t, "relation"))
		}},
		{"DiscreteGaussianEvent", func(t *rapid.T) fast.Event {
			return fast.DiscreteGaussianEvent(f64(t, "sigma", 0.5, 10), float64(rapid.IntRange(0, 3).Draw(t, "sens")))
		}},
		{"TreeAggregationEvent", func(t *rapid.T) fast.Event {
			return fast.TreeAggregationEvent(f64(t, "sigma", 0.5, 10), drawSteps(t), rapid.SampledFrom([]fast.TreeRestarts{fast.TreeOneTree, fast.TreeEveryTree}).Draw(t, "restarts"))
		}},
		{"TreeMultiParticipationEvent", func(t *rapid.T) fast.Event {
			return fast.TreeMultiParticipationEvent(f64(t, "sigma", 0.5, 10), rapid.IntRange(1, 64).Draw(t, "total"), rapid.IntRange(1, 4).Draw(t, "maxPart"), rapid.IntRange(1, 16).Draw(t, "minSep"))
		}},
		{"SampledLaplaceEvent", func(t *rapid.T) fast.Event { return fast.SampledLaplaceEvent(f64(t, "q", 0, 1), f64(t, "b", 0.2, 10)) }},
		{"RepeatAndSelectEvent", func(t *rapid.T) fast.Event {
			return fast.RepeatAndSelectEvent(gauss(t), f64(t, "mean", 1, 10), f64(t, "shape", 0, 3))
		}},
		{"RepeatAndSelectCurveEvent", func(t *rapid.T) fast.Event {
			o := []float64{1.5, 2, 4, 8, 16, 32, 64}
			return fast.RepeatAndSelectCurveEvent(o, drawCurve(t, len(o), "rdp"), f64(t, "mean", 1, 10), f64(t, "shape", 0, 3))
		}},
		{"PoissonBoundEvent", func(t *rapid.T) fast.Event { return fast.PoissonBoundEvent(f64(t, "q", 0, 1), gauss(t)) }},
		{"OrderFunc", func(t *rapid.T) fast.Event {
			s := f64(t, "sigma", 0.5, 10)
			return fast.OrderFunc(func(a float64) (float64, error) { return fast.Gaussian(s, a) })
		}},
	}
	calls := []sliceCall{
		curveCall("SGMCurve", func(t *rapid.T) func(o, out []float64) error {
			q, s, n := f64(t, "q", 0, 1), f64(t, "sigma", 0.3, 10), rapid.IntRange(1, 1000).Draw(t, "steps")
			return func(o, out []float64) error { return fast.SGMCurve(q, s, n, o, out) }
		}),
		curveCall("WORGaussianCurve", func(t *rapid.T) func(o, out []float64) error {
			q, s, n := f64(t, "q", 0, 1), f64(t, "sigma", 0.5, 10), rapid.IntRange(1, 1000).Draw(t, "steps")
			return func(o, out []float64) error { return fast.WORGaussianCurve(q, s, n, o, out) }
		}),
		curveCall("DiscreteGaussianCurve", func(t *rapid.T) func(o, out []float64) error {
			s, d := f64(t, "sigma", 0.5, 10), float64(rapid.IntRange(0, 3).Draw(t, "sens"))
			return func(o, out []float64) error { return fast.DiscreteGaussianCurve(s, d, o, out) }
		}),
		curveCall("ExponentialMechanismCurve", func(t *rapid.T) func(o, out []float64) error {
			e := f64(t, "eps", 0, 3)
			return func(o, out []float64) error { return fast.ExponentialMechanismCurve(e, o, out) }
		}),
		curveCall("KaryRandomizedResponseCurve", func(t *rapid.T) func(o, out []float64) error {
			n, k := f64(t, "noise", 0, 1), float64(rapid.IntRange(2, 10).Draw(t, "k"))
			rel := rapid.SampledFrom([]string{fast.ReplaceOne, fast.ReplaceSpecial}).Draw(t, "relation")
			return func(o, out []float64) error { return fast.KaryRandomizedResponseCurve(n, k, rel, o, out) }
		}),
		curveCall("PureDPCurve", func(t *rapid.T) func(o, out []float64) error {
			e := f64(t, "eps", 0, 3)
			return func(o, out []float64) error { return fast.PureDPCurve(e, o, out) }
		}),
		curveCall("SampledLaplaceCurve", func(t *rapid.T) func(o, out []float64) error {
			q, b := f64(t, "q", 0, 1), f64(t, "b", 0.05, 10)
			return func(o, out []float64) error { return fast.SampledLaplaceCurve(q, b, o, out) }
		}),
		curveCall("TreeAggregationCurve", func(t *rapid.T) func(o, out []float64) error {
			s, st := f64(t, "sigma", 0.5, 10), drawSteps(t)
			r := rapid.SampledFrom([]fast.TreeRestarts{fast.TreeOneTree, fast.TreeEveryTree}).Draw(t, "restarts")
			return func(o, out []float64) error { return fast.TreeAggregationCurve(s, st, r, o, out) }
		}),
		curveCall("Accountant.RDP", func(t *rapid.T) func(o, out []float64) error {
			var a fast.Accountant
			if err := a.ComposeSGM(f64(t, "q", 0, 1), f64(t, "sigma", 0.5, 10), 10); err != nil {
				t.Fatal(err)
			}
			if err := a.ComposePoissonBound(f64(t, "q2", 0, 1), drawBase(t, "base"), 3); err != nil {
				t.Fatal(err)
			}
			return a.RDP
		}),
		{"RepeatAndSelectCurve", 0, func(t *rapid.T) ([][]float64, func([][]float64, []float64, func()) ([]float64, error)) {
			o := drawOrders(t, "orders")
			mean, shape := f64(t, "mean", 1, 10), f64(t, "shape", 0, 3)
			return [][]float64{o, drawCurve(t, len(o), "rdp")}, func(a [][]float64, out []float64, _ func()) ([]float64, error) {
				return nil, fast.RepeatAndSelectCurve(a[0], a[1], mean, shape, out)
			}
		}},
	}
	for _, e := range events {
		calls = append(calls, eventCall(e.name, e.ev))
	}
	// Functions that only read their slices.
	reads := func(name string, draw func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error))) sliceCall {
		return sliceCall{name, -1, func(t *rapid.T) ([][]float64, func([][]float64, []float64, func()) ([]float64, error)) {
			args, f := draw(t)
			return args, func(a [][]float64, _ []float64, _ func()) ([]float64, error) { return f(a) }
		}}
	}
	two := func(v, w float64, err error) ([]float64, error) { return []float64{v, w}, err }
	one := func(v float64, err error) ([]float64, error) { return []float64{v}, err }
	ordersCurve := func(t *rapid.T) [][]float64 {
		o := drawOrders(t, "orders")
		return [][]float64{o, drawCurve(t, len(o), "rdp")}
	}
	calls = append(calls,
		reads("Epsilon", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			d, c := f64(t, "delta", 1e-12, 0.5), drawConv(t)
			return ordersCurve(t), func(a [][]float64) ([]float64, error) { return two(fast.Epsilon(a[0], a[1], d, c)) }
		}),
		reads("Delta", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			e, c := f64(t, "eps", 0, 10), drawConv(t)
			return ordersCurve(t), func(a [][]float64) ([]float64, error) { return two(fast.Delta(a[0], a[1], e, c)) }
		}),
		reads("GroupPrivacy", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			c, al := rapid.IntRange(1, 8).Draw(t, "c"), f64(t, "alpha", 1.01, 8)
			return ordersCurve(t), func(a [][]float64) ([]float64, error) { return one(fast.GroupPrivacy(a[0], a[1], c, al)) }
		}),
		reads("RepeatAndSelect", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			m, s, al := f64(t, "mean", 1, 10), f64(t, "shape", 0, 3), f64(t, "alpha", 1.01, 8)
			return ordersCurve(t), func(a [][]float64) ([]float64, error) { return one(fast.RepeatAndSelect(a[0], a[1], m, s, al)) }
		}),
		reads("Divergence", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			n, al := rapid.IntRange(2, 4).Draw(t, "n"), f64(t, "alpha", 0, 8)
			return [][]float64{drawDist(t, n, "P"), drawDist(t, n, "Q")}, func(a [][]float64) ([]float64, error) { return one(fast.Divergence(a[0], a[1], al)) }
		}),
		reads("SampledDivergence", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			n, q, al := rapid.IntRange(2, 4).Draw(t, "n"), f64(t, "q", 0, 1), f64(t, "alpha", 1, 8)
			return [][]float64{drawDist(t, n, "P"), drawDist(t, n, "Q")}, func(a [][]float64) ([]float64, error) {
				return one(fast.SampledDivergence(q, a[0], a[1], al))
			}
		}),
		reads("PoissonBound", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			q, al := f64(t, "q", 0, 1), f64(t, "alpha", 1, 12)
			return [][]float64{drawBase(t, "base")}, func(a [][]float64) ([]float64, error) { return one(fast.PoissonBound(q, al, a[0])) }
		}),
		reads("WORBound", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			q, al, inf := f64(t, "q", 0, 1), f64(t, "alpha", 1, 12), f64(t, "inf", 0, 3)
			return [][]float64{drawBase(t, "base")}, func(a [][]float64) ([]float64, error) {
				return one(fast.WORBound(q, al, rdpcheck.BaseCurve{Eps: a[0], Inf: a[0][len(a[0])-1] + inf}))
			}
		}),
		reads("BestEpsilon", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			e, d, c := fast.SGMEvent(f64(t, "q", 0.001, 0.1), f64(t, "sigma", 0.5, 5)), f64(t, "delta", 1e-10, 0.1), drawConv(t)
			return [][]float64{drawOrders(t, "grid")}, func(a [][]float64) ([]float64, error) { return two(fast.BestEpsilon(e, a[0], d, c)) }
		}),
		reads("BestDelta", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			e, eps, c := fast.SGMEvent(f64(t, "q", 0.001, 0.1), f64(t, "sigma", 0.5, 5)), f64(t, "eps", 0.1, 10), drawConv(t)
			return [][]float64{drawOrders(t, "grid")}, func(a [][]float64) ([]float64, error) { return two(fast.BestDelta(e, a[0], eps, c)) }
		}),
		reads("MaxSteps", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			q, s, e, d := f64(t, "q", 0.001, 0.1), f64(t, "sigma", 0.5, 5), f64(t, "eps", 0.5, 10), f64(t, "delta", 1e-10, 0.1)
			return [][]float64{drawOrders(t, "orders")}, func(a [][]float64) ([]float64, error) {
				n, v, err := fast.MaxSteps(q, s, e, d, fast.Improved, a[0])
				return []float64{float64(n), v}, err
			}
		}),
		reads("CalibrateSigma", func(t *rapid.T) ([][]float64, func([][]float64) ([]float64, error)) {
			q, n, e := f64(t, "q", 0.001, 0.1), rapid.IntRange(1, 1000).Draw(t, "steps"), f64(t, "eps", 0.5, 10)
			return [][]float64{drawOrders(t, "orders")}, func(a [][]float64) ([]float64, error) {
				return two(fast.CalibrateSigma(q, n, e, 1e-5, fast.Improved, a[0], 1e-3))
			}
		}),
	)
	// Constructors and Compose methods that keep what their slices hold:
	// the result must not change when the caller's slices do.
	probe := []float64{1.5, 2, 3.5, 8, 64, math.Inf(1)}
	evalEvent := func(e fast.Event) ([]float64, error) {
		out := make([]float64, len(probe))
		return out, e.RDP(probe, out)
	}
	evalAcc := func(a *fast.Accountant) ([]float64, error) {
		out := make([]float64, len(probe))
		if err := a.RDP(probe, out); err != nil {
			return nil, err
		}
		_, c := a.Curve()
		return append(out, c...), nil
	}
	keeps := func(name string, draw func(t *rapid.T) ([][]float64, func(a [][]float64, scramble func()) ([]float64, error))) sliceCall {
		return sliceCall{name, -1, func(t *rapid.T) ([][]float64, func([][]float64, []float64, func()) ([]float64, error)) {
			args, f := draw(t)
			return args, func(a [][]float64, _ []float64, scramble func()) ([]float64, error) { return f(a, scramble) }
		}}
	}
	dists := func(t *rapid.T) [][]float64 {
		n := rapid.IntRange(2, 4).Draw(t, "n")
		return [][]float64{drawDist(t, n, "P"), drawDist(t, n, "Q")}
	}
	rsOrders := func(t *rapid.T) [][]float64 {
		o := []float64{1.5, 2, 4, 8, 16, 64}
		return [][]float64{o, drawCurve(t, len(o), "rdp")}
	}
	calls = append(calls,
		keeps("SampledDivergenceEvent", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			q := f64(t, "q", 0, 1)
			return dists(t), func(a [][]float64, scramble func()) ([]float64, error) {
				e := fast.SampledDivergenceEvent(q, a[0], a[1])
				scramble()
				return evalEvent(e)
			}
		}),
		keeps("BaseCurveEvent", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			return [][]float64{drawBase(t, "base")}, func(a [][]float64, scramble func()) ([]float64, error) {
				e := fast.BaseCurveEvent(rdpcheck.BaseCurve{Eps: a[0], Inf: math.Inf(1)})
				scramble()
				return evalEvent(e)
			}
		}),
		keeps("RepeatAndSelectCurveEvent", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			m, s := f64(t, "mean", 1, 10), f64(t, "shape", 0, 3)
			return rsOrders(t), func(a [][]float64, scramble func()) ([]float64, error) {
				e := fast.RepeatAndSelectCurveEvent(a[0], a[1], m, s)
				scramble()
				return evalEvent(e)
			}
		}),
		keeps("Accountant.ComposeSampledDivergence", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			q := f64(t, "q", 0, 1)
			return dists(t), func(a [][]float64, scramble func()) ([]float64, error) {
				var acc fast.Accountant
				if err := acc.ComposeSampledDivergence(q, a[0], a[1], 2); err != nil {
					return nil, err
				}
				scramble()
				return evalAcc(&acc)
			}
		}),
		keeps("Accountant.ComposePoissonBound", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			q := f64(t, "q", 0, 1)
			return [][]float64{drawBase(t, "base")}, func(a [][]float64, scramble func()) ([]float64, error) {
				acc := fast.Accountant{Orders: []float64{1.5, 2, 3, 8}}
				if err := acc.ComposePoissonBound(q, a[0], 2); err != nil {
					return nil, err
				}
				scramble()
				return evalAcc(&acc)
			}
		}),
		keeps("Accountant.ComposeWORBound", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			q := f64(t, "q", 0, 1)
			return [][]float64{drawBase(t, "base")}, func(a [][]float64, scramble func()) ([]float64, error) {
				acc := fast.Accountant{Orders: []float64{1.5, 2, 3, 8}}
				if err := acc.ComposeWORBound(q, rdpcheck.BaseCurve{Eps: a[0], Inf: math.Inf(1)}, 2); err != nil {
					return nil, err
				}
				scramble()
				return evalAcc(&acc)
			}
		}),
		keeps("Accountant.ComposeRepeatAndSelect", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			m, s := f64(t, "mean", 1, 10), f64(t, "shape", 0, 3)
			return rsOrders(t), func(a [][]float64, scramble func()) ([]float64, error) {
				acc := fast.Accountant{Orders: []float64{1.5, 2, 3, 8}}
				if err := acc.ComposeRepeatAndSelect(a[0], a[1], m, s, 2); err != nil {
					return nil, err
				}
				scramble()
				return evalAcc(&acc)
			}
		}),
		keeps("Accountant.Orders", func(t *rapid.T) ([][]float64, func([][]float64, func()) ([]float64, error)) {
			q, s := f64(t, "q", 0, 1), f64(t, "sigma", 0.5, 10)
			return [][]float64{drawOrders(t, "orders")}, func(a [][]float64, scramble func()) ([]float64, error) {
				acc := fast.Accountant{Orders: a[0]}
				if err := acc.ComposeSGM(q, s, 10); err != nil {
					return nil, err
				}
				scramble()
				r, err := evalAcc(&acc)
				eps, order, err2 := acc.Epsilon(1e-5, fast.Improved)
				return append(r, eps, order), errors.Join(err, err2)
			}
		}),
	)
	return calls
}

// same says whether two runs of a call agree: bit for bit, or by the text
// of their errors (on error, out holds nothing in particular).
func same(v1 []float64, e1 error, v2 []float64, e2 error) bool {
	if e1 != nil || e2 != nil {
		return e1 != nil && e2 != nil && e1.Error() == e2.Error()
	}
	if len(v1) != len(v2) {
		return false
	}
	for i := range v1 {
		if math.Float64bits(v1[i]) != math.Float64bits(v2[i]) {
			return false
		}
	}
	return true
}

func clones(args [][]float64) [][]float64 {
	c := make([][]float64, len(args))
	for i, a := range args {
		c[i] = slices.Clone(a)
	}
	return c
}

// TestSliceAliasing: every function and method of fast that takes or fills
// float64 slices gives the same numbers, bit for bit (and the same error),
// whether out is a slice of its own, the same slice as an input of its
// length, or overlaps one by an element either way; whether two inputs of
// equal length and contents are one slice or two; and whether the caller
// changes its slices after a constructor or Compose method returned. No
// input slice is modified. (The package documentation states the rule.)
func TestSliceAliasing(t *testing.T) {
	t.Parallel()
	for _, c := range sliceCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rapid.Check(t, func(t *rapid.T) { checkAliasing(t, c) })
		})
	}
}

func checkAliasing(t *rapid.T, c sliceCall) {
	args, call := c.draw(t)
	nop := func() {}
	run := func(a [][]float64, out []float64, scramble func()) ([]float64, error) {
		v, err := call(a, out, scramble)
		return append(slices.Clone(v), out...), err
	}
	newOut := func() []float64 {
		if c.outOf < 0 {
			return nil
		}
		return make([]float64, len(args[c.outOf]))
	}
	a := clones(args)
	want, wantErr := run(a, newOut(), nop)
	for i := range a {
		if !slices.EqualFunc(a[i], args[i], func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
			t.Fatalf("%s changed its input %d: %v, was %v", c.name, i, a[i], args[i])
		}
	}
	check := func(how string, got []float64, err error) {
		if !same(got, err, want, wantErr) {
			t.Fatalf("%s with %s: %v (%v), want %v (%v) as with slices apart", c.name, how, got, err, want, wantErr)
		}
	}
	if c.outOf >= 0 {
		n := len(args[c.outOf])
		for k := range args {
			if len(args[k]) != n {
				continue
			}
			a := clones(args)
			got, err := run(a, a[k], nop)
			check(fmt.Sprintf("out the same slice as input %d", k), got, err)
			for _, shift := range []int{1, -1} {
				buf := make([]float64, n+1)
				a := clones(args)
				var out []float64
				if shift == 1 { // out starts one element after the input
					a[k], out = buf[:n], buf[1:]
				} else {
					a[k], out = buf[1:], buf[:n]
				}
				copy(a[k], args[k])
				got, err := run(a, out, nop)
				check(fmt.Sprintf("out overlapping input %d, shifted by %d", k, shift), got, err)
			}
		}
	}
	// two inputs of equal length: one slice for both, against two equal
	for i := range args {
		for j := range args {
			if i == j || len(args[i]) != len(args[j]) {
				continue
			}
			apart := clones(args)
			apart[j] = slices.Clone(args[i])
			w, we := run(apart, newOut(), nop)
			one := clones(args)
			one[j] = one[i]
			got, err := run(one, newOut(), nop)
			if !same(got, err, w, we) {
				t.Fatalf("%s with input %d the same slice as input %d: %v (%v), want %v (%v)", c.name, j, i, got, err, w, we)
			}
		}
	}
	// the caller's slices changed after the call made what it keeps
	a = clones(args)
	got, err := run(a, newOut(), func() {
		for _, x := range a {
			slices.Reverse(x)
			for i := range x {
				x[i] = x[i]*3 + 1
			}
		}
	})
	check("its input slices changed after it returned", got, err)
}

// TestUserEventSlices: this package never hands an Event it did not make
// overlapping orders and out (not even when its own caller passes them
// aliased), and keeps neither slice: overwriting every slice the event
// was given, after the calls, changes no later result.
func TestUserEventSlices(t *testing.T) {
	var given [][]float64
	user := fast.CurveFunc(func(orders, out []float64) error {
		if len(orders) > 0 && len(out) > 0 {
			for i := range orders {
				for j := range out {
					if &orders[i] == &out[j] {
						t.Errorf("an Event was given overlapping orders and out")
						return nil
					}
				}
			}
		}
		given = append(given, orders, out)
		for i, a := range orders {
			v, err := fast.Gaussian(2, a)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	})
	run := func() []float64 {
		var res []float64
		acc := fast.Accountant{Orders: []float64{1.5, 2, 4, 8}}
		if err := acc.Compose(user, 3); err != nil {
			t.Fatal(err)
		}
		o := []float64{1.5, 3, 7.5, math.Inf(1)}
		if err := acc.RDP(o, o); err != nil {
			t.Fatal(err)
		}
		res = append(res, o...)
		eps, order, err := acc.BestEpsilon(1e-5, fast.Improved)
		res = append(res, eps, order)
		if err != nil {
			t.Fatal(err)
		}
		eps, order, err = fast.BestDelta(user, nil, 1, fast.Classic)
		res = append(res, eps, order)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []fast.Event{fast.PoissonBoundEvent(0.1, user), fast.WORBoundEvent(0.1, user), fast.RepeatAndSelectEvent(user, 2, 1)} {
			o := []float64{1.5, 3, 7.5, math.Inf(1)}
			if err := e.RDP(o, o); err != nil {
				t.Fatal(err)
			}
			res = append(res, o...)
		}
		return res
	}
	want := run()
	for _, s := range given {
		for i := range s {
			s[i] = math.NaN()
		}
	}
	if got := run(); !same(got, nil, want, nil) {
		t.Errorf("after the slices given to an Event were overwritten: %v, want %v", got, want)
	}
}

// TestReturnedSlicesAreNew: a slice returned is the caller's: overwriting
// it changes nothing the package returns later.
func TestReturnedSlicesAreNew(t *testing.T) {
	var acc fast.Accountant
	if err := acc.ComposeGaussian(3, 2); err != nil {
		t.Fatal(err)
	}
	steps := []int{4, 8}
	tree := fast.TreeAggregationEvent(1, steps, fast.TreeOneTree)
	for _, c := range []struct {
		name string
		get  func() []float64
	}{
		{"DefaultOrders", fast.DefaultOrders},
		{"RepeatAndSelectOrders", fast.RepeatAndSelectOrders},
		{"Accountant.Curve orders", func() []float64 { o, _ := acc.Curve(); return o }},
		{"Accountant.Curve rdp", func() []float64 { _, r := acc.Curve(); return r }},
		{"TreeAggregationEvent after its steps changed", func() []float64 {
			out := []float64{0, 0}
			if err := tree.RDP([]float64{2, 8}, out); err != nil {
				t.Fatal(err)
			}
			steps[0] = 1 << 20 // the caller's slice, not the event's
			return out
		}},
	} {
		first := c.get()
		want := slices.Clone(first)
		for i := range first {
			first[i] = -1
		}
		if got := c.get(); !slices.Equal(got, want) {
			t.Errorf("%s after the caller overwrote its last result: %v, want %v", c.name, got, want)
		}
	}
}
