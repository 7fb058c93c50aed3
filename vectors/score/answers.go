package score

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// An Answer is what an implementation answered to one test. Exactly one of
// a value, Rejected, Unsupported, Hang, Crashed and AdapterError holds.
type Answer struct {
	Value float64
	// Rejected: the implementation refused the input (an error). Error is
	// its message as written, RaisedIn where the runner traced it
	// ("library" or "adapter"; "" if not said).
	Rejected        bool
	Error, RaisedIn string
	// Unsupported: the implementation does not offer the function
	// (Python's NotImplementedError). Never a failure.
	Unsupported bool
	// Hang: the runner gave up on the test after its time limit, Timeout
	// seconds (0 if not said).
	Hang    bool
	Timeout float64
	// Crashed says how the implementation's process died or exited on the
	// test (a segfault, os._exit, SystemExit): no answer, and never a
	// rejection of the input.
	Crashed string
	// AdapterError is the message of an exception the runner traced to
	// the adapter's own code (a TypeError at the call, a typo): the
	// adapter's bug, not the implementation's answer. Never a rejection.
	AdapterError string
	// Order is the order the implementation chose, NaN if not given.
	Order float64
	// Line is the answer's line in its file.
	Line int
}

var pythonNonFinite = regexp.MustCompile(`(:\s*)(-?Infinity|NaN)(\s*[,}])`)

// Parse reads an answers file: JSON lines or CSV (format "jsonl", "csv",
// or "auto": by name's extension, else by the first character), keyed by
// tcId. Parsing is strict: a tcId answered twice, a key that is not an
// answer's or given twice, a line with no outcome or with two, an empty
// value, an order that is not above 1, a header anywhere but the first line:
// each is an error naming the line and what is accepted.
func Parse(data []byte, name, format string) (map[int]Answer, error) {
	if format == "auto" {
		format = "csv"
		switch {
		case strings.HasSuffix(name, ".csv"):
		case strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"):
			format = "jsonl"
		case bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
			format = "jsonl"
		}
	}
	if format != "jsonl" && format != "csv" {
		return nil, fmt.Errorf("unknown format %q (want jsonl, csv or auto)", format)
	}
	out := map[int]Answer{}
	add := func(n int, id int, a Answer) error {
		if b, dup := out[id]; dup {
			return fmt.Errorf("line %d: tcId %d answered twice (first on line %d)", n, id, b.Line)
		}
		a.Line = n
		out[id] = a
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	n, content := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		content++
		var id int
		var a Answer
		var err error
		if format == "jsonl" {
			id, a, err = parseJSONAnswer(line)
		} else {
			if content == 1 && isHeader(line) {
				continue
			}
			id, a, err = parseCSVAnswer(line)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if err := add(n, id, a); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", n+1, err)
	}
	return out, nil
}

// csvForm is what a CSV line holds.
const csvForm = "tcId,value[,order]"

// isHeader reports whether a CSV line is the header tcId,value[,order]
// (in any case, spaces around the commas allowed).
func isHeader(line string) bool {
	var f []string
	for _, s := range strings.Split(line, ",") {
		f = append(f, strings.ToLower(strings.TrimSpace(s)))
	}
	return (len(f) == 2 || len(f) == 3) && f[0] == "tcid" && f[1] == "value" && (len(f) == 2 || f[2] == "order")
}

func parseCSVAnswer(line string) (int, Answer, error) {
	fields := strings.Split(line, ",")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	id, err := parseTcID(json.RawMessage(fields[0]))
	if err != nil {
		return 0, Answer{}, fmt.Errorf("%v (a CSV line is %s; a header, if any, is the first line)", err, csvForm)
	}
	if len(fields) < 2 || len(fields) > 3 {
		return 0, Answer{}, fmt.Errorf("%d fields: want %s", len(fields), csvForm)
	}
	a, err := parseValue(fields[1])
	if err != nil {
		return 0, Answer{}, err
	}
	a.Order = math.NaN()
	if len(fields) == 3 && fields[2] != "" {
		if a.Order, err = parseOrder(a, fields[2]); err != nil {
			return 0, Answer{}, err
		}
	}
	return id, a, nil
}

// parseTcID reads a tcId: a positive integer (1e4 is one).
func parseTcID(raw json.RawMessage) (int, error) {
	id, err := ExactInt(raw, math.MaxInt32)
	if err != nil {
		return 0, fmt.Errorf("tcId %s: %v", raw, err)
	}
	if id < 1 {
		return 0, fmt.Errorf("tcId %s: want a positive integer (tcIds start at 1)", raw)
	}
	return int(id), nil
}

// valueForms says what a value may be.
const valueForms = `a number (decimal or hex), "inf", "-inf", "nan", a word starting with "error" (a rejected input), "unsupported", "hang" or "crashed"`

// jsonValueForms says what a JSON answer's value may be.
const jsonValueForms = `a number, or a string of one (decimal or hex, "inf", "-inf", "nan"); in JSON a rejection is {"tcId": N, "error": "..."}, and "unsupported": true, "hang": true and "crashed" are keys of their own`

// parseValue reads a value field: a number (decimal, hex, inf, nan in any
// common spelling), an error word, "unsupported" or "hang".
func parseValue(s string) (Answer, error) {
	low := strings.ToLower(s)
	switch {
	case s == "":
		return Answer{}, fmt.Errorf("empty value: want %s", valueForms)
	case strings.HasPrefix(low, "error"):
		return Answer{Rejected: true, Error: s}, nil
	case low == "unsupported":
		return Answer{Unsupported: true}, nil
	case low == "hang":
		return Answer{Hang: true}, nil
	case low == "crashed":
		return Answer{Crashed: "crashed"}, nil
	}
	switch low {
	case "inf", "+inf", "infinity", "+infinity":
		return Answer{Value: math.Inf(1)}, nil
	case "-inf", "-infinity":
		return Answer{Value: math.Inf(-1)}, nil
	case "nan":
		return Answer{Value: math.NaN()}, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Answer{}, fmt.Errorf("value %q: want %s", s, valueForms)
	}
	return Answer{Value: x}, nil // beyond float64's range: +-inf, as printed
}

// parseOrder reads the order an answer chose: a number above 1, or inf. It
// goes with a value only.
func parseOrder(a Answer, s string) (float64, error) {
	if a.Rejected || a.Unsupported || a.Hang || a.Crashed != "" {
		return 0, fmt.Errorf("order %s: an order goes with a value only", s)
	}
	o, err := parseValue(s)
	if err != nil || o.Rejected || o.Unsupported || o.Hang || o.Crashed != "" || !(o.Value > 1) {
		return 0, fmt.Errorf("order %s: want a number above 1 or \"inf\" (leave the order out if none was chosen)", s)
	}
	return o.Value, nil
}

// answerKeys are the keys of a JSON answer.
const answerKeys = `tcId, value, error, errorType, raisedIn, adapterError, order, unsupported, hang, timeout, crashed`

func parseJSONAnswer(line string) (int, Answer, error) {
	fields, err := DecodeObject([]byte(line))
	if err != nil {
		// Python's json.dumps writes NaN and Infinity bare.
		fixed := pythonNonFinite.ReplaceAllString(line, `$1"$2"$3`)
		var err2 error
		if fixed == line {
			return 0, Answer{}, err
		}
		if fields, err2 = DecodeObject([]byte(fixed)); err2 != nil {
			return 0, Answer{}, err
		}
	}
	raw := map[string]json.RawMessage{}
	for _, f := range fields {
		switch f.Key {
		case "tcId", "value", "error", "errorType", "raisedIn", "adapterError", "order", "unsupported", "hang", "timeout", "crashed":
		default:
			return 0, Answer{}, fmt.Errorf("unknown key %q (an answer's keys: %s)", f.Key, answerKeys)
		}
		if string(f.Value) != "null" {
			raw[f.Key] = f.Value
		}
	}
	rawID, ok := raw["tcId"]
	if !ok {
		return 0, Answer{}, errors.New(`no "tcId" (want {"tcId": N, "value": V}, or "error", "unsupported": true, "hang": true, "crashed" in place of "value")`)
	}
	id, err := parseTcID(rawID)
	if err != nil {
		return 0, Answer{}, err
	}
	a := Answer{Order: math.NaN()}
	var outcomes []string
	for _, k := range []string{"unsupported", "hang"} {
		v, ok := raw[k]
		if !ok {
			continue
		}
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return 0, a, fmt.Errorf("%q: %s: want true or false", k, v)
		}
		if b {
			outcomes = append(outcomes, fmt.Sprintf("%q", k))
		}
		a.Unsupported = a.Unsupported || k == "unsupported" && b
		a.Hang = a.Hang || k == "hang" && b
	}
	for _, k := range []string{"errorType", "raisedIn"} {
		v, ok := raw[k]
		if !ok {
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return 0, a, fmt.Errorf("%q: %s: want a string", k, v)
		}
		if k == "raisedIn" && s != "adapter" && s != "library" {
			return 0, a, fmt.Errorf(`"raisedIn": %s: want "adapter" or "library"`, v)
		}
		if k == "raisedIn" {
			a.RaisedIn = s
		}
		if raw["error"] == nil && raw["adapterError"] == nil {
			return 0, a, fmt.Errorf("%q goes with \"error\" or \"adapterError\"", k)
		}
	}
	if v, ok := raw["crashed"]; ok {
		// The runner writes how the process died; true says only that it
		// did.
		var msg string
		var b bool
		switch {
		case json.Unmarshal(v, &msg) == nil && msg != "":
		case json.Unmarshal(v, &b) == nil:
			msg = map[bool]string{true: "crashed"}[b]
		default:
			return 0, a, fmt.Errorf(`"crashed": %s: want how the process died (a string) or true`, v)
		}
		if msg != "" {
			outcomes = append(outcomes, `"crashed"`)
			a.Crashed = msg
		}
	}
	if v, ok := raw["adapterError"]; ok {
		var msg string
		if err := json.Unmarshal(v, &msg); err != nil || msg == "" {
			return 0, a, fmt.Errorf(`"adapterError": %s: want the exception's message`, v)
		}
		outcomes = append(outcomes, `"adapterError"`)
		a.AdapterError = msg
	}
	if v, ok := raw["error"]; ok {
		var msg string
		if err := json.Unmarshal(v, &msg); err != nil {
			return 0, a, fmt.Errorf(`"error": %s: want a string (the implementation's message)`, v)
		}
		if msg == "crashed" && raw["errorType"] == nil {
			// Older runners wrote a dead worker so, and the scorer took it
			// for a rejection: a crash that passed invalid inputs.
			return 0, a, fmt.Errorf(`tcId %d: "error": "crashed" is how examples/run_vectors.py once wrote a crash, which is no rejection: write {"tcId": %d, "crashed": "how it died"} (today's runner does)`, id, id)
		}
		outcomes = append(outcomes, `"error"`)
		// Python's NotImplementedError is the runner's "not offered".
		a.Rejected = !strings.HasPrefix(msg, "NotImplementedError")
		a.Unsupported = a.Unsupported || !a.Rejected
		if a.Rejected {
			a.Error = msg
		}
	}
	if v, ok := raw["value"]; ok {
		outcomes = append(outcomes, `"value"`)
		var b Answer
		var s string
		if json.Unmarshal(v, &s) == nil {
			if b, err = parseValue(s); err != nil {
				return 0, a, err
			}
		} else if v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
			if b, err = parseValue(string(v)); err != nil {
				return 0, a, err
			}
		} else {
			return 0, a, fmt.Errorf(`"value": %s: want %s`, v, jsonValueForms)
		}
		if b.Rejected || b.Unsupported || b.Hang || b.Crashed != "" {
			// CSV's words; in JSON each outcome has its key.
			return 0, a, fmt.Errorf(`"value": %s: want %s`, v, jsonValueForms)
		}
		a.Value = b.Value
	}
	switch len(outcomes) {
	case 0:
		return 0, a, fmt.Errorf(`tcId %d: no outcome: need "value" or "error" (or "unsupported": true, "hang": true, "crashed")`, id)
	case 1:
	default:
		return 0, a, fmt.Errorf("tcId %d: %s: give one outcome only (a value, an error, unsupported, hang or crashed)", id, strings.Join(outcomes, " and "))
	}
	if v, ok := raw["timeout"]; ok {
		var secs float64
		if err := json.Unmarshal(v, &secs); err != nil || !(secs > 0) || math.IsInf(secs, 0) {
			return 0, a, fmt.Errorf(`"timeout": %s: want the time limit in seconds, a number above 0`, v)
		}
		if !a.Hang {
			return 0, a, fmt.Errorf(`"timeout": %s goes with "hang": true (the limit the test ran into)`, v)
		}
		a.Timeout = secs
	}
	if o, ok := raw["order"]; ok {
		var s string
		if json.Unmarshal(o, &s) != nil {
			s = string(o)
		}
		if a.Order, err = parseOrder(a, s); err != nil {
			return 0, a, err
		}
	}
	return id, a, nil
}
