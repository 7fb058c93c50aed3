package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Encode writes f canonically: fixed field order, one-space indentation for
// the header and groups, one test per line (small diffs, no wasted bytes),
// no HTML escaping, a final newline. Equal files encode to equal bytes.
func Encode(f *File) ([]byte, error) {
	var b bytes.Buffer
	var err error
	m := func(v any) string {
		if err != nil {
			return ""
		}
		var s []byte
		s, err = marshal(v)
		return string(s)
	}
	b.WriteString("{\n")
	fmt.Fprintf(&b, " \"schema\": %s,\n", m(f.Schema))
	fmt.Fprintf(&b, " \"algorithm\": %s,\n", m(f.Algorithm))
	fmt.Fprintf(&b, " \"generatorVersion\": %s,\n", m(f.GeneratorVersion))
	fmt.Fprintf(&b, " \"formatVersion\": %d,\n", f.FormatVersion)
	fmt.Fprintf(&b, " \"version\": %d,\n", f.Version)
	fmt.Fprintf(&b, " \"referencePrecisionBits\": %d,\n", f.ReferencePrecisionBits)
	fmt.Fprintf(&b, " \"checkPrecisionBits\": %d,\n", f.CheckPrecisionBits)
	for _, field := range []struct {
		name  string
		lines []string
	}{{"header", f.Header}, {"provenance", f.Provenance}} {
		fmt.Fprintf(&b, " %q: [\n", field.name)
		for i, l := range field.lines {
			fmt.Fprintf(&b, "  %s%s\n", m(l), comma(i, len(field.lines)))
		}
		b.WriteString(" ],\n")
	}
	b.WriteString(" \"notes\": {")
	keys := make([]string, 0, len(f.Notes))
	for k := range f.Notes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  %s: %s%s\n", m(k), m(f.Notes[k]), comma(i, len(keys)))
	}
	if len(keys) > 0 {
		b.WriteString(" ")
	}
	b.WriteString("},\n")
	fmt.Fprintf(&b, " \"numberOfTests\": %d,\n", f.NumberOfTests)
	b.WriteString(" \"testGroups\": [\n")
	for gi, g := range f.TestGroups {
		b.WriteString("  {\n")
		fmt.Fprintf(&b, "   \"name\": %s,\n", m(g.Name))
		fmt.Fprintf(&b, "   \"function\": %s,\n", m(g.Function))
		fmt.Fprintf(&b, "   \"comment\": %s,\n", m(g.Comment))
		fmt.Fprintf(&b, "   \"relativeTolerance\": %s,\n", m(g.RelativeTolerance))
		if g.Peer != "" {
			fmt.Fprintf(&b, "   \"peer\": %s,\n", m(g.Peer))
		}
		if g.Orders != nil {
			fmt.Fprintf(&b, "   \"orders\": %s,\n", m(g.Orders))
			fmt.Fprintf(&b, "   \"ordersHex\": %s,\n", m(g.OrdersHex))
		}
		b.WriteString("   \"tests\": [\n")
		for ti, t := range g.Tests {
			tt := *t
			if tt.Flags == nil {
				tt.Flags = []string{}
			}
			fmt.Fprintf(&b, "    %s%s\n", m(&tt), comma(ti, len(g.Tests)))
		}
		b.WriteString("   ]\n")
		fmt.Fprintf(&b, "  }%s\n", comma(gi, len(f.TestGroups)))
	}
	b.WriteString(" ]\n}\n")
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// marshal is json.Marshal without HTML escaping and without the newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
