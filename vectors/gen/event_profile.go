package gen

// vectors/event_profile.json: certified intervals around the optimal
// privacy profile of runs given as dp_accounting DpEvents (packages
// dpevent and pld), for grading any accountant that reads DpEvents, of
// any method, on each event kind.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// EventInterval is the certified interval of fn (schema.EventEpsilon at
// delta = x, schema.EventDelta at eps = x) for the DpEvent JSON event
// under the relation rel (dp_accounting's name), by dpevent.NewExact and
// package pld with the options o. An event or relation dpevent or pld
// refuses is an error of kind rdpcheck.ErrInput; one that is not already an
// *rdpcheck.InputError is made one (Arg "event"), so that the vector engine
// writes it as an invalid test.
func EventInterval(fn string, event []byte, rel string, x float64, o pld.Options) (pld.Interval, error) {
	f, err := dpevent.Decode(event)
	if err != nil {
		return pld.Interval{}, inputError(fn, err)
	}
	r, err := dpevent.ParseRelation(rel)
	if err != nil {
		return pld.Interval{}, inputError(fn, err)
	}
	ex, err := dpevent.NewExact(f.Event, r)
	if err != nil {
		return pld.Interval{}, inputError(fn, err)
	}
	var iv pld.Interval
	if fn == schema.EventEpsilon {
		iv, err = ex.Epsilon(context.Background(), x, o)
	} else {
		iv, err = ex.Delta(context.Background(), x, o)
	}
	return iv, inputError(fn, err)
}

// inputError makes an error of kind rdpcheck.ErrInput an *rdpcheck.InputError,
// keeping its message.
func inputError(fn string, err error) error {
	var ie *rdpcheck.InputError
	if err == nil || !errors.Is(err, rdpcheck.ErrInput) || errors.As(err, &ie) {
		return err
	}
	return &rdpcheck.InputError{Func: fn, Arg: "event", Value: math.NaN(), Msg: err.Error()}
}

// The two certificates of each event interval: pld's default (eps: the
// grid refined until the width is reached; delta: h = 2^-12) and a fixed
// grid h = 2^-11 (profile.json's 2^-13 costs 35 s on one
// TruncatedSubsampledGaussianDpEvent step alone).
var eventOpts = [2]pld.Options{{}, {H: 0x1p-11}}

// EventJob registers the job of one event test of function fn: two
// certificates (eventOpts, by the evaluation's precision) whose
// intersection the file holds; an interval wider than asked
// (pld.ErrPrecision) is still certified, and written.
func EventJob(e *verify.Engine, fn string, event []byte, rel string, x float64) *verify.Job {
	what := fmt.Sprintf("%s(%s, %s, %g)", fn, event, rel, x)
	return e.AddSampled(what, func(c reference.Context, _ verify.Points) (verify.Out, error) {
		o := eventOpts[1]
		if c.Prec == verify.Precs[0] {
			o = eventOpts[0]
		}
		iv, err := EventInterval(fn, event, rel, x, o)
		if err != nil && !errors.Is(err, pld.ErrPrecision) {
			return verify.Out{}, err
		}
		return verify.Out{Interval: true, Lo: iv.Lo, Hi: iv.Hi}, nil
	})
}

// The DpEvents of the file, written as dp_accounting's to_named_tuple()
// form (compact JSON, numbers as their shortest round-trip decimals,
// which every correct reader reads back to the same float64).
type dpEv string

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func evNoOp() dpEv       { return `{"class_name":"NoOpDpEvent"}` }
func evNonPrivate() dpEv { return `{"class_name":"NonPrivateDpEvent"}` }
func evEpsDelta(eps, delta float64) dpEv {
	return dpEv(`{"class_name":"EpsilonDeltaDpEvent","epsilon":` + num(eps) + `,"delta":` + num(delta) + `}`)
}
func evGaussian(s float64) dpEv {
	return dpEv(`{"class_name":"GaussianDpEvent","noise_multiplier":` + num(s) + `}`)
}
func evLaplace(b float64) dpEv {
	return dpEv(`{"class_name":"LaplaceDpEvent","noise_multiplier":` + num(b) + `}`)
}
func evDLaplace(a float64, sens int) dpEv {
	return dpEv(`{"class_name":"DiscreteLaplaceDpEvent","noise_parameter":` + num(a) + `,"sensitivity":` + strconv.Itoa(sens) + `}`)
}
func evRR(noise float64, buckets int) dpEv {
	return dpEv(`{"class_name":"RandomizedResponseDpEvent","noise_parameter":` + num(noise) + `,"num_buckets":` + strconv.Itoa(buckets) + `}`)
}
func evExpMech(eps float64) dpEv {
	return dpEv(`{"class_name":"ExponentialMechanismDpEvent","epsilon":` + num(eps) + `}`)
}
func evPermuteFlip(eps float64) dpEv {
	return dpEv(`{"class_name":"PermuteAndFlipDpEvent","epsilon":` + num(eps) + `}`)
}
func evMixture(sd float64, sens, probs []float64) dpEv {
	list := func(xs []float64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = num(x)
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	return dpEv(`{"class_name":"MixtureOfGaussiansDpEvent","standard_deviation":` + num(sd) + `,"sensitivities":` + list(sens) + `,"sampling_probs":` + list(probs) + `}`)
}
func evPoisson(q float64, sub dpEv) dpEv {
	return dpEv(`{"class_name":"PoissonSampledDpEvent","sampling_probability":` + num(q) + `,"event":` + string(sub) + `}`)
}
func evTruncated(n int, q float64, batch int, s float64) dpEv {
	return dpEv(`{"class_name":"TruncatedSubsampledGaussianDpEvent","dataset_size":` + strconv.Itoa(n) + `,"sampling_probability":` + num(q) +
		`,"truncated_batch_size":` + strconv.Itoa(batch) + `,"noise_multiplier":` + num(s) + `}`)
}
func evComposed(subs ...dpEv) dpEv {
	s := make([]string, len(subs))
	for i, x := range subs {
		s[i] = string(x)
	}
	return dpEv(`{"class_name":"ComposedDpEvent","events":[` + strings.Join(s, ",") + `]}`)
}
func evSelf(sub dpEv, count int) dpEv {
	return dpEv(`{"class_name":"SelfComposedDpEvent","event":` + string(sub) + `,"count":` + strconv.Itoa(count) + `}`)
}

// The relations, by dp_accounting's names.
const (
	addRemove = "ADD_OR_REMOVE_ONE"
	replOne   = "REPLACE_ONE"
	replSpec  = "REPLACE_SPECIAL"
)

// eventCase is one test's question: an event under a relation, and the
// delta (EventEpsilon) or eps (EventDelta) it is asked at.
type eventCase struct {
	comment string
	ev      dpEv
	rel     string
	x       float64
	flags   []string
}

func buildEventProfile(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("dp-event-profile", []string{
		"EventEpsilon(event, neighboringRelation, delta): the optimal eps(delta) = inf{eps >= 0 : delta(eps) <= delta} of the run the dp_accounting DpEvent event describes, under dp_accounting's NeighboringRelation neighboringRelation, as dp_accounting's PLDAccountant(neighboring_relation).compose(event) composes it (each event the mechanism its class names; the larger of the two directions of each pair of neighbours), where delta(eps) is the run's privacy profile.",
		"EventDelta(event, neighboringRelation, eps): that profile delta(eps) itself.",
		"event is the JSON of the event's to_named_tuple() form (dp_event.py of dp_accounting 0.6.0): \"class_name\" and the class's fields as dp_accounting names them, nested events as objects, lists of events as lists; numbers are the shortest decimals of float64 values. The classes are those dp_accounting's PLDAccountant composes (the schema's dpEvent lists them with their fields); no other class or field appears.",
		"These are the true privacy of the run, whatever the method of accounting: no valid accountant (RDP, PLD, PRV, GDP, or a closed form) may answer below it, and each answer above it says how much the method over-states. An accountant that cannot express an event (a DP-SGD accountant given a Laplace event) refuses it; the scorer counts that as unsupported coverage, not as a failure, when the test is valid.",
		"A test gives no exact value but a certified interval: lower <= truth <= upper, proven (lower and upper are float64 values; their hex forms are exact). An answer below lower is unsound (it fails); within [lower, upper] it is exact to the certificate; above upper it is valid but loose, by at least answer/upper - 1. relativeTolerance is the width eps intervals are computed to and grades nothing. Where a class's exact privacy loss distribution is not established (flag OneSided), the interval is wider: see its note.",
	})
	b.File.ReferencePrecisionBits, b.File.CheckPrecisionBits = 64, 64
	b.File.Provenance = []string{
		"Inputs are float64 values, taken exactly: an interval holds the truth for the binary numbers the event's decimals read as, not for other decimals they might have been meant as.",
		fmt.Sprintf("Intervals: github.com/rdpcheck/rdpcheck/dpevent's NewExact (the event tree as dp_accounting 0.6.0's PLDAccountant traverses it, each event package pld's event of the same mechanism) and package pld, two certificates per test, each covering discretisation, truncated tails and every floating-point rounding (pld/doc.go gives the argument): pld's default options (eps: the grid refined until hi/lo - 1 <= %g; delta: grid spacing h = 2^-12), and a fixed grid h = 2^-11. Where pld cannot reach the width (its finest grid, 2^-24, is not fine enough: the prv_accountant question at delta = 1.1e-18) the interval written is the certified one reached, wider. The file holds their intersection, which holds the truth because each does; the generator refuses to write a test whose two intervals do not intersect.", ProfileWidth),
		"referencePrecisionBits and checkPrecisionBits: the intervals are float64 arithmetic with a carried error bound, rounded outward; the precision fields say so (64) and are otherwise unused here.",
		"result invalid: dpevent or package pld rejects the input (an error of kind rdpcheck.ErrInput) in both evaluations; dp_accounting 0.6.0 refuses each of them too.",
	}
	test := func(g *schema.Group, c eventCase, result string) {
		t := &schema.Test{Comment: c.comment, Flags: c.flags, Event: []byte(c.ev), NeighboringRelation: c.rel, Result: result}
		arg := "delta"
		if g.Function == schema.EventDelta {
			arg = "eps"
		}
		t.SetFloat(arg, c.x)
		then := setInterval
		if result == schema.Invalid {
			then = nil
		}
		b.Test(g, t, EventJob(e, g.Function, []byte(c.ev), c.rel, c.x), then)
	}
	groups := func(name, comment string, eps, deltas []eventCase) {
		if len(eps) > 0 {
			g := b.Group("event-epsilon/"+name, schema.EventEpsilon, comment, ProfileWidth)
			for _, c := range eps {
				test(g, c, "")
			}
		}
		if len(deltas) > 0 {
			g := b.Group("event-delta/"+name, schema.EventDelta, comment, ProfileWidth)
			for _, c := range deltas {
				test(g, c, "")
			}
		}
	}
	// each is the same event under several relations, at one delta or eps.
	each := func(what string, ev dpEv, x float64, flags []string, rels ...string) []eventCase {
		var out []eventCase
		for _, r := range rels {
			out = append(out, eventCase{fmt.Sprintf("%s, %s", what, r), ev, r, x, flags})
		}
		return out
	}
	all := []string{addRemove, replOne, replSpec}
	addOrSpecial := []string{addRemove, replSpec}
	sgm := func(q, s float64, steps int) dpEv { return evSelf(evPoisson(q, evGaussian(s)), steps) }

	// The questions users asked, answered.
	groups("users-asked", "runs users asked about, with what their accountants printed (comments)",
		[]eventCase{
			{"the run a user asked about in Opacus's tracker (github.com/pytorch/opacus/issues/643, \"Why GDP and RDP give different results for the same config?\"): DP-SGD, q = 0.2, sigma = 3, 50 steps, delta = 1/48000; Opacus 1.5's GDP accountant printed eps 1.838, its RDP accountant 2.169", sgm(0.2, 3, 50), addRemove, 1.0 / 48000, nil},
			{"the run a user asked about in prv_accountant's tracker (github.com/microsoft/prv_accountant/issues/17, eps at a tiny delta): DP-SGD, q = 0.00033, sigma = 4, 10,000 steps, delta = 1.1e-18; prv_accountant printed an estimate of eps 0.056 (pld's finest grid certifies this interval only to about 17%)", sgm(0.00033, 4, 10000), addRemove, 1.1e-18, nil},
		}, nil)

	// One event of each class, under each relation dp_accounting's PLD
	// accountant takes for it.
	var kindEps, kindDelta []eventCase
	add := func(eps, delta []eventCase) {
		kindEps = append(kindEps, eps...)
		kindDelta = append(kindDelta, delta...)
	}
	add(each("GaussianDpEvent(noise_multiplier=2), 10 times", evSelf(evGaussian(2), 10), 1e-5, nil, all...),
		each("GaussianDpEvent(noise_multiplier=2), 10 times", evSelf(evGaussian(2), 10), 1, nil, all...))
	add(each("LaplaceDpEvent(noise_multiplier=2), 10 times", evSelf(evLaplace(2), 10), 1e-5, nil, addOrSpecial...),
		each("LaplaceDpEvent(noise_multiplier=2), 10 times", evSelf(evLaplace(2), 10), 2, nil, addOrSpecial...))
	add(each("DiscreteLaplaceDpEvent(noise_parameter=0.5, sensitivity=1), 10 times", evSelf(evDLaplace(0.5, 1), 10), 1e-5, nil, addOrSpecial...),
		each("DiscreteLaplaceDpEvent(noise_parameter=0.5, sensitivity=1), 10 times", evSelf(evDLaplace(0.5, 1), 10), 2, nil, addOrSpecial...))
	add(each("DiscreteLaplaceDpEvent(noise_parameter=0.2, sensitivity=3)", evDLaplace(0.2, 3), 1e-6, nil, addRemove), nil)
	add(each("RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2), 20 times", evSelf(evRR(0.5, 2), 20), 1e-5, nil, replOne, replSpec),
		each("RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2), 20 times", evSelf(evRR(0.5, 2), 20), 3, nil, replOne, replSpec))
	add(each("RandomizedResponseDpEvent(noise_parameter=0.3, num_buckets=10)", evRR(0.3, 10), 1e-6, nil, replOne, replSpec), nil)
	add(each("EpsilonDeltaDpEvent(epsilon=0.5, delta=1e-7), 10 times", evSelf(evEpsDelta(0.5, 1e-7), 10), 1e-5, nil, all...),
		each("EpsilonDeltaDpEvent(epsilon=0.5, delta=1e-7), 10 times", evSelf(evEpsDelta(0.5, 1e-7), 10), 2, nil, all...))
	add(each("ExponentialMechanismDpEvent(epsilon=1), 5 times", evSelf(evExpMech(1), 5), 1e-5, []string{"OneSided"}, all...), nil)
	add(each("PermuteAndFlipDpEvent(epsilon=1), 5 times", evSelf(evPermuteFlip(1), 5), 1e-5, []string{"OneSided"}, addOrSpecial...), nil)
	mix := evSelf(evMixture(2, []float64{0, 1, 2}, []float64{0.5, 0.3, 0.2}), 10)
	add(each("MixtureOfGaussiansDpEvent(standard_deviation=2, sensitivities=[0, 1, 2], sampling_probs=[0.5, 0.3, 0.2]), 10 times", mix, 1e-5, nil, addOrSpecial...),
		each("MixtureOfGaussiansDpEvent(standard_deviation=2, sensitivities=[0, 1, 2], sampling_probs=[0.5, 0.3, 0.2]), 10 times", mix, 1, nil, addOrSpecial...))
	add(each("PoissonSampledDpEvent(0.01, GaussianDpEvent(1)), 1000 times (DP-SGD)", sgm(0.01, 1, 1000), 1e-5, nil, all...),
		each("PoissonSampledDpEvent(0.01, GaussianDpEvent(1)), 1000 times (DP-SGD)", sgm(0.01, 1, 1000), 1, nil, all...))
	sl := evSelf(evPoisson(0.05, evLaplace(1)), 100)
	add(each("PoissonSampledDpEvent(0.05, LaplaceDpEvent(1)), 100 times", sl, 1e-5, nil, addOrSpecial...),
		each("PoissonSampledDpEvent(0.05, LaplaceDpEvent(1)), 100 times", sl, 1, nil, addOrSpecial...))
	tr := evSelf(evTruncated(10000, 0.01, 120, 1), 20)
	add(each("TruncatedSubsampledGaussianDpEvent(dataset_size=10000, sampling_probability=0.01, truncated_batch_size=120, noise_multiplier=1), 20 times", tr, 1e-5, []string{"OneSided"}, addRemove), nil)
	add(each("NoOpDpEvent: nothing released", evNoOp(), 1e-5, []string{"NoOp"}, all...),
		each("NoOpDpEvent: nothing released", evNoOp(), 1, []string{"NoOp"}, addRemove))
	add(each("NonPrivateDpEvent: eps is inf at every delta < 1", evNonPrivate(), 1e-5, []string{"NonPrivate"}, addRemove),
		each("NonPrivateDpEvent: delta is 1 at every finite eps", evNonPrivate(), 1, []string{"NonPrivate"}, addRemove))
	groups("kinds", "one event of each class dp_accounting's PLD accountant composes, under each relation it takes for it (delta 1e-5 or 1e-6; eps 1 to 3)", kindEps, kindDelta)

	// Compositions of different events.
	dpsgd := sgm(256.0/60000, 1.1, 14063)
	hetero := []eventCase{
		{"ComposedDpEvent: DP-SGD (q = 256/60000, sigma = 1.1, 14063 steps) then LaplaceDpEvent(10) (examples/events/dpsgd_then_laplace.json)", evComposed(dpsgd, evLaplace(10)), addRemove, 1e-5, []string{"Heterogeneous"}},
		{"ComposedDpEvent: DP-SGD in two phases (q = 0.01, sigma = 1, 2000 steps; q = 0.02, sigma = 2, 1000 steps)", evComposed(sgm(0.01, 1, 2000), sgm(0.02, 2, 1000)), addRemove, 1e-5, []string{"Heterogeneous"}},
		{"ComposedDpEvent: GaussianDpEvent(3) 5 times, LaplaceDpEvent(5) 5 times, EpsilonDeltaDpEvent(0.1, 1e-8)", evComposed(evSelf(evGaussian(3), 5), evSelf(evLaplace(5), 5), evEpsDelta(0.1, 1e-8)), replSpec, 1e-6, []string{"Heterogeneous"}},
		{"ComposedDpEvent: RandomizedResponseDpEvent(0.5, 2) 10 times, GaussianDpEvent(4) 3 times, NoOpDpEvent", evComposed(evSelf(evRR(0.5, 2), 10), evSelf(evGaussian(4), 3), evNoOp()), replOne, 1e-5, []string{"Heterogeneous"}},
		{"SelfComposedDpEvent of a ComposedDpEvent (PoissonSampledDpEvent(0.1, GaussianDpEvent(2)) and LaplaceDpEvent(20)) 50 times", evSelf(evComposed(evPoisson(0.1, evGaussian(2)), evLaplace(20)), 50), addRemove, 1e-5, []string{"Heterogeneous"}},
		{"PoissonSampledDpEvent(0.05) of a ComposedDpEvent of two GaussianDpEvents (sigma 2 and 2: one Gaussian of sigma sqrt(2)), 200 times", evSelf(evPoisson(0.05, evComposed(evGaussian(2), evGaussian(2))), 200), addRemove, 1e-5, []string{"Heterogeneous"}},
	}
	heteroDelta := []eventCase{
		{"ComposedDpEvent: DP-SGD in two phases (q = 0.01, sigma = 1, 2000 steps; q = 0.02, sigma = 2, 1000 steps)", evComposed(sgm(0.01, 1, 2000), sgm(0.02, 2, 1000)), addRemove, 2, []string{"Heterogeneous"}},
		{"ComposedDpEvent: GaussianDpEvent(3) 5 times, LaplaceDpEvent(5) 5 times, EpsilonDeltaDpEvent(0.1, 1e-8)", evComposed(evSelf(evGaussian(3), 5), evSelf(evLaplace(5), 5), evEpsDelta(0.1, 1e-8)), replSpec, 1, []string{"Heterogeneous"}},
	}
	groups("composed", "compositions of events of different classes", hetero, heteroDelta)

	// Inputs dpevent, pld and dp_accounting 0.6.0 refuse.
	g := b.Group("event-epsilon/invalid", schema.EventEpsilon, "inputs outside the domain: a parameter out of its class's range, or delta outside (0, 1]", ProfileWidth)
	for _, c := range []eventCase{
		{"GaussianDpEvent(noise_multiplier=-1)", evGaussian(-1), addRemove, 1e-5, []string{"OutOfRange"}},
		{"PoissonSampledDpEvent(sampling_probability=1.5)", evPoisson(1.5, evGaussian(1)), addRemove, 1e-5, []string{"OutOfRange"}},
		{"LaplaceDpEvent(noise_multiplier=-2)", evLaplace(-2), addRemove, 1e-5, []string{"OutOfRange"}},
		{"RandomizedResponseDpEvent(noise_parameter=1.5)", evRR(1.5, 2), replOne, 1e-5, []string{"OutOfRange"}},
		{"EpsilonDeltaDpEvent(epsilon=-1)", evEpsDelta(-1, 0), addRemove, 1e-5, []string{"OutOfRange"}},
		{"MixtureOfGaussiansDpEvent whose sampling_probs sum to 0.9", evMixture(1, []float64{0, 1}, []float64{0.5, 0.4}), addRemove, 1e-5, []string{"OutOfRange"}},
		{"delta 0", sgm(0.01, 1, 100), addRemove, 0, []string{"OutOfRange"}},
		{"delta < 0", sgm(0.01, 1, 100), addRemove, -1e-5, []string{"OutOfRange"}},
		{"delta NaN", sgm(0.01, 1, 100), addRemove, math.NaN(), []string{"NaNInput"}},
	} {
		test(g, c, schema.Invalid)
	}
	g = b.Group("event-delta/invalid", schema.EventDelta, "inputs outside the domain: eps NaN, or a parameter out of its class's range", ProfileWidth)
	for _, c := range []eventCase{
		{"eps NaN", sgm(0.01, 1, 100), addRemove, math.NaN(), []string{"NaNInput"}},
		{"DiscreteLaplaceDpEvent(noise_parameter=0)", evDLaplace(0, 1), addRemove, 1, []string{"OutOfRange"}},
	} {
		test(g, c, schema.Invalid)
	}
	return b, nil
}
