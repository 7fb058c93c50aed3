package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlots draws every picture and names each: the two charts and one
// heat map per peer version of vectors/tfprivacy/sgm_rdp.json.
func TestPlots(t *testing.T) {
	dir := t.TempDir()
	var stderr strings.Builder
	if code := run([]string{"-out", dir}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := []string{"dpsgd_curve.png", "composition.png", "heatmap_tfprivacy_2019.png", "heatmap_tfprivacy_2021.png", "heatmap_dp_accounting_0_6_0.png"}
	for _, name := range want {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() < 10000 {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(stderr.String(), "wrote "+filepath.Join(dir, name)+"\n") {
			t.Errorf("stderr does not name %s:\n%s", name, stderr.String())
		}
	}
	if n := strings.Count(stderr.String(), "wrote "); n != len(want) {
		t.Errorf("%d files written, want %d:\n%s", n, len(want), stderr.String())
	}
}

// TestPlotsUsage: an unknown flag or an argument is a usage error.
func TestPlotsUsage(t *testing.T) {
	for _, args := range [][]string{{"-outt", "x"}, {"docs"}} {
		var stderr strings.Builder
		if code := run(args, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage: go run ./cmd/plots") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and the usage", args, code, stderr.String())
		}
	}
}
