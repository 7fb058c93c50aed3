package reference

import "github.com/rdpcheck/rdpcheck/rdp"

// InputError reports an argument outside a function's domain; it is
// rdp.InputError, shared with package fast, and its Pkg is "reference".
// It is returned, never panicked, so that callers can tell bad input from
// lost precision; errors.Is(err, ErrInput) matches every one.
type InputError = rdp.InputError

// The error kinds are package rdp's, so that errors.Is gives the same
// answer whichever package's name the caller uses.
var (
	// ErrInput is wrapped by every *InputError.
	ErrInput = rdp.ErrInput
	// ErrPrecision is wrapped by the error returned when two evaluations
	// at different working precisions do not agree to the requested
	// precision even after the working precision was raised to its cap.
	// No value is returned then: a reference that is unsure says so.
	ErrPrecision = rdp.ErrPrecision
	// ErrTooLarge is wrapped by the error returned for inputs whose cost
	// grows without bound (an integer order above MaxIntegerOrder, for
	// instance).
	ErrTooLarge = rdp.ErrTooLarge
)

// pkgName is the Pkg of every InputError this package returns.
const pkgName = "reference"

func inputErr(fn, arg string, v float64, msg string) error {
	return &InputError{Pkg: pkgName, Func: fn, Arg: arg, Value: v, Msg: msg}
}
