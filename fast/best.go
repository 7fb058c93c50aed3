package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/convert"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/search"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// MaxSearchOrder is the largest finite order the best-order search
// (BestEpsilon, BestDelta) evaluates: rdpcheck.MaxIntegerOrder, the largest
// order SGM accepts. Noisy runs (sigma in the hundreds) have their best
// order in the thousands or beyond, so the search goes as far as fast's
// orders go.
const MaxSearchOrder = rdpcheck.MaxIntegerOrder

// SearchTolerance is the relative tolerance to which BestEpsilon and
// BestDelta find the least value over their range (see BestEpsilon).
const SearchTolerance = 1e-6

// Compose adds count compositions of the event e at every order of the
// accountant, and remembers e for RDP, RDPAt, BestEpsilon and BestDelta.
// Every Compose<Name> method is Compose(<Name>Event(...), count). A repeat
// of the last event (equal parameters, one of this package's events of
// numbers only) adds to its count rather than being remembered again, so
// composing a step at a time keeps the memory constant. Errors are e's;
// on error nothing is added.
func (a *Accountant) Compose(e Event, count int) error {
	o, err := a.init()
	if err != nil {
		return err
	}
	if err := checkCount("Compose", count); err != nil {
		return err
	}
	if e == nil {
		return inputErr("Compose", "e", math.NaN(), "must not be nil")
	}
	if err := e.RDP(o, a.tmp); err != nil {
		return err
	}
	for i, v := range a.tmp {
		if math.IsNaN(v) || v < 0 {
			return inputErr("Compose", fmt.Sprintf("RDP at order %g", o[i]), v, "an event's RDP must be >= 0 (or +Inf)")
		}
		a.tmp[i] = errfloat.ScaleUp(v, float64(count))
	}
	a.add()
	if n := len(a.log); n > 0 && sameEvent(a.log[n-1].e, e) && a.log[n-1].count <= math.MaxInt-count {
		a.log[n-1].count += count
	} else {
		a.log = append(a.log, composed{e, count})
	}
	return nil
}

// RDP writes into out an upper bound on the composed RDP at each of
// orders, any orders > 1 or +Inf, from the events composed (by Compose and
// every Compose<Name> method): the Accountant is itself an Event. At one
// of the accountant's orders the value may differ from Curve's: a repeat
// of an event merged by Compose has its count applied once (the last
// bits), and the events that take the least bound over the higher orders
// of a call (WORGaussianEvent, WORBoundEvent, PoissonBoundEvent) see only
// this call's orders. Both are upper bounds.
//
// Slices: out may be the same slice as orders, or overlap it.
func (a *Accountant) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if _, err := a.init(); err != nil {
		return err
	}
	if len(out) != len(orders) {
		return inputErr("RDP", "out", float64(len(out)), "must have len(orders) elements")
	}
	for _, x := range orders {
		if err := checkOrder("RDP", x); err != nil {
			return err
		}
	}
	clear(out)
	if len(orders) == 0 {
		return nil
	}
	buf := make([]float64, len(orders))
	for _, c := range a.log {
		if err := c.e.RDP(orders, buf); err != nil {
			return err
		}
		for i, v := range buf {
			if math.IsNaN(v) || v < 0 {
				return inputErr("RDP", fmt.Sprintf("RDP at order %g", orders[i]), v, "an event's RDP must be >= 0 (or +Inf)")
			}
			out[i] = addUp(out[i], errfloat.ScaleUp(v, float64(c.count)))
		}
	}
	return nil
}

// RDPAt is RDP at one order.
func (a *Accountant) RDPAt(alpha float64) (float64, error) {
	out := []float64{0}
	err := a.RDP([]float64{alpha}, out)
	return out[0], err
}

// BestEpsilon is Accountant.Epsilon minimised over every order in
// (1, MaxSearchOrder] and +Inf rather than over the accountant's orders
// alone (see BestEpsilon); the accountant's orders are the search's grid.
// The kept delta of ComposeEpsilonDelta is removed from the target as in
// Epsilon.
func (a *Accountant) BestEpsilon(delta float64, conv Conversion) (eps, order float64, err error) {
	o, err := a.init()
	if err != nil {
		return 0, 0, err
	}
	if a.logKeep != 0 && delta > 0 && delta < 1 {
		// the kept delta as in epsilonKept: the conversion gets (delta -
		// kept)/(1 - kept), rounded down; eps is +Inf where it is not > 0
		k := a.KeptDelta()
		if d := (delta - k) / (1 - k) * (1 - 4*errfloat.Unit); d > 0 {
			delta = d
		} else {
			return math.Inf(1), math.Inf(1), nil
		}
	}
	return bestEpsilonCurve(o, a.rdp, a, delta, conv)
}

// BestDelta is Accountant.Delta minimised over every order in
// (1, MaxSearchOrder] and +Inf (see BestDelta), with the kept delta of
// ComposeEpsilonDelta composed in as in Delta.
func (a *Accountant) BestDelta(eps float64, conv Conversion) (delta, order float64, err error) {
	o, err := a.init()
	if err != nil {
		return 0, 0, err
	}
	d, order, err := bestDeltaCurve(o, a.rdp, a, eps, conv)
	if err != nil || a.logKeep == 0 {
		return d, order, err
	}
	// the kept delta as in deltaKept
	k := a.KeptDelta()
	return math.Min(1, (d+k*(1-d))*(1+4*errfloat.Unit)), order, nil
}

// BestEpsilon converts the RDP of e to eps for delta, minimised over
// every order in (1, MaxSearchOrder] and +Inf (above 1024, the integer
// orders), and returns the least eps found and its order.
//
// Method: the orders of grid (nil means DefaultOrders()) and +Inf are
// evaluated first; if the best of them is the grid's largest finite order,
// the powers of two from 2048 are evaluated in turn while eps decreases.
// The best order is then bracketed by its evaluated neighbours (1 below
// the least) and the bracket shrunk by batches of 8 equally spaced orders
// to the neighbours of the least value so far, until a certificate holds:
// between consecutive evaluated orders a <= b, a non-decreasing RDP gives
// eps(alpha) >= rdp(a) + min over [a, b] of the conversion's term
// (log1p(-1/alpha) - log(delta alpha)/(alpha-1), decreasing while
// alpha delta < 1 and increasing after; log(1/delta)/(alpha-1) for the
// classic conversion), and the search stops once no such bound in the
// bracket is below the least eps by more than SearchTolerance relative.
//
// The result is the minimum to that tolerance whenever eps(alpha) is
// unimodal in alpha, which holds for every exact RDP curve: f(alpha) =
// (alpha-1) D_alpha is convex (a log moment generating function; the
// supremum over neighbours and sums over compositions keep it so), and
// eps'(alpha) = (f'(alpha)(alpha-1) - f(alpha) - log(1/delta) [+ log
// alpha, improved]) / (alpha-1)^2 has a non-decreasing numerator, so it
// changes sign once. fast's curves are such curves rounded up by at most
// their stated accuracy. For a bound that is not unimodal (a step
// function, a minimum of two bounds), it is the least eps over the orders
// evaluated, never above the grid's.
//
// The result is safe whatever the search does: the conversion gives a
// valid (eps, delta) guarantee at every order (Mironov 2017, Prop 3;
// Canonne, Kamath, Steinke 2020, Prop 12), and Epsilon's value at each
// evaluated order is an upper bound on it, so the least over any set of
// evaluated orders is one too.
//
// e.RDP must give an upper bound on the RDP at any order > 1 or +Inf; an
// order where it reports ErrTooLarge counts as +Inf.
//
// Special cases are those of Epsilon, and:
//
//	BestEpsilon(e, grid, ...) = error if e fails at any order evaluated
//	BestEpsilon(e, grid, ...) = error for grid orders <= 1 or NaN, or empty
//
// Slices: grid is only read.
func BestEpsilon(e Event, grid []float64, delta float64, conv Conversion) (eps, order float64, err error) {
	grid, rdp, err := gridRDP("BestEpsilon", e, grid)
	if err != nil {
		return 0, 0, err
	}
	return bestEpsilonCurve(grid, rdp, e, delta, conv)
}

// BestDelta is BestEpsilon for delta at a target eps: Delta minimised
// over every order in (1, MaxSearchOrder] and +Inf, safe for the same
// reason (every order's delta is a valid bound).
//
// Special cases are those of Delta, and those of BestEpsilon.
//
// Slices: grid is only read.
func BestDelta(e Event, grid []float64, eps float64, conv Conversion) (delta, order float64, err error) {
	grid, rdp, err := gridRDP("BestDelta", e, grid)
	if err != nil {
		return 0, 0, err
	}
	return bestDeltaCurve(grid, rdp, e, eps, conv)
}

func gridRDP(fn string, e Event, grid []float64) ([]float64, []float64, error) {
	if grid == nil {
		grid = DefaultOrders() // a copy of its own: e may be the caller's
	}
	if len(grid) == 0 {
		return nil, nil, inputErr(fn, "grid", math.NaN(), "must not be empty")
	}
	if e == nil {
		return nil, nil, inputErr(fn, "e", math.NaN(), "must not be nil")
	}
	for _, a := range grid {
		if err := checkOrder(fn, a); err != nil {
			return nil, nil, err
		}
	}
	rdp := make([]float64, len(grid))
	if err := e.RDP(grid, rdp); err != nil {
		return nil, nil, err
	}
	return grid, rdp, nil
}

func bestEpsilonCurve(grid, rdp []float64, e Event, delta float64, conv Conversion) (float64, float64, error) {
	if err := checkCurve("BestEpsilon", grid, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return 0, 0, inputErr("BestEpsilon", "delta", delta, "must be in (0, 1)")
	}
	ld := xmath.Log(delta)
	// Epsilon at each order, its checks and log delta done once
	return search.Orders(grid, rdp, e.RDP, func(orders, rdp, out []float64) error {
		if err := checkCurve("BestEpsilon", orders, rdp, conv); err != nil {
			return err
		}
		for i, a := range orders {
			out[i] = max(0, convert.EpsAt(conv, a, rdp[i], ld))
		}
		return nil
	}, func(a, b, rdpA float64) float64 {
		return max(0, rdpA+convert.MinEpsTerm(conv, a, b, ld))
	})
}

func bestDeltaCurve(grid, rdp []float64, e Event, eps float64, conv Conversion) (float64, float64, error) {
	if _, _, err := Delta(grid, rdp, eps, conv); err != nil {
		return 0, 0, err
	}
	return search.Orders(grid, rdp, e.RDP, func(orders, rdp, out []float64) error {
		for i := range orders {
			v, _, err := Delta(orders[i:i+1], rdp[i:i+1], eps, conv)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	}, func(a, b, rdpA float64) float64 { return convert.DeltaLower(conv, a, b, rdpA, eps) })
}
