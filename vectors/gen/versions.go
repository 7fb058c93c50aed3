package gen

// The vector files as a versioned artifact. Each file has a version
// (FileVersions, written into the file); vectors/manifest.txt lists every
// test of every file with a digest of its question and of its answer; and
// vectors/CHANGELOG.md says, per file and version, which tcIds were added,
// changed or removed. Writing files whose tests differ from the committed
// manifest without raising the file's version here is refused, and raising
// it writes the CHANGELOG entry. A tcId never changes meaning: a test that
// asks another question gets a new tcId.

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// FileVersions are the versions of the vector files. Raise a file's when
// its tests change (gen-vectors says so), and only then.
var FileVersions = map[string]int{
	"sgm_rdp.json":                 1,
	"closed_forms.json":            1,
	"divergence.json":              1,
	"conversions.json":             1,
	"dpsgd.json":                   1,
	"invalid_inputs.json":          1,
	"dpsgd_best.json":              1,
	"sampled.json":                 1,
	"wor.json":                     2,
	"events.json":                  1,
	"zcdp_tight.json":              1,
	"dgauss_tree_repeat.json":      1,
	"profile.json":                 3,
	"event_profile.json":           3,
	"tfprivacy/sgm_rdp.json":       2,
	"tfprivacy/dpsgd_epsilon.json": 2,
	"tfprivacy/expectations.json":  1,
}

// ManifestName and ChangelogName are the record's files, relative to
// vectors/.
const (
	ManifestName  = "manifest.txt"
	ChangelogName = "CHANGELOG.md"
)

// manifestTest is one test of the manifest.
type manifestTest struct{ question, answer string }

type manifestFile struct {
	version int
	tests   map[int]manifestTest
}

// Manifest lists every test of the vector files among files: per file its
// version, then per test "tcId question answer" (schema.QuestionDigest and
// schema.AnswerDigest).
func Manifest(files map[string][]byte) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Every test of every vector file, written by gen-vectors: FILE VERSION, then\n# tcId, the digest of its question (function and inputs) and of its answer.\n")
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		f, err := schema.Parse(files[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(&b, "%s %d\n", name, f.Version)
		for _, g := range f.TestGroups {
			for _, t := range g.Tests {
				fmt.Fprintf(&b, "  %d %s %s\n", t.TcID, schema.QuestionDigest(g, t), schema.AnswerDigest(t))
			}
		}
	}
	return b.Bytes(), nil
}

func parseManifest(data []byte) (map[string]*manifestFile, error) {
	out := map[string]*manifestFile{}
	var cur *manifestFile
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "#") || len(f) == 0:
		case !strings.HasPrefix(line, " ") && len(f) == 2:
			v, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, fmt.Errorf("manifest line %d: %q", n, line)
			}
			cur = &manifestFile{version: v, tests: map[int]manifestTest{}}
			out[f[0]] = cur
		case cur != nil && len(f) == 3:
			id, err := strconv.Atoi(f[0])
			if err != nil {
				return nil, fmt.Errorf("manifest line %d: %q", n, line)
			}
			cur.tests[id] = manifestTest{f[1], f[2]}
		default:
			return nil, fmt.Errorf("manifest line %d: %q", n, line)
		}
	}
	return out, sc.Err()
}

// Changelog compares the committed manifest old with the new one and
// returns the CHANGELOG with an entry for each file whose version rose,
// the new entries first. A file whose tests changed at an unchanged
// version is an error: its version in FileVersions must rise. A tcId
// whose question changed is an error too: it must be a new tcId.
func Changelog(old, new, changelog []byte) ([]byte, error) {
	o, err := parseManifest(old)
	if err != nil {
		return nil, err
	}
	n, err := parseManifest(new)
	if err != nil {
		return nil, err
	}
	var entries bytes.Buffer
	var errs []string
	for _, name := range slices.Sorted(maps.Keys(n)) {
		nf, of := n[name], o[name]
		if of == nil {
			of = &manifestFile{tests: map[int]manifestTest{}}
		}
		var added, changed, removed, moved []int
		for id, t := range nf.tests {
			ot, ok := of.tests[id]
			switch {
			case !ok:
				added = append(added, id)
			case ot.question != t.question:
				moved = append(moved, id)
			case ot.answer != t.answer:
				changed = append(changed, id)
			}
		}
		for id := range of.tests {
			if _, ok := nf.tests[id]; !ok {
				removed = append(removed, id)
			}
		}
		for _, l := range [][]int{added, changed, removed, moved} {
			slices.Sort(l)
		}
		same := len(added)+len(changed)+len(removed)+len(moved) == 0
		switch {
		case len(moved) > 0 && len(of.tests) > 0:
			errs = append(errs, fmt.Sprintf("%s: tcIds %s would ask another question; a tcId never changes meaning: give the new tests new tcIds (append them) instead", name, ranges(moved)))
		case !same && nf.version <= of.version:
			errs = append(errs, fmt.Sprintf("%s: tests changed (added %s; answers changed %s; removed %s) at version %d: raise its version in vectors/gen/versions.go", name, ranges(added), ranges(changed), ranges(removed), nf.version))
		case same && nf.version != of.version && len(of.tests) > 0:
			errs = append(errs, fmt.Sprintf("%s: version %d, but no test changed since version %d", name, nf.version, of.version))
		case !same:
			fmt.Fprintf(&entries, "## %s version %d\n\n", name, nf.version)
			if len(of.tests) == 0 {
				fmt.Fprintf(&entries, "- first version: %d tests\n", len(nf.tests))
			} else {
				fmt.Fprintf(&entries, "- added: %s\n- answers changed (expected value, interval or shortcut): %s\n- removed: %s\n", ranges(added), ranges(changed), ranges(removed))
			}
			entries.WriteString("\n")
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	if entries.Len() == 0 {
		return changelog, nil
	}
	head, rest, ok := bytes.Cut(changelog, []byte("\n## "))
	if ok {
		rest = append([]byte("## "), rest...)
	}
	out := append(bytes.TrimRight(head, "\n"), "\n\n"...)
	out = append(out, entries.Bytes()...)
	if len(rest) == 0 {
		return append(bytes.TrimRight(out, "\n"), '\n'), nil
	}
	return append(out, rest...), nil
}

// ranges writes sorted tcIds as ranges ("1-4, 7"), "none" if empty.
func ranges(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
