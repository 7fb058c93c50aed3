package search

import (
	"errors"
	"math"
	"slices"

	"github.com/rdpcheck/rdpcheck"
)

// MaxOrder and Tolerance are fast.MaxSearchOrder and fast.SearchTolerance
// (fast's tests hold them equal): the largest finite order searched, and
// the relative tolerance of the certificate.
const (
	MaxOrder  = rdpcheck.MaxIntegerOrder
	Tolerance = 1e-6
)

const (
	// Points orders are evaluated per refinement batch: one call of
	// each event's RDP per batch, since a call's set-up (the sampled
	// Gaussian's per-(q, sigma) constants and quadrature nodes) costs
	// more than its orders. Each batch shrinks the bracket to 2/9.
	Points = 8
	// Rounds bounds the batches; 40 shrink any bracket in (1, 2^20]
	// below the spacing of float64.
	Rounds = 40
	// Above integerOrder the search evaluates integer orders only:
	// there fast's SGM at a fractional order is the next integer's bound
	// scaled by (ceil(alpha)-1)/(alpha-1) (see fast.SGM), never below that
	// integer's eps while delta alpha <= 1.
	integerOrder = 1024
)

// Convert converts rdp at each order (fast.Epsilon's or fast.Delta's
// value at that one order).
type Convert func(orders, rdp, out []float64) error

// Lower bounds from below the converted value at every order in
// [a, b] given the RDP at a, for an RDP non-decreasing in the order.
type Lower func(a, b, rdpA float64) float64

// Orders minimises the converted value over the grid and +Inf, then over
// (1, MaxOrder] as fast.BestEpsilon describes, given the curve's values
// gridRDP at the grid's orders (> 1 or +Inf, checked) and curve, the event's
// RDP at any orders. Ties keep the earlier order: the grid's first, then
// the search's.
func Orders(grid, gridRDP []float64, curve func(orders, out []float64) error, conv Convert, lower Lower) (best, order float64, err error) {
	vals := make([]float64, len(grid))
	if err := conv(grid, gridRDP, vals); err != nil {
		return 0, 0, err
	}
	best, order = math.Inf(1), grid[0]
	type pt struct{ a, r, v float64 } // order, RDP, converted value
	var pts []pt
	for i, a := range grid {
		if vals[i] < best {
			best, order = vals[i], a
		}
		if !math.IsInf(a, 1) && a <= MaxOrder {
			pts = append(pts, pt{a, gridRDP[i], vals[i]})
		}
	}
	r := make([]float64, Points+1)
	v := make([]float64, Points+1)
	// eval evaluates a batch of orders, keeping the least value; an order
	// where curve reports rdpcheck.ErrTooLarge counts as +Inf (a valid bound)
	eval := func(orders []float64) error {
		r, v = r[:len(orders)], v[:len(orders)]
		if err := curve(orders, r); errors.Is(err, rdpcheck.ErrTooLarge) {
			for i := range orders {
				if err := curve(orders[i:i+1], r[i:i+1]); errors.Is(err, rdpcheck.ErrTooLarge) {
					r[i] = math.Inf(1)
				} else if err != nil {
					return err
				}
			}
		} else if err != nil {
			return err
		}
		if err := conv(orders, r, v); err != nil {
			return err
		}
		for i, a := range orders {
			if v[i] < best {
				best, order = v[i], a
			}
			if !math.IsInf(a, 1) {
				pts = append(pts, pt{a, r[i], v[i]})
			}
		}
		return nil
	}
	if !slices.Contains(grid, math.Inf(1)) {
		if err := eval([]float64{math.Inf(1)}); err != nil {
			return 0, 0, err
		}
	}
	sortPts := func() {
		slices.SortFunc(pts, func(x, y pt) int {
			switch {
			case x.a < y.a:
				return -1
			case x.a > y.a:
				return 1
			}
			return 0
		})
		// orders within 1e-12 relative are one: a bracket end that is a
		// rounding of the best order would hide the side beyond it
		pts = slices.CompactFunc(pts, func(x, y pt) bool { return math.Abs(y.a-x.a) <= 1e-12*math.Max(x.a, y.a) })
	}
	argmin := func() int {
		ib := -1
		for i, p := range pts {
			if ib < 0 || p.v < pts[ib].v {
				ib = i
			}
		}
		return ib
	}
	sortPts()
	if len(pts) == 0 || math.IsInf(pts[argmin()].v, 1) || best == 0 {
		return best, order, nil // nothing finite to refine, or nothing to gain
	}
	// beyond the grid: powers of two while the value decreases
	if ib := argmin(); ib == len(pts)-1 {
		prev := pts[ib].v
		for a := 2 * float64(integerOrder); a <= MaxOrder; a *= 2 {
			if a <= pts[ib].a {
				continue
			}
			if err := eval([]float64{a}); err != nil {
				return 0, 0, err
			}
			if v[0] >= prev {
				break
			}
			prev = v[0]
		}
		sortPts()
	}
	batch := make([]float64, 0, Points+1)
	for round := 0; round < Rounds; round++ {
		ib := argmin()
		// the bracket: the evaluated neighbours of the least value (1
		// below the least order, where eps and delta grow without bound)
		lo, hi := 1.0, pts[ib].a
		if ib > 0 {
			lo = pts[ib-1].a
		}
		if ib+1 < len(pts) {
			hi = pts[ib+1].a
		}
		// the certificate: no order in the bracket can do better by more
		// than the tolerance (the interval from 1 has RDP >= 0 at its left)
		worst := math.Inf(1)
		for i := max(ib-1, 0); i < min(ib+1, len(pts)-1); i++ {
			a, b := pts[i].a, pts[i+1].a
			if a >= integerOrder && b-a <= 1 {
				continue // no integer order between
			}
			worst = min(worst, lower(a, b, pts[i].r))
		}
		if ib == 0 {
			worst = min(worst, lower(1, pts[0].a, 0))
		}
		if best-worst <= Tolerance*best {
			break
		}
		batch = batch[:0]
		step := (hi - lo) / (Points + 1)
		for j := 1; j <= Points; j++ {
			a := lo + float64(j)*step
			if a > integerOrder {
				a = math.Ceil(a)
			}
			if a > lo*(1+1e-12) && a < hi*(1-1e-12) && (len(batch) == 0 || a > batch[len(batch)-1]) {
				batch = append(batch, a)
			}
		}
		if len(batch) == 0 {
			break // the bracket is below the orders' resolution
		}
		if err := eval(batch); err != nil {
			return 0, 0, err
		}
		sortPts()
	}
	return best, order, nil
}
