package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/puredp"
)

// Tight zCDP parameters of eps-DP mechanisms (Harrison and Manurangsi 2025,
// arXiv 2510.25746; see reference/zcdptight.go for the statements, their
// provenance and how they were checked). Each is a short chain of float64
// operations carried with its error bound (errfloat.Val) and rounded up by it, so it
// is never below the exact value; the chains are in internal/puredp/zcdp.go.
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
	return puredp.LaplaceZCDP(eps), nil
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
	return puredp.KaryRRZCDP(eps, buckets), nil
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
	return puredp.RAPPORZCDP(eps), nil
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
	return puredp.BoundedRangeZCDP(eps), nil
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
	orders = unaliased(orders, out)
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
		out[i] = math.Min(out[i], errfloat.ScaleUp(rho, alpha)) // rho alpha rounded up; +Inf at alpha = +Inf
	}
	return nil
}

// ComposeBoundedRange adds count eps-bounded-range mechanisms:
// Compose(BoundedRangeEvent(eps), count).
func (a *Accountant) ComposeBoundedRange(eps float64, count int) error {
	return a.Compose(BoundedRangeEvent(eps), count)
}
