package schema

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

var validator = sync.OnceValues(func() (*Validator, error) { return NewValidator(JSON) })

// Lint checks one encoded vector file: valid against the schema, canonical
// (Encode of the parsed file gives the same bytes), tcIds 1..numberOfTests
// in order, group names unique, every flag explained in notes and every note
// used, each input's decimal and hex forms the same float64 and both in
// canonical form, list lengths consistent, expected values with 50 digits
// and expectedFloat64 the float64 nearest them, expectedOrder one of the
// orders. It returns every problem found.
func Lint(data []byte) []error { return lintWith(Functions, data) }

// lintWith is Lint for a file whose functions are fns (the committed
// schema is the one Functions generates).
func lintWith(fns []Function, data []byte) []error {
	v, err := validator()
	if len(fns) != len(Functions) {
		v, err = NewValidator(GenerateJSONSchema(fns))
	}
	if err != nil {
		return []error{err}
	}
	if errs := v.Validate(data); len(errs) > 0 {
		return errs
	}
	f, err := Parse(data)
	if err != nil {
		return []error{err}
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if enc, err := Encode(f); err != nil {
		fail("encode: %v", err)
	} else if !bytes.Equal(enc, data) {
		fail("not in canonical form (re-encoding changes bytes at offset %d)", firstDiff(enc, data))
	}
	n := 0
	names := map[string]bool{}
	used := map[string]bool{}
	for _, g := range f.TestGroups {
		if names[g.Name] {
			fail("group %q: name used twice", g.Name)
		}
		names[g.Name] = true
		if g.Orders != nil {
			lintList(fail, fmt.Sprintf("group %q: orders", g.Name), g.Orders, g.OrdersHex)
		}
		fn := Lookup(fns, g.Function)
		if fn == nil {
			fail("group %q: unknown function %q", g.Name, g.Function)
			continue
		}
		for _, t := range g.Tests {
			n++
			where := fmt.Sprintf("group %q tcId %d", g.Name, t.TcID)
			if t.TcID != n {
				fail("%s: tcId out of sequence, want %d", where, n)
			}
			for _, fl := range t.Flags {
				used[fl] = true
				if _, ok := f.Notes[fl]; !ok {
					fail("%s: flag %q not explained in notes", where, fl)
				}
			}
			for _, pp := range t.Peers {
				for _, fl := range pp.Flags {
					used[fl] = true
					if _, ok := f.Notes[fl]; !ok {
						fail("%s: peer %s: flag %q not explained in notes", where, pp.Peer, fl)
					}
				}
			}
			if t.Result == Acceptable && len(t.Flags) == 0 {
				fail("%s: an acceptable test needs a flag saying why either answer is defensible", where)
			}
			lintInputs(fail, where, g, fn, t)
			lintExpected(fail, where, g, fn, t)
		}
	}
	if n != f.NumberOfTests {
		fail("numberOfTests is %d, the groups hold %d", f.NumberOfTests, n)
	}
	for fl := range f.Notes {
		if !used[fl] {
			fail("note %q explains a flag no test uses", fl)
		}
	}
	return errs
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

type failFunc func(format string, args ...any)

// lintPair checks that a decimal and a hex input are the same float64 and
// both written canonically.
func lintPair(fail failFunc, where, dec, hex string) {
	x, err := ParseFloat(dec)
	if err != nil {
		fail("%s: decimal %q: %v", where, dec, err)
		return
	}
	y, err := ParseFloat(hex)
	if err != nil {
		fail("%s: hex %q: %v", where, hex, err)
		return
	}
	same := math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	if !same {
		fail("%s: decimal %s and hex %s differ", where, dec, hex)
	}
	if Dec(x) != dec {
		fail("%s: decimal %q is not the shortest round-trip form %q", where, dec, Dec(x))
	}
	if Hex(y) != hex {
		fail("%s: hex %q is not canonical (%q)", where, hex, Hex(y))
	}
}

func lintList(fail failFunc, where string, dec, hex []string) {
	if len(dec) != len(hex) {
		fail("%s: %d decimals, %d hex", where, len(dec), len(hex))
		return
	}
	for i := range dec {
		lintPair(fail, fmt.Sprintf("%s[%d]", where, i), dec[i], hex[i])
	}
}

func lintInputs(fail failFunc, where string, g *Group, fn *Function, t *Test) {
	for _, name := range scalarNames {
		dec, hex := t.scalar(name)
		switch {
		case *dec == "" && *hex == "":
			if fn.Takes(name) {
				fail("%s: input %s missing", where, name)
			}
		case !fn.Takes(name):
			fail("%s: input %s is not an argument of %s", where, name, g.Function)
		case *dec == "" || *hex == "":
			fail("%s: input %s needs both its decimal and hex forms", where, name)
		default:
			lintPair(fail, where+": "+name, *dec, *hex)
		}
	}
	for _, l := range []struct {
		name     string
		dec, hex []string
	}{{"distP", t.DistP, t.DistPHex}, {"distQ", t.DistQ, t.DistQHex}, {"orders", t.Orders, t.OrdersHex}, {"rdp", t.RDP, t.RDPHex}, {"base", t.Base, t.BaseHex}} {
		if l.dec == nil && l.hex == nil {
			if fn.Takes(l.name) && !(l.name == "orders" && fn.GroupOrders && g.Orders != nil) {
				fail("%s: input %s missing", where, l.name)
			}
			continue
		}
		if !fn.Takes(l.name) {
			fail("%s: input %s is not an argument of %s", where, l.name, g.Function)
		}
		lintList(fail, where+": "+l.name, l.dec, l.hex)
	}
	// The inputs that are not floats: present exactly when fn takes them.
	for _, o := range []struct {
		name    string
		present bool
	}{
		{"steps", t.Steps != nil}, {"c", t.C != nil}, {"maxParticipation", t.MaxParticipation != nil},
		{"minSeparation", t.MinSeparation != nil}, {"trees", t.Trees != nil}, {"restarts", t.Restarts != ""},
		{"relation", t.Relation != ""}, {"conversion", t.Conversion != ""}, {"phases", t.Phases != nil},
		{"event", t.Event != nil}, {"neighboringRelation", t.NeighboringRelation != ""},
	} {
		if o.present != fn.Takes(o.name) {
			fail("%s: %s must be given exactly for the functions that take it (%s does %s)", where, o.name, g.Function, map[bool]string{true: "", false: "not"}[fn.Takes(o.name)])
		}
	}
	for i, p := range t.Phases {
		lintPair(fail, fmt.Sprintf("%s: phases[%d].q", where, i), p.Q, p.QHex)
		lintPair(fail, fmt.Sprintf("%s: phases[%d].sigma", where, i), p.Sigma, p.SigmaHex)
	}
	if t.Event != nil {
		if err := CheckDpEvent(t.Event); err != nil {
			fail("%s: %v", where, err)
		}
	}
	if r := t.NeighboringRelation; r != "" && !slices.Contains(InputOf("neighboringRelation").Enum, r) {
		fail("%s: neighboringRelation %q is none of %v", where, r, InputOf("neighboringRelation").Enum)
	}
	if t.Result != Invalid && fn.Takes("rdp") && len(t.Orders) != len(t.RDP) {
		fail("%s: %d orders but %d rdp values", where, len(t.Orders), len(t.RDP))
	}
}

func lintExpected(fail failFunc, where string, g *Group, fn *Function, t *Test) {
	if t.Result == Invalid {
		return
	}
	if (t.Lower != "" || t.Upper != "") != fn.Interval {
		fail("%s: lower and upper are given exactly for the functions answered by an interval (ProfileEpsilon, ProfileDelta, EventEpsilon, EventDelta)", where)
		return
	}
	if fn.Interval {
		lintPair(fail, where+": lower", t.Lower, t.LowerHex)
		lintPair(fail, where+": upper", t.Upper, t.UpperHex)
		if lo, hi, err := t.Interval(); err == nil && !(0 <= lo && lo <= hi) {
			fail("%s: the interval [%s, %s] is not an interval of non-negative values", where, t.Lower, t.Upper)
		}
		return
	}
	v, err := ParseExact(t.Expected)
	if err != nil {
		fail("%s: expected %q: %v", where, t.Expected, err)
		return
	}
	if t.Expected != "0" && !strings.HasSuffix(t.Expected, "inf") {
		mant, _, _ := strings.Cut(strings.TrimPrefix(t.Expected, "-"), "e")
		if d := len(strings.ReplaceAll(mant, ".", "")); d < 40 {
			fail("%s: expected has %d significant digits, want at least 40", where, d)
		}
	}
	if f := Float64Of(v); f != t.ExpectedFloat64 {
		fail("%s: expectedFloat64 %s, but the float64 nearest expected is %s", where, t.ExpectedFloat64, f)
	}
	if t.ExpectedOrder != "" && !fn.Order {
		fail("%s: expectedOrder on a %s test (the conversions only)", where, g.Function)
	}
	if t.ExpectedOrder != "" {
		o, err := ParseFloat(t.ExpectedOrder)
		if err != nil {
			fail("%s: expectedOrder: %v", where, err)
			return
		}
		orders, _ := ParseList(g.InputOrders(t))
		found := false
		for _, a := range orders {
			found = found || a == o
		}
		if !found {
			fail("%s: expectedOrder %s is not one of the orders", where, t.ExpectedOrder)
		}
	}
	if t.PeerRelativeError != "" && g.Peer == "" {
		fail("%s: peer fields in a group with no peer", where)
	}
	if len(t.Peers) > 0 && g.Peer != "" {
		fail("%s: peers in a group with a peer (one or the other)", where)
	}
	seen := map[string]bool{}
	for _, pp := range t.Peers {
		switch {
		case pp.Peer == "" || pp.Value == "":
			fail("%s: a peers entry without peer or value", where)
		case seen[pp.Peer]:
			fail("%s: peer %s listed twice", where, pp.Peer)
		}
		seen[pp.Peer] = true
	}
	if sc := t.Shortcut; sc != nil {
		sv, err := ParseExact(sc.Value)
		switch {
		case g.Function != Epsilon && g.Function != Delta && g.Function != WORGaussian: // where a valid smaller bound is known
			fail("%s: a shortcut on a %s test (conversions and the WOR bound only)", where, g.Function)
		case err != nil:
			fail("%s: shortcut value %q: %v", where, sc.Value, err)
		case sv.Sign() < 0 || sv.Cmp(v) >= 0:
			fail("%s: shortcut value %s is not in [0, expected)", where, sc.Value)
		case sc.Why == "":
			fail("%s: shortcut without a why", where)
		}
	}
}
