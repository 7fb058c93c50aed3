package schema

// A validator for the part of JSON Schema (draft 2020-12) that
// vectors.schema.json uses. The module takes no new dependencies, and a
// hand-written list of checks would drift from the schema; interpreting the
// schema file itself keeps the schema the single statement of the format.
// A keyword this validator does not implement makes it refuse the schema
// rather than silently ignore the keyword.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// keywords the validator implements; annotations are accepted and ignored.
var (
	assertKeywords = map[string]bool{
		"$ref": true, "type": true, "properties": true, "required": true,
		"additionalProperties": true, "items": true, "minItems": true,
		"enum": true, "const": true, "pattern": true, "minimum": true,
		"exclusiveMinimum": true, "minLength": true, "allOf": true,
		"if": true, "then": true, "else": true,
	}
	annotationKeywords = map[string]bool{
		"$schema": true, "$id": true, "$defs": true, "title": true,
		"description": true, "$comment": true,
	}
)

// Validator checks JSON documents against a schema.
type Validator struct {
	root     map[string]any
	patterns map[string]*regexp.Regexp
}

// NewValidator compiles a schema, refusing keywords it does not implement.
func NewValidator(schemaJSON []byte) (*Validator, error) {
	var root map[string]any
	if err := decode(schemaJSON, &root); err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	v := &Validator{root: root, patterns: map[string]*regexp.Regexp{}}
	if err := v.compile(root, "#"); err != nil {
		return nil, err
	}
	return v, nil
}

func decode(data []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(out)
}

// compile walks the schema once: known keywords only, patterns compiled,
// references resolvable.
func (v *Validator) compile(s any, path string) error {
	switch s := s.(type) {
	case bool:
		return nil
	case map[string]any:
		for k, sub := range s {
			p := path + "/" + k
			switch {
			case annotationKeywords[k]:
				if k == "$defs" {
					defs, ok := sub.(map[string]any)
					if !ok {
						return fmt.Errorf("schema %s: $defs is not an object", p)
					}
					for name, d := range defs {
						if err := v.compile(d, p+"/"+name); err != nil {
							return err
						}
					}
				}
			case !assertKeywords[k]:
				return fmt.Errorf("schema %s: keyword %q not implemented by this validator", path, k)
			case k == "properties":
				props, ok := sub.(map[string]any)
				if !ok {
					return fmt.Errorf("schema %s: not an object", p)
				}
				for name, ps := range props {
					if err := v.compile(ps, p+"/"+name); err != nil {
						return err
					}
				}
			case k == "allOf":
				list, ok := sub.([]any)
				if !ok {
					return fmt.Errorf("schema %s: not an array", p)
				}
				for i, e := range list {
					if err := v.compile(e, fmt.Sprintf("%s/%d", p, i)); err != nil {
						return err
					}
				}
			case k == "items" || k == "additionalProperties" || k == "if" || k == "then" || k == "else":
				if err := v.compile(sub, p); err != nil {
					return err
				}
			case k == "pattern":
				pat, ok := sub.(string)
				if !ok {
					return fmt.Errorf("schema %s: pattern is not a string", p)
				}
				re, err := regexp.Compile(pat)
				if err != nil {
					return fmt.Errorf("schema %s: %v", p, err)
				}
				v.patterns[pat] = re
			case k == "$ref":
				ref, ok := sub.(string)
				if !ok {
					return fmt.Errorf("schema %s: $ref is not a string", p)
				}
				if _, err := v.resolve(ref); err != nil {
					return fmt.Errorf("schema %s: %v", p, err)
				}
			}
		}
		return nil
	}
	return fmt.Errorf("schema %s: a schema must be an object or a boolean", path)
}

func (v *Validator) resolve(ref string) (any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only #/$defs/NAME is supported", ref)
	}
	defs, _ := v.root["$defs"].(map[string]any)
	d, ok := defs[name]
	if !ok {
		return nil, fmt.Errorf("$ref %q: no such definition", ref)
	}
	return d, nil
}

// Validate checks a JSON document and returns every violation found.
func (v *Validator) Validate(doc []byte) []error {
	var inst any
	if err := decode(doc, &inst); err != nil {
		return []error{err}
	}
	var errs []error
	v.check(v.root, inst, "", &errs)
	return errs
}

func (v *Validator) check(s any, inst any, path string, errs *[]error) {
	fail := func(format string, args ...any) {
		p := path
		if p == "" {
			p = "(root)"
		}
		*errs = append(*errs, fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...)))
	}
	if b, ok := s.(bool); ok {
		if !b {
			fail("not allowed here")
		}
		return
	}
	sm := s.(map[string]any)
	if ref, ok := sm["$ref"].(string); ok {
		d, _ := v.resolve(ref)
		v.check(d, inst, path, errs)
	}
	if t, ok := sm["type"].(string); ok && !hasType(inst, t) {
		fail("want %s, have %s", t, typeName(inst))
		return
	}
	if c, ok := sm["const"]; ok && !equalJSON(c, inst) {
		fail("want %v, have %v", c, inst)
	}
	if e, ok := sm["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || equalJSON(x, inst)
		}
		if !found {
			fail("%v is not one of %v", inst, e)
		}
	}
	if str, ok := inst.(string); ok {
		if pat, ok := sm["pattern"].(string); ok && !v.patterns[pat].MatchString(str) {
			fail("%q does not match %s", str, pat)
		}
		if n, ok := number(sm["minLength"]); ok && float64(len([]rune(str))) < n {
			fail("shorter than %v", n)
		}
	}
	if x, ok := number(inst); ok {
		if n, ok := number(sm["minimum"]); ok && x < n {
			fail("%v < minimum %v", x, n)
		}
		if n, ok := number(sm["exclusiveMinimum"]); ok && x <= n {
			fail("%v <= exclusive minimum %v", x, n)
		}
	}
	if arr, ok := inst.([]any); ok {
		if n, ok := number(sm["minItems"]); ok && float64(len(arr)) < n {
			fail("fewer than %v items", n)
		}
		if items, ok := sm["items"]; ok {
			for i, e := range arr {
				v.check(items, e, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		}
	}
	if obj, ok := inst.(map[string]any); ok {
		props, _ := sm["properties"].(map[string]any)
		if req, ok := sm["required"].([]any); ok {
			for _, r := range req {
				if _, ok := obj[r.(string)]; !ok {
					fail("missing required %q", r)
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // errors in a stable order
		for _, k := range keys {
			p := path + "." + k
			if ps, ok := props[k]; ok {
				v.check(ps, obj[k], p, errs)
			} else if ap, ok := sm["additionalProperties"]; ok {
				if b, isBool := ap.(bool); isBool && !b {
					*errs = append(*errs, fmt.Errorf("%s: unknown property", p))
				} else {
					v.check(ap, obj[k], p, errs)
				}
			}
		}
	}
	if all, ok := sm["allOf"].([]any); ok {
		for _, sub := range all {
			v.check(sub, inst, path, errs)
		}
	}
	if cond, ok := sm["if"]; ok {
		var probe []error
		v.check(cond, inst, path, &probe)
		if len(probe) == 0 {
			if then, ok := sm["then"]; ok {
				v.check(then, inst, path, errs)
			}
		} else if els, ok := sm["else"]; ok {
			v.check(els, inst, path, errs)
		}
	}
}

func number(x any) (float64, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func hasType(inst any, t string) bool {
	switch t {
	case "object":
		_, ok := inst.(map[string]any)
		return ok
	case "array":
		_, ok := inst.([]any)
		return ok
	case "string":
		_, ok := inst.(string)
		return ok
	case "boolean":
		_, ok := inst.(bool)
		return ok
	case "number":
		_, ok := inst.(json.Number)
		return ok
	case "integer":
		n, ok := inst.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	case "null":
		return inst == nil
	}
	return false
}

func typeName(inst any) string {
	switch inst.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", inst)
}

func equalJSON(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}
