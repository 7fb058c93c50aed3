package peerstudy

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

var pldCache = flag.Bool("pldcache", false, "recompute peers/pld/certified.json with package pld (minutes)")

func readPLD(t *testing.T) ([]byte, *PLDCertified) {
	t.Helper()
	profile, err := os.ReadFile(root + "peers/pld/profile.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(root + PLDCertifiedName)
	if err != nil {
		t.Fatal(err)
	}
	var c PLDCertified
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return profile, &c
}

func gitOut(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// TestPLDCertified, with -pldcache, rewrites peers/pld/certified.json: the
// certified intervals of every run and query of peers/pld/profile.json.
// Without it, it recomputes a few entries (the fast ones) and requires each
// recomputed interval to overlap the cached one: both are certified, so
// disjoint intervals mean the cache is stale or a certificate is wrong.
func TestPLDCertified(t *testing.T) {
	if *pldCache {
		profile, err := os.ReadFile(root + "peers/pld/profile.json")
		if err != nil {
			t.Fatal(err)
		}
		c, err := ComputePLDCertified(profile, runtime.GOMAXPROCS(0))
		if err != nil {
			t.Fatal(err)
		}
		c.PLDCommit = gitOut(t, "log", "-1", "--format=%H", "--", root+"pld")
		c.Head = gitOut(t, "rev-parse", "HEAD")
		c.PLDDirty = gitOut(t, "status", "--porcelain", "--", root+"pld") != ""
		var b bytes.Buffer
		b.WriteString("{\n")
		hdr, _ := json.Marshal(struct {
			Note      string `json:"note"`
			Command   string `json:"command"`
			PLDCommit string `json:"pld_commit"`
			Head      string `json:"head"`
			PLDDirty  bool   `json:"pld_dirty"`
		}{c.Note, c.Command, c.PLDCommit, c.Head, c.PLDDirty})
		b.Write(hdr[1 : len(hdr)-1])
		opts, _ := json.Marshal(c.Options)
		b.WriteString(`,"options":` + string(opts))
		b.WriteString(`,"workers":` + jsonNum(float64(c.Workers)) + `,"seconds":` + jsonNum(c.Seconds) + ",\n\"entries\": [\n")
		for i, e := range c.Entries {
			line, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			if i < len(c.Entries)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("]}\n")
		if err := os.WriteFile(root+PLDCertifiedName, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d entries in %g s with %d workers", len(c.Entries), c.Seconds, c.Workers)
		return
	}
	profile, c := readPLD(t)
	recs, err := readPLDProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	// Every (run, query) of the profile has an entry.
	for _, r := range recs {
		if c.Lookup(r.Run, r.Query) == nil {
			t.Fatalf("%s has no entry for %v %s: rerun with -pldcache", PLDCertifiedName, r.Run, r.Query)
		}
	}
	n := 0
	for i := range c.Entries {
		e := &c.Entries[i]
		if e.Error != "" || len(e.Attempts) == 0 || e.Attempts[0].Seconds > 0.2 {
			continue
		}
		if n++; n > 6 || (testing.Short() && n > 2) {
			break
		}
		a := certifyAt(e.Run, e.Query, e.Attempts[0].H)
		if math.IsNaN(float64(a.Lo)) {
			t.Errorf("%v %s: no interval now (%s); cached [%g, %g]", e.Run, e.Query, a.Error, e.Lo, e.Hi)
			continue
		}
		if a.Lo > e.Hi || a.Hi < e.Lo {
			t.Errorf("%v %s: recomputed [%g, %g] does not overlap cached [%g, %g]: rerun with -pldcache", e.Run, e.Query, a.Lo, a.Hi, e.Lo, e.Hi)
		}
	}
	if n == 0 {
		t.Error("no quick entry to recompute")
	}
}

func jsonNum(x float64) string { b, _ := jf(x).MarshalJSON(); return string(b) }

// TestPLDFindings regrades the peers of peers/pld/profile.json against the
// cached certified intervals and requires vectors/pld_FINDINGS.md unchanged
// (-update rewrites it), linked from docs/findings.md, which the README
// links. It reads the cache; it computes no interval.
func TestPLDFindings(t *testing.T) {
	profile, c := readPLD(t)
	got, err := PLDFindings(profile, c)
	if err != nil {
		t.Fatal(err)
	}
	path := vectorsDir + PLDFindingsName
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := PLDSlackPlot(profile, c, vectorsDir+PLDSlackName); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := os.Stat(vectorsDir + PLDSlackName); err != nil || !bytes.Contains(got, []byte("("+PLDSlackName+")")) {
		t.Errorf("the findings must show %s, which -update draws (%v)", PLDSlackName, err)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./cmd/gen-vectors/internal/peerstudy -run TestPLDFindings -update", PLDFindingsName)
	}
	// The findings page links the report, and the README links the page.
	page, err := os.ReadFile(root + findingsPage)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "(../vectors/"+PLDFindingsName+")") {
		t.Errorf("%s does not link vectors/%s", findingsPage, PLDFindingsName)
	}
	readme, err := os.ReadFile(root + "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "("+findingsPage) {
		t.Errorf("README.md does not link %s", findingsPage)
	}
}

// TestMaxEventDelta: the single-event bound that confirms the dp_accounting
// finding without package pld, against mpmath 1.3.0 at 50 digits for the
// same float64 inputs (q = 256/60000, sigma = 1.1, 235 steps, eps = 2, the
// event {some output > 9.35}): 1.6834491509135158922e-15. The bound is that
// value less its 1e-12 rounding margins, so it must lie just below it; and
// it exceeds what dp_accounting 0.6.0's pessimistic PLD printed,
// 1.48975e-15 (peers/pld/profile.json).
func TestMaxEventDelta(t *testing.T) {
	const mpmath = 1.6834491509135158922e-15
	got, what := maxEventDelta([][3]float64{{256.0 / 60000, 1.1, 235}}, 2)
	if !(got <= mpmath && got >= mpmath*(1-1e-10)) || !strings.Contains(what, "9.35") {
		t.Errorf("maxEventDelta = %v (%s), want just below %v at c = 9.35", got, what, mpmath)
	}
	if !(got > 1.48975e-15) {
		t.Errorf("the event does not exceed dp_accounting's 1.48975e-15")
	}
	// A run that releases nothing: no event gives a positive bound.
	if got, _ := maxEventDelta([][3]float64{{0, 1.1, 235}}, 0.5); got != 0 {
		t.Errorf("q = 0: %v, want 0", got)
	}
}
