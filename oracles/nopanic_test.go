package oracles

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Arbitrary float64 inputs (NaN, +-Inf, negatives, huge, tiny) never
// panic: every function returns a value or an error.
func TestNoPanicOnArbitraryInput(t *testing.T) {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, -0.5, 0.5, 1, 2, 1e300, -1e300, 5e-324}
	anyF := rapid.Custom(func(t *rapid.T) float64 {
		if rapid.Bool().Draw(t, "special") {
			return rapid.SampledFrom(special).Draw(t, "s")
		}
		return rapid.Float64().Draw(t, "f")
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b, c, d, e := anyF.Draw(t, "a"), anyF.Draw(t, "b"), anyF.Draw(t, "c"), anyF.Draw(t, "d"), anyF.Draw(t, "e")
		_, _ = GaussianClosed(a, b, c, d, e, 64)
		_, _ = LaplaceClosed(a, b, 64)
		_, _ = RandomizedResponseClosed(a, b, 64)
		_, _, _, _ = SGMMonteCarlo(a, b, c, 10, 1)
		// Quadratures only on inputs that are invalid or cheap: the
		// validation must catch the rest before any work is done.
		if !(a >= 0 && a <= 1) || !(b > 0) || math.IsInf(b, 0) || !(c > 1) || math.IsInf(c, 0) {
			_, _, _ = SGMQuad(a, b, c, 64)
			_, _ = SGMMoment(a, b, c, 64)
			_, _ = SGMQuadFloat64(a, b, c)
		}
		if !(b > 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsInf(a, 0) {
			_, _ = GaussianQuad(a, b, c, d, e, 64)
			_, _ = LaplaceQuad(b, e, 64)
		}
	})
	// discrete: nil and empty slices
	_, _ = DiscreteRenyiRat(nil, []*big.Rat{nil}, 2, 64)
}

// Valid but extreme inputs: each call returns a value or an error (no
// panic), within a few seconds, and finite answers are not +Inf.
func TestExtremeValidInputs(t *testing.T) {
	type call struct {
		name string
		f    func() (*big.Float, error)
	}
	b2 := func(f func() (*big.Float, *big.Float, error)) func() (*big.Float, error) {
		return func() (*big.Float, error) { x, _, err := f(); return x, err }
	}
	calls := []call{
		{"LaplaceClosed(1e-300, 2)", func() (*big.Float, error) { return LaplaceClosed(1e-300, 2, 128) }},
		{"LaplaceClosed(1e300, 2)", func() (*big.Float, error) { return LaplaceClosed(1e300, 2, 128) }},
		{"LaplaceClosed(1, 1e300)", func() (*big.Float, error) { return LaplaceClosed(1, 1e300, 128) }},
		{"LaplaceClosed(1e-10, 0.3)", func() (*big.Float, error) { return LaplaceClosed(1e-10, 0.3, 128) }},
		{"LaplaceClosed(1e-10, 1)", func() (*big.Float, error) { return LaplaceClosed(1e-10, 1, 128) }},
		{"RR(1e-300, 2)", func() (*big.Float, error) { return RandomizedResponseClosed(1e-300, 2, 128) }},
		{"RR(0.3, 1e300)", func() (*big.Float, error) { return RandomizedResponseClosed(0.3, 1e300, 128) }},
		{"RR(0.3, 1e-300)", func() (*big.Float, error) { return RandomizedResponseClosed(0.3, 1e-300, 128) }},
		{"GaussianClosed(0,1e-300,1e300,1e300,2)", func() (*big.Float, error) { return GaussianClosed(0, 1e-300, 1e300, 1e300, 2, 128) }},
		{"GaussianClosed(0,1,1,1,1e300)", func() (*big.Float, error) { return GaussianClosed(0, 1, 1, 1, 1e300, 128) }},
		{"GaussianClosed(0,1,1,2,1e-300)", func() (*big.Float, error) { return GaussianClosed(0, 1, 1, 2, 1e-300, 128) }},
		{"GaussianQuad(0,1,1e6,1,2)", func() (*big.Float, error) { return GaussianQuad(0, 1, 1e6, 1, 2, 128) }},
		{"GaussianQuad(0,1e-100,1e-100,1e-100,2)", func() (*big.Float, error) { return GaussianQuad(0, 1e-100, 1e-100, 1e-100, 2, 128) }},
		{"LaplaceQuad(1e-9, 2)", func() (*big.Float, error) { return LaplaceQuad(1e-9, 2, 128) }},
		{"LaplaceQuad(1e9, 0.3)", func() (*big.Float, error) { return LaplaceQuad(1e9, 0.3, 128) }},
		{"SGMQuad(1e-300, 0.5, 2)", b2(func() (*big.Float, *big.Float, error) { return SGMQuad(1e-300, 0.5, 2, 128) })},
		{"SGMQuad(0.5, 1e-3, 2)", b2(func() (*big.Float, *big.Float, error) { return SGMQuad(0.5, 1e-3, 2, 128) })},
		{"SGMQuad(0.5, 1e6, 1+1e-7)", b2(func() (*big.Float, *big.Float, error) { return SGMQuad(0.5, 1e6, 1+1e-7, 128) })},
		{"SGMQuad(0.5, 1, 1e6)", b2(func() (*big.Float, *big.Float, error) { return SGMQuad(0.5, 1, 1e6, 128) })},
		{"SGMQuad(1-1e-16, 0.1, 2)", b2(func() (*big.Float, *big.Float, error) { return SGMQuad(1-1e-16, 0.1, 2, 128) })},
	}
	for _, c := range calls {
		t0 := time.Now()
		v, err := c.f()
		el := time.Since(t0)
		if el > 5*time.Second {
			t.Errorf("%s took %v", c.name, el)
		}
		if err == nil && (v == nil || v.IsInf()) {
			t.Errorf("%s = %v with nil error", c.name, v)
		}
		t.Logf("%s = %v, %v (%v)", c.name, v, err, el.Round(time.Millisecond))
	}
}
