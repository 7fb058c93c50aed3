package oracles

import (
	"errors"
	"fmt"

	"github.com/rdpcheck/rdpcheck"
)

// InputError reports an argument outside a function's domain. It is always
// returned, never panicked. It is rdpcheck.InputError, the type fast and
// reference return too (a shared error type, no shared numerics: package
// rdp holds no computation), so errors.Is(err, rdpcheck.ErrInput) holds for
// every one; its Pkg is "oracles".
type InputError = rdpcheck.InputError

func inErr(fn, arg string, v float64, msg string) error {
	return rdpcheck.NewInputError("oracles", fn, arg, v, msg)
}

// ErrNotConverged is wrapped by errors of quadratures whose error estimate
// did not reach the target within the node budget.
var ErrNotConverged = errors.New("oracles: quadrature did not converge")

// ErrUnsupported is wrapped by errors for inputs that are valid but outside
// the range an oracle is built for (its cost or exponent range would blow
// up).
var ErrUnsupported = errors.New("oracles: input outside the supported range")

// ErrInfinite is wrapped by the error returned when a discrete moment is
// +Inf (some q_i = 0 while p_i > 0).
var ErrInfinite = errors.New("oracles: divergence is +Inf")

const (
	minPrec = 53
	maxPrec = 1 << 14
)

func checkPrec(fn string, prec uint) error {
	if prec < minPrec || prec > maxPrec {
		return inErr(fn, "prec", float64(prec), fmt.Sprintf("must be in [%d, %d]", minPrec, maxPrec))
	}
	return nil
}
