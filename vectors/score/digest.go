package score

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// firstInputs are the inputs Digest has covered from the start.
var firstInputs = []string{"q", "sigma", "alpha", "b", "p", "mean1", "sd1", "mean2", "sd2", "delta", "eps", "noise", "buckets",
	"rho", "xi", "relation", "conversion", "steps", "c", "distP", "distQ", "orders", "rdp"}

// laterInputs are the table's other inputs, in its order.
func laterInputs() []string {
	var out []string
	for _, in := range schema.Inputs {
		if !slices.Contains(firstInputs, in.Name) {
			out = append(out, in.Name)
		}
	}
	return out
}

// Digest identifies what a test asks: the first 16 hex digits of the
// SHA-256 of its function and every input of the schema's table (the
// exact hex forms, lists as the test sees them, integers, strings, the
// run's phases). It does not cover the
// expected value, comment or flags: answers stay gradable when the
// reference or the wording improves, and are refused when a tcId comes
// to mean another question.
func Digest(g *schema.Group, t *schema.Test) string {
	var b strings.Builder
	b.WriteString(g.Function)
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, "\n%s=%s", name, v)
		}
	}
	list := func(name string, xs []string) {
		if xs != nil {
			field(name, "["+strings.Join(xs, ",")+"]")
		}
	}
	intp := func(name string, x *int) {
		if x != nil {
			field(name, strconv.Itoa(*x))
		}
	}
	// The inputs of the first vector files, in the order digests have
	// always been made of them (so that stored digests stay valid)...
	for _, f := range []struct{ name, v string }{
		{"q", t.QHex}, {"sigma", t.SigmaHex}, {"alpha", t.AlphaHex}, {"b", t.BHex}, {"p", t.PHex},
		{"mean1", t.Mean1Hex}, {"sd1", t.SD1Hex}, {"mean2", t.Mean2Hex}, {"sd2", t.SD2Hex},
		{"delta", t.DeltaHex}, {"eps", t.EpsHex}, {"noise", t.NoiseHex}, {"buckets", t.BucketsHex},
		{"rho", t.RhoHex}, {"xi", t.XiHex}, {"relation", t.Relation}, {"conversion", t.Conversion},
	} {
		field(f.name, f.v)
	}
	intp("steps", t.Steps)
	intp("c", t.C)
	list("distP", t.DistPHex)
	list("distQ", t.DistQHex)
	orders := t.OrdersHex
	if t.Orders == nil {
		orders = g.OrdersHex
	}
	list("orders", orders)
	list("rdp", t.RDPHex)
	// ...then every later input of the table, in its order.
	for _, in := range laterInputs() {
		switch in {
		case "sensitivity", "mean", "shape", "baseInf":
			v, _ := t.FloatHex(in)
			field(in, v)
		case "trees":
			if t.Trees != nil {
				field(in, fmt.Sprint(t.Trees))
			}
		case "restarts":
			field(in, t.Restarts)
		case "maxParticipation":
			intp(in, t.MaxParticipation)
		case "minSeparation":
			intp(in, t.MinSeparation)
		case "base":
			list(in, t.BaseHex)
		case "phases":
			if t.Phases != nil {
				var ph []string
				for _, p := range t.Phases {
					ph = append(ph, p.QHex+" "+p.SigmaHex+" "+strconv.Itoa(p.Steps))
				}
				field(in, "["+strings.Join(ph, ",")+"]")
			}
		default:
			panic("score.Digest: input " + in + " of the table is not covered") // TestDigestCoversTable
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

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
