package score

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// Digest identifies what a test asks (schema.QuestionDigest): answers stay
// gradable when the reference or the wording improves, and are refused
// when a tcId comes to mean another question.
func Digest(g *schema.Group, t *schema.Test) string { return schema.QuestionDigest(g, t) }

// Digests are the digests of a set of vector files: file name -> tcId ->
// digest.
type Digests map[string]map[int]string

// Add records the digests of every test of the vector file f, named name.
func (d Digests) Add(name string, f *schema.File) {
	m := map[int]string{}
	for _, g := range f.TestGroups {
		for _, t := range g.Tests {
			m[t.TcID] = Digest(g, t)
		}
	}
	d[name] = m
}

// Write writes the digests as text: a comment line with the source, then
// one line "FILE TCID DIGEST" per test, sorted.
func (d Digests) Write(w io.Writer, source string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# rdpcheck test digests (score.Digest) of %s\n", source)
	var names []string
	for n := range d {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var ids []int
		for id := range d[n] {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		for _, id := range ids {
			fmt.Fprintf(bw, "%s %d %s\n", n, id, d[n][id])
		}
	}
	return bw.Flush()
}

// ParseDigests reads what Write wrote.
func ParseDigests(data []byte) (Digests, error) {
	d := Digests{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("digests line %d: want FILE TCID DIGEST", n)
		}
		id, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, fmt.Errorf("digests line %d: tcId %q", n, f[1])
		}
		if d[f[0]] == nil {
			d[f[0]] = map[int]string{}
		}
		d[f[0]][id] = f[2]
	}
	return d, sc.Err()
}

// CheckDigests refuses answers to the vector file f (named name) whose
// tcIds no longer mean the test they were made for: every answered tcId
// must have a stored digest equal to the digest of f's test.
func CheckDigests(name string, f *schema.File, ans map[int]Answer, stored Digests) error {
	now := Digests{}
	now.Add(name, f)
	was := stored[name]
	if was == nil {
		return fmt.Errorf("%s: no stored digests: cannot tell which tests the answers were made for", name)
	}
	var bad []string
	var ids []int
	for id := range ans {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		switch d, ok := was[id]; {
		case !ok:
			bad = append(bad, fmt.Sprintf("tcId %d: no stored digest", id))
		case now[name][id] == "":
			bad = append(bad, fmt.Sprintf("tcId %d: not in today's file", id))
		case d != now[name][id]:
			bad = append(bad, fmt.Sprintf("tcId %d: made for test %s, today's is %s", id, d, now[name][id]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: %d answers are for other tests than today's (%s): regenerate the answers", name, len(bad), strings.Join(bad[:min(5, len(bad))], "; "))
	}
	return nil
}
