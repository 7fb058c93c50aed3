package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/puredp"
)

// Events beyond the Gaussian family: k-ary randomized response, the tight
// curve of pure DP, zCDP lines, the exponential mechanism's bounded-range
// bound and group privacy. See reference/events.go for the mathematics;
// internal/puredp evaluates the same closed forms in float64 with a
// carried error bound (errfloat.Val) and rounds up by it, and this file
// checks the arguments.
//
// Accuracy (TestEventsAccuracySweep, against the reference at 64 bits):
// within 1e-12 relative of the reference (measured: below 4e-14), never
// below it, for noise in [1e-12, 1-1e-12], buckets in [2, 1e6], eps in
// [1e-8, 50], the default orders and orders 1+1e-8 to 1.05 (and +Inf);
// elsewhere the results are still upper bounds (the carried bound is
// rigorous), only less tight.
//
// Speed (BenchmarkEventCurves): the curve forms (KaryRandomizedResponseCurve,
// PureDPCurve, ExponentialMechanismCurve) compute the order-free parts once
// and allocate nothing.

// Relations of KaryRandomizedResponse (see reference.ReplaceOne).
const (
	ReplaceOne     = "replace-one"
	ReplaceSpecial = "replace-special"
)

func checkNoise(fn string, noise, buckets float64, relation string) error {
	if math.IsNaN(noise) || noise < 0 || noise > 1 {
		return inputErr(fn, "noise", noise, "must be in [0, 1]")
	}
	if math.IsNaN(buckets) || buckets < 2 || buckets > 1<<53 || buckets != math.Trunc(buckets) {
		return inputErr(fn, "buckets", buckets, "must be an integer in [2, 2^53]")
	}
	if relation != ReplaceOne && relation != ReplaceSpecial {
		return inputErr(fn, "relation", math.NaN(), "must be \"replace-one\" or \"replace-special\"")
	}
	return nil
}

// KaryRandomizedResponse returns an upper bound on the RDP of k-ary
// randomized response (k = buckets; the true bucket is kept with
// probability 1 - noise, else a uniform bucket is output) under relation
// ReplaceOne or ReplaceSpecial; see reference.KaryRandomizedResponse for
// the closed forms (dp_accounting's RandomizedResponseDpEvent).
//
// Special cases are:
//
//	KaryRandomizedResponse(noise=1, ...) = 0
//	KaryRandomizedResponse(noise=0, ...) = +Inf
//	KaryRandomizedResponse(..., alpha=+Inf) = log(k/noise - k + 1) (replace-one),
//	    max(log(k(1-noise)+noise), -log noise) (replace-special)
//	KaryRandomizedResponse(...) = error for noise outside [0, 1], buckets
//	    < 2, above 2^53 or not an integer, an unknown relation, alpha <= 1,
//	    NaN or above MaxIntegerOrder
//
// Accuracy: see the file comment.
func KaryRandomizedResponse(noise, buckets float64, relation string, alpha float64) (float64, error) {
	const fn = "KaryRandomizedResponse"
	if err := checkNoise(fn, noise, buckets, relation); err != nil {
		return 0, err
	}
	if err := checkOrder(fn, alpha); err != nil {
		return 0, err
	}
	k := puredp.NewKaryRR(noise, buckets, relation == ReplaceSpecial)
	return k.At(alpha), nil
}

// checkCurveOut checks a curve function's orders and output slice.
func checkCurveOut(fn string, orders, out []float64) error {
	if len(orders) == 0 || len(out) != len(orders) {
		return inputErr(fn, "orders, out", math.NaN(), "must be non-empty and of equal length")
	}
	for _, a := range orders {
		if err := checkOrder(fn, a); err != nil {
			return err
		}
	}
	return nil
}

// KaryRandomizedResponseCurve writes KaryRandomizedResponse(noise,
// buckets, relation, orders[i]) into out[i], computing the order-free
// parts (the class weights, their logs and log ratios) once: the same
// operations, so the same values.
//
// Special cases and errors are those of KaryRandomizedResponse, and an
// error for empty orders or len(out) != len(orders).
//
// Slices: out may be the same slice as orders, or overlap it.
func KaryRandomizedResponseCurve(noise, buckets float64, relation string, orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "KaryRandomizedResponseCurve"
	if err := checkNoise(fn, noise, buckets, relation); err != nil {
		return err
	}
	if err := checkCurveOut(fn, orders, out); err != nil {
		return err
	}
	k := puredp.NewKaryRR(noise, buckets, relation == ReplaceSpecial)
	for i, a := range orders {
		out[i] = k.At(a)
	}
	return nil
}

func checkEps(fn string, eps float64) error {
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return inputErr(fn, "eps", eps, "must be finite and >= 0")
	}
	return nil
}

// PureDP returns an upper bound on the tight RDP of any eps-DP mechanism,
// binary randomized response's curve
//
//	1/(alpha-1) log( (e^(alpha eps) + e^((1-alpha) eps)) / (1 + e^eps) )
//
// (see reference.PureDP for why it holds for every eps-DP mechanism).
//
// Special cases are:
//
//	PureDP(eps=0, alpha) = 0
//	PureDP(eps, alpha=+Inf) = eps
//	PureDP(eps, alpha) = error for eps < 0, NaN or +Inf, alpha <= 1, NaN
//	    or above MaxIntegerOrder
//
// Accuracy: see the file comment.
func PureDP(eps, alpha float64) (float64, error) {
	const fn = "PureDP"
	if err := checkEps(fn, eps); err != nil {
		return 0, err
	}
	if err := checkOrder(fn, alpha); err != nil {
		return 0, err
	}
	return puredp.Tight(eps, alpha), nil
}

// ZCDP returns an upper bound on xi + rho alpha, the RDP line of (xi,
// rho)-zCDP (Bun and Steinke 2016, Definition 1.1), rounded up by 1 ulp.
//
// Special cases are:
//
//	ZCDP(rho=0, xi, alpha) = xi (alpha = +Inf included)
//	ZCDP(rho>0, xi, alpha=+Inf) = +Inf
//	ZCDP(rho, xi, alpha) = error for rho or xi < 0, NaN or +Inf, alpha <= 1,
//	    NaN or above MaxIntegerOrder
func ZCDP(rho, xi, alpha float64) (float64, error) {
	const fn = "ZCDP"
	if math.IsNaN(rho) || rho < 0 || math.IsInf(rho, 1) {
		return 0, inputErr(fn, "rho", rho, "must be finite and >= 0")
	}
	if math.IsNaN(xi) || xi < 0 || math.IsInf(xi, 1) {
		return 0, inputErr(fn, "xi", xi, "must be finite and >= 0")
	}
	if err := checkOrder(fn, alpha); err != nil {
		return 0, err
	}
	if rho == 0 {
		return xi, nil
	}
	// one rounding of the fused product-sum; a subnormal rho alpha adds at
	// most 2^-1074 more
	v := math.FMA(rho, alpha, xi)
	if math.IsInf(v, 1) {
		return v, nil
	}
	return math.Nextafter(v+errfloat.SubnormalErr(rho*alpha), math.Inf(1)), nil
}

// ExponentialMechanism returns an upper bound on dp_accounting's RDP bound
// for the exponential mechanism (an eps-bounded-range mechanism, Cesar and
// Rogers 2021, section 3), min(xi + eps^2 alpha/8, eps) with xi =
// eps/expm1(eps) - 1 - log(eps/expm1(eps)) - eps^2/8; see
// reference.ExponentialMechanism. Evaluated as K + eps^2 (alpha-1)/8 with
// K = -(log1p(-u) + u) and u = em(eps)/expm1(eps): no step cancels, so eps
// down to 1e-8 (and below) keeps full accuracy.
//
// Special cases are:
//
//	ExponentialMechanism(eps=0, alpha) = 0
//	ExponentialMechanism(eps, alpha=+Inf) = eps
//	ExponentialMechanism(eps, alpha) = error for eps < 0, NaN or +Inf,
//	    alpha <= 1, NaN or above MaxIntegerOrder
func ExponentialMechanism(eps, alpha float64) (float64, error) {
	const fn = "ExponentialMechanism"
	if err := checkEps(fn, eps); err != nil {
		return 0, err
	}
	if err := checkOrder(fn, alpha); err != nil {
		return 0, err
	}
	return puredp.ExponentialMechanism(eps, alpha), nil
}

// GroupPrivacy returns an upper bound on the RDP at order alpha for groups
// of 2^c records, from the curve (orders, rdp) of a mechanism for single
// records (Mironov 2017, Proposition 2; see reference.GroupPrivacy): 3^c
// times the smallest rdp at an order >= 2^c alpha, and 2^c rdp(+Inf) at
// alpha = +Inf (pure DP's group privacy).
//
// Special cases are:
//
//	GroupPrivacy(orders, rdp, c, alpha) = +Inf where the chosen rdp is +Inf
//	GroupPrivacy(...) = error for empty or mismatched lists, an order <= 1
//	    or NaN, an rdp < 0 or NaN, c < 0 or c > 30, alpha < 2 (c > 0), alpha
//	    <= 1 or NaN, no curve order >= 2^c alpha
//
// Accuracy: the product is rounded up by 1 ulp (3^c, c <= 30, is exact);
// 2^c rdp(+Inf) is exact.
//
// Slices: orders and rdp are only read (they may be one slice).
func GroupPrivacy(orders, rdp []float64, c int, alpha float64) (float64, error) {
	const fn = "GroupPrivacy"
	if err := checkCurve(fn, orders, rdp, Classic); err != nil {
		return 0, err
	}
	if c < 0 || c > 30 {
		return 0, inputErr(fn, "c", float64(c), "must be an integer in [0, 30]")
	}
	if math.IsNaN(alpha) || alpha <= 1 {
		return 0, inputErr(fn, "alpha", alpha, "must be > 1 (or +Inf)")
	}
	if c > 0 && alpha < 2 {
		return 0, inputErr(fn, "alpha", alpha, "must be >= 2 (Mironov 2017, Prop 2: 2^c alpha >= 2^(c+1))")
	}
	need := math.Ldexp(alpha, c)
	best := math.NaN()
	for i, o := range orders {
		if o >= need && !(rdp[i] >= best) {
			best = rdp[i]
		}
	}
	if math.IsNaN(best) {
		return 0, inputErr(fn, "orders", need, "no order >= 2^c alpha: the curve does not cover the order the theorem needs")
	}
	if math.IsInf(alpha, 1) && (best == 0 || best >= 0x1p-1022) {
		return math.Ldexp(best, c), nil // exact (or +Inf)
	}
	f := math.Pow(3, float64(c)) // exact: 3^30 < 2^53
	if math.IsInf(alpha, 1) {
		f = math.Ldexp(1, c)
	}
	return errfloat.ScaleUp(best, f), nil
}

// ExponentialMechanismCurve writes ExponentialMechanism(eps, orders[i])
// into out[i], computing the order-free part K once.
//
// Special cases and errors are those of ExponentialMechanism, and an error
// for empty orders or len(out) != len(orders).
//
// Slices: out may be the same slice as orders, or overlap it.
func ExponentialMechanismCurve(eps float64, orders, out []float64) error {
	orders = unaliased(orders, out)
	const fn = "ExponentialMechanismCurve"
	if err := checkEps(fn, eps); err != nil {
		return err
	}
	if len(orders) == 0 || len(out) != len(orders) {
		return inputErr(fn, "orders, out", math.NaN(), "must be non-empty and of equal length")
	}
	for _, a := range orders {
		if err := checkOrder(fn, a); err != nil {
			return err
		}
	}
	puredp.ExponentialMechanismCurve(eps, orders, out)
	return nil
}
