package fast

import "github.com/rdpcheck/rdpcheck/rdp"

// InputError reports an argument outside a function's domain; it is
// rdp.InputError, shared with package reference, and its Pkg is "fast".
// errors.Is(err, ErrInput) matches every one.
type InputError = rdp.InputError

// The error kinds are package rdp's, so that errors.Is gives the same
// answer whichever package's name the caller uses.
var (
	// ErrInput is wrapped by every *InputError.
	ErrInput = rdp.ErrInput
	// ErrTooLarge is wrapped by the error returned for inputs whose cost
	// grows without bound (an integer order above MaxIntegerOrder).
	ErrTooLarge = rdp.ErrTooLarge
	// ErrNotConverged is wrapped by the error returned when a search (a
	// calibration) cannot meet its target within its bracket. No value is
	// guessed then.
	ErrNotConverged = rdp.ErrNotConverged
)

// pkgName is the Pkg of every InputError this package returns.
const pkgName = "fast"

func inputErr(fn, arg string, v float64, msg string) error {
	return &InputError{Pkg: pkgName, Func: fn, Arg: arg, Value: v, Msg: msg}
}
