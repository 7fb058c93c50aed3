package fast_test

import (
	"math"
	"slices"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// SGMCurve with out the same slice as orders: the engine kept each
// fractional order's window level in out, then read the order back from
// the same memory (negative RDP with a nil error).
func TestSGMCurveOutIsOrders(t *testing.T) {
	orders := []float64{1.5, 2, 2.5, 10.3, 64, 100.5, math.Inf(1)}
	want := make([]float64, len(orders))
	if err := fast.SGMCurve(0.01, 1.1, 1000, orders, want); err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(orders)
	if err := fast.SGMCurve(0.01, 1.1, 1000, got, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("SGMCurve(0.01, 1.1, 1000, o, o) = %v, want %v (o and out apart)", got, want)
	}
}
