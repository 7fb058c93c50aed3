package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/discretegauss"
)

// DiscreteGaussian returns the Rényi divergence of order alpha between the
// discrete Gaussians N_Z(0, sigma^2) and N_Z(sensitivity, sigma^2), for an
// integer sensitivity D (Canonne, Kamath, Steinke 2020, arXiv 2004.00010):
// the exact value (see reference.DiscreteGaussian for the derivation),
//
//	alpha D^2/(2 sigma^2) + log(theta(f)/theta(0))/(alpha-1),  f = dist(alpha D, Z),
//
// theta(t) = sum_x exp(-(x-t)^2/(2 sigma^2)), evaluated so that no step
// cancels by more than a small factor:
//
//   - sigma <= 1/2: log(theta(f)/theta(0)) = -b + log1p(R), b = f^2/(2 sigma^2),
//     R = sum_{x>=1} exp(-(x^2-2xf)/(2 sigma^2)) expm1(-xf/sigma^2)^2 / S0,
//     S0 = 1 + 2 sum_{x>=1} exp(-x^2/(2 sigma^2)): positive terms; -b +
//     log1p(R) cancels by at most a factor 5 at sigma = 1/2 (log1p(R) <=
//     0.81 b there, less below).
//   - sigma > 1/2: Poisson summation, log1p(-r) with
//     r = 4 sum_k q^(k^2) sin^2(pi k f) / (1 + 2 sum_k q^(k^2)), q = e^(-2 pi^2 sigma^2) < 0.0072,
//     sin by its Taylor series with a bounded remainder.
//
// Every operation carries its error bound (errfloat.Val) and the result is rounded up
// by it, so it is never below the exact value. Orders alpha >= 2^50 return
// the zCDP line alpha D^2/(2 sigma^2), an upper bound (the divergence never
// exceeds it above order 1) within (1/(8 sigma^2) + 1)/(alpha-1) of the line.
//
// Special cases are:
//
//	DiscreteGaussian(sigma, 0, alpha) = 0
//	DiscreteGaussian(sigma, D, alpha) = alpha D^2/(2 sigma^2) (rounded up) when (1-alpha) D is an integer
//	DiscreteGaussian(sigma, D, +Inf) = +Inf for D != 0
//	DiscreteGaussian = error for sigma <= 0, +Inf or NaN, a non-integer or infinite sensitivity, alpha < 0 or NaN
//
// Accuracy: within 1e-12 relative of the reference for sigma >= 0.1 (the
// sweep in dgauss_test.go measures it), and never below it.
func DiscreteGaussian(sigma, sensitivity, alpha float64) (float64, error) {
	const fn = "DiscreteGaussian"
	if err := checkDG(fn, sigma, sensitivity); err != nil {
		return 0, err
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	p := discretegauss.NewCurve(sigma, math.Abs(sensitivity))
	return p.At(alpha), nil
}

// DiscreteGaussianCurve writes DiscreteGaussian at each order to out (no
// allocation; the order-independent sums are formed once).
//
// Slices: out may be the same slice as orders, or overlap it.
func DiscreteGaussianCurve(sigma, sensitivity float64, orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "DiscreteGaussianCurve"
	if err := checkDG(fn, sigma, sensitivity); err != nil {
		return err
	}
	if len(out) != len(orders) {
		return inputErr(fn, "out", float64(len(out)), "must have the length of orders")
	}
	for _, a := range orders {
		if err := checkAlpha(fn, a, 0); err != nil {
			return err
		}
	}
	p := discretegauss.NewCurve(sigma, math.Abs(sensitivity))
	for i, a := range orders {
		out[i] = p.At(a)
	}
	return nil
}

func checkDG(fn string, sigma, sens float64) error {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if math.IsNaN(sens) || math.IsInf(sens, 0) || sens != math.Trunc(sens) {
		return inputErr(fn, "sensitivity", sens, "must be a finite integer")
	}
	return nil
}
