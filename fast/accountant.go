package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Accountant composes privacy events by adding their RDP curves on a fixed
// list of orders. Its zero value is ready to use and accounts on
// DefaultOrders(); set Orders before the first use to use others.
// Events may be heterogeneous (sampled Gaussian steps with different
// q, sigma; Gaussian, Laplace, randomized response; rho-zCDP).
//
// Events are composed by Compose(e, count) with an Event (SGMEvent,
// GaussianEvent, ...), or by the Compose<Name> methods, each of which is
// exactly Compose(<Name>Event(...), count): either way the accountant
// remembers the event, so that RDP, RDPAt, BestEpsilon and BestDelta can
// evaluate the composition at any order, not only at Orders.
//
// Every curve value is an upper bound (each function rounds up), so the
// eps and delta reported are upper bounds on those of the exact curve.
// An Accountant is not safe for concurrent use.
type Accountant struct {
	// Orders are the RDP orders (> 1, or +Inf); nil means DefaultOrders().
	// They are read once, at the first use of the accountant (a Compose
	// or any query), and copied: writing to the field or to its elements
	// afterwards changes nothing the accountant computes. Curve returns
	// the orders in use.
	Orders []float64

	orders []float64 // the copy of Orders in use, set by init
	rdp    []float64
	tmp    []float64
	events int
	log    []composed // the events composed, a repeat of the last one merged (Compose, best.go)
	// logKeep bounds from below sum count_i log1p(-delta_i) over the
	// (eps, delta) events: the delta kept aside is 1 - e^logKeep
	// (ComposeEpsilonDelta).
	logKeep float64
}

// init takes the orders on the first use, and returns those in use.
func (a *Accountant) init() ([]float64, error) {
	if a.rdp == nil {
		o := a.Orders
		if o == nil {
			o = defaultOrders
		}
		if len(o) == 0 {
			return nil, inputErr("Accountant", "Orders", math.NaN(), "must not be empty")
		}
		for _, x := range o {
			if err := checkOrder("Accountant", x); err != nil {
				return nil, err
			}
		}
		a.orders = append([]float64(nil), o...)
		a.rdp = make([]float64, len(o))
		a.tmp = make([]float64, len(o))
	}
	return a.orders, nil
}

func (a *Accountant) add() {
	for i, v := range a.tmp {
		a.rdp[i] = addUp(a.rdp[i], v)
	}
	a.events++
}

// addUp is x+y rounded up.
func addUp(x, y float64) float64 {
	s := x + y
	if s == 0 || math.IsInf(s, 0) {
		return s
	}
	return math.Nextafter(s, math.Inf(1))
}

func checkCount(fn string, n int) error {
	if n <= 0 {
		return inputErr(fn, "count", float64(n), "must be > 0")
	}
	return nil
}

// Curve returns copies of the orders and the composed RDP at each.
func (a *Accountant) Curve() (orders, rdp []float64) {
	o, err := a.init()
	if err != nil {
		return nil, nil
	}
	return append([]float64(nil), o...), append([]float64(nil), a.rdp...)
}

// Events returns how many Compose and Compose<Name> calls have succeeded
// (a repeated event counts each time).
func (a *Accountant) Events() int { return a.events }

// Epsilon returns the eps of the composition for delta and the order used
// (see Epsilon).
func (a *Accountant) Epsilon(delta float64, conv Conversion) (eps, order float64, err error) {
	o, err := a.init()
	if err != nil {
		return 0, 0, err
	}
	if a.logKeep != 0 {
		return a.epsilonKept(o, delta, conv)
	}
	return Epsilon(o, a.rdp, delta, conv)
}

// Delta returns the delta of the composition for eps and the order used
// (see Delta).
func (a *Accountant) Delta(eps float64, conv Conversion) (delta, order float64, err error) {
	o, err := a.init()
	if err != nil {
		return 0, 0, err
	}
	if a.logKeep != 0 {
		return a.deltaKept(o, eps, conv)
	}
	return Delta(o, a.rdp, eps, conv)
}

// String summarises the accountant.
func (a *Accountant) String() string {
	return fmt.Sprintf("Accountant{%d orders, %d events}", len(a.rdp), a.events)
}

// KeptDelta returns an upper bound on the delta kept aside by the (eps,
// delta) events, 1 - prod_i (1 - delta_i)^count_i (0 without them).
func (a *Accountant) KeptDelta() float64 {
	if a.logKeep == 0 {
		return 0
	}
	// -expm1 of the lower bound of the log, 1 ulp, rounded up by 2 ulps
	k := math.Nextafter(math.Nextafter(-math.Expm1(a.logKeep), 2), 2)
	return math.Min(k, 1)
}

// epsilonKept is Epsilon with the kept delta: the conversion gets the
// lower bound (delta - kept)/(1 - kept) (each of the three roundings
// below u, covered by 4u), and eps is +Inf (order +Inf) where that is not
// positive.
func (a *Accountant) epsilonKept(o []float64, delta float64, conv Conversion) (float64, float64, error) {
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return Epsilon(o, a.rdp, delta, conv) // its error
	}
	k := a.KeptDelta()
	d := (delta - k) / (1 - k) * (1 - 4*errfloat.Unit)
	if !(d > 0) {
		if _, _, err := Epsilon(o, a.rdp, delta, conv); err != nil {
			return 0, 0, err
		}
		return math.Inf(1), math.Inf(1), nil
	}
	return Epsilon(o, a.rdp, d, conv)
}

// deltaKept is Delta with the kept delta: 1 - (1 - d)(1 - kept) = d +
// kept (1 - d), rounded up by 4u and capped at 1.
func (a *Accountant) deltaKept(o []float64, eps float64, conv Conversion) (float64, float64, error) {
	d, order, err := Delta(o, a.rdp, eps, conv)
	if err != nil {
		return 0, 0, err
	}
	k := a.KeptDelta()
	return math.Min(1, (d+k*(1-d))*(1+4*errfloat.Unit)), order, nil
}
