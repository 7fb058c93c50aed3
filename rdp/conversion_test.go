package rdp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConversionValid: exactly the two named conversions are valid.
func TestConversionValid(t *testing.T) {
	got := map[Conversion]bool{}
	for _, c := range []Conversion{-1, Classic, Improved, 2} {
		got[c] = c.Valid()
	}
	want := map[Conversion]bool{-1: false, Classic: true, Improved: true, 2: false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Valid (-want +got)\n%s", diff)
	}
}
