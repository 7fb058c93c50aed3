package pld

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
)

// Options tunes the certified computations. The zero value asks for the
// defaults.
type Options struct {
	// Width is the relative width hi/lo - 1 the interval should reach
	// (eps for Epsilon, delta for Delta); the grid is refined (h halved)
	// until it does. Default 1e-3.
	Width float64
	// H, when > 0, fixes the grid spacing (rounded down to a power of two)
	// and disables refinement.
	H float64
	// MaxGrid bounds the work: the cells of one step (and the length of a
	// composed vector, at least 2^23). Refinement stops before exceeding
	// it (ErrPrecision, with the certified interval reached); a run that
	// needs more on its first grid returns ErrTooLarge. Default 1<<22.
	MaxGrid int
	// Progress, when not nil, is called with a line saying what the
	// computation is doing (the grid being composed), at most once per
	// grid and direction.
	Progress func(msg string) `json:"-"`
}

func (o Options) width() float64 {
	if o.Width > 0 {
		return o.Width
	}
	return 1e-3
}

func (o Options) maxGrid() int {
	if o.MaxGrid > 0 {
		return o.MaxGrid
	}
	return 1 << 22
}

func (o Options) say(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

func optsOf(opts []Options) Options {
	if len(opts) > 0 {
		return opts[0]
	}
	return Options{}
}

// pairOf is an event's dominating pair under a relation, per direction:
// up[d] is the measure the upper bounds use, lo[d] the lower bounds' (the
// same for an exact pair; for a one-sided event, the upper is a pair that
// dominates every mechanism of the class and the lower one that the class
// holds). up[1] == nil: the pair is symmetric (both directions up[0]).
type pairOf struct {
	up, lo     [2]measure
	noop       bool // no privacy cost
	nonPrivate bool // delta = 1 at every eps
}

func exactPair(rem, add measure) pairOf {
	return pairOf{up: [2]measure{rem, add}, lo: [2]measure{rem, add}}
}

// runTerm is count compositions of a step, with the measures of its two
// sides.
type runTerm struct {
	up, lo measure
	n      int64
}

// plan is a composition reduced to what is computed: per direction its
// terms (identical measures merged); gauss[d] the sum of count/sigma^2 of
// its Gaussian terms (their composition is one Gaussian mechanism);
// symmetric when both directions are the same.
type plan struct {
	nonPrivate, symmetric bool
	dirs                  [2][]runTerm
	gauss                 [2]*big.Float // nil: none
	nonGauss              bool          // some term is not Gaussian
	rel                   Relation
	// only is the composition's one event (nil when it has several, or
	// none), onlyCount its count: the closed forms are of one event
	only      Event
	onlyCount int64
}

// makePlan checks c and reduces it (see plan).
func makePlan(fn string, c Composition) (*plan, error) {
	switch c.Relation {
	case AddOrRemoveOne, ReplaceOne, ReplaceSpecial:
	default:
		return nil, inputErr(fn, "relation", float64(c.Relation), "must be AddOrRemoveOne, ReplaceOne or ReplaceSpecial")
	}
	p := &plan{symmetric: true, rel: c.Relation}
	var total int64
	idx := [2]map[string]int{{}, {}}
	several := false
	for i, t := range c.Terms {
		if t.Event == nil {
			return nil, inputErr(fn, fmt.Sprintf("terms[%d].event", i), math.NaN(), "must not be nil")
		}
		if err := t.Event.check(); err != nil {
			return nil, err
		}
		if t.Count < 0 || t.Count > MaxCount {
			return nil, inputErr(fn, fmt.Sprintf("terms[%d].count", i), float64(t.Count), "must be in [0, 2^40]")
		}
		if total += t.Count; total > MaxCount {
			return nil, &tooLargeErr{fn, "the composition's total count is above 2^40"}
		}
		if t.Count == 0 {
			continue
		}
		pr, err := t.Event.pair(c.Relation)
		if err != nil {
			return nil, err
		}
		if pr.noop {
			continue
		}
		if pr.nonPrivate {
			p.nonPrivate = true
			continue
		}
		switch {
		case p.only == nil && !several:
			p.only, p.onlyCount = t.Event, t.Count
		case p.only != nil && p.only.String() == t.Event.String():
			p.onlyCount += t.Count
		default:
			p.only, several = nil, true
		}
		if pr.up[1] != nil {
			p.symmetric = false
		}
		for d := range 2 {
			up, lo := pr.up[d], pr.lo[d]
			if up == nil {
				up, lo = pr.up[0], pr.lo[0]
			}
			if g, ok := up.(gaussMeasure); ok && lo == up {
				if p.gauss[d] == nil {
					p.gauss[d] = new(big.Float).SetPrec(2200)
				}
				// count/s^2 exactly: a float64 square and an int64 fit in
				// 2200 bits
				s := new(big.Float).SetPrec(2200).SetFloat64(g.sigma)
				s.Mul(s, s)
				p.gauss[d].Add(p.gauss[d], new(big.Float).SetPrec(2200).Quo(new(big.Float).SetPrec(2200).SetInt64(t.Count), s))
				continue
			}
			p.nonGauss = true
			k := up.key() + "|" + lo.key()
			if j, ok := idx[d][k]; ok {
				p.dirs[d][j].n += t.Count
				continue
			}
			idx[d][k] = len(p.dirs[d])
			p.dirs[d] = append(p.dirs[d], runTerm{up, lo, t.Count})
		}
	}
	// the folded Gaussians become one term of count 1
	for d := range 2 {
		if p.gauss[d] == nil || !p.nonGauss {
			continue
		}
		up, lo := foldedGauss(p.gauss[d])
		p.dirs[d] = append(p.dirs[d], runTerm{up, lo, 1})
	}
	return p, nil
}

// foldedGauss returns the Gaussian measures of mu^2 = m2 (noise
// 1/sqrt(m2)), the upper's sigma rounded down and the lower's up (a
// smaller sigma has the larger profile).
func foldedGauss(m2 *big.Float) (up, lo measure) {
	s := new(big.Float).SetPrec(200).Sqrt(m2)
	s.Quo(new(big.Float).SetPrec(200).SetInt64(1), s)
	v, _ := s.Float64()
	return gaussMeasure{math.Nextafter(v*(1-4*u64), 0)}, gaussMeasure{math.Nextafter(v*(1+4*u64), inf)}
}

// empty reports whether the composition has no privacy cost.
func (p *plan) empty() bool { return !p.nonPrivate && len(p.dirs[0]) == 0 && p.gauss[0] == nil }

// directions returns the directions to compute: one when symmetric.
func (p *plan) directions() []int {
	if p.symmetric {
		return []int{0}
	}
	return []int{0, 1}
}

// infMass returns the composition's mass at +Inf in direction d: 1 -
// prod (1 - m_i)^(n_i), from below and above.
func (p *plan) infMass(d int) Interval {
	var slo, shi float64 // sums of n log1p(-m), from above and below
	for _, t := range p.dirs[d] {
		for side, m := range []measure{t.up, t.lo} {
			am, ok := m.(*atomMeasure)
			if !ok {
				continue
			}
			// log1p within 4u; the product by n within u
			if side == 0 {
				shi += float64(t.n) * math.Log1p(-am.infHi) * (1 + 6*u64)
			} else {
				slo += float64(t.n) * math.Log1p(-am.infLo) * (1 - 6*u64)
			}
		}
	}
	lo := -math.Expm1(slo) * (1 - 4*u64)
	if math.IsInf(slo, -1) {
		lo = 1 // a step with all its mass at +Inf: exactly 1
	}
	hi := math.Min(1, -math.Expm1(shi)*(1+4*u64))
	return Interval{math.Max(lo, 0), hi}
}

// lossBound returns a certified upper bound on direction d's finite
// composed loss (+Inf when unbounded): the sum of count times each step's
// bound (each product and sum rounded up), the folded Gaussian's +Inf.
func (p *plan) lossBound(d int) float64 {
	if p.gauss[d] != nil {
		return inf
	}
	var t float64
	for _, r := range p.dirs[d] {
		m := math.Max(r.up.maxLoss(), r.lo.maxLoss())
		t = math.Nextafter(t+math.Nextafter(float64(r.n)*m, inf), inf)
	}
	return t
}

// beyond returns direction d's delta(eps) where eps is at least its loss
// bound: the mass at +Inf alone; ok is false below the bound.
func (p *plan) beyond(d int, eps float64) (Interval, bool) {
	if b := p.lossBound(d); !(eps >= b) {
		return Interval{}, false
	}
	return p.infMass(d), true
}

// Delta returns a certified interval for the optimal delta(eps) = sup
// over neighbouring datasets of the hockey-stick divergence
// H_(e^eps)(M(D) || M(D')) of the composition c: no accountant may report
// a delta below Lo for this run at this eps. The grid is refined until
// the interval is within Options.Width relative (ErrPrecision, with the
// wider certified interval, when Options.MaxGrid or the finest grid,
// 2^-24, stops it first). ctx cancels the computation: the error then
// wraps ctx.Err() and the interval is the last certified one ([0, 1]
// before the first).
//
// Special cases:
//
//	Delta(ctx, c, +Inf) = the mass at +Inf (0 unless c has (eps, delta) or non-private events)
//	Delta(ctx, c, -Inf) = [1, 1]
//	Delta(ctx, c with a NonPrivate event, eps) = [1, 1]
//	Delta(ctx, c with no privacy cost, eps) = [0, 0] for eps >= 0
//	Delta(ctx, c, eps beyond every loss c can have) = the mass at +Inf
//	Delta(ctx, c, eps whose delta is below float64's range) = [0, 5e-324]: Hi is never 0 where delta may be positive
func Delta(ctx context.Context, c Composition, eps float64, opts ...Options) (Interval, error) {
	const fn = "Delta"
	p, err := makePlan(fn, c)
	if err != nil {
		return Interval{}, err
	}
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	o := optsOf(opts)
	if err := checkOptions(fn, o); err != nil {
		return Interval{}, err
	}
	return p.delta(ctx, eps, o)
}

// Epsilon returns a certified interval for the optimal eps(delta) =
// inf{eps >= 0 : delta(eps) <= delta} of the composition c (see Delta): no
// accountant may report an eps below Lo for this run at this delta. The
// grid is refined until hi/lo - 1 <= Options.Width (default 1e-3);
// ErrPrecision comes with the wider certified interval when the budget
// (Options.MaxGrid) or the finest grid stops it first. ctx cancels the
// computation (the error wraps ctx.Err(); the interval is the last
// certified one, [0, +Inf] before the first).
//
// Special cases:
//
//	Epsilon(ctx, c, 1) = [0, 0]
//	Epsilon(ctx, c with a NonPrivate event, delta < 1) = [+Inf, +Inf]
//	Epsilon(ctx, c with no privacy cost, delta) = [0, 0]
//	Epsilon(ctx, c, delta <= its mass at +Inf) = [+Inf, +Inf]
func Epsilon(ctx context.Context, c Composition, delta float64, opts ...Options) (Interval, error) {
	const fn = "Epsilon"
	p, err := makePlan(fn, c)
	if err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	o := optsOf(opts)
	if err := checkOptions(fn, o); err != nil {
		return Interval{}, err
	}
	return p.epsilon(ctx, delta, o)
}

func checkOptions(fn string, o Options) error {
	if math.IsNaN(o.Width) || o.Width < 0 || math.IsInf(o.Width, 1) {
		return inputErr(fn, "Options.Width", o.Width, "must be finite and >= 0 (0: the default)")
	}
	if math.IsNaN(o.H) || o.H < 0 || math.IsInf(o.H, 1) {
		return inputErr(fn, "Options.H", o.H, "must be finite and >= 0 (0: refine)")
	}
	if o.H > 0 && o.H < 0x1p-30 {
		return inputErr(fn, "Options.H", o.H, "must be 0 or at least 2^-30")
	}
	if o.MaxGrid < 0 {
		return inputErr(fn, "Options.MaxGrid", float64(o.MaxGrid), "must be >= 0 (0: the default)")
	}
	return nil
}

// delta is Delta after the checks.
func (p *plan) delta(ctx context.Context, eps float64, o Options) (Interval, error) {
	switch {
	case p.nonPrivate || math.IsInf(eps, -1):
		return Interval{1, 1}, nil
	case p.empty():
		if eps >= 0 {
			return Interval{0, 0}, nil
		}
		v := -math.Expm1(eps)
		return Interval{v * (1 - 4*u64), math.Min(1, v*(1+4*u64))}, nil
	case math.IsInf(eps, 1):
		var res Interval
		for _, d := range p.directions() {
			m := p.infMass(d)
			res.Lo, res.Hi = math.Max(res.Lo, m.Lo), math.Max(res.Hi, m.Hi)
		}
		return res, nil
	}
	if f, _ := p.closedForm(); f != nil {
		return f(eps), nil
	}
	if up, lo, ok := p.sides(); ok {
		return bothSides(up, lo, o, func(q *plan, o Options) (Interval, error) { return q.delta(ctx, eps, o) })
	}
	// The answer is the larger direction's: a direction is refined only
	// until its upper end is at most the other's lower end, and a
	// direction that missed the width matters only if the answer does.
	var res Interval
	var firstE error
	for _, d := range p.directions() {
		iv, ok := p.beyond(d, eps)
		var err error
		if !ok {
			iv, err = p.dirDelta(ctx, d, eps, res.Lo, o)
			// below the loss bound delta may be positive: an upper end
			// that underflowed to 0 is raised to the least positive value
			iv.Hi = math.Max(iv.Hi, math.SmallestNonzeroFloat64)
		}
		if err != nil && !errors.Is(err, ErrPrecision) {
			return Interval{0, 1}, err
		}
		firstE = firstErr(firstE, err)
		res.Lo, res.Hi = math.Max(res.Lo, iv.Lo), math.Max(res.Hi, iv.Hi)
	}
	if res.RelWidth() <= o.width() || res.Hi <= math.SmallestNonzeroFloat64 {
		firstE = nil
	}
	return res, firstE
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// sides returns, for a plan with one-sided events (whose upper pair is
// not their lower one), the plan of every event's upper pair and the plan
// of every event's lower pair: the optimal value for the class lies
// between the lower plan's lower end and the upper plan's upper end.
func (p *plan) sides() (up, lo *plan, ok bool) {
	for d := range 2 {
		for _, t := range p.dirs[d] {
			ok = ok || t.up != t.lo
		}
	}
	if !ok {
		return nil, nil, false
	}
	side := func(upper bool) *plan {
		q := *p
		for d := range 2 {
			q.dirs[d] = nil
			idx := map[string]int{}
			for _, t := range p.dirs[d] {
				m := t.lo
				if upper {
					m = t.up
				}
				if j, ok := idx[m.key()]; ok {
					q.dirs[d][j].n += t.n
					continue
				}
				idx[m.key()] = len(q.dirs[d])
				q.dirs[d] = append(q.dirs[d], runTerm{m, m, t.n})
			}
		}
		q.only = nil
		return &q
	}
	return side(true), side(false), true
}

// bothSides is the interval of a plan with one-sided events from its
// sides' plans (sides): the lower plan's lower end and the upper plan's
// upper end. The gap between the sides is the class's, which no grid
// closes; so each side is computed first to a width of 1e-2, and refined
// further only to an eighth of that gap (or to Options.Width, if larger),
// not to a width the answer cannot have.
func bothSides(up, lo *plan, o Options, f func(*plan, Options) (Interval, error)) (Interval, error) {
	const first = 1e-2
	run := func(o Options) (Interval, error) {
		a, errA := f(up, o)
		b, errB := f(lo, o)
		return Interval{b.Lo, a.Hi}, firstErr(errA, errB)
	}
	if o.H > 0 || o.width() >= first {
		return run(o)
	}
	coarse := o
	coarse.Width = first
	a, errA := f(up, coarse)
	b, errB := f(lo, coarse)
	if err := firstErr(errA, errB); err != nil {
		return Interval{b.Lo, a.Hi}, err
	}
	w := o.width()
	if b.Hi > 0 && a.Lo > b.Hi {
		w = math.Max(w, (a.Lo/b.Hi-1)/8)
	}
	if w >= first {
		return Interval{b.Lo, a.Hi}, nil
	}
	o.Width = w
	return run(o)
}

// closedForm returns the profile of a composition that has one (all
// Gaussian; one step of a sampled Gaussian or of a Laplace mechanism;
// binary randomized response under ReplaceOne), with the relative
// tolerance of its inversion; else nil.
func (p *plan) closedForm() (func(eps float64) Interval, float64) {
	if !p.nonGauss && p.gauss[0] != nil {
		m2 := p.gauss[0]
		return func(eps float64) Interval { return gaussDeltaMu2(m2, eps) }, 1e-12
	}
	switch e := p.only.(type) {
	case SampledGaussian:
		if p.onlyCount == 1 && p.rel != ReplaceOne && sgmPairExact(e) {
			return func(eps float64) Interval { return sgmOneStep(e.Q, e.Sigma, eps) }, 1e-9
		}
	case Laplace:
		if p.onlyCount == 1 {
			return func(eps float64) Interval { return laplaceOneStep(e.B, eps) }, 1e-12
		}
	case rrBinary:
		if p.onlyCount <= 1e5 {
			pt, n := e.p, p.onlyCount
			return func(eps float64) Interval { return rrDelta(pt, n, eps) }, 1e-9
		}
	case RandomizedResponse:
		// the sum has count + 1 terms at every eps: past 10^5 the lattice
		// (a window of the binomial) is cheaper
		if e.Buckets == 2 && p.rel == ReplaceOne && p.onlyCount <= 1e5 && e.Noise > 0 && e.Noise < 1 {
			pt := 1 - e.Noise/2 // exact: e.Noise/2 is, and 1 - x for x in [0, 1/2] (Sterbenz)
			n := p.onlyCount
			return func(eps float64) Interval { return rrDelta(pt, n, eps) }, 1e-9
		}
	}
	return nil, 0
}

// latticeOnly returns direction d's one term when it is a discrete event
// on a lattice (then its profile is computed there, exactly).
func (p *plan) latticeOnly(d int) (*atomMeasure, int64, bool) {
	if len(p.dirs[d]) != 1 || p.gauss[d] != nil {
		return nil, 0, false
	}
	t := p.dirs[d][0]
	am, ok := t.up.(*atomMeasure)
	if !ok || t.lo != t.up || am.lat == nil {
		return nil, 0, false
	}
	return am, t.n, true
}

// latticeComposed is n steps of m on its lattice at tilt lambda, with the
// masses at +Inf: 1 - (1 - iota)^n below, and above (M + tau)^n (1 - (1 -
// tau/(M + tau))^n) (M the finite mass, tau the +Inf mass; see composeRun).
func latticeComposed(ctx context.Context, m *atomMeasure, n int64, lambda float64, o Options) (*composed, error) {
	t, g, err := latticeRun(ctx, m, n, lambda, max(o.maxGrid(), maxComposed))
	if err != nil {
		return nil, err
	}
	var M float64
	for _, a := range m.atoms {
		M += a.p.hi()
	}
	M *= 1 + float64(len(m.atoms))*u64
	nf := float64(n)
	var inf float64
	if tau := m.infHi; tau > 0 {
		keep := nf * math.Log1p(-tau/(M+tau)*(1+4*u64)) * (1 + 6*u64)
		inf = math.Exp(nf*math.Log((M+tau)*(1+4*u64))*(1+4*u64)) * (1 + 8*u64) * -math.Expm1(keep) * (1 + 8*u64)
	}
	infLo := math.Max(0, -math.Expm1(nf*math.Log1p(-m.infLo)*(1-6*u64))*(1-4*u64))
	return &composed{m: t, g: g, lambda: lambda, inf: math.Min(1, inf), infLo: infLo}, nil
}

// dirDelta is one direction's certified delta(eps), refined until the
// width (or the budget) is reached or its upper end is at most floor (the
// other direction's lower end); the intersection of the grids' intervals
// (each certified) is returned.
func (p *plan) dirDelta(ctx context.Context, d int, eps, floor float64, o Options) (Interval, error) {
	terms := p.dirs[d]
	K := func(l float64) float64 { return totalK(terms, l) }
	lam := tiltEps(K, eps)
	if am, n, ok := p.latticeOnly(d); ok {
		c, err := latticeComposed(ctx, am, n, lam, o)
		if err == nil {
			return c.delta(eps), nil
		}
		if !errors.Is(err, ErrTooLarge) {
			return Interval{0, 1}, err
		}
	}
	// tail budget: 2^-30 of the Chernoff estimate e^(K - lambda eps), an
	// estimate above delta(eps) (it only places the cuts)
	tail := math.Ldexp(math.Exp(K(lam)-lam*eps), -30)
	// a discrete step of count 1 is mixed in exactly (mix.go); the whole
	// run's tilt still centres the rest where the reads fall
	read := func(c *composed) Interval { return c.delta(eps) }
	if mx, rest, ok := p.splitMixed(d); ok {
		terms = rest
		read = func(c *composed) Interval { return mx.profile(c.delta)(eps) }
	}
	h, fixed := p.firstH(), o.H > 0
	if fixed {
		h = gridH(o.H)
	}
	best := Interval{0, 1}
	var stall stalled
	for first := true; ; first = false {
		o.say("direction %d: composing at h = 2^%d", d, int(math.Log2(h)))
		c, err := composeRun(ctx, terms, h, lam, tail, o.maxGrid())
		if err != nil {
			if first {
				return best, err
			}
			return best, precisionOr(err, "Delta")
		}
		iv := read(c)
		best.Lo, best.Hi = math.Max(best.Lo, iv.Lo), math.Min(best.Hi, iv.Hi)
		if fixed || best.RelWidth() <= o.width() || best.Hi <= floor {
			return best, nil
		}
		if stall.after(best.RelWidth()) && (h <= 0x1p-16 || c.m.sh > 0) {
			return best, &precisionErr{"Delta", "width not reached: finer grids stopped narrowing the interval"}
		}
		// The mass the cuts put at +Inf does not depend on h: once it
		// is all of the upper end but the width, no grid can narrow the
		// interval (100 DP-SGD steps at eps = 100 refined nine times,
		// 67 s, to the same [0, 1.3e-100]).
		if c.inf > 0 && iv.Hi <= c.inf*(1+o.width()) {
			return best, &precisionErr{"Delta", fmt.Sprintf("width not reached: the upper end is the mass beyond the grid's cuts, %.3g, which a finer grid does not reduce", c.inf)}
		}
		// the h^2 law from a finite width (as refineEpsilon), else halve
		k := 1
		if w := best.RelWidth(); w < inf {
			k = max(1, min(int(math.Ceil(math.Log2(math.Sqrt(w/(0.8*o.width()))))), 3))
		}
		if h = math.Ldexp(h, -k); h < 0x1p-24 {
			return best, &precisionErr{"Delta", "width not reached at the finest grid, 2^-24"}
		}
	}
}

// stalled tells when refining the grid no longer pays: four refinements
// in a row that narrowed the interval by less than a fifth (the width is
// then held by what the grid does not set: the mass at +Inf, the FFT's
// error; an atom between grid points holds it for a while, until h falls
// below its distance to the point below, hence four, and only once h is
// at most 2^-16).
type stalled struct {
	last  float64
	count int
}

func (s *stalled) after(w float64) bool {
	if s.last > 0 && w > 0.8*s.last {
		s.count++
	} else {
		s.count = 0
	}
	s.last = w
	return s.count >= 4
}

// precisionOr turns a budget error met while refining into ErrPrecision
// (the interval returned with it is the last certified one), keeping a
// context's error.
func precisionOr(err error, fn string) error {
	if errors.Is(err, ErrTooLarge) {
		return &precisionErr{fn, "width not reached within Options.MaxGrid"}
	}
	return err
}

// firstH is the first grid's spacing: a quarter of the narrowest step's
// loss spread (from its cumulant estimate's second difference at 0), as a
// power of two in [2^-18, 2^-10]; a grid coarser than a step's spread makes
// the discretisation's error first order in h, so refining from there
// only wastes grids.
func (p *plan) firstH() float64 {
	h := 0x1p-10
	for d := range 2 {
		for _, t := range p.dirs[d] {
			if _, ok := t.up.(*atomMeasure); ok {
				continue
			}
			const e = 1e-3
			k0, k1, k2 := t.up.logMGF(0), t.up.logMGF(e), t.up.logMGF(2*e)
			v := (k2 - 2*k1 + k0) / (e * e)
			if !(v > 0) {
				continue
			}
			for h > 0x1p-18 && h > math.Sqrt(v)/4 {
				h /= 2
			}
		}
	}
	return h
}

// totalK is the run's cumulant estimate at lambda (upper measures).
func totalK(terms []runTerm, lambda float64) float64 {
	var t float64
	for _, r := range terms {
		t += float64(r.n) * r.up.logMGF(lambda)
	}
	return t
}

// tiltEps solves K'(lambda) = eps for lambda >= 0 (K a cumulant estimate).
func tiltEps(K func(float64) float64, eps float64) float64 {
	d := func(l float64) float64 {
		e := 1e-4 * (1 + l)
		return (K(l+e) - K(math.Max(l-e, 0))) / (l + e - math.Max(l-e, 0))
	}
	if !(d(0) < eps) {
		return 0
	}
	a, b := 0.0, 1.0
	for d(b) < eps && b < 200 {
		a, b = b, 2*b
	}
	for i := 0; i < 40; i++ {
		m := (a + b) / 2
		if d(m) < eps {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

// goldenMin narrows [a, b], where f is unimodal, around f's minimum by n
// golden-section steps and returns the bracket left.
func goldenMin(f func(float64) float64, a, b float64, n int) (float64, float64) {
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for i := 0; i < n; i++ {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return a, b
}

// tiltDelta minimises the Chernoff estimate (K(lambda) - log delta)/lambda.
func tiltDelta(K func(float64) float64, delta float64) float64 {
	f := func(l float64) float64 { return (K(l) - math.Log(delta)) / l }
	// a scan by factors of 2 from 2^-24 (long runs want small tilts,
	// about sqrt(2 log(1/delta) / variance)) to 256, then golden-section
	// search in log lambda around the best
	best, bl := math.Inf(1), 1.0
	for l := 0x1p-24; l <= 256; l *= 2 {
		if v := f(l); v < best {
			best, bl = v, l
		}
	}
	if bl == 256 {
		// no interior minimum: the estimate falls towards the largest
		// loss, an atom heavier than delta (randomized response): a tilt
		// this large would leave the losses below it, where eps lies,
		// under the transform's error. Tilt instead by log(1/delta) over
		// the loss's spread (the second difference of K at 0).
		const e = 1e-3
		if v := (K(2*e) - 2*K(e) + K(0)) / (e * e); v > 0 {
			return math.Min(256, math.Max(0x1p-24, -math.Log(delta)/math.Sqrt(v)))
		}
	}
	a, b := goldenMin(func(x float64) float64 { return f(math.Exp(x)) }, math.Log(bl/2), math.Log(math.Min(2*bl, 256)), 16)
	if l := math.Exp((a + b) / 2); f(l) < best {
		return l
	}
	return bl
}

// maxComposed bounds a composed vector's length (with Options.MaxGrid when
// larger): 2^23 entries, a few hundred MB of transforms.
const maxComposed = 1 << 23

// composeRun discretises each term's step at spacing h and tilt lambda and
// composes the runs (nil when there are none). tail > 0 is a budget for
// the run's mass at +Inf: each step's cut at the large losses is placed
// where its P-mass beyond is about tail over the number of steps.
func composeRun(ctx context.Context, terms []runTerm, h, lambda, tail float64, maxGrid int) (*composed, error) {
	var nsteps float64
	for _, t := range terms {
		nsteps += float64(t.n)
	}
	stepTail := 0.0
	if tail > 0 && nsteps > 0 {
		stepTail = tail / nsteps
	}
	maxLen := max(maxGrid, maxComposed)
	var acc *tmeas
	// The upper measure of a step has finite mass at most M and tau at
	// +Inf; n steps of it put (M + tau)^n - M^n <= (M + tau)^n (1 - (1 -
	// tau/(M + tau))^n) there (the left side grows with the finite mass).
	// logF sums n log(M + tau), logKeep n log1p(-tau/(M + tau)) (rounded
	// down), logLo n log1p(-iota) for the lower's exact +Inf masses.
	var logF, logKeep, logLo, excess float64
	var steps []tmeas
	var counts []int64
	for _, t := range terms {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, sg, n, n1, err := termStep(ctx, t, h, cut{lambda: lambda, tail: stepTail}, maxGrid, maxLen)
		if err != nil {
			return nil, err
		}
		steps, counts = append(steps, m), append(counts, n)
		M, tau := sg.mass, sg.infMass
		nf := float64(t.n)
		logF += nf * math.Log((M+tau)*(1+4*u64)) * (1 + 4*u64)
		if tau > 0 {
			logKeep += nf * math.Log1p(-tau/(M+tau)*(1+4*u64)) * (1 + 6*u64)
		}
		logLo += nf * math.Log1p(-sg.infLo) * (1 - 6*u64)
		excess += float64(n1) * sg.excess
	}
	if len(steps) == 0 {
		return nil, nil
	}
	// all at once in the frequency domain where the window fits; else
	// each by repeated squaring (which can coarsen), then composed
	if r, ok, err := powerFFT(ctx, steps, counts, maxLen); err != nil {
		return nil, err
	} else if ok {
		acc = &r
	} else {
		for i, st := range steps {
			m, err := power(ctx, st, counts[i], maxLen, h, lambda)
			if err != nil {
				return nil, err
			}
			if acc == nil {
				acc = &m
			} else {
				a, b := alignSh(*acc, m, h, lambda)
				c := conv(&a, &b)
				acc = &c
			}
		}
	}
	inf := math.Exp(logF) * (1 + 8*u64) * -math.Expm1(logKeep) * (1 + 8*u64)
	return &composed{m: *acc, g: dyadic(math.Ldexp(h, acc.sh)), lambda: lambda, inf: inf, infLo: math.Max(0, -math.Expm1(logLo)*(1-4*u64)), excess: excess * (1 + 8*u64)}, nil
}

// termStep is a term's step on the grid of spacing h and the count to
// compose it, with the step's grid (its masses at +Inf and its excess) and
// the count of the excess: the step and t.n, or, for a discrete event on
// its lattice, the t.n steps composed there exactly and put on the grid
// once (count 1, excess once).
func termStep(ctx context.Context, t runTerm, h float64, c cut, maxGrid, maxLen int) (tmeas, stepGrid, int64, int64, error) {
	if am, ok := t.up.(*atomMeasure); ok && t.lo == t.up && am.lat != nil && t.n > 1 {
		lm, g, err := latticeRun(ctx, am, t.n, c.lambda, maxLen)
		if err == nil {
			m, sg, err := regrid(lm, g, c.lambda, h, maxGrid)
			if err != nil {
				return tmeas{}, stepGrid{}, 0, 0, err
			}
			// the step's own masses for the +Inf bound
			var M float64
			for _, a := range am.atoms {
				M += a.p.hi()
			}
			sg.mass, sg.infMass, sg.infLo = M*(1+float64(len(am.atoms))*u64), am.infHi, am.infLo
			return m, sg, 1, 1, nil
		}
		if !errors.Is(err, ErrTooLarge) {
			return tmeas{}, stepGrid{}, 0, 0, err
		}
		// too long on its lattice: step by step on the grid
	}
	sg, err := stepOf(t.up, t.lo, h, c, maxGrid)
	if err != nil {
		return tmeas{}, stepGrid{}, 0, 0, err
	}
	return fromStep(sg), sg, t.n, t.n, nil
}

// stepOf discretises one step: the upper measure from up's cells, the
// lower from lo's (the same cells when lo == up).
func stepOf(up, lo measure, h float64, c cut, maxGrid int) (stepGrid, error) {
	c.maxCells = maxGrid
	cu, err := up.cells(h, c)
	if err != nil {
		return stepGrid{}, err
	}
	if len(cu.cells) > maxGrid {
		return stepGrid{}, &tooLargeErr{"grid", "a step's grid is larger than Options.MaxGrid"}
	}
	su := buildStep(cu, h, c.lambda)
	if lo == up {
		return su, nil
	}
	cl, err := lo.cells(h, c)
	if err != nil {
		return stepGrid{}, err
	}
	if len(cl.cells) > maxGrid {
		return stepGrid{}, &tooLargeErr{"grid", "a step's grid is larger than Options.MaxGrid"}
	}
	return su.withLower(buildStep(cl, h, c.lambda)), nil
}

func gridH(h float64) float64 {
	_, e := math.Frexp(h)
	return math.Ldexp(1, e-1)
}

// epsilon is Epsilon after the checks.
func (p *plan) epsilon(ctx context.Context, delta float64, o Options) (Interval, error) {
	switch {
	case delta >= 1 || p.empty():
		return Interval{0, 0}, nil
	case p.nonPrivate:
		return Interval{inf, inf}, nil
	}
	var inf0 Interval
	for _, d := range p.directions() {
		m := p.infMass(d)
		inf0.Lo, inf0.Hi = math.Max(inf0.Lo, m.Lo), math.Max(inf0.Hi, m.Hi)
	}
	if inf0.Lo >= delta {
		return Interval{inf, inf}, nil // delta(eps) >= the +Inf mass > delta... at every eps
	}
	if f, tol := p.closedForm(); f != nil {
		return invert(f, delta, tol)
	}
	if up, lo, ok := p.sides(); ok {
		return bothSides(up, lo, o, func(q *plan, o Options) (Interval, error) { return q.epsilon(ctx, delta, o) })
	}
	return p.refineEpsilon(ctx, delta, o)
}

// refineEpsilon refines each direction's grid from firstH until hi/lo - 1
// <= Options.Width, keeping for each direction the intersection of its
// certified intervals over its grids. The answer is the larger of the
// directions' eps, so a round composes only the directions whose Hi is
// still above what the width allows over the larger Lo (leading with the
// larger Lo, whose new Lo then sets that for the other), each at the h
// that the h^2 law predicts will bring its Hi there (0.8 of the way, one
// to three halvings of its own last grid; one while its Lo is 0). A
// direction below the other's Lo is never composed again; one whose Hi
// needs to fall only below the other's Lo gets a coarser grid than the
// one that sets the answer.
func (p *plan) refineEpsilon(ctx context.Context, delta float64, o Options) (Interval, error) {
	const fn = "Epsilon"
	h0 := p.firstH()
	fixed := o.H > 0
	if fixed {
		h0 = gridH(o.H)
	}
	dirs := p.directions()
	var best [2]Interval
	var seen [2]bool
	var hd [2]float64 // each direction's last grid
	var last Interval // the last round's certified interval
	haveLast := false
	var stall stalled
	coarsened := false   // a grid's composition was coarsened: h no longer sets its spacing
	var tilts [2]float64 // each direction's, computed once
	current := func() Interval {
		var res Interval
		for d := range best {
			if seen[d] {
				res.Lo = math.Max(res.Lo, best[d].Lo)
				res.Hi = math.Max(res.Hi, best[d].Hi)
			}
		}
		return res
	}
	for round := 0; ; round++ {
		order := dirs
		if len(dirs) == 2 && seen[0] && seen[1] && best[1].Lo > best[0].Lo {
			order = []int{1, 0}
		}
		composedAny := false
		for _, d := range order {
			h := h0
			if round > 0 {
				L := current().Lo
				if (Interval{L, best[d].Hi}).RelWidth() <= o.width() {
					continue // this direction's Hi no longer holds the width
				}
				// the h^2 law: the width w falls to 0.8 of the room g
				// between its Lo and the highest Hi the answer allows
				k := 1
				if w, g := best[d].Hi-best[d].Lo, L*(1+o.width())-best[d].Lo; w < inf && g > 0 && best[d].Lo > 0 {
					k = int(math.Ceil(math.Log2(math.Sqrt(w / (0.8 * g)))))
					k = max(1, min(k, 3))
				}
				if h = math.Ldexp(hd[d], -k); h < 0x1p-24 {
					return current(), &precisionErr{fn, "width not reached at the finest grid, 2^-24"}
				}
			}
			o.say("direction %d: composing at h = 2^%d", d, int(math.Log2(h)))
			if tilts[d] == 0 {
				terms := p.dirs[d]
				tilts[d] = tiltDelta(func(l float64) float64 { return totalK(terms, l) }, delta)
			}
			iv, coarse, err := p.dirEpsilon(ctx, d, delta, h, tilts[d], o)
			coarsened = coarsened || coarse
			if err != nil {
				if haveLast {
					return last, precisionOr(err, fn)
				}
				return Interval{0, inf}, err
			}
			composedAny, hd[d] = true, h
			if !seen[d] {
				best[d], seen[d] = iv, true
			} else {
				best[d].Lo = math.Max(best[d].Lo, iv.Lo)
				best[d].Hi = math.Min(best[d].Hi, iv.Hi)
			}
		}
		res := current()
		finest := h0
		for d := range best {
			if seen[d] {
				finest = math.Min(finest, hd[d])
			}
		}
		if fixed || res.RelWidth() <= o.width() || res.Hi == 0 {
			return res, nil
		}
		if !composedAny {
			// every direction's Hi is within the width of res.Lo, so res
			// is: unreachable, but never loop on it
			return res, &precisionErr{fn, "width not reached"}
		}
		if stall.after(res.RelWidth()) && (finest <= 0x1p-16 || coarsened) {
			return res, &precisionErr{fn, "width not reached: finer grids stopped narrowing the interval"}
		}
		last, haveLast = res, true
	}
}

// dirEpsilon returns direction d's certified eps interval at spacing h,
// and whether its composition was coarsened.
func (p *plan) dirEpsilon(ctx context.Context, d int, delta, h, lam float64, o Options) (Interval, bool, error) {
	terms := p.dirs[d]
	mx, rest, split := p.splitMixed(d)
	prof := func(c *composed) func(float64) Interval {
		read := c.delta
		if split {
			read = mx.profile(c.delta)
		}
		return func(eps float64) Interval {
			if iv, ok := p.beyond(d, eps); ok {
				return iv
			}
			return read(eps)
		}
	}
	if am, n, ok := p.latticeOnly(d); ok {
		c, err := latticeComposed(ctx, am, n, lam, o)
		if err == nil {
			iv, err := invert(prof(c), delta, o.width()/50)
			return iv, c.m.sh > 0, err
		}
		if !errors.Is(err, ErrTooLarge) {
			return Interval{}, false, err
		}
	}
	// The run's +Inf mass is added to the upper delta: a budget of
	// delta width 2^-10 moves eps's upper end by far less than the width.
	if split {
		terms = rest
	}
	c, err := composeRun(ctx, terms, h, lam, delta*o.width()*0x1p-10, o.maxGrid())
	if err != nil {
		return Interval{}, false, err
	}
	if c == nil {
		return Interval{0, 0}, false, nil
	}
	iv, err := invert(prof(c), delta, o.width()/50)
	return iv, c.m.sh > 0, err
}
