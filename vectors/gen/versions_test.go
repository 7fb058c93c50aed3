package gen

import (
	"strings"
	"testing"
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
	want := "# Changes\n\nintro\n\n## f.json version 2\n\n- added: 5-6\n- expected values changed: 2\n- removed: 4\n\n## f.json version 1\n\n- first version: 4 tests\n"
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
