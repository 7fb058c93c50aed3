package oracles

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// GaussianQuad (quadrature of int p^a q^(1-a), this package's exp/log)
// against GaussianClosed (closed form, bigfloat's exp/log).
func TestGaussianQuadVsClosed(t *testing.T) {
	t.Parallel()
	type g struct{ m1, s1, m2, s2 float64 }
	pairs := []g{{0, 1, 1, 1}, {0, 1, 0.3, 2}, {1, 0.5, -2, 1}, {0, 2, 0.1, 1}, {0, 1, 1e-4, 1}, {3, 1, 0, 1 + 1.0/1024}, {0, 0.1, 0.05, 0.12}}
	alphas := []float64{0.3, 0.5, 1, 1.5, 2, 10.7, 100}
	worst := math.Inf(1)
	for i, p := range pairs {
		for j, a := range alphas {
			if (i+j)%2 == 1 || !inShortCover(i, j, len(alphas)) {
				continue
			}
			name := fmt.Sprintf("Gaussian(%v, alpha=%g)", p, a)
			got, err := GaussianQuad(p.m1, p.s1, p.m2, p.s2, a, testPrec)
			if err != nil {
				t.Errorf("%s quad: %v", name, err)
				continue
			}
			want, err := GaussianClosed(p.m1, p.s1, p.m2, p.s2, a, testPrec+64)
			if err != nil {
				t.Errorf("%s closed: %v", name, err)
				continue
			}
			worst = math.Min(worst, expectDigits(t, name, got, want, minDigits))
		}
	}
	t.Logf("worst agreement %.1f digits", worst)
}

func TestGaussianClosedSpecialCases(t *testing.T) {
	// equal variances: alpha (m1-m2)^2 / (2 s^2) (closed form, exact arithmetic)
	for _, a := range []float64{0.5, 2, 10.7, 1000.25} {
		got, err := GaussianClosed(0.25, 3, -1, 3, a, testPrec)
		if err != nil {
			t.Fatal(err)
		}
		w := newF(600).SetFloat64(1.25)
		w.Mul(w, w)
		w.Mul(w, fl(a, 600))
		w.Quo(w, fint(18, 600))
		expectDigits(t, fmt.Sprintf("equal variance alpha=%g", a), got, w, 70)
	}
	// KL(N(0,1) || N(0,4)) = log 2 + 1/8 - 1/2 (closed form)
	kl, _ := GaussianClosed(0, 1, 0, 2, 1, testPrec)
	w := ln2(400)
	w.Sub(w, newF(400).SetFloat64(0.375))
	expectDigits(t, "KL(N(0,1)||N(0,4))", kl, w, 70)
	// D_inf: s1 < s2: log(s2/s1) + dm^2/(2(s2^2-s1^2)); s1 > s2: +Inf
	di, _ := GaussianClosed(1, 1, 0, 2, math.Inf(1), testPrec)
	w = ln2(400)
	w.Add(w, newF(400).Quo(fint(1, 400), fint(6, 400)))
	expectDigits(t, "D_inf(N(1,1)||N(0,4))", di, w, 70)
	for _, c := range []struct{ s1, s2, a float64 }{{2, 1, math.Inf(1)}, {2, 1, 2}, {1, 2, 5}} {
		// s_a^2 = a s2^2 + (1-a) s1^2 <= 0 -> +Inf: (2,1,2): 2 - 4 < 0; (1,2,5): 20-4 > 0 finite
		d, err := GaussianClosed(0, c.s1, 1, c.s2, c.a, testPrec)
		if err != nil {
			t.Fatal(err)
		}
		q, err := GaussianQuad(0, c.s1, 1, c.s2, math.Min(c.a, 50), testPrec)
		if err != nil {
			t.Fatal(err)
		}
		sa := c.a*c.s2*c.s2 + (1-c.a)*c.s1*c.s1
		if math.IsInf(c.a, 1) {
			sa = c.s2 - c.s1 // D_inf finite iff s1 < s2
		}
		if (sa <= 0) != d.IsInf() {
			t.Errorf("GaussianClosed(%v) = %v; s_a^2 = %v", c, d, sa)
		}
		if !math.IsInf(c.a, 1) && d.IsInf() != q.IsInf() {
			t.Errorf("GaussianQuad(%v) = %v vs closed %v", c, q, d)
		}
	}
	// near-equal variances: the cancellation in the closed form is handled
	got, _ := GaussianClosed(0, 1, 0, 1+1.0/(1<<30), 2, testPrec)
	q, err := GaussianQuad(0, 1, 0, 1+1.0/(1<<30), 2, testPrec)
	if err != nil {
		t.Fatal(err)
	}
	expectDigits(t, "near-equal variances", q, got, minDigits)
}

// LaplaceQuad against LaplaceClosed (Mironov 2017 Prop. 6).
func TestLaplaceQuadVsClosed(t *testing.T) {
	t.Parallel()
	worst := math.Inf(1)
	alphas := []float64{0.3, 0.5, 1, 1.5, 2, 32, 1000.25}
	for i, b := range []float64{0.1, 1, 10, 1000} {
		for j, a := range alphas {
			if !inShortCover(i, j, len(alphas)) {
				continue
			}
			name := fmt.Sprintf("Laplace(b=%g, alpha=%g)", b, a)
			got, err := LaplaceQuad(b, a, testPrec)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			want, _ := LaplaceClosed(b, a, testPrec+64)
			worst = math.Min(worst, expectDigits(t, name, got, want, minDigits))
		}
	}
	t.Logf("worst agreement %.1f digits", worst)
	// alpha = +Inf: 1/b (Mironov Table II)
	d, _ := LaplaceClosed(4, math.Inf(1), testPrec)
	expectDigits(t, "Laplace D_inf", d, newF(testPrec).SetFloat64(0.25), 70)
	// alpha = 1: 1/b + exp(-1/b) - 1 at b = 1: e^-1 (published e^-1 digits)
	e1, _, _ := new(big.Float).SetPrec(300).Parse("0.36787944117144232159552377016146086744581113103176", 10)
	d, _ = LaplaceClosed(1, 1, testPrec)
	expectDigits(t, "Laplace KL b=1 = 1/e", d, e1, 49)
}

// Randomized response closed form against the exact rational moment of the
// two-point distributions (DiscreteRenyiRat): independent arithmetic.
func TestRandomizedResponseVsDiscrete(t *testing.T) {
	for _, p := range []float64{0.75, 0.9, 0.5000001, 0.01} {
		pr := new(big.Rat).SetFloat64(p) // exact binary value of p
		qr := new(big.Rat).Sub(big.NewRat(1, 1), pr)
		for _, a := range []int64{2, 3, 8, 32} {
			got, err := RandomizedResponseClosed(p, float64(a), testPrec)
			if err != nil {
				t.Fatal(err)
			}
			want, err := DiscreteRenyiRat([]*big.Rat{pr, qr}, []*big.Rat{qr, pr}, a, testPrec+64)
			if err != nil {
				t.Fatal(err)
			}
			expectDigits(t, fmt.Sprintf("RR(p=%g, alpha=%d)", p, a), got, want, minDigits)
		}
	}
	// D_2 at p = 3/4: log(7/3) (hand computation: (p^3+(1-p)^3)/(p(1-p)))
	got, _ := RandomizedResponseClosed(0.75, 2, testPrec)
	w := logBig(newF(400).Quo(fint(7, 400), fint(3, 400)), 400)
	expectDigits(t, "RR D_2(3/4) = log(7/3)", got, w, 70)
	// alpha = Inf: log 3 at p = 3/4; alpha = 1: (1/2) log 3
	l3 := logBig(fint(3, 400), 400)
	d, _ := RandomizedResponseClosed(0.75, math.Inf(1), testPrec)
	expectDigits(t, "RR D_inf(3/4) = log 3", d, l3, 70)
	d, _ = RandomizedResponseClosed(0.75, 1, testPrec)
	expectDigits(t, "RR KL(3/4) = log(3)/2", d, newF(400).Quo(l3, fint(2, 400)), 70)
	for _, p := range []float64{0, 1} {
		if d, _ := RandomizedResponseClosed(p, 2, testPrec); !d.IsInf() {
			t.Errorf("RR(p=%g) = %v, want +Inf", p, d)
		}
	}
	if d, _ := RandomizedResponseClosed(0.5, 7, testPrec); d.Sign() != 0 {
		t.Errorf("RR(1/2) = %v, want 0", d)
	}
}

func TestClosedBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, a := range []float64{nan, 0, -1, -inf} {
		if _, err := GaussianClosed(0, 1, 1, 1, a, testPrec); !isInputErr(err) {
			t.Errorf("GaussianClosed alpha=%v: %v", a, err)
		}
		if _, err := LaplaceClosed(1, a, testPrec); !isInputErr(err) {
			t.Errorf("LaplaceClosed alpha=%v: %v", a, err)
		}
		if _, err := RandomizedResponseClosed(0.7, a, testPrec); !isInputErr(err) {
			t.Errorf("RR alpha=%v: %v", a, err)
		}
		if _, err := GaussianQuad(0, 1, 1, 1, a, testPrec); !isInputErr(err) {
			t.Errorf("GaussianQuad alpha=%v: %v", a, err)
		}
		if _, err := LaplaceQuad(1, a, testPrec); !isInputErr(err) {
			t.Errorf("LaplaceQuad alpha=%v: %v", a, err)
		}
	}
	if _, err := GaussianQuad(0, 1, 1, 1, inf, testPrec); !isInputErr(err) {
		t.Errorf("GaussianQuad alpha=Inf: %v", err)
	}
	if _, err := LaplaceQuad(1, inf, testPrec); !isInputErr(err) {
		t.Errorf("LaplaceQuad alpha=Inf: %v", err)
	}
	for _, g := range [][4]float64{{nan, 1, 0, 1}, {0, 0, 0, 1}, {0, 1, inf, 1}, {0, 1, 0, -2}, {0, inf, 0, 1}} {
		if _, err := GaussianClosed(g[0], g[1], g[2], g[3], 2, testPrec); !isInputErr(err) {
			t.Errorf("GaussianClosed(%v): %v", g, err)
		}
		if _, err := GaussianQuad(g[0], g[1], g[2], g[3], 2, testPrec); !isInputErr(err) {
			t.Errorf("GaussianQuad(%v): %v", g, err)
		}
	}
	for _, b := range []float64{nan, 0, -1, inf} {
		if _, err := LaplaceClosed(b, 2, testPrec); !isInputErr(err) {
			t.Errorf("LaplaceClosed b=%v: %v", b, err)
		}
		if _, err := LaplaceQuad(b, 2, testPrec); !isInputErr(err) {
			t.Errorf("LaplaceQuad b=%v: %v", b, err)
		}
	}
	for _, p := range []float64{nan, -0.1, 1.1} {
		if _, err := RandomizedResponseClosed(p, 2, testPrec); !isInputErr(err) {
			t.Errorf("RR p=%v: %v", p, err)
		}
	}
}
