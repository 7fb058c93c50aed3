package dpevent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/pld"
)

// Exact is an event tree as dp_accounting's PLDAccountant composes it, in
// package pld's events: the run whose optimal (epsilon, delta) Epsilon and
// Delta certify. NewExact makes it.
//
// The traversal is _maybe_compose of PLDAccountant in
// pld/pld_privacy_accountant.py of google/differential-privacy at b5b0286
// (dp_accounting 0.6.0): the same classes, each under the same relations,
// SelfComposedDpEvent's count multiplying the counts below it. Each event
// is the mechanism its class describes (package pld's event of the same
// name, whose doc cites its dominating pair); where dp_accounting composes
// a bound in its place, the interval is the mechanism's own and a note
// says so (ExponentialMechanismDpEvent and PermuteAndFlipDpEvent, whose
// exact loss distributions are not established, get one-sided intervals;
// an event of noise 0 that dp_accounting takes as non-private but whose
// record is seen only when sampled keeps its own, finite, profile).
// Beyond dp_accounting, a PoissonSampledDpEvent may also hold Composed and
// SelfComposed structures of Gaussians, as dpevent's RDP side reads them:
// one Poisson coin samples them together, so they are one Gaussian of
// noise (sum count/sigma^2)^(-1/2) (Dong, Roth, Su 2019, Sec. 3), exactly.
//
// An Exact holds what it was made with and nothing of the caller's: its
// methods return new slices, and it is safe for concurrent use.
type Exact struct {
	relation pld.Relation
	terms    []ExactTerm
	split    bool // some term's Lower differs from its Event
	notes    []string
}

// ExactTerm is one distinct event of an Exact run: Count compositions of
// Event.
type ExactTerm struct {
	// Event is package pld's event.
	Event pld.Event
	// Lower, when not nil, is the event whose interval's lower end is
	// certified, Event giving the upper end: a Poisson-sampled structure
	// of Gaussians whose effective noise lies strictly between two
	// float64 values has Event at the one below and Lower at the one above.
	Lower pld.Event
	// Count is its number of compositions over the tree: at each place,
	// the product of the counts of the SelfComposedDpEvents above it.
	Count int64
	// Places is how many events of the tree give it; Path and Class name
	// the first.
	Places int
	Path   string
	Class  string
}

// ErrNoPLD is the error (wrapped, with the event's path and class and
// why) for an event or relation that has no privacy loss distribution in
// NewExact: a class dp_accounting's PLDAccountant does not compose, or one
// under a relation it refuses for that class. errors.Is(err, rdpcheck.ErrInput)
// and errors.Is(err, pld.ErrUnsupported) hold for it too.
var ErrNoPLD error = &noPLDError{}

type noPLDError struct{}

func (*noPLDError) Error() string { return "no privacy loss distribution for this event" }
func (*noPLDError) Is(target error) bool {
	return target == rdpcheck.ErrInput || target == pld.ErrUnsupported
}

// MaxExactCount is the largest count of one distinct event, and of all of
// them together, that NewExact composes: package pld's MaxCount, 2^40.
const MaxExactCount = pld.MaxCount

// errNoPLD refuses the event at path: "<path>: <what>: no privacy loss
// distribution<why>".
func errNoPLD(path, what, why string) error {
	return &pathError{path: path, err: ErrNoPLD, msg: what + ": no privacy loss distribution" + why}
}

// relationErr refuses e under rel, a relation dp_accounting's
// PLDAccountant refuses for it (it takes only ok).
func relationErr(path, what string, rel Relation, ok ...Relation) error {
	names := make([]string, len(ok))
	for i, r := range ok {
		names[i] = r.String()
	}
	return errNoPLD(path, what, fmt.Sprintf(" under %v: dp_accounting's PLD accountant takes it under %s only", rel, strings.Join(names, " or ")))
}

// noPLDWhy says, per class that dp_accounting's PLDAccountant does not
// compose ("Unsupported event."), why NewExact refuses it too.
var noPLDWhy = map[string]string{
	"ZCDpEvent":                         "a zCDP guarantee bounds Rényi divergences, which do not determine a privacy loss distribution",
	"DiscreteGaussianDpEvent":           "package pld has no discrete Gaussian",
	"SampledWithoutReplacementDpEvent":  "package pld has no dominating pair for sampling without replacement",
	"SingleEpochTreeAggregationDpEvent": "package pld has no tree aggregation",
	"RepeatAndSelectDpEvent":            "the privacy loss distribution of repeat-and-select is not established",
	"UnsupportedDpEvent":                "no guarantee is known for it to account",
}

// NewExact turns the event tree e, under the relation rel, into the run
// dp_accounting's PLDAccountant(neighboring_relation=rel).compose(e)
// composes (see Exact). A class it does not compose, or one under a
// relation it refuses, is an error wrapping ErrNoPLD that names the
// event's path and class and says why; a parameter outside what package
// pld takes (a mixture's probabilities that do not sum to 1 within 1e-12,
// say) an error of kind rdpcheck.ErrInput naming the field; a count above
// MaxExactCount one of kind rdpcheck.ErrTooLarge. Time and memory are linear
// in the tree's size.
func NewExact(e *Event, rel Relation) (*Exact, error) {
	b := &exactBuilder{x: &Exact{}, index: map[string]int{}, noted: map[string]bool{}}
	switch rel {
	case AddOrRemoveOne:
		b.x.relation = pld.AddOrRemoveOne
	case ReplaceOne:
		b.x.relation = pld.ReplaceOne
	case ReplaceSpecial:
		b.x.relation = pld.ReplaceSpecial
	default:
		return nil, inputErrorf("unknown neighboring relation %v", rel)
	}
	b.rel = rel
	if err := b.walk(e, 1); err != nil {
		return nil, err
	}
	return b.x, nil
}

type exactBuilder struct {
	x     *Exact
	rel   Relation
	index map[string]int // terms by their events
	total int64
	noted map[string]bool
}

// note adds a note once per key.
func (b *exactBuilder) note(key, s string) {
	if !b.noted[key] {
		b.noted[key] = true
		b.x.notes = append(b.x.notes, s)
	}
}

// add adds n compositions of ev (lower: the lower end's event, nil when
// the same) at e.
func (b *exactBuilder) add(e *Event, n int64, ev, lower pld.Event) error {
	key := ev.String()
	if lower != nil {
		key += " | " + lower.String()
	}
	if n > MaxExactCount || b.total > MaxExactCount-n {
		return &pathError{path: e.Path(), err: rdpcheck.ErrTooLarge, msg: fmt.Sprintf(
			"%s: the file composes more than 2^40 events (this one %d times, %d before it): package pld composes at most 2^40", e.Class, n, b.total)}
	}
	b.total += n
	if i, ok := b.index[key]; ok {
		b.x.terms[i].Count += n
		b.x.terms[i].Places++
		return nil
	}
	b.index[key] = len(b.x.terms)
	if lower != nil {
		b.x.split = true
	}
	b.x.terms = append(b.x.terms, ExactTerm{Event: ev, Lower: lower, Count: n, Places: 1, Path: e.Path(), Class: e.Class})
	return nil
}

// walk adds n compositions of e, as _maybe_compose(e, n) does.
func (b *exactBuilder) walk(e *Event, n int64) error {
	path := e.Path()
	addOrSpecial := func(what string) error {
		if b.rel != AddOrRemoveOne && b.rel != ReplaceSpecial {
			return relationErr(path, what, b.rel, AddOrRemoveOne, ReplaceSpecial)
		}
		return nil
	}
	switch e.Class {
	case "NoOpDpEvent":
		return nil
	case "NonPrivateDpEvent":
		return b.add(e, n, pld.NonPrivate{}, nil)
	case "SelfComposedDpEvent":
		k := int64(e.Num("count"))
		if k > 0 && n > MaxCount/k {
			return errAt(path+".count", "the count %d times the %d above it is more than 2^53 = %d", k, n, int64(MaxCount))
		}
		// count 0 too: dp_accounting traverses it (its relations are
		// checked), composing nothing
		return b.walk(e.Sub("event"), n*k)
	case "ComposedDpEvent":
		for _, s := range e.List("events") {
			if err := b.walk(s, n); err != nil {
				return err
			}
		}
		return nil
	case "EpsilonDeltaDpEvent":
		return b.add(e, n, pld.EpsilonDelta{Epsilon: e.Num("epsilon"), Delta: e.Num("delta")}, nil)
	case "RandomizedResponseDpEvent":
		if b.rel != ReplaceOne && b.rel != ReplaceSpecial {
			return relationErr(path, e.Class, b.rel, ReplaceOne, ReplaceSpecial)
		}
		k := e.Num("num_buckets")
		if k < 1 {
			return errAt(path+".num_buckets", "must be >= 1 (is %v)", k)
		}
		// num_buckets 1 (no information) and noise_parameter 0 (no noise)
		// are pld's no-op and non-private events, as dp_accounting's
		return b.add(e, n, pld.RandomizedResponse{Noise: e.Num("noise_parameter"), Buckets: int(k)}, nil)
	case "GaussianDpEvent":
		return b.add(e, n, pld.Gaussian{Sigma: e.Num("noise_multiplier")}, nil)
	case "LaplaceDpEvent":
		if err := addOrSpecial(e.Class); err != nil {
			return err
		}
		return b.add(e, n, pld.Laplace{B: e.Num("noise_multiplier")}, nil)
	case "DiscreteLaplaceDpEvent":
		if err := addOrSpecial(e.Class); err != nil {
			return err
		}
		return b.add(e, n, pld.DiscreteLaplace{Param: e.Num("noise_parameter"), Sensitivity: int(e.Num("sensitivity"))}, nil)
	case "MixtureOfGaussiansDpEvent":
		if err := addOrSpecial(e.Class); err != nil {
			return err
		}
		ev, err := mixture(e)
		if err != nil {
			return err
		}
		if ev.Sigma == 0 {
			b.noteNoNoise(e)
		}
		return b.add(e, n, ev, nil)
	case "ExponentialMechanismDpEvent":
		b.note(e.Class, fmt.Sprintf("%s: %s: its exact privacy loss distribution is not established: the interval's upper end is that of any epsilon-DP mechanism (as dp_accounting composes it), its lower end that of one exponential mechanism on two candidates whose utilities swap", path, e.Class))
		return b.add(e, n, pld.ExponentialMechanism{Epsilon: e.Num("epsilon")}, nil)
	case "PermuteAndFlipDpEvent":
		if err := addOrSpecial(e.Class); err != nil {
			return err
		}
		b.note(e.Class, fmt.Sprintf("%s: %s: its exact privacy loss distribution is not established (dp_accounting composes the Laplace mechanism of scale 1/epsilon, from a claim package pld does not take): the interval's upper end is that of any epsilon-DP mechanism, its lower end that of permute-and-flip on two candidates whose utilities swap", path, e.Class))
		return b.add(e, n, pld.PermuteAndFlip{Epsilon: e.Num("epsilon")}, nil)
	case "PoissonSampledDpEvent":
		return b.poisson(e, n)
	case "TruncatedSubsampledGaussianDpEvent":
		size, q, batch, s := e.Num("dataset_size"), e.Num("sampling_probability"), e.Num("truncated_batch_size"), e.Num("noise_multiplier")
		if q == 0 || batch == 0 || size == 0 {
			return nil // no record is ever used (a no-op in dp_accounting too)
		}
		if s == 0 {
			b.noteNoNoise(e)
		}
		b.note(e.Class, fmt.Sprintf("%s: %s: its exact privacy loss distribution is not established: the interval's upper end is dp_accounting's construction, its lower end that of the instance in which the other records contribute nothing (package pld's TruncatedSampledGaussian)", path, e.Class))
		return b.add(e, n, pld.TruncatedSampledGaussian{N: int64(size), Q: q, Batch: int64(batch), Sigma: s}, nil)
	}
	why, ok := noPLDWhy[e.Class]
	if !ok {
		why = "dp_accounting's PLD accountant does not compose it"
	}
	return errNoPLD(path, e.Class, ` (dp_accounting's PLD accountant refuses it: "Unsupported event."): `+why)
}

// noteNoNoise notes an event of noise 0 that dp_accounting's PLD
// accountant takes as non-private though its record is not always seen.
func (b *exactBuilder) noteNoNoise(e *Event) {
	b.note("noise 0", fmt.Sprintf("%s: %s has no noise: dp_accounting's PLD accountant takes it as non-private (epsilon +Inf); the interval is the mechanism's own (its record is seen only with some probability)", e.Path(), e.Class))
}

// mixture is the MixtureOfGaussiansDpEvent e as pld's event: the entries
// of probability 0 dropped first, as dp_accounting's
// MixtureGaussianPrivacyLoss drops them, and the rest checked as it checks
// them (sensitivities >= 0) and as pld does (the probabilities sum to 1
// within 1e-12; dp_accounting takes math.isclose's 1e-9 relative).
func mixture(e *Event) (pld.MixtureOfGaussians, error) {
	path := e.Path()
	sens, probs := e.Nums("sensitivities"), e.Nums("sampling_probs")
	if len(sens) != len(probs) {
		return pld.MixtureOfGaussians{}, errAt(path+".sampling_probs", "must be as long as sensitivities (%d entries), as in dp_accounting (has %d)", len(sens), len(probs))
	}
	ev := pld.MixtureOfGaussians{Sigma: e.Num("standard_deviation")}
	var sum float64
	for i, p := range probs {
		if p == 0 {
			continue
		}
		if sens[i] < 0 {
			return pld.MixtureOfGaussians{}, errAt(fmt.Sprintf("%s.sensitivities[%d]", path, i), "must be >= 0 where its probability is not 0, as in dp_accounting (is %v)", sens[i])
		}
		ev.Sensitivities = append(ev.Sensitivities, sens[i])
		ev.Probs = append(ev.Probs, p)
		sum += p
	}
	if len(ev.Probs) == 0 {
		return pld.MixtureOfGaussians{}, errAt(path+".sampling_probs", "must have an entry above 0")
	}
	if math.Abs(sum-1) > 1e-12 {
		return pld.MixtureOfGaussians{}, errAt(path+".sampling_probs", "must sum to 1 within 1e-12, package pld's tolerance (they sum to %v; dp_accounting takes 1e-9 relative)", sum)
	}
	return ev, nil
}

// poisson adds n compositions of the PoissonSampledDpEvent e.
func (b *exactBuilder) poisson(e *Event, n int64) error {
	q, sub := e.Num("sampling_probability"), e.Sub("event")
	switch sub.Class {
	case "GaussianDpEvent":
		s := sub.Num("noise_multiplier")
		if s == 0 && q > 0 && q < 1 {
			b.noteNoNoise(e)
		}
		return b.add(e, n, pld.SampledGaussian{Q: q, Sigma: s}, nil)
	case "LaplaceDpEvent":
		if b.rel != AddOrRemoveOne && b.rel != ReplaceSpecial {
			return relationErr(e.Path(), e.Class+" of a LaplaceDpEvent", b.rel, AddOrRemoveOne, ReplaceSpecial)
		}
		bb := sub.Num("noise_multiplier")
		if bb == 0 && q > 0 && q < 1 {
			b.noteNoNoise(e)
		}
		return b.add(e, n, pld.SampledLaplace{Q: q, B: bb}, nil)
	case "ComposedDpEvent", "SelfComposedDpEvent":
		lo, hi, err := gaussianLoad(sub)
		if err != nil {
			return err
		}
		down, up := sigmaBetween(lo, hi)
		if down == 0 && q > 0 && q < 1 {
			b.noteNoNoise(e)
		}
		ev := pld.SampledGaussian{Q: q, Sigma: down}
		if up == down {
			return b.add(e, n, ev, nil)
		}
		b.note("split "+e.Path(), fmt.Sprintf("%s: %s: the effective noise multiplier of its Gaussians, (sum count/sigma^2)^(-1/2), lies between the float64 values %v and %v: the interval's upper end is computed at the first, its lower end at the second", e.Path(), e.Class, down, up))
		return b.add(e, n, ev, pld.SampledGaussian{Q: q, Sigma: up})
	}
	return errNoPLD(sub.Path(), sub.Class+" under "+e.Class, ": dp_accounting's PLD accountant samples a GaussianDpEvent or a LaplaceDpEvent only (and rdpcheck also Composed and SelfComposed structures of Gaussians, one Gaussian of noise (sum count/sigma^2)^(-1/2))")
}

// loadPrec is the precision of gaussianLoad's bounds.
const loadPrec = 256

// gaussianLoad returns bounds lo <= S <= hi on S = sum count/sigma^2 over
// the Gaussians of the Composed/SelfComposed structure e (count: the
// product of the SelfComposed counts above each), each operation rounded
// down for lo and up for hi; +Inf when a Gaussian of noise 0 is composed.
// A structure with anything else, an empty ComposedDpEvent or a count 0 is
// an error, as for dpevent's RDP side (dp_accounting's
// _effective_gaussian_noise_multiplier has no noise multiplier for them).
func gaussianLoad(e *Event) (lo, hi *big.Float, err error) {
	switch e.Class {
	case "GaussianDpEvent":
		s := e.Num("noise_multiplier")
		if s == 0 {
			return new(big.Float).SetInf(false), new(big.Float).SetInf(false), nil
		}
		s2 := new(big.Float).SetPrec(106).SetFloat64(s) // s^2 exactly in 106 bits
		s2.Mul(s2, s2)
		one := big.NewFloat(1)
		lo = new(big.Float).SetPrec(loadPrec).SetMode(big.ToNegativeInf).Quo(one, s2)
		hi = new(big.Float).SetPrec(loadPrec).SetMode(big.ToPositiveInf).Quo(one, s2)
		return lo, hi, nil
	case "SelfComposedDpEvent":
		c := e.Num("count")
		if c == 0 {
			return nil, nil, errAt(e.Path()+".count", "a SelfComposedDpEvent of count 0 under PoissonSampledDpEvent has no noise multiplier")
		}
		if lo, hi, err = gaussianLoad(e.Sub("event")); err != nil {
			return nil, nil, err
		}
		k := new(big.Float).SetFloat64(c) // an integer up to 2^53: exact
		return lo.SetMode(big.ToNegativeInf).Mul(lo, k), hi.SetMode(big.ToPositiveInf).Mul(hi, k), nil
	case "ComposedDpEvent":
		list := e.List("events")
		if len(list) == 0 {
			return nil, nil, errAt(e.Path()+".events", "an empty ComposedDpEvent under PoissonSampledDpEvent has no noise multiplier")
		}
		lo = new(big.Float).SetPrec(loadPrec).SetMode(big.ToNegativeInf)
		hi = new(big.Float).SetPrec(loadPrec).SetMode(big.ToPositiveInf)
		for _, s := range list {
			l, h, err := gaussianLoad(s)
			if err != nil {
				return nil, nil, err
			}
			lo.Add(lo, l)
			hi.Add(hi, h)
		}
		return lo, hi, nil
	}
	return nil, nil, errNoPLD(e.Path(), e.Class+" under PoissonSampledDpEvent", ": dp_accounting's PLD accountant samples a GaussianDpEvent or a LaplaceDpEvent only (and rdpcheck also Composed and SelfComposed structures of Gaussians, one Gaussian of noise (sum count/sigma^2)^(-1/2))")
}

// sigmaBetween returns the float64 values around sigma = S^(-1/2) for
// lo <= S <= hi: down, the largest float64 certainly at or below sigma
// (down^2 hi <= 1, decided exactly), and up, the least certainly at or
// above it (up^2 lo >= 1). They are equal when sigma is a float64 and S
// was computed exactly; 0 when S is +Inf (a Gaussian of noise 0).
func sigmaBetween(lo, hi *big.Float) (down, up float64) {
	// x^2 S exactly: x^2 fits in 106 bits, the product in 106 + loadPrec
	cmp := func(x float64, s *big.Float) int {
		v := new(big.Float).SetPrec(106 + loadPrec).SetFloat64(x)
		v.Mul(v, v)
		v.Mul(v, s)
		return v.Cmp(big.NewFloat(1))
	}
	sigmaNear := func(s *big.Float) float64 {
		r := new(big.Float).SetPrec(64).Sqrt(s)
		r.Quo(big.NewFloat(1), r)
		v, _ := r.Float64()
		return v
	}
	if hi.IsInf() {
		down = 0
	} else {
		down = sigmaNear(hi)
		for down > 0 && cmp(down, hi) > 0 {
			down = math.Nextafter(down, 0)
		}
		for next := math.Nextafter(down, math.Inf(1)); !math.IsInf(next, 1) && cmp(next, hi) <= 0; next = math.Nextafter(down, math.Inf(1)) {
			down = next
		}
	}
	if lo.IsInf() {
		up = 0
	} else {
		up = sigmaNear(lo)
		for !math.IsInf(up, 1) && cmp(up, lo) < 0 {
			up = math.Nextafter(up, math.Inf(1))
		}
		for prev := math.Nextafter(up, 0); up > 0 && cmp(prev, lo) >= 0; prev = math.Nextafter(up, 0) {
			up = prev
		}
	}
	return down, up
}

// Relation returns the run's neighbouring relation.
func (x *Exact) Relation() pld.Relation { return x.relation }

// Terms returns the run's distinct events, in the order of their first
// places in the tree.
//
// Slices: the slice returned, and a mixture's slices in it, are new.
func (x *Exact) Terms() []ExactTerm {
	out := slices.Clone(x.terms)
	for i := range out {
		out[i].Event = cloneEvent(out[i].Event)
		if out[i].Lower != nil {
			out[i].Lower = cloneEvent(out[i].Lower)
		}
	}
	return out
}

// Notes returns what the intervals mean beyond the optimal value of the
// run: one line per one-sided class, per event of noise 0 that
// dp_accounting takes as non-private, per effective noise between two
// float64 values.
//
// Slices: the slice returned is new.
func (x *Exact) Notes() []string { return slices.Clone(x.notes) }

// Split reports whether the run's upper and lower ends are computed from
// two compositions (some ExactTerm has a Lower).
func (x *Exact) Split() bool { return x.split }

// Composition returns the run as package pld composes it for the upper
// end of its interval (every ExactTerm's Event): the run itself unless
// Split.
//
// Slices: the composition is new.
func (x *Exact) Composition() pld.Composition { return x.composition(false) }

// LowerComposition returns the run for the lower end of its interval
// (each ExactTerm's Lower where it has one): Composition unless Split.
//
// Slices: the composition is new.
func (x *Exact) LowerComposition() pld.Composition { return x.composition(true) }

func (x *Exact) composition(lower bool) pld.Composition {
	c := pld.Composition{Relation: x.relation, Terms: make([]pld.Term, len(x.terms))}
	for i, t := range x.terms {
		ev := t.Event
		if lower && t.Lower != nil {
			ev = t.Lower
		}
		c.Terms[i] = pld.Term{Event: cloneEvent(ev), Count: t.Count}
	}
	return c
}

func cloneEvent(e pld.Event) pld.Event {
	if m, ok := e.(pld.MixtureOfGaussians); ok {
		m.Sensitivities, m.Probs = slices.Clone(m.Sensitivities), slices.Clone(m.Probs)
		return m
	}
	return e
}

// Epsilon returns a certified interval around the run's optimal epsilon
// at delta: pld.Epsilon of Composition, or, when Split, the lower end of
// LowerComposition's interval and the upper end of Composition's (see
// ExactTerm.Lower). Its errors are pld.Epsilon's (an interval wider than
// asked comes with an error wrapping pld.ErrPrecision; a cancelled ctx
// with ctx's error, checked before anything is computed since pld's
// closed forms do not look at ctx), with the path of the event they
// concern.
func (x *Exact) Epsilon(ctx context.Context, delta float64, opts ...pld.Options) (pld.Interval, error) {
	if err := ctx.Err(); err != nil {
		return pld.Interval{Lo: 0, Hi: math.Inf(1)}, err
	}
	return x.run(opts, func(c pld.Composition, o pld.Options) (pld.Interval, error) {
		return pld.Epsilon(ctx, c, delta, o)
	})
}

// Delta returns a certified interval around the run's optimal delta at
// eps, as Epsilon does.
func (x *Exact) Delta(ctx context.Context, eps float64, opts ...pld.Options) (pld.Interval, error) {
	if err := ctx.Err(); err != nil {
		return pld.Interval{Lo: 0, Hi: 1}, err
	}
	return x.run(opts, func(c pld.Composition, o pld.Options) (pld.Interval, error) {
		return pld.Delta(ctx, c, eps, o)
	})
}

func (x *Exact) run(opts []pld.Options, f func(pld.Composition, pld.Options) (pld.Interval, error)) (pld.Interval, error) {
	var o pld.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if !x.split {
		iv, err := f(x.Composition(), o)
		return iv, x.wrap(err)
	}
	side := func(name string) pld.Options {
		s := o
		if o.Progress != nil {
			s.Progress = func(msg string) { o.Progress(name + ": " + msg) }
		}
		return s
	}
	up, errUp := f(x.Composition(), side("upper end"))
	if errUp != nil && !errors.Is(errUp, pld.ErrPrecision) {
		// Composition's lower end is not certified: nothing but the
		// upper end is known
		return pld.Interval{Lo: 0, Hi: up.Hi}, x.wrap(errUp)
	}
	low, errLow := f(x.LowerComposition(), side("lower end"))
	iv := pld.Interval{Lo: low.Lo, Hi: up.Hi}
	if errLow != nil {
		return iv, x.wrap(errLow)
	}
	return iv, x.wrap(errUp)
}

// pldName matches package pld's prefixes of its messages: "pld: ",
// "pld.Func: ", and "pld." before an event's name ("pld.Laplace(b=1): ").
var pldName = regexp.MustCompile(`\bpld(\.[A-Za-z0-9_]+)?: |\bpld\.([A-Z][A-Za-z0-9]*\()`)

// exactError is an error of package pld about the event at path.
type exactError struct {
	path, class string
	err         error
}

func (e *exactError) Error() string {
	return e.path + ": " + e.class + ": " + pldName.ReplaceAllString(userMessage(e.err), "$2")
}
func (e *exactError) Unwrap() error { return e.err }

// wrap names the term an error of package pld concerns (its message
// names the event), if any.
func (x *Exact) wrap(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, t := range x.terms {
		if strings.Contains(msg, t.Event.String()) || t.Lower != nil && strings.Contains(msg, t.Lower.String()) {
			return &exactError{t.Path, t.Class, err}
		}
	}
	return err
}
