package fast

import "github.com/rdpcheck/rdpcheck"

// InputError reports an argument outside a function's domain: it is
// rdpcheck.InputError, and this package's have Pkg "fast".
type InputError = rdpcheck.InputError

// The error kinds this package returns are package rdpcheck's (which says what
// each means), so that errors.Is gives the same answer whichever package's
// name the caller uses. Besides ErrInput and ErrTooLarge, fast returns
// ErrNotConverged where a calibration cannot meet its target.
var (
	ErrInput        = rdpcheck.ErrInput
	ErrTooLarge     = rdpcheck.ErrTooLarge
	ErrNotConverged = rdpcheck.ErrNotConverged
)

// pkgName is the Pkg of every InputError this package returns.
const pkgName = "fast"

func inputErr(fn, arg string, v float64, msg string) error {
	return rdpcheck.NewInputError(pkgName, fn, arg, v, msg)
}
