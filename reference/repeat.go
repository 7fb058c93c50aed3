package reference

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// RepeatAndSelect returns an upper bound on the RDP at order alpha of
// repeating a mechanism Q a random number K of times and releasing only the
// best run (Papernot and Steinke 2022, arXiv 2110.03620), from Q's RDP curve
// (rdp[i] at orders[i]), K's mean and its shape eta:
//
//   - shape = +Inf, K ~ Poisson(mean), Theorem 6: for lambda > 1 and
//     e^epshat <= 1 + 1/(lambda-1),
//     eps' = eps(lambda) + mean deltahat + log(mean)/(lambda-1),
//     with Q (epshat, deltahat)-DP; epshat = log1p(1/(lambda-1)) (the
//     largest allowed) and deltahat the curve's smallest delta there, over
//     the curve's orders, of the improved conversion (Canonne, Kamath,
//     Steinke 2020) and the total-variation bound sqrt(1 - e^-rdp)
//     (Bretagnolle and Huber; KL <= D_lambda), capped at 1: dp_accounting's
//     compute_delta, except that it skips the improved conversion at
//     orders <= 1.01 for float64 stability, which this package need not.
//   - shape finite, K truncated negative binomial with parameters (eta,
//     gamma) (eta = 1 geometric, eta = 0 logarithmic), Theorem 2: for
//     lambda > 1 and any lambdahat >= 1,
//     eps' = eps(lambda) + (1+eta)((1-1/lambdahat) eps(lambdahat) + log(1/gamma)/lambdahat) + log(mean)/(lambda-1);
//     lambdahat is chosen among the curve's orders to minimise the bracket
//     (dp_accounting's choice), and gamma solves mean = eta (1-gamma) /
//     (gamma (1 - gamma^eta)) (mean = (1-gamma)/(-gamma log gamma) at eta =
//     0, 1/gamma at eta = 1) to the working precision, by Newton's method in
//     u = log(1/gamma) started from a float64 bisection (dp_accounting
//     bisects to a relative 1e-9 and keeps the smaller gamma, which
//     overstates log(1/gamma) by up to 1e-9 relative).
//
// Both bounds hold at every order of the curve above 1; the value at alpha
// is the smallest over the curve's orders lambda >= alpha (RDP grows with
// the order), as dp_accounting 0.6.0 does after its per-order formula for
// the truncated negative binomial only (its Poisson branch returns the
// per-order bounds, up to 180 times larger at orders near 1). An order
// +Inf enters as the limit of each formula (log(mean)/(lambda-1) -> 0,
// epshat -> 0; lambdahat = +Inf gives the bracket eps(+Inf)); an rdp of +Inf
// gives a bound of +Inf.
//
// Special cases are:
//
//	RepeatAndSelect = +Inf when every usable bound is +Inf
//	RepeatAndSelect = error for empty or mismatched lists, NaN orders, nil,
//	    negative or NaN rdp, mean < 1 (K >= 1 for the truncated negative
//	    binomial; for Poisson, Theorem 6's bound falls below 0 for small
//	    means, so dp_accounting's floor of 1 is kept), mean = +Inf or NaN,
//	    shape < 0 or NaN, alpha < 0 or NaN, no curve order >= max(alpha,
//	    1+) for lambda, and (finite shape) no curve order >= 1 for lambdahat
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func (c Context) RepeatAndSelect(orders []float64, rdp []*big.Float, mean, shape, alpha float64) (*big.Float, error) {
	const fn = "RepeatAndSelect"
	if err := checkRepeat(fn, orders, rdp, mean, shape); err != nil {
		return nil, err
	}
	if err := checkOrder(fn, alpha, 0, false); err != nil {
		return nil, err
	}
	var use []int // the orders lambda the bound is taken at
	for i, a := range orders {
		if a > 1 && a >= alpha {
			use = append(use, i)
		}
	}
	if len(use) == 0 {
		return nil, inputErr(fn, "orders", alpha, "the curve has no order > 1 at or above alpha")
	}
	if !math.IsInf(shape, 1) && !hasOrderAtLeast1(orders) {
		return nil, &InputError{Pkg: pkgName, Func: fn, Arg: "orders", Value: math.NaN(), Msg: "the curve has no order >= 1 for the auxiliary order lambdahat"}
	}
	p := c.prec()
	allInf := true
	for _, i := range use {
		if !rdp[i].IsInf() {
			allInf = false
		}
	}
	if allInf {
		return newF(p).SetInf(false), nil
	}
	// A sum of non-negative terms, each 0 only in exact arithmetic (rdp 0,
	// mean 1, a zero bracket): one evaluation decides an exact 0.
	if v, err := repeatEval(orders, rdp, mean, shape, use, p+16); err == nil && v.Sign() == 0 {
		return newF(p), nil
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		return repeatEval(orders, rdp, mean, shape, use, wp)
	})
}

// RepeatAndSelect is Context{}.RepeatAndSelect at DefaultPrec.
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func RepeatAndSelect(orders []float64, rdp []*big.Float, mean, shape, alpha float64) (*big.Float, error) {
	return Context{}.RepeatAndSelect(orders, rdp, mean, shape, alpha)
}

func checkRepeat(fn string, orders []float64, rdp []*big.Float, mean, shape float64) error {
	if len(orders) == 0 || len(orders) != len(rdp) {
		return &InputError{Pkg: pkgName, Func: fn, Arg: "orders, rdp", Value: math.NaN(),
			Msg: fmt.Sprintf("must be non-empty and of equal length (have %d and %d)", len(orders), len(rdp))}
	}
	for i, a := range orders {
		if math.IsNaN(a) || a < 0 {
			return inputErr(fn, fmt.Sprintf("orders[%d]", i), a, "order must be >= 0 (or +Inf)")
		}
		if rdp[i] == nil || rdp[i].Sign() < 0 {
			v := math.NaN()
			if rdp[i] != nil {
				v, _ = rdp[i].Float64()
			}
			return inputErr(fn, fmt.Sprintf("rdp[%d]", i), v, "RDP must be >= 0 (or +Inf)")
		}
	}
	if math.IsNaN(mean) || mean < 1 || math.IsInf(mean, 1) {
		return inputErr(fn, "mean", mean, "must be finite and >= 1")
	}
	if math.IsNaN(shape) || shape < 0 {
		return inputErr(fn, "shape", shape, "must be >= 0 (+Inf for Poisson)")
	}
	return nil
}

func hasOrderAtLeast1(orders []float64) bool {
	for _, a := range orders {
		if a >= 1 {
			return true
		}
	}
	return false
}

// repeatEval evaluates the bound at working precision wp.
func repeatEval(orders []float64, rdp []*big.Float, mean, shape float64, use []int, wp uint) (*big.Float, error) {
	logMean := logF(fl(mean, wp), wp)
	var best *big.Float
	if math.IsInf(shape, 1) {
		dc := newDeltaConsts(orders, rdp, wp)
		for _, i := range use {
			if rdp[i].IsInf() {
				continue
			}
			b := newF(wp).Set(rdp[i])
			var epshat *big.Float
			if math.IsInf(orders[i], 1) {
				epshat = newF(wp)
			} else {
				am1 := exactSum(fl(orders[i], 64), intF(-1, 64))
				b.Add(b, newF(wp).Quo(logMean, am1))
				epshat = log1pF(newF(wp).Quo(intF(1, wp), am1), wp)
			}
			dh := dc.at(epshat, wp)
			b.Add(b, dh.Mul(dh, fl(mean, wp)))
			if best == nil || b.Cmp(best) < 0 {
				best = b
			}
		}
		return best, nil
	}
	u, err := tnbLogInvGamma(mean, shape, wp)
	if err != nil {
		return nil, err
	}
	var bracket *big.Float
	for j, a := range orders {
		if a < 1 || rdp[j].IsInf() {
			continue
		}
		var t *big.Float
		if math.IsInf(a, 1) {
			t = newF(wp).Set(rdp[j])
		} else {
			A := fl(a, wp)
			t = newF(wp).Mul(rdp[j], newF(wp).Sub(A, intF(1, wp)))
			t.Add(t, u)
			t.Quo(t, A) // (1-1/a) eps + u/a
		}
		if bracket == nil || t.Cmp(bracket) < 0 {
			bracket = t
		}
	}
	if bracket == nil { // every eps(lambdahat) is +Inf
		return newF(wp).SetInf(false), nil
	}
	bracket.Mul(bracket, newF(wp).Add(fl(shape, wp), intF(1, wp)))
	for _, i := range use {
		if rdp[i].IsInf() {
			continue
		}
		b := newF(wp).Add(rdp[i], bracket)
		if !math.IsInf(orders[i], 1) {
			am1 := exactSum(fl(orders[i], 64), intF(-1, 64))
			b.Add(b, newF(wp).Quo(logMean, am1))
		}
		if best == nil || b.Cmp(best) < 0 {
			best = b
		}
	}
	return best, nil
}

// deltaConsts holds the eps-independent parts of deltaHat: the smallest
// delta at eps over the curve (improved conversion at finite orders > 1,
// the order +Inf as pure DP, sqrt(1 - e^-rdp) at every order >= 1), capped
// at 1. log delta_j(eps) = A_j - (a_j - 1) eps with A_j = (a_j - 1)(rdp_j +
// log1p(-1/a_j)) - log a_j, so each eps costs one product per order.
type deltaConsts struct {
	zero   bool         // some rdp is 0: delta 0
	bh     *big.Float   // min log sqrt(1 - e^-rdp), nil if none
	a, am1 []*big.Float // A_j and a_j - 1 at finite orders > 1
	pure   []*big.Float // rdp at the order +Inf
}

func newDeltaConsts(orders []float64, rdp []*big.Float, wp uint) *deltaConsts {
	dc := &deltaConsts{}
	for j, a := range orders {
		if a < 1 || rdp[j].IsInf() {
			continue
		}
		if rdp[j].Sign() == 0 {
			dc.zero = true
			return dc
		}
		// Bretagnolle-Huber: TV <= sqrt(1 - e^-KL), KL <= D_a for a >= 1.
		bh := expm1F(newF(wp).Neg(rdp[j]), wp)
		bh = logF(bh.Neg(bh), wp)
		bh.SetMantExp(bh, -1)
		if dc.bh == nil || bh.Cmp(dc.bh) < 0 {
			dc.bh = bh
		}
		switch {
		case math.IsInf(a, 1):
			dc.pure = append(dc.pure, rdp[j])
		case a > 1:
			A := fl(a, wp)
			am1 := exactSum(fl(a, 64), intF(-1, 64))
			l := newF(wp).Add(rdp[j], log1pF(newF(wp).Quo(intF(-1, wp), A), wp))
			l.Mul(l, am1)
			dc.a = append(dc.a, l.Sub(l, logF(A, wp)))
			dc.am1 = append(dc.am1, am1)
		}
	}
	return dc
}

func (dc *deltaConsts) at(eps *big.Float, wp uint) *big.Float {
	if dc.zero {
		return newF(wp)
	}
	for _, r := range dc.pure {
		if r.Cmp(eps) <= 0 {
			return newF(wp)
		}
	}
	var m *big.Float
	if dc.bh != nil {
		m = newF(wp).Set(dc.bh)
	}
	for k, A := range dc.a {
		l := newF(wp).Mul(dc.am1[k], eps)
		l.Sub(A, l)
		if m == nil || l.Cmp(m) < 0 {
			m = l
		}
	}
	if m == nil || m.Sign() >= 0 {
		return intF(1, wp)
	}
	return expF(m, wp)
}

//lint:ignore ST1005 Newton is a name, capitalised in any sentence
var errNewton = errors.New("Newton's iteration for gamma did not converge")

// tnbMeanF64 is the truncated negative binomial's mean at u = log(1/gamma),
// in float64 (for the bisection that starts Newton's method).
func tnbMeanF64(u, eta float64) float64 {
	switch {
	case eta == 0:
		return math.Expm1(u) / u
	case eta == 1:
		return math.Exp(u)
	}
	return eta * math.Expm1(u) / -math.Expm1(-eta*u)
}

// tnbLogInvGamma returns u = log(1/gamma) with mean(gamma) = mean, to about
// wp bits: g(u) = log mean(u) - log(mean) is increasing, with
//
//	eta > 0: log mean(u) = log eta + log expm1(u) - log(-expm1(-eta u)), g' = -1/expm1(-u) - eta/expm1(eta u)
//	eta = 0: log mean(u) = log expm1(u) - log u,                          g' = -1/expm1(-u) - 1/u
//
// (eta = 1 is u = log mean exactly). Newton's iteration from a float64
// bisection converges quadratically; it stops when a step is below
// 2^-(wp+8) u, and the Ziv loop confirms the digits.
func tnbLogInvGamma(mean, eta float64, wp uint) (*big.Float, error) {
	if mean == 1 {
		return newF(wp), nil // gamma = 1
	}
	if eta == 1 {
		return logF(fl(mean, wp), wp), nil
	}
	lo, hi := 0.0, 1.0
	for tnbMeanF64(hi, eta) < mean && hi < 1e300 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if tnbMeanF64(mid, eta) < mean {
			lo = mid
		} else {
			hi = mid
		}
	}
	// Near u = 0 (mean near 1) g and g' are differences of terms of size
	// |log u| and 1/u that cancel to about u/2 and (1+eta)/2, so a step
	// carries an absolute error of about 2^-w (|log u| + 3) while the
	// stopping test asks for 2^-(wp+8) u: w needs log2(1/u) +
	// log2(|log u| + 3) bits beyond wp + 8; twice log2(1/u), plus 32,
	// covers both for every u < 1/2.
	uf := (lo + hi) / 2
	w := wp + 32
	if uf < 0.5 {
		w += 2 * uint(-math.Logb(uf))
	}
	u := fl(uf, w)
	lm := logF(fl(mean, w), w)
	E := fl(eta, w)
	var logEta *big.Float
	if eta > 0 {
		logEta = logF(E, w)
	}
	for range 60 {
		em := expm1F(u, w)
		g := logF(em, w)
		nu := expm1F(newF(w).Neg(u), w) // expm1(-u) < 0
		d := newF(w).Quo(intF(-1, w), nu)
		if eta > 0 {
			eu := newF(w).Mul(E, u)
			t := expm1F(newF(w).Neg(eu), w)
			g.Sub(g, logF(t.Neg(t), w))
			g.Add(g, logEta)
			d.Sub(d, newF(w).Quo(E, expm1F(eu, w)))
		} else {
			g.Sub(g, logF(u, w))
			d.Sub(d, newF(w).Quo(intF(1, w), u))
		}
		g.Sub(g, lm)
		step := g.Quo(g, d)
		u.Sub(u, step)
		if step.Sign() == 0 || step.MantExp(nil) < u.MantExp(nil)-int(wp+8) {
			return u.SetPrec(wp), nil
		}
	}
	return nil, errNewton
}
