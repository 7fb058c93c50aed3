package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// firstInputs are the inputs Digest has covered from the start.
var firstInputs = []string{"q", "sigma", "alpha", "b", "p", "mean1", "sd1", "mean2", "sd2", "delta", "eps", "noise", "buckets",
	"rho", "xi", "relation", "conversion", "steps", "c", "distP", "distQ", "orders", "rdp"}

// laterInputs are the table's other inputs, in its order (computed once:
// the manifest digests every test).
var laterInputs = sync.OnceValue(func() []string {
	var out []string
	for _, in := range Inputs {
		if !slices.Contains(firstInputs, in.Name) {
			out = append(out, in.Name)
		}
	}
	return out
})

// QuestionDigest identifies what a test asks: the first 16 hex digits of the
// SHA-256 of its function and every input of the schema's table (the
// exact hex forms, lists as the test sees them, integers, strings, the
// run's phases). It does not cover the
// expected value, comment or flags: answers stay gradable when the
// reference or the wording improves, and are refused when a tcId comes
// to mean another question.
func QuestionDigest(g *Group, t *Test) string {
	var b strings.Builder
	b.WriteString(g.Function)
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, "\n%s=%s", name, v)
		}
	}
	list := func(name string, xs []string) {
		if xs != nil {
			field(name, "["+strings.Join(xs, ",")+"]")
		}
	}
	intp := func(name string, x *int) {
		if x != nil {
			field(name, strconv.Itoa(*x))
		}
	}
	// The inputs of the first vector files, in the order digests have
	// always been made of them (so that stored digests stay valid)...
	for _, f := range []struct{ name, v string }{
		{"q", t.QHex}, {"sigma", t.SigmaHex}, {"alpha", t.AlphaHex}, {"b", t.BHex}, {"p", t.PHex},
		{"mean1", t.Mean1Hex}, {"sd1", t.SD1Hex}, {"mean2", t.Mean2Hex}, {"sd2", t.SD2Hex},
		{"delta", t.DeltaHex}, {"eps", t.EpsHex}, {"noise", t.NoiseHex}, {"buckets", t.BucketsHex},
		{"rho", t.RhoHex}, {"xi", t.XiHex}, {"relation", t.Relation}, {"conversion", t.Conversion},
	} {
		field(f.name, f.v)
	}
	intp("steps", t.Steps)
	intp("c", t.C)
	list("distP", t.DistPHex)
	list("distQ", t.DistQHex)
	orders := t.OrdersHex
	if t.Orders == nil {
		orders = g.OrdersHex
	}
	list("orders", orders)
	list("rdp", t.RDPHex)
	// ...then every later input of the table, in its order.
	for _, in := range laterInputs() {
		switch in {
		case "sensitivity", "mean", "shape", "baseInf":
			v, _ := t.FloatHex(in)
			field(in, v)
		case "trees":
			if t.Trees != nil {
				field(in, fmt.Sprint(t.Trees))
			}
		case "restarts":
			field(in, t.Restarts)
		case "maxParticipation":
			intp(in, t.MaxParticipation)
		case "minSeparation":
			intp(in, t.MinSeparation)
		case "base":
			list(in, t.BaseHex)
		case "phases":
			if t.Phases != nil {
				var ph []string
				for _, p := range t.Phases {
					ph = append(ph, p.QHex+" "+p.SigmaHex+" "+strconv.Itoa(p.Steps))
				}
				field(in, "["+strings.Join(ph, ",")+"]")
			}
		case "event":
			if t.Event != nil {
				field(in, string(t.Event))
			}
		case "neighboringRelation":
			field(in, t.NeighboringRelation)
		default:
			panic("schema.QuestionDigest: input " + in + " of the table is not covered") // TestDigestCoversTable
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// AnswerDigest identifies what a test expects: its result and the values
// it grades an answer against (expected, expectedOrder, the interval, the
// shortcut), the first 16 hex digits of their SHA-256. The manifest
// (vectors/manifest.txt) records it beside the question, so that a changed
// expected value raises the file's version too.
func AnswerDigest(t *Test) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%s\n%s\n%s\n%s", t.Result, t.Expected, t.ExpectedOrder, t.LowerHex, t.UpperHex)
	if t.Shortcut != nil {
		fmt.Fprintf(&b, "\n%s", t.Shortcut.Value)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}
