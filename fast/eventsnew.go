package fast

import (
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/rdpcheck/rdpcheck/rdp"
)

// The events of this file are the Accountant's Compose forms of the
// mechanisms added for dp_accounting's event classes (package dpevent):
// each evaluates its mechanism's upper bound at any order, so the
// Accountant's best-order search can use them.

// WORGaussianEvent is one step of the Gaussian mechanism (noise sigma)
// sampled without replacement with ratio q, replace-one neighbours (see
// WORGaussian; dp_accounting's SampledWithoutReplacementDpEvent of a
// GaussianDpEvent).
//
// Where WORGaussian is beyond its supported range (ErrTooLarge: orders
// above rdp.MaxWOROrder, or huge exponents), the event gives +Inf, a
// valid bound, so that a best-order search passes over those orders.
func WORGaussianEvent(q, sigma float64) Event {
	return CurveFunc(func(orders, out []float64) error {
		err := WORGaussianCurve(q, sigma, 1, orders, out)
		if !errors.Is(err, ErrTooLarge) {
			return err
		}
		for i, a := range orders {
			if out[i], err = WORGaussian(q, sigma, a); errors.Is(err, ErrTooLarge) {
				out[i] = math.Inf(1)
			} else if err != nil {
				return err
			}
		}
		return nil
	})
}

// WORBoundEvent is one step of the mechanism base sampled without
// replacement with ratio q, replace-one neighbours, by the general bound
// of WBK19, Theorem 9 (see WORBound). base is evaluated at the integer
// orders 2, ..., ceil(alpha) and at +Inf, the curve the theorem needs;
// its upper bounds only raise the result (Theorem 9's bound is
// non-decreasing in each base value), so it stays an upper bound.
//
// Special cases are those of WORBound, except +Inf where it is beyond its
// supported range (ErrTooLarge), as in WORGaussianEvent; and an error from
// base.
func WORBoundEvent(q float64, base Event) Event {
	return CurveFunc(func(orders, out []float64) error {
		top := 2
		for _, a := range orders {
			if !math.IsNaN(a) && !math.IsInf(a, 1) && a <= rdp.MaxWOROrder {
				top = max(top, int(math.Ceil(a)))
			}
		}
		bo := make([]float64, top) // orders 2..top, then +Inf
		for i := range top - 1 {
			bo[i] = float64(i + 2)
		}
		bo[top-1] = math.Inf(1)
		bv := make([]float64, top)
		if err := base.RDP(bo, bv); err != nil {
			return err
		}
		curve := rdp.BaseCurve{Eps: bv[:top-1], Inf: bv[top-1]}
		// Theorem 9 needs base.Inf at least every entry; a base whose
		// bound at +Inf is looser below is given +Inf there (unknown).
		if slices.Max(curve.Eps) > curve.Inf {
			curve.Inf = math.Inf(1)
		}
		for i, a := range orders {
			v, err := WORBound(q, a, curve)
			if errors.Is(err, ErrTooLarge) {
				v = math.Inf(1) // as in WORGaussianEvent
			} else if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	})
}

// KaryRandomizedResponseEvent is k-ary randomized response (see
// KaryRandomizedResponse; dp_accounting's RandomizedResponseDpEvent) under
// relation ReplaceOne or ReplaceSpecial.
func KaryRandomizedResponseEvent(noise, buckets float64, relation string) Event {
	return CurveFunc(func(orders, out []float64) error {
		return KaryRandomizedResponseCurve(noise, buckets, relation, orders, out)
	})
}

// DiscreteGaussianEvent is the one-dimensional discrete Gaussian mechanism
// (see DiscreteGaussian).
func DiscreteGaussianEvent(sigma, sensitivity float64) Event {
	return CurveFunc(func(orders, out []float64) error {
		return DiscreteGaussianCurve(sigma, sensitivity, orders, out)
	})
}

// ExponentialMechanismEvent is the exponential mechanism with privacy
// parameter eps, at dp_accounting's bounded-range bound (see
// ExponentialMechanism).
func ExponentialMechanismEvent(eps float64) Event {
	return CurveFunc(func(orders, out []float64) error { return ExponentialMechanismCurve(eps, orders, out) })
}

// TreeAggregationEvent is DP-FTRL's tree aggregation with noise sigma over
// epochs of steps[i] steps, in the reading restarts (see TreeAggregation;
// dp_accounting's SingleEpochTreeAggregationDpEvent is TreeOneTree).
func TreeAggregationEvent(sigma float64, steps []int, restarts TreeRestarts) Event {
	steps = slices.Clone(steps)
	return CurveFunc(func(orders, out []float64) error {
		return TreeAggregationCurve(sigma, steps, restarts, orders, out)
	})
}

// SampledLaplaceEvent is one step of the Laplace mechanism (scale b)
// under Poisson sampling with probability q, add/remove neighbours (see
// SampledLaplace).
func SampledLaplaceEvent(q, b float64) Event {
	return CurveFunc(func(orders, out []float64) error {
		v, err := SampledLaplaceCurve(q, b, orders)
		if err != nil {
			return err
		}
		copy(out, v)
		return nil
	})
}

// RepeatAndSelectOrders returns the orders at which RepeatAndSelectEvent
// takes its base's curve: dp_accounting's 156 default orders and +Inf.
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

// poissonBoundTop is the largest order PoissonBoundEvent evaluates Zhu
// and Wang's sum at (it costs the base at every integer order up to it).
const poissonBoundTop = 1024

// PoissonBoundEvent is one step of the mechanism base under Poisson
// sampling with rate q, add/remove neighbours, for any base: at each order
// the smaller of Zhu and Wang's general bound (ICML 2019; see
// PoissonBound) from base's curve at the integer orders 2..ceil(alpha),
// and base's own RDP at alpha (sampling never increases the Rényi
// divergence: it is jointly quasi-convex, van Erven and Harremoës 2014,
// Thm 13, and both directions of the sampled pair are mixtures of the
// base pair). Upper bounds in base only raise both.
//
// Special cases are:
//
//	rdp(alpha) = base(alpha) for alpha = +Inf or alpha > 1024 (the sum is
//	    not evaluated there)
//	PoissonBoundEvent = error for q outside [0, 1] or NaN, and an error from base
func PoissonBoundEvent(q float64, base Event) Event {
	return CurveFunc(func(orders, out []float64) error {
		if math.IsNaN(q) || q < 0 || q > 1 {
			return inputErr("PoissonBoundEvent", "q", q, "sampling rate must be in [0, 1]")
		}
		if err := base.RDP(orders, out); err != nil {
			return err
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
		if err := base.RDP(bo, bv); err != nil {
			return err
		}
		for i, a := range orders {
			if math.IsInf(a, 1) || a > poissonBoundTop {
				continue
			}
			v, err := PoissonBound(q, a, bv)
			if err != nil {
				return err
			}
			out[i] = math.Min(out[i], v)
		}
		return nil
	})
}
