package xmath

import (
	"math"
	"testing"
)

// h evaluated directly (float64 is enough away from t = 0, where the test
// stays): the functions HLowerLog bounds from below.
func h(kind MomentKind, g, t float64) float64 {
	switch kind {
	case KLForward:
		return (1+t)*math.Log1p(t) - t
	case KLBackward:
		return t - math.Log1p(t)
	}
	return math.Pow(1+t, g) - 1 - g*t
}

func TestHLowerLogIsALowerBound(t *testing.T) {
	for _, kind := range []MomentKind{Pow, KLForward, KLBackward} {
		for _, g := range []float64{-3, -0.5, 1.5, 2, 8, 60} { // g = alpha > 1 or 1 - alpha < 0, where h >= 0
			for _, x := range []float64{-0.9, -0.5, -0.01, 0.01, 0.5, 3, 50} {
				lo, want := HLowerLog(kind, g, x), math.Log(h(kind, g, x))
				if !(lo <= want) {
					t.Errorf("HLowerLog(%d, %g, %g) = %g above log h = %g", kind, g, x, lo, want)
				}
			}
		}
	}
	if v := HLowerLog(Pow, 2, 0); !math.IsInf(v, -1) {
		t.Errorf("HLowerLog(t=0) = %g, want -Inf", v)
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
