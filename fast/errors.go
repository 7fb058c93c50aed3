package fast

import (
	"errors"
	"fmt"
)

// InputError reports an argument outside a function's domain. It is
// returned, never panicked, so that a caller can tell bad input from a
// computation that could not be done.
type InputError struct {
	Func  string  // the function that refused, e.g. "SGM"
	Arg   string  // the argument's name, e.g. "q"
	Value float64 // the value given (NaN for a vector argument)
	Msg   string  // what the argument must be
}

func (e *InputError) Error() string {
	return fmt.Sprintf("fast.%s: %s = %v: %s", e.Func, e.Arg, e.Value, e.Msg)
}

// Unwrap lets errors.Is(err, ErrInput) match every InputError.
func (e *InputError) Unwrap() error { return ErrInput }

// ErrInput is wrapped by every *InputError.
var ErrInput = errors.New("fast: invalid input")

// ErrTooLarge is wrapped by the error returned for inputs whose cost grows
// without bound (an integer order above MaxIntegerOrder, for instance).
var ErrTooLarge = errors.New("fast: input beyond the supported range")

// ErrNotConverged is wrapped by the error returned when a search (a
// calibration) cannot meet its target within its bracket. No value is
// guessed then.
var ErrNotConverged = errors.New("fast: target not reachable")

func inputErr(fn, arg string, v float64, msg string) error {
	return &InputError{Func: fn, Arg: arg, Value: v, Msg: msg}
}
