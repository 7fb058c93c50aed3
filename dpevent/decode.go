// Package dpevent reads privacy events in the JSON form of dp_accounting's
// DpEvent.to_named_tuple() and accounts them: in float64 with package fast
// (an upper bound, at the best order or on a grid) and, at one order, with
// package reference.
//
// A DpEvent is written as an object with "class_name" (and optionally
// "module_name") and the event's fields; a nested event is an object, a
// list of events a list. A file holds either such an event or a wrapper
// {"event": ..., "neighboring_relation": "REPLACE_ONE"}, which is how
// peers/accountants/dpevents/ stores what dp_accounting 0.6.0 wrote.
// Infinities may be the strings "inf" and "-inf" (Python's repr).
//
// Each event class keeps dp_accounting's meaning exactly (dp_event.py and
// rdp/rdp_privacy_accountant.py of google/differential-privacy,
// python/dp_accounting, 0.6.0). Every class rdpcheck reads is one entry of
// the table in classes.go; the classes it does not read yet are listed
// once, in notYetSupported. An unknown class or key, a key given twice, a
// missing field or a value out of its domain is an error naming its path
// in the JSON (`event.events[2].noise_multiplier: must be finite and >= 0
// (is -1)`), and for a key the class and the keys it accepts; nothing is
// skipped. Counts are integers in [0, 2^53] however written (1e4 is 10000).
//
// Reading and planning take time and memory linear in the file's size,
// whatever its depth (up to MaxDepth events deep). A plan has one term per
// distinct event, with the counts of all its places added. Theorems that
// take a sub-event's whole curve (sampling by the general bounds,
// repeat-and-select) may nest MaxNested deep.
//
// Every error has one of package rdpcheck's kinds: errors.Is(err, rdpcheck.ErrInput)
// for a file, event or argument outside what dpevent reads,
// errors.Is(err, rdpcheck.ErrTooLarge) for one beyond its limits (ErrTooDeep,
// ErrNested, a file of more than 2^31 - 1 bytes), and the kinds of fast
// and reference for their errors. Slices given are only read and never
// kept; slices returned are new (each doc comment says which: "Slices:
// ..."). A Plan accounts its own copy of what it was made with (see Plan),
// and is safe for concurrent use.
package dpevent

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck"
)

// Relation is the neighbouring relation under which events are accounted,
// dp_accounting's NeighboringRelation; dp_accounting passes it to its
// accountant beside the event.
type Relation int

const (
	// AddOrRemoveOne: neighbouring datasets differ by one record added or
	// removed (dp_accounting's default).
	AddOrRemoveOne Relation = iota
	// ReplaceOne: one record replaced by another.
	ReplaceOne
	// ReplaceSpecial: one record replaced by a special (zero) record.
	ReplaceSpecial
)

var relationNames = []string{"ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL"}

// String returns dp_accounting's name of the relation.
func (r Relation) String() string {
	if r >= 0 && int(r) < len(relationNames) {
		return relationNames[r]
	}
	return fmt.Sprintf("Relation(%d)", int(r))
}

// ParseRelation reads a relation by dp_accounting's name (ADD_OR_REMOVE_ONE,
// REPLACE_ONE, REPLACE_SPECIAL; any case, with or without the prefix
// "NeighboringRelation.").
func ParseRelation(s string) (Relation, error) {
	u := strings.ToUpper(strings.TrimPrefix(strings.TrimSpace(s), "NeighboringRelation."))
	if i := slices.Index(relationNames, u); i >= 0 {
		return Relation(i), nil
	}
	return 0, inputErrorf("unknown neighboring relation %q (want one of %s)", s, strings.Join(relationNames, ", "))
}

// Event is one decoded DpEvent.
type Event struct {
	// Class is dp_accounting's class name, e.g. "GaussianDpEvent".
	Class string
	// fields are the class's fields, vals their values in that order.
	fields []field
	vals   []value
	// parent, field, index: where the event is (Path): the field of
	// parent that holds it, and its index in that list (-1: not in a
	// list); the root has no parent and the field "event".
	parent *Event
	field  string
	index  int32
	// depth is the number of events above it.
	depth int32
}

// value is the value of one field.
type value struct {
	num  float64
	sub  *Event
	list []*Event
	ints []int64
	nums []float64
}

func (e *Event) val(name string) *value {
	for i := range e.fields {
		if e.fields[i].name == name {
			return &e.vals[i]
		}
	}
	return nil
}

// Num returns the numeric field name (an integer field as a float64; a
// null dimension as NaN), 0 if the class has no such field.
func (e *Event) Num(name string) float64 {
	if v := e.val(name); v != nil {
		return v.num
	}
	return 0
}

// Sub returns the event field name ("event"), nil if none.
func (e *Event) Sub(name string) *Event {
	if v := e.val(name); v != nil {
		return v.sub
	}
	return nil
}

// List returns the list-of-events field name ("events"). The slice is
// new (the events in it are the event's own).
func (e *Event) List(name string) []*Event {
	if v := e.val(name); v != nil {
		return slices.Clone(v.list)
	}
	return nil
}

// Ints returns the field name that is an integer or a list of integers
// ("step_counts"), as a list. The slice is new: changing it changes
// nothing the event holds.
func (e *Event) Ints(name string) []int64 {
	if v := e.val(name); v != nil {
		return slices.Clone(v.ints)
	}
	return nil
}

// Nums returns the list-of-numbers field name ("sensitivities"). The
// slice is new: changing it changes nothing the event holds.
func (e *Event) Nums(name string) []float64 {
	if v := e.val(name); v != nil {
		return slices.Clone(v.nums)
	}
	return nil
}

// pathKeep is how many steps of a long path Path shows at each end.
const pathKeep = 4

// Path returns where the event is in the JSON, e.g. "event.events[2]";
// a path of more than 2 pathKeep + 1 steps shows its first and last
// pathKeep steps and how many are left out between:
// "event.events[0].events[0].events[0][... 4893 levels ...].events[0].events[0].events[0].events[1]".
func (e *Event) Path() string {
	var steps []*Event
	for x := e; x != nil; x = x.parent {
		steps = append(steps, x)
	}
	step := func(x *Event) string {
		s := x.field
		if x.parent != nil {
			s = "." + s
		}
		if x.index >= 0 {
			s += fmt.Sprintf("[%d]", x.index)
		}
		return s
	}
	var b strings.Builder
	n := len(steps)
	for i := n - 1; i >= 0; i-- {
		if n > 2*pathKeep+1 && i == n-1-pathKeep {
			fmt.Fprintf(&b, "[... %d levels ...]", n-2*pathKeep)
			i = pathKeep - 1
		}
		b.WriteString(step(steps[i]))
	}
	return b.String()
}

// File is a decoded event file.
type File struct {
	Event *Event
	// Relation is the file's neighboring_relation, AddOrRemoveOne when it
	// has none (dp_accounting's default).
	Relation Relation
	// HasRelation says whether the file named a relation.
	HasRelation bool
}

// ErrTooDeep is the error (wrapped) for events nested deeper than
// MaxDepth; errors.Is(err, rdpcheck.ErrTooLarge) holds for it too.
var ErrTooDeep error = &kindError{"events nested too deeply", rdpcheck.ErrTooLarge}

// kindError is an error of this package with one of package rdpcheck's kinds:
// errors.Is(err, kind) holds, and the text is msg alone. Every error
// dpevent makes has a kind: rdpcheck.ErrInput for a file, event or argument
// outside what it reads (with the reason), rdpcheck.ErrTooLarge for one beyond
// its limits; errors of fast and reference keep theirs (eventError).
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.kind }

// inputErrorf is an error of kind rdpcheck.ErrInput.
func inputErrorf(format string, args ...any) error {
	return &kindError{fmt.Sprintf(format, args...), rdpcheck.ErrInput}
}

// pathError is an error at a path in the JSON.
type pathError struct {
	path, msg string
	err       error // what it wraps, if anything (else rdpcheck.ErrInput)
}

func (e *pathError) Error() string { return e.path + ": " + e.msg }
func (e *pathError) Unwrap() error {
	if e.err == nil {
		return rdpcheck.ErrInput
	}
	return e.err
}

func errAt(path, format string, args ...any) error {
	return &pathError{path: path, msg: fmt.Sprintf(format, args...)}
}

// annotation matches the wrapper keys that carry what a peer printed
// (dp_accounting_0_6_0) beside the event; they are not read.
var annotation = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*(_[0-9]+)+$`)

// wrapperNotes are the other wrapper keys that describe the file and are
// not read.
var wrapperNotes = []string{"name", "what", "comment", "accountant"}

const wrapperKeys = `"event", "neighboring_relation", and notes not read: "name", "what", "comment", "accountant", and peers' results such as "dp_accounting_0_6_0"`

// Decode reads an event file: a bare event object or a wrapper
// {"event": ..., "neighboring_relation": ...}. A wrapper may also carry
// the descriptive keys "name", "what", "comment" and "accountant" and
// peers' printed results under keys like "dp_accounting_0_6_0"; any other
// key, and any key given twice, is an error. Time and memory are linear
// in len(data).
//
// Slices: data is only read, and not kept.
func Decode(data []byte) (*File, error) {
	t, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	root := int32(len(t.nodes) - 1) // the tape is in post-order
	if t.nodes[root].kind != '{' {
		return nil, inputErrorf("not a JSON object: the file holds %s", t.describe(root))
	}
	if t.member(root, "class_name") >= 0 {
		e, err := decodeEvent(t, root, nil, "event", -1)
		if err != nil {
			return nil, err
		}
		return &File{Event: e}, nil
	}
	r := &t.nodes[root]
	if r.dup >= 0 {
		k := t.text(t.kids[r.first+2*r.dup])
		return nil, inputErrorf("duplicate key %q at the top level of the file (each key at most once; a file is an event object with \"class_name\", or an object with %s)", k, wrapperKeys)
	}
	f := &File{}
	for j := r.first; j < r.first+r.n; j += 2 {
		k, v := t.text(t.kids[j]), t.kids[j+1]
		switch {
		case k == "event":
			e, err := decodeEvent(t, v, nil, "event", -1)
			if err != nil {
				return nil, err
			}
			f.Event = e
		case k == "neighboring_relation":
			if t.nodes[v].kind != '"' {
				return nil, errAt(k, "must be a string such as \"ADD_OR_REMOVE_ONE\", not %s", t.source(v))
			}
			rel, err := ParseRelation(t.text(v))
			if err != nil {
				return nil, errAt(k, "%v", err)
			}
			f.Relation, f.HasRelation = rel, true
		case slices.Contains(wrapperNotes, k) || annotation.MatchString(k):
			// descriptive: not read
		default:
			return nil, inputErrorf("unknown key %q at the top level of the file (a file is an event object with \"class_name\", or an object with %s)", k, wrapperKeys)
		}
	}
	if f.Event == nil {
		return nil, errAt("event", "missing: the file has neither \"class_name\" nor \"event\"")
	}
	return f, nil
}

// describe names the kind of node i for messages.
func (t *tape) describe(i int32) string {
	switch t.nodes[i].kind {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "the string " + t.source(i)
	case 'n':
		return "null"
	}
	return t.source(i)
}

// decodeEvent reads the event object at node i, the field of parent
// named fieldName (index: its place in that list, or -1).
func decodeEvent(t *tape, i int32, parent *Event, fieldName string, index int32) (*Event, error) {
	e := &Event{parent: parent, field: fieldName, index: index}
	if parent != nil {
		e.depth = parent.depth + 1
	}
	if e.depth >= MaxDepth {
		return nil, &pathError{path: e.Path(), msg: fmt.Sprintf("events nested more than %d deep (rdpcheck's limit)", MaxDepth), err: ErrTooDeep}
	}
	n := &t.nodes[i]
	if n.kind != '{' {
		return nil, errAt(e.Path(), "must be an event object with \"class_name\", not %s", t.describe(i))
	}
	cn := t.member(i, "class_name")
	if cn < 0 {
		return nil, errAt(e.Path(), "missing \"class_name\" (an event object names its class, e.g. \"class_name\": \"GaussianDpEvent\")")
	}
	if t.nodes[cn].kind != '"' {
		return nil, errAt(e.Path(), "\"class_name\" must be a string, not %s", t.source(cn))
	}
	name := t.text(cn)
	c, ok := classes[name]
	if !ok {
		if why, later := notYetSupported[name]; later {
			return nil, errAt(e.Path(), "%s: not yet supported: %s", name, why)
		}
		return nil, errAt(e.Path(), "%s: unknown event class (rdpcheck reads %s)", name, strings.Join(ClassNames(), ", "))
	}
	e.Class = c.name // the table's string: nothing of data is kept
	e.fields = c.fields
	if len(c.fields) > 0 {
		e.vals = make([]value, len(c.fields))
	}
	if n.dup >= 0 {
		k := t.text(t.kids[n.first+2*n.dup])
		return nil, errAt(e.Path(), "duplicate key %q in %s (each key at most once; it accepts %s)", k, name, c.keyNames())
	}
	for j := n.first; j < n.first+n.n; j += 2 {
		k, v := t.kids[j], t.kids[j+1]
		switch {
		case t.is(k, "class_name"):
		case t.is(k, "module_name"):
			if t.nodes[v].kind != '"' {
				return nil, errAt(e.Path()+".module_name", "must be a string, not %s", t.source(v))
			}
		case !slices.ContainsFunc(c.fields, func(f field) bool { return t.is(k, f.name) }):
			return nil, errAt(e.Path(), "unknown key %q in %s (it accepts %s)", t.text(k), name, c.keyNames())
		}
	}
	for fi, f := range c.fields {
		v := t.member(i, f.name)
		if v < 0 || t.nodes[v].kind == 'n' && f.kind != kindOptCount {
			if f.optional {
				e.vals[fi].num = f.def
				continue
			}
			return nil, errAt(e.Path()+"."+f.name, "missing (a field of %s)", name)
		}
		if err := f.decode(t, e, &e.vals[fi], v); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// number reads a JSON number or one of the strings "inf", "-inf", "nan".
func number(t *tape, path func() string, i int32) (float64, error) {
	switch n := &t.nodes[i]; n.kind {
	case '0':
		lit := t.text(i)
		v, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return 0, errAt(path(), "%s is beyond the float64 range (magnitude at most %g)", lit, math.MaxFloat64)
		}
		if v == 0 && strings.ContainsAny(strings.Split(strings.ToLower(lit), "e")[0], "123456789") {
			return 0, errAt(path(), "%s is below the float64 range (it would be 0; the smallest is %g)", lit, math.SmallestNonzeroFloat64)
		}
		return v, nil
	case '"':
		switch strings.ToLower(t.text(i)) {
		case "inf", "infinity", "+inf":
			return math.Inf(1), nil
		case "-inf", "-infinity":
			return math.Inf(-1), nil
		case "nan":
			return math.NaN(), nil
		}
	}
	return 0, errAt(path(), "must be a number (or \"inf\"), not %s", t.describe(i))
}

// MaxCount is the largest count (and product of counts) a file may give:
// 2^53, below which every integer is exact in float64, the arithmetic
// that composes counts.
const MaxCount = 1 << 53

// integer reads a JSON integer in [0, MaxCount]: a number with no
// fractional part, however written (100, 100.0, 1e2, 1.5e1).
func integer(t *tape, path func() string, i int32) (int64, error) {
	if t.nodes[i].kind != '0' {
		if v, err := number(t, path, i); err == nil && math.IsInf(v, 1) {
			return 0, errAt(path(), "is too large: at most 2^53 = %d (is %v)", int64(MaxCount), v)
		}
		return 0, errAt(path(), "must be an integer in [0, 2^53], not %s", t.describe(i))
	}
	lit := t.text(i)
	v, ok, big, neg := exactInteger(lit)
	switch {
	case neg:
		return 0, errAt(path(), "must be >= 0 (is %s)", lit)
	case !ok:
		return 0, errAt(path(), "must be an integer (is %s)", lit)
	case big || v > MaxCount:
		return 0, errAt(path(), "is too large: at most 2^53 = %d (is %s)", int64(MaxCount), lit)
	}
	return v, nil
}

// exactInteger reads a JSON number literal exactly: its value v when it
// is an integer of at most 16 digits (ok), or whether it is an integer
// of more (big), and whether it is below 0 (neg).
func exactInteger(lit string) (v int64, ok, big, neg bool) {
	s := lit
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	var mant []byte
	exp := 0
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		mant = append(mant, s[i])
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			mant = append(mant, s[i])
			exp--
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		sign := 1
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			if s[i] == '-' {
				sign = -1
			}
			i++
		}
		e := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 1e8 {
				e = 10*e + int(s[i]-'0')
			}
		}
		exp += sign * e
	}
	for len(mant) > 0 && mant[0] == '0' {
		mant = mant[1:]
	}
	for len(mant) > 0 && mant[len(mant)-1] == '0' {
		mant = mant[:len(mant)-1]
		exp++
	}
	if len(mant) == 0 {
		return 0, true, false, false // zero, -0 included
	}
	if exp < 0 {
		return 0, false, false, neg
	}
	if len(mant)+exp > 16 {
		return 0, true, true, neg
	}
	for _, d := range mant {
		v = 10*v + int64(d-'0')
	}
	for range exp {
		v *= 10
	}
	return v, true, false, neg
}
