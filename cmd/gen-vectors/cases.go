package main

// -cases: reference (and fast) values at the user's own points.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// caseInput is one input line: an RDP case {"q","sigma","alpha"} or an
// epsilon case {"kind":"epsilon","q","sigma","steps","delta","orders"}.
type caseInput struct {
	Kind   string            `json:"kind"`
	Q      *float64          `json:"q"`
	Sigma  *float64          `json:"sigma"`
	Alpha  json.RawMessage   `json:"alpha"`
	Steps  *int              `json:"steps"`
	Delta  *float64          `json:"delta"`
	Orders []json.RawMessage `json:"orders"`
}

// parseOrder reads a number or the string "inf".
func parseOrder(raw json.RawMessage) (float64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "inf" || s == "Infinity" || s == "+inf" {
			return math.Inf(1), nil
		}
		return 0, fmt.Errorf("order %q: want a number or \"inf\"", s)
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("order %s: want a number or \"inf\"", raw)
	}
	return f, nil
}

// decimal renders a reference value: at least 40 significant digits (50 are
// written; the reference guarantees 76 at 256 bits), "inf" for +Inf.
func decimal(v interface {
	IsInf() bool
	Text(byte, int) string
}) string {
	if v.IsInf() {
		return "inf"
	}
	return v.Text('g', 50)
}

// fastJSON renders a float64 as a JSON value: shortest round-trip number, or
// the string "inf".
func fastJSON(v float64) any {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
}

// answer computes the fields to add for one input line.
func answer(line []byte) map[string]any {
	var in caseInput
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return map[string]any{"error": "bad input line: " + err.Error()}
	}
	if in.Q == nil || in.Sigma == nil {
		return map[string]any{"error": `"q" and "sigma" are required`}
	}
	switch in.Kind {
	case "", "rdp":
		if in.Alpha == nil {
			return map[string]any{"error": `"alpha" is required`}
		}
		alpha, err := parseOrder(in.Alpha)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		v, err := reference.SGM(*in.Q, *in.Sigma, alpha)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		out := map[string]any{"reference": decimal(v)}
		if f, err := fast.SGM(*in.Q, *in.Sigma, alpha); err == nil {
			out["fast"] = fastJSON(f)
		} else {
			out["fast_error"] = err.Error()
		}
		return out
	case "epsilon":
		if in.Steps == nil || in.Delta == nil || len(in.Orders) == 0 {
			return map[string]any{"error": `epsilon cases need "steps", "delta" and a non-empty "orders"`}
		}
		orders := make([]float64, len(in.Orders))
		for i, raw := range in.Orders {
			o, err := parseOrder(raw)
			if err != nil {
				return map[string]any{"error": err.Error()}
			}
			orders[i] = o
		}
		rdp, err := reference.SGMCurve(*in.Q, *in.Sigma, *in.Steps, orders)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		eps, order, err := reference.Epsilon(orders, rdp, *in.Delta, reference.Improved)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		out := map[string]any{"epsilon_reference": decimal(eps), "order": fastJSON(order)}
		curve := make([]float64, len(orders))
		if err := fast.SGMCurve(*in.Q, *in.Sigma, *in.Steps, orders, curve); err != nil {
			out["epsilon_fast_error"] = err.Error()
			return out
		}
		if e, o, err := fast.Epsilon(orders, curve, *in.Delta, fast.Improved); err == nil {
			out["epsilon_fast"] = fastJSON(e)
			out["order_fast"] = fastJSON(o)
		} else {
			out["epsilon_fast_error"] = err.Error()
		}
		return out
	}
	return map[string]any{"error": fmt.Sprintf("unknown kind %q (want \"rdp\" or \"epsilon\")", in.Kind)}
}

// appendFields writes the input object with the answer's fields added after
// its own, so the input is echoed byte for byte.
func appendFields(line []byte, add map[string]any) ([]byte, error) {
	line = bytes.TrimSpace(line)
	keys := []string{"reference", "fast", "fast_error", "epsilon_reference", "order", "epsilon_fast", "order_fast", "epsilon_fast_error", "error"}
	var extra bytes.Buffer
	for _, k := range keys {
		v, ok := add[k]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&extra, ",%q:%s", k, b)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil || len(line) < 2 || line[len(line)-1] != '}' {
		// Not an object: wrap it so the answer is still one JSON line.
		raw, _ := json.Marshal(string(line))
		return append([]byte(`{"input":`+string(raw)), append(extra.Bytes(), '}')...), nil
	}
	body := line[:len(line)-1]
	if len(obj) == 0 {
		return append(append(body, bytes.TrimPrefix(extra.Bytes(), []byte(","))...), '}'), nil
	}
	return append(append(body, extra.Bytes()...), '}'), nil
}

// runCases reads JSON lines from r and writes one answer line per input
// line, in input order, computing in parallel.
func runCases(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var lines [][]byte
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		return err
	}
	out := make([][]byte, len(lines))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				b, err := appendFields(lines[i], answer(lines[i]))
				if err != nil {
					b = []byte(fmt.Sprintf(`{"error":%q}`, err.Error()))
				}
				out[i] = b
			}
		})
	}
	for i := range lines {
		next <- i
	}
	close(next)
	wg.Wait()
	bw := bufio.NewWriter(w)
	for _, b := range out {
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
