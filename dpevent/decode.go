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
// once, in notYetSupported. An unknown class or field, a missing field or
// a value out of its domain is an error naming its path in the JSON
// (`event.events[2].noise_multiplier: must be > 0`); nothing is skipped.
package dpevent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
	return 0, fmt.Errorf("unknown neighboring relation %q (want one of %s)", s, strings.Join(relationNames, ", "))
}

// Event is one decoded DpEvent.
type Event struct {
	// Class is dp_accounting's class name, e.g. "GaussianDpEvent".
	Class string
	// Path is where the event is in the JSON, e.g. "event.events[2]".
	Path string
	// Num holds the numeric fields (integers included), by field name.
	Num map[string]float64
	// Sub holds the nested event fields ("event"), by field name.
	Sub map[string]*Event
	// List holds the list-of-event fields ("events"), by field name.
	List map[string][]*Event
	// Ints holds the fields that are an integer or a list of integers
	// ("step_counts"), by field name.
	Ints map[string][]int64
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

// pathError is an error at a path in the JSON.
type pathError struct {
	path, msg string
}

func (e *pathError) Error() string { return e.path + ": " + e.msg }

func errAt(path, format string, args ...any) error {
	return &pathError{path, fmt.Sprintf(format, args...)}
}

// annotation matches the wrapper keys that carry what a peer printed
// (dp_accounting_0_6_0) beside the event; they are not read.
var annotation = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*(_[0-9]+)+$`)

// wrapperNotes are the other wrapper keys that describe the file and are
// not read.
var wrapperNotes = []string{"name", "what", "comment", "accountant"}

// Decode reads an event file: a bare event object or a wrapper
// {"event": ..., "neighboring_relation": ...}. A wrapper may also carry
// the descriptive keys "name", "what", "comment" and "accountant" and
// peers' printed results under keys like "dp_accounting_0_6_0"; any other
// key is an error.
func Decode(data []byte) (*File, error) {
	var top map[string]json.RawMessage
	if err := unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if _, bare := top["class_name"]; bare {
		e, err := decodeEvent("event", data)
		if err != nil {
			return nil, err
		}
		return &File{Event: e}, nil
	}
	f := &File{}
	for _, k := range sortedKeys(top) {
		raw := top[k]
		switch {
		case k == "event":
			e, err := decodeEvent("event", raw)
			if err != nil {
				return nil, err
			}
			f.Event = e
		case k == "neighboring_relation":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, errAt(k, "must be a string such as \"ADD_OR_REMOVE_ONE\"")
			}
			r, err := ParseRelation(s)
			if err != nil {
				return nil, errAt(k, "%v", err)
			}
			f.Relation, f.HasRelation = r, true
		case slices.Contains(wrapperNotes, k) || annotation.MatchString(k):
			// descriptive: not read
		default:
			return nil, errAt(k, "unknown key (a file is an event object with \"class_name\", or {\"event\": ..., \"neighboring_relation\": ...})")
		}
	}
	if f.Event == nil {
		return nil, errAt("event", "missing: the file has neither \"class_name\" nor \"event\"")
	}
	return f, nil
}

func unmarshal(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeEvent reads the event object raw at path.
func decodeEvent(path string, raw json.RawMessage) (*Event, error) {
	var obj map[string]json.RawMessage
	if err := unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, errAt(path, "must be an event object with \"class_name\"")
	}
	var name string
	if err := json.Unmarshal(obj["class_name"], &name); err != nil || name == "" {
		return nil, errAt(path, "missing or non-string \"class_name\"")
	}
	c, ok := classes[name]
	if !ok {
		if why, later := notYetSupported[name]; later {
			return nil, errAt(path, "%s: not yet supported: %s", name, why)
		}
		return nil, errAt(path, "%s: unknown event class (rdpcheck reads %s)", name, strings.Join(ClassNames(), ", "))
	}
	e := &Event{Class: name, Path: path, Num: map[string]float64{}, Sub: map[string]*Event{},
		List: map[string][]*Event{}, Ints: map[string][]int64{}}
	for _, k := range sortedKeys(obj) {
		if k == "class_name" {
			continue
		}
		if k == "module_name" {
			var m string
			if err := json.Unmarshal(obj[k], &m); err != nil {
				return nil, errAt(path+"."+k, "must be a string")
			}
			continue
		}
		if !slices.ContainsFunc(c.fields, func(f field) bool { return f.name == k }) {
			return nil, errAt(path+"."+k, "unknown field of %s (its fields: %s)", name, c.fieldNames())
		}
	}
	for _, f := range c.fields {
		fp := path + "." + f.name
		raw, ok := obj[f.name]
		if !ok || string(raw) == "null" && f.kind != kindOptCount {
			if f.optional {
				e.Num[f.name] = f.def
				continue
			}
			return nil, errAt(fp, "missing (a field of %s)", name)
		}
		if err := f.decode(e, fp, raw); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// number reads a JSON number or one of the strings "inf", "-inf", "nan".
func number(path string, raw json.RawMessage) (float64, error) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		v, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return 0, errAt(path, "number %s out of the float64 range", n)
		}
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		switch strings.ToLower(s) {
		case "inf", "infinity", "+inf":
			return math.Inf(1), nil
		case "-inf", "-infinity":
			return math.Inf(-1), nil
		case "nan":
			return math.NaN(), nil
		}
	}
	return 0, errAt(path, "must be a number (or \"inf\"), not %s", string(raw))
}

// integer reads a JSON integer (an integral number such as 100 or 100.0).
func integer(path string, raw json.RawMessage) (int64, error) {
	v, err := number(path, raw)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return 0, errAt(path, "must be an integer, not %s", string(raw))
	}
	return int64(v), nil
}
