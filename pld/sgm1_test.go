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
