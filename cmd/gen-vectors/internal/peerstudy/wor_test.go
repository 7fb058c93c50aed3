package peerstudy

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

var update = flag.Bool("update", false, "rewrite the FINDINGS pages in vectors/ (and vectors/pld_slack.png)")

// root is the module's root from this package's directory, where go test
// runs the tests; vectorsDir is the folder the FINDINGS pages go to.
const (
	root       = "../../../../"
	vectorsDir = root + "vectors/"
)

// TestWORFindings recomputes vectors/wor_FINDINGS.md from the peers' data
// and the reference and requires it unchanged (-update rewrites it, in any
// tier but -short).
func TestWORFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("70 reference curves up to order 1024")
	}
	if !*update {
		testtier.Skip(t, "the WOR findings' check: 70 reference curves up to order 1024, 70 s")
	}
	events, err := os.ReadFile(root + "peers/accountants/events.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := WORFindings(events, 128)
	if err != nil {
		t.Fatal(err)
	}
	const path = vectorsDir + WORFindingsName
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./cmd/gen-vectors/internal/peerstudy -run TestWORFindings -update", WORFindingsName)
	}
}
