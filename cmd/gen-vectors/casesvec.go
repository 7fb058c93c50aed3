package main

// -cases FILE -format vectors: a user's own points as a vector file.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// parseCase reads one -cases line as answer does.
func parseCase(line []byte) (caseInput, error) {
	var in caseInput
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("bad input line: %v", err)
	}
	if in.Q == nil || in.Sigma == nil {
		return in, fmt.Errorf(`"q" and "sigma" are required`)
	}
	switch in.Kind {
	case "", "rdp":
		if in.Alpha == nil {
			return in, fmt.Errorf(`"alpha" is required`)
		}
		if _, err := parseOrder(in.Alpha); err != nil {
			return in, err
		}
	case "epsilon":
		if in.Steps == nil || in.Delta == nil || len(in.Orders) == 0 {
			return in, fmt.Errorf(`epsilon cases need "steps", "delta" and a non-empty "orders"`)
		}
		for _, raw := range in.Orders {
			if _, err := parseOrder(raw); err != nil {
				return in, err
			}
		}
	default:
		return in, fmt.Errorf("unknown kind %q (want \"rdp\" or \"epsilon\")", in.Kind)
	}
	return in, nil
}

// sgmBadArg names the argument that makes SGM's input invalid, if any.
func sgmBadArg(q, sigma, alpha float64) (string, float64) {
	switch {
	case math.IsNaN(q) || q < 0 || q > 1:
		return "q", q
	case math.IsNaN(sigma) || sigma < 0 || math.IsInf(sigma, 0):
		return "sigma", sigma
	case math.IsNaN(alpha) || alpha <= 1:
		return "alpha", alpha
	}
	return "", 0
}

func runCasesVectors(r io.Reader, w, progress io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	e := newEngine(progress)
	b := newFile("SGM-RDP-user-cases", []string{
		"Reference values at a user's own points, written by gen-vectors -cases FILE -format vectors.",
		"Group rdp: RDP of one step of the Poisson-sampled Gaussian mechanism (as in sgm_rdp.json). Group epsilon: DP-SGD eps for steps steps at the test's orders, improved conversion (as in dpsgd.json).",
		"The tolerances are those of the committed files' groups; adjust them to the region of your points if need be.",
	}, "Each point computed directly (reference.SGM; reference.SGMCurve and reference.Epsilon for epsilon lines).")
	rdpG := b.group("rdp", schema.SGM, "RDP cases, in input order", sgmTolerance)
	epsG := b.group("epsilon", schema.DPSGDEpsilon, "epsilon cases, in input order", dpsgdTolerance)
	n := 0
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		n++
		in, err := parseCase(line)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		q, sigma := *in.Q, *in.Sigma
		if in.Kind == "epsilon" {
			steps, delta := *in.Steps, *in.Delta
			orders := make([]float64, len(in.Orders))
			for i, raw := range in.Orders {
				orders[i], _ = parseOrder(raw)
			}
			t := dpsgdTest(q, sigma, steps, delta, reference.Improved)
			t.Orders, t.OrdersHex = schema.Lists(orders)
			t.Comment = fmt.Sprintf("line %d: q=%g sigma=%g steps=%d delta=%g, %d orders", n, q, sigma, steps, delta, len(orders))
			if len(orders) >= 100 {
				t.Flags = append(t.Flags, "ManyOrders")
			}
			j := e.add(t.Comment, func(c reference.Context, _ func(q, sigma, alpha float64) *big.Float) (out, error) {
				rdp, err := c.SGMCurve(q, sigma, steps, orders)
				if err != nil {
					return out{}, err
				}
				v, o, err := c.Epsilon(orders, rdp, delta, reference.Improved)
				return out{v: v, order: o}, err
			})
			// Whether the input is invalid is known once the reference has
			// answered; the flag and result follow from its error.
			b.test(epsG, t, j, nil)
			continue
		}
		alpha, _ := parseOrder(in.Alpha)
		t := sgmTest(q, sigma, alpha)
		t.Comment = fmt.Sprintf("line %d: %s", n, t.Comment)
		if arg, v := sgmBadArg(q, sigma, alpha); arg != "" {
			t.Result = schema.Invalid
			t.Flags = []string{badFlag(v)}
		}
		b.test(rdpG, t, e.refJob(t.Comment, func(c reference.Context) (*big.Float, error) { return c.SGM(q, sigma, alpha) }), nil)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := e.run(); err != nil {
		return err
	}
	// Epsilon inputs the reference rejects become invalid tests.
	for _, it := range b.items {
		if it.fn == schema.DPSGDEpsilon && isInputError(it.j.err[0]) {
			it.t.Result = schema.Invalid
			flag := "OutOfRange"
			if *it.t.Steps <= 0 {
				flag = "BadSteps"
			}
			it.t.Flags = []string{flag}
		}
	}
	// Drop an empty group: a file of RDP lines only has no epsilon group.
	var groups []*schema.Group
	for _, g := range b.file.TestGroups {
		if len(g.Tests) > 0 {
			groups = append(groups, g)
		}
	}
	b.file.TestGroups = groups
	data, err := b.finalize(nil)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
