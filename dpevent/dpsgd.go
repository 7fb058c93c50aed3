package dpevent

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/reference"
)

// DP-SGD's (eps, delta) is computed here and nowhere else: by fast as the
// plan of the event file dp_accounting writes for the run (DPSGD, then
// Plan.Epsilon or Plan.Delta), so that a run and its event file give the
// same value to the bit, and by the reference over a list of orders
// (DPSGDReferenceEpsilon); and its certified interval from the privacy
// loss distribution as account -exact computes it (DPSGDExact). rdpcheck
// epsilon, sigma and steps, and gen-vectors -cases call these.

// Phase is Steps steps of DP-SGD: each the Gaussian mechanism with noise
// multiplier Sigma (noise standard deviation over l2-sensitivity) on a
// batch sampled at rate Q (Poisson sampling), or on a batch of Batch
// records drawn without replacement from N (then Q is not read).
type Phase struct {
	Q, Sigma float64
	Steps    int64
	N, Batch int64
}

// DPSGD returns the plan of a DP-SGD run of the phases, composed in turn:
// the plan of the event dp_accounting's DP-SGD writes for it, a
// ComposedDpEvent of one SelfComposedDpEvent (count Steps) per phase, of
// a PoissonSampledDpEvent (Q) of a GaussianDpEvent (Sigma) under
// ADD_OR_REMOVE_ONE, or with wor of a SampledWithoutReplacementDpEvent
// (N, Batch) under REPLACE_ONE (q is then WORSamplingRatio(N, Batch)).
// The plan is made by the decoder and the classes that make an event
// file's, so rdpcheck account of that file gives its values to the bit.
// Its Terms are one per distinct (Q, Sigma) (with wor, (N, Batch,
// Sigma)), in the order of the first phase that gives each, with the
// steps of its phases added up.
//
// Errors (rdpcheck.ErrInput): no phases; Q outside [0, 1]; Sigma not finite
// and > 0; Steps below 1 or above MaxCount; with wor, N below 1, Batch
// outside [0, N], or either above MaxCount; steps adding up to more than
// MaxCount over phases of one term.
func DPSGD(phases []Phase, wor bool) (*Plan, error) {
	f, err := dpsgdFile(phases, wor)
	if err != nil {
		return nil, err
	}
	return NewPlan(f.Event, f.Relation)
}

// DPSGDExact is the run's privacy loss distributions, as dp_accounting's
// PLD accountant composes the event file DPSGD plans (NewExact of it): a
// certified interval around the run's optimal (eps, delta), the one
// rdpcheck account -exact gives that file. Errors: DPSGD's, and
// NewExact's (sampling without replacement has no distribution there).
func DPSGDExact(phases []Phase, wor bool) (*Exact, error) {
	f, err := dpsgdFile(phases, wor)
	if err != nil {
		return nil, err
	}
	return NewExact(f.Event, f.Relation)
}

// dpsgdFile is the event file dp_accounting writes for the run, decoded.
func dpsgdFile(phases []Phase, wor bool) (*File, error) {
	if len(phases) == 0 {
		return nil, dpsgdErr(phases, 0, "phases", math.NaN(), "must not be empty")
	}
	var b strings.Builder
	rel := AddOrRemoveOne
	if wor {
		rel = ReplaceOne
	}
	fmt.Fprintf(&b, `{"neighboring_relation": %q, "event": {"class_name": "ComposedDpEvent", "events": [`, rel)
	for i, p := range phases {
		if err := p.check(phases, i, wor); err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(", ")
		}
		sampled := fmt.Sprintf(`"class_name": "PoissonSampledDpEvent", "sampling_probability": %s`, num(p.Q))
		if wor {
			sampled = fmt.Sprintf(`"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": %d, "sample_size": %d`, p.N, p.Batch)
		}
		fmt.Fprintf(&b, `{"class_name": "SelfComposedDpEvent", "count": %d, "event": {%s, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": %s}}}`,
			p.Steps, sampled, num(p.Sigma))
	}
	b.WriteString("]}}")
	return Decode([]byte(b.String())) // no error: the phases were checked
}

// num is x as a JSON number that reads back as x.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// check refuses what the event classes, or fast's SGM, would refuse in a
// phase (the i-th of phases), in the phase's own words.
func (p Phase) check(phases []Phase, i int, wor bool) error {
	bad := func(arg string, v float64, msg string) error { return dpsgdErr(phases, i, arg, v, msg) }
	switch {
	case !wor && (math.IsNaN(p.Q) || p.Q < 0 || p.Q > 1):
		return bad("q", p.Q, "must be in [0, 1]")
	case math.IsNaN(p.Sigma) || p.Sigma <= 0 || math.IsInf(p.Sigma, 1):
		return bad("sigma", p.Sigma, "must be finite and > 0")
	case p.Steps < 1:
		return bad("steps", float64(p.Steps), "must be > 0")
	case p.Steps > MaxCount:
		return bad("steps", float64(p.Steps), fmt.Sprintf("must be at most 2^53 (is %d)", p.Steps)) // the float64 value may round to 2^53
	case wor && (p.N < 1 || p.N > MaxCount):
		return bad("n", float64(p.N), fmt.Sprintf("must be in [1, 2^53] (is %d)", p.N))
	case wor && (p.Batch < 0 || p.Batch > p.N):
		return bad("batch", float64(p.Batch), fmt.Sprintf("must be in [0, n] = [0, %d]", p.N))
	}
	return nil
}

// dpsgdErr is the input error of phases[i]'s argument arg, the phase
// named when there are several.
func dpsgdErr(phases []Phase, i int, arg string, v float64, msg string) error {
	if len(phases) > 1 {
		arg = fmt.Sprintf("phases[%d].%s", i, arg)
	}
	return &rdpcheck.InputError{Pkg: "dpevent", Func: "DPSGD", Arg: arg, Value: v, Msg: msg}
}

// DPSGDReferenceEpsilon is the (eps, delta)-DP guarantee of one
// Poisson-sampled phase of DP-SGD by package reference at c's precision:
// p.Steps compositions of the sampled Gaussian mechanism (rate p.Q, noise
// multiplier p.Sigma), RDP at orders (reference.SGMCurve, which computes
// the orders in parallel and shares work between them), converted by conv
// for delta and minimised over the orders. It returns eps and the order
// attaining it. (The plan's ReferenceEpsilon takes any events, one order
// at a time.)
//
// progress, if not nil, is called with the number of orders done after
// each tenth of them: the curve is then computed a tenth at a time. That
// gives the same values (what SGMCurve shares between orders is computed
// the same way whichever orders ask for it) and costs a few percent of
// sharing; a run with small sigma or large orders takes minutes, and
// rdpcheck epsilon -reference says how far it is.
//
// Errors: those of reference.SGMCurve (q, sigma, steps, empty orders) and
// reference.Context.Epsilon (delta).
func DPSGDReferenceEpsilon(c reference.Context, p Phase, orders []float64, delta float64, conv reference.Conversion, progress func(done, total int)) (*big.Float, float64, error) {
	chunk := max(1, len(orders))
	if progress != nil {
		chunk = max(1, (len(orders)+9)/10)
	}
	steps := int(min(p.Steps, math.MaxInt)) // SGMCurve refuses steps < 1
	var curve []*big.Float
	for start := 0; ; start += chunk {
		end := min(start+chunk, len(orders))
		part, err := c.SGMCurve(p.Q, p.Sigma, steps, orders[start:end]) // empty orders: SGMCurve's error
		if err != nil {
			return nil, 0, err
		}
		curve = append(curve, part...)
		if progress != nil {
			progress(end, len(orders))
		}
		if end == len(orders) {
			return c.Epsilon(orders, curve, delta, conv)
		}
	}
}
