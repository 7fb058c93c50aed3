package reference

import "testing"

// dpAccountingOrders are dp_accounting's 156 default orders: 1.1 to 10.9 by
// 0.1, 11 to 63, 128, 256, 512, 1024. Each is the float64 nearest the
// decimal, as Python's 1 + x / 10.0 gives.
func dpAccountingOrders() []float64 {
	var o []float64
	for i := 11; i <= 109; i++ {
		o = append(o, float64(i)/10)
	}
	for a := 11; a <= 63; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256, 512, 1024)
}

// BenchmarkCurveDefaultOrders is the reference's whole RDP curve at the
// default precision (256 bits), q = 0.01, sigma = 1.1, orders in parallel.
func BenchmarkCurveDefaultOrders(b *testing.B) {
	orders := dpAccountingOrders()
	if len(orders) != 156 {
		b.Fatalf("%d orders", len(orders))
	}
	for b.Loop() {
		if _, err := SGMCurve(0.01, 1.1, 1, orders); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWORCurveDefaultOrders is the reference's WORGaussian curve (WBK19,
// Theorem 27) over the 156 default orders at 256 bits; the target is at
// most 30 s a curve on 2 cores.
func BenchmarkWORCurveDefaultOrders(b *testing.B) {
	orders := dpAccountingOrders()
	for _, c := range []struct {
		name     string
		q, sigma float64
	}{
		{"q=0.01,sigma=1.1", 0.01, 1.1},
		{"q=0.1,sigma=4", 0.1, 4},
		{"q=0.001,sigma=100", 0.001, 100},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := (Context{Prec: 256}).WORGaussianCurve(c.q, c.sigma, 1, orders); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDivergenceFarTerms is Divergence at an order where one term of
// the log-sum-exp is 2^-1e9 of the largest (alpha = 1e6, q = 1e-300): the
// term is dropped as below the working precision rather than added, which
// took big.Float 2 s and 125 MB of shifting.
func BenchmarkDivergenceFarTerms(b *testing.B) {
	c := Context{Prec: 128}
	for b.Loop() {
		if _, err := c.Divergence([]float64{0.5, 0.5}, []float64{1e-300, 1}, 1e6); err != nil {
			b.Fatal(err)
		}
	}
}
