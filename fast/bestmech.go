package fast

import (
	"fmt"
	"math"
	"slices"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// The events of this file are the Accountant's Compose forms of the
// mechanisms above, so that it can evaluate them at any order; each
// Compose<Name> method is Compose(<Name>Event(...), count), so the
// accountant remembers the event whichever way it was composed.

// SGMEvent is one step of the Poisson-sampled Gaussian mechanism (see SGM),
// at each order SGMCurve's value.
func SGMEvent(q, sigma float64) Event { return sgmEvent{q, sigma} }

type sgmEvent struct{ q, sigma float64 }

func (sgmEvent) valueEvent() {}

func (e sgmEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if len(orders) == 0 {
		return checkQSigma("SGMEvent", e.q, e.sigma)
	}
	return SGMCurve(e.q, e.sigma, 1, orders, out)
}

// ComposeSGM adds steps steps of the Poisson-sampled Gaussian mechanism:
// Compose(SGMEvent(q, sigma), steps). Errors are those of SGMCurve and
// Compose; on error nothing is added.
func (a *Accountant) ComposeSGM(q, sigma float64, steps int) error {
	return a.Compose(SGMEvent(q, sigma), steps)
}

// GaussianEvent is the Gaussian mechanism with noise multiplier sigma (see
// Gaussian).
func GaussianEvent(sigma float64) Event { return gaussianEvent{sigma} }

type gaussianEvent struct{ sigma float64 }

func (gaussianEvent) valueEvent() {}

func (e gaussianEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	return eachOrder(orders, out, func(a float64) (float64, error) { return Gaussian(e.sigma, a) })
}

// ComposeGaussian adds count Gaussian mechanisms (sensitivity 1, noise
// multiplier sigma): Compose(GaussianEvent(sigma), count).
func (a *Accountant) ComposeGaussian(sigma float64, count int) error {
	return a.Compose(GaussianEvent(sigma), count)
}

// LaplaceEvent is the Laplace mechanism with scale b (see Laplace).
func LaplaceEvent(b float64) Event { return laplaceEvent{b} }

type laplaceEvent struct{ b float64 }

func (laplaceEvent) valueEvent() {}

func (e laplaceEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	return eachOrder(orders, out, func(a float64) (float64, error) { return Laplace(e.b, a) })
}

// ComposeLaplace adds count Laplace mechanisms (l1-sensitivity 1, scale
// b): Compose(LaplaceEvent(b), count).
func (a *Accountant) ComposeLaplace(b float64, count int) error {
	return a.Compose(LaplaceEvent(b), count)
}

// RandomizedResponseEvent is binary randomized response with truth
// probability p (see RandomizedResponse).
func RandomizedResponseEvent(p float64) Event { return rrEvent{p} }

type rrEvent struct{ p float64 }

func (rrEvent) valueEvent() {}

func (e rrEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	return eachOrder(orders, out, func(a float64) (float64, error) { return RandomizedResponse(e.p, a) })
}

// ComposeRandomizedResponse adds count binary randomized responses with
// truth probability p: Compose(RandomizedResponseEvent(p), count).
func (a *Accountant) ComposeRandomizedResponse(p float64, count int) error {
	return a.Compose(RandomizedResponseEvent(p), count)
}

// ZCDPEvent is a (xi, rho)-zCDP mechanism (Bun and Steinke 2016, Def 1.1):
// rdp(alpha) = xi + rho alpha, an upper bound by definition, at each order
// ZCDP(rho, xi, alpha) (one rounding, rounded up by 1 ulp).
//
// Special cases are:
//
//	rdp(alpha) = xi for rho = 0 (+Inf included)
//	rdp(+Inf) = +Inf for rho > 0
//	ZCDPEvent(rho, xi) = error (when evaluated) for rho or xi < 0, NaN or +Inf
func ZCDPEvent(rho, xi float64) Event { return zcdpEvent{rho, xi} }

type zcdpEvent struct{ rho, xi float64 }

func (zcdpEvent) valueEvent() {}

func (e zcdpEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if len(orders) == 0 {
		_, err := ZCDP(e.rho, e.xi, 2) // the parameters' errors
		return err
	}
	return eachOrder(orders, out, func(a float64) (float64, error) { return ZCDP(e.rho, e.xi, a) })
}

// ComposeZCDP adds count rho-zCDP mechanisms, rdp(alpha) = rho alpha (0 at
// every order, +Inf included, for rho = 0): Compose(ZCDPEvent(rho, 0),
// count).
func (a *Accountant) ComposeZCDP(rho float64, count int) error {
	return a.Compose(ZCDPEvent(rho, 0), count)
}

// ComposeZCDPXi adds count (xi, rho)-zCDP mechanisms, rdp(alpha) = xi +
// rho alpha (see ZCDP; dp_accounting's ZCDpEvent): Compose(ZCDPEvent(rho,
// xi), count).
func (a *Accountant) ComposeZCDPXi(rho, xi float64, count int) error {
	return a.Compose(ZCDPEvent(rho, xi), count)
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
// of that curve (within 1e-12 of the exact value and never below it),
// computed as PureDPCurve computes it (the order-free parts once).
//
// Special cases are:
//
//	rdp(alpha) = 0 for eps = 0
//	rdp(+Inf) = eps
//	PureDPEvent(eps) = error (when evaluated) for eps < 0, NaN or +Inf
func PureDPEvent(eps float64) Event { return pureDPEvent{eps} }

type pureDPEvent struct{ eps float64 }

func (pureDPEvent) valueEvent() {}

func (e pureDPEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if err := checkEps("PureDPEvent", e.eps); err != nil {
		return err
	}
	if len(orders) == 0 {
		return nil
	}
	return PureDPCurve(e.eps, orders, out)
}

// ComposePureDP adds count pure eps-DP mechanisms at the tight curve of
// binary randomized response (see PureDP), as dp_accounting and autodp
// account pure DP: Compose(PureDPEvent(eps), count).
func (a *Accountant) ComposePureDP(eps float64, count int) error {
	return a.Compose(PureDPEvent(eps), count)
}

// ComposeEpsilonDelta adds count (eps, delta)-DP mechanisms as
// dp_accounting's EpsilonDeltaDpEvent does: the tight curve of eps,
// Compose(PureDPEvent(eps), count), is composed and the deltas are kept
// aside, the kept delta being 1 - prod_i (1 - delta_i)^count_i. Epsilon
// and Delta then combine it with the conversion's: the final delta is
//
//	1 - (1 - delta_conv) prod_i (1 - delta_i)^count_i,
//
// so for a target total delta the conversion gets (delta -
// delta_kept)/(1 - delta_kept), and eps is +Inf when delta <= delta_kept.
//
// Why this is valid: every (eps, delta)-DP mechanism is, for each pair of
// neighbours, a post-processing of the (eps, delta) randomized response
// of Kairouz, Oh and Viswanath 2015 (ICML; arXiv 1311.0776; the dominance
// step of their proof of Theorem 3.3), which with probability delta
// outputs a symbol naming the database and otherwise runs binary eps
// randomized response, whose RDP is PureDP(eps). Under both neighbours the
// composition avoids every such symbol with probability P = prod_i (1 -
// delta_i), and conditioned on that it is a composition of eps_i
// randomized responses, (eps, delta_conv)-DP by the conversion of the
// summed curve; so for any event S, Pr_D[S] <= P Pr_D[S | none] + (1 - P)
// <= P (e^eps Pr_D'[S | none] + delta_conv) + 1 - P <= e^eps Pr_D'[S] + 1
// - P (1 - delta_conv). (The adaptive case follows the same way, as in
// their Theorem 3.3.) This is the standard "the deltas add up" argument
// of DP composition with its exact product form, as dp_accounting's
// RdpAccountant composes it.
//
// Errors: eps < 0, NaN or +Inf, delta outside [0, 1] or NaN, count <= 0;
// on error nothing is added.
func (a *Accountant) ComposeEpsilonDelta(eps, delta float64, count int) error {
	const fn = "ComposeEpsilonDelta"
	if math.IsNaN(delta) || delta < 0 || delta > 1 {
		return inputErr(fn, "delta", delta, "must be in [0, 1]")
	}
	if err := a.Compose(PureDPEvent(eps), count); err != nil {
		return err
	}
	if delta > 0 {
		// count log1p(-delta) (3 roundings, below 4u relative) made more
		// negative by 8u, and the sum rounded down
		t := float64(count) * math.Log1p(-delta)
		t -= 8 * errfloat.Unit * math.Abs(t)
		a.logKeep = math.Nextafter(a.logKeep+t, math.Inf(-1))
	}
	return nil
}

// SampledDivergenceEvent is one Poisson-sampled discrete mechanism (rate
// q, outputs distP with the individual and distQ without; see
// SampledDivergence). The distributions are copied.
//
// Slices: distP and distQ are copied: changing them afterwards changes nothing.
func SampledDivergenceEvent(q float64, distP, distQ []float64) Event {
	return sampledDivEvent{q, slices.Clone(distP), slices.Clone(distQ)}
}

type sampledDivEvent struct {
	q            float64
	distP, distQ []float64
}

func (e sampledDivEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if len(orders) == 0 {
		_, err := SampledDivergence(e.q, e.distP, e.distQ, 2) // the parameters' errors
		return err
	}
	return eachOrder(orders, out, func(a float64) (float64, error) {
		return SampledDivergence(e.q, e.distP, e.distQ, a)
	})
}

// ComposeSampledDivergence adds count Poisson-sampled discrete mechanisms:
// Compose(SampledDivergenceEvent(q, distP, distQ), count).
//
// Slices: distP and distQ are copied: changing them afterwards changes nothing.
func (a *Accountant) ComposeSampledDivergence(q float64, distP, distQ []float64, count int) error {
	return a.Compose(SampledDivergenceEvent(q, distP, distQ), count)
}

// BaseCurveEvent is the mechanism whose RDP curve at the integer orders
// is base (base.Eps[k] at order k+2, base.Inf at +Inf; see rdpcheck.BaseCurve),
// the input of the general subsampling bounds (WORBoundEvent,
// PoissonBoundEvent) as an Event. The curve is copied. Its value at
//
//   - an integer order k in the curve: base.Eps[k-2];
//   - an order alpha in (1, 2]: base.Eps[0];
//   - a fractional order alpha in (k, k+1), k >= 2, both in the curve:
//     ((1-t)(k-1) eps(k) + t k eps(k+1))/(alpha-1), t = alpha - k, rounded
//     up by 8 ulps (the five roundings of its positive terms), and at most
//     base.Inf;
//   - an order beyond the curve, or +Inf: base.Inf.
//
// Each is an upper bound on the RDP at alpha when base bounds it at the
// integers: (alpha-1) D_alpha is convex in alpha (it is the cumulant
// generating function of the log-likelihood ratio; van Erven and Harremoës
// 2014, Corollary 2), so it lies below its chord between neighbouring
// integers (the interpolation of Wang, Balle and Kasiviswanathan 2019,
// Corollary 10, which WORBound and PoissonBound use at fractional
// orders), and below the chord from (1, 0) to (2, eps(2)), which is
// (alpha-1) eps(2) below 2; and D_alpha is non-decreasing in alpha (van
// Erven and Harremoës 2014, Theorem 3), so base.Inf bounds every order.
//
// Special cases are:
//
//	BaseCurveEvent(base) = error (when evaluated) for a NaN or negative
//	    entry or base.Inf, or a finite base.Inf below an entry (as WORBound)
//	rdp(alpha) = error for alpha < 1 or NaN
//
// Slices: base.Eps is copied: changing it afterwards changes nothing.
func BaseCurveEvent(base rdpcheck.BaseCurve) Event {
	const fn = "BaseCurveEvent"
	e := &baseCurveEvent{eps: slices.Clone(base.Eps), inf: base.Inf}
	if math.IsNaN(base.Inf) || base.Inf < 0 {
		e.err = inputErr(fn, "base.Inf", base.Inf, "must be >= 0 (or +Inf where unknown)")
	}
	for k, v := range base.Eps {
		if e.err != nil {
			break
		}
		switch {
		case math.IsNaN(v) || v < 0:
			e.err = inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), v, "must be >= 0 (or +Inf)")
		case v > base.Inf:
			e.err = inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), v, "must not exceed base.Inf (RDP is non-decreasing in the order)")
		}
	}
	return e
}

type baseCurveEvent struct {
	eps []float64 // orders 2, 3, ..., len(eps)+1
	inf float64
	err error
}

func (e *baseCurveEvent) RDP(orders, out []float64) error {
	orders = unaliased(orders, out)
	if e.err != nil {
		return e.err
	}
	for i, a := range orders {
		if err := checkAlpha("BaseCurveEvent", a, 1); err != nil {
			return err
		}
		out[i] = e.at(a)
	}
	return nil
}

func (e *baseCurveEvent) at(a float64) float64 {
	top := float64(len(e.eps) + 1) // the largest order of the curve
	switch lo := math.Floor(a); {
	case len(e.eps) == 0 || a > top: // +Inf included
		return e.inf
	case a <= 2:
		return e.eps[0]
	case lo == a:
		return e.eps[int(lo)-2]
	default:
		k, t := int(lo), a-lo // a - lo exact (Sterbenz)
		x := float64(k-1) * e.eps[k-2]
		y := float64(k) * e.eps[k-1]
		v := ((1-t)*x + t*y) / (a - 1)
		// relative error at most 5u + O(u^2); below 2^-1000 the absolute
		// underflow of the products and sum is covered by errfloat.RoundUpTiny's
		// 4 2^-1074 (a - 1 > 1 only shrinks it)
		return math.Min(errfloat.RoundUpTiny(v, 8*errfloat.Unit), e.inf)
	}
}

// InfiniteEvent is an event with no privacy guarantee: +Inf at every
// order.
func InfiniteEvent() Event {
	return CurveFunc(func(_, out []float64) error {
		for i := range out {
			out[i] = math.Inf(1)
		}
		return nil
	})
}
