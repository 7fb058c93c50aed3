package fast

import (
	"slices"

	"github.com/rdpcheck/rdpcheck"
)

// MaxIntegerOrder is the largest finite order SGM accepts (rdpcheck.MaxIntegerOrder,
// the same in package reference); the cost of an integer order is O(alpha).
// Larger orders give an error wrapping ErrTooLarge.
const MaxIntegerOrder = rdpcheck.MaxIntegerOrder

// DefaultOrders returns dp_accounting's 156 default RDP orders (see
// rdpcheck.DefaultOrders): 1.1 to 10.9 by 0.1, 11 to 63, 128, 256, 512 and 1024.
// A fresh slice is returned on each call.
func DefaultOrders() []float64 { return rdpcheck.DefaultOrders() }

// defaultOrders is the shared read-only copy used by the zero Accountant
// and the calibrations; it is never handed to an Event of the caller.
var defaultOrders = DefaultOrders()

// unaliased returns in, or a copy of it where it shares memory with out:
// every function of this package that fills an out slice takes its input
// slices through it first, so that out may be the same slice as an input,
// or overlap it, and the input is still read as it was at the call.
func unaliased(in, out []float64) []float64 {
	if overlaps(in, out) {
		return slices.Clone(in)
	}
	return in
}

// overlaps reports whether a and b share an element: exactly when the
// first element of one lies in the other.
func overlaps(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for i := range a {
		if &a[i] == &b[0] {
			return true
		}
	}
	for i := range b {
		if &b[i] == &a[0] {
			return true
		}
	}
	return false
}
