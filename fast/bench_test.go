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

// BenchmarkAccountantCompose times one composition on the accountant's 156
// default orders, the accountant reused as a training loop reuses it (one
// step at a time): ComposeSGM, the same through Compose(SGMEvent), and a
// few other Compose<Name> methods.
func BenchmarkAccountantCompose(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func(a *Accountant) error
	}{
		{"ComposeSGM", func(a *Accountant) error { return a.ComposeSGM(0.01, 1.1, 1) }},
		{"Compose(SGMEvent)", func(a *Accountant) error { return a.Compose(SGMEvent(0.01, 1.1), 1) }},
		{"ComposeSGM/alternating", func(a *Accountant) error {
			if err := a.ComposeSGM(0.01, 1.1, 1); err != nil {
				return err
			}
			return a.ComposeSGM(0.001, 0.8, 1)
		}},
		{"ComposeGaussian", func(a *Accountant) error { return a.ComposeGaussian(10, 1) }},
		{"ComposePureDP", func(a *Accountant) error { return a.ComposePureDP(0.5, 1) }},
		{"ComposeWORGaussian", func(a *Accountant) error { return a.ComposeWORGaussian(0.01, 1.1, 1) }},
		{"ComposeSampledLaplace", func(a *Accountant) error { return a.ComposeSampledLaplace(0.01, 1, 1) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var a Accountant
			b.ReportAllocs()
			for b.Loop() {
				if err := c.f(&a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
