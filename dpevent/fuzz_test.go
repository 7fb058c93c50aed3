package dpevent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// fuzzOrders are the orders FuzzDecode accounts on: a short grid, so that
// an input with nested bounds on sub-curves (each evaluating the curve
// below at 2, 3, ..., up to the largest order) costs milliseconds, not
// the second per level of dp_accounting's grid up to 1024.
var fuzzOrders = []float64{1.5, 2, 3, 5, 8, 16, 32, 64}

// FuzzDecode: any input is read or refused with an error, never a panic;
// the reader accepts only valid JSON (as encoding/json judges it, within
// its nesting limit) with no key twice in an object; what is read can be
// planned and accounted without a panic, and its eps is never NaN or
// negative.
func FuzzDecode(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join(peerDir, "*.json"))
	for _, n := range names {
		if raw, err := os.ReadFile(n); err == nil {
			f.Add(raw)
		}
	}
	f.Add([]byte(`{"class_name": "SelfComposedDpEvent", "count": 0, "event": {"class_name": "NoOpDpEvent"}}`))
	f.Add([]byte(`{"class_name": "PoissonSampledDpEvent", "sampling_probability": 1, "event": {"class_name": "ComposedDpEvent", "events": []}}`))
	f.Add([]byte(`{"class_name": "EpsilonDeltaDpEvent", "epsilon": 1e300, "delta": 0.999999}`))
	f.Add([]byte(`{"event": {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 3, "sample_size": 3, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 1e-3}}, "neighboring_relation": "REPLACE_ONE"}`))
	f.Add([]byte(`{"class_name": "RepeatAndSelectDpEvent", "mean": 1, "shape": 0, "event": {"class_name": "NoOpDpEvent"}}`))
	f.Add([]byte(`{"class_name": "DiscreteGaussianDpEvent", "sigma": 0.01, "sensitivity": 0, "dimension": 1}`))
	f.Add([]byte(`{"event": {"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 1e-300, "step_counts": [0, 0]}, "neighboring_relation": "REPLACE_SPECIAL"}`))
	// the strict reader: duplicate keys, counts in exponent form and beyond 2^53,
	// escapes in keys, nesting
	f.Add([]byte(`{"class_name": "GaussianDpEvent", "noise_multiplier": 1, "noise_multiplier": 0.1}`))
	f.Add([]byte(`{"class_name": "GaussianDpEvent", "noise_multiplier": 1, "noise_multipli\u0065r": 0.1}`))
	f.Add([]byte(`{"class_name": "SelfComposedDpEvent", "count": 1e4, "event": {"class_name": "SelfComposedDpEvent", "count": 1e30, "event": {"class_name": "NoOpDpEvent"}}}`))
	f.Add(nestedPoisson(MaxNested + 1))
	f.Add(deepComposed(50))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode(data)
		if err != nil {
			var se *syntaxError
			if errors.As(err, &se) && json.Valid(data) {
				t.Fatalf("valid JSON refused: %v", err)
			}
			return
		}
		if depth := jsonDepth(data); depth <= 10000 && !json.Valid(data) {
			t.Fatalf("invalid JSON read")
		}
		if k := duplicateKey(data); k != "" {
			t.Fatalf("key %q given twice, and read", k)
		}
		p, err := NewPlan(file.Event, file.Relation)
		if err != nil {
			return
		}
		r, err := p.Epsilon(1e-5, fuzzOrders, fast.Improved)
		if err == nil && !(r.Epsilon >= 0) {
			t.Errorf("eps %v", r.Epsilon)
		}
		if err != nil && strings.Contains(err.Error(), "fast.") {
			t.Errorf("a Go name in %q", err)
		}
	})
}

// jsonDepth is the deepest nesting of objects and arrays in data, counted
// by a scan that skips strings (data is valid JSON).
func jsonDepth(data []byte) int {
	depth, most, inStr := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '{' || c == '['):
			depth++
			most = max(most, depth)
		case !inStr && (c == '}' || c == ']'):
			depth--
		}
	}
	return most
}

// duplicateKey returns a key that some object of data gives twice, by
// encoding/json's tokens (an oracle independent of the tape), or "".
func duplicateKey(data []byte) string {
	d := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys  map[string]bool
		isObj bool
		want  bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, ok := tok.(string); ok && top != nil && top.isObj && top.want {
			if top.keys[k] {
				return k
			}
			top.keys[k] = true
			top.want = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, isObj: true, want: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// a value ended: the enclosing object wants a key next
		if len(stack) > 0 && stack[len(stack)-1].isObj {
			stack[len(stack)-1].want = true
		}
	}
}

// TestFuzzOracles: FuzzDecode's oracles see what they are for.
func TestFuzzOracles(t *testing.T) {
	for _, c := range []struct {
		in    string
		dup   string
		depth int
	}{
		{`{"a": 1, "b": {"a": 2}}`, "", 2},
		{`{"a": 1, "b": [{}, {"c": "}"}], "a": 2}`, "a", 3},
		{`{"a\u0062": 1, "ab": 2}`, "ab", 1},
		{`[{"x": {}, "y": {"x": 1, "x": 2}}]`, "x", 3},
	} {
		if d := duplicateKey([]byte(c.in)); d != c.dup {
			t.Errorf("duplicateKey(%s) = %q, want %q", c.in, d, c.dup)
		}
		if d := jsonDepth([]byte(c.in)); d != c.depth {
			t.Errorf("jsonDepth(%s) = %d, want %d", c.in, d, c.depth)
		}
	}
}
