package fast

import (
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/sampled"
	"github.com/rdpcheck/rdpcheck/internal/search"
	"github.com/rdpcheck/rdpcheck/internal/wor"
)

// The events of this file are the Accountant's Compose forms of the
// mechanisms added for dp_accounting's event classes (package dpevent):
// each evaluates its mechanism's upper bound at any order, so the
// Accountant's best-order search can use them; each Compose<Name> method
// is Compose(<Name>Event(...), count).

// WORGaussianEvent is one step of the Gaussian mechanism (noise sigma
// relative to the replace-one l2-sensitivity) on a subset of m = q n
// records drawn without replacement, replace-one neighbours (see
// WORGaussian; dp_accounting's SampledWithoutReplacementDpEvent of a
// GaussianDpEvent). At each order alpha of a call it gives the least of
// three upper bounds, all valid there:
//
//   - WORGaussian(q, sigma, alpha), WBK19's Theorem 27 bound;
//   - WORGaussian at every higher order of the same call: RDP is
//     non-decreasing in the order, so a bound at beta >= alpha bounds the
//     RDP at alpha (the bound itself need not be monotone in the order);
//   - alpha/(2 sigma^2), the unsampled Gaussian: coupling the two samples
//     so that they differ only when the replaced record is drawn, the
//     output pair is a mixture of pairs that are identical or neighbours,
//     and the Rényi divergence of mixtures is at most the largest of the
//     parts' (quasi-convexity), so subsampling never increases the RDP.
//
// The minimum is therefore at most the bare bound and never unsafe; on
// the accountant's orders it is what ComposeWORGaussian composed before
// the accountant remembered its events. Orders above rdpcheck.MaxWOROrder, and
// orders where WORGaussian is beyond its supported range (ErrTooLarge:
// huge exponents), get the last two only.
//
// Special cases are:
//
//	rdp(alpha) = 0 for q = 0
//	rdp(+Inf) = +Inf for q > 0
//	WORGaussianEvent(q, sigma) = error (when evaluated) as WORGaussian's
//	    for q outside [0, 1], sigma <= 0 or ±Inf, alpha < 1, any NaN
func WORGaussianEvent(q, sigma float64) Event { return worGaussianEvent{q, sigma} }

type worGaussianEvent struct{ q, sigma float64 }

func (worGaussianEvent) valueEvent() {}

func (e worGaussianEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "WORGaussianEvent"
	q, sigma := e.q, e.sigma
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	for _, a := range orders {
		if err := checkAlpha(fn, a, 1); err != nil {
			return err
		}
	}
	wor.GaussianEvent(q, sigma, orders, out)
	return nil
}

// ComposeWORGaussian adds count steps of the Gaussian mechanism sampled
// without replacement: Compose(WORGaussianEvent(q, sigma), count).
func (a *Accountant) ComposeWORGaussian(q, sigma float64, count int) error {
	return a.Compose(WORGaussianEvent(q, sigma), count)
}

// WORBoundEvent is one step of the mechanism base sampled without
// replacement with ratio q, replace-one neighbours, by the general bound
// of WBK19, Theorem 9 (see WORBound). base is evaluated at the integer
// orders 2, ..., ceil(alpha) and at +Inf, the curve the theorem needs;
// its upper bounds only raise the result (Theorem 9's bound is
// non-decreasing in each base value), so it stays an upper bound. As in
// WORGaussianEvent, each order of a call gets the least of WORBound
// there, WORBound at every higher order of the call and the base's own
// curve (WORBound at q = 1: its integer values interpolated as in
// BaseCurveEvent; base itself above rdpcheck.MaxWOROrder and at +Inf), all
// valid for the reasons WORGaussianEvent gives.
//
// Special cases are those of WORBound, except that orders beyond its
// supported range (ErrTooLarge) get the base's own curve; and an error
// from base.
func WORBoundEvent(q float64, base Event) Event { return worBoundEvent{q, base} }

type worBoundEvent struct {
	q    float64
	base Event
}

func (e worBoundEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "WORBoundEvent"
	if math.IsNaN(e.q) || e.q < 0 || e.q > 1 {
		return inputErr(fn, "q", e.q, "must be in [0, 1]")
	}
	top := 2
	var hi []int // finite orders above rdpcheck.MaxWOROrder
	var high []float64
	for i, a := range orders {
		if err := checkAlpha(fn, a, 1); err != nil {
			return err
		}
		switch {
		case math.IsInf(a, 1):
		case a <= rdpcheck.MaxWOROrder:
			top = max(top, int(math.Ceil(a)))
		default:
			hi, high = append(hi, i), append(high, a)
		}
	}
	bo := make([]float64, top) // orders 2..top, then +Inf
	for i := range top - 1 {
		bo[i] = float64(i + 2)
	}
	bo[top-1] = math.Inf(1)
	bv := make([]float64, top)
	if err := e.base.RDP(bo, bv); err != nil {
		return err
	}
	curve := rdpcheck.BaseCurve{Eps: bv[:top-1], Inf: bv[top-1]}
	// Theorem 9 needs base.Inf at least every entry; a base whose
	// bound at +Inf is looser below is given +Inf there (unknown).
	if slices.Max(curve.Eps) > curve.Inf {
		curve.Inf = math.Inf(1)
	}
	b := make([]float64, len(orders))
	for i, a := range orders {
		b[i] = math.Inf(1)
		if a <= rdpcheck.MaxWOROrder {
			v, err := WORBound(e.q, a, curve)
			if errors.Is(err, ErrTooLarge) {
				v = math.Inf(1) // the base's curve below bounds it
			} else if err != nil {
				return err
			}
			b[i] = v
		}
	}
	search.MinOverHigher(orders, b)
	hv := make([]float64, len(high))
	if len(high) > 0 {
		if err := e.base.RDP(high, hv); err != nil {
			return err
		}
	}
	for i, a := range orders {
		u := 0.0 // the base's own curve (nothing released at q = 0)
		switch {
		case e.q == 0:
		case math.IsInf(a, 1):
			u = curve.Inf
		case a <= rdpcheck.MaxWOROrder:
			var err error
			if u, err = WORBound(1, a, curve); err != nil {
				return err
			}
		default:
			continue // below
		}
		out[i] = math.Min(u, b[i])
	}
	for k, i := range hi {
		if e.q == 0 {
			out[i] = 0
		} else {
			out[i] = math.Min(hv[k], b[i])
		}
	}
	return nil
}

// ComposeWORBound adds count steps of a base mechanism with RDP curve base
// (see WORBound) on a subset drawn without replacement with ratio q:
// Compose(WORBoundEvent(q, BaseCurveEvent(base)), count). Orders beyond
// the base curve get its base.Inf (see BaseCurveEvent).
//
// Slices: base.Eps is copied: changing it afterwards changes nothing.
func (a *Accountant) ComposeWORBound(q float64, base rdpcheck.BaseCurve, count int) error {
	return a.Compose(WORBoundEvent(q, BaseCurveEvent(base)), count)
}

// KaryRandomizedResponseEvent is k-ary randomized response (see
// KaryRandomizedResponse; dp_accounting's RandomizedResponseDpEvent) under
// relation ReplaceOne or ReplaceSpecial.
func KaryRandomizedResponseEvent(noise, buckets float64, relation string) Event {
	return karyRREvent{noise, buckets, relation}
}

type karyRREvent struct {
	noise, buckets float64
	relation       string
}

func (karyRREvent) valueEvent() {}

func (e karyRREvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if len(orders) == 0 {
		return checkNoise("KaryRandomizedResponseEvent", e.noise, e.buckets, e.relation)
	}
	return KaryRandomizedResponseCurve(e.noise, e.buckets, e.relation, orders, out)
}

// ComposeKaryRandomizedResponse adds count k-ary randomized responses:
// Compose(KaryRandomizedResponseEvent(noise, buckets, relation), count).
func (a *Accountant) ComposeKaryRandomizedResponse(noise, buckets float64, relation string, count int) error {
	return a.Compose(KaryRandomizedResponseEvent(noise, buckets, relation), count)
}

// DiscreteGaussianEvent is the one-dimensional discrete Gaussian mechanism
// (see DiscreteGaussian).
func DiscreteGaussianEvent(sigma, sensitivity float64) Event {
	return discreteGaussianEvent{sigma, sensitivity}
}

type discreteGaussianEvent struct{ sigma, sensitivity float64 }

func (discreteGaussianEvent) valueEvent() {}

func (e discreteGaussianEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	return DiscreteGaussianCurve(e.sigma, e.sensitivity, orders, out)
}

// ComposeDiscreteGaussian adds count discrete Gaussian mechanisms:
// Compose(DiscreteGaussianEvent(sigma, sensitivity), count).
func (a *Accountant) ComposeDiscreteGaussian(sigma, sensitivity float64, count int) error {
	return a.Compose(DiscreteGaussianEvent(sigma, sensitivity), count)
}

// ExponentialMechanismEvent is the exponential mechanism with privacy
// parameter eps, at dp_accounting's bounded-range bound (see
// ExponentialMechanism).
func ExponentialMechanismEvent(eps float64) Event { return expMechEvent{eps} }

type expMechEvent struct{ eps float64 }

func (expMechEvent) valueEvent() {}

func (e expMechEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if len(orders) == 0 {
		return checkEps("ExponentialMechanismEvent", e.eps)
	}
	return ExponentialMechanismCurve(e.eps, orders, out)
}

// ComposeExponentialMechanism adds count exponential mechanisms (see
// ExponentialMechanism: the bounded-range bound, dp_accounting's
// ExponentialMechanismDpEvent, whose own accountant drops the count):
// Compose(ExponentialMechanismEvent(eps), count).
func (a *Accountant) ComposeExponentialMechanism(eps float64, count int) error {
	return a.Compose(ExponentialMechanismEvent(eps), count)
}

// TreeAggregationEvent is DP-FTRL's tree aggregation with noise sigma over
// epochs of steps[i] steps, in the reading restarts (see TreeAggregation;
// dp_accounting's SingleEpochTreeAggregationDpEvent is TreeOneTree), at
// each order TreeAggregation's value. steps is copied.
//
// Slices: steps is copied: changing it afterwards changes nothing.
func TreeAggregationEvent(sigma float64, steps []int, restarts TreeRestarts) Event {
	return treeEvent{sigma, slices.Clone(steps), restarts}
}

type treeEvent struct {
	sigma    float64
	steps    []int
	restarts TreeRestarts
}

func (e treeEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "TreeAggregationEvent"
	k, err := treeDepths(fn, e.sigma, e.steps, e.restarts)
	if err != nil {
		return err
	}
	return eachOrder(orders, out, func(a float64) (float64, error) { return treeValue(fn, e.sigma, k, a) })
}

// ComposeTreeAggregation adds count tree-aggregation events:
// Compose(TreeAggregationEvent(sigma, steps, restarts), count).
//
// Slices: steps is copied: changing it afterwards changes nothing.
func (a *Accountant) ComposeTreeAggregation(sigma float64, steps []int, restarts TreeRestarts, count int) error {
	return a.Compose(TreeAggregationEvent(sigma, steps, restarts), count)
}

// TreeMultiParticipationEvent is one DP-FTRL tree without restarts (see
// TreeMultiParticipation).
func TreeMultiParticipationEvent(sigma float64, totalSteps, maxParticipation, minSeparation int) Event {
	return treeMultiEvent{sigma, totalSteps, maxParticipation, minSeparation}
}

type treeMultiEvent struct {
	sigma   float64
	n, m, s int
}

func (treeMultiEvent) valueEvent() {}

func (e treeMultiEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "TreeMultiParticipationEvent"
	if math.IsNaN(e.sigma) || e.sigma <= 0 || math.IsInf(e.sigma, 0) {
		return inputErr(fn, "sigma", e.sigma, "must be finite and > 0")
	}
	k, err := treeSquareSum(fn, e.n, e.m, e.s)
	if err != nil {
		return err
	}
	return eachOrder(orders, out, func(a float64) (float64, error) { return treeValue(fn, e.sigma, k, a) })
}

// ComposeTreeMultiParticipation adds count single trees without restarts:
// Compose(TreeMultiParticipationEvent(sigma, totalSteps, maxParticipation,
// minSeparation), count).
func (a *Accountant) ComposeTreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation, count int) error {
	return a.Compose(TreeMultiParticipationEvent(sigma, totalSteps, maxParticipation, minSeparation), count)
}

// SampledLaplaceEvent is one step of the Laplace mechanism (scale b)
// under Poisson sampling with probability q, add/remove neighbours (see
// SampledLaplace), the quadrature nodes shared between the orders of a
// call (as SampledLaplaceCurve shares them).
func SampledLaplaceEvent(q, b float64) Event { return sampledLaplaceEvent{q, b} }

type sampledLaplaceEvent struct{ q, b float64 }

func (sampledLaplaceEvent) valueEvent() {}

func (e sampledLaplaceEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if err := checkSampledLaplace(e.q, e.b, 2); err != nil {
		return err
	}
	for _, a := range orders {
		if err := checkSampledLaplace(e.q, e.b, a); err != nil {
			return err
		}
	}
	lc := sampled.NewLaplaceCurve(e.q, e.b)
	for i, a := range orders {
		out[i] = lc.At(a)
	}
	return nil
}

// ComposeSampledLaplace adds count Poisson-sampled Laplace mechanisms:
// Compose(SampledLaplaceEvent(q, b), count).
func (a *Accountant) ComposeSampledLaplace(q, b float64, count int) error {
	return a.Compose(SampledLaplaceEvent(q, b), count)
}

// RepeatAndSelectOrders returns the orders at which RepeatAndSelectEvent
// takes its base's curve: dp_accounting's 156 default orders and +Inf.
//
// Slices: the slice returned is new: the caller may change it.
func RepeatAndSelectOrders() []float64 {
	return append(DefaultOrders(), math.Inf(1))
}

// RepeatAndSelectEvent is the mechanism base run a random number of times
// with the given mean and shape, the best run released (Papernot and
// Steinke 2022, Theorems 2 and 6; see RepeatAndSelect;
// dp_accounting's RepeatAndSelectDpEvent). The theorems bound the RDP at
// an order lambda from base's curve; the curve is taken once at
// RepeatAndSelectOrders(), and the value at alpha is the smallest bound
// over those orders >= alpha, as dp_accounting does on its grid. Between
// the curve's orders the value is therefore constant (a step function):
// every value is a valid bound, and a best-order search can use it.
//
// Special cases are those of RepeatAndSelect, and an error from base.
func RepeatAndSelectEvent(base Event, mean, shape float64) Event {
	var (
		once sync.Once
		co   []float64 // the curve's orders
		cv   []float64 // RepeatAndSelect at each, before the minimum over larger orders
		err  error
	)
	return CurveFunc(func(orders, out []float64) error {
		orders = unaliased(orders, out)
		once.Do(func() {
			co = RepeatAndSelectOrders()
			bv := make([]float64, len(co))
			if err = base.RDP(co, bv); err != nil {
				return
			}
			cv = make([]float64, len(co))
			err = RepeatAndSelectCurve(co, bv, mean, shape, cv)
		})
		if err != nil {
			return err
		}
		for i, a := range orders {
			if err := checkAlpha("RepeatAndSelectEvent", a, 0); err != nil {
				return err
			}
			// cv is already the minimum over larger curve orders: the
			// first curve order >= a gives the value.
			j, _ := slices.BinarySearch(co, a)
			if j == len(co) {
				out[i] = math.Inf(1)
				continue
			}
			out[i] = cv[j]
		}
		return nil
	})
}

// RepeatAndSelectCurveEvent is repeat and select (see RepeatAndSelect) of
// a base mechanism given by its curve rdp at orders (which need not be
// the accountant's), run a random number of times of the given mean and
// shape, the best run released. Its value at alpha is the smallest
// RepeatAndSelect bound over the base orders lambda >= alpha (and > 1),
// valid because RDP is non-decreasing in the order; +Inf where no base
// order is at or above alpha (+Inf among the base orders covers every
// order). The bounds at the base orders are computed once, when the event
// is made; the lists are copied.
//
// Special cases are those of RepeatAndSelect (its errors when evaluated),
// except +Inf rather than an error at an order above every base order.
//
// Slices: orders and rdp are copied (rdp as the bounds made from it): changing them afterwards changes nothing.
func RepeatAndSelectCurveEvent(orders, rdp []float64, mean, shape float64) Event {
	e := &rsCurveEvent{orders: slices.Clone(orders), cv: make([]float64, len(orders))}
	// cv[j]: the smallest bound over the base orders >= orders[j]
	e.err = RepeatAndSelectCurve(e.orders, rdp, mean, shape, e.cv)
	return e
}

type rsCurveEvent struct {
	orders, cv []float64
	err        error
}

func (e *rsCurveEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if e.err != nil {
		return e.err
	}
	for i, a := range orders {
		if err := checkAlpha("RepeatAndSelectCurveEvent", a, 0); err != nil {
			return err
		}
		m := math.Inf(1)
		for j, l := range e.orders {
			if l > 1 && l >= a && e.cv[j] < m {
				m = e.cv[j]
			}
		}
		out[i] = m
	}
	return nil
}

// ComposeRepeatAndSelect adds count repeat-and-select events of the base
// curve rdp at orders: Compose(RepeatAndSelectCurveEvent(orders, rdp,
// mean, shape), count). An accountant order above every base order gets
// +Inf.
//
// Slices: orders and rdp are copied: changing them afterwards changes nothing.
func (a *Accountant) ComposeRepeatAndSelect(orders, rdp []float64, mean, shape float64, count int) error {
	return a.Compose(RepeatAndSelectCurveEvent(orders, rdp, mean, shape), count)
}

// poissonBoundTop is the largest order PoissonBoundEvent evaluates Zhu
// and Wang's sum at (it costs the base at every integer order up to it).
const poissonBoundTop = 1024

// PoissonBoundEvent is one step of the mechanism base under Poisson
// sampling with rate q, add/remove neighbours, for any base. At each order
// alpha of a call it gives the least of these upper bounds:
//
//   - Zhu and Wang's general bound (ICML 2019; see PoissonBound) from
//     base's curve at the integer orders 2..ceil(alpha);
//   - the same bound at every higher order of the call (RDP is
//     non-decreasing in the order, so a bound at a higher order holds at
//     a lower one; the bound need not be monotone in alpha);
//   - base's own RDP at alpha, and PoissonBound with q = 1 (its integer
//     values interpolated): sampling never increases the Rényi
//     divergence (it is jointly quasi-convex, van Erven and Harremoës
//     2014, Thm 13, and both directions of the sampled pair are mixtures
//     of the base pair).
//
// Upper bounds in base only raise them all.
//
// Special cases are:
//
//	rdp(alpha) = 0 for q = 0
//	rdp(alpha) = base(alpha) (or less, from higher orders) for alpha = +Inf
//	    or alpha > 1024 (the sum is not evaluated there)
//	PoissonBoundEvent = error for q outside [0, 1] or NaN, and an error from base
func PoissonBoundEvent(q float64, base Event) Event { return poissonBoundEvent{q, base} }

type poissonBoundEvent struct {
	q    float64
	base Event
}

func (e poissonBoundEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	q := e.q
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr("PoissonBoundEvent", "q", q, "sampling rate must be in [0, 1]")
	}
	if err := e.base.RDP(orders, out); err != nil {
		return err
	}
	if q == 0 {
		clear(out) // nothing released
		return nil
	}
	top := 2
	for _, a := range orders {
		if a <= poissonBoundTop {
			top = max(top, int(math.Ceil(a)))
		}
	}
	bo := make([]float64, top-1)
	for i := range bo {
		bo[i] = float64(i + 2)
	}
	bv := make([]float64, len(bo))
	if err := e.base.RDP(bo, bv); err != nil {
		return err
	}
	for i, a := range orders {
		if !math.IsInf(a, 1) && a > poissonBoundTop {
			continue
		}
		v, err := PoissonBound(q, a, bv)
		if err != nil {
			return err
		}
		u, err := PoissonBound(1, a, bv)
		if err != nil {
			return err
		}
		out[i] = math.Min(out[i], math.Min(v, u))
	}
	search.MinOverHigher(orders, out)
	return nil
}

// ComposePoissonBound adds count Poisson-sampled mechanisms (rate q) whose
// base mechanism has the RDP curve base at integer orders (base[i] =
// eps(i+2)) through Zhu and Wang's bound: Compose(PoissonBoundEvent(q,
// BaseCurveEvent(rdpcheck.BaseCurve{Eps: base, Inf: +Inf})), count). Orders
// beyond the base curve get +Inf (unknown) from it.
//
// Slices: base is copied: changing it afterwards changes nothing.
func (a *Accountant) ComposePoissonBound(q float64, base []float64, count int) error {
	return a.Compose(PoissonBoundEvent(q, BaseCurveEvent(rdpcheck.BaseCurve{Eps: base, Inf: math.Inf(1)})), count)
}
