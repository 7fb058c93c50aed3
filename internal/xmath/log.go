// Package xmath holds float64 helpers that package fast and package
// reference both need (workarounds and planning bounds), so that each fix
// lives in one place. Package oracles
// keeps its own copies: it shares no code with the implementations it checks.
package xmath

import "math"

// Log is math.Log, correct also for subnormal x. Go's amd64 assembly Log
// does not normalise subnormals (golang/go#56600): math.Log(1e-310) gives
// -709.09 instead of -713.80, and math.Log(5e-324) -709.09 instead of
// -744.44. A subnormal is scaled into the normal range by an exact power of
// two first; the result is then within 2 ulps of log x.
//
// Special cases are those of math.Log: Log(+Inf) = +Inf, Log(0) = -Inf,
// Log(x < 0) = NaN, Log(NaN) = NaN.
func Log(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p64) - 64*math.Ln2
	}
	return math.Log(x)
}
