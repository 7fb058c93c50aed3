package gen

import (
	"bytes"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// cheapFiles regenerate in seconds; -short regenerates only the first.
func cheapFiles() map[string]bool {
	if testing.Short() {
		return map[string]bool{"closed_forms.json": true}
	}
	return map[string]bool{"closed_forms.json": true, "divergence.json": true, "invalid_inputs.json": true}
}

// TestCommittedCheapFiles is the golden-file check for the files that
// regenerate in seconds: they must equal the committed ones byte for byte,
// and two runs must agree. (go run ./cmd/gen-vectors -check covers every
// file.)
func TestCommittedCheapFiles(t *testing.T) {
	only := cheapFiles()
	files, err := Generate(Steps(), Options{Only: only}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	generated := map[string]bool{}
	for name := range files {
		generated[name] = true
	}
	if diff := cmp.Diff(only, generated); diff != "" {
		t.Fatalf("files generated (-want +got):\n%s", diff)
	}
	if bad := Check(files, filepath.Join("..", "..", "vectors"), false); len(bad) > 0 {
		t.Errorf("committed files differ from the regenerated ones: %v", bad)
	}
	again, err := Generate(Steps(), Options{Only: map[string]bool{"closed_forms.json": true}}, &bytes.Buffer{})
	if err != nil || !bytes.Equal(again["closed_forms.json"], files["closed_forms.json"]) {
		t.Errorf("two runs differ (%v)", err)
	}
}

// TestCheck: a changed byte, a missing file and a stray file fail.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"a.json": []byte("{}\n"), "tfprivacy/b.json": []byte("[]\n")}
	if _, err := Write(files, dir); err != nil {
		t.Fatal(err)
	}
	if bad := Check(files, dir, true); len(bad) > 0 {
		t.Errorf("identical files: %v", bad)
	}
	os.WriteFile(filepath.Join(dir, "stray.json"), []byte("{}"), 0o644)
	if diff := cmp.Diff([]string{"stray.json is not written by the generator"}, Check(files, dir, true)); diff != "" {
		t.Errorf("stray file (-want +got):\n%s", diff)
	}
	os.Remove(filepath.Join(dir, "stray.json"))
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("{ }\n"), 0o644)
	if bad := Check(files, dir, true); len(bad) != 1 || !strings.HasPrefix(bad[0], "a.json differs") {
		t.Errorf("changed file: %v", bad)
	}
	os.Remove(filepath.Join(dir, "a.json"))
	if bad := Check(files, dir, true); len(bad) != 1 || !strings.HasPrefix(bad[0], "a.json:") {
		t.Errorf("missing file: %v", bad)
	}
}

// TestSampling: with sampling, a job reading an unsampled pair takes its
// value from the committed file, and a sampled one is recomputed (so a
// tampered sampled value is caught). The points have q = 1 (exact, cheap).
func TestSampling(t *testing.T) {
	full := func(sample int, committed *schema.File) ([]byte, []*verify.Job) {
		e := verify.New(&bytes.Buffer{})
		e.SampleEvery = sample
		b := NewFile("test", []string{"test"}, "test")
		g := b.Group("g", schema.SGM, "c", SGMTolerance)
		var jobs []*verify.Job
		for _, s := range []float64{1, 2} {
			j := e.SGMJob(1, s, 3)
			b.Test(g, SGMTest(1, s, 3), j, nil)
			jobs = append(jobs, j)
		}
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		data, err := b.Finalize(committed)
		if err != nil {
			t.Fatal(err)
		}
		return data, jobs
	}
	want, _ := full(0, nil)
	committed, _ := schema.Parse(want)
	got, jobs := full(2, committed)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("sampled regeneration differs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, true}, []bool{jobs[0].Copied, jobs[1].Copied}); diff != "" {
		t.Errorf("copied jobs (-want +got):\n%s", diff)
	}
	// Tamper with both values: the sampled one is recomputed (and differs
	// from the tampered file), the copied one is taken as committed.
	tampered, _ := schema.Parse(want)
	seven := schema.Exact(big.NewFloat(7))
	for _, tc := range tampered.TestGroups[0].Tests {
		tc.Expected, tc.ExpectedFloat64 = seven, "7"
	}
	got, _ = full(2, tampered)
	f, _ := schema.Parse(got)
	if f.TestGroups[0].Tests[0].Expected == seven || f.TestGroups[0].Tests[1].Expected != seven {
		t.Errorf("sampled test %s, copied test %s", f.TestGroups[0].Tests[0].Expected, f.TestGroups[0].Tests[1].Expected)
	}
}
