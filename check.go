package rdpcheck

import (
	"fmt"
	"math"
)

// The argument checks of the domain table (doc.go) that fast and reference
// make alike, written once: an argument outside the domain is refused with
// the same InputError (but for Pkg) by both packages, whatever the value.
// The values themselves stay each package's own: a check decides only
// whether an argument is in the table's domain, never what the function
// returns. Where reference recomputes something a check could also hand
// back (the depth of a tree), it keeps its own copy, written from the
// definition, so that fast and the reference never share a computed
// number (see TreeAggregation in reference/tree.go).

// NewInputError returns the InputError of package pkg's function fn for
// argument arg = v, which must be as msg says.
func NewInputError(pkg, fn, arg string, v float64, msg string) *InputError {
	return &InputError{Pkg: pkg, Func: fn, Arg: arg, Value: v, Msg: msg}
}

// CheckTree checks TreeAggregation's arguments (the table's row): sigma
// finite and > 0, a non-empty step list with no negative count, a known
// reading.
func CheckTree(pkg, fn string, sigma float64, steps []int, restarts TreeRestarts) error {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return NewInputError(pkg, fn, "sigma", sigma, "must be finite and > 0")
	}
	if len(steps) == 0 {
		return NewInputError(pkg, fn, "steps", math.NaN(), "must be a non-empty list")
	}
	if !restarts.Valid() {
		return NewInputError(pkg, fn, "restarts", float64(restarts), "unknown reading")
	}
	for i, s := range steps {
		if s < 0 {
			return NewInputError(pkg, fn, fmt.Sprintf("steps[%d]", i), float64(s), "must be >= 0")
		}
	}
	return nil
}

// CheckCurve checks the arguments of a conversion of an RDP curve (Epsilon,
// Delta, GroupPrivacy, ...): orders and n RDP values, non-empty and of one
// length, a known conv, every order > 1 (or +Inf) and every RDP value >= 0
// (or +Inf), index by index. value(i) gives RDP value i as a float64 (NaN
// where it has none) and whether it is >= 0: the packages hold the values
// in their own types.
func CheckCurve(pkg, fn string, orders []float64, n int, conv Conversion, value func(i int) (v float64, ok bool)) error {
	if len(orders) == 0 || len(orders) != n {
		return NewInputError(pkg, fn, "orders, rdp", math.NaN(),
			fmt.Sprintf("must be non-empty and of equal length (have %d and %d)", len(orders), n))
	}
	if !conv.Valid() {
		return NewInputError(pkg, fn, "conv", float64(conv), "unknown conversion")
	}
	for i, a := range orders {
		if math.IsNaN(a) || a <= 1 {
			return NewInputError(pkg, fn, fmt.Sprintf("orders[%d]", i), a, "order must be > 1 (or +Inf)")
		}
		if v, ok := value(i); !ok {
			return NewInputError(pkg, fn, fmt.Sprintf("rdp[%d]", i), v, "RDP must be >= 0 (or +Inf)")
		}
	}
	return nil
}
