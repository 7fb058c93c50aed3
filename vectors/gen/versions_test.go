package gen

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// TestChangelog: a changed answer at an unchanged version is refused; at a
// raised version it is recorded with the tcIds added, changed and removed,
// newest entry first; a tcId that would ask another question is refused
// at any version.
func TestChangelog(t *testing.T) {
	old := []byte("f.json 1\n  1 q1 a1\n  2 q2 a2\n  3 q3 a3\n  4 q4 a4\n")
	log := []byte("# Changes\n\nintro\n\n## f.json version 1\n\n- first version: 4 tests\n")
	changed := "  1 q1 a1\n  2 q2 B\n  3 q3 a3\n  5 q5 a5\n  6 q6 a6\n"
	if _, err := Changelog(old, []byte("f.json 1\n"+changed), log); err == nil || !strings.Contains(err.Error(), "raise its version") {
		t.Errorf("changed tests at version 1: %v, want a refusal", err)
	}
	got, err := Changelog(old, []byte("f.json 2\n"+changed), log)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Changes\n\nintro\n\n## f.json version 2\n\n- added: 5-6\n- answers changed (expected value, interval or shortcut): 2\n- removed: 4\n\n## f.json version 1\n\n- first version: 4 tests\n"
	if string(got) != want {
		t.Errorf("changelog:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Changelog(old, []byte("f.json 2\n  1 other a1\n  2 q2 a2\n  3 q3 a3\n  4 q4 a4\n"), log); err == nil || !strings.Contains(err.Error(), "never changes meaning") {
		t.Errorf("tcId 1 asking another question: %v, want a refusal", err)
	}
	if got, err := Changelog(old, old, log); err != nil || string(got) != string(log) {
		t.Errorf("nothing changed: %q, %v; want the changelog as it was", got, err)
	}
}

// TestGaussianLineShortcut: the WOR bound's shortcut is alpha/(2 sigma^2)
// rounded up (3/8 at sigma 2, alpha 3, a dyadic rational, so the exact
// value is known), offered only where it is below the theorem's value.
func TestGaussianLineShortcut(t *testing.T) {
	three8 := big.NewFloat(0.375)
	sc := gaussianLineShortcut(2, 3, big.NewFloat(0.5))
	if sc == nil {
		t.Fatal("no shortcut below a larger theorem value")
	}
	v, err := schema.ParseExact(sc.Value)
	cap, _ := schema.ParseExact("3.75000000000000000000000000000000000000001e-01") // 0.375 (1 + 3e-41)
	if err != nil || v.Cmp(three8) < 0 || v.Cmp(cap) > 0 {
		t.Errorf("shortcut %s (%v), want 0.375 rounded up", sc.Value, err)
	}
	for _, c := range []struct {
		sigma, alpha float64
		want         *big.Float
	}{
		{2, 3, big.NewFloat(0.375)},                    // not below: no shortcut
		{2, 3, big.NewFloat(0.3)},                      // above the theorem's value
		{2, math.Inf(1), new(big.Float).SetInf(false)}, // +inf order
	} {
		if sc := gaussianLineShortcut(c.sigma, c.alpha, c.want); sc != nil {
			t.Errorf("sigma %v alpha %v want %v: shortcut %v, want none", c.sigma, c.alpha, c.want, sc)
		}
	}
}
