package reference_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// Regressions for "reference returns 0 for a positive divergence" (found by
// the properties package, BugRefZero): quantities that cancel to exactly 0
// at both Ziv precisions used to be accepted. Expected values from mpmath
// 1.3.0 at 120 digits, printed to 20 (python3 -c with mp.dps=120):
//
//	GaussianDivergence(1e-50, 1, 0, 1, 1) = mpf(1e-50)**2/2
//	Laplace(b=1e20, alpha=3) by the closed form
//	Divergence([0, 2^-8, 1-2^-8] || [0, 0, 1], alpha=1e-90) = log(p2^a q2^(1-a))/(a-1)
//
// The tolerance 1e-15 covers mpmath's decimal 1e-90 against the float64 one.
func TestZeroIsNotAgreement(t *testing.T) {
	v, err := reference.GaussianDivergence(1e-50, 1, 0, 1, 1)
	checkDigits(t, "GaussianDivergence KL, means 1e-50 apart", v, err, "5.0000000000000000762e-101", 1e-15)
	v, err = reference.Context{Prec: 64}.Laplace(1e20, 3)
	checkDigits(t, "Laplace(1e20, 3) at 64 bits", v, err, "1.5e-40", 1e-15)
	v, err = reference.Divergence([]float64{0, 1.0 / 256, 255.0 / 256}, []float64{0, 0, 1}, 1e-90)
	checkDigits(t, "Divergence at alpha 1e-90", v, err, "3.9138993211363290923e-93", 1e-15)
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

// Regression (found by the fast fixes' fuzzing): orders as large as 1e300
// used to underflow every term and then panic in log(0). For such orders
// D_alpha is D_inf to far more digits than 256 bits hold: log max p/q.
// Expected: mpmath 1.3.0, log(mpf(0.75)/mpf(0.25)) = log 3, and
// log(0.9/0.1) = log 9 for randomized response with p = 0.9.
func TestHugeOrder(t *testing.T) {
	v, err := reference.Divergence([]float64{0.75, 0.25}, []float64{0.25, 0.75}, 1e300)
	checkDigits(t, "Divergence at alpha 1e300", v, err, "1.0986122886681096913952452369225257046475", 1e-40)
	v, err = reference.RandomizedResponse(0.9, 1e300)
	// log(mpf(0.9)/(1 - mpf(0.9))) with 0.9 the float64 nearest 0.9
	checkDigits(t, "RandomizedResponse at alpha 1e300", v, err, "2.1972245773362196295067181683243069621053", 1e-40)
}

// Regression (fuzz seed FuzzConversion/0d5c2cfe9df74836): a delta of
// e^-1.2e13 underflowed to 0, and two zeros never agree, so the Ziv loop ran
// to its cap. It is now a typed error.
func TestDeltaBelowRange(t *testing.T) {
	_, _, err := reference.Delta([]float64{6.9e10}, []*big.Float{big.NewFloat(2.3e-77)}, 171, reference.Classic)
	if !errors.Is(err, reference.ErrTooLarge) {
		t.Errorf("Delta below big.Float's range: %v, want ErrTooLarge", err)
	}
}

// Regression (found by the vectors' q-expansion check): for q below ~1e-162
// the float64 estimate of I - 1 ~ q^2 underflowed, the backward check ran
// without the extra bits it needs, and its rounding noise (~q) came out as
// the RDP: SGM(1e-200, 1, 2) was 1e-200. Expected, to leading order (the
// next term is O(q^3)): q^2 (e^(1/sigma^2) - 1) ... for alpha = 2 exactly
// I - 1 = q^2 (e - 1) at sigma = 1, so SGM = log1p(q^2 (e-1)) = q^2 (e-1)
// to 1e-400 relative (mpmath 1.3.0: mpf(1e-200)**2*(e-1) = 1.7182818284590451738467e-400
// with 1e-200 the float64).
func TestTinyQ(t *testing.T) {
	v, err := reference.SGM(1e-200, 1, 2)
	checkDigits(t, "SGM(1e-200, 1, 2)", v, err, "1.7182818284590451738467e-400", 1e-20)
	f, b, err := reference.Context{Prec: 64}.SGMDirections(1e-200, 1, 1.5)
	if err != nil || f.Sign() <= 0 || b.Sign() <= 0 || f.Cmp(b) < 0 {
		t.Errorf("SGMDirections(1e-200, 1, 1.5) = %v, %v, %v; want 0 < backward <= forward", f, b, err)
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

// Regression (properties' agreement law, BugRefGaussianTinyAlpha): at a tiny
// order 1-alpha rounded to 1 at both Ziv precisions and the alpha-dependent
// part cancelled exactly. Expected: the closed form in mpmath 1.3.0 at 300
// digits with float64 inputs, 7.317027100796817501778709e-54.
func TestTinyOrderGaussian(t *testing.T) {
	v, err := reference.Context{Prec: 128}.GaussianDivergence(1, 2.718281828459045, 1.03125, 0.10000000000000002, 2.61012178719941e-54)
	checkDigits(t, "GaussianDivergence at alpha 2.6e-54", v, err, "7.317027100796817501778709e-54", 1e-24)
}
