package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// GenerateJSONSchema returns the JSON Schema of a vector file whose
// functions are fns: vectors.schema.json is GenerateJSONSchema(Functions)
// (TestSchemaGenerated). The function enum, each function's required
// inputs and the test's input properties come from the table; the rest is
// the format itself.
func GenerateJSONSchema(fns []Function) []byte {
	ref := func(def string) obj { return obj{{"$ref", "#/$defs/" + def}} }
	withDoc := func(o obj, doc string) obj {
		if doc != "" {
			o = append(o, kv{"description", doc})
		}
		return o
	}
	used := map[string]bool{}
	var names []string
	var rules []any
	for _, f := range fns {
		names = append(names, f.Name)
		var req []any
		for _, in := range f.Inputs {
			used[in] = true
			if in == "orders" && f.GroupOrders {
				continue // may be the group's
			}
			req = append(req, in)
			if k := InputOf(in).Kind; k == Float || k == FloatList {
				req = append(req, in+"Hex")
			}
		}
		items := obj{{"required", req}}
		if f.Interval {
			items = append(items, kv{"if", obj{{"properties", obj{{"result", obj{{"const", Invalid}}}}}}},
				kv{"else", obj{{"required", []any{"lower", "lowerHex", "upper", "upperHex"}}}})
		}
		rules = append(rules, obj{{"if", obj{{"properties", obj{{"function", obj{{"const", f.Name}}}}}}},
			{"then", obj{{"properties", obj{{"tests", obj{{"items", items}}}}}}}})
	}
	nameList := make([]any, len(names))
	for i, n := range names {
		nameList[i] = n
	}

	testProps := obj{
		{"tcId", obj{{"type", "integer"}, {"minimum", 1}, {"description", "unique within the file; 1..numberOfTests in file order"}}},
		{"comment", obj{{"type", "string"}}},
		{"flags", obj{{"type", "array"}, {"items", obj{{"type", "string"}, {"pattern", "^[A-Z][A-Za-z0-9]*$"}}}}},
	}
	for _, in := range Inputs {
		if !used[in.Name] {
			continue
		}
		switch in.Kind {
		case Float:
			testProps = append(testProps, kv{in.Name, withDoc(ref("float64"), in.Doc)}, kv{in.Name + "Hex", ref("hexFloat")})
		case FloatList:
			testProps = append(testProps, kv{in.Name, withDoc(ref("float64List"), in.Doc)}, kv{in.Name + "Hex", ref("hexList")})
		case Int:
			testProps = append(testProps, kv{in.Name, withDoc(obj{{"type", "integer"}}, in.Doc)})
		case IntList:
			testProps = append(testProps, kv{in.Name, withDoc(obj{{"type", "array"}, {"items", obj{{"type", "integer"}}}}, in.Doc)})
		case Text:
			if in.Ref != "" {
				testProps = append(testProps, kv{in.Name, withDoc(ref(in.Ref), in.Doc)})
			} else {
				testProps = append(testProps, kv{in.Name, withDoc(obj{{"type", "string"}}, in.Doc)})
			}
		case PhaseList:
			testProps = append(testProps, kv{in.Name, withDoc(obj{{"type", "array"}, {"items", ref("phase")}}, in.Doc)})
		case DpEvent:
			testProps = append(testProps, kv{in.Name, withDoc(ref(in.Ref), in.Doc)})
		}
	}
	testProps = append(testProps,
		kv{"expected", withDoc(ref("exact"), "the exact value for the binary inputs, rounded to 50 significant digits")},
		kv{"expectedFloat64", withDoc(ref("float64"), "the float64 nearest the exact value")},
		kv{"expectedOrder", withDoc(ref("float64"), "Epsilon, Delta, DPSGDEpsilon: the order attaining the minimum (the first on ties); informative, not scored")},
		kv{"shortcut", obj{{"type", "object"}, {"additionalProperties", false}, {"required", []any{"value", "why"}},
			{"description", "Epsilon, Delta, WORGaussian: a valid bound below the formula's value (conversions: Bretagnolle-Huber through KL <= D_alpha; the WOR bound: the unsampled Gaussian); an answer between it and expected is tighter, and valid"},
			{"properties", obj{{"value", withDoc(ref("exact"), "the bound, rounded up")}, {"why", obj{{"type", "string"}}}}}}},
		kv{"lower", withDoc(ref("float64"), "ProfileEpsilon, ProfileDelta (instead of expected): a proven lower bound on the optimal value; an answer below it is unsound")},
		kv{"lowerHex", withDoc(ref("hexFloat"), "the same bound, exactly")},
		kv{"upper", withDoc(ref("float64"), "ProfileEpsilon, ProfileDelta: a proven upper bound on the optimal value; an answer above it is valid but loose")},
		kv{"upperHex", withDoc(ref("hexFloat"), "the same bound, exactly")},
		kv{"peers", obj{{"type", "array"}, {"items", ref("peerPrint")}, {"description", "TF Privacy grid files: what each peer version printed for these inputs, judged against expected"}}},
		kv{"peerValue", obj{{"type", "string"}, {"description", "what the peer printed: a shortest round-trip decimal, inf, -inf, nan, or error: NAME"}}},
		kv{"peerOrder", ref("float64")},
		kv{"peerRelativeError", ref("relError")},
		kv{"peerTolerance", obj{{"type", "string"}, {"description", "the tolerance the peer's own test asserts its value with"}}},
		kv{"result", ref("result")},
	)
	noValue := obj{{"expected", false}, {"expectedFloat64", false}, {"expectedOrder", false}, {"shortcut", false}}
	test := obj{
		{"type", "object"},
		{"additionalProperties", false},
		{"required", []any{"tcId", "comment", "flags", "result"}},
		{"properties", testProps},
		{"if", obj{{"properties", obj{{"result", obj{{"const", Invalid}}}}}}},
		{"then", obj{{"properties", append(append(obj{}, noValue...), kv{"lower", false}, kv{"lowerHex", false}, kv{"upper", false}, kv{"upperHex", false})}}},
		{"else", obj{
			{"if", obj{{"required", []any{"lower"}}}},
			{"then", obj{{"properties", noValue}}},
			{"else", obj{{"required", []any{"expected", "expectedFloat64"}}}},
		}},
	}
	group := obj{
		{"type", "object"},
		{"additionalProperties", false},
		{"required", []any{"name", "function", "comment", "relativeTolerance", "tests"}},
		{"properties", obj{
			{"name", obj{{"type", "string"}, {"pattern", "^[a-z0-9][a-z0-9_./-]*$"}, {"description", "unique within the file"}}},
			{"function", obj{{"enum", nameList}, {"description", "the function every test of the group calls; its arguments are the test's inputs"}}},
			{"comment", obj{{"type", "string"}}},
			{"relativeTolerance", obj{{"type", "number"}, {"exclusiveMinimum", 0}, {"description", "the largest relative error a float64 implementation should have on this group's valid and acceptable tests"}}},
			{"peer", obj{{"type", "string"}, {"description", "for the peers' unit-test expectations (vectors/tfprivacy/expectations.json): whose test asserts the peerValue fields"}}},
			{"orders", withDoc(ref("float64List"), "orders shared by every test of the group that has none of its own")},
			{"ordersHex", ref("hexList")},
			{"tests", obj{{"type", "array"}, {"items", ref("test")}}},
		}},
		{"allOf", rules},
	}
	defs := obj{
		{"float64", obj{{"type", "string"}, {"pattern", "^(-?[0-9]+(\\.[0-9]+)?(e[-+][0-9]+)?|inf|-inf|nan)$"}, {"description", "a binary64 value as its shortest round-trip decimal"}}},
		{"hexFloat", obj{{"type", "string"}, {"pattern", "^(-?0x[01](\\.[0-9a-f]+)?p[-+][0-9]+|inf|-inf|nan)$"}, {"description", "the same value as a C99 hex float"}}},
		{"float64List", obj{{"type", "array"}, {"items", ref("float64")}}},
		{"hexList", obj{{"type", "array"}, {"items", ref("hexFloat")}}},
		{"phase", obj{{"type", "object"}, {"additionalProperties", false}, {"required", []any{"q", "qHex", "sigma", "sigmaHex", "steps"}},
			{"description", "steps steps of the Poisson-subsampled Gaussian with sampling rate q and noise multiplier sigma"},
			{"properties", obj{{"q", ref("float64")}, {"qHex", ref("hexFloat")}, {"sigma", ref("float64")}, {"sigmaHex", ref("hexFloat")}, {"steps", obj{{"type", "integer"}}}}}}},
		{"dpEvent", dpEventJSONSchema()},
		{"exact", obj{{"type", "string"}, {"pattern", "^(0|-?[1-9]\\.[0-9]{39,}e[-+][0-9]+|inf)$"}, {"description", "an exact value rounded to at least 40 significant digits (50 are written), 0 or inf"}}},
		{"relError", obj{{"type", "string"}, {"pattern", "^(-?[0-9]\\.[0-9]+e[-+][0-9]+|0|inf|-inf|nan)$"}, {"description", "signed relative error (peer - reference) / reference, 3 significant digits"}}},
		{"conversion", obj{{"enum", []any{"classic", "improved"}}, {"description", "classic: eps = rdp + log(1/delta)/(alpha-1) (Mironov 2017, Prop 3); improved: eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1) (Canonne, Kamath, Steinke 2020)"}}},
		{"result", obj{{"enum", []any{Valid, Invalid, Acceptable}}, {"description", "valid: return the expected value; invalid: reject the input; acceptable: either the expected value or a rejection is defensible (a flag says why)"}}},
		{"peerPrint", obj{{"type", "object"}, {"additionalProperties", false}, {"required", []any{"peer", "value", "relativeError", "flags"}},
			{"properties", obj{
				{"peer", obj{{"type", "string"}, {"description", "the peer version, as named in the file's header"}}},
				{"value", obj{{"type", "string"}, {"description", "what the peer printed: a shortest round-trip decimal, inf, -inf, nan, or error: NAME"}}},
				{"order", withDoc(ref("float64"), "DPSGDEpsilon: the order the peer chose")},
				{"relativeError", ref("relError")},
				{"flags", obj{{"type", "array"}, {"items", obj{{"type", "string"}}}, {"description", "how the value deviates from expected (explained in notes)"}}},
			}}}},
		{"group", group},
		{"test", test},
	}
	top := obj{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", "https://github.com/rdpcheck/rdpcheck/vectors/schema/vectors.schema.json"},
		{"title", "rdpcheck test vectors"},
		{"description", "One vector file: a header saying what the values are and how they were made and checked, notes explaining every flag, and groups of tests. Every float64 input is given twice, as its shortest round-trip decimal (field named after the argument) and as a hex float (the same name with 'Hex'); both parse to the same binary64 value, and expected values are exact for that value, not for a decimal it might have been meant as. Non-finite values are the strings inf, -inf and nan. The relative error of an answer is |got - expected| / max(|expected|, 2^-1022) (below the smallest normal float64 only absolute precision exists, and an underflowing value is answered correctly by 0); where expected is exactly 0 it is |got|; where expected is inf an answer of +inf has error 0 and any other answer error +inf; NaN has error +inf. Generated from the function table of package schema (functions.go) by GenerateJSONSchema; do not edit."},
		{"type", "object"},
		{"additionalProperties", false},
		{"required", []any{"schema", "algorithm", "generatorVersion", "formatVersion", "version", "referencePrecisionBits", "checkPrecisionBits", "header", "provenance", "notes", "numberOfTests", "testGroups"}},
		{"properties", obj{
			{"schema", obj{{"const", Name}, {"description", "the schema this file follows (this file)"}}},
			{"algorithm", obj{{"type", "string"}, {"description", "what the file tests, e.g. SGM-RDP"}}},
			{"generatorVersion", obj{{"type", "string"}, {"pattern", "^rdpcheck gen-vectors [0-9]+\\.[0-9]+$"}}},
			{"formatVersion", obj{{"const", FormatVersion}, {"description", "the version of this format (this schema)"}}},
			{"version", obj{{"type", "integer"}, {"minimum", 1}, {"description", "the file's version: raised whenever a test is added or removed or its question or answer changes (vectors/CHANGELOG.md); a tcId never changes meaning within a file"}}},
			{"referencePrecisionBits", obj{{"type", "integer"}, {"minimum", 64}, {"description", "precision of the reference values written (package reference, Ziv-checked)"}}},
			{"checkPrecisionBits", obj{{"type", "integer"}, {"minimum", 64}, {"description", "precision of the second evaluation every written value was checked against"}}},
			{"header", obj{{"type", "array"}, {"items", obj{{"type", "string"}}}, {"minItems", 1}, {"description", "what the values are"}}},
			{"provenance", obj{{"type", "array"}, {"items", obj{{"type", "string"}}}, {"minItems", 1}, {"description", "how the expected values were made and checked"}}},
			{"notes", obj{{"type", "object"}, {"additionalProperties", obj{{"type", "string"}, {"minLength", 1}}}, {"description", "flag name -> what it means; every flag used in the file is explained here"}}},
			{"numberOfTests", obj{{"type", "integer"}, {"minimum", 0}}},
			{"testGroups", obj{{"type", "array"}, {"items", ref("group")}}},
		}},
		{"$defs", defs},
	}
	var b bytes.Buffer
	writeLayout(&b, top, 0)
	b.WriteString("\n")
	return b.Bytes()
}

// GenerateFunctionTable returns the table of fns as JSON, for runners in
// other languages (functions.json beside the schema): per function its
// inputs in call order, each with its kind ("float", "floatList", "int",
// "intList", "text", "phases", "dpEvent"), and whether it answers an order or a
// certified interval.
func GenerateFunctionTable(fns []Function) []byte {
	kinds := map[InputKind]string{Float: "float", FloatList: "floatList", Int: "int", IntList: "intList", Text: "text", PhaseList: "phases", DpEvent: "dpEvent"}
	var list []any
	for _, f := range fns {
		var ins []any
		for _, name := range f.Inputs {
			in := InputOf(name)
			o := obj{{"name", name}, {"kind", kinds[in.Kind]}}
			if name == "orders" && f.GroupOrders {
				o = append(o, kv{"groupMayGive", true})
			}
			ins = append(ins, o)
		}
		o := obj{{"name", f.Name}, {"inputs", ins}, {"doc", f.Doc}}
		if f.Order {
			o = append(o, kv{"order", true})
		}
		if f.Interval {
			o = append(o, kv{"interval", true})
		}
		list = append(list, o)
	}
	var b bytes.Buffer
	b.WriteString("{\n \"description\": \"The vector functions and their inputs, in call order: generated from package schema's table (functions.go); do not edit. kinds: float (read from NAMEHex), floatList (from NAMEHex), int, intList, text, phases (a list of {q, qHex, sigma, sigmaHex, steps}), dpEvent (a dp_accounting DpEvent as the JSON of its to_named_tuple(): class_name and its fields, nested events as objects). groupMayGive: the group may give the input once for all its tests. dpEventFields: per DpEvent class an event may hold, its fields' kinds (number: a float; count: an int; numbers: a list of floats; event, events: nested events).\",\n \"functions\": [\n")
	for i, f := range list {
		b.WriteString("  " + compact(f))
		if i < len(list)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	// The fields of the DpEvent classes an event input may hold, by kind,
	// so that a runner gives each its type (a float for a number, an int
	// for a count) whatever its JSON spelling.
	b.WriteString(" ],\n \"dpEventFields\": {\n")
	fieldKinds := map[DpFieldKind]string{DpNumber: "number", DpCount: "count", DpNumbers: "numbers", DpSub: "event", DpSubs: "events"}
	for i, c := range DpEventClasses {
		fields := obj{}
		for _, f := range c.Fields {
			fields = append(fields, kv{f.Name, fieldKinds[f.Kind]})
		}
		fmt.Fprintf(&b, "  %q: %s", c.Name, compact(fields))
		if i < len(DpEventClasses)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(" }\n}\n")
	return b.Bytes()
}

// obj is a JSON object that keeps its keys' order.
type obj []kv

type kv struct {
	k string
	v any
}

// expand are the objects written one member per line (the rest of each
// member on its own line, compact): the file, its properties and $defs,
// the group and the test, their properties, and the rules.
var expand = map[string]bool{"": true, "properties": true, "$defs": true, "group": true, "test": true, "allOf": true}

// writeLayout writes v at depth d: expanded where expand says so, else
// compact with ", " and ": " as a person would write it.
func writeLayout(b *bytes.Buffer, v any, d int) {
	writeMember(b, "", v, d)
}

func writeMember(b *bytes.Buffer, key string, v any, d int) {
	ind := strings.Repeat(" ", d)
	switch x := v.(type) {
	case obj:
		if !expand[key] {
			b.WriteString(compact(v))
			return
		}
		b.WriteString("{\n")
		for i, m := range x {
			fmt.Fprintf(b, "%s %s: ", ind, compact(m.k))
			writeMember(b, m.k, m.v, d+1)
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(ind + "}")
	case []any:
		if key != "allOf" {
			b.WriteString(compact(v))
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(ind + " " + compact(e))
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(ind + "]")
	default:
		b.WriteString(compact(v))
	}
}

// compact is v on one line.
func compact(v any) string {
	switch x := v.(type) {
	case obj:
		parts := make([]string, len(x))
		for i, m := range x {
			parts[i] = compact(m.k) + ": " + compact(m.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = compact(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings, numbers and booleans of this file
	}
	return strings.TrimSuffix(b.String(), "\n")
}
