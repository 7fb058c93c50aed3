package fast

import "testing"

// BenchmarkCurveDefaultOrders times one RDP curve of the sampled Gaussian
// over the 156 default orders, with a caller-supplied output slice.
func BenchmarkCurveDefaultOrders(b *testing.B) {
	for _, c := range []struct {
		name     string
		q, sigma float64
	}{
		{"q=0.01,sigma=1.1", 0.01, 1.1},
		{"q=0.001,sigma=0.8", 0.001, 0.8},
		{"q=0.1,sigma=2", 0.1, 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			orders := DefaultOrders()
			out := make([]float64, len(orders))
			b.ReportAllocs()
			for b.Loop() {
				if err := SGMCurve(c.q, c.sigma, 1, orders, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
