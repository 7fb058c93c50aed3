package fast

import (
	"cmp"
	"math"
	"slices"
)

// An Event is a privacy event the Accountant can evaluate at any order.
type Event interface {
	// RDP writes into out[i] an upper bound on the event's Rényi DP at
	// orders[i] (> 1, or +Inf); len(out) == len(orders).
	RDP(orders, out []float64) error
}

// CurveFunc adapts a function to the Event interface.
type CurveFunc func(orders, out []float64) error

// RDP calls f(orders, out).
func (f CurveFunc) RDP(orders, out []float64) error { return f(orders, out) }

// OrderFunc makes an Event of a function of one order, called at each.
func OrderFunc(f func(alpha float64) (float64, error)) Event {
	return CurveFunc(func(orders, out []float64) error { return eachOrder(orders, out, f) })
}

// composed is one Compose call the Accountant remembers, so that it can
// evaluate its composition at orders off its grid.
type composed struct {
	e     Event
	count int
}

// valueEvent is an Event of this package whose dynamic value holds only
// numbers and strings: two equal values are the same event, so that
// Compose may add a repeat of the last event to its count rather than
// remember it again (a training loop composing one step at a time then
// keeps one entry, not one per step).
type valueEvent interface {
	Event
	valueEvent()
}

// sameEvent reports whether e and f are equal values of one of this
// package's valueEvent types. (Comparing other dynamic types could panic:
// a CurveFunc is not comparable.)
func sameEvent(e, f Event) bool {
	if _, ok := e.(valueEvent); !ok {
		return false
	}
	return e == f // f of another dynamic type: false, without comparing fields
}

// minOverHigher replaces each b[i] by the least b[j] over the orders[j]
// >= orders[i], the orders in any order. RDP is non-decreasing in the
// order (van Erven and Harremoës 2014, Theorem 3), so an upper bound at a
// higher order is one at a lower order too: the events whose bounds need
// not be monotone (sampling without replacement, Zhu and Wang's Poisson
// bound) use it to take the best of the orders of one call.
func minOverHigher(orders, b []float64) {
	idx := make([]int, len(orders))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Compare(orders[j], orders[i]) }) // descending
	m := math.Inf(1)
	for k := 0; k < len(idx); {
		end := k // equal orders share their least value
		for end < len(idx) && orders[idx[end]] == orders[idx[k]] {
			m = math.Min(m, b[idx[end]])
			end++
		}
		for ; k < end; k++ {
			b[idx[k]] = m
		}
	}
}

// eachOrder writes f at each order into out.
func eachOrder(orders, out []float64, f func(alpha float64) (float64, error)) error {
	for i, a := range orders {
		v, err := f(a)
		if err != nil {
			return err
		}
		out[i] = v
	}
	return nil
}
