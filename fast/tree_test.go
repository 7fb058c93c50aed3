package fast_test

import (
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// fast's count against reference's (the reference is checked against a
// brute force in its own tests), exactly, and the value at or above the
// reference within 8 ulps.
func TestTreeAgainstReference(t *testing.T) {
	// The last rows have a separation beyond the leaves: one
	// participation, and no tables of (s+1)^2 entries (caught: s = 2^20
	// at n = 3 asked for 16 TiB, TestContractSpecialInputs).
	for _, c := range [][3]int{{0, 1, 1}, {1, 1, 0}, {16, 3, 2}, {37, 6, 3}, {100, 5, 10}, {1000, 4, 50}, {1 << 30, 3, 7},
		{3, 1 << 53, 1 << 20}, {1000, 5, 5000}, {1 << 20, 3, math.MaxInt}} {
		got, err := fast.TreeSensitivitySquareSum(c[0], c[1], c[2])
		want, err2 := reference.TreeSensitivitySquareSum(c[0], c[1], c[2])
		if err != nil || err2 != nil || got != want {
			t.Errorf("TreeSensitivitySquareSum%v = %d, %v; reference %d, %v", c, got, err, want, err2)
		}
	}
	for _, sigma := range []float64{0.1, 0.7, 1.3, 17} {
		for _, a := range append(fast.DefaultOrders(), 0, 0.5, 1e300) {
			for _, steps := range [][]int{{1}, {100, 3, 0}, {1 << 40}} {
				for _, r := range []fast.TreeRestarts{fast.TreeOneTree, fast.TreeEveryTree} {
					got, err := fast.TreeAggregation(sigma, steps, r, a)
					if err != nil {
						t.Fatal(err)
					}
					ref, err := reference.TreeAggregation(sigma, steps, r, a)
					if err != nil {
						t.Fatal(err)
					}
					w, _ := ref.Float64()
					if got < w || got > w*(1+8*0x1p-53) {
						t.Errorf("TreeAggregation(%g, %v, %g, %v) = %v, reference %v", sigma, steps, a, r, got, w)
					}
				}
			}
		}
	}
	// The curve's per-order shortcut, at or above the reference within 8 ulps.
	orders := append(fast.DefaultOrders(), 0, 0.5, 1e300, math.Inf(1))
	out := make([]float64, len(orders))
	for _, sigma := range []float64{1e-200, 0.1, 1.3, 1e200} {
		if err := fast.TreeAggregationCurve(sigma, []int{1000, 5}, fast.TreeEveryTree, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			ref, err := reference.TreeAggregation(sigma, []int{1000, 5}, reference.TreeEveryTree, a)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := ref.Float64()
			if out[i] < w || (!math.IsInf(w, 1) && out[i] > w*(1+8*0x1p-53)+0x1p-1070) {
				t.Errorf("TreeAggregationCurve(%g) at %g = %v, reference %v", sigma, a, out[i], w)
			}
		}
	}
	if v, _ := fast.TreeAggregation(1, []int{5}, fast.TreeOneTree, math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("alpha = +Inf: %v", v)
	}
}

func BenchmarkTreeAggregationCurve(b *testing.B) {
	orders := fast.DefaultOrders()
	out := make([]float64, len(orders))
	steps := []int{1000, 1000, 17}
	b.ReportAllocs()
	for b.Loop() {
		if err := fast.TreeAggregationCurve(1.1, steps, fast.TreeEveryTree, orders, out); err != nil {
			b.Fatal(err)
		}
	}
}
