package oracles

import "math"

// log64 is math.Log, correct also for subnormal x. Go's amd64 assembly Log
// does not normalise subnormals (golang/go#56600): math.Log(1e-310) gives
// -709.09 instead of -713.80. A subnormal is scaled into the normal range
// by an exact power of two first. This is the oracles' own copy of the
// workaround (fast and reference share internal/xmath): the oracles share
// no code with the implementations they check. Every float64 log of a
// quantity that can be subnormal (q, |beta| q, a term, a partial integral)
// goes through it.
func log64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p64) - 64*math.Ln2
	}
	return math.Log(x)
}
