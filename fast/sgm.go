package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/sgm"
)

// The SGM engine (its Method, integer and fractional orders, the curve's
// shared work) is package internal/sgm; this file checks the arguments,
// answers with fast's errors and hands valid ones to the engine.

func checkQSigma(fn string, q, sigma float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 1) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	return nil
}

func checkOrder(fn string, alpha float64) error {
	if math.IsNaN(alpha) || alpha <= 1 {
		return inputErr(fn, "alpha", alpha, "must be > 1 (or +Inf)")
	}
	if !math.IsInf(alpha, 1) && alpha > MaxIntegerOrder {
		return &tooLargeErr{fn: fn, alpha: alpha}
	}
	return nil
}

type tooLargeErr struct {
	fn    string
	alpha float64
}

func (e *tooLargeErr) Error() string {
	return "fast." + e.fn + ": alpha above MaxIntegerOrder: " + ErrTooLarge.Error()
}

func (e *tooLargeErr) Unwrap() error { return ErrTooLarge }

// quadratureErr is SGM's refusal of a fractional order below 2 that its
// quadrature cannot sum (sigma below 0.005, orders near 1): the only
// bound there, SGM at order 2, can be hundreds of times the exact value.
type quadratureErr struct {
	fn           string
	sigma, alpha float64
}

func (e *quadratureErr) Error() string {
	return fmt.Sprintf("fast.%s: alpha = %v at sigma = %v: a fractional order below 2 needs more quadrature nodes than fast sums (sigma below 0.005): %v", e.fn, e.alpha, e.sigma, ErrTooLarge)
}

func (e *quadratureErr) Unwrap() error { return ErrTooLarge }

// SGM returns the Rényi differential privacy eps(alpha) of one step of the
// Poisson-subsampled Gaussian mechanism with sampling rate q, noise
// multiplier sigma (l2-sensitivity 1, add/remove-one neighbours):
// log(E_mu0[((1-q) + q L)^alpha]) / (alpha-1), the forward divergence
// D_alpha(mu || mu0), which dominates the backward one (Mironov, Talwar,
// Zhang 2019, Thm 4/5).
//
// Special cases are:
//
//	SGM(q=0, sigma, alpha) = 0
//	SGM(q=1, sigma, alpha) = alpha/(2 sigma^2) (+Inf where it overflows)
//	SGM(q>0, sigma, alpha=+Inf) = +Inf
//	SGM(q, sigma, alpha) = alpha/(2 sigma^2) (an upper bound within 2^-60
//	of the exact value) where 2 sigma^2 |log q| <= (alpha-1) 2^-60: tiny
//	sigma; +Inf where that overflows
//	SGM(q, sigma>=1e100, alpha) = alpha q^2/(2 sigma^2) (within 1e-40 of
//	the exact value), the smallest subnormals where it underflows
//	SGM(q, sigma, alpha) = error for NaN, q outside [0,1], sigma <= 0 or
//	+Inf, alpha <= 1, alpha > MaxIntegerOrder
//	SGM(q, sigma<0.005, 1<alpha<2) = ErrTooLarge where the quadrature
//	cannot sum the order (near 1; see Accuracy)
//
// Accuracy: the result is never below the exact value and, for q in
// [1e-12, 1], sigma in [0.1, 1000], integer alpha up to 10,000 and
// fractional alpha up to 256, it is within 1e-12 relative of it (typically
// 1e-14): the computation carries an error bound and the value is rounded
// up by it. For sigma in [0.005, 0.1) the same holds within 5e-12
// (TestSGMSmallSigma: at most 3.5e-12, near order 1). Outside those ranges the result is still rounded up by its
// bound, but the bound can be loose: at fractional orders where I-1 nears
// float64's underflow (roughly q^2 alpha/(2 sigma^2) below 1e-290, e.g.
// q below 1e-145), the quadrature's absolute error (about 2^-1020 per
// node) becomes a relative one (1.3e-12 at q = 1e-145, sigma = 10,
// alpha = 1.1; 1.3% at q = 1e-150; about 1e-303 absolute where the exact
// value is below the float64 range). Fractional orders above 1024 return
// the upper bound
// ((n - alpha) (n-2) SGM(n-1) + (alpha - n + 1) (n-1) SGM(n)) / (alpha-1),
// n = ceil(alpha) (the chord of (alpha-1) SGM(alpha), which is convex in
// alpha), as do fractional orders from 2 on whose quadrature would need
// more than 65,536 nodes (sigma below 0.005). There a fractional order
// below 2 gets ErrTooLarge instead (sigma below 0.005, orders within about
// 1e-3 of 1): the chord is SGM(2) there, hundreds of times the exact
// value. The result is never negative or NaN.
func SGM(q, sigma, alpha float64) (float64, error) {
	if err := checkQSigma("SGM", q, sigma); err != nil {
		return 0, err
	}
	if err := checkOrder("SGM", alpha); err != nil {
		return 0, err
	}
	v, ok := sgm.RDP(q, sigma, alpha)
	if !ok {
		return 0, &quadratureErr{"SGM", sigma, alpha}
	}
	return v, nil
}

// SGMCurve writes steps * SGM(q, sigma, orders[i]) into out[i] (RDP
// composes additively). out must have len(orders) elements; with it
// supplied the call does not allocate. Work is shared between orders
// (the integration grid and the order-independent parts of the binomial
// terms), so a curve costs far less than len(orders) calls of SGM.
//
// Special cases and accuracy are those of SGM; steps*value is rounded up.
// Errors: as SGM, plus steps <= 0, empty orders or len(out) != len(orders).
//
// Slices: out may be the same slice as orders, or overlap it.
func SGMCurve(q, sigma float64, steps int, orders []float64, out []float64) error {
	orders = unaliased(orders, out)
	if err := checkQSigma("SGMCurve", q, sigma); err != nil {
		return err
	}
	if steps <= 0 {
		return inputErr("SGMCurve", "steps", float64(steps), "must be > 0")
	}
	if len(orders) == 0 {
		return inputErr("SGMCurve", "orders", math.NaN(), "must not be empty")
	}
	if len(out) != len(orders) {
		return inputErr("SGMCurve", "out", float64(len(out)), "must have len(orders) elements")
	}
	for _, a := range orders {
		if err := checkOrder("SGMCurve", a); err != nil {
			return err
		}
	}
	if a, ok := sgm.Curve(q, sigma, steps, orders, out); !ok {
		return &quadratureErr{"SGMCurve", sigma, a}
	}
	return nil
}
