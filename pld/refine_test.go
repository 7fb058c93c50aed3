package pld

import (
	"strings"
	"testing"
)

// TestRefineComposesOnlyWhatSetsTheAnswer: at q = 0.001, sigma = 1, 10^7
// steps, delta = 1e-5, Width 2e-4, both directions are composed at the
// first grid (2^-12), where their intervals overlap; the remove direction
// then needs finer grids to reach the width, and its new lower end at the
// first of them already clears the add direction's upper end from 2^-12.
// The add direction is therefore composed once (before, it was composed
// again at 2^-15 beside the remove direction: 17.8 s of CPU against 11.3 s).
func TestRefineComposesOnlyWhatSetsTheAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("about 11 s of CPU: the default tier runs it")
	}
	var lines []string
	o := Options{Width: 2e-4, Progress: func(m string) { lines = append(lines, m) }}
	iv, err := SGMEpsilon([]Phase{{0.001, 1, 10_000_000}}, 1e-5, o)
	if err != nil {
		t.Fatal(err)
	}
	if w := iv.RelWidth(); !(w <= 2e-4) {
		t.Errorf("width %g, want <= 2e-4", w)
	}
	n1 := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "direction 1:") {
			n1++
		}
	}
	if n1 != 1 {
		t.Errorf("direction 1 composed %d times, want 1 (the first grid): %q", n1, lines)
	}
}
