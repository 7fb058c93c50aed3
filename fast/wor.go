package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/wor"
)

// Subsampling without replacement: the bounds of Wang, Balle and
// Kasiviswanathan 2019 (arXiv 1808.00087; WBK19). reference/wor.go states
// the theorems; the Method comment of WORGaussian (how the forward
// differences are taken without cancellation, and every error bounded) is
// in internal/wor/gaussian.go, the engine this file hands valid arguments
// to.

// WORGaussian returns the upper bound of WBK19, Theorem 27, for the
// Gaussian mechanism (noise sigma, l2-sensitivity 1) sampled without
// replacement with ratio q, replace-one neighbours: reference.WORGaussian
// in float64, never below it (see the Method comment in this file for how
// the forward differences are taken without cancellation and how every
// error is bounded). Measured accuracy: within 1e-12 relative of the
// reference for q in [1e-10, 1], sigma in [0.3, 100], integer orders up to
// 1024 and fractional orders up to 256 (go test ./fast -run
// TestWORAccuracySweep -v).
//
// Special cases are:
//
//	WORGaussian(q=0, sigma, alpha) = 0
//	WORGaussian(q=1, sigma, alpha) = Gaussian(sigma, alpha)
//	WORGaussian(q, sigma, alpha=+Inf) = +Inf for q > 0
//	WORGaussian(q, sigma, alpha=1) = WORGaussian(q, sigma, 2)
//	WORGaussian(q, sigma, alpha) = error wrapping ErrTooLarge for alpha > rdpcheck.MaxWOROrder,
//	    or n(n-1)/(2 sigma^2) > rdpcheck.MaxWORExponent (n = 2 ceil(alpha/2), tiny sigma), 0 < q < 1
//	WORGaussian(q, sigma, alpha) = error for q outside [0, 1], sigma <= 0 or ±Inf, alpha < 1, any NaN
func WORGaussian(q, sigma, alpha float64) (float64, error) {
	var out [1]float64
	err := worGaussianCurve("WORGaussian", q, sigma, 1, []float64{alpha}, out[:])
	return out[0], err
}

// WORGaussianCurve writes steps times WORGaussian(q, sigma, alpha) for
// each order into out (len(out) >= len(orders)), sharing the forward
// differences; it allocates nothing.
//
// Slices: out may be the same slice as orders, or overlap it.
func WORGaussianCurve(q, sigma float64, steps int, orders, out []float64) error {
	return worGaussianCurve("WORGaussianCurve", q, sigma, steps, orders, out)
}

func worGaussianCurve(fn string, q, sigma float64, steps int, orders, out []float64) error {
	orders = unaliased(orders, out)
	if steps <= 0 {
		return inputErr(fn, "steps", float64(steps), "must be positive")
	}
	if len(out) < len(orders) {
		return inputErr(fn, "out", float64(len(out)), "must be at least as long as orders")
	}
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	for _, a := range orders {
		if math.IsNaN(a) || a < 1 {
			return inputErr(fn, "alpha", a, "order must be >= 1 (or +Inf)")
		}
		if !math.IsInf(a, 1) {
			if a <= rdpcheck.MaxWOROrder && wor.BeyondExponent(q, sigma, a) {
				return fmt.Errorf("fast.%s: sigma %v at order %v: moments beyond rdpcheck.MaxWORExponent: %w", fn, sigma, a, ErrTooLarge)
			}
			if a > rdpcheck.MaxWOROrder {
				return fmt.Errorf("fast.%s: order %v above rdpcheck.MaxWOROrder = %d: %w", fn, a, rdpcheck.MaxWOROrder, ErrTooLarge)
			}
		}
	}
	return wor.GaussianCurve(q, sigma, steps, orders, out)
}

// WORBound returns the general upper bound of WBK19, Theorem 9, for a base
// mechanism with RDP curve base sampled without replacement with ratio q,
// replace-one neighbours: reference.WORBound in float64, never below it.
// Every term of A is formed in the log as an upper bound (j ln q and
// ln C(alpha, j) in double-double) and A is summed as in WORGaussian.
//
// Special cases are:
//
//	WORBound(q=0, alpha, base) = 0
//	WORBound(q, alpha, base) = 0 if base.Inf = 0, or alpha <= 2 and eps(2) = 0
//	WORBound(q=1, alpha, base) = base at integer alpha; the Corollary 10 interpolation otherwise
//	WORBound(q, alpha=+Inf, base) = +Inf for q > 0
//	WORBound(q, alpha, base) = +Inf for q > 0 if an entry of base up to ceil(alpha) is +Inf
//	WORBound(q, alpha, base) = error wrapping ErrTooLarge for alpha > rdpcheck.MaxWOROrder,
//	    or (j-1) eps(j) > rdpcheck.MaxWORExponent for some j <= ceil(alpha), 0 < q < 1
//	WORBound(q, alpha, base) = error for q outside [0, 1], alpha < 1, any NaN, a base without
//	    the orders 2..ceil(alpha), negative entries, or a finite base.Inf below an entry
//
// Slices: base.Eps is only read.
func WORBound(q, alpha float64, base rdpcheck.BaseCurve) (float64, error) {
	const fn = "WORBound"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(alpha) || alpha < 1 {
		return 0, inputErr(fn, "alpha", alpha, "order must be >= 1 (or +Inf)")
	}
	if !math.IsInf(alpha, 1) && alpha > rdpcheck.MaxWOROrder {
		return 0, fmt.Errorf("fast.%s: order %v above rdpcheck.MaxWOROrder = %d: %w", fn, alpha, rdpcheck.MaxWOROrder, ErrTooLarge)
	}
	if math.IsNaN(base.Inf) || base.Inf < 0 {
		return 0, inputErr(fn, "base.Inf", base.Inf, "must be >= 0 (or +Inf where unknown)")
	}
	top := 2
	if !math.IsInf(alpha, 1) {
		top = max(2, int(math.Ceil(alpha)))
	}
	if len(base.Eps) < top-1 {
		return 0, inputErr(fn, "base.Eps", float64(len(base.Eps)), fmt.Sprintf("must hold the orders 2..%d (%d entries)", top, top-1))
	}
	for k, e := range base.Eps {
		if math.IsNaN(e) || e < 0 {
			return 0, inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), e, "must be >= 0 (or +Inf)")
		}
		if e > base.Inf {
			return 0, inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), e, "must not exceed base.Inf (RDP is non-decreasing in the order)")
		}
	}
	switch {
	case q == 0 || base.Inf == 0 || (top == 2 && base.Eps[0] == 0):
		return 0, nil
	case math.IsInf(alpha, 1):
		return math.Inf(1), nil
	}
	for _, e := range base.Eps[:top-1] {
		if math.IsInf(e, 1) {
			return math.Inf(1), nil
		}
	}
	if q < 1 { // the reference's limit (big.Float's range), the same float64 test
		for j := 2; j <= top; j++ {
			if float64(j-1)*base.Eps[j-2] > rdpcheck.MaxWORExponent {
				return 0, fmt.Errorf("fast.%s: (j-1) eps(j) at order %d beyond rdpcheck.MaxWORExponent: %w", fn, j, ErrTooLarge)
			}
		}
	}
	return wor.Bound(q, alpha, base), nil
}
