package fast_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// eventsSweepOrders: orders near 1 and the default orders (+Inf is
// checked in the special cases), thinned under -short.
func eventsSweepOrders(short bool) []float64 {
	// orders near 1 first: both sums of internal/puredp's classPair.div
	// cancel there (caught by the laws package's events law at alpha =
	// 1.00000001: 1.6e-7 high)
	// (and from 1 + 2^-52, as every sweep: fast.NearOneSweep; kept whole
	// under -short)
	near := append(slices.Clone(fast.NearOneSweep), 1+1e-8, 1.0001, 1.001, 1.01, 1.05)
	o := append(near, rdpcheck.DefaultOrders()...)
	if !short {
		return o
	}
	s := slices.Clone(fast.NearOneSweep)
	for i := len(fast.NearOneSweep); i < len(o); i += 7 {
		s = append(s, o[i])
	}
	return s
}

// TestEventsAccuracySweep compares fast with the reference at 64 bits per
// region: the fast value must never be below the reference and within
// 1e-12 relative of it. -v prints max and RMS relative error per region.
func TestEventsAccuracySweep(t *testing.T) {
	ref := reference.Context{Prec: 64}
	orders := eventsSweepOrders(testing.Short())
	type pt struct {
		name string
		f    func(a float64) (float64, error)
		r    func(a float64) (*big.Float, error)
	}
	var pts []pt
	for _, rel := range []string{fast.ReplaceOne, fast.ReplaceSpecial} {
		for _, n := range []float64{1e-12, 1e-6, 0.01, 0.3, 0.5, 0.9, 0.999, 1 - 1e-6, 1 - 1e-12} {
			for _, k := range []float64{2, 3, 6, 100, 1e6} {
				n, k, rel := n, k, rel
				region := "krr " + rel
				switch {
				case n < 0.01:
					region += " noise small"
				case n > 0.99:
					region += " noise near 1"
				default:
					region += " noise mid"
				}
				pts = append(pts, pt{region,
					func(a float64) (float64, error) { return fast.KaryRandomizedResponse(n, k, rel, a) },
					func(a float64) (*big.Float, error) { return ref.KaryRandomizedResponse(n, k, rel, a) }})
			}
		}
	}
	for _, e := range []float64{1e-8, 1e-5, 0.01, 0.3, 1, 3, 10, 50} {
		e := e
		reg := "eps < 0.01"
		if e >= 0.01 {
			reg = "eps >= 0.01"
		}
		pts = append(pts,
			pt{"puredp " + reg, func(a float64) (float64, error) { return fast.PureDP(e, a) },
				func(a float64) (*big.Float, error) { return ref.PureDP(e, a) }},
			pt{"expmech " + reg, func(a float64) (float64, error) { return fast.ExponentialMechanism(e, a) },
				func(a float64) (*big.Float, error) { return ref.ExponentialMechanism(e, a) }},
			pt{"zcdp", func(a float64) (float64, error) { return fast.ZCDP(e, e/3, a) },
				func(a float64) (*big.Float, error) { return ref.ZCDP(e, e/3, a) }})
	}
	type stat struct {
		n        int
		max, sum float64
	}
	stats := map[string]*stat{}
	var names []string
	for _, p := range pts {
		s := stats[p.name]
		if s == nil {
			s = &stat{}
			stats[p.name] = s
			names = append(names, p.name)
		}
		for _, a := range orders {
			fv, err := p.f(a)
			if err != nil {
				t.Fatalf("%s alpha=%g: %v", p.name, a, err)
			}
			rv, err := p.r(a)
			if err != nil {
				t.Fatalf("%s alpha=%g: reference %v", p.name, a, err)
			}
			if rv.Sign() == 0 {
				if fv != 0 {
					t.Errorf("%s alpha=%g: fast %g, reference 0", p.name, a, fv)
				}
				continue
			}
			d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(fv), rv)
			rel, _ := d.Quo(d, rv).Float64()
			if rel < 0 {
				t.Errorf("%s alpha=%g: fast %.17g below reference %s", p.name, a, fv, rv.Text('g', 20))
			}
			if rel > 1e-12 {
				t.Errorf("%s alpha=%g: fast %.17g, reference %s: rel %.3g > 1e-12", p.name, a, fv, rv.Text('g', 20), rel)
			}
			s.n++
			s.max = math.Max(s.max, math.Abs(rel))
			s.sum += rel * rel
		}
	}
	for _, n := range names {
		s := stats[n]
		t.Logf("%-36s %5d points  max rel %.2e  rms %.2e", n, s.n, s.max, math.Sqrt(s.sum/float64(max(s.n, 1))))
	}
}

func TestEventsSpecialCasesFast(t *testing.T) {
	inf := math.Inf(1)
	v := func(x float64, err error) float64 {
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"KRR noise=1", v(fast.KaryRandomizedResponse(1, 4, fast.ReplaceOne, 2)), 0},
		{"KRR noise=0", v(fast.KaryRandomizedResponse(0, 4, fast.ReplaceSpecial, 2)), inf},
		{"PureDP eps=0 alpha=Inf", v(fast.PureDP(0, inf)), 0},
		{"PureDP alpha=Inf", v(fast.PureDP(0.5, inf)), 0.5},
		{"EM alpha=Inf", v(fast.ExponentialMechanism(0.5, inf)), 0.5},
		{"ZCDP rho=0 Inf", v(fast.ZCDP(0, 0.1, inf)), 0.1},
		{"ZCDP Inf", v(fast.ZCDP(0.1, 0, inf)), inf},
		{"Group c=2", v(fast.GroupPrivacy([]float64{2, 8}, []float64{0.1, 0.5}, 2, 2)), math.Nextafter(4.5, inf)},
		{"Group Inf", v(fast.GroupPrivacy([]float64{2, inf}, []float64{0.1, 0.5}, 2, inf)), 2},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// alpha = +Inf: the limits, log(k/noise - k + 1) within 4 ulps above
	got := v(fast.KaryRandomizedResponse(0.5, 2, fast.ReplaceOne, inf))
	if w := math.Log(3); got < w*(1-0x1p-52) || got > w*(1+0x1p-50) {
		t.Errorf("KRR one Inf = %v, want log 3 = %v", got, w)
	}
	for _, err := range []error{
		second(fast.KaryRandomizedResponse(math.NaN(), 4, fast.ReplaceOne, 2)),
		second(fast.KaryRandomizedResponse(0.5, 1e300, fast.ReplaceOne, 2)),
		second(fast.KaryRandomizedResponse(0.5, 4, "", 2)),
		second(fast.PureDP(0.5, 0.5)),
		second(fast.ExponentialMechanism(-1, 2)),
		second(fast.ZCDP(1, inf, 2)),
		second(fast.GroupPrivacy([]float64{2}, []float64{1}, 31, 2)),
	} {
		if !errors.Is(err, fast.ErrInput) {
			t.Errorf("err = %v, want ErrInput", err)
		}
	}
}

func second(_ float64, err error) error { return err }

func ExamplePureDP() {
	v, _ := fast.PureDP(1, 2)
	fmt.Printf("%.6f\n", v)
	// Output: 0.735326
}

func ExampleKaryRandomizedResponse() {
	v, _ := fast.KaryRandomizedResponse(0.5, 10, fast.ReplaceOne, 1.5)
	fmt.Printf("%.6f\n", v)
	// Output: 1.612254
}

func ExampleExponentialMechanism() {
	v, _ := fast.ExponentialMechanism(1, 2)
	fmt.Printf("%.6f\n", v)
	// Output: 0.248302
}

// TestExponentialMechanismCurve: the curve form equals the scalar form
// order by order (the same operations, K hoisted).
func TestExponentialMechanismCurve(t *testing.T) {
	orders := append(rdpcheck.DefaultOrders(), math.Inf(1))
	out := make([]float64, len(orders))
	for _, e := range []float64{0, 1e-8, 0.5, 50} {
		if err := fast.ExponentialMechanismCurve(e, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			w, _ := fast.ExponentialMechanism(e, a)
			if out[i] != w {
				t.Errorf("eps=%g alpha=%g: curve %v, scalar %v", e, a, out[i], w)
			}
		}
	}
}

// TestConversionInfOrder: an order +Inf contributes its rdp (the limit of
// both conversions), never an undefined value. dp_accounting returns eps 0
// here (its improved formula is NaN at alpha = inf and argmin picks it).
// By hand: the improved conversion gives 10.17 (alpha 2), 3.19 (4), 0.918
// (16); +Inf gives 0.5, the minimum.
func TestConversionInfOrder(t *testing.T) {
	inf := math.Inf(1)
	orders := []float64{2, 4, 16, inf}
	for _, conv := range []fast.Conversion{fast.Classic, fast.Improved} {
		eps, order, err := fast.Epsilon(orders, []float64{0.05, 0.1, 0.4, 0.5}, 1e-5, conv)
		if err != nil || eps != 0.5 || order != inf {
			t.Errorf("conv %v: Epsilon = %v at %v (%v), want 0.5 at +Inf", conv, eps, order, err)
		}
		// rdp +Inf at the order +Inf: a finite order wins
		eps, order, err = fast.Epsilon(orders, []float64{0.05, 0.1, 0.4, inf}, 1e-5, conv)
		if err != nil || !(eps > 0.9 && eps < 2) || order != 16 {
			t.Errorf("conv %v: Epsilon = %v at %v (%v), want about 0.92 at 16", conv, eps, order, err)
		}
		d, order, err := fast.Delta(orders, []float64{0.05, 0.1, 0.4, 0.5}, 0.5, conv)
		if err != nil || d != 0 || order != inf {
			t.Errorf("conv %v: Delta = %v at %v (%v), want 0 at +Inf", conv, d, order, err)
		}
	}
	// after ten binary randomized responses (noise 0.5, replace-one) with
	// +Inf among the orders: eps is 10 log 3 at most, never 0
	o := orders
	rr := make([]float64, len(o))
	for i, a := range o {
		v, err := fast.KaryRandomizedResponse(0.5, 2, fast.ReplaceOne, a)
		if err != nil {
			t.Fatal(err)
		}
		rr[i] = 10 * v
	}
	eps, _, err := fast.Epsilon(o, rr, 1e-5, fast.Improved)
	if err != nil || !(eps > 8 && eps <= 10*math.Log(3)+1e-9) {
		t.Errorf("ten RR events: eps = %v (%v), want in (8, 10 log 3]", eps, err)
	}
}

// TestPureDPCurve: the curve form equals the scalar form order by order.
func TestPureDPCurve(t *testing.T) {
	orders := append(rdpcheck.DefaultOrders(), math.Inf(1))
	out := make([]float64, len(orders))
	for _, e := range []float64{0, 1e-8, 0.5, 50} {
		if err := fast.PureDPCurve(e, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			w, _ := fast.PureDP(e, a)
			if out[i] != w {
				t.Errorf("eps=%g alpha=%g: curve %v, scalar %v", e, a, out[i], w)
			}
		}
	}
}

// TestKaryRandomizedResponseCurve: the curve form equals the scalar form
// order by order (the same operations, the order-free parts hoisted).
func TestKaryRandomizedResponseCurve(t *testing.T) {
	orders := append(rdpcheck.DefaultOrders(), math.Inf(1))
	out := make([]float64, len(orders))
	for _, rel := range []string{fast.ReplaceOne, fast.ReplaceSpecial} {
		for _, n := range []float64{0, 1e-12, 0.3, 1 - 1e-12, 1} {
			for _, k := range []float64{2, 7, 1e6} {
				if err := fast.KaryRandomizedResponseCurve(n, k, rel, orders, out); err != nil {
					t.Fatal(err)
				}
				for i, a := range orders {
					w, _ := fast.KaryRandomizedResponse(n, k, rel, a)
					if out[i] != w {
						t.Errorf("%s noise=%g k=%g alpha=%g: curve %v, scalar %v", rel, n, k, a, out[i], w)
					}
				}
			}
		}
	}
	for _, err := range []error{
		fast.KaryRandomizedResponseCurve(0.5, 2, "", orders, out),
		fast.KaryRandomizedResponseCurve(0.5, 2, fast.ReplaceOne, orders, out[:1]),
		fast.KaryRandomizedResponseCurve(0.5, 2, fast.ReplaceOne, []float64{1}, out[:1]),
		fast.KaryRandomizedResponseCurve(0.5, 2.5, fast.ReplaceOne, orders, out),
	} {
		if !errors.Is(err, fast.ErrInput) {
			t.Errorf("err = %v, want ErrInput", err)
		}
	}
}

// BenchmarkEventCurves: each curve form over the default orders (the
// issue's budget: 50 us, no allocations).
func BenchmarkEventCurves(b *testing.B) {
	orders := rdpcheck.DefaultOrders()
	out := make([]float64, len(orders))
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"KaryRR/one", func() error { return fast.KaryRandomizedResponseCurve(0.3, 100, fast.ReplaceOne, orders, out) }},
		{"KaryRR/special", func() error { return fast.KaryRandomizedResponseCurve(0.3, 100, fast.ReplaceSpecial, orders, out) }},
		{"KaryRR/special-tiny", func() error {
			return fast.KaryRandomizedResponseCurve(1e-12, 1e6, fast.ReplaceSpecial, orders, out)
		}},
		{"ExpMech", func() error { return fast.ExponentialMechanismCurve(0.5, orders, out) }},
		{"PureDP", func() error { return fast.PureDPCurve(0.5, orders, out) }},
		{"PureDP-eps50", func() error { return fast.PureDPCurve(50, orders, out) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAccountantEvents: the issue-12 events compose with their count, and
// the (eps, delta) event keeps its delta aside as dp_accounting does.
func TestAccountantEvents(t *testing.T) {
	orders := append(rdpcheck.DefaultOrders(), math.Inf(1))
	one := make([]float64, len(orders))
	for _, c := range []struct {
		name    string
		compose func(a *fast.Accountant, n int) error
		curve   func(out []float64) error
	}{
		{"KaryRR", func(a *fast.Accountant, n int) error {
			return a.ComposeKaryRandomizedResponse(0.3, 7, fast.ReplaceSpecial, n)
		}, func(out []float64) error {
			return fast.KaryRandomizedResponseCurve(0.3, 7, fast.ReplaceSpecial, orders, out)
		}},
		{"ExpMech", func(a *fast.Accountant, n int) error { return a.ComposeExponentialMechanism(1, n) },
			func(out []float64) error { return fast.ExponentialMechanismCurve(1, orders, out) }},
		{"ZCDPXi", func(a *fast.Accountant, n int) error { return a.ComposeZCDPXi(0.1, 0.01, n) },
			func(out []float64) error {
				for i, a := range orders {
					out[i], _ = fast.ZCDP(0.1, 0.01, a)
				}
				return nil
			}},
		{"PureDP", func(a *fast.Accountant, n int) error { return a.ComposePureDP(1, n) },
			func(out []float64) error { return fast.PureDPCurve(1, orders, out) }},
		{"EpsilonDelta", func(a *fast.Accountant, n int) error { return a.ComposeEpsilonDelta(1, 1e-6, n) },
			func(out []float64) error { return fast.PureDPCurve(1, orders, out) }},
	} {
		if err := c.curve(one); err != nil {
			t.Fatal(err)
		}
		acc := fast.Accountant{Orders: orders}
		if err := c.compose(&acc, 10); err != nil {
			t.Fatal(err)
		}
		_, got := acc.Curve()
		for i, a := range orders {
			// count times one event, rounded up by at most 2 ulps (scaleUp, addUp)
			w := 10 * one[i]
			if got[i] < w || got[i] > w*(1+0x1p-50) {
				t.Errorf("%s x10 at alpha=%v: %v, want 10 x %v", c.name, a, got[i], one[i])
			}
		}
		if err := c.compose(&acc, 0); !errors.Is(err, fast.ErrInput) {
			t.Errorf("%s count 0: %v", c.name, err)
		}
	}
	// dp_accounting drops the count of ExponentialMechanismDpEvent: its
	// curve of ten is that of one, 0.248 at order 2 (events_FINDINGS.md). Ten
	// applications are ten times that.
	acc := fast.Accountant{Orders: []float64{2}}
	_ = acc.ComposeExponentialMechanism(1, 10)
	if _, r := acc.Curve(); !(r[0] > 2.48 && r[0] < 2.49) {
		t.Errorf("ten exponential mechanisms at order 2: %v, want 10 x 0.2483", r[0])
	}

	// kept delta: 1 - (1 - 1e-6)^10 = 9.999955000119999790e-6 (mpmath, 40
	// digits); the conversion gets (1e-5 - kept)/(1 - kept) =
	// 4.500033000148500515e-11.
	acc = fast.Accountant{Orders: orders}
	if err := acc.ComposeEpsilonDelta(1, 1e-6, 10); err != nil {
		t.Fatal(err)
	}
	kept := 9.999955000119999790000252e-6
	if k := acc.KeptDelta(); k < kept || k > kept*(1+1e-14) {
		t.Errorf("KeptDelta = %v, want %v", k, kept)
	}
	_, curve := acc.Curve()
	for _, conv := range []fast.Conversion{fast.Classic, fast.Improved} {
		got, _, err := acc.Epsilon(1e-5, conv)
		lo, _, _ := fast.Epsilon(orders, curve, 4.500033000148500515e-11, conv)
		hi, _, _ := fast.Epsilon(orders, curve, 4.500033000148500515e-11*(1-1e-13), conv)
		if err != nil || got < lo || got > hi {
			t.Errorf("%v: Epsilon(1e-5) = %v (%v), want in [%v, %v]", conv, got, err, lo, hi)
		}
		// delta at or below the kept delta: no eps will do
		if e, o, err := acc.Epsilon(kept, conv); err != nil || !math.IsInf(e, 1) || !math.IsInf(o, 1) {
			t.Errorf("%v: Epsilon(kept) = %v at %v (%v), want +Inf", conv, e, o, err)
		}
		// Delta: 1 - (1 - d)(1 - kept) for the conversion's d
		d, _, _ := fast.Delta(orders, curve, 5, conv)
		want := d + kept*(1-d)
		if g, _, err := acc.Delta(5, conv); err != nil || g < want || g > want*(1+1e-13) {
			t.Errorf("%v: Delta(5) = %v (%v), want %v", conv, g, err, want)
		}
		if _, _, err := acc.Epsilon(0, conv); !errors.Is(err, fast.ErrInput) {
			t.Errorf("Epsilon(0) with a kept delta: %v", err)
		}
	}
	for _, err := range []error{
		acc.ComposeEpsilonDelta(1, -1e-9, 1), acc.ComposeEpsilonDelta(1, math.NaN(), 1),
		acc.ComposeEpsilonDelta(-1, 0.1, 1), acc.ComposeEpsilonDelta(1, 1.5, 1),
		acc.ComposeZCDPXi(0.1, -1, 1), acc.ComposeExponentialMechanism(math.Inf(1), 1),
		acc.ComposeKaryRandomizedResponse(0.5, 1, fast.ReplaceOne, 1),
	} {
		if !errors.Is(err, fast.ErrInput) {
			t.Errorf("err = %v, want ErrInput", err)
		}
	}
	if _, after := acc.Curve(); !cmp.Equal(after, curve) || acc.KeptDelta() < kept || acc.KeptDelta() > kept*(1+1e-14) {
		t.Errorf("refused events changed the accountant")
	}
	// delta = 1 keeps everything: eps is +Inf for every target
	acc = fast.Accountant{Orders: orders}
	_ = acc.ComposeEpsilonDelta(0.1, 1, 1)
	if e, _, err := acc.Epsilon(0.5, fast.Classic); err != nil || !math.IsInf(e, 1) {
		t.Errorf("after delta=1: Epsilon = %v (%v)", e, err)
	}
	if d, _, err := acc.Delta(100, fast.Classic); err != nil || d != 1 {
		t.Errorf("after delta=1: Delta = %v (%v)", d, err)
	}
}

func ExampleAccountant_ComposeEpsilonDelta() {
	var acc fast.Accountant
	_ = acc.ComposeEpsilonDelta(0.5, 1e-7, 20) // twenty (0.5, 1e-7)-DP mechanisms
	eps, _, _ := acc.Epsilon(1e-5, fast.Improved)
	fmt.Printf("kept delta %.4g, eps %.4f\n", acc.KeptDelta(), eps)
	// Output: kept delta 2e-06, eps 9.8894
}

// TestExponentialMechanismNearOrderOne: large eps at orders near 1, where
// the bound is below eps (K + eps^2 (alpha-1)/8 < eps). caught: "K = +Inf
// from eps = 38 on (u = 1 - eps/expm1(eps) rounded to 1): fast answered
// eps, 3.7% above the reference at eps = 50, alpha = 1.01". Expected:
// the reference at 64 bits, fast within 1e-12 and never below.
func TestExponentialMechanismNearOrderOne(t *testing.T) {
	ref := reference.Context{Prec: 64}
	for _, e := range []float64{1.5, 2, 5, 10, 20, 30, 37, 38, 40, 50} {
		for _, a := range []float64{1.0001, 1.001, 1.01, 1.02, 1.1} {
			f, err := fast.ExponentialMechanism(e, a)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ref.ExponentialMechanism(e, a)
			if err != nil {
				t.Fatal(err)
			}
			d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(f), r)
			rel, _ := d.Quo(d, r).Float64()
			if rel < 0 || rel > 1e-12 {
				t.Errorf("eps=%g alpha=%g: fast %.17g, reference %s (rel %.3g)", e, a, f, r.Text('g', 17), rel)
			}
		}
	}
}

func ExampleKaryRandomizedResponseCurve() {
	orders := []float64{2, 8, math.Inf(1)}
	out := make([]float64, len(orders))
	_ = fast.KaryRandomizedResponseCurve(0.5, 4, fast.ReplaceOne, orders, out)
	// by hand: P = (0.625, 0.125, 0.125, 0.125), Q swaps the first two;
	// order 2: log(0.625^2/0.125 + 0.125^2/0.625 + 0.25) = log 3.4; +Inf: log 5
	fmt.Printf("%.4f %.4f %.4f\n", out[0], out[1], out[2])
	// Output: 1.2238 1.5423 1.6094
}

func ExamplePureDPCurve() {
	orders := []float64{2, math.Inf(1)}
	out := make([]float64, len(orders))
	_ = fast.PureDPCurve(1, orders, out)
	fmt.Printf("%.6f %g\n", out[0], out[1])
	// Output: 0.735326 1
}

func ExampleExponentialMechanismCurve() {
	orders := []float64{2, 64}
	out := make([]float64, len(orders))
	_ = fast.ExponentialMechanismCurve(1, orders, out)
	fmt.Printf("%.6f %g\n", out[0], out[1]) // capped at eps
	// Output: 0.248302 1
}

func ExampleAccountant_ComposeExponentialMechanism() {
	acc := fast.Accountant{Orders: []float64{2, 4, 8}}
	_ = acc.ComposeExponentialMechanism(1, 10) // ten applications, not one
	_, rdp := acc.Curve()
	fmt.Printf("%.4f\n", rdp[0])
	// Output: 2.4830
}

func ExampleAccountant_ComposeKaryRandomizedResponse() {
	var acc fast.Accountant
	_ = acc.ComposeKaryRandomizedResponse(0.5, 2, fast.ReplaceOne, 10)
	eps, _, _ := acc.Epsilon(1e-5, fast.Improved)
	// just above 10 log 3 = 10.9861, the value at the order +Inf, which the
	// default orders (up to 1024) do not include
	fmt.Printf("%.4f\n", eps)
	// Output: 10.9868
}

func ExampleAccountant_ComposeZCDPXi() {
	acc := fast.Accountant{Orders: []float64{2, 4}}
	_ = acc.ComposeZCDPXi(0.1, 0.01, 3)
	_, rdp := acc.Curve()
	fmt.Printf("%.4f %.4f\n", rdp[0], rdp[1]) // 3 (0.01 + 0.1 alpha)
	// Output: 0.6300 1.2300
}

// TestKaryRandomizedResponseTinyNoise: noise near 2^-1017 (below the
// documented 1e-12, still an upper bound required) near order 1.
// caught: "KaryRandomizedResponse(5.7e-306, 2, replace-one, 1+1e-8) =
// +Inf: w e^l overflowed in the near-order-1 sum" (law of package laws
// monotone-alpha). Expected: the reference at 64 bits; fast never below
// and within 1e-12.
func TestKaryRandomizedResponseTinyNoise(t *testing.T) {
	ref := reference.Context{Prec: 64}
	for _, rel := range []string{fast.ReplaceOne, fast.ReplaceSpecial} {
		for _, a := range []float64{1 + 1e-8, 1.0039062600390625, 2} {
			f, err := fast.KaryRandomizedResponse(5.696189077778436e-306, 2, rel, a)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ref.KaryRandomizedResponse(5.696189077778436e-306, 2, rel, a)
			if err != nil {
				t.Fatal(err)
			}
			d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(f), r)
			if q, _ := d.Quo(d, r).Float64(); q < 0 || q > 1e-12 {
				t.Errorf("%s alpha=%v: fast %v, reference %s (rel %.3g)", rel, a, f, r.Text('g', 17), q)
			}
		}
	}
}

// TestExponentialMechanismTinyEps: below eps = 1e-160 the value (about
// alpha eps^2/8) is below float64's range, and fast must round it up to a
// positive number, never return 0 (caught by the tight-zCDP tests:
// ExponentialMechanism(1e-170, 1.5) was 0, the truth 1.875e-341). Each
// value is at or above the reference at 64 bits and, since the truth is
// below 2^-1074 here, at most a few units of 2^-1074 times the order.
func TestExponentialMechanismTinyEps(t *testing.T) {
	orders := []float64{1.5, 2, 1e6}
	out := make([]float64, len(orders))
	for _, eps := range []float64{1e-160, 1e-170, 1e-200, 1e-300, 5e-324} {
		if err := fast.ExponentialMechanismCurve(eps, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			v, err := fast.ExponentialMechanism(eps, a)
			if err != nil {
				t.Fatal(err)
			}
			r, err := reference.Context{Prec: 64}.ExponentialMechanism(eps, a)
			if err != nil {
				t.Fatal(err)
			}
			if v != out[i] {
				t.Errorf("eps=%g alpha=%g: scalar %g, curve %g", eps, a, v, out[i])
			}
			if v <= 0 || big.NewFloat(v).Cmp(r) < 0 {
				t.Errorf("eps=%g alpha=%g: %g, below the reference %s", eps, a, v, r.Text('g', 6))
			}
			// the value's bound: alpha eps^2/8 rounded up, plus the carried
			// error of eps^2's underflow scaled by the order
			if lim := a*eps*eps/8*(1+1e-15) + 4*a*0x1p-1074; v > lim {
				t.Errorf("eps=%g alpha=%g: %g, above %g", eps, a, v, lim)
			}
		}
	}
}
