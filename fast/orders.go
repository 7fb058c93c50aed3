package fast

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

// defaultOrders is the shared read-only copy used by the zero Accountant.
var defaultOrders = DefaultOrders()
