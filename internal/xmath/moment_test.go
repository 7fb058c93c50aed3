package xmath

import (
	"math"
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
)

// h evaluated directly (float64 is enough away from t = 0, where the test
// stays): the functions HLower bounds from below.
func h(kind MomentKind, g, t float64) float64 {
	switch kind {
	case KLForward:
		return (1+t)*math.Log1p(t) - t
	case KLBackward:
		return t - math.Log1p(t)
	}
	return math.Pow(1+t, g) - 1 - g*t
}

func TestHLowerIsALowerBound(t *testing.T) {
	for _, kind := range []MomentKind{Pow, KLForward, KLBackward} {
		for _, g := range []float64{-3, -0.5, 1.5, 2, 8, 60} { // g = alpha > 1 or 1 - alpha < 0, where h >= 0
			for _, x := range []float64{-0.9, -0.5, -0.01, 0.01, 0.5, 3, 50} {
				lo, want := NewHLower(x, math.Log1p(x)).Log(kind, g), math.Log(h(kind, g, x))
				if !(lo <= want) {
					t.Errorf("HLower(%g).Log(%d, %g) = %g above log h = %g", x, kind, g, lo, want)
				}
			}
		}
	}
	if v := NewHLower(0, 0).Log(Pow, 2); !math.IsInf(v, -1) {
		t.Errorf("HLower(t=0) = %g, want -Inf", v)
	}
}

// TestHLowerNearMinusOne: where 1 + t is below float64's resolution of t,
// the bound must follow the given log(1+t), not 1 + t formed from t. At
// m = 1 + t = 1.34e-16 and g = -9, h = m^g - 1 - g t, which float64 gives
// to a few ulps (m^g = 7e143 dwarfs the rest); a bound from the rounded t
// (1 + t = 2^-53 = 1.11e-16) is (1.34/1.11)^9 = 5.4 times too high.
func TestHLowerNearMinusOne(t *testing.T) {
	const m = 1.34e-16
	tv := -1 + m // rounds to -1 + 2^-53 or -1
	for _, g := range []float64{-9, -100, -1227.5} {
		want := g*math.Log(m) + math.Log1p(-(1+g*tv)*math.Exp(-g*math.Log(m)))
		lo := NewHLower(tv, math.Log(m)).Log(Pow, g)
		if !(lo <= want && lo >= want-1) {
			t.Errorf("g=%g: HLower = %g, want a lower bound within a nat of log h = %g", g, lo, want)
		}
	}
}

// TestLogMix checks log(1 - q + q e^x) against math/big with
// github.com/ALTree/bigfloat (1 - q + q e^x formed at 300 bits), where
// 1 + q expm1(x) cancels (q near 1, x very negative) and where it does not.
func TestLogMix(t *testing.T) {
	for _, q := range []float64{1e-10, 0.3, 0.5, 0.9, 1 - 1e-10, 1 - 0x1p-53, 1} {
		for _, x := range []float64{-800, -38.31417624521093, -20, -1, -0x1p-30, 0, 1e-8, 2, 300} {
			got := LogMix(q, x)
			qb := new(big.Float).SetPrec(300).SetFloat64(q)
			m := bigfloat.Exp(new(big.Float).SetPrec(300).SetFloat64(x))
			m.Mul(m, qb)
			m.Add(m, new(big.Float).SetPrec(300).Sub(big.NewFloat(1).SetPrec(300), qb))
			if m.Sign() == 0 {
				t.Fatalf("q=%g x=%g: 1 - q + q e^x is 0", q, x)
			}
			want, _ := bigfloat.Log(m).Float64()
			if want == 0 {
				if got != 0 {
					t.Errorf("LogMix(%g, %g) = %g, want 0", q, x, got)
				}
				continue
			}
			if rel := math.Abs(got-want) / math.Abs(want); !(rel <= 8*0x1p-53) {
				t.Errorf("LogMix(%g, %g) = %.17g, want %.17g (rel %.2g)", q, x, got, want, rel)
			}
		}
	}
}

func TestLogAddExp(t *testing.T) {
	// log(e^1000 + e^1000) = 1000 + log 2, without overflow.
	if v, want := LogAddExp(1000, 1000), 1000+math.Ln2; math.Abs(v-want) > 1e-12 {
		t.Errorf("LogAddExp(1000, 1000) = %.17g, want %.17g", v, want)
	}
	if v := LogAddExp(math.Inf(-1), 3); v != 3 {
		t.Errorf("LogAddExp(-Inf, 3) = %g, want 3", v)
	}
	if v := LogAddExp(3, math.Inf(-1)); v != 3 {
		t.Errorf("LogAddExp(3, -Inf) = %g, want 3", v)
	}
}
