package reference

import (
	"errors"
	"fmt"
)

// InputError reports an argument outside a function's domain. It is returned,
// never panicked, so that callers can tell bad input from lost precision.
type InputError struct {
	Func  string  // the function that refused, e.g. "SGM"
	Arg   string  // the argument's name, e.g. "q"
	Value float64 // the value given (NaN for a vector argument)
	Msg   string  // what the argument must be
}

func (e *InputError) Error() string {
	return fmt.Sprintf("reference.%s: %s = %v: %s", e.Func, e.Arg, e.Value, e.Msg)
}

// ErrPrecision is wrapped by the error returned when two evaluations at
// different working precisions do not agree to the requested precision even
// after the working precision was raised to its cap. No value is returned
// then: a reference that is unsure says so.
var ErrPrecision = errors.New("reference: requested precision not reached")

// ErrTooLarge is wrapped by the error returned for inputs whose cost grows
// without bound (an integer order above MaxIntegerOrder, for instance).
var ErrTooLarge = errors.New("reference: input beyond the supported range")

func inputErr(fn, arg string, v float64, msg string) error {
	return &InputError{Func: fn, Arg: arg, Value: v, Msg: msg}
}
