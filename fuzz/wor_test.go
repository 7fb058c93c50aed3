package fuzz

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// FuzzWORGaussian: fast.WORGaussian on any float64 inputs returns a typed
// error exactly where the domain says (ErrInput; ErrTooLarge above
// rdpcheck.MaxWOROrder) and otherwise a value >= 0, never NaN; where the
// reference is cheap (orders <= 64, sigma in [0.3, 100], q >= 1e-12) the
// value is at or above the reference and within 1e-12 of it. Seeds: the
// cancelling corner (sigma = 100), dp_accounting's 5e-8 point, orders
// between 1 and 2, the domain's edges.
func FuzzWORGaussian(f *testing.F) {
	for _, s := range [][3]float64{
		{0.1, 9.5, 71}, {1e-10, 100, 64}, {0.01, 1.1, 1.5}, {0.5, 0.3, 33}, {1, 2, 3}, {0, 2, 3},
		{0.01, 1.1, math.Inf(1)}, {0.01, 1.1, 1025}, {0.5, 1e-3, 100}, {0.5, 1e-160, 3}, {0.01, 0, 2}, {math.NaN(), 1, 2}, {0.01, 1, 0.999},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, q, s, a float64) {
		v, err := fast.WORGaussian(q, s, a)
		valid := q >= 0 && q <= 1 && s > 0 && !math.IsInf(s, 1) && a >= 1
		switch {
		case !valid:
			if !errors.Is(err, fast.ErrInput) {
				t.Fatalf("fast.WORGaussian(%v, %v, %v) = %v, %v: want an InputError", q, s, a, v, err)
			}
			return
		case a > rdpcheck.MaxWOROrder && !math.IsInf(a, 1):
			if !errors.Is(err, fast.ErrTooLarge) {
				t.Fatalf("fast.WORGaussian(%v, %v, %v) = %v, %v: want ErrTooLarge", q, s, a, v, err)
			}
			return
		case err != nil:
			// fast may refuse a sigma too small for float64 (ErrTooLarge),
			// never with an untyped error.
			if !errors.Is(err, fast.ErrTooLarge) {
				t.Fatalf("fast.WORGaussian(%v, %v, %v): untyped error %v", q, s, a, err)
			}
			return
		case math.IsNaN(v) || v < 0:
			t.Fatalf("fast.WORGaussian(%v, %v, %v) = %v", q, s, a, v)
		}
		if !(q >= 1e-12 && s >= 0.3 && s <= 100 && a <= 64) {
			return
		}
		r, err := ref64.WORGaussian(q, s, a)
		if err != nil {
			t.Fatalf("reference.WORGaussian(%v, %v, %v): %v", q, s, a, err)
		}
		d := new(big.Float).SetPrec(128).Sub(big.NewFloat(v), r)
		if r.Sign() != 0 {
			d.Quo(d, r)
		}
		rel, _ := d.Float64()
		if rel < -refErr || rel > 1e-12 {
			t.Fatalf("fast.WORGaussian(%v, %v, %v) = %v, reference %s: relative %.3g", q, s, a, v, r.Text('g', 20), rel)
		}
	})
}
