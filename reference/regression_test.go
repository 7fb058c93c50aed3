package reference_test

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/rdpcheck/rdpcheck/reference"
)

// regressions are inputs on which the reference once gave a wrong value,
// each named for what it caught. Expected values are mpmath 1.3.0 with each
// float64 input converted exactly (mpf(float)), at the digits noted.
var regressions = []struct {
	name string
	call func() (*big.Float, error)
	want string
	tol  float64
}{
	// Quantities that cancel to exactly 0 at both Ziv precisions were
	// accepted as 0 (found by the laws' agreement and gaussian-line
	// laws). mpmath at 120 digits: mpf(1e-50)**2/2; the Laplace closed
	// form; log(p2^a q2^(1-a))/(a-1). The tolerance 1e-15 covers mpmath's
	// decimal 1e-90 against the float64 one.
	{"GaussianKLOfMeans1e-50ApartWasZero",
		func() (*big.Float, error) { return reference.GaussianDivergence(1e-50, 1, 0, 1, 1) },
		"5.0000000000000000762e-101", 1e-15},
	{"LaplaceAtScale1e20WasZero",
		func() (*big.Float, error) { return reference.Context{Prec: 64}.Laplace(1e20, 3) },
		"1.5e-40", 1e-15},
	{"DivergenceAtOrder1e-90WasZero",
		func() (*big.Float, error) {
			return reference.Divergence([]float64{0, 1.0 / 256, 255.0 / 256}, []float64{0, 0, 1}, 1e-90)
		},
		"3.9138993211363290923e-93", 1e-15},
	// Orders as large as 1e300 underflowed every term and then panicked
	// in log(0) (found by fast's fuzzing). D_alpha is D_inf there to far
	// more digits than 256 bits hold: log 3 = log(0.75/0.25), and
	// log(p/(1-p)) with p the float64 nearest 0.9.
	{"DivergenceAtOrder1e300PanickedInLogZero",
		func() (*big.Float, error) {
			return reference.Divergence([]float64{0.75, 0.25}, []float64{0.25, 0.75}, 1e300)
		},
		"1.0986122886681096913952452369225257046475", 1e-40},
	{"RandomizedResponseAtOrder1e300PanickedInLogZero",
		func() (*big.Float, error) { return reference.RandomizedResponse(0.9, 1e300) },
		"2.1972245773362196295067181683243069621053", 1e-40},
	// For q below ~1e-162 the float64 estimate of I-1 ~ q^2 underflowed,
	// the backward check ran without the extra bits it needs and its
	// rounding noise (~q) came out as the RDP (found by the vectors'
	// q-expansion check). At alpha = 2, I-1 = q^2 (e-1) exactly at
	// sigma = 1, so SGM = log1p(q^2 (e-1)) = q^2 (e-1) to 1e-400 relative:
	// mpf(1e-200)**2*(e-1). The noise does not depend on the precision:
	// 64 bits catch it in 3 s, where the default 256 take 7.5.
	{"SGMAtQ1e-200WasTheRoundingNoiseQ",
		func() (*big.Float, error) { return reference.Context{Prec: 64}.SGM(1e-200, 1, 2) },
		"1.7182818284590451738467e-400", 0x1p-62},
	// At a tiny order 1-alpha rounded to 1 at both Ziv precisions and the
	// alpha-dependent part cancelled exactly (found by the laws'
	// agreement law). The closed form at 300 digits.
	{"GaussianDivergenceAtOrder2.6e-54CancelledAtBothZivPrecisions",
		func() (*big.Float, error) {
			return reference.Context{Prec: 128}.GaussianDivergence(1, 2.718281828459045, 1.03125, 0.10000000000000002, 2.61012178719941e-54)
		},
		"7.317027100796817501778709e-54", 1e-24},
	// The float64 plans (term estimates, cut levels, the tiny-sigma
	// decision) took log q from amd64's math.Log, wrong for subnormals
	// (golang/go#56600; found by FuzzSGM through fast). mpmath's binomial
	// sum at 60 digits: log1p(sum_k C(n,k) (1-q)^(n-k) q^k
	// expm1((k^2-k)/(2 s^2)))/(n-1), n = 161, q = 1e-310, s = 1/3.
	{"SGMAtSubnormalQ1e-310TookAmd64sWrongLog",
		func() (*big.Float, error) { return reference.Context{Prec: 128}.SGM(1e-310, 1.0/3, 161) },
		"6.23736255416995180313450467606974982949113665538928938872488", 0x1p-127},
}

// slowRegressions take seconds (Gauss-Legendre rules at thousands of
// bits for a subnormal q): the full tier runs them, -short does not.
var slowRegressions = map[string]bool{"SGMAtSubnormalQ1e-310TookAmd64sWrongLog": true}

func TestRegressions(t *testing.T) {
	t.Parallel()
	for _, r := range regressions {
		if slowRegressions[r.name] && testing.Short() {
			continue
		}
		t.Run(r.name, func(t *testing.T) {
			t.Parallel() // two rows take seconds each
			v, err := r.call()
			checkDigits(t, r.name, v, err, r.want, r.tol)
		})
	}
}

// slowDeltas are conversions that once ran for minutes (to the precision
// cap) because the exact delta is tiny: at log delta = -1e7 (order 2,
// rdp 0, eps 1e7, classic: delta = e^-1e7) Delta ran for more than 10
// minutes while at -1e6 it took 20 us; below big.Float's range two zeros
// never agreed and the Ziv loop ran to its cap (found by FuzzConversion).
// Each must answer within 3 s, with a value or, where the exact delta is
// below big.Float's range (e^-1.2e13), ErrTooLarge.
var slowDeltas = []struct {
	name         string
	order, rdp   float64
	eps          float64
	tooLargeOK   bool
	tooLargeMust bool
}{
	{"DeltaAtLogDelta-1e7RanForMinutes", 2, 0, 1e7, true, false},
	{"DeltaBelowBigFloatsRangeRanToItsCap", 6.952794116818823e+10, 1.398043286095289e-76, 171, true, false},
	{"DeltaBelowBigFloatsRangeIsErrTooLarge", 6.9e10, 2.3e-77, 171, true, true},
}

func TestSlowDeltasAnswer(t *testing.T) {
	for _, c := range slowDeltas {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { // left running if it hangs: the test has failed anyway
				_, _, err := reference.Context{Prec: 64}.Delta([]float64{c.order}, []*big.Float{big.NewFloat(c.rdp)}, c.eps, reference.Classic)
				done <- err
			}()
			select {
			case err := <-done:
				tooLarge := errors.Is(err, reference.ErrTooLarge)
				if err != nil && !tooLarge || tooLarge && !c.tooLargeOK || c.tooLargeMust && !tooLarge {
					t.Errorf("Delta([%v], [%v], eps=%v, classic): error %v", c.order, c.rdp, c.eps, err)
				}
			case <-time.After(3 * time.Second):
				t.Errorf("Delta([%v], [%v], eps=%v, classic) has not returned after 3 s", c.order, c.rdp, c.eps)
			}
		})
	}
}

// SGMDirections at q = 1e-200 (the SGMAtQ1e-200 row): 0 < backward <= forward.
// Not parallel: run before TestRegressions, it leaves the Gauss-Legendre rule
// that the row also needs in the package's cache (2.5 s once, not twice).
func TestSGMDirectionsAtTinyQ(t *testing.T) {
	f, b, err := reference.Context{Prec: 64}.SGMDirections(1e-200, 1, 1.5)
	if err != nil || f.Sign() <= 0 || b.Sign() <= 0 || f.Cmp(b) < 0 {
		t.Errorf("SGMDirections(1e-200, 1, 1.5) = %v, %v, %v; want 0 < backward <= forward", f, b, err)
	}
}

// Exact zeros still come out exact, without running the Ziv loop dry.
func TestExactZeros(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name string
		call func() (interface{ Sign() int }, error)
	}{
		{"GaussianDivergence equal", func() (interface{ Sign() int }, error) { return reference.GaussianDivergence(1, 2, 1, 2, 3) }},
		{"D_0 with supp Q inside supp P", func() (interface{ Sign() int }, error) {
			return reference.Divergence([]float64{0.5, 0.5}, []float64{0.25, 0.75}, 0)
		}},
		{"D_inf with max p/q exactly 1", func() (interface{ Sign() int }, error) {
			return reference.Divergence([]float64{0.5, 0.5 - 0x1p-53}, []float64{0.5, 0.5}, inf)
		}},
	}
	for _, c := range cases {
		v, err := c.call()
		if err != nil || v.Sign() != 0 {
			t.Errorf("%s: %v, %v; want exactly 0", c.name, v, err)
		}
	}
}

// Regression (reported by gen-vectors' 320-bit check): nearly equal vectors
// were 3e-73 off at 256 bits, beyond the 2^-255 guarantee. The result at
// 256 bits must match the result at 1024 bits to 2^-255.
func TestNearlyEqualVectors(t *testing.T) {
	p := []float64{0.5 + math.Ldexp(1, -40), 0.5 - math.Ldexp(1, -40)}
	q := []float64{0.5, 0.5}
	for _, a := range []float64{0.25, 0.5, 1.5} {
		v, err := reference.Divergence(p, q, a)
		if err != nil {
			t.Fatal(err)
		}
		w, err := reference.Context{Prec: 1024}.Divergence(p, q, a)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(v, w); d > 0x1p-255 {
			t.Errorf("alpha %v: 256 and 1024 bits differ by %.3g", a, d)
		}
	}
}
