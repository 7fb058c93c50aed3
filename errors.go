package rdpcheck

import (
	"errors"
	"fmt"
)

// The error kinds. Each is one object shared by every package of rdpcheck
// that can report it, so errors.Is(err, rdpcheck.ErrTooLarge),
// errors.Is(err, fast.ErrTooLarge) and errors.Is(err, reference.ErrTooLarge)
// are the same test. The messages carry no package name: the error that
// wraps a kind names the package and function (see InputError).
var (
	// ErrInput is wrapped by every *InputError: an argument outside the
	// function's domain.
	ErrInput = errors.New("invalid input")

	// ErrTooLarge is wrapped by the error returned for valid inputs beyond
	// the range an implementation supports, where its cost or its number
	// range would grow without bound (an order above MaxIntegerOrder, for
	// instance). The input is not wrong; the answer is not given.
	ErrTooLarge = errors.New("input beyond the supported range")

	// ErrPrecision is wrapped by the error returned when an evaluation
	// cannot confirm the precision it promises (package reference: two
	// evaluations at different working precisions never agree). No value
	// is returned then: an implementation that is unsure says so.
	ErrPrecision = errors.New("requested precision not reached")

	// ErrNotConverged is wrapped by the error returned when a search (a
	// calibration) cannot meet its target within its bracket. No value is
	// guessed then.
	ErrNotConverged = errors.New("target not reachable")
)

// InputError reports an argument outside a function's domain. It is
// returned, never panicked, so that a caller can tell bad input from a
// computation that could not be done. fast.InputError and
// reference.InputError are aliases of it.
type InputError struct {
	Pkg   string  // the package that refused, e.g. "fast"
	Func  string  // the function that refused, e.g. "SGM"
	Arg   string  // the argument's name, e.g. "q"
	Value float64 // the value given (NaN for a vector argument)
	Msg   string  // what the argument must be
}

// Error returns "pkg.Func: arg = value: msg", e.g.
// "fast.SGM: q = NaN: must be in [0, 1]" (without "pkg." when Pkg is empty).
func (e *InputError) Error() string {
	name := e.Func
	if e.Pkg != "" {
		name = e.Pkg + "." + e.Func
	}
	return fmt.Sprintf("%s: %s = %v: %s", name, e.Arg, e.Value, e.Msg)
}

// Unwrap lets errors.Is(err, ErrInput) match every InputError.
func (e *InputError) Unwrap() error { return ErrInput }
