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

// exactConv returns v*v with each entry summed in double-double (products
// by FMA, sums by TwoSum): within about n u^2 of the exact sum, far below
// the FFT's bounds.
func exactConv(v []float64) []float64 {
	r := make([]float64, 2*len(v)-1)
	for k := range r {
		var hi, lo float64
		for i := max(0, k-len(v)+1); i <= k && i < len(v); i++ {
			p := v[i] * v[k-i]
			pe := math.FMA(v[i], v[k-i], -p)
			s := hi + p
			bb := s - hi
			e := (hi - (s - bb)) + (p - bb)
			hi, lo = s, lo+e+pe
		}
		r[k] = hi + lo
	}
	return r
}

// The split square (H*H + R*(a + H)) of a narrow step on a long grid: its
// entries' absolute errors, against the double-double convolution, sum to
// at most its bound e1 in both vectors, and the bound is below the plain
// FFT's (the point of the split).
func TestSplitSquareBound(t *testing.T) {
	q, s, h := 1e-3, 1.0, 0x1p-14
	if testing.Short() {
		h = 0x1p-12 // a quarter of the cells; the exact convolution is quadratic
	}
	lam := tiltForDelta([]Phase{{q, s, 1000}}, 1e-5, false)
	kmin, cells, lt, rt, err := sgmCells(q, s, h, cut{lambda: lam, tail: 1e-16}, false)
	if err != nil {
		t.Fatal(err)
	}
	m := fromStep(buildStep(stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: kmin + 1, rightTail: rt}, h, lam))
	ru, rl, e1, ok := splitSquare(m.up, m.lo)
	if !ok {
		t.Fatalf("split not used (len %d)", len(m.up))
	}
	n := len(m.up)
	plain := convErr(nextPow2(2*n-1), m.up, m.lo, m.up, m.lo) * math.Sqrt(float64(2*n-1))
	if !(e1 < plain/2) {
		t.Errorf("split bound %.3g, plain %.3g", e1, plain)
	}
	for _, c := range []struct {
		name string
		got  []float64
		v    []float64
	}{{"up", ru, m.up}, {"lo", rl, m.lo}} {
		want := exactConv(c.v)
		var d float64
		for i := range want {
			d += math.Abs(c.got[i] - want[i])
		}
		if d > e1 {
			t.Errorf("%s: sum of errors %.3g > bound %.3g", c.name, d, e1)
		}
		t.Logf("%s: len %d, error %.3g, bound %.3g (plain %.3g)", c.name, n, d, e1, plain)
	}
}
