package oracles

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"
)

// Forward SGM divergence at integer orders against the exact binomial sum
// (exactSGMLogI, provenance: binomial theorem + Gaussian mgf), over the
// whole q x sigma table with two orders each (every integer order meets
// every q and every sigma).
func TestSGMForwardIntegerVsBinomialSum(t *testing.T) {
	t.Parallel()
	worst := math.Inf(1)
	var slow time.Duration
	var total time.Duration
	n := 0
	for i, q := range tableQ {
		for j, s := range tableSigma {
			for _, off := range []int{0, 3} {
				if !inShortCover(i, j, len(tableSigma)) || testing.Short() && off != 0 {
					continue
				}
				a := tableIntA[(i+j+off)%len(tableIntA)]
				t0 := time.Now()
				logI, err := SGMMoment(q, s, float64(a), testPrec)
				el := time.Since(t0)
				total += el
				n++
				slow = max(slow, el)
				name := fmt.Sprintf("SGMMoment(q=%g, sigma=%g, alpha=%d)", q, s, a)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				want := exactSGMLogI(q, s, a, testPrec+64)
				// compare the divergence log I/(a-1) (same relative error)
				d := expectDigits(t, name, logI, want, minDigits)
				worst = math.Min(worst, d)
			}
		}
	}
	t.Logf("%d moments: worst agreement %.1f digits; total %v, slowest %v", n, worst, total, slow)
}

// Both directions at q = 1 are alpha/(2 sigma^2) (equal-variance Gaussian
// closed form) and at q = 0 exactly 0, for every fractional and integer
// order and every sigma (q = 1: orders rotated over sigma, three per sigma;
// -short skips that rotation, since the every-order loop below already
// meets every order and every sigma at q = 1).
func TestSGMQuadQ1AndQ0ClosedForms(t *testing.T) {
	t.Parallel()
	worst := math.Inf(1)
	var slow time.Duration
	orders := append([]float64{}, tableFracA...)
	for _, a := range tableIntA {
		orders = append(orders, float64(a))
	}
	for j, s := range tableSigma {
		for k := 0; k < 3 && !testing.Short(); k++ {
			a := orders[(5*j+k*5+k)%len(orders)]
			t0 := time.Now()
			f, b, err := SGMQuad(1, s, a, testPrec)
			slow = max(slow, time.Since(t0))
			name := fmt.Sprintf("SGMQuad(q=1, sigma=%g, alpha=%g)", s, a)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			want := bigQ1(a, s, testPrec+64)
			worst = math.Min(worst, expectDigits(t, name+" forward", f, want, minDigits))
			worst = math.Min(worst, expectDigits(t, name+" backward", b, want, minDigits))
		}
	}
	// every order at q = 1 (sigma rotated), and q = 0 for all
	for i, a := range orders {
		s := tableSigma[i%len(tableSigma)]
		t0 := time.Now()
		f, b, err := SGMQuad(1, s, a, testPrec)
		slow = max(slow, time.Since(t0))
		if err != nil {
			t.Errorf("SGMQuad(1, %g, %g): %v", s, a, err)
			continue
		}
		want := bigQ1(a, s, testPrec+64)
		worst = math.Min(worst, expectDigits(t, fmt.Sprintf("q=1 sigma=%g alpha=%g fwd", s, a), f, want, minDigits))
		worst = math.Min(worst, expectDigits(t, fmt.Sprintf("q=1 sigma=%g alpha=%g bwd", s, a), b, want, minDigits))
		for _, s0 := range tableSigma {
			f, b, err := SGMQuad(0, s0, a, testPrec)
			if err != nil || f.Sign() != 0 || b.Sign() != 0 {
				t.Errorf("SGMQuad(0, %g, %g) = %v, %v, %v; want exact 0", s0, a, f, b, err)
			}
		}
	}
	t.Logf("worst agreement %.1f digits; slowest SGMQuad %v", worst, slow)
}

// Fractional orders (and the backward direction) at 0 < q < 1 have no
// closed form; they are checked (1) for convergence: prec 256 against
// prec 384 (a different target, working precision and node set) to 45
// digits, and (2) against the float64 Gauss-Legendre oracle to 1e-9.
func TestSGMQuadFractionalConvergence(t *testing.T) {
	t.Parallel()
	qs := []float64{1e-12, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99, 1 - 1e-9}
	worst := math.Inf(1)
	var slow time.Duration
	n := 0
	for i, q := range qs {
		for j, s := range tableSigma {
			if !inShortCover(i, j, len(tableSigma)) {
				continue
			}
			a := tableFracA[(i+2*j)%len(tableFracA)]
			t0 := time.Now()
			f, b, err := SGMQuad(q, s, a, testPrec)
			slow = max(slow, time.Since(t0))
			n++
			name := fmt.Sprintf("SGMQuad(q=%g, sigma=%g, alpha=%g)", q, s, a)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if (i+j)%4 == 0 && (!testing.Short() || i == 0) { // -short: one 384-bit point
				f2, b2, err := SGMQuad(q, s, a, 384)
				if err != nil {
					t.Errorf("%s at 384: %v", name, err)
					continue
				}
				worst = math.Min(worst, expectDigits(t, name+" fwd 256 vs 384", f, f2, minDigits))
				worst = math.Min(worst, expectDigits(t, name+" bwd 256 vs 384", b, b2, minDigits))
				continue
			}
			ff, err := SGMQuadFloat64(q, s, a)
			if err != nil {
				t.Errorf("%s float64: %v", name, err)
				continue
			}
			lb, _, err := SGMMomentFloat64(q, s, 1-a)
			if err != nil {
				t.Errorf("%s float64 backward: %v", name, err)
				continue
			}
			checkRel(t, name+" fwd vs float64", f64(f), ff, 1e-9)
			checkRel(t, name+" bwd vs float64", f64(b), lb/(a-1), 1e-9)
		}
	}
	t.Logf("%d SGMQuad calls; worst 256-vs-384 agreement %.1f digits; slowest %v", n, worst, slow)
}

func checkRel(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Abs(want)) {
		t.Errorf("%s: got %.17g, want %.17g (rel %.2g > %g)", what, got, want, math.Abs(got-want)/math.Abs(want), tol)
	}
}

// SGMQuad's forward value is SGMMoment(alpha)/(alpha-1), and at q = 1 the
// SGM is a pair of equal-variance Gaussians: GaussianClosed(1, s, 0, s).
func TestSGMConsistency(t *testing.T) {
	t.Parallel()
	f, b, err := SGMQuad(0.01, 1, 8, testPrec)
	if err != nil {
		t.Fatal(err)
	}
	lf, _ := SGMMoment(0.01, 1, 8, testPrec)
	lb, _ := SGMMoment(0.01, 1, -7, testPrec)
	expectDigits(t, "forward = logI(8)/7", f, newF(testPrec).Quo(lf, fint(7, testPrec)), 70)
	expectDigits(t, "backward = logI(-7)/7", b, newF(testPrec).Quo(lb, fint(7, testPrec)), 70)
	// D(mu0||mu) >= 0 and D(mu||mu0) >= 0
	if f.Sign() <= 0 || b.Sign() <= 0 {
		t.Errorf("divergences must be positive: %v %v", f, b)
	}
	// log I(beta) at q = 1 for orders outside the divergence's range too
	// (beta in (0,1) and beta < 0): (beta^2 - beta)/(2 s^2), Gaussian mgf.
	for _, beta := range []float64{0.3, -0.5, -3.7, 7.25} {
		l, err := SGMMoment(1, 0.7, beta, testPrec)
		if err != nil {
			t.Fatal(err)
		}
		expectDigits(t, fmt.Sprintf("log I(%g) at q=1", beta), l, bigQ1LogI(beta, 0.7, testPrec+64), minDigits)
	}
	g, _ := GaussianClosed(1, 2, 0, 2, 10.7, testPrec)
	s, _, err := SGMQuad(1, 2, 10.7, testPrec)
	if err != nil {
		t.Fatal(err)
	}
	expectDigits(t, "SGM q=1 vs GaussianClosed", s, g, minDigits)
}

// Tiny q: log I(beta) ~ q^2 beta(beta-1)/2 (e^{1/sigma^2} - 1); the J-form
// must keep full relative accuracy far below q^2.
func TestSGMTinyQ(t *testing.T) {
	t.Parallel()
	for _, q := range []float64{1e-12, 1e-30, 1e-100, 1e-200, 1e-300} {
		got, err := SGMMoment(q, 1, 3, testPrec)
		if err != nil {
			t.Fatal(err)
		}
		expectDigits(t, fmt.Sprintf("q=%g alpha=3", q), got, exactSGMLogI(q, 1, 3, testPrec+64), minDigits)
	}
}

// Orders in (0,1) give J < 0 (B <= 0); check against the binomial
// expansion's sign and the convexity bound: log I(beta) <= 0 for beta in (0,1).
func TestSGMMomentBetaInUnitInterval(t *testing.T) {
	l, err := SGMMoment(0.1, 1, 0.5, testPrec)
	if err != nil {
		t.Fatal(err)
	}
	if l.Sign() >= 0 {
		t.Errorf("log I(0.5) = %v, want < 0 (Jensen)", l)
	}
	lf, _, err := SGMMomentFloat64(0.1, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	checkRel(t, "log I(0.5) vs float64", f64(l), lf, 1e-9)
}

func TestSGMBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	type c struct{ q, s, a float64 }
	bad := []c{{nan, 1, 2}, {-0.1, 1, 2}, {1.1, 1, 2}, {inf, 1, 2}, {0.1, 0, 2}, {0.1, -1, 2}, {0.1, nan, 2}, {0.1, inf, 2},
		{0.1, 1, nan}, {0.1, 1, inf}, {0.1, 1, -inf}, {0.1, 1, 1}, {0.1, 1, 0.5}}
	for _, x := range bad {
		if _, _, err := SGMQuad(x.q, x.s, x.a, testPrec); !isInputErr(err) {
			t.Errorf("SGMQuad(%v): err = %v, want *InputError", x, err)
		}
		if _, err := SGMQuadFloat64(x.q, x.s, x.a); !isInputErr(err) {
			t.Errorf("SGMQuadFloat64(%v): err = %v, want *InputError", x, err)
		}
		if _, _, _, err := SGMMonteCarlo(x.q, x.s, x.a, 100, 1); !isInputErr(err) {
			t.Errorf("SGMMonteCarlo(%v): err = %v, want *InputError", x, err)
		}
	}
	for _, beta := range []float64{nan, inf, -inf} {
		if _, err := SGMMoment(0.1, 1, beta, testPrec); !isInputErr(err) {
			t.Errorf("SGMMoment(beta=%v): err = %v", beta, err)
		}
	}
	for _, p := range []uint{0, 10, 52, maxPrec + 1} {
		if _, err := SGMMoment(0.1, 1, 2, p); !isInputErr(err) {
			t.Errorf("SGMMoment(prec=%d): err = %v", p, err)
		}
	}
	// valid but out of range: a clear ErrUnsupported, no panic
	if _, err := SGMMoment(0.5, 1e-3, 1e6, testPrec); !errors.Is(err, ErrUnsupported) {
		t.Errorf("huge exponent: err = %v, want ErrUnsupported", err)
	}
	for _, beta := range []float64{1 + 1e-12, 1e-12, -1e-12} {
		if _, err := SGMMoment(0.5, 1, beta, testPrec); !errors.Is(err, ErrUnsupported) {
			t.Errorf("beta = %v: err = %v, want ErrUnsupported", beta, err)
		}
	}
	if _, _, _, err := SGMMonteCarlo(0.5, 1, 2, 1, 1); !isInputErr(err) {
		t.Errorf("n = 1: err = %v", err)
	}
}

func isInputErr(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

var _ = big.NewFloat

// SGMQuadFloat64 at subnormal sampling rates, where amd64's math.Log is
// wrong (golang/go#56600): without log64 it gave 10.98 at q = 1e-310 and
// 11.02 at 1e-309. Expected: mpmath 1.3.0 at 60 digits, the exact binomial
// sum with q and sigma the float64 inputs, printed to 30 digits:
//
//	python3 -c "from mpmath import mp, mpf, binomial, expm1, log1p, nstr; mp.dps = 60; q, s, n = mpf(1e-310), mpf(1.0/3), 161; print(nstr(log1p(sum(binomial(n,k)*(1-q)**(n-k)*q**k*expm1(mpf(k*k-k)/(2*s*s)) for k in range(n+1)))/(n-1), 30))"
//
// (and q = 1e-309, 5e-324).
// At 5e-324 the truth, 1.59e-641, is below float64's range: the oracle
// must give 0. reference.Context{Prec: 128}.SGM gives the same 30 digits.
// SGMQuad (big.Float, its plan from the same float64 model) took 143 s
// and failed at q = 1e-310; its forward value must match to 25 digits.
func TestSGMQuadSubnormalQ(t *testing.T) {
	for _, c := range []struct {
		q    float64
		want string // "" for 0
	}{
		{1e-310, "6.23736255416995180313450467607"},
		{1e-309, "8.55433880399521524421316985489"},
		{5e-324, ""},
	} {
		got, err := SGMQuadFloat64(c.q, 1.0/3, 161)
		what := fmt.Sprintf("SGMQuadFloat64(%v, 1/3, 161)", c.q)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if c.want == "" {
			if got != 0 {
				t.Errorf("%s = %v, want 0 (the truth is 1.59e-641)", what, got)
			}
			continue
		}
		want, _, _ := big.ParseFloat(c.want, 10, 128, big.ToNearestEven)
		w, _ := want.Float64()
		checkRel(t, what, got, w, 1e-10)
		f, _, err := SGMQuad(c.q, 1.0/3, 161, 128)
		if err != nil {
			t.Errorf("SGMQuad(%v, 1/3, 161, 128): %v", c.q, err)
			continue
		}
		expectDigits(t, fmt.Sprintf("SGMQuad(%v, 1/3, 161, 128) forward", c.q), f, want, 25)
	}
}

// At q = 1 and sigma = 2^-16, 1/(2 sigma^2) = 2^31 puts e^u outside
// big.Float's exponent range over most of the line, though log I(beta) =
// (beta^2 - beta)/(2 sigma^2) is moderate for |beta| near 1e-9. Before
// the log-space branches, beta < 0 here was refused as overflowing and
// beta = 1e-9 panicked (0 * Inf in big.Float); with them but without the
// cancellation check, beta = 0.125 returned -42.57 for -2.3e8.
func TestSGMMomentExponentRange(t *testing.T) {
	t.Parallel()
	const sigma = 1.0 / 65536
	for _, beta := range []float64{-3e-9, -1e-9, 1e-9, 3e-9} {
		l, err := SGMMoment(1, sigma, beta, testPrec)
		if err != nil {
			t.Errorf("beta=%g: %v", beta, err)
			continue
		}
		expectDigits(t, fmt.Sprintf("log I(%g) at q=1, sigma=2^-16", beta), l, bigQ1LogI(beta, sigma, testPrec+64), minDigits)
	}
	// log I(0.125) = -0.109375 * 2^31: I = 1+J is e^-2.3e8, and J's
	// digits cannot give it. The oracle must say so, not return a number.
	if l, err := SGMMoment(1, sigma, 0.125, testPrec); !errors.Is(err, ErrUnsupported) {
		t.Errorf("SGMMoment(1, 2^-16, 0.125) = %v, %v; want ErrUnsupported", l, err)
	}
}

// valueHugeU drops the terms 1-q and 1-beta q, which are below e^-u
// relative. Where e^u and e^lphi are both inside big.Float's range (u up
// to 1e8 here) the ordinary path keeps every term; the two must agree to
// the working precision, e^-1000 being far below 2^-200.
func TestSGMValueHugeUMatchesOrdinaryPath(t *testing.T) {
	t.Parallel()
	const sigma = 1.0 / 65536
	const p = 200
	for _, c := range []struct{ q, beta float64 }{{1, 0.125}, {0.3, -0.2}, {1e-3, 0.3}} {
		s := newSGMBig(newSGMF64(c.q, sigma, c.beta), &sgmPlan{}, p, TargetBits(p), 16)
		for _, uWant := range []float64{1000, 1e6, 1e8} {
			z := fl(0.5+uWant*sigma*sigma, p) // u = (2z-1)/(2 sigma^2)
			u := newF(p+2).Add(z, z)
			u.Sub(u, fint(1, 2))
			u.Mul(u, s.inv2s)
			lphi := newF(p).Mul(z, z)
			lphi.Mul(lphi, s.inv2s)
			lphi.Neg(lphi)
			lphi.Sub(lphi, s.c0S)
			// Values near e^-5e8 take too long to print in decimal:
			// compare digits, report logs.
			got, want := s.valueHugeU(u, lphi, p), s.value(z, p)
			if d := digits(got, want); !(d >= 55) || got.Sign() != want.Sign() {
				t.Errorf("q=%g beta=%g u=%g: %.1f digits < 55 (log|got| %.17g, log|want| %.17g)", c.q, c.beta, uWant, d, logOf(got), logOf(want))
			}
		}
	}
}
