package reference_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

var inf = math.Inf(1)

// want parses a decimal expectation at 400 bits.
func want(t *testing.T, s string) *big.Float {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 400, big.ToNearestEven)
	if err != nil {
		t.Fatalf("bad expectation %q: %v", s, err)
	}
	return f
}

// relDiff returns |got-want|/|want| (|got| if want is 0).
func relDiff(got, want *big.Float) float64 {
	if got.IsInf() || want.IsInf() {
		if got.IsInf() && want.IsInf() && got.Sign() == want.Sign() {
			return 0
		}
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(1024).Sub(got, want)
	if want.Sign() != 0 {
		d.Quo(d, want)
	}
	f, _ := d.Float64()
	return math.Abs(f)
}

// checkDigits fails unless got matches the decimal wantS to relative tol.
func checkDigits(t *testing.T, name string, got *big.Float, err error, wantS string, tol float64) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: unexpected error %v", name, err)
		return
	}
	var w *big.Float
	switch wantS {
	case "+Inf":
		w = new(big.Float).SetInf(false)
	default:
		w = want(t, wantS)
	}
	if d := relDiff(got, w); d > tol {
		t.Errorf("%s = %s, want %s (rel diff %.3g > %.3g)", name, got.Text('g', 50), wantS, d, tol)
	}
}

// Expected values: mpmath 1.3.0 at 60 digits (mp.dps = 60) from the same
// closed forms, with each float64 input converted exactly (mpf(float)).
// Tolerance 1e-49: the 50 printed digits, far below the 2^-255 claimed.
const closedTol = 1e-49

func TestGaussianDivergence(t *testing.T) {
	cases := []struct {
		m1, s1, m2, s2, alpha float64
		want                  string
		why                   string
	}{
		{0, 1, 1, 1, 2.5, "1.25", "equal variances: alpha mu^2/(2 s^2)"},
		{0, 1, 1, 2, 3, "0.61407449759140654312135031851617380021297482938319", "mpmath"},
		{0.5, 1.5, -1, 1, 0.5, "0.42619655382738257966993180788028591785293096437079", "mpmath, alpha < 1"},
		{0, 1, 1, 2, 1, "0.44314718055994530941723212145817656807550013436026", "KL, mpmath"},
		{0, 1, 0, 2, 1.0000001, "0.31814719462244461450290302532875783494324225482713", "order near 1 cancels ~23 bits; mpmath"},
		{2, 3, 1, 1.5, 1.5, "+Inf", "sa^2 = 1.5*2.25 - 0.5*9 < 0"},
		{0, 1, 1, 2, inf, "0.85981384722661197608389878812484323474216680102692", "log 2 + 1/6: D_inf for s1 < s2"},
		{0, 2, 1, 1, inf, "+Inf", "s1 > s2"},
		{0, 1, 1, 1, inf, "+Inf", "equal variances, different means"},
		{3, 1, 3, 1, inf, "0", "identical"},
		{0, 1, 1, 2, 0, "0", "alpha = 0"},
	}
	for _, c := range cases {
		got, err := reference.GaussianDivergence(c.m1, c.s1, c.m2, c.s2, c.alpha)
		checkDigits(t, c.why, got, err, c.want, closedTol)
	}
}

func TestGaussian(t *testing.T) {
	// alpha/(2 sigma^2) is exact in binary for these inputs.
	checkDigits(t, "Gaussian(1, 2)", must(reference.Gaussian(1, 2)), nil, "1", 0)
	checkDigits(t, "Gaussian(0.5, 3)", must(reference.Gaussian(0.5, 3)), nil, "6", 0)
	checkDigits(t, "Gaussian(0, 2)", must(reference.Gaussian(0, 2)), nil, "+Inf", 0)
	checkDigits(t, "Gaussian(1, Inf)", must(reference.Gaussian(1, inf)), nil, "+Inf", 0)
	// 1.1 is not 11/10: the input is the float64 nearest 1.1.
	// mpmath: mpf(2)/(2*mpf(1.1)**2).
	checkDigits(t, "Gaussian(1.1, 2)", must(reference.Gaussian(1.1, 2)), nil,
		"0.8264462809917354037297641322126033408018462170393", closedTol)
}

func TestLaplace(t *testing.T) {
	cases := []struct {
		b, alpha float64
		want     string
	}{
		{1, 2, "0.61912362999859288339978853654350698679831043115024"},
		{0.5, 1.5, "1.4368091584145995277025906937563952094437278624999"},
		{10, 1, "0.004837418035959573164249059446436621194705360980401"},
		{2, 100, "0.49304914506326867649117031936868880013445553290312"},
		{1000, 2.5, "0.0000012495826568546640778381261779002383675213572745142"}, // argument of log ~ 1 + 1e-6
		{1, 1.0001, "0.36791230986156364467050642142173626306189026925673"},
		{4, inf, "0.25"}, // 1/b
		{0, 2, "+Inf"},
	}
	for _, c := range cases {
		got, err := reference.Laplace(c.b, c.alpha)
		checkDigits(t, "Laplace", got, err, c.want, closedTol)
	}
}

func TestRandomizedResponse(t *testing.T) {
	cases := []struct {
		p, alpha float64
		want     string
	}{
		{0.75, 2, "0.84729786038720361371010750652065402498959417175911"},
		{0.9, 1.5, "2.0110437312041957597660529028364313601042532305248"},
		{0.6, 1, "0.081093021621632839885617597854438026920270872305944"},
		{0.51, 64, "0.029415682319272322739695220366757655909756812476534"},
		{0.99, 0.5, "3.228926160721701311178147012776238978937037390006"},
		{0.5, 7, "0"},
		{1, 2, "+Inf"},
		{0, 0.5, "+Inf"},
		{0.75, inf, "1.0986122886681096913952452369225257046475"}, // log 3
	}
	for _, c := range cases {
		got, err := reference.RandomizedResponse(c.p, c.alpha)
		checkDigits(t, "RandomizedResponse", got, err, c.want, 1e-40)
	}
}

func TestDivergence(t *testing.T) {
	P := []float64{0.5, 0.25, 0.25, 0}
	Q := []float64{0.25, 0.25, 0.25, 0.25}
	cases := []struct {
		alpha float64
		want  string
	}{
		{0, "0.28768207245178092743921900599382743150350971089776"}, // -log(3/4)
		{0.5, "0.31669436764074987778647771441494508617017974655749"},
		{1, "0.34657359027997265470861606072908828403775006718013"}, // log(2)/2
		{2, "0.40546510810816438197801311546434913657199042346249"}, // log(3/2)
		{3.5, "0.48099994299841034836948237946470963996758446628299"},
		{inf, "0.69314718055994530941723212145817656807550013436026"}, // log 2
	}
	for _, c := range cases {
		got, err := reference.Divergence(P, Q, c.alpha)
		checkDigits(t, "Divergence", got, err, c.want, closedTol)
	}
	// Support mismatch: P puts mass where Q has none.
	for _, a := range []float64{1, 2, inf} {
		got, err := reference.Divergence(Q, P, a)
		checkDigits(t, "Divergence(Q||P) support", got, err, "+Inf", 0)
	}
	// For alpha < 1 the same pair is finite: -log P(supp Q)... at alpha 0 it
	// is -log sum_{q_i>0} p_i = -log 1 = 0.
	got, err := reference.Divergence(Q, P, 0)
	checkDigits(t, "Divergence(Q||P) alpha 0", got, err, "0", 0)
	got, err = reference.Divergence([]float64{1, 0}, []float64{0, 1}, 0.5)
	checkDigits(t, "disjoint supports", got, err, "+Inf", 0)
}

func TestClosedFormBadInput(t *testing.T) {
	nan := math.NaN()
	bad := []struct {
		name string
		call func() (*big.Float, error)
	}{
		{"Gaussian sigma<0", func() (*big.Float, error) { return reference.Gaussian(-1, 2) }},
		{"Gaussian sigma NaN", func() (*big.Float, error) { return reference.Gaussian(nan, 2) }},
		{"Gaussian sigma Inf", func() (*big.Float, error) { return reference.Gaussian(inf, 2) }},
		{"Gaussian alpha<0", func() (*big.Float, error) { return reference.Gaussian(1, -1) }},
		{"GaussianDivergence s1=0", func() (*big.Float, error) { return reference.GaussianDivergence(0, 0, 1, 1, 2) }},
		{"GaussianDivergence m2 Inf", func() (*big.Float, error) { return reference.GaussianDivergence(0, 1, inf, 1, 2) }},
		{"GaussianDivergence alpha NaN", func() (*big.Float, error) { return reference.GaussianDivergence(0, 1, 1, 1, nan) }},
		{"Laplace b<0", func() (*big.Float, error) { return reference.Laplace(-1, 2) }},
		{"Laplace alpha<1", func() (*big.Float, error) { return reference.Laplace(1, 0.5) }},
		{"RR p>1", func() (*big.Float, error) { return reference.RandomizedResponse(1.5, 2) }},
		{"RR p NaN", func() (*big.Float, error) { return reference.RandomizedResponse(nan, 2) }},
		{"Divergence empty", func() (*big.Float, error) { return reference.Divergence(nil, nil, 2) }},
		{"Divergence mismatched", func() (*big.Float, error) { return reference.Divergence([]float64{1}, []float64{0.5, 0.5}, 2) }},
		{"Divergence negative", func() (*big.Float, error) { return reference.Divergence([]float64{1.5, -0.5}, []float64{0.5, 0.5}, 2) }},
		{"Divergence sum", func() (*big.Float, error) { return reference.Divergence([]float64{0.5, 0.4}, []float64{0.5, 0.5}, 2) }},
		{"Divergence NaN entry", func() (*big.Float, error) { return reference.Divergence([]float64{nan, 1}, []float64{0.5, 0.5}, 2) }},
		{"Divergence alpha<0", func() (*big.Float, error) { return reference.Divergence([]float64{1}, []float64{1}, -2) }},
	}
	for _, b := range bad {
		v, err := b.call()
		var ie *reference.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: got (%v, %v), want *InputError", b.name, v, err)
		}
	}
}

func must(v *big.Float, err error) *big.Float {
	if err != nil {
		panic(err)
	}
	return v
}
