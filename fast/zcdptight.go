package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/carry"
)

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

// Tight zCDP parameters of eps-DP mechanisms (Harrison and Manurangsi 2025,
// arXiv 2510.25746; see reference/zcdptight.go for the statements, their
// provenance and how they were checked). Each is a short chain of float64
// operations carried with its error bound (carry.Val) and rounded up by it, so it
// is never below the exact value.
//
// Accuracy (go test ./fast -run TestTightZCDPAccuracySweep -v, against the
// reference at 64 bits, eps from 5e-324 to 1e300 in three regions): max
// relative error 3.9e-15 (BoundedRangeZCDP near eps = 2), 1.7e-15 for the
// others, every value at or above the reference; results below 2^-1022
// are within 2^-1070 absolute.

// LaplaceZCDP returns an upper bound on the tight zCDP parameter of the
// eps-DP Laplace mechanism, eps + e^-eps - 1 (see reference.LaplaceZCDP),
// evaluated as em(-eps) = expm1(-eps) + eps by its Taylor series where it
// would cancel (eps <= 1).
//
// Special cases are:
//
//	LaplaceZCDP(eps=0) = 0
//	LaplaceZCDP(eps) = error for eps < 0, NaN or +Inf
func LaplaceZCDP(eps float64) (float64, error) {
	if err := checkEps("LaplaceZCDP", eps); err != nil {
		return 0, err
	}
	if eps == 0 {
		return 0, nil
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.5), nil
	}
	return carry.EmExact(-eps).UpNonNeg(), nil
}

// ratioKLUp returns an upper bound on x m/(m + k t), m = -expm1(-h), t =
// e^-h, h > 0 given as a carry.Val, x > 0 exact: every term positive, no
// cancellation, no overflow.
func ratioKLUp(x float64, h carry.Val, k float64) float64 {
	nh := carry.Neg(h)
	m := carry.Neg(carry.Expm1(nh))
	den := carry.Add(m, carry.Mul(carry.Exact(k), carry.Exp(nh)))
	return carry.Mul(carry.Exact(x), carry.Div(m, den)).UpNonNeg()
}

// KaryRRZCDP returns an upper bound on the tight zCDP parameter of eps-DP
// k-ary randomized response, k = buckets <= 6: eps (e^eps - 1)/(e^eps + k -
// 1) (see reference.KaryRRZCDP; for k >= 7 that value is not a zCDP bound).
//
// Special cases are:
//
//	KaryRRZCDP(eps=0, buckets) = 0
//	KaryRRZCDP(eps, buckets) = error for eps < 0, NaN or +Inf, buckets not
//	    an integer in [2, 6]
func KaryRRZCDP(eps, buckets float64) (float64, error) {
	const fn = "KaryRRZCDP"
	if err := checkEps(fn, eps); err != nil {
		return 0, err
	}
	if math.IsNaN(buckets) || buckets != math.Trunc(buckets) || buckets < 2 || buckets > 6 {
		return 0, inputErr(fn, "buckets", buckets, "must be an integer in [2, 6] (the tight value is known for k <= 6 only)")
	}
	if eps == 0 {
		return 0, nil
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 1/buckets), nil
	}
	return ratioKLUp(eps, carry.Exact(eps), buckets), nil
}

// RAPPORZCDP returns an upper bound on the tight zCDP parameter of eps-DP
// basic RAPPOR, eps tanh(eps/4) (see reference.RAPPORZCDP).
//
// Special cases are:
//
//	RAPPORZCDP(eps=0) = 0
//	RAPPORZCDP(eps) = error for eps < 0, NaN or +Inf
func RAPPORZCDP(eps float64) (float64, error) {
	if err := checkEps("RAPPORZCDP", eps); err != nil {
		return 0, err
	}
	if eps == 0 {
		return 0, nil
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.25), nil
	}
	return ratioKLUp(eps, carry.Half(eps), 2), nil // tanh(h/2) = m/(m + 2t) at h = eps/2
}

// BoundedRangeZCDP returns an upper bound on the tight zCDP parameter of
// the worst-case eps-bounded-range mechanism, c - 1 - log c with c =
// eps/(1 - e^-eps) (see reference.BoundedRangeZCDP). Up to eps = 2 it is
// the alpha -> 1 part of ExponentialMechanism (emK: v - 1 - log v, v =
// eps/expm1(eps), the same value); above, c >= 2 is formed directly, where
// c - 1 - log c >= 1 - log 2 loses under 4 bits and expm1(eps) would
// overflow from eps = 710 on.
//
// Special cases are:
//
//	BoundedRangeZCDP(eps=0) = 0
//	BoundedRangeZCDP(eps) = error for eps < 0, NaN or +Inf
func BoundedRangeZCDP(eps float64) (float64, error) {
	if err := checkEps("BoundedRangeZCDP", eps); err != nil {
		return 0, err
	}
	if eps == 0 {
		return 0, nil
	}
	if eps < tinyZCDPEps {
		return tinyZCDPUp(eps, 0.125), nil
	}
	E := carry.Exact(eps)
	if eps <= 2 {
		return emK(E).UpNonNeg(), nil
	}
	c := carry.Div(E, carry.Neg(carry.Expm1(carry.Neg(E))))
	return carry.Sub(carry.Sub(c, carry.Exact(1)), carry.Log(c)).UpNonNeg(), nil
}

// BoundedRangeEvent is an eps-bounded-range mechanism (the exponential
// mechanism) at the smaller of two valid bounds at each order: the tight
// zCDP line BoundedRangeZCDP(eps) alpha (Harrison and Manurangsi 2025) and
// the tight pure-DP curve PureDP(eps, alpha) (a bounded-range mechanism is
// eps-DP). Both are at or below ExponentialMechanismEvent's bound at every
// order (see the table of docs/bounds.md), so it charges less for the same
// guarantee.
//
// Special cases are:
//
//	rdp(alpha) = 0 for eps = 0
//	rdp(+Inf) = eps
//	BoundedRangeEvent(eps) = error (when evaluated) as BoundedRangeZCDP and PureDPCurve
func BoundedRangeEvent(eps float64) Event { return boundedRangeEvent{eps} }

type boundedRangeEvent struct{ eps float64 }

func (boundedRangeEvent) valueEvent() {}

func (e boundedRangeEvent) RDP(orders, out []float64) error {
	rho, err := BoundedRangeZCDP(e.eps)
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		return nil
	}
	if err := PureDPCurve(e.eps, orders, out); err != nil {
		return err
	}
	for i, alpha := range orders {
		out[i] = math.Min(out[i], carry.ScaleUp(rho, alpha)) // rho alpha rounded up; +Inf at alpha = +Inf
	}
	return nil
}

// ComposeBoundedRange adds count eps-bounded-range mechanisms:
// Compose(BoundedRangeEvent(eps), count).
func (a *Accountant) ComposeBoundedRange(eps float64, count int) error {
	return a.Compose(BoundedRangeEvent(eps), count)
}
