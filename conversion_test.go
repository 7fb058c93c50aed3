package rdpcheck

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

// TestParseNames: each name String gives reads back to its value (the
// vector files' names, "classic" and "one-tree", written out as the
// schema's enum has them); any other name reads as an invalid value.
func TestParseNames(t *testing.T) {
	got := map[string]bool{}
	for name, want := range map[string]Conversion{"classic": Classic, "improved": Improved} {
		got[name] = ParseConversion(name) == want
	}
	for name, want := range map[string]TreeRestarts{"one-tree": TreeOneTree, "every-tree": TreeEveryTree} {
		got[name] = ParseTreeRestarts(name) == want
	}
	for _, bad := range []string{"", "Classic", "all-trees", "Conversion(0)"} {
		got["invalid "+bad] = !ParseConversion(bad).Valid() && !ParseTreeRestarts(bad).Valid()
	}
	for name, ok := range got {
		if !ok {
			t.Errorf("%q read wrong", name)
		}
	}
}
