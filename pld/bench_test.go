package pld

import "testing"

func benchEps(b *testing.B, ph []Phase, o Options) {
	for i := 0; i < b.N; i++ {
		iv, err := SGMEpsilon(ph, 1e-5, o)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(iv.RelWidth(), "width")
	}
}

// The speed goal: a 10,000-step run at the default width.
func BenchmarkSGMEpsilon10k(b *testing.B) {
	benchEps(b, []Phase{{256.0 / 60000, 1.1, 10000}}, Options{})
}

func BenchmarkSGMEpsilon10kH4096(b *testing.B) {
	benchEps(b, []Phase{{256.0 / 60000, 1.1, 10000}}, Options{H: 1.0 / 4096})
}

func BenchmarkSGMEpsilon1000(b *testing.B) {
	benchEps(b, []Phase{{0.01, 0.8, 1000}}, Options{})
}

func BenchmarkGaussianEpsilon(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := GaussianEpsilon(1.1, 100, 1e-5); err != nil {
			b.Fatal(err)
		}
	}
}
