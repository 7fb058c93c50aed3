package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// A Field is one key of a JSON object and its value, as written.
type Field struct {
	Key   string
	Value json.RawMessage
}

// DecodeObject reads line as exactly one JSON object and returns its keys in
// the order written. A key given twice is an error (encoding/json would keep
// the last silently), and so is anything after the object. It is the one
// strict reader of the JSON lines rdpcheck takes from users: answers files
// here, and the input lines of gen-vectors -cases (its package userpoints).
func DecodeObject(line []byte) ([]Field, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, notJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object (want {\"key\": value, ...})")
	}
	var out []Field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notJSON(err)
		}
		key, _ := tok.(string) // inside an object the decoder gives only string keys
		if seen[key] {
			return nil, fmt.Errorf("key %q given twice (each key once)", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, notJSON(err)
		}
		out = append(out, Field{key, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, notJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not one JSON object: text after the closing brace")
	}
	return out, nil
}

// notJSON words a decoding error for the user (no Go types).
func notJSON(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("not a complete JSON object (the line ends early)")
	}
	return fmt.Errorf("not valid JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
}

// ExactInt reads a JSON number that is exactly an integer: 100, 1e4 and
// 2.5e3 are, 2.5 and 1.0000000000000001 are not. It returns an error
// saying which, or that the integer lies beyond max in magnitude.
func ExactInt(raw json.RawMessage, max int64) (int64, error) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') || !json.Valid(raw) {
		return 0, errors.New("want an integer")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Abs(x) > float64(max) {
		return 0, fmt.Errorf("too large (at most %d)", max)
	}
	// |x| <= max < 2^63: an exponent beyond a few hundred is a long
	// string of digits written with a compensating exponent, or not an
	// integer; both are refused without building a huge number.
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 400 || e < -400 {
			return 0, errors.New("want an integer")
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return 0, errors.New("want an integer (a whole number such as 100 or 1e4)")
	}
	if !r.Num().IsInt64() || r.Num().Int64() > max || r.Num().Int64() < -max {
		return 0, fmt.Errorf("too large (at most %d)", max)
	}
	return r.Num().Int64(), nil
}
