package pld

import (
	"math"
	"math/big"
	"testing"
)

func bigN0(z, w float64) float64 {
	a := bigNormTail(newF(200).SetFloat64(z), 120)
	b := bigNormTail(newF(200).SetFloat64(z+w), 120)
	if math.IsInf(w, 1) {
		b = newF(200)
	}
	d := newF(200).Sub(a, b)
	v, _ := d.Float64()
	return v
}

// normInt against the big.Float normal tail (exact inputs z and z+w are
// float64 sums here, so only z, w with z+w exact are used).
func TestNormalIntegrals(t *testing.T) {
	for _, c := range []struct{ z, w float64 }{
		{0, 0.25}, {1, 0.25}, {3, 0.125}, {10, 0.0078125}, {-2, 0.5}, {-5, 1}, {-0.5, 1}, {2, 3}, {-40, 1}, {30, 0.5}, {0.5, math.Inf(1)}, {38, 2}, {-1, math.Inf(1)},
	} {
		v := normInt(c.z, c.w)
		got := v.m * math.Exp(v.ls)
		want := bigN0(c.z, c.w)
		rel := v.err / math.Abs(v.m)
		if math.Abs(got-want) > (rel+1e-14)*want || rel > 1e-11 {
			t.Errorf("normInt(%g, %g) = %g (rel bound %g), want %g (bigNormTail)", c.z, c.w, got, rel, want)
		}
	}
}

// sSeries against the closed form in big.Float:
// S(a,c,w) = e^(-a' ... ) evaluated as J(a-c, w) - J(a, w) by quadrature
// at 1e5 Simpson nodes in big-free float64 (the integrand is smooth and the
// interval short: Simpson's error is below 1e-18 relative here).
func TestSSeries(t *testing.T) {
	for _, c := range []struct{ a, c, w float64 }{
		{0, 1, 0.1}, {3, -2, 0.1}, {-4, 2, 0.1}, {40, 2, 0.01}, {1, 1e-3, 1e-4}, {-1, -0.5, 0.5},
	} {
		got, rel := sSeries(c.a, c.c, c.w)
		f := func(t float64) float64 { return math.Exp(-c.a*t-t*t/2) * math.Expm1(c.c*t) }
		n := 20000
		hh := c.w / float64(n)
		s := f(0) + f(c.w)
		for i := 1; i < n; i++ {
			if i%2 == 1 {
				s += 4 * f(float64(i)*hh)
			} else {
				s += 2 * f(float64(i)*hh)
			}
		}
		want := s * hh / 3
		if math.Abs(got-want) > (rel+1e-12)*math.Abs(want) {
			t.Errorf("sSeries(%g, %g, %g) = %g, want %g (Simpson)", c.a, c.c, c.w, got, want)
		}
	}
	_ = big.NewFloat
}
