package dpevent

import (
	"encoding/json"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/rdpcheck/rdpcheck"
)

// The JSON of an event file is read here into a tape, in one pass:
// encoding/json's map decoding keeps the last of duplicate keys, and
// decoding a tree level by level into json.RawMessage re-reads each
// level's whole subtree (time and memory quadratic in the depth: a 407 KB
// file of 4,900 nested ComposedDpEvents took 35 s and 3 GB). The tape
// keeps every key in order, so duplicates are found, and holds offsets
// into the input rather than copies.

// MaxDepth is how deeply events may nest in a file (a ComposedDpEvent's
// list counts as one level with the event): deeper is an error.
// dp_accounting's own trees are a few levels deep; Python's json module
// cannot read or write a tree a thousand levels deep.
const MaxDepth = 10000

// maxJSONDepth bounds the nesting of JSON objects and arrays: two per
// event level (the event's object and its list), and the wrapper.
const maxJSONDepth = 2*MaxDepth + 2

// maxInput is the largest input the tape addresses (offsets are int32).
const maxInput = math.MaxInt32

// node is one JSON value of the tape.
type node struct {
	kind byte // '{', '[', '"' (string), '0' (number), 't', 'f', 'n' (null)
	// esc: a string with a backslash escape
	esc bool
	// start, end: the value's bytes (a string's without its quotes)
	start, end int32
	// first, n: an object's keys and values, alternating, or an array's
	// elements are kids[first:first+n]
	first, n int32
	// dup: for an object, the index among its keys (0, 1, ...) of the
	// first key that repeats an earlier one; -1 if none
	dup int32
}

// tape is a parsed JSON text.
type tape struct {
	data  []byte
	nodes []node
	kids  []int32
	stack []int32 // scratch: the kids of the objects and arrays open
	pos   int
	depth int
}

// syntaxError is a malformed JSON text, at a line and column (1-based,
// columns in bytes).
type syntaxError struct {
	line, col int
	msg       string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("not valid JSON at line %d, column %d: %s", e.line, e.col, e.msg)
}

// depthError is JSON nested deeper than maxJSONDepth.
type depthError struct{ line, col int }

func (e *depthError) Error() string {
	return fmt.Sprintf("nested deeper than %d levels of JSON at line %d, column %d (rdpcheck reads event trees at most %d events deep)",
		maxJSONDepth, e.line, e.col, MaxDepth)
}

func (e *depthError) Unwrap() error { return ErrTooDeep }

func (e *syntaxError) Unwrap() error { return rdpcheck.ErrInput }

// parseJSON reads data, one JSON value and white space around it, into a
// tape; the root is the last node (the tape is in post-order).
func parseJSON(data []byte) (*tape, error) {
	if len(data) > maxInput {
		return nil, &kindError{fmt.Sprintf("the file is %d bytes; rdpcheck reads at most %d", len(data), maxInput), rdpcheck.ErrTooLarge}
	}
	t := &tape{data: data}
	// a node per 12 bytes is about what event files hold; each node but
	// the root is one kid
	t.nodes = make([]node, 0, len(data)/12+1)
	t.kids = make([]int32, 0, len(data)/12+1)
	t.skipSpace()
	if _, err := t.value(); err != nil {
		return nil, err
	}
	t.skipSpace()
	if t.pos < len(t.data) {
		return nil, t.errorf("data after the JSON value")
	}
	t.stack = nil
	return t, nil
}

// where returns the line and column of byte offset off.
func (t *tape) where(off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(t.data); i++ {
		if t.data[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}

func (t *tape) errorf(format string, args ...any) error {
	l, c := t.where(t.pos)
	return &syntaxError{l, c, fmt.Sprintf(format, args...)}
}

func (t *tape) skipSpace() {
	for t.pos < len(t.data) {
		switch t.data[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

// value reads the value at t.pos (no white space before it) and returns
// its node's index.
func (t *tape) value() (int32, error) {
	if t.pos >= len(t.data) {
		return 0, t.errorf("unexpected end of input, want a value")
	}
	switch c := t.data[t.pos]; c {
	case '{', '[':
		return t.container(c)
	case '"':
		return t.str()
	case 't':
		return t.literal("true", 't')
	case 'f':
		return t.literal("false", 'f')
	case 'n':
		return t.literal("null", 'n')
	case 'I', 'N':
		// Python's json.dumps writes float('inf') and float('nan') so
		if t.hasPrefix("Infinity") || t.hasPrefix("NaN") {
			return 0, t.errorf("Infinity and NaN are not JSON (Python's json.dumps writes them for float('inf') and float('nan')); write the strings \"inf\" or \"nan\"")
		}
	default:
		if c == '-' || c >= '0' && c <= '9' {
			if t.hasPrefix("-Infinity") {
				return 0, t.errorf("-Infinity is not JSON (Python's json.dumps writes it for float('-inf')); write the string \"-inf\"")
			}
			return t.number()
		}
	}
	r, _ := utf8.DecodeRune(t.data[t.pos:])
	return 0, t.errorf("unexpected %q, want a value", r)
}

func (t *tape) hasPrefix(s string) bool {
	return len(t.data)-t.pos >= len(s) && string(t.data[t.pos:t.pos+len(s)]) == s
}

func (t *tape) add(n node) int32 {
	t.nodes = append(t.nodes, n)
	return int32(len(t.nodes) - 1)
}

func (t *tape) literal(word string, kind byte) (int32, error) {
	if !t.hasPrefix(word) {
		r, _ := utf8.DecodeRune(t.data[t.pos:])
		return 0, t.errorf("unexpected %q, want a value", r)
	}
	i := t.add(node{kind: kind, start: int32(t.pos), end: int32(t.pos + len(word))})
	t.pos += len(word)
	return i, nil
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (t *tape) number() (int32, error) {
	start := t.pos
	digits := func() int {
		n := 0
		for t.pos < len(t.data) && t.data[t.pos] >= '0' && t.data[t.pos] <= '9' {
			t.pos++
			n++
		}
		return n
	}
	if t.data[t.pos] == '-' {
		t.pos++
	}
	if t.pos < len(t.data) && t.data[t.pos] == '0' {
		t.pos++
	} else if digits() == 0 {
		return 0, t.errorf("a number needs a digit after the minus sign")
	}
	if t.pos < len(t.data) && t.data[t.pos] == '.' {
		t.pos++
		if digits() == 0 {
			return 0, t.errorf("a number needs a digit after the decimal point")
		}
	}
	if t.pos < len(t.data) && (t.data[t.pos] == 'e' || t.data[t.pos] == 'E') {
		t.pos++
		if t.pos < len(t.data) && (t.data[t.pos] == '+' || t.data[t.pos] == '-') {
			t.pos++
		}
		if digits() == 0 {
			return 0, t.errorf("a number needs a digit in its exponent")
		}
	}
	return t.add(node{kind: '0', start: int32(start), end: int32(t.pos)}), nil
}

// str reads a string; escapes are checked here and decoded by text.
func (t *tape) str() (int32, error) {
	t.pos++ // the quote
	start, esc := t.pos, false
	for {
		if t.pos >= len(t.data) {
			return 0, t.errorf("unexpected end of input in a string")
		}
		switch c := t.data[t.pos]; {
		case c == '"':
			i := t.add(node{kind: '"', esc: esc, start: int32(start), end: int32(t.pos)})
			t.pos++
			return i, nil
		case c == '\\':
			esc = true
			t.pos++
			if t.pos >= len(t.data) {
				return 0, t.errorf("unexpected end of input in a string")
			}
			switch t.data[t.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				t.pos++
			case 'u':
				t.pos++
				for range 4 {
					if t.pos >= len(t.data) || !isHex(t.data[t.pos]) {
						return 0, t.errorf("\\u needs four hexadecimal digits")
					}
					t.pos++
				}
			default:
				return 0, t.errorf("unknown escape \\%c in a string", t.data[t.pos])
			}
		case c < 0x20:
			return 0, t.errorf("control character %q in a string", c)
		default:
			t.pos++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// container reads an object ('{') or an array ('[').
func (t *tape) container(open byte) (int32, error) {
	if t.depth++; t.depth > maxJSONDepth {
		l, c := t.where(t.pos)
		return 0, &depthError{l, c}
	}
	closer := byte('}')
	if open == '[' {
		closer = ']'
	}
	start := t.pos
	t.pos++
	mark := len(t.stack)
	t.skipSpace()
	if t.pos < len(t.data) && t.data[t.pos] == closer {
		t.pos++
	} else {
		for {
			if open == '{' {
				if t.pos >= len(t.data) || t.data[t.pos] != '"' {
					return 0, t.errorf("want a key (a string) in an object")
				}
				k, err := t.str()
				if err != nil {
					return 0, err
				}
				t.stack = append(t.stack, k)
				t.skipSpace()
				if t.pos >= len(t.data) || t.data[t.pos] != ':' {
					return 0, t.errorf("want ':' after a key")
				}
				t.pos++
				t.skipSpace()
			}
			v, err := t.value()
			if err != nil {
				return 0, err
			}
			t.stack = append(t.stack, v)
			t.skipSpace()
			if t.pos >= len(t.data) {
				return 0, t.errorf("unexpected end of input, want ',' or '%c'", closer)
			}
			if c := t.data[t.pos]; c == closer {
				t.pos++
				break
			} else if c != ',' {
				return 0, t.errorf("want ',' or '%c'", closer)
			}
			t.pos++
			t.skipSpace()
		}
	}
	t.depth--
	kids := t.stack[mark:]
	n := node{kind: open, start: int32(start), end: int32(t.pos), first: int32(len(t.kids)), n: int32(len(kids)), dup: -1}
	if open == '{' {
		n.dup = t.firstDup(kids)
	}
	t.kids = append(t.kids, kids...)
	t.stack = t.stack[:mark]
	return t.add(n), nil
}

// firstDup returns the index (among the keys) of the first key of the
// object's members kv (key, value, key, value, ...) that repeats an
// earlier key, or -1.
func (t *tape) firstDup(kv []int32) int32 {
	nk := len(kv) / 2
	if nk <= 16 {
		for i := 1; i < nk; i++ {
			for j := range i {
				if t.sameKey(kv[2*i], kv[2*j]) {
					return int32(i)
				}
			}
		}
		return -1
	}
	seen := make(map[string]bool, nk)
	for i := range nk {
		k := t.text(kv[2*i])
		if seen[k] {
			return int32(i)
		}
		seen[k] = true
	}
	return -1
}

// sameKey reports whether string nodes a and b hold the same text.
func (t *tape) sameKey(a, b int32) bool {
	na, nb := &t.nodes[a], &t.nodes[b]
	if !na.esc && !nb.esc {
		return string(t.data[na.start:na.end]) == string(t.data[nb.start:nb.end])
	}
	return t.text(a) == t.text(b)
}

// is reports whether string node i holds the text s.
func (t *tape) is(i int32, s string) bool {
	n := &t.nodes[i]
	if !n.esc {
		return string(t.data[n.start:n.end]) == s
	}
	return t.text(i) == s
}

// text returns a string node's decoded text, or any other node's bytes.
func (t *tape) text(i int32) string {
	n := &t.nodes[i]
	raw := t.data[n.start:n.end]
	if n.kind != '"' || !n.esc {
		return string(raw)
	}
	var s string
	// the escapes were checked: encoding/json decodes them (with U+FFFD
	// for unpaired surrogates, as Python does not, but no key or value
	// rdpcheck reads has one)
	if err := json.Unmarshal(t.data[n.start-1:n.end+1], &s); err != nil {
		return string(raw)
	}
	return s
}

// source returns a node's bytes as written (a string with its quotes),
// shortened to about 40 bytes for messages.
func (t *tape) source(i int32) string {
	n := &t.nodes[i]
	s, e := int(n.start), int(n.end)
	if n.kind == '"' {
		s, e = s-1, e+1
	}
	if e-s > 40 {
		cut := s + 37
		for cut > s && !utf8.RuneStart(t.data[cut]) {
			cut--
		}
		return string(t.data[s:cut]) + "..."
	}
	return string(t.data[s:e])
}

// member returns the value of key k in object node i, or -1.
func (t *tape) member(i int32, k string) int32 {
	n := &t.nodes[i]
	for j := n.first; j < n.first+n.n; j += 2 {
		if t.is(t.kids[j], k) {
			return t.kids[j+1]
		}
	}
	return -1
}
