package puredp

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Tight zCDP parameters of eps-DP mechanisms (Harrison and Manurangsi
// 2025), for eps >= 0 finite; fast/zcdptight.go states their accuracy.

// tinyZCDPEps is the eps below which each parameter is c eps^2 (1 + r) with
// |r| <= eps <= 2^-500, c = 1/2 (Laplace), 1/k (k-ary RR), 1/4 (RAPPOR),
// 1/8 (bounded range): the leading Taylor term, at and below 2^-1000,
// where the general evaluations underflow (emK's quotient gives 0 there,
// and +Inf at eps = 5e-324).
const tinyZCDPEps = 0x1p-500

// tinyZCDPUp returns an upper bound on c eps^2 (1 + r), |r| <= 2^-500: the
// product's two or three roundings (each 1/2 ulp, or 2^-1075 in the
// subnormals) and r (far below an ulp) are covered by 3 ulps up and
// 2^-1073.
func tinyZCDPUp(eps, c float64) float64 {
	v := eps*c*eps + 0x1p-1073
	for range 3 {
		v = math.Nextafter(v, math.Inf(1))
	}
	return v
}

// ratioKLUp returns an upper bound on x m/(m + k t), m = -expm1(-h), t =
// e^-h, h > 0 given as a errfloat.Val, x > 0 exact: every term positive, no
// cancellation, no overflow.
func ratioKLUp(x float64, h errfloat.Val, k float64) float64 {
	nh := errfloat.Neg(h)
	m := errfloat.Neg(errfloat.Expm1(nh))
	den := errfloat.Add(m, errfloat.Mul(errfloat.Exact(k), errfloat.Exp(nh)))
	return errfloat.Mul(errfloat.Exact(x), errfloat.Div(m, den)).UpNonNeg()
}

// LaplaceZCDP is fast.LaplaceZCDP for valid input.
func LaplaceZCDP(eps float64) float64 {
	if eps == 0 {
		return 0
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.5)
	}
	return errfloat.EmExact(-eps).UpNonNeg()
}

// KaryRRZCDP is fast.KaryRRZCDP for valid input (buckets an integer in
// [2, 6]).
func KaryRRZCDP(eps, buckets float64) float64 {
	if eps == 0 {
		return 0
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 1/buckets)
	}
	return ratioKLUp(eps, errfloat.Exact(eps), buckets)
}

// RAPPORZCDP is fast.RAPPORZCDP for valid input.
func RAPPORZCDP(eps float64) float64 {
	if eps == 0 {
		return 0
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.25)
	}
	return ratioKLUp(eps, errfloat.Half(eps), 2) // tanh(h/2) = m/(m + 2t) at h = eps/2
}

// BoundedRangeZCDP is fast.BoundedRangeZCDP for valid input.
func BoundedRangeZCDP(eps float64) float64 {
	if eps == 0 {
		return 0
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.125)
	}
	E := errfloat.Exact(eps)
	if eps <= 2 {
		return emK(E).UpNonNeg()
	}
	c := errfloat.Div(E, errfloat.Neg(errfloat.Expm1(errfloat.Neg(E))))
	return errfloat.Sub(errfloat.Sub(c, errfloat.Exact(1)), errfloat.Log(c)).UpNonNeg()
}
