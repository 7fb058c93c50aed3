package fast

import "github.com/rdpcheck/rdpcheck/rdp"

// MaxIntegerOrder is the largest finite order SGM accepts (rdp.MaxIntegerOrder,
// the same in package reference); the cost of an integer order is O(alpha).
// Larger orders give an error wrapping ErrTooLarge.
const MaxIntegerOrder = rdp.MaxIntegerOrder

// DefaultOrders returns dp_accounting's 156 default RDP orders (see
// rdp.DefaultOrders): 1.1 to 10.9 by 0.1, 11 to 63, 128, 256, 512 and 1024.
// A fresh slice is returned on each call.
func DefaultOrders() []float64 { return rdp.DefaultOrders() }

// defaultOrders is the shared read-only copy used by the zero Accountant.
var defaultOrders = DefaultOrders()
