package rdpcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultOrders checks the list against dp_accounting's
// DEFAULT_RDP_ORDERS ([1 + x / 10.0 for x in range(1, 100)] +
// list(range(11, 64)) + [128, 256, 512, 1024], in
// dp_accounting/rdp/rdp_privacy_accountant.py), written out here entry by
// entry in the same arithmetic.
func TestDefaultOrders(t *testing.T) {
	var want []float64
	for x := 1.0; x < 100; x++ {
		want = append(want, 1+x/10)
	}
	for a := 11.0; a < 64; a++ {
		want = append(want, a)
	}
	want = append(want, 128, 256, 512, 1024)
	got := DefaultOrders()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("DefaultOrders (-want +got)\n%s", diff)
	}
	if len(got) != 156 || got[9] != 2 || got[0] != 1.1 {
		t.Errorf("len %d, got[0] %v, got[9] %v: want 156 orders from 1.1 with 2 exact", len(got), got[0], got[9])
	}
	got[0] = 7
	if DefaultOrders()[0] != 1.1 {
		t.Error("DefaultOrders shares its slice between calls")
	}
}
