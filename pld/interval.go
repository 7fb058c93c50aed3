package pld

import "fmt"

// Interval is a certified enclosure [Lo, Hi] of a real number: the true
// value v satisfies Lo <= v <= Hi. Lo and Hi are float64 values; Lo may be
// 0 (for delta) or -Inf/0 (for eps) when nothing better is proven, and Hi
// may be +Inf.
type Interval struct {
	Lo, Hi float64
}

// Contains reports whether Lo <= v <= Hi.
func (iv Interval) Contains(v float64) bool { return iv.Lo <= v && v <= iv.Hi }

// RelWidth returns Hi/Lo - 1 (+Inf when Lo <= 0).
func (iv Interval) RelWidth() float64 {
	if iv.Lo <= 0 {
		if iv.Hi == iv.Lo {
			return 0
		}
		return inf
	}
	return iv.Hi/iv.Lo - 1
}

func (iv Interval) String() string { return fmt.Sprintf("[%.10g, %.10g]", iv.Lo, iv.Hi) }
