package fast

// An Event is a privacy event the Accountant can evaluate at any order.
//
// The Events of this package allow out to be the same slice as orders, or
// to overlap it, and are safe for concurrent use. This package never
// calls the RDP of an Event it did not make with out overlapping orders,
// nor keeps either slice after the call: an Event of yours need not allow
// aliasing. (It must be safe for concurrent use if your program calls it
// so.)
type Event interface {
	// RDP writes into out[i] an upper bound on the event's Rényi DP at
	// orders[i] (> 1, or +Inf); len(out) == len(orders). On error out
	// holds nothing in particular.
	RDP(orders, out []float64) error
}

// CurveFunc adapts a function to the Event interface.
type CurveFunc func(orders, out []float64) error

// RDP calls f(orders, out).
//
// Slices: whether out may overlap orders is up to f.
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

// eachOrder writes f at each order into out.
func eachOrder(orders, out []float64, f func(alpha float64) (float64, error)) error {
	orders = unaliased(orders, out)
	for i, a := range orders {
		v, err := f(a)
		if err != nil {
			return err
		}
		out[i] = v
	}
	return nil
}
