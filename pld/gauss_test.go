package pld

import (
	"math"
	"testing"
)

// Closed form in float64 (math.Erfc), as a loose second way to the same
// value: |rel| <= 1e-9 where no cancellation is large.
func gaussDelta64(sigma float64, count int, eps float64) float64 {
	mu := math.Sqrt(float64(count)) / sigma
	q := func(x float64) float64 { return math.Erfc(x/math.Sqrt2) / 2 }
	return q(eps/mu-mu/2) - math.Exp(eps)*q(eps/mu+mu/2)
}

func TestGaussianDeltaClosedForm(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		count int
		eps   float64
	}{
		{1, 1, 0}, {1, 1, 1}, {0.5, 1, 2}, {2, 10, 0.5}, {5, 1, 0.1}, {1, 100, 5},
	} {
		iv, err := GaussianDelta(c.sigma, c.count, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		want := gaussDelta64(c.sigma, c.count, c.eps)
		if !(iv.Lo <= iv.Hi) || math.Abs(iv.Lo/want-1) > 1e-9 || iv.RelWidth() > 1e-15 {
			t.Errorf("GaussianDelta(sigma=%g, count=%d, eps=%g) = %v, want %.17g (float64 closed form)", c.sigma, c.count, c.eps, iv, want)
		}
	}
}

// Law: count compositions of sigma equal one of sigma/sqrt(count) (exactly
// when count is a perfect square, so the float64 sigma is exact).
func TestGaussianComposition(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		count int
	}{{3, 9}, {10, 100}, {2, 4}} {
		for _, eps := range []float64{0.1, 1, 3} {
			a, _ := GaussianDelta(c.sigma, c.count, eps)
			b, _ := GaussianDelta(c.sigma/math.Sqrt(float64(c.count)), 1, eps)
			if a.Hi < b.Lo || b.Hi < a.Lo {
				t.Errorf("GaussianDelta(%g, %d, %g) = %v disjoint from GaussianDelta(%g, 1) = %v", c.sigma, c.count, eps, a, c.sigma/math.Sqrt(float64(c.count)), b)
			}
		}
	}
}

func TestGaussianEpsilon(t *testing.T) {
	// sigma = 1, delta = 1e-5: eps = 4.4224 (Balle-Wang analytic Gaussian;
	// checked here by delta(eps) on both sides).
	iv, err := GaussianEpsilon(1, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if iv.RelWidth() > 1e-10 {
		t.Errorf("GaussianEpsilon width %g", iv.RelWidth())
	}
	if d := gaussDelta64(1, 1, iv.Hi); d > 1e-5*(1+1e-9) {
		t.Errorf("delta(Hi=%g) = %g > 1e-5", iv.Hi, d)
	}
	if d := gaussDelta64(1, 1, iv.Lo); d < 1e-5*(1-1e-9) {
		t.Errorf("delta(Lo=%g) = %g < 1e-5", iv.Lo, d)
	}
}
