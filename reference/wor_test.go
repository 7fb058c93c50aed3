package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// WORGaussian against mpmath's evaluation of the same theorem by its own
// code (alternating sums at 12000 digits): values printed by
//
//	python3 reference/testdata/wor_mpmath.py
//
// (mpmath 1.3.0), 45 significant digits each. The reference must agree to
// 44 digits (the printed rounding).
func TestWORGaussianMpmath(t *testing.T) {
	cases := []struct {
		q, sigma, alpha float64
		want            string
	}{
		{0.01, 1.1, 2, "0.000456932269307417513957805308765041960289499181"},
		{0.01, 1.1, 3, "0.000697002352015703456115099088532537776625956776"},
		{0.01, 1.1, 2.5, "0.000616978991112941475396001161943372504513804245"},
		{0.1, 9.5, 71, "0.0147821882928953472289224578271810915950702669"},
	}
	for _, c := range cases {
		got, err := reference.WORGaussian(c.q, c.sigma, c.alpha)
		if err != nil {
			t.Fatalf("WORGaussian(%v, %v, %v): %v", c.q, c.sigma, c.alpha, err)
		}
		want, _, _ := big.ParseFloat(c.want, 10, 512, big.ToNearestEven)
		if d := relDiff(got, want); d > 1e-44 {
			t.Errorf("WORGaussian(%v, %v, %v) = %s, mpmath %s: relative difference %.3g", c.q, c.sigma, c.alpha, got.Text('g', 50), c.want, d)
		}
	}
}

// The forward differences and the whole bound against package oracles,
// which takes the differences by a recurrence of non-negative terms (no
// cancellation at all) where the reference takes the alternating sums with
// proven extra bits: they must agree to 70 digits at every sigma of the
// issue's range, including sigma = 100 where the sums cancel worst.
func TestWORGaussianOracle(t *testing.T) {
	sigmas := []float64{0.3, 1.1, 9.5, 100}
	qs := []float64{1e-6, 0.01, 0.3}
	orders := []int{2, 3, 7, 64, 65}
	if testing.Short() {
		orders = []int{3, 65}
	}
	for _, sigma := range sigmas {
		for _, q := range qs {
			for _, a := range orders {
				want, err := oracles.WORGaussianBound(q, sigma, a, 512)
				if err != nil {
					t.Fatal(err)
				}
				got, err := reference.WORGaussian(q, sigma, float64(a))
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(got, want); d > 1e-70 {
					t.Errorf("WORGaussian(%v, %v, %d) = %s, oracle %s: relative difference %.3g", q, sigma, a, got.Text('g', 30), want.Text('g', 30), d)
				}
			}
		}
	}
}

func TestWORGaussianSpecialCases(t *testing.T) {
	gauss := func(sigma, alpha float64) *big.Float {
		v, _ := reference.Gaussian(sigma, alpha)
		return v
	}
	at := func(q, sigma, alpha float64) *big.Float {
		v, err := reference.WORGaussian(q, sigma, alpha)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name            string
		q, sigma, alpha float64
		want            *big.Float
	}{
		{"q = 0", 0, 1.1, 7, new(big.Float)},
		{"q = 0, alpha = +Inf", 0, 1.1, inf, new(big.Float)},
		{"q = 1 is the Gaussian", 1, 1.1, 7, gauss(1.1, 7)},
		{"q = 1 fractional", 1, 0.3, 10.5, gauss(0.3, 10.5)},
		{"alpha = +Inf", 0.01, 1.1, inf, new(big.Float).SetInf(false)},
		{"alpha = 1 is the limit, the value at 2", 0.01, 1.1, 1, at(0.01, 1.1, 2)},
		{"constant on [1, 2]", 0.01, 1.1, 1.37, at(0.01, 1.1, 2)},
	}
	for _, c := range cases {
		got := at(c.q, c.sigma, c.alpha)
		if got.Cmp(c.want) != 0 {
			t.Errorf("%s: WORGaussian(%v, %v, %v) = %s, want %s", c.name, c.q, c.sigma, c.alpha, got.Text('g', 20), c.want.Text('g', 20))
		}
	}
	// Corollary 10: log A interpolated linearly, so (alpha-1) eps(alpha) at
	// alpha = 10.25 is 3/4 of 9 eps(10) plus 1/4 of 10 eps(11).
	lo, hi, mid := at(0.2, 4, 10), at(0.2, 4, 11), at(0.2, 4, 10.25)
	want := new(big.Float).SetPrec(300).Mul(lo, big.NewFloat(9*0.75))
	want.Add(want, new(big.Float).Mul(hi, big.NewFloat(10*0.25)))
	want.Quo(want, big.NewFloat(9.25))
	if d := relDiff(mid, want); d > 1e-75 {
		t.Errorf("WORGaussian(0.2, 4, 10.25) = %s, interpolation %s", mid.Text('g', 30), want.Text('g', 30))
	}
}

func TestWORInputErrors(t *testing.T) {
	nan := math.NaN()
	gauss := rdpcheck.BaseCurve{Eps: []float64{1, 1.5, 2}, Inf: inf}
	cases := []struct {
		name, arg string
		call      func() error
	}{
		{"q NaN", "q", func() error { _, err := reference.WORGaussian(nan, 1, 2); return err }},
		{"q > 1", "q", func() error { _, err := reference.WORGaussian(1.5, 1, 2); return err }},
		{"q < 0", "q", func() error { _, err := reference.WORGaussian(-0.1, 1, 2); return err }},
		{"sigma 0", "sigma", func() error { _, err := reference.WORGaussian(0.1, 0, 2); return err }},
		{"sigma Inf", "sigma", func() error { _, err := reference.WORGaussian(0.1, inf, 2); return err }},
		{"sigma NaN", "sigma", func() error { _, err := reference.WORGaussian(0.1, nan, 2); return err }},
		{"alpha < 1", "alpha", func() error { _, err := reference.WORGaussian(0.1, 1, 0.5); return err }},
		{"alpha NaN", "alpha", func() error { _, err := reference.WORGaussian(0.1, 1, nan); return err }},
		{"bound q NaN", "q", func() error { _, err := reference.WORBound(nan, 2, gauss); return err }},
		{"bound alpha < 1", "alpha", func() error { _, err := reference.WORBound(0.1, 0, gauss); return err }},
		{"missing orders", "base.Eps", func() error { _, err := reference.WORBound(0.1, 4.5, gauss); return err }},
		{"no orders", "base.Eps", func() error { _, err := reference.WORBound(0.1, 1.5, rdpcheck.BaseCurve{Inf: inf}); return err }},
		{"negative entry", "base.Eps[1]", func() error {
			_, err := reference.WORBound(0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, -1}, Inf: inf})
			return err
		}},
		{"NaN entry", "base.Eps[0]", func() error {
			_, err := reference.WORBound(0.1, 3, rdpcheck.BaseCurve{Eps: []float64{nan, 1}, Inf: inf})
			return err
		}},
		{"NaN Inf", "base.Inf", func() error {
			_, err := reference.WORBound(0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, 1}, Inf: nan})
			return err
		}},
		{"entry above Inf", "base.Eps[1]", func() error {
			_, err := reference.WORBound(0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, 3}, Inf: 2})
			return err
		}},
	}
	for _, c := range cases {
		err := c.call()
		var ie *reference.InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("%s: got %v, want an InputError on %s", c.name, err, c.arg)
		}
	}
	for _, f := range []func() error{
		func() error { _, err := reference.WORGaussian(0.1, 1, 1025); return err },
		func() error { _, err := reference.WORGaussian(0.1, 1, 1024.5); return err },
		func() error {
			_, err := reference.WORBound(0.1, 2000, rdpcheck.BaseCurve{Eps: make([]float64, 2000), Inf: inf})
			return err
		},
	} {
		if err := f(); !errors.Is(err, reference.ErrTooLarge) {
			t.Errorf("order above rdpcheck.MaxWOROrder: got %v, want ErrTooLarge", err)
		}
	}
}

// gaussBase is the Gaussian's RDP curve j/(2 sigma^2) at orders 2..n.
func gaussBase(sigma float64, n int) rdpcheck.BaseCurve {
	b := rdpcheck.BaseCurve{Inf: inf}
	for j := 2; j <= n; j++ {
		// Rounded up: a base below the Gaussian's curve would not be its bound.
		b.Eps = append(b.Eps, math.Nextafter(float64(j)/(2*sigma*sigma)*(1+1e-15), inf))
	}
	return b
}

// WORBound against its closed form at order 3, written out here in
// big.Float from the statement of Theorem 9 (not from the code): with
// e2 = eps(2), e3 = eps(3), P = e^(eps(Inf)) - 1,
// A = 1 + 3 q^2 min(4(e^e2 - 1), e^e2 min(2, P^2)) + q^3 e^(2 e3) min(2, P^3).
// Exact here: eps values chosen as logs of rationals so that every
// exponential is rational.
func TestWORBoundOrder3(t *testing.T) {
	const q = 0.25
	// e^e2 = 1.5, e^(2 e3) = 2, e^Inf = 1.75 (P = 0.75).
	base := rdpcheck.BaseCurve{Eps: []float64{math.Log(1.5), math.Log(2) / 2}, Inf: math.Log(1.75)}
	got, err := reference.WORBound(q, 3, base)
	if err != nil {
		t.Fatal(err)
	}
	// The float64 logs are not exactly log 1.5 etc., so compare to 1e-15.
	P := 0.75
	a2 := math.Min(4*0.5, 1.5*math.Min(2, P*P))
	a3 := 2 * math.Min(2, P*P*P)
	want := math.Log(1+3*q*q*a2+q*q*q*a3) / 2
	g, _ := got.Float64()
	if math.Abs(g-want) > 1e-15*want {
		t.Errorf("WORBound(0.25, 3, pure base) = %v, closed form %v", g, want)
	}
	// Unknown eps(Inf): the minima take 2.
	base.Inf = inf
	got, _ = reference.WORBound(q, 3, base)
	want = math.Log(1+3*q*q*math.Min(2, 1.5*2)+q*q*q*2*2) / 2
	g, _ = got.Float64()
	if math.Abs(g-want) > 1e-15*want {
		t.Errorf("WORBound(0.25, 3, base without Inf) = %v, closed form %v", g, want)
	}
}

func TestWORBoundSpecialCases(t *testing.T) {
	base := rdpcheck.BaseCurve{Inf: inf} // sigma = 2: eps(j) = j/8, exact
	for j := 2; j <= 12; j++ {
		base.Eps = append(base.Eps, float64(j)/8)
	}
	for _, c := range []struct {
		name     string
		q, alpha float64
		base     rdpcheck.BaseCurve
		want     *big.Float
	}{
		{"q = 0", 0, 5, base, new(big.Float)},
		{"alpha = +Inf", 0.1, inf, base, new(big.Float).SetInf(false)},
		{"q = 1 integer is the base", 1, 7, base, big.NewFloat(7.0 / 8)},
		{"q = 1 alpha = 1 is eps(2)", 1, 1, base, big.NewFloat(2.0 / 8)},
		{"an infinite entry", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, inf}, Inf: inf}, new(big.Float).SetInf(false)},
		{"pure base eps(Inf) = 0", 0.3, 4, rdpcheck.BaseCurve{Eps: []float64{0, 0, 0}, Inf: 0}, new(big.Float)},
		{"eps(2) = 0 at alpha 2", 0.3, 2, rdpcheck.BaseCurve{Eps: []float64{0}, Inf: inf}, new(big.Float)},
	} {
		got, err := reference.WORBound(c.q, c.alpha, c.base)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if d := relDiff(got, c.want); !(d <= 1e-70) && got.Cmp(c.want) != 0 {
			t.Errorf("%s: WORBound = %s, want %s", c.name, got.Text('g', 20), c.want.Text('g', 20))
		}
	}
}

// Law: Theorem 27 tightens Theorem 9 for the Gaussian, at every order
// (integer and fractional) and region tested.
func TestWORGaussianBelowWORBound(t *testing.T) {
	for _, sigma := range []float64{0.3, 1.1, 4, 100} {
		base := gaussBase(sigma, 300)
		for _, q := range []float64{1e-8, 0.01, 0.5, 0.99} {
			for _, a := range []float64{1.5, 2, 3, 4.5, 17, 64, 255.5} {
				w, err1 := reference.Context{Prec: 64}.WORGaussian(q, sigma, a)
				b, err2 := reference.Context{Prec: 64}.WORBound(q, a, base)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if w.Cmp(b) > 0 {
					t.Errorf("q=%v sigma=%v alpha=%v: WORGaussian %s > WORBound %s", q, sigma, a, w.Text('g', 10), b.Text('g', 10))
				}
			}
		}
	}
}

func ExampleWORGaussian() {
	v, _ := reference.WORGaussian(0.01, 1.1, 3)
	fmt.Println(v.Text('g', 20))
	// Output: 0.00069700235201570345612
}

func ExampleWORBound() {
	// The Gaussian with sigma = 2 as the base: eps(j) = j/8.
	base := rdpcheck.BaseCurve{Eps: []float64{2.0 / 8, 3.0 / 8}, Inf: math.Inf(1)}
	v, _ := reference.WORBound(0.01, 3, base)
	fmt.Println(v.Text('g', 20))
	// Output: 0.00017250248949796248709
}
