package reference

import "github.com/rdpcheck/rdpcheck"

// InputError reports an argument outside a function's domain: it is
// rdpcheck.InputError, and this package's have Pkg "reference". It is returned,
// never panicked, so that callers can tell bad input from lost precision.
type InputError = rdpcheck.InputError

// The error kinds are package rdpcheck's (which says what each means), so that
// errors.Is gives the same answer whichever package's name the caller
// uses. Besides ErrInput and ErrTooLarge, the reference returns
// ErrPrecision where its Ziv loop cannot confirm the precision asked for,
// even at the working precision's cap: no value is returned then.
var (
	ErrInput     = rdpcheck.ErrInput
	ErrPrecision = rdpcheck.ErrPrecision
	ErrTooLarge  = rdpcheck.ErrTooLarge
)

// pkgName is the Pkg of every InputError this package returns.
const pkgName = "reference"

func inputErr(fn, arg string, v float64, msg string) error {
	return rdpcheck.NewInputError(pkgName, fn, arg, v, msg)
}
