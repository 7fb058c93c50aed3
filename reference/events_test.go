package reference_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// mpmathVal parses a value printed by mpmath.
func mpmathVal(t *testing.T, s string) *big.Float {
	t.Helper()
	v, _, err := big.ParseFloat(s, 10, 256, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Expected values: mpmath 1.3.0 at mp.dps = 60, evaluating the closed forms
// directly (the float64 inputs are exact binary values):
//
//	pure(e,a) = log((exp(a*e)+exp((1-a)*e))/(1+exp(e)))/(a-1)
//	em(e,a)   = min(r-1-log(r)-e**2/8+e**2*a/8, e), r = e/expm1(e)
//	rr1(n,k,a) = log(A*(B/A)**a + B*(A/B)**a + (k-2)*A)/(a-1), A = n/k, B = 1-n+A
//	rrs(n,k,a) = max(log(kb**a/k+(k-1)*n**a/k), log(kb**(1-a)/k+(k-1)*n**(1-a)/k))/(a-1), kb = k*(1-n)+n
//
// The cancelling rows (eps = 1e-8, noise = 1-1e-12) keep more than 40 of the
// 60 digits (43 at noise = 1-1e-12, where 1+1e-18 is formed); each value must
// agree to 40 digits, the oracle standard of this package.
func TestEventsAgainstMpmath(t *testing.T) {
	pure := []struct {
		eps, alpha float64
		want       string
	}{
		{1e-08, 2, "1.0000000000000000001784549935902781624244592920511e-16"},
		{1e-08, 1.1, "5.5000000000000006183207123148091516470192793277762e-17"},
		{1, 2, "0.73532566405551922470993042488683435602660155715776"},
		{1, 1024, "0.99969378134162441560699022923268049301865564018996"},
		{50, 1.5, "49.999999999999999999999614250030407216443396643039"},
		{50, 64, "49.999999999999999999999996938492304819178122194989"},
		{0.5, 1.0000001, "0.12245934295204008565117717116441600262666329745064"},
	}
	for _, c := range pure {
		got, err := reference.PureDP(c.eps, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, mpmathVal(t, c.want)); d < 40 {
			t.Errorf("PureDP(%g, %g) = %s, mpmath %s (%.1f digits)", c.eps, c.alpha, got.Text('g', 30), c.want, d)
		}
	}
	em := []struct {
		eps, alpha float64
		want       string
	}{
		{1e-08, 2, "2.5000000000000001028766930395312532184684019324151e-17"},
		{0.001, 1.1, "0.00000013749999826388894429595244482437944892199048012188"},
		{1, 2, "0.2483015614822445333633583600416818566698913943832"},
		{1, 64, "1.0"},
		{50, 1.5, "50.0"},
	}
	for _, c := range em {
		got, err := reference.ExponentialMechanism(c.eps, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, mpmathVal(t, c.want)); d < 40 {
			t.Errorf("ExponentialMechanism(%g, %g) = %s, mpmath %s (%.1f digits)", c.eps, c.alpha, got.Text('g', 30), c.want, d)
		}
	}
	rr := []struct {
		noise, k float64
		rel      string
		alpha    float64
		want     string
	}{
		{1e-12, 2, reference.ReplaceOne, 2, "28.324168296487493537746481698435045246721767394616"},
		{1e-12, 2, reference.ReplaceSpecial, 2, "26.937873935369102918912017830488522082014635463932"},
		{0.5, 10, reference.ReplaceOne, 1.5, "1.6122544690652471402564048970219395806210502473726"},
		{0.5, 10, reference.ReplaceSpecial, 1.5, "0.95005993389568573821785326007732955797085834410079"},
		{0.999999999999, 1e6, reference.ReplaceOne, 2, "1.9999105141676184521595517895298562022924019746861e-18"},
		{0.999999999999, 1e6, reference.ReplaceSpecial, 2, "9.9995475709337044342583901299995445460555599626949e-19"},
		{0.999, 1000, reference.ReplaceOne, 1.1, "0.00076632741824823877560861599373086208649463769099573"},
		{0.999, 1000, reference.ReplaceSpecial, 1.1, "0.00043522018136551879127619712472931857150656449891231"},
		{1e-06, 1e6, reference.ReplaceOne, 1024, "27.631020114951531636344338182232224376346185159949"},
		{1e-06, 1e6, reference.ReplaceSpecial, 1024, "13.815510556986756554051593174376981803474708887763"},
	}
	for _, c := range rr {
		got, err := reference.KaryRandomizedResponse(c.noise, c.k, c.rel, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, mpmathVal(t, c.want)); d < 40 {
			t.Errorf("KaryRandomizedResponse(%g, %g, %s, %g) = %s, mpmath %s (%.1f digits)", c.noise, c.k, c.rel, c.alpha, got.Text('g', 30), c.want, d)
		}
	}
}

// ratFromFloat is x as an exact rational.
func ratFromFloat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// TestKaryRRAgainstRationals checks KaryRandomizedResponse at integer
// orders against oracles.DiscreteRenyiRat on the full k-bucket output
// distributions in exact rationals (no closed form shared).
func TestKaryRRAgainstRationals(t *testing.T) {
	for _, noise := range []float64{1e-9, 0.01, 0.3, 0.5, 0.9, 0.999999} {
		for _, k := range []int{2, 3, 7} {
			N := ratFromFloat(noise)
			K := big.NewRat(int64(k), 1)
			a := new(big.Rat).Quo(N, K)
			b := new(big.Rat).Add(new(big.Rat).Sub(big.NewRat(1, 1), N), a)
			row := func(i int) []*big.Rat {
				r := make([]*big.Rat, k)
				for j := range r {
					r[j] = a
				}
				r[i] = b
				return r
			}
			uni := make([]*big.Rat, k)
			for j := range uni {
				uni[j] = big.NewRat(1, int64(k))
			}
			for _, alpha := range []int64{2, 3, 10} {
				one, err := oracles.DiscreteRenyiRat(row(0), row(1), alpha, 256)
				if err != nil {
					t.Fatal(err)
				}
				s1, err := oracles.DiscreteRenyiRat(row(0), uni, alpha, 256)
				if err != nil {
					t.Fatal(err)
				}
				s2, err := oracles.DiscreteRenyiRat(uni, row(0), alpha, 256)
				if err != nil {
					t.Fatal(err)
				}
				spec := s1
				if s2.Cmp(s1) > 0 {
					spec = s2
				}
				for _, c := range []struct {
					rel  string
					want *big.Float
				}{{reference.ReplaceOne, one}, {reference.ReplaceSpecial, spec}} {
					got, err := reference.KaryRandomizedResponse(noise, float64(k), c.rel, float64(alpha))
					if err != nil {
						t.Fatal(err)
					}
					if d := digits(got, c.want); d < 60 {
						t.Errorf("KaryRandomizedResponse(%g, %d, %s, %d) = %s, rationals %s (%.1f digits)", noise, k, c.rel, alpha, got.Text('g', 25), c.want.Text('g', 25), d)
					}
				}
			}
		}
	}
}

// TestPureDPIsBinaryRR: PureDP(eps) is randomized response with p =
// e^eps/(1+e^eps); for eps = log 3, p = 3/4 is exact and
// reference.RandomizedResponse is an independent closed-form evaluation.
func TestPureDPIsBinaryRR(t *testing.T) {
	for _, alpha := range []float64{1.1, 2, 7.5, 300} {
		rr, err := reference.RandomizedResponse(0.75, alpha)
		if err != nil {
			t.Fatal(err)
		}
		// PureDP takes a float64 eps: compare at the float64 log 3 and
		// allow its rounding (relative 2^-53 in eps moves the value by at
		// most that much times alpha/(alpha-1)-ish): 14 digits.
		got, err := reference.PureDP(math.Log(3), alpha)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, rr); d < 14 {
			t.Errorf("PureDP(log 3, %g) = %s, RandomizedResponse(3/4) %s", alpha, got.Text('g', 20), rr.Text('g', 20))
		}
	}
}

func TestEventsSpecialCases(t *testing.T) {
	inf := math.Inf(1)
	val := func(v *big.Float, err error) float64 {
		if err != nil {
			t.Fatal(err)
		}
		f, _ := v.Float64()
		return f
	}
	cases := []struct {
		name      string
		got, want float64
	}{
		{"KRR(noise=1) = 0", val(reference.KaryRandomizedResponse(1, 5, reference.ReplaceOne, 2)), 0},
		{"KRR(noise=0) = +Inf", val(reference.KaryRandomizedResponse(0, 5, reference.ReplaceOne, 2)), inf},
		{"KRR special (noise=0) = +Inf", val(reference.KaryRandomizedResponse(0, 5, reference.ReplaceSpecial, 2)), inf},
		// alpha = +Inf: log(k/noise - k + 1); k = 2, noise = 1/2: log 3
		{"KRR one alpha=Inf", val(reference.KaryRandomizedResponse(0.5, 2, reference.ReplaceOne, inf)), math.Log(3)},
		// special: max(log(k(1-n)+n), -log n) = max(log 1.5, log 2)
		{"KRR special alpha=Inf", val(reference.KaryRandomizedResponse(0.5, 2, reference.ReplaceSpecial, inf)), math.Log(2)},
		{"PureDP(0) = 0", val(reference.PureDP(0, 5)), 0},
		{"PureDP(alpha=Inf) = eps", val(reference.PureDP(0.7, inf)), 0.7},
		{"ZCDP(rho=0) = xi at Inf", val(reference.ZCDP(0, 0.25, inf)), 0.25},
		{"ZCDP(alpha=Inf) = Inf", val(reference.ZCDP(1, 0, inf)), inf},
		{"ZCDP = xi + rho alpha", val(reference.ZCDP(0.5, 0.25, 3)), 1.75},
		{"EM(0) = 0", val(reference.ExponentialMechanism(0, 3)), 0},
		{"EM(alpha=Inf) = eps", val(reference.ExponentialMechanism(2, inf)), 2},
	}
	for _, c := range cases {
		// the log rows compare with math.Log, within 1 ulp of its own
		if math.Abs(c.got-c.want) > 0x1p-52*math.Abs(c.want) && c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	bad := []struct {
		name string
		err  error
	}{
		{"noise < 0", second(reference.KaryRandomizedResponse(-0.1, 5, reference.ReplaceOne, 2))},
		{"noise > 1", second(reference.KaryRandomizedResponse(1.1, 5, reference.ReplaceOne, 2))},
		{"buckets 1", second(reference.KaryRandomizedResponse(0.5, 1, reference.ReplaceOne, 2))},
		{"buckets 2.5", second(reference.KaryRandomizedResponse(0.5, 2.5, reference.ReplaceOne, 2))},
		{"relation", second(reference.KaryRandomizedResponse(0.5, 5, "add-remove", 2))},
		{"alpha 1", second(reference.KaryRandomizedResponse(0.5, 5, reference.ReplaceOne, 1))},
		{"eps < 0", second(reference.PureDP(-1, 2))},
		{"eps Inf", second(reference.ExponentialMechanism(inf, 2))},
		{"rho NaN", second(reference.ZCDP(math.NaN(), 0, 2))},
		{"xi < 0", second(reference.ZCDP(1, -1, 2))},
		{"group c < 0", second(reference.GroupPrivacy([]float64{2}, []*big.Float{big.NewFloat(1)}, -1, 2))},
		{"group alpha < 2", second(reference.GroupPrivacy([]float64{2}, []*big.Float{big.NewFloat(1)}, 1, 1.5))},
		{"group not covered", second(reference.GroupPrivacy([]float64{2, 4}, []*big.Float{big.NewFloat(1), big.NewFloat(2)}, 2, 2))},
	}
	for _, b := range bad {
		if !errors.Is(b.err, reference.ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", b.name, b.err)
		}
	}
}

func second(_ *big.Float, err error) error { return err }

// TestGroupPrivacyProp2: 3^c times the smallest rdp at an order >= 2^c
// alpha (Mironov 2017, Prop 2), 2^c rdp(+Inf) at +Inf.
func TestGroupPrivacyProp2(t *testing.T) {
	orders := []float64{2, 4, 8, 16, math.Inf(1)}
	rdp := []*big.Float{big.NewFloat(0.1), big.NewFloat(0.2), big.NewFloat(0.4), big.NewFloat(0.8), big.NewFloat(1)}
	for _, c := range []struct {
		c          int
		alpha, out float64
	}{{0, 3, 0.2}, {1, 2, 0.6}, {2, 2, 9 * 0.4}, {2, 4, 9 * 0.8}, {3, 2, 27 * 0.8}, {3, math.Inf(1), 8}} {
		got, err := reference.GroupPrivacy(orders, rdp, c.c, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		// rdp values are float64s: 0.1 etc. times 3^c, rounded once
		want := big.NewFloat(c.out)
		if d := digits(got, want); d < 15 {
			t.Errorf("GroupPrivacy(c=%d, alpha=%g) = %s, want %g", c.c, c.alpha, got.Text('g', 20), c.out)
		}
	}
}

// TestConversionInfOrderReference: as fast's TestConversionInfOrder; an
// order +Inf contributes rdp(+Inf) = 0.5, the minimum (by hand: 10.17,
// 3.19, 0.918 at orders 2, 4, 16).
func TestConversionInfOrderReference(t *testing.T) {
	inf := math.Inf(1)
	orders := []float64{2, 4, 16, inf}
	r := []*big.Float{big.NewFloat(0.05), big.NewFloat(0.1), big.NewFloat(0.4), big.NewFloat(0.5)}
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		eps, order, err := reference.Epsilon(orders, r, 1e-5, conv)
		if err != nil || eps.Cmp(big.NewFloat(0.5)) != 0 || order != inf {
			t.Errorf("conv %v: Epsilon = %v at %v (%v), want 0.5 at +Inf", conv, eps, order, err)
		}
	}
}
