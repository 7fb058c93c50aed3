package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// The reference against oracles.DiscreteGaussianSum (the definition summed
// term by term, no theta identity), at 256 bits: at least 40 digits, over
// both of the reference's evaluation regions (direct sums for sigma <= 1,
// Poisson summation above) and orders below 1, near 1 and large.
func TestDiscreteGaussianOracle(t *testing.T) {
	sigmas := []float64{0.1, 0.35, 0.7, 1, 1.3, 3, 6}
	sens := []float64{1, -3}
	alphas := []float64{0.5, 1 + 1e-9, 1.1, 2.25, 7.3, 30.7}
	if testing.Short() {
		sigmas = []float64{0.1, 0.7, 1.3}
		sens = []float64{1}
		alphas = []float64{0.5, 1 + 1e-9, 7.3}
	}
	for _, s := range sigmas {
		for _, d := range sens {
			for _, a := range alphas {
				name := fmt.Sprintf("sigma=%g,sens=%g,alpha=%g", s, d, a)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					checkDGOracle(t, name, s, d, a)
				})
			}
		}
	}
}

func checkDGOracle(t *testing.T, name string, s, d, a float64) {
	got, err := reference.DiscreteGaussian(s, d, a)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	w, err := oracles.DiscreteGaussianSum(s, d, a, 256)
	if err != nil {
		t.Errorf("%s: oracle: %v", name, err)
		return
	}
	if dg := digits(got, w); dg < 40 {
		t.Errorf("%s = %s, oracle %s: %.1f digits", name, got.Text('g', 45), w.Text('g', 45), dg)
	}
}

// The zCDP line alpha sens^2/(2 sigma^2) is an upper bound, attained
// exactly when (1-alpha) sens is an integer (Canonne, Kamath, Steinke 2020,
// Proposition 5): check both halves at points chosen for each.
func TestDiscreteGaussianZCDPLine(t *testing.T) {
	line := func(s, d, a float64) *big.Float {
		x := new(big.Float).SetPrec(1024).SetFloat64(a * d * d) // exact: small integers times a dyadic alpha
		S := new(big.Float).SetPrec(1024).SetFloat64(s)
		S.Mul(S, S) // exact at 1024 bits
		return x.Quo(x, S.SetMantExp(S, 1))
	}
	for _, c := range []struct{ s, d, a float64 }{
		{0.5, 1, 2}, {0.5, 1, 3}, {0.2, 2, 1.5}, {1.7, 4, 1.25}, {0.3, 3, 0}, {0.3, 3, 1}, {5, 2, 0.5},
	} {
		got, err := reference.DiscreteGaussian(c.s, c.d, c.a)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(line(c.s, c.d, c.a).SetPrec(256)) != 0 {
			t.Errorf("(sigma, sens, alpha) = %v: %s, want the zCDP line exactly", c, got.Text('g', 30))
		}
	}
	for _, c := range []struct{ s, d, a float64 }{
		{0.5, 1, 1.5}, {0.2, 1, 2.75}, {1.1, 1, 1.001}, {3, 1, 1.5}, {0.3, 1, 0.5},
	} {
		got, err := reference.DiscreteGaussian(c.s, c.d, c.a)
		if err != nil {
			t.Fatal(err)
		}
		cmp := got.Cmp(line(c.s, c.d, c.a))
		if (c.a > 1 && cmp >= 0) || (c.a < 1 && cmp <= 0) {
			t.Errorf("(sigma, sens, alpha) = %v: %s not strictly on the right side of the zCDP line %s",
				c, got.Text('g', 30), line(c.s, c.d, c.a).Text('g', 30))
		}
	}
}

// Values from mpmath 1.3.0 (mp.dps = 50), the definition summed directly:
//
//	from mpmath import mp, mpf, exp, log, nsum, inf
//	mp.dps = 50
//	def D(s, d, a):
//	    s, a = mpf(s), mpf(a)
//	    g = lambda x: exp(-x**2/(2*s**2))
//	    Z = nsum(g, [-inf, inf])
//	    M = nsum(lambda x: g(x)**a * g(x-d)**(1-a), [-inf, inf])
//	    return log(M/Z)/(a-1)
//
// and the special cases by definition.
func TestDiscreteGaussianValues(t *testing.T) {
	for _, c := range []struct {
		s, d, a float64
		want    string
	}{
		{0.5, 1, 1.5, "2.9424609651060381863473167801354058172056158743838"},
		{2, 1, 2.5, "0.31249999999999999999999999999999986339993922038853"},
		{1, 0, 3.5, "0"},
		{1, 1, inf, "+Inf"},
	} {
		got, err := reference.DiscreteGaussian(c.s, c.d, c.a)
		checkDigits(t, fmt.Sprintf("DiscreteGaussian(%g, %g, %g)", c.s, c.d, c.a), got, err, c.want, 1e-45)
	}
}

func TestDiscreteGaussianErrors(t *testing.T) {
	for _, c := range []struct{ s, d, a float64 }{
		{0, 1, 2}, {-1, 1, 2}, {math.NaN(), 1, 2}, {inf, 1, 2},
		{1, 0.5, 2}, {1, math.NaN(), 2}, {1, inf, 2},
		{1, 1, -0.5}, {1, 1, math.NaN()},
	} {
		_, err := reference.DiscreteGaussian(c.s, c.d, c.a)
		var ie *reference.InputError
		if !errors.As(err, &ie) {
			t.Errorf("DiscreteGaussian%v: error %v, want an InputError", c, err)
		}
	}
}
