package fast

import (
	"fmt"
	"math"
	"slices"

	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// MaxSearchOrder is the largest finite order the continuous search
// (BestEpsilon, BestDelta) evaluates: it covers every real order in
// (1, MaxSearchOrder] and +Inf. Beyond it the conversion's
// log(1/delta)/(alpha-1) term is below 0.003 for delta >= 1e-5, and the
// order +Inf (pure DP) covers the limit.
const MaxSearchOrder = 4096

// The refinement evaluates batches of 2 searchHalf + 1 orders: one call
// of each event's RDP per batch, since a call's set-up (the sampled
// Gaussian's per-(q, sigma) constants and quadrature nodes) costs more
// than its orders.
const (
	searchHalf = 4
	// searchShrink is the ratio of the spacings of successive batches:
	// each batch is centred on the vertex of the parabola through the
	// previous batch's least value and its neighbours, whose error is
	// below the previous spacing where eps(alpha) is smooth.
	searchShrink = 8
	// After two batches, the search stops once the spacing is below
	// searchTol times the order (eps is flat at its minimum: it then moves
	// by about 1e-9 relative), or after searchRounds batches.
	searchTol    = 1e-4
	searchRounds = 5
)

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
		a.tmp[i] = scaleUp(v, float64(count))
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
func (a *Accountant) RDP(orders, out []float64) error {
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
			out[i] = addUp(out[i], scaleUp(v, float64(c.count)))
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
		if d := (delta - k) / (1 - k) * (1 - 4*unit); d > 0 {
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
	return math.Min(1, (d+k*(1-d))*(1+4*unit)), order, nil
}

// BestEpsilon converts the RDP of e to eps for delta, minimised over
// every order in (1, MaxSearchOrder] and +Inf: first over grid (nil means
// DefaultOrders()) and +Inf, then, between the grid neighbours of the
// best finite order (1 below the least, MaxSearchOrder above the
// largest), by a batched search: 9 equally spaced orders, then batches of
// 9 orders 8 times closer each around the vertex of the parabola through
// the best of the last batch and its neighbours, until the spacing is
// below 1e-4 of the order (successive parabolic interpolation, as in
// Brent 1973, Algorithms for Minimization without Derivatives, ch. 5,
// with a batch of orders per step because one evaluation of the sampled
// Gaussian at several orders costs about as much as at one). It returns
// the least eps evaluated and its order.
//
// The result is safe whatever the search does: the conversion gives a
// valid (eps, delta) guarantee at every order (Mironov 2017, Prop 3;
// Canonne, Kamath, Steinke 2020, Prop 12), and Epsilon's value at each
// evaluated order is an upper bound on it, so the least over any set of
// evaluated orders is one too. The search only decides how tight it is:
// never above the grid's eps (the grid is evaluated first); where
// eps(alpha) is smooth and unimodal between the neighbours, within about
// 1e-8 relative of the minimum; elsewhere a local minimum.
//
// e.RDP must give an upper bound on the RDP at any order > 1 or +Inf.
//
// Special cases are those of Epsilon, and:
//
//	BestEpsilon(e, grid, ...) = error if e fails at any order evaluated
//	BestEpsilon(e, grid, ...) = error for grid orders <= 1 or NaN, or empty
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
func BestDelta(e Event, grid []float64, eps float64, conv Conversion) (delta, order float64, err error) {
	grid, rdp, err := gridRDP("BestDelta", e, grid)
	if err != nil {
		return 0, 0, err
	}
	return bestDeltaCurve(grid, rdp, e, eps, conv)
}

func gridRDP(fn string, e Event, grid []float64) ([]float64, []float64, error) {
	if grid == nil {
		grid = defaultOrders
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

// convertAt converts rdp at each order by conv (Epsilon's or Delta's
// value at that one order).
type convertAt func(orders, rdp, out []float64) error

func bestEpsilonCurve(grid, rdp []float64, e Event, delta float64, conv Conversion) (float64, float64, error) {
	if err := checkCurve("BestEpsilon", grid, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return 0, 0, inputErr("BestEpsilon", "delta", delta, "must be in (0, 1)")
	}
	ld := xmath.Log(delta)
	// Epsilon at each order, its checks and log delta done once
	return searchOrders(grid, rdp, e, func(orders, rdp, out []float64) error {
		if err := checkCurve("BestEpsilon", orders, rdp, conv); err != nil {
			return err
		}
		for i, a := range orders {
			out[i] = max(0, epsAt(conv, a, rdp[i], ld))
		}
		return nil
	})
}

func bestDeltaCurve(grid, rdp []float64, e Event, eps float64, conv Conversion) (float64, float64, error) {
	if _, _, err := Delta(grid, rdp, eps, conv); err != nil {
		return 0, 0, err
	}
	return searchOrders(grid, rdp, e, func(orders, rdp, out []float64) error {
		for i := range orders {
			v, _, err := Delta(orders[i:i+1], rdp[i:i+1], eps, conv)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	})
}

// searchOrders minimises the converted value over the grid and +Inf, then
// refines between the grid neighbours of the best finite order. Ties keep
// the earlier order: the grid's first, then the search's.
func searchOrders(grid, rdp []float64, e Event, conv convertAt) (best, order float64, err error) {
	vals := make([]float64, len(grid))
	if err := conv(grid, rdp, vals); err != nil {
		return 0, 0, err
	}
	best, order = math.Inf(1), grid[0]
	type pt struct{ a, v float64 }
	var finite []pt
	for i, a := range grid {
		if vals[i] < best {
			best, order = vals[i], a
		}
		if !math.IsInf(a, 1) && a <= MaxSearchOrder {
			finite = append(finite, pt{a, vals[i]})
		}
	}
	// eval evaluates a batch of orders, keeping the least value
	r := make([]float64, 2*searchHalf+2)
	v := make([]float64, 2*searchHalf+2)
	eval := func(orders []float64) error {
		if err := e.RDP(orders, r[:len(orders)]); err != nil {
			return err
		}
		if err := conv(orders, r[:len(orders)], v[:len(orders)]); err != nil {
			return err
		}
		for i, a := range orders {
			if v[i] < best {
				best, order = v[i], a
			}
		}
		return nil
	}
	withInf := !slices.Contains(grid, math.Inf(1)) // +Inf joins the first batch
	slices.SortFunc(finite, func(x, y pt) int {
		switch {
		case x.a < y.a:
			return -1
		case x.a > y.a:
			return 1
		}
		return 0
	})
	ib := -1
	for i, p := range finite {
		if ib < 0 || p.v < finite[ib].v {
			ib = i
		}
	}
	if ib < 0 || math.IsInf(finite[ib].v, 1) {
		if withInf {
			if err := eval([]float64{math.Inf(1)}); err != nil {
				return 0, 0, err
			}
		}
		return best, order, nil // nothing finite to refine
	}
	lo, hi := 1.0, float64(MaxSearchOrder)
	if ib > 0 {
		lo = finite[ib-1].a
	}
	if ib+1 < len(finite) {
		hi = finite[ib+1].a
	}
	centre, step := (lo+hi)/2, (hi-lo)/(2*searchHalf+2)
	batch := make([]float64, 0, 2*searchHalf+2)
	for round := 0; round < searchRounds && (round < 2 || step >= searchTol*centre); round++ {
		batch = batch[:0]
		for j := -searchHalf; j <= searchHalf; j++ {
			if a := centre + float64(j)*step; a > lo && a < hi {
				batch = append(batch, a)
			}
		}
		if len(batch) < 3 {
			break // the spacing is below the orders' resolution
		}
		n := len(batch)
		if withInf {
			batch, withInf = append(batch, math.Inf(1)), false
		}
		if err := eval(batch); err != nil {
			return 0, 0, err
		}
		batch = batch[:n]
		// the parabola through the least value of the batch and its
		// neighbours (within the batch); its vertex is the next centre
		k := 0
		for i := range batch {
			if v[i] < v[k] {
				k = i
			}
		}
		k = min(max(k, 1), len(batch)-2)
		x0, x1, x2 := batch[k-1], batch[k], batch[k+1]
		f0, f1, f2 := v[k-1], v[k], v[k+1]
		num := (x1-x0)*(x1-x0)*(f1-f2) - (x1-x2)*(x1-x2)*(f1-f0)
		den := (x1-x0)*(f1-f2) - (x1-x2)*(f1-f0)
		centre = x1
		if den != 0 && !math.IsInf(f0+f1+f2, 0) {
			if c := x1 - 0.5*num/den; c > x0 && c < x2 {
				centre = c
			}
		}
		step /= searchShrink
	}
	if withInf {
		if err := eval([]float64{math.Inf(1)}); err != nil {
			return 0, 0, err
		}
	}
	return best, order, nil
}
