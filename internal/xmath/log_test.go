package xmath

import (
	"math"
	"testing"
)

// Expected values: mpmath.log at 50 digits of the exact double (mpmath 1.3,
// mp.dps = 50), rounded to float64.
var logTests = []struct {
	x, want float64
	note    string
}{
	{1e-310, -713.8013788281542, "subnormal: amd64 math.Log gives -709.09 (golang/go#56600)"},
	{5e-324, -744.4400719213812, "smallest subnormal"},
	{0x1p-1074, -744.4400719213812, "smallest subnormal, as a power of two"},
	{0x1p-1023, -709.0895657128241, "largest binade of subnormals"},
	{0x1p-1022, -708.3964185322641, "smallest normal: math.Log itself"},
	{0.5, -0.6931471805599453, "normal"},
}

func TestLog(t *testing.T) {
	for _, tc := range logTests {
		got := Log(tc.x)
		if d := math.Abs(got-tc.want) / math.Abs(tc.want); d > 4e-16 {
			t.Errorf("Log(%g) = %.17g, want %.17g (%s)", tc.x, got, tc.want, tc.note)
		}
	}
}

func TestLogSpecialCases(t *testing.T) {
	if v := Log(0); !math.IsInf(v, -1) {
		t.Errorf("Log(0) = %g, want -Inf", v)
	}
	if v := Log(math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("Log(+Inf) = %g, want +Inf", v)
	}
	for _, x := range []float64{-1, -5e-324, math.NaN()} {
		if v := Log(x); !math.IsNaN(v) {
			t.Errorf("Log(%g) = %g, want NaN", x, v)
		}
	}
}
