package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/repeatselect"
)

// RepeatAndSelect returns an upper bound on the RDP at order alpha of
// running a mechanism a random number K of times and releasing the best run
// (Papernot and Steinke 2022, arXiv 2110.03620, Theorem 2 for the truncated
// negative binomial K of shape eta = shape, Theorem 6 for Poisson K, shape =
// +Inf), from the mechanism's curve rdp[i] at orders[i]; see
// reference.RepeatAndSelect for the statement and the choices (lambdahat
// over the curve, deltahat by the improved conversion and the
// total-variation bound, the smallest bound over orders >= alpha).
//
// Every term is rounded up (log(1/gamma) is verified from above: the
// computed mean there, minus its error bound, reaches the target; epshat is
// taken from below, which only enlarges deltahat and keeps Theorem 6's
// condition), so the result is never below the reference's value.
//
// Special cases are:
//
//	RepeatAndSelect = +Inf when every usable bound is +Inf
//	RepeatAndSelect = error as reference.RepeatAndSelect (mean < 1, shape < 0
//	    or NaN, empty or mismatched lists, NaN orders, negative or NaN rdp,
//	    no order covering alpha or lambdahat)
//
// Accuracy: within 1e-12 relative of the reference (dgauss_test.go's
// companion sweep, repeat_test.go).
//
// Slices: orders and rdp are only read (they may be one slice).
func RepeatAndSelect(orders, rdp []float64, mean, shape, alpha float64) (float64, error) {
	const fn = "RepeatAndSelect"
	if err := checkRepeat(fn, orders, rdp, mean, shape); err != nil {
		return 0, err
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	var b repeatselect.Bounds
	if err := b.Init(orders, rdp, mean, shape); err != nil {
		return 0, gammaErr(err)
	}
	v, ok := b.Min(orders, rdp, alpha)
	if !ok {
		return 0, inputErr(fn, "orders", alpha, "the curve has no order > 1 at or above alpha")
	}
	return v, nil
}

// RepeatAndSelectCurve writes RepeatAndSelect at each of the curve's own
// orders to out (+Inf where no order > 1 is at or above it), without
// allocating.
//
// Slices: out may be the same slice as orders or rdp, or overlap them.
func RepeatAndSelectCurve(orders, rdp []float64, mean, shape float64, out []float64) error {
	orders = unaliased(orders, out)
	rdp = unaliased(rdp, out)
	const fn = "RepeatAndSelectCurve"
	if err := checkRepeat(fn, orders, rdp, mean, shape); err != nil {
		return err
	}
	if len(out) != len(orders) {
		return inputErr(fn, "out", float64(len(out)), "must have the length of orders")
	}
	var b repeatselect.Bounds
	if err := b.Init(orders, rdp, mean, shape); err != nil {
		return gammaErr(err)
	}
	b.Curve(orders, rdp, out)
	return nil
}

func checkRepeat(fn string, orders, rdp []float64, mean, shape float64) error {
	if len(orders) == 0 || len(orders) != len(rdp) {
		return &InputError{Pkg: pkgName, Func: fn, Arg: "orders, rdp", Value: math.NaN(),
			Msg: fmt.Sprintf("must be non-empty and of equal length (have %d and %d)", len(orders), len(rdp))}
	}
	hasHat := false
	for i, a := range orders {
		if math.IsNaN(a) || a < 0 {
			return inputErr(fn, fmt.Sprintf("orders[%d]", i), a, "order must be >= 0 (or +Inf)")
		}
		if math.IsNaN(rdp[i]) || rdp[i] < 0 {
			return inputErr(fn, fmt.Sprintf("rdp[%d]", i), rdp[i], "RDP must be >= 0 (or +Inf)")
		}
		hasHat = hasHat || a >= 1
	}
	if math.IsNaN(mean) || mean < 1 || math.IsInf(mean, 1) {
		return inputErr(fn, "mean", mean, "must be finite and >= 1")
	}
	if math.IsNaN(shape) || shape < 0 {
		return inputErr(fn, "shape", shape, "must be >= 0 (+Inf for Poisson)")
	}
	if !math.IsInf(shape, 1) && !hasHat {
		return &InputError{Pkg: pkgName, Func: fn, Arg: "orders", Value: math.NaN(), Msg: "the curve has no order >= 1 for the auxiliary order lambdahat"}
	}
	return nil
}

// gammaErr names the function of the engine's error (log(1/gamma) not
// found or not verified): RepeatAndSelect from either entry point, the
// text it has always had.
func gammaErr(err error) error {
	return fmt.Errorf("fast.RepeatAndSelect: %w", err)
}
