package fast

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/sgm"
)

// The transition band: at fractional orders with tiny q, just below
// alpha* = 1 + 2 sigma^2 log(1/q), the tail Gaussian at alpha lies where
// phi_s underflows. An integrand formed as e^(lP+t) (expm1(beta t) -
// beta r) there has a subnormal factor, and exponent errors (|lP|, a t in
// the hundreds) that a per-term bound of a few ulps does not cover; these
// rows caught both (Method: log form).
var transitionCases = []struct {
	q, sigma, alpha float64
	caught          string
}{
	{1e-9, 1, 40.59375, "subnormal prefactor: 1.5e-5 above"},
	{1e-9, 1, 39.84375, "terms lost to underflow: 2.6e-9 below"},
	{7.582560427911933e-10, 1, 39.99999999999999, "exponent errors outside the bound: 1.15e-12 below"},
	{1.1756597373746562e-12, 0.6318041516766033, 21.187679586258803, "terms lost to underflow: 1.29e-9 below"},
	{1e-9, 1, 41.1, "exponent errors outside the bound: 6.1e-12 below"},
}

func TestSGMTransitionBand(t *testing.T) {
	for _, c := range transitionCases {
		ref, err := refCtx.SGM(c.q, c.sigma, c.alpha)
		if err != nil {
			t.Fatalf("%s: reference: %v", c.caught, err)
		}
		checkSingleAndCurve(t, c.caught, c.q, c.sigma, c.alpha, ref, []float64{c.alpha - 0.25, c.alpha, c.alpha + 0.125})
	}
}

// checkSingleAndCurve checks SGM(q, sigma, alpha) and the same order
// inside SGMCurve(orders) (shared grid and chain, next to its neighbours;
// orders[1] = alpha) against the exact value: never below it, within
// 1e-12. Where the exact value is below the normal range any positive
// number not below it and tiny in absolute terms passes (the underflow
// bound of the Method comment).
func checkSingleAndCurve(t *testing.T, name string, q, sigma, alpha float64, exact *big.Float, orders []float64) {
	t.Helper()
	v, err := SGM(q, sigma, alpha)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := make([]float64, len(orders))
	if err := SGMCurve(q, sigma, 1, orders, out); err != nil {
		t.Fatalf("%s: SGMCurve: %v", name, err)
	}
	for _, r := range []struct {
		how string
		v   float64
	}{{"SGM", v}, {"SGMCurve", out[1]}} {
		if exact.Cmp(big.NewFloat(0x1p-1022)) < 0 {
			if !(r.v > 0) || bigF(r.v).Cmp(exact) < 0 || r.v > 1e-290 {
				t.Errorf("%s: %s(%v, %v, %v) = %v, exact %s", name, r.how, q, sigma, alpha, r.v, exact.Text('g', 17))
			}
			continue
		}
		e := relErr(r.v, exact)
		t.Logf("%s: %s = %v, relative error %.3g", name, r.how, r.v, e)
		if e < 0 || e > 1e-12 || math.IsNaN(r.v) {
			t.Errorf("%s: %s(%v, %v, %v) = %v, exact %s: relative error %.3g",
				name, r.how, q, sigma, alpha, r.v, exact.Text('g', 17), e)
		}
	}
}

// bigRat returns x as an exact big.Float.
func bigF(x float64) *big.Float { return new(big.Float).SetPrec(2000).SetFloat64(x) }

// gaussExact is alpha/(2 sigma^2) exactly (no overflow or underflow).
func gaussExact(sigma, alpha float64) *big.Float {
	s2 := new(big.Float).SetPrec(2000).Mul(bigF(sigma), bigF(sigma))
	s2.Mul(s2, bigF(2))
	return new(big.Float).SetPrec(2000).Quo(bigF(alpha), s2)
}

// checkUp reports whether got is a float64 rounding up of want within rel,
// where below the normal range a few subnormal steps are allowed, and
// +Inf exactly where want overflows.
func checkUp(got float64, want *big.Float, rel float64) bool {
	w, _ := want.Float64()
	if math.IsInf(w, 1) || want.Cmp(bigF(math.MaxFloat64)) > 0 {
		return math.IsInf(got, 1)
	}
	if math.IsNaN(got) || math.IsInf(got, 0) || got < 0 {
		return false
	}
	g := bigF(got)
	if g.Cmp(want) < 0 {
		return false // below the exact value
	}
	// got <= want (1+rel) + 8 subnormal steps
	hi := new(big.Float).SetPrec(2000).Mul(want, bigF(1+rel))
	hi.Add(hi, bigF(8*0x1p-1074))
	return g.Cmp(hi) <= 0
}

// TestSGMExtremeSigma: sigma so small that sigma^2 underflows (or the
// Gaussian at alpha swamps everything) and so large that 4 sigma^2
// overflows (NaN where the general method formed them). Expected: the
// Gaussian bound alpha/(2 sigma^2), within 2^-60 of the exact value, for
// tiny sigma; alpha q^2/(2 sigma^2), within 1e-40, for sigma >= 1e100;
// never NaN, never below the exact value, +Inf only where it overflows.
func TestSGMExtremeSigma(t *testing.T) {
	// the reported inputs
	for _, c := range []struct {
		q, sigma, alpha float64
		want            float64 // +Inf, or 0: a positive subnormal
	}{
		{0.3, 1e-300, 2, math.Inf(1)},
		{0.5, 1e300, 1.5, 0},
		{0.3960075827205882, 8.950283081143601e-154, 59, -1},
	} {
		v, err := SGM(c.q, c.sigma, c.alpha)
		switch {
		case err != nil || math.IsNaN(v):
			t.Errorf("SGM(%v, %v, %v) = %v, %v", c.q, c.sigma, c.alpha, v, err)
		case math.IsInf(c.want, 1) && !math.IsInf(v, 1):
			t.Errorf("SGM(%v, %v, %v) = %v, want +Inf", c.q, c.sigma, c.alpha, v)
		case c.want == 0 && !(v > 0 && v < 1e-320):
			t.Errorf("SGM(%v, %v, %v) = %v, want a positive subnormal", c.q, c.sigma, c.alpha, v)
		}
	}
	qs := []float64{1e-300, 1e-12, 0.3, 0.999999, 1 - 0x1p-53}
	orders := []float64{1 + 0x1p-40, 1.5, 2, 59, 59.5, 300.5, 5000, 2000.25, MaxIntegerOrder}
	tiny := []float64{5e-324, 1e-300, 1e-200, 1e-155, 8.950283081143601e-154, 3.2e-150, 1e-100, 1e-40}
	huge := []float64{1e100, 3e120, 1e150, 1e153, 7.1e153, 9.5e153, 1e154, 1.5e154, 1e155, 1e200, 1e300, math.MaxFloat64}
	for _, q := range qs {
		lq := math.Abs(math.Log(q))
		for _, a := range orders {
			for _, s := range tiny {
				v, err := SGM(q, s, a)
				if err != nil {
					t.Fatalf("SGM(%v, %v, %v): %v", q, s, a, err)
				}
				g := gaussExact(s, a)
				// exact in [g + a log q/(a-1), g] (Method): where the
				// criterion holds the value is g rounded up
				if 2*s*s*lq <= (a-1)*0x1p-60 {
					if !checkUp(v, g, 8*errfloat.Unit) {
						t.Errorf("SGM(%v, %v, %v) = %v, want alpha/(2 sigma^2) = %s rounded up", q, s, a, v, g.Text('g', 17))
					}
				} else if math.IsNaN(v) || v < 0 {
					t.Errorf("SGM(%v, %v, %v) = %v", q, s, a, v)
				}
			}
			for _, s := range huge {
				v, err := SGM(q, s, a)
				if err != nil {
					t.Fatalf("SGM(%v, %v, %v): %v", q, s, a, err)
				}
				// alpha q^2/(2 sigma^2) (1 +- 1e-40)
				want := gaussExact(s, a)
				want.Mul(want, bigF(q))
				want.Mul(want, bigF(q))
				lo := new(big.Float).SetPrec(2000).Mul(want, bigF(1+1e-40))
				if !checkUp(v, lo, 8*errfloat.Unit) {
					t.Errorf("SGM(%v, %v, %v) = %v, want alpha q^2/(2 sigma^2) = %s rounded up", q, s, a, v, want.Text('g', 17))
				}
			}
		}
		// curves agree with single calls
		for _, s := range append(append([]float64{}, tiny...), huge...) {
			o := append([]float64{}, orders...)
			o = append(o, math.Inf(1))
			out := make([]float64, len(o))
			if err := SGMCurve(q, s, 1, o, out); err != nil {
				t.Fatalf("SGMCurve(%v, %v): %v", q, s, err)
			}
			for i, a := range o {
				v, _ := SGM(q, s, a)
				if out[i] != v && !(math.IsNaN(v) && math.IsNaN(out[i])) {
					// the curve may take another (bounded) path only for
					// orders of the general method
					if math.IsNaN(out[i]) || math.IsInf(out[i], 1) != math.IsInf(v, 1) {
						t.Errorf("SGMCurve(%v, %v)[alpha=%v] = %v, SGM = %v", q, s, a, out[i], v)
					}
				}
			}
		}
	}
}

// TestGaussianRDPExtreme: alpha/(2 sigma^2) without spurious overflow or
// underflow (Inf/Inf gave NaN at alpha = +Inf for sigma >= 9.5e153), through SGM at q = 1 and Gaussian.
func TestGaussianRDPExtreme(t *testing.T) {
	sigmas := []float64{5e-324, 1e-300, 1e-160, 1e-154, 1e-10, 1, 1e10, 1e153, 9.5e153, 1.5e154, 1e160, 1e300, math.MaxFloat64}
	for _, s := range sigmas {
		for _, a := range []float64{0, 1e-300, 0.5, 1 + 0x1p-52, 2, 59.5, 1e6, 1e300, math.MaxFloat64, math.Inf(1)} {
			got := sgm.Gaussian(s, a)
			var ok bool
			switch {
			case math.IsInf(a, 1):
				ok = math.IsInf(got, 1)
			case a == 0:
				ok = got == 0
			default:
				ok = checkUp(got, gaussExact(s, a), 8*errfloat.Unit)
			}
			if !ok {
				t.Errorf("sgm.Gaussian(%v, %v) = %v, want %s rounded up", s, a, got, gaussExact(s, a).Text('g', 17))
			}
			if a > 1 && a <= MaxIntegerOrder {
				v, err := SGM(1, s, a)
				if err != nil || v != got {
					t.Errorf("SGM(1, %v, %v) = %v, %v; want %v", s, a, v, err, got)
				}
			}
		}
		if v, err := Gaussian(s, math.Inf(1)); err != nil || !math.IsInf(v, 1) {
			t.Errorf("Gaussian(%v, +Inf) = %v, %v; want +Inf", s, v, err)
		}
	}
}

// TestSGMCurveHugeWindows: windows whose node indices overflow an int (tiny
// sigma and q) are refused instead of indexing the grid; SGMCurve used to
// panic here (slice bounds out of range) and SGM to loop for hours. The
// default orders get Method 16's Gaussian bound (within 2^-40 there);
// 1 + 1e-12, where that bound is 5% above the exact value, gets
// ErrTooLarge (Method 17), and the curve with it too.
func TestSGMCurveHugeWindows(t *testing.T) {
	for _, c := range [][2]float64{{4.95048660118848e-306, 6.011873564380957e-09}, {2.5927766565058012e-210, 7.345761016389788e-10}} {
		o := append(DefaultOrders(), 5.064172259648724)
		out := make([]float64, len(o))
		if err := SGMCurve(c[0], c[1], 1, o, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range o {
			v, err := SGM(c[0], c[1], a)
			if err != nil || math.IsNaN(v) || v <= 0 || math.IsNaN(out[i]) || out[i] <= 0 {
				t.Errorf("SGM(%v, %v, %v) = %v, %v; curve %v", c[0], c[1], a, v, err, out[i])
			}
		}
		near := 1 + 1e-12
		if v, err := SGM(c[0], c[1], near); !errors.Is(err, ErrTooLarge) {
			t.Errorf("SGM(%v, %v, %v) = %v, %v: want ErrTooLarge", c[0], c[1], near, v, err)
		}
		o = append(o, near)
		if err := SGMCurve(c[0], c[1], 1, o, make([]float64, len(o))); !errors.Is(err, ErrTooLarge) {
			t.Errorf("SGMCurve(%v, %v) with order %v: %v, want ErrTooLarge", c[0], c[1], near, err)
		}
	}
}

// Subnormal sampling rates (found by FuzzSGM). amd64's math.Log does not normalise subnormals
// (math.Log(1e-310) = -709.09, not -713.80), which put log q off by up to
// 35 and SGM(1e-310, 1/3, 161) at 2e-323 for 6.24; and at fractional
// orders, nodes where e^e overflowed but q e^e did not were taken as
// u = +Inf, leaving t = log q + e + log1p(w) to cancel and its error bound
// to blow up (6.1e7 for 3757 at q = 5e-324).
//
// Exact values: reference.Context{Prec: 128}.SGM printed to 26 digits
// (the reference takes 2-18 s each at these q); the integer ones agree
// with mpmath's binomial sum at 60 digits (log1p(sum_k C(n,k) (1-q)^(n-k)
// q^k expm1((k^2-k)/(2 s^2)))/(n-1), mp.dps = 60) to all 26.
var subnormalQCases = []struct {
	q, sigma, alpha float64
	exact           string
	caught          string
}{
	{1e-310, 1.0 / 3, 161, "6.2373625541699518031345047e+00", "amd64 Log of subnormal q: 2e-323 for 6.24"},
	{0x1p-1022, 1.0 / 3, 256, "4.4082555629702126047240116e+02", "smallest normal q, integer order"},
	{5e-324, 1.0 / 3, 1000.5, "3.7570651156004587760429933e+03", "q e^e finite where e^e overflows: bound 6.1e7"},
	{1e-320, 1.0 / 3, 1000.5, "3.7646855632702162146034755e+03", "q e^e finite where e^e overflows: 33799"},
	{1e-310, 0.1, 60.5, "2.2992019593428008912400729e+03", "subnormal q, fractional order, sigma 0.1"},
	{1e-310, 1, 60.5, "5.1978025310885800776923032e-619", "exact value below the float64 range"},
	{1e-310, 1, 161, "1.3832168719095229628239022e-618", "exact value below the float64 range, integer order"},
}

func TestSGMSubnormalQ(t *testing.T) {
	for _, c := range subnormalQCases {
		ref, _, err := big.ParseFloat(c.exact, 10, 128, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		checkSingleAndCurve(t, c.caught, c.q, c.sigma, c.alpha, ref, []float64{2, c.alpha, c.alpha + 0.5})
	}
}

// SGM at the points where the float64 bd0 failed the 1e-12 promise
// (vectors/sgm_rdp.json tcIds 1477 and 1501). Exact values: mpmath's
// binomial sum at 40 digits (log1p(sum_k C(n,k) (1-q)^(n-k) q^k
// expm1((k^2-k)/(2 s^2)))/(n-1)), which the vectors' 50 digits from the
// reference agree with.
func TestSGMFarBinomialTerms(t *testing.T) {
	cases := []struct {
		q, sigma, alpha float64
		exact           string
	}{
		{0.1, 1000, 10000, "5.00450683547958692325126185431e-05"},  // was 1.63e-12 above
		{0.5, 1000, 1024, "1.28032760376740274901879685294e-04"},   // was 1.59e-12 above
		{1e-150, 0.5, 3, "8.03972250497163596294240569255e-299"},   // was 1.22e-12 above
		{0.01, 1000, 10000, "5.00049746656483025169075234404e-07"}, // was 4.8e-13 above
		{0.3, 300, 4096, "2.0677996694808579914229152787e-03"},
	}
	for _, c := range cases {
		want, _, err := big.ParseFloat(c.exact, 10, 128, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		v, err := SGM(c.q, c.sigma, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		e := relErr(v, want)
		t.Logf("SGM(%v, %v, %v) = %v, relative error %.3g", c.q, c.sigma, c.alpha, v, e)
		if e < 0 || e > 5e-13 {
			t.Errorf("SGM(%v, %v, %v) = %v, exact %s: relative error %.3g", c.q, c.sigma, c.alpha, v, c.exact, e)
		}
	}
}

// TestSGMSmallSigma: below the promised sigma range, down to 0.005, SGM
// and SGMCurve are within 5e-12 of the reference (at 64 bits) and never
// below it, at orders near 1 and above; below 0.005 an order the
// quadrature cannot sum is refused below 2 (ErrTooLarge) and bounded by
// the chord of Method 17 from 2 on. The regression rows are the inputs of
// the defects they caught; the sweep the region around them (in -short,
// the rows and every fourth point).
func TestSGMSmallSigma(t *testing.T) {
	t.Parallel()
	type row struct {
		caught          string
		q, sigma, alpha float64
	}
	rows := []row{
		// 584917 (SGMCurve(0.01, 0.0375, 1, [1.0012])) against the
		// reference's 4.349: expm1(1/sigma^2) overflowed, the first level
		// of the windows was +Inf, and the order fell back on
		// SGM(2)/(alpha-1); rdpcheck epsilon printed 7.0e6 for 53079.7
		{"level +Inf where expm1(1/sigma^2) overflows: 1.3e5 times the exact value", 0.01, 0.0375, 1.0012},
		{"the Gaussian at 2 needed 65,755 nodes: SGM(2)/(alpha-1)", 0.01, 0.012, 1.0012},
		{"a first level 16,500 nats low needed 78,518 nodes", 0.01, 0.012, 10.5},
	}
	orders := []float64{1 + 1e-12, 1 + 1e-9, 1 + 1e-6, 1.0012, 1.1, 1.5, 1.9, 2.5, 3.3, 10.5, 100.5, 255.5}
	n := 0
	for _, q := range []float64{1e-12, 1e-6, 0.01, 0.5, 0.999} {
		for _, s := range []float64{0.09, 0.05, 0.0375, 0.02, 0.012, 0.008, 0.005} {
			for _, a := range orders {
				if n++; !testing.Short() || n%4 == 0 {
					rows = append(rows, row{"sigma in [0.005, 0.1)", q, s, a})
				}
			}
		}
	}
	sweepTableTol(t, 5e-12, len(rows), func(i int) (string, string) {
		r := rows[i]
		return r.caught, fmt.Sprintf("q=%g sigma=%g alpha=%.17g", r.q, r.sigma, r.alpha)
	}, func(i int) (float64, float64, error) {
		r := rows[i]
		got, err := SGM(r.q, r.sigma, r.alpha)
		if err != nil {
			return 0, 0, err
		}
		curve := []float64{r.alpha, 2, r.alpha + 1}
		if err := SGMCurve(r.q, r.sigma, 1, curve, curve); err != nil {
			return 0, 0, err
		}
		want, err := refCtx.SGM(r.q, r.sigma, r.alpha)
		if err != nil {
			return 0, 0, fmt.Errorf("reference: %w", err)
		}
		w, _ := want.Float64()
		// the curve sums on a grid shared with its other orders: its
		// last bits may differ from SGM's, its guarantee not
		if c := curve[0]; !(c >= w && (c-w)/w <= 5e-12) {
			return 0, 0, fmt.Errorf("SGMCurve gives %.17g (SGM %.17g) for %.17g", c, got, w)
		}
		return got, w, nil
	})

	// Below 0.005: refused below 2, where the chord would be SGM(2) (200
	// times the exact 1250.02 at the first row, reference at 64 bits).
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{0.01, 0.002, 1 + 1e-9},
		{0.01, 0.004, 1.001},
		{0.5, 1e-4, 1.5},
	} {
		v, err := SGM(c.q, c.sigma, c.alpha)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("SGM(%v, %v, %v) = %v, %v: want ErrTooLarge", c.q, c.sigma, c.alpha, v, err)
		}
		out := []float64{2, c.alpha}
		if err := SGMCurve(c.q, c.sigma, 1, out, out); !errors.Is(err, ErrTooLarge) {
			t.Errorf("SGMCurve(%v, %v, [2, %v]) = %v: want ErrTooLarge", c.q, c.sigma, c.alpha, err)
		}
	}
	// From 2 on, the chord: at or above the reference (64 bits), and here
	// within 7% (the chord of a(a-1)/(2 sigma^2) is at most 7.2% above it).
	for _, c := range []struct{ q, sigma, alpha float64 }{
		{0.01, 5e-4, 2.5},
		{0.01, 5e-4, 10.5},
		{0.01, 0.002, 1000.5},
	} {
		v, err := SGM(c.q, c.sigma, c.alpha)
		want, rerr := refCtx.SGM(c.q, c.sigma, c.alpha)
		if err != nil || rerr != nil {
			t.Errorf("SGM(%v, %v, %v): %v, reference: %v", c.q, c.sigma, c.alpha, err, rerr)
			continue
		}
		w, _ := want.Float64()
		if !(v >= w && v <= 1.07*w) {
			t.Errorf("SGM(%v, %v, %v) = %.17g, reference %.17g: want the chord, in [1, 1.07] times it", c.q, c.sigma, c.alpha, v, w)
		}
	}
}
