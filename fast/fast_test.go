package fast

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// TestInputErrors checks that bad input gives typed errors, never a panic
// or a NaN.
func TestInputErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		err  error
	}{}
	add := func(name string, _ float64, err error) {
		cases = append(cases, struct {
			name string
			err  error
		}{name, err})
	}
	for _, c := range [][3]float64{{nan, 1, 2}, {-0.1, 1, 2}, {1.1, 1, 2}, {0.1, 0, 2}, {0.1, -1, 2}, {0.1, inf, 2}, {0.1, nan, 2}, {0.1, 1, 1}, {0.1, 1, 0.5}, {0.1, 1, nan}} {
		v, err := SGM(c[0], c[1], c[2])
		add("SGM", v, err)
	}
	out := make([]float64, 1)
	add("SGMCurve steps", 0, SGMCurve(0.1, 1, 0, []float64{2}, out))
	add("SGMCurve empty", 0, SGMCurve(0.1, 1, 1, nil, out[:0]))
	add("SGMCurve mismatch", 0, SGMCurve(0.1, 1, 1, []float64{2, 3}, out))
	_, _, err := Epsilon([]float64{2}, []float64{1}, 0, Classic)
	add("Epsilon delta=0", 0, err)
	_, _, err = Epsilon([]float64{2}, []float64{1}, 1, Classic)
	add("Epsilon delta=1", 0, err)
	_, _, err = Epsilon([]float64{2, 3}, []float64{1}, 0.1, Classic)
	add("Epsilon mismatch", 0, err)
	_, _, err = Epsilon([]float64{2}, []float64{-1}, 0.1, Classic)
	add("Epsilon rdp<0", 0, err)
	_, _, err = Delta([]float64{2}, []float64{1}, -1, Classic)
	add("Delta eps<0", 0, err)
	v, err := Gaussian(0, 2)
	add("Gaussian", v, err)
	v, err = Laplace(1, 0.5)
	add("Laplace", v, err)
	v, err = RandomizedResponse(1.5, 2)
	add("RR", v, err)
	v, err = Divergence([]float64{0.5, 0.5}, []float64{1}, 2)
	add("Divergence", v, err)
	for _, c := range cases {
		var ie *InputError
		if !errors.As(c.err, &ie) || !errors.Is(c.err, ErrInput) {
			t.Errorf("%s: want *InputError, got %v", c.name, c.err)
		}
	}
	if _, err := SGM(0.1, 1, MaxIntegerOrder+1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("order above MaxIntegerOrder: got %v", err)
	}
}

// TestSGMSpecialCases: the documented special cases (exact by definition).
func TestSGMSpecialCases(t *testing.T) {
	if v, _ := SGM(0, 1, 5); v != 0 {
		t.Errorf("q=0: %v", v)
	}
	if v, _ := SGM(0.3, 1, math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("alpha=Inf: %v", v)
	}
	// q=1 is the Gaussian alpha/(2 sigma^2) = 2.5/(2*4) = 0.3125, rounded up by at most 3 ulps.
	if v, _ := SGM(1, 2, 2.5); v < 0.3125 || v > 0.3125*(1+1e-15) {
		t.Errorf("q=1: %v", v)
	}
}

func bigs(x []float64) []*big.Float {
	r := make([]*big.Float, len(x))
	for i, v := range x {
		r[i] = new(big.Float).SetFloat64(v)
	}
	return r
}

// TestEpsilonDeltaVsReference converts full SGM curves with both
// conversions and compares with the reference's conversion of its own
// curve: within 1e-10 relative and never below.
func TestEpsilonDeltaVsReference(t *testing.T) {
	t.Parallel()
	orders := DefaultOrders()
	if testing.Short() {
		// The reference's curve is the cost; a quarter of the orders,
		// the same for both, still tests the conversions over a grid.
		var some []float64
		for i := 0; i < len(orders); i += 4 {
			some = append(some, orders[i])
		}
		orders = some
	}
	for _, c := range []struct {
		q, sigma float64
		steps    int
	}{{256.0 / 60000, 1.1, 14062}, {0.001, 0.8, 1000}} {
		if testing.Short() && c.q == 0.001 {
			continue // one curve under -short
		}
		ref, err := refCtx.SGMCurve(c.q, c.sigma, c.steps, orders)
		if err != nil {
			t.Fatal(err)
		}
		rdp := make([]float64, len(orders))
		if err := SGMCurve(c.q, c.sigma, c.steps, orders, rdp); err != nil {
			t.Fatal(err)
		}
		for _, conv := range []Conversion{Classic, Improved} {
			for _, delta := range []float64{1e-5, 1e-9} {
				e, _, err := Epsilon(orders, rdp, delta, conv)
				if err != nil {
					t.Fatal(err)
				}
				re, _, err := refCtx.Epsilon(orders, ref, delta, reference.Conversion(conv))
				if err != nil {
					t.Fatal(err)
				}
				if r := relErr(e, re); r < 0 || r > 1e-10 {
					t.Errorf("Epsilon %v q=%v delta=%v: fast %v ref %v rel %.3g", conv, c.q, delta, e, re, r)
				}
			}
			for _, eps := range []float64{0.5, 2} {
				d, _, err := Delta(orders, rdp, eps, conv)
				if err != nil {
					t.Fatal(err)
				}
				rd, _, err := refCtx.Delta(orders, ref, eps, reference.Conversion(conv))
				if err != nil {
					t.Fatal(err)
				}
				if r := relErr(d, rd); r < 0 || r > 1e-10 {
					t.Errorf("Delta %v q=%v eps=%v: fast %v ref %v rel %.3g", conv, c.q, eps, d, rd, r)
				}
			}
		}
	}
}

// TestClosedFormsVsReference: each closed form within 1e-13 relative of
// the reference and never below.
func TestClosedFormsVsReference(t *testing.T) {
	check := func(name string, v float64, err error, r *big.Float, rerr error) {
		t.Helper()
		if err != nil || rerr != nil {
			t.Errorf("%s: %v / ref %v", name, err, rerr)
			return
		}
		if r.Sign() < 0 && v == 0 {
			return // the given vectors' exact divergence is negative (sums off 1 by rounding); 0 is above it
		}
		if e := relErr(v, r); e < 0 || e > 1e-13 {
			t.Errorf("%s: fast %v ref %s rel %.3g", name, v, r.Text('g', 20), e)
		}
	}
	for _, a := range []float64{1, 1.01, 1.5, 2, 7.3, 64, 1000} {
		for _, b := range []float64{0.1, 1, 3, 1000} {
			v, err := Laplace(b, a)
			r, rerr := refCtx.Laplace(b, a)
			check("Laplace", v, err, r, rerr)
		}
		for _, p := range []float64{0.5 + 1e-9, 0.51, 0.75, 0.99, 0.2} {
			v, err := RandomizedResponse(p, a)
			r, rerr := refCtx.RandomizedResponse(p, a)
			check("RandomizedResponse", v, err, r, rerr)
		}
		for _, g := range [][4]float64{{0, 1, 1, 1}, {0, 1, 0, 1.000001}, {0.3, 2, -1, 2.5}, {1, 1.2, 0, 1}} {
			v, err := GaussianDivergence(g[0], g[1], g[2], g[3], a)
			r, rerr := refCtx.GaussianDivergence(g[0], g[1], g[2], g[3], a)
			if r != nil && r.IsInf() {
				if !math.IsInf(v, 1) {
					t.Errorf("GaussianDivergence %v %v: want +Inf, got %v", g, a, v)
				}
				continue
			}
			check("GaussianDivergence", v, err, r, rerr)
		}
		v, err := Gaussian(1.1, a)
		r, rerr := refCtx.Gaussian(1.1, a)
		check("Gaussian", v, err, r, rerr)
		for _, pq := range [][2][]float64{
			{{0.5, 0.5}, {0.25, 0.75}},
			{{0.1, 0.2, 0.7}, {0.1 + 1e-9, 0.2, 0.7 - 1e-9}},
		} {
			v, err := Divergence(pq[0], pq[1], a)
			r, rerr := refCtx.Divergence(pq[0], pq[1], a)
			check("Divergence", v, err, r, rerr)
		}
	}
}

// TestAccountantComposes: the accountant's curve is the sum of the parts.
func TestAccountantComposes(t *testing.T) {
	var acc Accountant
	if err := acc.ComposeSGM(0.01, 1.1, 100); err != nil {
		t.Fatal(err)
	}
	if err := acc.ComposeSGM(0.02, 2, 50); err != nil {
		t.Fatal(err)
	}
	if err := acc.ComposeZCDP(0.01, 2); err != nil {
		t.Fatal(err)
	}
	orders, rdp := acc.Curve()
	if len(orders) != 156 {
		t.Fatalf("zero Accountant has %d orders, want dp_accounting's 156", len(orders))
	}
	for i, a := range orders {
		x, _ := SGM(0.01, 1.1, a)
		y, _ := SGM(0.02, 2, a)
		want := 100*x + 50*y + 0.02*a
		if math.Abs(rdp[i]-want) > 1e-13*want || rdp[i] < want*(1-1e-15) {
			t.Errorf("order %v: %v want %v", a, rdp[i], want)
		}
	}
}

// TestCalibrationNeverOvershoots: the sigma found meets the target and a
// sigma smaller by the tolerance does not; likewise for steps.
func TestCalibrationNeverOvershoots(t *testing.T) {
	const q, steps, eps, delta, tol = 0.004, 5000, 2.0, 1e-5, 1e-7
	s, got, err := CalibrateSigma(q, steps, eps, delta, Improved, nil, tol)
	if err != nil {
		t.Fatal(err)
	}
	if got > eps {
		t.Fatalf("achieved %v > target", got)
	}
	orders := DefaultOrders()
	rdp := make([]float64, len(orders))
	_ = SGMCurve(q, s/(1+2*tol), steps, orders, rdp)
	if e, _, _ := Epsilon(orders, rdp, delta, Improved); e <= eps {
		t.Errorf("sigma %v is not the smallest to tolerance: %v meets too (eps %v)", s, s/(1+2*tol), e)
	}
	n, got2, err := MaxSteps(q, 1.1, eps, delta, Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = SGMCurve(q, 1.1, n+1, orders, rdp)
	if e, _, _ := Epsilon(orders, rdp, delta, Improved); e <= eps || got2 > eps {
		t.Errorf("MaxSteps %d (eps %v): %d steps give %v", n, got2, n+1, e)
	}
}

// TestBridges: zCDP conversions and the RDP line agree as they must.
func TestBridges(t *testing.T) {
	// rho + 2 sqrt(rho log(1/delta)) at rho=0.5, delta=1e-6:
	// 0.5 + 2 sqrt(0.5*13.815510557964274) = 5.7565802...
	e, _ := ZCDPEpsilon(0.5, 1e-6)
	want := 0.5 + 2*math.Sqrt(0.5*13.815510557964274)
	if e < want || e > want*(1+1e-14) {
		t.Errorf("ZCDPEpsilon %v want %v", e, want)
	}
	e2, a, _ := ZCDPEpsilonRDP(0.5, 1e-6)
	if e2 > e || a <= 1 {
		t.Errorf("improved bridge %v (order %v) above classic %v", e2, a, e)
	}
	out := make([]float64, 2)
	_ = PureDPCurve(1, []float64{1.5, 4}, out)
	// the tight curve 1/(a-1) log((e^(a eps) + e^((1-a) eps))/(1 + e^eps)),
	// mpmath at 40 digits: mp.dps=40; log((exp(a)+exp(1-a))/(1+e))/(a-1)
	for i, w := range []float64{0.6273326470494993247894626227808975790381, 0.8958832596451838035475689996118530066242} {
		if out[i] < w || out[i] > w*(1+1e-14) {
			t.Errorf("PureDPCurve(1) = %v, want %v", out, w)
		}
	}
	v, _ := AdvancedComposition(0.1, 100, 1e-5)
	// sqrt(200 log 1e5) 0.1 + 100*0.1*(e^0.1-1) = 4.7985 + 1.0517 (hand-computed)
	if w := math.Sqrt(200*math.Log(1e5))*0.1 + 10*math.Expm1(0.1); v < w*(1-1e-15) || v > w*(1+1e-14) {
		t.Errorf("AdvancedComposition %v", v)
	}
}
