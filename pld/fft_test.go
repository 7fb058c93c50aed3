package pld

import (
	"math"
	"math/rand"
	"testing"
)

// The FFT convolution against the direct sum, with its error bound.
func TestConvPairBound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 7, 100, 1000, 5000} {
		mk := func() []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.ExpFloat64() * math.Exp(-float64(i%50))
			}
			return v
		}
		a1, a2, b1, b2 := mk(), mk(), mk(), mk()
		ra, rb, err := convPair(a1, a2, b1, b2, false)
		direct := func(a, b []float64) []float64 {
			r := make([]float64, len(a)+len(b)-1)
			for i := range a {
				for j := range b {
					r[i+j] += a[i] * b[j]
				}
			}
			return r
		}
		da, db := direct(a1, b1), direct(a2, b2)
		worst := 0.0
		var l2a, l2b float64
		for i := range da {
			worst = math.Max(worst, math.Max(math.Abs(ra[i]-da[i]), math.Abs(rb[i]-db[i])))
			l2a += (ra[i] - da[i]) * (ra[i] - da[i])
			l2b += (rb[i] - db[i]) * (rb[i] - db[i])
		}
		// the direct sums are themselves within ~n u of exact
		if worst > err {
			t.Errorf("n=%d: FFT convolution error %g exceeds bound %g", n, worst, err)
		}
		// compose.go uses err as a bound on the error vector's 2-norm
		if l := math.Sqrt(math.Max(l2a, l2b)); l > err {
			t.Errorf("n=%d: FFT convolution error's 2-norm %g exceeds bound %g", n, l, err)
		}
		if err > 1e-11*float64(n) {
			t.Errorf("n=%d: bound %g implausibly large", n, err)
		}
		sa, sb, serr := convPair(a1, a2, a1, a2, true)
		sda, sdb := direct(a1, a1), direct(a2, a2)
		for i := range sda {
			if math.Abs(sa[i]-sda[i]) > serr || math.Abs(sb[i]-sdb[i]) > serr {
				t.Fatalf("n=%d square: entry %d error above bound %g", n, i, serr)
			}
		}
	}
}
