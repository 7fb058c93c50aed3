package puredp

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/carry"
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
	N, K := carry.Exact(noise), carry.Exact(buckets)
	keep := carry.Sub(carry.Exact(1), N)
	a := carry.Div(N, K)
	b := carry.Add(keep, a)
	if !special {
		l := carry.Log1p(carry.Div(carry.Mul(K, keep), N))
		return KaryRR{v: l.Up(),
			p0: newClassPair(evClass{a, l}, evClass{b, carry.Neg(l)}, carry.Mul(carry.Exact(buckets-2), a))}
	}
	km1 := carry.Exact(buckets - 1) // exact: buckets <= 2^53
	ls := carry.Log1p(carry.Mul(km1, keep))
	ln := carry.Log(N)
	return KaryRR{v: math.Max(ls.Up(), carry.Neg(ln).Up()), special: true,
		p0: newClassPair(evClass{carry.Div(carry.Exact(1), K), ls}, evClass{carry.Div(km1, K), ln}, carry.Val{}),
		p1: newClassPair(evClass{b, carry.Neg(ls)}, evClass{carry.Mul(km1, a), carry.Neg(ln)}, carry.Val{})}
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
	E := carry.Exact(eps)
	one := carry.Exact(1)
	w1 := carry.Div(one, carry.Add(one, carry.Exp(E)))            // 1/(1+e^eps)
	w2 := carry.Div(one, carry.Add(one, carry.Exp(carry.Neg(E)))) // e^eps/(1+e^eps)
	return newClassPair(evClass{w1, E}, evClass{w2, carry.Neg(E)}, carry.Val{})
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
	var k, e2 carry.Val
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
			t := carry.Mul(e2, carry.Exact((a-1)/8)) // /8 exact above the subnormals
			t.E += carry.SubnormalErr((a - 1) / 8)
			out[i] = math.Min(carry.Add(k, t).UpNonNeg(), eps)
		}
	}
}

// emParts returns the order-free parts of ExponentialMechanism for eps > 0:
// K (emK) and eps^2. Below eps = 2^-30 K is replaced by its upper bound
// eps^2/8 (K is the largest KL divergence of an eps-bounded-range pair,
// at most eps^2/8 by Hoeffding's lemma), which is within eps^2/12 relative
// of K, below 1e-18: there emK's quotients of underflowing terms would carry
// error bounds far above the value (at eps = 1e-170 K is about 1e-341).
func emParts(eps float64) (k, e2 carry.Val) {
	E := carry.Exact(eps)
	e2 = carry.Mul(E, E)
	if eps < 0x1p-30 {
		return carry.Mul(e2, carry.Exact(0.125)), e2
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
func emK(E carry.Val) carry.Val {
	x := carry.Expm1(E)
	u := carry.Div(carry.Em(E), x)
	if u.V <= 0.5 {
		return carry.Neg(carry.Log1pmx(carry.Neg(u)))
	}
	v := carry.Div(E, x)
	return carry.Sub(carry.Neg(carry.Log(v)), carry.Sub(carry.Exact(1), v))
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
	var P, Q, d, r carry.Val // P = max(p, 1-p), Q = 1-P, d = P-Q, r = log(P/Q)
	if p > 0.5 {
		P, Q, d = carry.Exact(p), carry.Exact(1-p), carry.Exact(2*p-1) // exact (Sterbenz)
	} else {
		P, Q, d = carry.Sub(carry.Exact(1), carry.Exact(p)), carry.Exact(p), carry.Sub(carry.Exact(1), carry.Exact(2*p))
	}
	switch {
	case p >= 1.0/3 && p <= 2.0/3:
		r = carry.Log1p(carry.Div(d, Q)) // P/Q = 1 + d/Q, d/Q <= 1
	case p > 0.5:
		r = carry.Sub(carry.Log(carry.Exact(p)), carry.Log(Q))
	default:
		r = carry.Sub(carry.Log1p(carry.Exact(-p)), carry.Log(carry.Exact(p)))
	}
	switch {
	case math.IsInf(alpha, 1):
		return r.UpNonNeg()
	case alpha == 1:
		return carry.Mul(d, r).UpNonNeg()
	}
	bh, bl := carry.TwoSum(alpha, -1)
	b := carry.Val{V: bh, E: math.Abs(bl)}
	y := carry.Mul(b, r)
	var v carry.Val
	if y.V > 30 {
		// log(P e^y + Q e^-y) = y + log(P + Q e^(-2y)), the log in [log P, 0]
		t := carry.Mul(Q, carry.Exp(carry.Neg(carry.Mul2(y))))
		v = carry.Add(y, carry.Log(carry.Add(P, t)))
	} else {
		s := carry.Add(carry.Add(carry.Mul(P, carry.Em(y)), carry.Mul(Q, carry.Em(carry.Neg(y)))), carry.Mul(d, y))
		v = carry.Log1p(s)
	}
	return carry.Div(v, b).UpNonNeg()
}
