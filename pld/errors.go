package pld

import (
	"errors"
	"math"

	"github.com/rdpcheck/rdpcheck"
)

// InputError reports an argument outside a function's domain; it is
// rdpcheck.InputError, shared with the other packages of rdpcheck, and its Pkg
// is "pld". errors.Is(err, ErrInput) matches every one.
type InputError = rdpcheck.InputError

// The error kinds are package rdpcheck's.
var (
	// ErrInput is wrapped by every *InputError.
	ErrInput = rdpcheck.ErrInput
	// ErrTooLarge is wrapped by the error returned for runs whose grid
	// would exceed the supported size (see Options.MaxGrid).
	ErrTooLarge = rdpcheck.ErrTooLarge
	// ErrPrecision is wrapped by the error returned when the certified
	// interval cannot be made as narrow as Options.Width asks within
	// Options.MaxGrid; the wider interval is returned with it, still
	// certified.
	ErrPrecision = rdpcheck.ErrPrecision
)

// ErrUnsupported is wrapped by the error for an event (or a relation of
// it) whose privacy loss distribution pld does not know: an
// *UnsupportedError, which names the event.
var ErrUnsupported = errors.New("not supported")

// UnsupportedError reports an event pld cannot account (or not under the
// relation asked), and why. errors.Is(err, ErrUnsupported) matches it.
type UnsupportedError struct {
	Event string // the event, e.g. "Laplace(b=1)"
	Msg   string // why
}

func (e *UnsupportedError) Error() string { return pkgName + ": " + e.Event + ": " + e.Msg }
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

const pkgName = "pld"

func inputErr(fn, arg string, v float64, msg string) error {
	return &InputError{Pkg: pkgName, Func: fn, Arg: arg, Value: v, Msg: msg}
}

type tooLargeErr struct{ fn, msg string }

func (e *tooLargeErr) Error() string { return pkgName + "." + e.fn + ": " + e.msg }
func (e *tooLargeErr) Unwrap() error { return ErrTooLarge }

type precisionErr struct{ fn, msg string }

func (e *precisionErr) Error() string { return pkgName + "." + e.fn + ": " + e.msg }
func (e *precisionErr) Unwrap() error { return ErrPrecision }

// checkDelta accepts delta in (0, 1].
func checkDelta(fn string, delta float64) error {
	if !(delta > 0 && delta <= 1) {
		return inputErr(fn, "delta", delta, "must be in (0, 1]")
	}
	return nil
}

// checkEps accepts any eps that is not NaN (eps may be negative: the
// profile is defined for every real eps; +Inf gives 0).
func checkEps(fn string, eps float64) error {
	if math.IsNaN(eps) {
		return inputErr(fn, "eps", eps, "must not be NaN")
	}
	return nil
}

func checkSigma(fn string, sigma float64) error {
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	return nil
}

func checkCount(fn string, n int) error {
	if n < 1 {
		return inputErr(fn, "count", float64(n), "must be >= 1")
	}
	return nil
}
