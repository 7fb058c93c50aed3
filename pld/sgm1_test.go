package pld

import (
	"math"
	"testing"
)

// delta of one SGM step by float64 quadrature over x (gonum-free midpoint
// rule on a fine grid) of (p - e^eps q)_+ for both directions: an
// independent way to the closed form of sgmOneStep, good to ~1e-7.
func sgmOneStepQuad(q, s, eps float64) float64 {
	phi := func(x float64) float64 { return math.Exp(-x*x/(2*s*s)) / (s * math.Sqrt(2*math.Pi)) }
	var rem, add float64
	const n = 400000
	a, b := -12*s, 1+12*s+12
	dx := (b - a) / n
	ee := math.Exp(eps)
	for i := 0; i < n; i++ {
		x := a + (float64(i)+0.5)*dx
		p := (1-q)*phi(x) + q*phi(x-1)
		q0 := phi(x)
		rem += math.Max(0, p-ee*q0) * dx
		add += math.Max(0, q0-ee*p) * dx
	}
	return math.Max(rem, add)
}

func TestSGMOneStepQuadrature(t *testing.T) {
	for _, c := range []struct{ q, s, eps float64 }{
		{0.01, 1, 0.01}, {0.1, 0.8, 0.5}, {0.5, 2, 0.1}, {1, 1, 1}, {0.2, 0.5, 2}, {0.05, 1.5, 0},
	} {
		iv := sgmOneStep(c.q, c.s, c.eps)
		want := sgmOneStepQuad(c.q, c.s, c.eps)
		if math.Abs(iv.Hi-want) > 1e-7*want+1e-12 || iv.RelWidth() > 1e-15 {
			t.Errorf("sgmOneStep(q=%g, sigma=%g, eps=%g) = %v, want %.10g (midpoint quadrature, 4e5 nodes)", c.q, c.s, c.eps, iv, want)
		}
	}
	// q = 1 is the Gaussian mechanism.
	for _, eps := range []float64{0, 0.5, 2} {
		a := sgmOneStep(1, 1.3, eps)
		b, _ := GaussianDelta(1.3, 1, eps)
		if a.Hi < b.Lo || b.Hi < a.Lo {
			t.Errorf("sgmOneStep(q=1, sigma=1.3, eps=%g) = %v, GaussianDelta = %v", eps, a, b)
		}
	}
}

// Regression: the upper measure of one step carries no more finite mass
// than the step's P-mass (1) plus its rounding, at any h. Before the
// split counted a sliver's mass s in A's error it added s/(1 - e^-h) per
// cell, 1.6e-6 in all at h = 2^-15 (10,000 steps made that 1.6% of the
// composed mass, and the upper eps grew as h fell).
func TestStepMassNoSliverOverH(t *testing.T) {
	hs := []float64{0x1p-12, 0x1p-15}
	if testing.Short() {
		hs = hs[:1] // the finer grid takes 8 times as long
	}
	for _, add := range []bool{false, true} {
		for _, h := range hs {
			q, s, lam := 256.0/60000, 1.1, 10.0
			kmin, cells, lt, rt, err := sgmCells(q, s, h, cut{lambda: lam}, add)
			if err != nil {
				t.Fatal(err)
			}
			sg := buildStep(stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: kmin + 1, rightTail: rt}, h, lam)
			var m float64
			for i, v := range sg.up {
				m += v * math.Exp(sg.ref-lam*float64(sg.k0+i)*h)
			}
			if m-1 > 1e-8 || m < 1 {
				t.Errorf("step(q=%g, sigma=%g, h=%g, add=%v): upper finite mass - 1 = %.3g, want in [0, 1e-8] (the P-mass is 1)", q, s, h, add, m-1)
			}
		}
	}
}

// Regression: iota left of the grid is the line through the origin, so
// the lower measure of a step keeps (to rounding) the step's P-mass. With
// iota flat at d_0 there, every step lost d_0 (1.1e-6 of its mass here at
// h = 2^-12, 1.1% of the composed mass after 10,000 steps).
func TestStepLowerKeepsMass(t *testing.T) {
	q, s, lam, h := 256.0/60000, 1.1, 10.0, 0x1p-12
	kmin, cells, lt, rt, err := sgmCells(q, s, h, cut{lambda: lam}, false)
	if err != nil {
		t.Fatal(err)
	}
	sg := buildStep(stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: kmin + 1, rightTail: rt}, h, lam)
	var m float64
	for i, v := range sg.lo {
		m += v * math.Exp(sg.ref-lam*float64(sg.k0+i)*h)
	}
	if m > 1 || 1-m > 1e-8 || sg.roundedDown {
		t.Errorf("step(q=%g, sigma=%g, h=%g, remove): lower mass = 1 - %.3g (rounded down: %v), want within 1e-8 of 1 and <= 1", q, s, h, 1-m, sg.roundedDown)
	}
}

// Regression: the upper split's left mass is alpha's upper bound less
// a_hi's upper bound, so A's error (over 1 - e^-h in a_hi) moves mass up
// instead of adding it. It was alpha's upper bound less a_hi's lower
// bound: at q = 1e-4, sigma = 2, h = 2^-20 each step's upper mass was
// 1 + 3.9e-8, 4% after the 1e6 steps that need such a grid (the upper eps
// grew as h fell, from 0.17175 at h = 2^-17 to 0.1805 at 2^-24).
func TestStepUpperMassFineGrid(t *testing.T) {
	q, s, lam, h := 1e-4, 2.0, 60.0, 0x1p-20
	kmin, cells, lt, rt, err := sgmCells(q, s, h, cut{lambda: lam, tail: 1e-17}, false)
	if err != nil {
		t.Fatal(err)
	}
	sg := buildStep(stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: kmin + 1, rightTail: rt}, h, lam)
	var m float64
	for i, v := range sg.up {
		m += v * math.Exp(sg.ref-lam*float64(sg.k0+i)*h)
	}
	if m-1 > 1e-10 || m < 1-1e-12 {
		t.Errorf("step(q=%g, sigma=%g, h=2^-20, remove): upper finite mass - 1 = %.3g, want in [0, 1e-10]", q, s, m-1)
	}
}
