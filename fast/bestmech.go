package fast

import "math"

// The events of this file are the Accountant's Compose forms of the
// mechanisms above, so that it can evaluate them at any order.

// SGMEvent is one step of the Poisson-sampled Gaussian mechanism (see SGM).
func SGMEvent(q, sigma float64) Event {
	return CurveFunc(func(orders, out []float64) error { return SGMCurve(q, sigma, 1, orders, out) })
}

// GaussianEvent is the Gaussian mechanism with noise multiplier sigma (see
// Gaussian).
func GaussianEvent(sigma float64) Event {
	return OrderFunc(func(a float64) (float64, error) { return Gaussian(sigma, a) })
}

// LaplaceEvent is the Laplace mechanism with scale b (see Laplace).
func LaplaceEvent(b float64) Event {
	return OrderFunc(func(a float64) (float64, error) { return Laplace(b, a) })
}

// ZCDPEvent is a (xi, rho)-zCDP mechanism (Bun and Steinke 2016, Def 1.1):
// rdp(alpha) = xi + rho alpha, an upper bound by definition.
//
// Special cases are:
//
//	rdp(+Inf) = xi for rho = 0, +Inf for rho > 0
//	ZCDPEvent(rho, xi) = error (when evaluated) for rho or xi < 0, NaN or +Inf
//
// Accuracy: rounded up by 3 ulps (the product and the sum round once each).
func ZCDPEvent(rho, xi float64) Event {
	return OrderFunc(func(a float64) (float64, error) {
		if math.IsNaN(rho) || rho < 0 || math.IsInf(rho, 1) {
			return 0, inputErr("ZCDPEvent", "rho", rho, "must be finite and >= 0")
		}
		if math.IsNaN(xi) || xi < 0 || math.IsInf(xi, 1) {
			return 0, inputErr("ZCDPEvent", "xi", xi, "must be finite and >= 0")
		}
		if err := checkOrder("ZCDPEvent", a); err != nil {
			return 0, err
		}
		if rho == 0 {
			return xi, nil // not 0*Inf at the order +Inf
		}
		return roundUp(xi+rho*a, 3*unit), nil
	})
}

// PureDPEvent is an eps-DP mechanism, at its tightest RDP: that of binary
// randomized response reporting the truth with probability
// p = e^eps/(1+e^eps). Every eps-DP mechanism is a post-processing of that
// randomized response (Kairouz, Oh, Viswanath 2015, Thm 2.4, at delta = 0),
// and Rényi divergence cannot grow under post-processing (van Erven and
// Harremoës 2014, Thm 9), so its RDP (Mironov 2017, Prop 5) bounds every
// eps-DP mechanism's and is attained. It is what dp_accounting's
// RdpAccountant composes for an EpsilonDeltaDpEvent.
//
// p is rounded up to a float64 by at most 8 ulps, which only raises the
// value (randomized response's RDP increases with p above 1/2), and the
// result is capped by the other valid bounds, min(eps, alpha eps^2/2)
// (PureDPCurve: eps is the value at the order +Inf; Bun and Steinke 2016,
// Prop 1.4, for the second).
//
// Special cases are:
//
//	rdp(alpha) = 0 for eps = 0
//	rdp(+Inf) = eps
//	PureDPEvent(eps) = error (when evaluated) for eps < 0, NaN or +Inf
//
// Accuracy: randomized response at the rounded p is above the exact value
// by at most about 8u (e^eps + 4)/eps relative (u = 2^-53; p - 1/2 is
// about eps/4 for small eps, 1 - p about e^-eps for large); the caps
// bound the loss at small and large eps. At order 2, against mpmath at 50
// digits of 2 eps + log(1+e^(-3 eps)) - log(1+e^eps): 4.2e-13 above at
// eps = 1e-6 (the cap alpha eps^2/2), 7.7e-15 at eps = 1, 1.0e-10 at
// eps = 20 (the cap eps).
func PureDPEvent(eps float64) Event {
	p := PureDPEventP(eps)
	return OrderFunc(func(a float64) (float64, error) {
		if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
			return 0, inputErr("PureDPEvent", "eps", eps, "must be finite and >= 0")
		}
		if err := checkOrder("PureDPEvent", a); err != nil {
			return 0, err
		}
		if eps == 0 {
			return 0, nil
		}
		if math.IsInf(a, 1) {
			return eps, nil
		}
		v, err := RandomizedResponse(p, a)
		if err != nil {
			return 0, err
		}
		// alpha eps^2/2 (eps-DP implies eps^2/2-zCDP) is the tighter of the
		// valid bounds where rounding p costs most, at small eps
		return math.Min(math.Min(v, eps), roundUp(a*eps*eps/2, 4*unit)), nil
	})
}

// PureDPEventP is the truth probability PureDPEvent(eps) uses: an upper
// bound on e^eps/(1+e^eps), so that package reference can evaluate the
// same randomized response.
func PureDPEventP(eps float64) float64 {
	// p = 1/(1 + e^-eps): exp within 2 ulps, the sum and the quotient
	// round once each (4u in all); raised by 8u to be above the exact p.
	return math.Min(1, math.Nextafter((1/(1+math.Exp(-eps)))*(1+8*unit), math.Inf(1)))
}

// InfiniteEvent is an event with no privacy guarantee: +Inf at every
// order.
func InfiniteEvent() Event {
	return CurveFunc(func(orders, out []float64) error {
		for i := range out {
			out[i] = math.Inf(1)
		}
		return nil
	})
}
