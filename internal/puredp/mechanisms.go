package puredp

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// KaryRR holds the order-free parts of fast.KaryRandomizedResponse for
// valid input, so that a curve forms them once.
type KaryRR struct {
	fixed   bool    // noise 0 or 1: the value v at every order
	v       float64 // noise 0 or 1: the value; else the value at +Inf
	special bool
	p0, p1  classPair // replace-one: p0; replace-special: both directions
}

// NewKaryRR prepares noise in [0, 1] and an integer buckets in [2, 2^53]
// under relation replace-one, or replace-special where special is set.
func NewKaryRR(noise, buckets float64, special bool) KaryRR {
	switch {
	case noise == 1:
		return KaryRR{fixed: true}
	case noise == 0:
		return KaryRR{fixed: true, v: math.Inf(1)}
	}
	N, K := errfloat.Exact(noise), errfloat.Exact(buckets)
	keep := errfloat.Sub(errfloat.Exact(1), N)
	a := errfloat.Div(N, K)
	b := errfloat.Add(keep, a)
	if !special {
		l := errfloat.Log1p(errfloat.Div(errfloat.Mul(K, keep), N))
		return KaryRR{v: l.Up(),
			p0: newClassPair(evClass{a, l}, evClass{b, errfloat.Neg(l)}, errfloat.Mul(errfloat.Exact(buckets-2), a))}
	}
	km1 := errfloat.Exact(buckets - 1) // exact: buckets <= 2^53
	ls := errfloat.Log1p(errfloat.Mul(km1, keep))
	ln := errfloat.Log(N)
	return KaryRR{v: math.Max(ls.Up(), errfloat.Neg(ln).Up()), special: true,
		p0: newClassPair(evClass{errfloat.Div(errfloat.Exact(1), K), ls}, evClass{errfloat.Div(km1, K), ln}, errfloat.Val{}),
		p1: newClassPair(evClass{b, errfloat.Neg(ls)}, evClass{errfloat.Mul(km1, a), errfloat.Neg(ln)}, errfloat.Val{})}
}

// At is fast.KaryRandomizedResponse at the order alpha > 1 (or +Inf).
func (k *KaryRR) At(alpha float64) float64 {
	switch {
	case k.fixed || math.IsInf(alpha, 1):
		return k.v
	case k.special:
		return math.Max(k.p0.div(alpha), k.p1.div(alpha))
	}
	return k.p0.div(alpha)
}

// Tight is fast.PureDP for valid input (eps >= 0 finite, alpha > 1 or
// +Inf): binary randomized response's curve, the tight one of eps-DP.
func Tight(eps, alpha float64) float64 {
	var out [1]float64
	TightCurve(eps, []float64{alpha}, out[:])
	return out[0]
}

// newPureDP returns the two classes of binary randomized response with
// log ratio +-eps, eps > 0.
func newPureDP(eps float64) classPair {
	E := errfloat.Exact(eps)
	one := errfloat.Exact(1)
	w1 := errfloat.Div(one, errfloat.Add(one, errfloat.Exp(E)))               // 1/(1+e^eps)
	w2 := errfloat.Div(one, errfloat.Add(one, errfloat.Exp(errfloat.Neg(E)))) // e^eps/(1+e^eps)
	return newClassPair(evClass{w1, E}, evClass{w2, errfloat.Neg(E)}, errfloat.Val{})
}

// TightCurve writes Tight(eps, orders[i]) into out[i] for valid input,
// the order-free parts computed once.
func TightCurve(eps float64, orders, out []float64) {
	var p classPair
	if eps > 0 {
		p = newPureDP(eps)
	}
	for i, a := range orders {
		switch {
		case eps == 0:
			out[i] = 0
		case math.IsInf(a, 1):
			out[i] = eps
		default:
			out[i] = p.div(a)
		}
	}
}

// ExponentialMechanism is fast.ExponentialMechanism for valid input (eps
// >= 0 finite, alpha > 1 or +Inf): K + eps^2 (alpha-1)/8, at most eps.
func ExponentialMechanism(eps, alpha float64) float64 {
	var out [1]float64
	ExponentialMechanismCurve(eps, []float64{alpha}, out[:])
	return out[0]
}

// ExponentialMechanismCurve writes ExponentialMechanism(eps, orders[i])
// into out[i] for valid input, K computed once.
func ExponentialMechanismCurve(eps float64, orders, out []float64) {
	var k, e2 errfloat.Val
	if eps > 0 {
		k, e2 = emParts(eps)
	}
	for i, a := range orders {
		switch {
		case eps == 0:
			out[i] = 0
		case math.IsInf(a, 1):
			out[i] = eps
		default:
			t := errfloat.Mul(e2, errfloat.Exact((a-1)/8)) // /8 exact above the subnormals
			t.E += errfloat.SubnormalErr((a - 1) / 8)
			out[i] = math.Min(errfloat.Add(k, t).UpNonNeg(), eps)
		}
	}
}

// emParts returns the order-free parts of ExponentialMechanism for eps > 0:
// K (emK) and eps^2. Below eps = 2^-30 K is replaced by its upper bound
// eps^2/8 (K is the largest KL divergence of an eps-bounded-range pair,
// at most eps^2/8 by Hoeffding's lemma), which is within eps^2/12 relative
// of K, below 1e-18: there emK's quotients of underflowing terms would carry
// error bounds far above the value (at eps = 1e-170 K is about 1e-341).
func emParts(eps float64) (k, e2 errfloat.Val) {
	E := errfloat.Exact(eps)
	e2 = errfloat.Mul(E, E)
	if eps < 0x1p-30 {
		return errfloat.Mul(e2, errfloat.Exact(0.125)), e2
	}
	return emK(E), e2
}

// emK returns K = v - 1 - log v (>= 0), v = eps/expm1(eps), eps > 0: the
// order-free part of ExponentialMechanism. Where u = 1 - v = em(eps)/expm1(eps)
// is at most 1/2 it is -(log1p(-u) + u), which does not cancel near eps =
// 0; above, v is formed directly (u rounds to 1 from eps = 38 on, and 1 -
// u loses the digits of v well before) and -log v >= log 2 outweighs 1 - v
// <= 1/2 by a factor of at least 1.38, so the subtraction loses under 2
// bits. (Found by the events vectors: at eps = 50, alpha = 1.01, K was
// +Inf and the bound eps replaced 48.2.)
func emK(E errfloat.Val) errfloat.Val {
	x := errfloat.Expm1(E)
	u := errfloat.Div(errfloat.Em(E), x)
	if u.V <= 0.5 {
		return errfloat.Neg(errfloat.Log1pmx(errfloat.Neg(u)))
	}
	v := errfloat.Div(E, x)
	return errfloat.Sub(errfloat.Neg(errfloat.Log(v)), errfloat.Sub(errfloat.Exact(1), v))
}

// RandomizedResponse is fast.RandomizedResponse for valid input (p in
// [0, 1], alpha >= 1 or +Inf), by the form its doc comment gives.
func RandomizedResponse(p, alpha float64) float64 {
	switch p {
	case 0.5:
		return 0
	case 0, 1:
		return math.Inf(1)
	}
	var P, Q, d, r errfloat.Val // P = max(p, 1-p), Q = 1-P, d = P-Q, r = log(P/Q)
	if p > 0.5 {
		P, Q, d = errfloat.Exact(p), errfloat.Exact(1-p), errfloat.Exact(2*p-1) // exact (Sterbenz)
	} else {
		P, Q, d = errfloat.Sub(errfloat.Exact(1), errfloat.Exact(p)), errfloat.Exact(p), errfloat.Sub(errfloat.Exact(1), errfloat.Exact(2*p))
	}
	switch {
	case p >= 1.0/3 && p <= 2.0/3:
		r = errfloat.Log1p(errfloat.Div(d, Q)) // P/Q = 1 + d/Q, d/Q <= 1
	case p > 0.5:
		r = errfloat.Sub(errfloat.Log(errfloat.Exact(p)), errfloat.Log(Q))
	default:
		r = errfloat.Sub(errfloat.Log1p(errfloat.Exact(-p)), errfloat.Log(errfloat.Exact(p)))
	}
	switch {
	case math.IsInf(alpha, 1):
		return r.UpNonNeg()
	case alpha == 1:
		return errfloat.Mul(d, r).UpNonNeg()
	}
	bh, bl := errfloat.TwoSum(alpha, -1)
	b := errfloat.Val{V: bh, E: math.Abs(bl)}
	y := errfloat.Mul(b, r)
	var v errfloat.Val
	if y.V > 30 {
		// log(P e^y + Q e^-y) = y + log(P + Q e^(-2y)), the log in [log P, 0]
		t := errfloat.Mul(Q, errfloat.Exp(errfloat.Neg(errfloat.Mul2(y))))
		v = errfloat.Add(y, errfloat.Log(errfloat.Add(P, t)))
	} else {
		s := errfloat.Add(errfloat.Add(errfloat.Mul(P, errfloat.Em(y)), errfloat.Mul(Q, errfloat.Em(errfloat.Neg(y)))), errfloat.Mul(d, y))
		v = errfloat.Log1p(s)
	}
	return errfloat.Div(v, b).UpNonNeg()
}
