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

// BenchmarkWORCurveDefaultOrders times one WORGaussian curve (WBK19,
// Theorem 27, at every order) over the 156 default orders, with a
// caller-supplied output slice.
func BenchmarkWORCurveDefaultOrders(b *testing.B) {
	for _, c := range []struct {
		name     string
		q, sigma float64
	}{
		{"q=0.01,sigma=1.1", 0.01, 1.1},
		{"q=0.1,sigma=4", 0.1, 4},
		{"q=0.001,sigma=100", 0.001, 100},
	} {
		b.Run(c.name, func(b *testing.B) {
			orders := DefaultOrders()
			out := make([]float64, len(orders))
			b.ReportAllocs()
			for b.Loop() {
				if err := WORGaussianCurve(c.q, c.sigma, 1, orders, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
