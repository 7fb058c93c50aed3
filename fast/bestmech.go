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
// Its value at each order is PureDP(eps, alpha), the one implementation
// of that curve (within 1e-12 of the exact value and never below it).
//
// Special cases are:
//
//	rdp(alpha) = 0 for eps = 0
//	rdp(+Inf) = eps
//	PureDPEvent(eps) = error (when evaluated) for eps < 0, NaN or +Inf
func PureDPEvent(eps float64) Event {
	return OrderFunc(func(a float64) (float64, error) {
		if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
			return 0, inputErr("PureDPEvent", "eps", eps, "must be finite and >= 0")
		}
		if err := checkOrder("PureDPEvent", a); err != nil {
			return 0, err
		}
		return PureDP(eps, a)
	})
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
