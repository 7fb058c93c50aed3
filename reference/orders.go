package reference

import "github.com/rdpcheck/rdpcheck/rdp"

// MaxIntegerOrder and MaxFractionalOrder bound the orders the SGM functions
// accept (rdp.MaxIntegerOrder, the same in package fast, and
// rdp.MaxFractionalOrder, which only this package has: see there); the cost
// grows linearly in the order. Larger orders give ErrTooLarge.
const (
	MaxIntegerOrder    = rdp.MaxIntegerOrder
	MaxFractionalOrder = rdp.MaxFractionalOrder
)

// DefaultOrders returns dp_accounting's 156 default RDP orders, the same
// list as fast.DefaultOrders (see rdp.DefaultOrders). A fresh slice is
// returned on each call.
func DefaultOrders() []float64 { return rdp.DefaultOrders() }
