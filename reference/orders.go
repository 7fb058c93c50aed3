package reference

import "github.com/rdpcheck/rdpcheck"

// MaxIntegerOrder and MaxFractionalOrder bound the orders the SGM functions
// accept (rdpcheck.MaxIntegerOrder, the same in package fast, and
// rdpcheck.MaxFractionalOrder, which only this package has: see there); the cost
// grows linearly in the order. Larger orders give ErrTooLarge.
const (
	MaxIntegerOrder    = rdpcheck.MaxIntegerOrder
	MaxFractionalOrder = rdpcheck.MaxFractionalOrder
)

// DefaultOrders returns dp_accounting's 156 default RDP orders, the same
// list as fast.DefaultOrders (see rdpcheck.DefaultOrders). A fresh slice is
// returned on each call.
func DefaultOrders() []float64 { return rdpcheck.DefaultOrders() }
