package dpevent

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/rdp"
	"github.com/rdpcheck/rdpcheck/reference"
)

// TestDPSGDReferenceEpsilonProgress: with a progress callback the curve is
// computed a tenth of the orders at a time, each tenth reported, and the
// answer is the same as without (what SGMCurve shares between orders does
// not change a value).
func TestDPSGDReferenceEpsilonProgress(t *testing.T) {
	var orders []float64
	for a := 2; a <= 24; a++ {
		orders = append(orders, float64(a))
	}
	p := Phase{Q: 0.01, Sigma: 2, Steps: 100}
	var done []int
	eps, order, err := DPSGDReferenceEpsilon(reference.Context{}, p, orders, 1e-5, reference.Improved, func(d, total int) {
		if total != len(orders) {
			t.Errorf("progress total %d, want %d", total, len(orders))
		}
		done = append(done, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	// 23 orders: tenths of ceil(23/10) = 3 orders.
	if diff := cmp.Diff([]int{3, 6, 9, 12, 15, 18, 21, 23}, done); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	eps0, order0, err := DPSGDReferenceEpsilon(reference.Context{}, p, orders, 1e-5, reference.Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	if eps.Cmp(eps0) != 0 || order != order0 {
		t.Errorf("with progress %s at %v, without %s at %v", eps.Text('g', 80), order, eps0.Text('g', 80), order0)
	}
	// No orders: the reference's input error, with or without progress.
	for _, pr := range []func(int, int){nil, func(int, int) {}} {
		if _, _, err := DPSGDReferenceEpsilon(reference.Context{}, p, nil, 1e-5, reference.Improved, pr); !errors.Is(err, rdp.ErrInput) {
			t.Errorf("no orders: %v, want an input error", err)
		}
	}
}
