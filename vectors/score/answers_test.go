package score_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

// strictRefusals are answers files Parse refuses, each with the words its
// error must hold (the line, the key or value, and what is accepted). Each
// row is also a FuzzParse seed.
var strictRefusals = []struct {
	caught, name, data, want string
}{
	{"an unknown key was ignored", "a.jsonl", `{"tcId": 1, "valeu": 0.5}`, `line 1: unknown key "valeu" (an answer's keys: tcId, value, error, errorType, raisedIn, adapterError, order, unsupported, hang, timeout, crashed)`},
	{"a duplicate key: the last won", "a.jsonl", `{"tcId": 1, "value": 0.5, "value": 0.7}`, `line 1: key "value" given twice (each key once)`},
	{"a duplicate tcId key", "a.jsonl", `{"tcId": 1, "tcId": 2, "value": 0.5}`, `key "tcId" given twice`},
	{"two outcomes: the value won", "a.jsonl", `{"tcId": 1, "value": 0.5, "error": "x"}`, `tcId 1: "error" and "value": give one outcome only`},
	{"unsupported and a value", "a.jsonl", `{"tcId": 1, "value": 0.5, "unsupported": true}`, `"unsupported" and "value": give one outcome only`},
	{"hang as a string was no outcome", "a.jsonl", `{"tcId": 1, "hang": "yes"}`, `"hang": "yes": want true or false`},
	{"a fractional tcId", "a.jsonl", `{"tcId": 1.5, "value": 0.5}`, `tcId 1.5: want an integer (a whole number such as 100 or 1e4)`},
	{"tcId 0", "a.jsonl", `{"tcId": 0, "value": 0.5}`, `tcId 0: want a positive integer`},
	{"a huge tcId", "a.jsonl", `{"tcId": 1e400, "value": 0.5}`, `tcId 1e400: too large (at most 2147483647)`},
	{"no tcId", "a.jsonl", `{"value": 0.5}`, `line 1: no "tcId"`},
	{"a value of the wrong type", "a.jsonl", `{"tcId": 1, "value": [0.5]}`, `"value": [0.5]: want a number`},
	{"an empty value was a rejection", "a.jsonl", `{"tcId": 1, "value": ""}`, `empty value: want a number`},
	{"an order at or below 1", "a.jsonl", `{"tcId": 1, "value": 0.5, "order": 1}`, `order 1: want a number above 1 or "inf"`},
	{"a NaN order", "a.jsonl", `{"tcId": 1, "value": 0.5, "order": "nan"}`, `order nan: want a number above 1`},
	{"an order with an error", "a.jsonl", `{"tcId": 1, "error": "x", "order": 2}`, `order 2: an order goes with a value only`},
	{"text after the object", "a.jsonl", `{"tcId": 1, "value": 0.5} {"tcId": 2}`, `text after the closing brace`},
	{"a list, not an object", "a.jsonl", `[1, 0.5]`, `line 1: not a JSON object`},
	{"a line cut short", "a.jsonl", `{"tcId": 1, "value": 0.5`, `line 1: not a complete JSON object`},
	{"the second tcId line", "a.jsonl", "{\"tcId\": 1, \"value\": 0.5}\n{\"tcId\": 1, \"value\": 0.6}", `line 2: tcId 1 answered twice (first on line 1)`},
	{"CSV: an empty value was a rejection", "a.csv", "1,", `line 1: empty value: want a number`},
	{"CSV: a header after the first line", "a.csv", "1,0.5\ntcId,value\n", `line 2: tcId tcId: want an integer (a CSV line is tcId,value[,order]; a header, if any, is the first line)`},
	{"CSV: any first line was skipped as a header", "a.csv", "id,result\n1,0.5\n", `line 1: tcId id: want an integer`},
	{"CSV: two leading non-answers were skipped", "a.csv", "# c\ntcId,value\nfoo,bar\n", `line 3: tcId foo`},
	{"CSV: too many fields", "a.csv", "1,0.5,2,3", `line 1: 4 fields: want tcId,value[,order]`},
	{"CSV: a value that is not a number", "a.csv", "1,0.5x", `line 1: value "0.5x": want a number (decimal or hex), "inf"`},
	{"CSV: an order below 1", "a.csv", "1,0.5,0.5", `line 1: order 0.5: want a number above 1`},
	{"a crash was a rejection", "a.jsonl", `{"tcId": 1, "error": "crashed"}`, `tcId 1: "error": "crashed" is how examples/run_vectors.py once wrote a crash, which is no rejection`},
	{"a crash of the wrong type", "a.jsonl", `{"tcId": 1, "crashed": 11}`, `"crashed": 11: want how the process died (a string) or true`},
	{"a crash and a value", "a.jsonl", `{"tcId": 1, "crashed": "signal SIGSEGV", "value": 1}`, `"crashed" and "value": give one outcome only`},
	{"JSON: a rejection as a CSV word in the value", "a.jsonl", `{"tcId": 1, "value": "error: q < 0"}`, `"value": "error: q < 0": want a number, or a string of one (decimal or hex, "inf", "-inf", "nan"); in JSON a rejection is {"tcId": N, "error": "..."}`},
	{"JSON: a hang as a CSV word in the value", "a.jsonl", `{"tcId": 1, "value": "hang"}`, `"value": "hang": want a number`},
	{"JSON: unsupported as a CSV word in the value", "a.jsonl", `{"tcId": 1, "value": "unsupported"}`, `"value": "unsupported": want a number`},
	{"JSON: crashed as a CSV word in the value", "a.jsonl", `{"tcId": 1, "value": "crashed"}`, `"value": "crashed": want a number`},
	{"a time limit without a hang", "a.jsonl", `{"tcId": 1, "value": 0.5, "timeout": 10}`, `"timeout": 10 goes with "hang": true`},
	{"a time limit of 0", "a.jsonl", `{"tcId": 1, "hang": true, "timeout": 0}`, `"timeout": 0: want the time limit in seconds, a number above 0`},
	{"an unknown format", "a.txt", "1,0.5", `unknown format`},
}

func TestParseRefuses(t *testing.T) {
	for _, c := range strictRefusals {
		format := "auto"
		if c.name == "a.txt" {
			format = "tsv"
		}
		ans, err := score.Parse([]byte(c.data), c.name, format)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("caught: %s: Parse(%q) = %v, %v; want an error containing %q", c.caught, c.data, ans, err, c.want)
		}
	}
}

// TestParseAccepts: the forms the documentation promises, exact integers in
// exponent form, Python's bare NaN and Infinity, null for an absent key, a
// header in any case.
func TestParseAccepts(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name, data string
		want       map[int]score.Answer
	}{
		{"a.jsonl", `{"tcId": 1e1, "value": 0.5, "order": "inf"}`, map[int]score.Answer{10: {Value: 0.5, Order: inf, Line: 1}}},
		{"a.jsonl", `{"tcId": 2, "value": NaN, "order": Infinity}`, map[int]score.Answer{2: {Value: nan, Order: inf, Line: 1}}},
		{"a.jsonl", `{"tcId": 3, "value": null, "error": "ValueError: q"}`, map[int]score.Answer{3: {Rejected: true, Error: "ValueError: q", Order: nan, Line: 1}}},
		{"a.jsonl", `{"tcId": 4, "error": "NotImplementedError: "}`, map[int]score.Answer{4: {Unsupported: true, Order: nan, Line: 1}}},
		{"a.jsonl", `{"tcId": 5, "value": 1e400, "hang": false}`, map[int]score.Answer{5: {Value: inf, Order: nan, Line: 1}}},
		{"a.jsonl", `{"tcId": 6, "value": "0x1p-1", "order": 2.5}`, map[int]score.Answer{6: {Value: 0.5, Order: 2.5, Line: 1}}},
		{"a.csv", "TCID, Value, Order\n7,0.5,8\n8,error,\n", map[int]score.Answer{7: {Value: 0.5, Order: 8, Line: 2}, 8: {Rejected: true, Error: "error", Order: nan, Line: 3}}},
		{"a.jsonl", `{"tcId": 9, "error": "ValueError: q < 0", "errorType": "ValueError", "raisedIn": "library"}`, map[int]score.Answer{9: {Rejected: true, Error: "ValueError: q < 0", RaisedIn: "library", Order: nan, Line: 1}}},
		{"a.csv", "# made by hand\n\n2.5e1,unsupported\n", map[int]score.Answer{25: {Unsupported: true, Order: nan, Line: 3}}},
		{"a.jsonl", "{\"tcId\": 9, \"crashed\": \"the worker died: signal SIGSEGV\"}\n{\"tcId\": 10, \"crashed\": true}\n{\"tcId\": 11, \"crashed\": false, \"value\": 1}",
			map[int]score.Answer{9: {Crashed: "the worker died: signal SIGSEGV", Order: nan, Line: 1}, 10: {Crashed: "crashed", Order: nan, Line: 2}, 11: {Value: 1, Order: nan, Line: 3}}},
		{"a.csv", "12,crashed\n", map[int]score.Answer{12: {Crashed: "crashed", Order: nan, Line: 1}}},
		{"a.jsonl", `{"tcId": 13, "hang": true, "timeout": 2.5}`, map[int]score.Answer{13: {Hang: true, Timeout: 2.5, Order: nan, Line: 1}}},
	} {
		got, err := score.Parse([]byte(c.data), c.name, "auto")
		if err != nil {
			t.Errorf("Parse(%q): %v", c.data, err)
			continue
		}
		if diff := cmp.Diff(c.want, got, cmp.Comparer(func(a, b float64) bool { return a == b || (a != a && b != b) })); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", c.data, diff)
		}
	}
}
