package fast

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
	return CurveFunc(func(orders, out []float64) error {
		for i, a := range orders {
			v, err := f(a)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	})
}

// composed is one Compose call the Accountant remembers, so that it can
// evaluate its composition at orders off its grid.
type composed struct {
	e     Event
	count int
}
