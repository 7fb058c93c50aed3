package rdpcheck

// Order limits of the sampled Gaussian mechanism (SGM, SGMCurve, and
// everything built on them). The cost of an integer order grows linearly
// with it; above MaxIntegerOrder both packages return an error wrapping
// ErrTooLarge, so the two packages accept the same integer orders.
const (
	// MaxIntegerOrder is the largest finite order SGM accepts, in fast and
	// in reference (where an integer order near it can take up to a minute
	// at tiny q).
	MaxIntegerOrder = 1 << 20

	// MaxFractionalOrder is the largest non-integer order reference.SGM
	// computes: its series for fractional orders grows in cost and working
	// precision with the order. fast has no such limit below
	// MaxIntegerOrder: above 1024 it returns an upper bound (the chord of
	// (alpha-1) SGM(alpha) between the integer orders around alpha), which
	// an accountant may use but a reference, which promises the value
	// itself, may not.
	MaxFractionalOrder = 10_000
)

// DefaultOrders returns dp_accounting's 156 default RDP orders: 1.1 to 10.9
// by 0.1 (each computed as 1 + x/10, so 2, 3, ... are exact integers), 11 to
// 63, 128, 256, 512 and 1024. A fresh slice is returned on each call.
func DefaultOrders() []float64 {
	o := make([]float64, 0, 156)
	for x := 1; x < 100; x++ {
		o = append(o, 1+float64(x)/10)
	}
	for a := 11; a < 64; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256, 512, 1024)
}
