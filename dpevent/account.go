package dpevent

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"regexp"
	"slices"
	"sync"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// Term is one mechanism of a plan: count compositions of an event. The
// plan keeps one term per distinct mechanism (the same What): identical
// events anywhere in the tree add their counts to one term.
type Term struct {
	// Event is the first event of the tree that gives the term.
	Event *Event
	// Places is how many events of the tree give it (each with its own
	// count; Count is their sum).
	Places int
	// What names the mechanism and its parameters, exactly (floats in
	// their shortest form that reads back the same): two terms differ in
	// What exactly when they differ in mechanism or parameters.
	What string
	// Count is how many times it is composed: over the places, the
	// product of the counts of the SelfComposedDpEvents above each.
	Count int64
	// Fast is its RDP by package fast: an upper bound at any order.
	Fast fast.Event
	// Ref is its RDP at one order by package reference.
	Ref func(c reference.Context, alpha float64) (*big.Float, error)
	// SGM is, for a Gaussian or a Poisson-sampled Gaussian term, its
	// sampling rate and noise multiplier (Q = 1 for the Gaussian): what a
	// privacy loss distribution accountant composes; nil for the others.
	SGM *SGMParams
	// epsDelta: an (eps, delta)-DP event, composed by
	// fast.Accountant.ComposeEpsilonDelta, which keeps its delta aside.
	epsDelta   bool
	eps, delta float64
}

// SGMParams are a sampled Gaussian's sampling rate and noise multiplier.
type SGMParams struct{ Q, Sigma float64 }

// SGMPhase is Count steps of the sampled Gaussian SGMParams.
type SGMPhase struct {
	SGMParams
	Count int64
}

// SGMPhases returns the plan as phases of the Poisson-sampled Gaussian
// (a Gaussian is one with Q = 1), for an accountant of its privacy loss
// distribution, under add/remove neighbours; an error names the first
// term that is not one.
//
// Slices: the slice returned is new.
func (p *Plan) SGMPhases() ([]SGMPhase, error) {
	p.own()
	if p.relation != AddOrRemoveOne {
		return nil, inputErrorf("only ADD_OR_REMOVE_ONE plans are phases of the sampled Gaussian, not %v", p.relation)
	}
	if len(p.notes) > 0 {
		return nil, inputErrorf("the plan has events with no privacy guarantee")
	}
	var out []SGMPhase
	for _, t := range p.terms {
		if t.SGM == nil {
			return nil, inputErrorf("%s (%s) is not a Gaussian or Poisson-sampled Gaussian", t.Path(), t.What)
		}
		out = append(out, SGMPhase{*t.SGM, t.Count})
	}
	return out, nil
}

// setSGM marks the term what as the sampled Gaussian (q, sigma).
func (p *Plan) setSGM(what string, q, sigma float64) {
	p.Terms[p.index[what]].SGM = &SGMParams{q, sigma}
}

// Path is where the term's first event is in the JSON ("event.events[1]").
func (t Term) Path() string { return t.Event.Path() }

// Plan is an event tree made flat: the distinct mechanisms it composes,
// and what its (epsilon, delta) events add to delta.
//
// Relation, Terms and Notes describe the plan, for the caller to read: the
// methods account the plan's own copy of Relation and Terms, taken when
// NewPlan, ReadFile or ReadBytes made it (for a Plan written as a literal,
// at its first use), so writing to these fields (or to a Term's SGM)
// afterwards changes no result. A Plan is safe for concurrent use.
type Plan struct {
	Relation Relation
	Terms    []Term
	// Notes say plainly what makes epsilon +Inf (NonPrivateDpEvent,
	// UnsupportedDpEvent), one per class.
	Notes []string

	// relation and terms are what the methods account: Relation and
	// Terms as the plan was made (seal, once).
	sealed   sync.Once
	relation Relation
	terms    []Term
	index    map[string]int // Terms by What, while the plan is made
	notes    []note
	// nest is the number of theorems on a sub-event's curve (sampling
	// by the general bounds, repeat-and-select) the plan is inside.
	nest int
	// fastMemo and refMemo keep the plan's composed curve by order, for
	// the theorems that take it (see fastEvent and refRDP).
	fastMu   sync.Mutex
	fastMemo map[float64]float64
	refMu    sync.Mutex
	refMemo  map[refKey]*big.Float
}

type note struct {
	e   *Event
	why string
	n   int
}

type refKey struct {
	prec  uint
	order float64
}

// MaxNested is how many theorems on a sub-event's curve may nest: Poisson
// sampling by Zhu and Wang's general bound, sampling without replacement
// by WBK19's Theorem 9, and repeat-and-select, each of an event that
// contains another. Each level evaluates the curve below it at up to
// 1,024 orders, and at orders up to 1,024 the general Poisson bound sums
// as many terms, so each level costs about as much as a whole plain file;
// beyond MaxNested the file is refused (ErrNested).
const MaxNested = 4

// ErrNested is the error (wrapped) for theorems on sub-curves nested more
// than MaxNested deep.
var ErrNested error = &kindError{"amplification theorems nested too deeply", rdpcheck.ErrTooLarge}

// NewPlan flattens the event under the relation, as dp_accounting's
// RdpAccountant(neighboring_relation=rel).compose(e) traverses it.
// Time and memory are linear in the tree's size.
func NewPlan(e *Event, rel Relation) (*Plan, error) {
	return newPlan(e, rel, 0)
}

func newPlan(e *Event, rel Relation, nest int) (*Plan, error) {
	p := &Plan{Relation: rel, index: map[string]int{}, nest: nest}
	if err := p.account(e, 1); err != nil {
		return nil, err
	}
	for _, n := range p.notes {
		s := fmt.Sprintf("%s: %s is %s", n.e.Path(), n.e.Class, n.why)
		if n.n > 1 {
			s += fmt.Sprintf(" (%d such events; the first is named)", n.n)
		}
		p.Notes = append(p.Notes, s)
	}
	p.sealed.Do(p.seal)
	return p, nil
}

// own takes the plan's own copy of its relation and terms if it has none
// yet (a Plan written as a literal): every method that reads them calls it.
func (p *Plan) own() { p.sealed.Do(p.seal) }

// seal keeps the relation and the terms the plan was made with for its
// methods, and gives the exported fields copies that share nothing with
// them (a Term's SGM is a pointer).
func (p *Plan) seal() {
	p.relation = p.Relation
	p.terms = cloneTerms(p.Terms)
	p.Terms = cloneTerms(p.Terms)
}

func cloneTerms(ts []Term) []Term {
	out := slices.Clone(ts)
	for i := range out {
		if s := out[i].SGM; s != nil {
			c := *s
			out[i].SGM = &c
		}
	}
	return out
}

// ReadFile decodes an event file and flattens it under its relation, or
// under rel when rel is not nil.
func ReadFile(name string, rel *Relation) (*Plan, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return ReadBytes(data, rel)
}

// ReadBytes is ReadFile of a file's contents.
//
// Slices: data is only read, and not kept.
func ReadBytes(data []byte, rel *Relation) (*Plan, error) {
	f, err := Decode(data)
	if err != nil {
		return nil, err
	}
	r := f.Relation
	if rel != nil {
		r = *rel
	}
	return NewPlan(f.Event, r)
}

func (p *Plan) account(e *Event, count int64) error {
	return classes[e.Class].account(e, count, p)
}

// add adds count compositions of the mechanism what (at e) to its term.
func (p *Plan) add(e *Event, count int64, what string, f fast.Event, ref func(reference.Context, float64) (*big.Float, error)) error {
	if i, ok := p.index[what]; ok {
		t := &p.Terms[i]
		if t.Count > MaxCount-count {
			return errAt(e.Path(), "%s: the counts of this event over the file add up to more than 2^53 = %d (%d and %d)", e.Class, int64(MaxCount), t.Count, count)
		}
		t.Count += count
		t.Places++
		return nil
	}
	p.index[what] = len(p.Terms)
	p.Terms = append(p.Terms, Term{Event: e, Places: 1, What: what, Count: count, Fast: f, Ref: ref})
	return nil
}

// note records that e (of a class with no guarantee) makes epsilon +Inf.
func (p *Plan) note(n note) {
	for i := range p.notes {
		if p.notes[i].e.Class == n.e.Class {
			p.notes[i].n += n.n
			return
		}
	}
	p.notes = append(p.notes, n)
}

func (p *Plan) infinite(e *Event, why string) error {
	p.note(note{e, why, 1})
	return p.add(e, 1, e.Class+" (no guarantee)", fast.InfiniteEvent(),
		func(reference.Context, float64) (*big.Float, error) { return new(big.Float).SetInf(false), nil })
}

// addEpsilonDelta adds count (eps, d)-DP events.
func (p *Plan) addEpsilonDelta(e *Event, count int64, eps, d float64) error {
	what := fmt.Sprintf("(eps=%v, delta=%v)-DP", eps, d)
	if err := p.add(e, count, what, fast.PureDPEvent(eps),
		func(c reference.Context, a float64) (*big.Float, error) { return c.PureDP(eps, a) }); err != nil {
		return err
	}
	t := &p.Terms[p.index[what]]
	t.epsDelta, t.eps, t.delta = true, eps, d
	return nil
}

// hasDelta says whether the plan has an (eps, delta) event with delta > 0.
func (p *Plan) hasDelta() bool {
	p.own()
	for _, t := range p.terms {
		if t.epsDelta && t.delta > 0 {
			return true
		}
	}
	return false
}

// ExtraDelta is an upper bound on the delta the (epsilon, delta) events
// add, 1 - prod (1 - delta_i)^count_i as dp_accounting composes them:
// fast.Accountant's KeptDelta, the one place it is computed.
func (p *Plan) ExtraDelta() float64 {
	if !p.hasDelta() {
		return 0
	}
	a := &fast.Accountant{Orders: []float64{2}}
	for _, t := range p.terms {
		if t.epsDelta {
			if err := a.ComposeEpsilonDelta(t.eps, t.delta, int(t.Count)); err != nil {
				return 1 // not reached: the decoder checked eps and delta
			}
		}
	}
	return a.KeptDelta()
}

// effectiveDelta is the delta left for the RDP conversion when the target
// is delta, (delta - x)/(1 - x) with x = ExtraDelta() (from 1 - delta =
// (1 - delta_RDP)(1 - x), as in dp_accounting's
// get_epsilon_and_optimal_order), to c's precision; nil where it is not
// positive.
func (p *Plan) effectiveDelta(c reference.Context, delta float64) *big.Float {
	x := p.ExtraDelta()
	if delta <= x {
		return nil
	}
	prec := refPrec(c) + 64
	num := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetFloat64(delta), new(big.Float).SetFloat64(x))
	den := new(big.Float).SetPrec(prec).Sub(big.NewFloat(1), new(big.Float).SetFloat64(x))
	return num.Quo(num, den)
}

// Accountant composes the plan's terms in a fast.Accountant on orders
// (nil: fast.DefaultOrders()).
//
// Slices: orders is only read: the accountant takes its own copy (nil: the default orders).
func (p *Plan) Accountant(orders []float64) (*fast.Accountant, error) {
	p.own()
	a := &fast.Accountant{Orders: orders}
	for _, t := range p.terms {
		if t.epsDelta {
			if err := a.ComposeEpsilonDelta(t.eps, t.delta, int(t.Count)); err != nil {
				return nil, &eventError{t.Path(), err}
			}
			continue
		}
		if err := a.Compose(t.Fast, int(t.Count)); err != nil {
			return nil, &eventError{t.Path(), err}
		}
	}
	if len(p.terms) == 0 {
		// nothing to compose: an all-zero curve
		if err := a.Compose(fast.ZCDPEvent(0, 0), 1); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// ErrDeltaTooSmall is returned for a target delta not above the delta of
// the plan's (epsilon, delta) events: no epsilon achieves it.
var ErrDeltaTooSmall error = &kindError{"the target delta is not above the delta of the (epsilon, delta) events", rdpcheck.ErrInput}

// Result is an (epsilon, delta) guarantee, the order giving it, and the
// RDP of each term there.
type Result struct {
	Epsilon, Delta, Order float64
	// TermRDP[i] is Terms[i]'s RDP at Order, count times (fast's bound).
	TermRDP []float64
}

// Epsilon returns the plan's epsilon for delta by package fast: on orders
// when given, else at the best order (fast.Accountant.BestEpsilon over
// (1, 4096] and +Inf, from dp_accounting's 156 orders).
//
// Slices: orders is only read; Result.TermRDP is new.
func (p *Plan) Epsilon(delta float64, orders []float64, conv fast.Conversion) (*Result, error) {
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return nil, inputErrorf("delta %v must be in (0, 1)", delta)
	}
	a, err := p.Accountant(orders)
	if err != nil {
		return nil, err
	}
	r := &Result{Delta: delta}
	if x := a.KeptDelta(); delta <= x {
		return nil, fmt.Errorf("%w: delta %g, theirs %g", ErrDeltaTooSmall, delta, x)
	}
	// the accountant removes the events' own delta from the target
	if orders == nil {
		r.Epsilon, r.Order, err = a.BestEpsilon(delta, conv)
	} else {
		r.Epsilon, r.Order, err = a.Epsilon(delta, conv)
	}
	if err != nil {
		return nil, &eventError{"", err}
	}
	r.TermRDP, err = p.TermRDP(r.Order)
	return r, err
}

// Delta returns the plan's delta for eps by package fast (orders as in
// Epsilon), with the (epsilon, delta) events' delta composed in (by the
// accountant).
//
// Slices: orders is only read; Result.TermRDP is new.
func (p *Plan) Delta(eps float64, orders []float64, conv fast.Conversion) (*Result, error) {
	a, err := p.Accountant(orders)
	if err != nil {
		return nil, err
	}
	r := &Result{Epsilon: eps}
	if orders == nil {
		r.Delta, r.Order, err = a.BestDelta(eps, conv)
	} else {
		r.Delta, r.Order, err = a.Delta(eps, conv)
	}
	if err != nil {
		return nil, &eventError{"", err}
	}
	r.TermRDP, err = p.TermRDP(r.Order)
	return r, err
}

// TermRDP is each term's RDP at order by package fast: count times one
// event's, rounded up (Result.TermRDP, account's rows, and rdpcheck
// epsilon's table of phases).
//
// Slices: the slice returned is new.
func (p *Plan) TermRDP(order float64) ([]float64, error) {
	p.own()
	out := make([]float64, len(p.terms))
	buf := []float64{0}
	for i, t := range p.terms {
		if err := t.Fast.RDP([]float64{order}, buf); err != nil {
			return nil, &eventError{t.Path(), err}
		}
		out[i] = buf[0] * float64(t.Count)
		if out[i] != 0 && !math.IsInf(out[i], 0) {
			out[i] = math.Nextafter(out[i], math.Inf(1))
		}
	}
	return out, nil
}

// ReferenceRDP is the plan's RDP at one order by package reference at c's
// precision: the sum over the terms of count times each term's RDP.
// progress, if not nil, is called after each term.
//
// Slices: the values and the slice returned are new.
func (p *Plan) ReferenceRDP(c reference.Context, order float64, progress func(done, total int)) (*big.Float, []*big.Float, error) {
	p.own()
	if math.IsNaN(order) || order <= 1 {
		// as fast.Accountant's orders (some terms' forms take any
		// number: order -1 gave -2e646 with a nil error, NaN a panic)
		return nil, nil, inputErrorf("order %v must be > 1 (or +Inf)", order)
	}
	prec := refPrec(c) + 64
	sum := new(big.Float).SetPrec(prec)
	terms := make([]*big.Float, len(p.terms))
	for i, t := range p.terms {
		v, err := t.Ref(c, order)
		if err != nil {
			return nil, nil, &eventError{t.Path(), err}
		}
		v = new(big.Float).SetPrec(prec).Mul(v, new(big.Float).SetInt64(t.Count))
		terms[i] = v
		sum.Add(sum, v)
		if progress != nil {
			progress(i+1, len(p.terms))
		}
	}
	return sum, terms, nil
}

// ReferenceEpsilon is the plan's epsilon for delta at one order by package
// reference (at c's precision): ReferenceRDP converted by conv at that
// order, the delta of the (epsilon, delta) events (ExtraDelta) removed
// from the target at c's precision and rounded to float64 (fast rounds it
// down, so its eps is not below this one).
func (p *Plan) ReferenceEpsilon(c reference.Context, delta, order float64, conv reference.Conversion, progress func(done, total int)) (*big.Float, error) {
	bd := p.effectiveDelta(c, delta)
	if bd == nil {
		return nil, fmt.Errorf("%w: delta %g, theirs %g", ErrDeltaTooSmall, delta, p.ExtraDelta())
	}
	d, _ := bd.Float64()
	sum, _, err := p.ReferenceRDP(c, order, progress)
	if err != nil {
		return nil, err
	}
	eps, _, err := c.Epsilon([]float64{order}, []*big.Float{sum}, d, conv)
	if err != nil {
		return nil, &eventError{"", err}
	}
	return eps, nil
}

// ReferenceDelta is the plan's delta for eps at one order by package
// reference, with the (epsilon, delta) events' delta composed in (in
// float64, rounded up).
func (p *Plan) ReferenceDelta(c reference.Context, eps, order float64, conv reference.Conversion, progress func(done, total int)) (*big.Float, error) {
	sum, _, err := p.ReferenceRDP(c, order, progress)
	if err != nil {
		return nil, err
	}
	d, _, err := c.Delta([]float64{order}, []*big.Float{sum}, eps, conv)
	if err != nil {
		return nil, &eventError{"", err}
	}
	if p.ExtraDelta() == 0 {
		return d, nil
	}
	x := new(big.Float).SetFloat64(p.ExtraDelta())
	t := new(big.Float).Mul(d, x)
	return t.Sub(new(big.Float).Add(d, x), t), nil
}

// eventError is an error of package fast or reference for the event at
// path, told in the file's words: the argument and its value, without Go
// package or function names.
type eventError struct {
	path string
	err  error
}

func (e *eventError) Error() string {
	var inner *eventError
	if errors.As(e.err, &inner) {
		return inner.Error() // its path is the more precise
	}
	msg := userMessage(e.err)
	if e.path == "" {
		return msg
	}
	return e.path + ": " + msg
}

func (e *eventError) Unwrap() error { return e.err }

// goName matches the Go names errors of fast and reference begin with.
var goName = regexp.MustCompile(`\b(fast|reference|rdp|xmath)\.[A-Za-z0-9_]+: `)

// userMessage is err without Go package or function names.
func userMessage(err error) string {
	var ie *rdpcheck.InputError
	if errors.As(err, &ie) {
		return fmt.Sprintf("%s = %v: %s", ie.Arg, ie.Value, ie.Msg)
	}
	return goName.ReplaceAllString(err.Error(), "")
}
