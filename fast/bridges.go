package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/convert"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/puredp"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// ZCDPEpsilon returns the (eps, delta)-DP guarantee of rho-zCDP by Bun and
// Steinke 2016, Prop 1.3: eps = rho + 2 sqrt(rho log(1/delta)). It equals
// the classic RDP conversion of the line rdp(alpha) = rho alpha minimised
// over all real alpha > 1 (at alpha = 1 + sqrt(log(1/delta)/rho)).
//
// Special cases are:
//
//	ZCDPEpsilon(rho=0, delta) = 0
//	ZCDPEpsilon(rho=+Inf, delta) = +Inf
//	ZCDPEpsilon(rho, delta) = error for rho < 0 or NaN, delta outside (0,1)
//
// Accuracy: rounded up by 8 ulps.
func ZCDPEpsilon(rho, delta float64) (float64, error) {
	if err := checkRhoDelta("ZCDPEpsilon", rho, delta); err != nil {
		return 0, err
	}
	if rho == 0 || math.IsInf(rho, 1) {
		return rho, nil
	}
	return errfloat.RoundUp(rho+2*math.Sqrt(rho*-xmath.Log(delta)), 8*errfloat.Unit), nil
}

func checkRhoDelta(fn string, rho, delta float64) error {
	if math.IsNaN(rho) || rho < 0 {
		return inputErr(fn, "rho", rho, "must be >= 0")
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return inputErr(fn, "delta", delta, "must be in (0, 1)")
	}
	return nil
}

// ZCDPEpsilonRDP returns the tighter (eps, delta) guarantee of rho-zCDP
// through the improved conversion (Canonne, Kamath, Steinke 2020) of the
// RDP line rho alpha, minimised over real alpha > 1, and the order used:
//
//	eps = min_alpha rho alpha + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1), floored at 0.
//
// The objective is convex in alpha on the bracket searched; the minimum
// is located by golden-section search to a relative 1e-9 in alpha, which
// changes eps by far less than 1e-15 relative near the minimum. The value
// returned is the objective at the order returned, rounded up, so it is a
// valid guarantee whatever the search precision.
//
// Special cases are:
//
//	ZCDPEpsilonRDP(rho=0, delta) = 0, order +Inf
//	ZCDPEpsilonRDP(rho, delta) = error for rho < 0, NaN or +Inf, delta outside (0,1)
func ZCDPEpsilonRDP(rho, delta float64) (eps, order float64, err error) {
	if err := checkRhoDelta("ZCDPEpsilonRDP", rho, delta); err != nil {
		return 0, 0, err
	}
	if math.IsInf(rho, 1) {
		return 0, 0, inputErr("ZCDPEpsilonRDP", "rho", rho, "must be finite")
	}
	if rho == 0 {
		return 0, math.Inf(1), nil
	}
	eps, order = convert.ZCDPLine(rho, xmath.Log(delta))
	return eps, order, nil
}

// PureDPCurve writes PureDP(eps, orders[i]) into out[i]: the tight RDP
// curve of any pure eps-DP mechanism, binary randomized response's (see
// PureDP), with its order-free parts computed once. (It once
// wrote the looser min(eps, alpha eps^2/2) of Mironov 2017, Prop 3 with
// Bun-Steinke 2016, Prop 1.4: 1 instead of 0.735 at eps = 1, alpha = 2.)
//
// Special cases are:
//
//	PureDPCurve(eps=0, ...) = 0 at every order, +Inf included
//	PureDPCurve(eps, ...) = eps at alpha = +Inf
//	PureDPCurve(eps, ...) = error for eps < 0, NaN or +Inf, orders <= 1 or
//	    NaN, len(out) != len(orders), empty orders
//
// Accuracy: that of PureDP (the same operations, so the same values).
//
// Slices: out may be the same slice as orders, or overlap it.
func PureDPCurve(eps float64, orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "PureDPCurve"
	if err := checkEps(fn, eps); err != nil {
		return err
	}
	if err := checkCurveOut(fn, orders, out); err != nil {
		return err
	}
	puredp.TightCurve(eps, orders, out)
	return nil
}

// AdvancedComposition returns the eps' of the k-fold adaptive composition
// of eps-DP mechanisms by Dwork, Rothblum, Vadhan 2010 (Kairouz et al.
// form): eps' = sqrt(2k log(1/delta')) eps + k eps (e^eps - 1), with total
// delta k delta + delta' for (eps, delta) mechanisms.
//
// Special cases are:
//
//	AdvancedComposition(eps=0, k, delta') = 0
//	AdvancedComposition(eps, k, delta') = error for eps < 0, NaN or +Inf, k <= 0, delta' outside (0,1)
//
// Accuracy: rounded up by 16 ulps.
func AdvancedComposition(eps float64, k int, deltaPrime float64) (float64, error) {
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return 0, inputErr("AdvancedComposition", "eps", eps, "must be finite and >= 0")
	}
	if k <= 0 {
		return 0, inputErr("AdvancedComposition", "k", float64(k), "must be > 0")
	}
	if math.IsNaN(deltaPrime) || deltaPrime <= 0 || deltaPrime >= 1 {
		return 0, inputErr("AdvancedComposition", "deltaPrime", deltaPrime, "must be in (0, 1)")
	}
	fk := float64(k)
	v := math.Sqrt(2*fk*-xmath.Log(deltaPrime))*eps + fk*eps*math.Expm1(eps)
	return errfloat.RoundUp(v, 16*errfloat.Unit), nil
}
