package schema

// The event input of EventEpsilon and EventDelta: one DpEvent of
// dp_accounting (google/differential-privacy, python/dp_accounting,
// 0.6.0), written as JSON in the form of DpEvent.to_named_tuple(), the
// form of examples/events/*.json. Package schema imports nothing of
// rdpcheck's, so it holds its own table of the classes an event input may
// hold; its test holds the table to package dpevent, which accounts them.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// DpFieldKind is how a field of a DpEvent is written.
type DpFieldKind int

const (
	// DpNumber is a finite JSON number (a float64, read exactly from its
	// shortest round-trip decimal).
	DpNumber DpFieldKind = iota
	// DpCount is a JSON integer >= 0.
	DpCount
	// DpNumbers is a list of DpNumber.
	DpNumbers
	// DpSub is a nested event object.
	DpSub
	// DpSubs is a list of event objects.
	DpSubs
)

// DpField is one field of a DpEvent class, named as in dp_event.py.
type DpField struct {
	Name string
	Kind DpFieldKind
}

// DpEventClass is one DpEvent class an event input may hold.
type DpEventClass struct {
	Name   string
	Fields []DpField
	Doc    string
}

// DpEventClasses are the classes an event input may hold: those
// dp_accounting 0.6.0's PLDAccountant composes (pld_privacy_accountant.py,
// _maybe_compose), each with its fields as dp_event.py names them. Any
// other class or field is refused.
var DpEventClasses = []DpEventClass{
	{Name: "NoOpDpEvent", Doc: "releases nothing"},
	{Name: "NonPrivateDpEvent", Doc: "releases the data: no finite epsilon"},
	{Name: "EpsilonDeltaDpEvent", Fields: []DpField{{"epsilon", DpNumber}, {"delta", DpNumber}}, Doc: "any (epsilon, delta)-DP mechanism"},
	{Name: "GaussianDpEvent", Fields: []DpField{{"noise_multiplier", DpNumber}}, Doc: "the Gaussian mechanism, noise standard deviation over l2-sensitivity"},
	{Name: "LaplaceDpEvent", Fields: []DpField{{"noise_multiplier", DpNumber}}, Doc: "the Laplace mechanism, scale over l1-sensitivity"},
	{Name: "DiscreteLaplaceDpEvent", Fields: []DpField{{"noise_parameter", DpNumber}, {"sensitivity", DpCount}}, Doc: "integer noise of mass proportional to e^(-noise_parameter |x|) on a query of integer sensitivity"},
	{Name: "RandomizedResponseDpEvent", Fields: []DpField{{"noise_parameter", DpNumber}, {"num_buckets", DpCount}}, Doc: "k-ary randomized response: the true bucket replaced by a uniform one with probability noise_parameter"},
	{Name: "ExponentialMechanismDpEvent", Fields: []DpField{{"epsilon", DpNumber}}, Doc: "the exponential mechanism of parameter epsilon"},
	{Name: "PermuteAndFlipDpEvent", Fields: []DpField{{"epsilon", DpNumber}}, Doc: "permute-and-flip of parameter epsilon"},
	{Name: "MixtureOfGaussiansDpEvent", Fields: []DpField{{"standard_deviation", DpNumber}, {"sensitivities", DpNumbers}, {"sampling_probs", DpNumbers}}, Doc: "N(0, sd^2) against the mixture sum_i sampling_probs[i] N(sensitivities[i], sd^2)"},
	{Name: "PoissonSampledDpEvent", Fields: []DpField{{"sampling_probability", DpNumber}, {"event", DpSub}}, Doc: "each record taken with probability sampling_probability, then event"},
	{Name: "TruncatedSubsampledGaussianDpEvent", Fields: []DpField{{"dataset_size", DpCount}, {"sampling_probability", DpNumber}, {"truncated_batch_size", DpCount}, {"noise_multiplier", DpNumber}}, Doc: "Poisson sampling, the batch cut to truncated_batch_size, then Gaussian noise"},
	{Name: "ComposedDpEvent", Fields: []DpField{{"events", DpSubs}}, Doc: "the events one after another"},
	{Name: "SelfComposedDpEvent", Fields: []DpField{{"event", DpSub}, {"count", DpCount}}, Doc: "event count times"},
}

// DpEventClassOf returns the class named name, or nil.
func DpEventClassOf(name string) *DpEventClass {
	for i := range DpEventClasses {
		if DpEventClasses[i].Name == name {
			return &DpEventClasses[i]
		}
	}
	return nil
}

// maxEventDepth bounds the nesting CheckDpEvent follows.
const maxEventDepth = 100

// CheckDpEvent reports whether raw is one event object of
// DpEventClasses: "class_name" one of them, exactly its fields (each
// once, of its kind), and the optional "module_name" (a string, as
// to_named_tuple() writes it); nothing else, nested at most 100 deep. The
// error names the path of what is wrong ("event.events[1].count: ...").
func CheckDpEvent(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := decodeOrdered(dec, &v); err != nil {
		return fmt.Errorf("event: not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("event: more than one JSON value")
	}
	return checkEvent(v, "event", 0)
}

// object is a JSON object with its keys in order, duplicates kept.
type object []member

type member struct {
	key string
	val any
}

// decodeOrdered reads one JSON value into v, objects as object (so that
// a key given twice is seen), numbers as json.Number.
func decodeOrdered(dec *json.Decoder, v *any) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch d := tok.(type) {
	case json.Delim:
		switch d {
		case '{':
			var o object
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				var x any
				if err := decodeOrdered(dec, &x); err != nil {
					return err
				}
				o = append(o, member{k.(string), x})
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			*v = o
		case '[':
			list := []any{}
			for dec.More() {
				var x any
				if err := decodeOrdered(dec, &x); err != nil {
					return err
				}
				list = append(list, x)
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			*v = list
		}
	default:
		*v = tok
	}
	return nil
}

func describeJSON(v any) string {
	switch x := v.(type) {
	case object:
		return "an object"
	case []any:
		return "a list"
	case string:
		return fmt.Sprintf("the string %q", x)
	case json.Number:
		return "the number " + x.String()
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func checkEvent(v any, path string, depth int) error {
	if depth > maxEventDepth {
		return fmt.Errorf("%s: events nested more than %d deep", path, maxEventDepth)
	}
	o, ok := v.(object)
	if !ok {
		return fmt.Errorf("%s: want a DpEvent object {\"class_name\": ..., its fields}, not %s", path, describeJSON(v))
	}
	var class *DpEventClass
	seen := map[string]bool{}
	for _, m := range o {
		if seen[m.key] {
			return fmt.Errorf("%s: key %q given twice", path, m.key)
		}
		seen[m.key] = true
		if m.key == "class_name" {
			name, ok := m.val.(string)
			if !ok {
				return fmt.Errorf("%s.class_name: want a string, not %s", path, describeJSON(m.val))
			}
			if class = DpEventClassOf(name); class == nil {
				return fmt.Errorf("%s.class_name: unknown class %q (an event input holds one of %s)", path, name, dpClassNames())
			}
		}
	}
	if class == nil {
		return fmt.Errorf("%s: no \"class_name\" (a DpEvent object names its class)", path)
	}
	for _, m := range o {
		where := path + "." + m.key
		if m.key == "class_name" {
			continue
		}
		if m.key == "module_name" {
			if _, ok := m.val.(string); !ok {
				return fmt.Errorf("%s: want a string, not %s", where, describeJSON(m.val))
			}
			continue
		}
		i := slices.IndexFunc(class.Fields, func(f DpField) bool { return f.Name == m.key })
		if i < 0 {
			return fmt.Errorf("%s: %s has no field %q (its fields: %s)", path, class.Name, m.key, class.fieldNames())
		}
		if err := checkField(class.Fields[i].Kind, m.val, where, depth); err != nil {
			return err
		}
	}
	for _, f := range class.Fields {
		if !seen[f.Name] {
			return fmt.Errorf("%s: %s needs its field %q (its fields: %s)", path, class.Name, f.Name, class.fieldNames())
		}
	}
	return nil
}

func checkField(k DpFieldKind, v any, where string, depth int) error {
	switch k {
	case DpNumber:
		return checkNumber(v, where)
	case DpCount:
		n, ok := v.(json.Number)
		if ok {
			if i, err := n.Int64(); err == nil && i >= 0 {
				return nil
			}
		}
		return fmt.Errorf("%s: want an integer >= 0 written without a point or exponent, not %s", where, describeJSON(v))
	case DpNumbers:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want a list of numbers, not %s", where, describeJSON(v))
		}
		for i, x := range list {
			if err := checkNumber(x, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	case DpSub:
		return checkEvent(v, where, depth+1)
	case DpSubs:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want a list of events, not %s", where, describeJSON(v))
		}
		for i, x := range list {
			if err := checkEvent(x, fmt.Sprintf("%s[%d]", where, i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkNumber(v any, where string) error {
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Errorf("%s: want a number, not %s", where, describeJSON(v))
	}
	if x, err := n.Float64(); err != nil || math.IsInf(x, 0) {
		return fmt.Errorf("%s: the number %s is no finite float64", where, n)
	}
	return nil
}

func (c *DpEventClass) fieldNames() string {
	if len(c.Fields) == 0 {
		return "none"
	}
	var names []string
	for _, f := range c.Fields {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func dpClassNames() string {
	var names []string
	for _, c := range DpEventClasses {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// dpEventJSONSchema returns the JSON Schema of an event object: one $defs
// entry, "dpEvent", recursive through the nested events.
func dpEventJSONSchema() obj {
	ref := obj{{"$ref", "#/$defs/dpEvent"}}
	var names []any
	var rules []any
	for _, c := range DpEventClasses {
		names = append(names, c.Name)
		props := obj{{"class_name", obj{}}, {"module_name", obj{{"type", "string"}}}}
		req := []any{"class_name"}
		for _, f := range c.Fields {
			var s obj
			switch f.Kind {
			case DpNumber:
				s = obj{{"type", "number"}}
			case DpCount:
				s = obj{{"type", "integer"}, {"minimum", 0}}
			case DpNumbers:
				s = obj{{"type", "array"}, {"items", obj{{"type", "number"}}}}
			case DpSub:
				s = ref
			case DpSubs:
				s = obj{{"type", "array"}, {"items", ref}}
			}
			props = append(props, kv{f.Name, s})
			req = append(req, f.Name)
		}
		rules = append(rules, obj{{"if", obj{{"properties", obj{{"class_name", obj{{"const", c.Name}}}}}}},
			{"then", obj{{"properties", props}, {"required", req}, {"additionalProperties", false}}}})
	}
	return obj{{"type", "object"}, {"required", []any{"class_name"}},
		{"description", "a dp_accounting DpEvent in its to_named_tuple() form (dp_event.py of dp_accounting 0.6.0): class_name, the class's fields as dp_accounting names them, nested events as objects; the classes dp_accounting's PLDAccountant composes, and nothing else"},
		{"properties", obj{{"class_name", obj{{"enum", names}}}}},
		{"allOf", rules}}
}
