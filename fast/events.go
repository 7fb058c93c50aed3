package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/carry"
)

// Events beyond the Gaussian family: k-ary randomized response, the tight
// curve of pure DP, zCDP lines, the exponential mechanism's bounded-range
// bound and group privacy. See reference/events.go for the mathematics;
// this file evaluates the same closed forms in float64 with a carried
// error bound (carry.Val) and rounds up by it.
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

// evClass is one likelihood-ratio class: weight w under Q, log ratio l.
type evClass struct{ w, l carry.Val }

// classDiv2 returns an upper bound on 1/(alpha-1) log(rest + sum_i w_i
// e^(alpha l_i)) for two classes and a third of weight rest and log ratio
// 0, whose weights and w e^l each sum to 1, finite alpha > 1. Where every term w e^(alpha l) is below e^0.5 it sums the
// non-negative w (em(alpha l) - alpha em(l)) (em(y) = expm1(y) - y) and
// takes log1p; else it sums in the log domain, where log S >= 0.5 and
// nothing cancels.
func classDiv2(c0, c1 evClass, rest carry.Val, alpha float64) float64 {
	p := newClassPair(c0, c1, rest)
	return p.div(alpha)
}

// evExp1 is carry.Exp with one call of math.Exp (none at 0) where the
// argument's error is at most 2^-10: then exp(x.V + x.E) <= exp(x.V)
// (1 + x.E + x.E^2) <= 1.002 v (with v's 2 ulps), so the error is at most
// 1.002 v x.E plus v's own rounding (2 carry.TinyErr where v is subnormal).
func evExp1(x carry.Val) carry.Val {
	if !(x.E <= 0x1p-10) {
		return carry.Exp(x)
	}
	if x.V == 0 {
		return carry.Val{V: 1, E: 1.002 * x.E}
	}
	v := math.Exp(x.V)
	e := 1.002*v*x.E + carry.ExpErr*v
	if v < 0x1p-1022 {
		e += 2 * carry.TinyErr
	}
	return carry.Val{V: v, E: e}
}

// classPair holds the order-free parts of classDiv2 (the logs of the
// weights and em(l)), so that a curve computes them once.
type classPair struct {
	c0, c1       evClass
	rest         carry.Val
	lw0, lw1, lr carry.Val // log w0, log w1, log rest
	em0, em1     carry.Val // em(l0), em(l1)
	zero0, zero1 bool
	// near order 1: p = w e^l (the other distribution's weights), KL =
	// sum_i w_i phi(l_i) and max |l|
	p0, p1, kl carry.Val
	lmax       float64
}

func newClassPair(c0, c1 evClass, rest carry.Val) classPair {
	p := classPair{c0: c0, c1: c1, rest: rest, lw0: carry.Log(c0.w), lw1: carry.Log(c1.w)}
	if rest.V != 0 {
		p.lr = carry.Log(rest)
	}
	p.zero0 = c0.l.V == 0 && c0.l.E == 0
	p.zero1 = c1.l.V == 0 && c1.l.E == 0
	if !p.zero0 {
		p.em0 = carry.Em(c0.l)
	}
	if !p.zero1 {
		p.em1 = carry.Em(c1.l)
	}
	// p = e^(log w + l): w e^l may overflow where p does not (noise near
	// 2^-1022, l near 709)
	p.p0, p.p1 = carry.Exp(carry.Add(p.lw0, c0.l)), carry.Exp(carry.Add(p.lw1, c1.l))
	p.kl = carry.Add(wPhi(c0.w, p.p0, c0.l), wPhi(c1.w, p.p1, c1.l))
	p.lmax = math.Max(math.Abs(c0.l.V)+c0.l.E, math.Abs(c1.l.V)+c1.l.E)
	return p
}

// wPhi returns w phi(l), phi(l) = 1 + e^l (l - 1) = l expm1(l) - em(l) >=
// 0, the term of KL(P||Q) = sum_i q_i phi(l_i) (w = q, p = w e^l, l = log
// p/q): for |l| >= 1 as w + p (l - 1) (p (l-1) >= -2w/e, so at most 2 bits
// cancel, and no e^l overflows), below as w (l expm1(l) - em(l)) (both
// terms near l^2 and l^2/2: 1 bit).
func wPhi(w, p, l carry.Val) carry.Val {
	if l.V == 0 && l.E == 0 {
		return carry.Val{}
	}
	one := carry.Exact(1)
	if math.Abs(l.V) >= 1 {
		return carry.Add(w, carry.Mul(p, carry.Sub(l, one)))
	}
	return carry.Mul(w, carry.Sub(carry.Mul(l, carry.Expm1(l)), carry.Em(l)))
}

// div is classDiv2(c0, c1, rest, alpha) with the order-free parts reused.
func (p *classPair) div(alpha float64) float64 {
	A := carry.Exact(alpha)
	am1 := carry.Exact(alpha - 1) // exact for alpha in (1, 2^53]
	x0 := carry.Add(p.lw0, carry.Mul(A, p.c0.l))
	x1 := carry.Add(p.lw1, carry.Mul(A, p.c1.l))
	m := math.Max(x0.V, x1.V)
	if (alpha-1)*p.lmax <= 0.5 {
		// Near order 1 both sums below cancel: the log domain's M + log S
		// (both near alpha |l|, the result near (alpha-1) KL), and the
		// series' em(alpha l) - alpha em(l) (by a factor up to about
		// alpha/(alpha-1) e^|l|). With beta = alpha-1,
		// S = sum_i p_i e^(beta l_i), so log S = log1p(T), T = beta KL +
		// sum_i p_i em(beta l_i) (sum p_i = 1, sum p_i l_i = KL): every
		// term >= 0, nothing cancels.
		B := am1
		t := carry.Add(carry.Mul(B, p.kl), carry.Add(carry.Mul(p.p0, carry.Em(carry.Mul(B, p.c0.l))), carry.Mul(p.p1, carry.Em(carry.Mul(B, p.c1.l)))))
		return carry.Div(carry.Log1p(t), am1).UpNonNeg()
	}
	if m > 0.5 {
		M := carry.Exact(m)
		s := carry.Add(evExp1(carry.Sub(x0, M)), evExp1(carry.Sub(x1, M)))
		if p.rest.V != 0 {
			s = carry.Add(s, evExp1(carry.Sub(p.lr, M)))
		}
		return carry.Div(carry.Add(M, carry.Log(s)), am1).UpNonNeg()
	}
	var t carry.Val
	if !p.zero0 {
		t = carry.Mul(p.c0.w, carry.Sub(carry.Em(carry.Mul(A, p.c0.l)), carry.Mul(A, p.em0)))
	}
	if !p.zero1 {
		t = carry.Add(t, carry.Mul(p.c1.w, carry.Sub(carry.Em(carry.Mul(A, p.c1.l)), carry.Mul(A, p.em1))))
	}
	if t.V < 0 { // only rounding: the exact sum is >= 0
		t = carry.Val{V: 0, E: t.E}
	}
	return carry.Div(carry.Log1p(t), am1).UpNonNeg()
}

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
	k := newKRR(noise, buckets, relation)
	return k.at(alpha), nil
}

// krrCurve holds the order-free parts of KaryRandomizedResponse for
// valid input.
type krrCurve struct {
	fixed   bool    // noise 0 or 1: the value v at every order
	v       float64 // noise 0 or 1: the value; else the value at +Inf
	special bool
	p0, p1  classPair // replace-one: p0; replace-special: both directions
}

func newKRR(noise, buckets float64, relation string) krrCurve {
	switch {
	case noise == 1:
		return krrCurve{fixed: true}
	case noise == 0:
		return krrCurve{fixed: true, v: math.Inf(1)}
	}
	N, K := carry.Exact(noise), carry.Exact(buckets)
	keep := carry.Sub(carry.Exact(1), N)
	a := carry.Div(N, K)
	b := carry.Add(keep, a)
	if relation == ReplaceOne {
		l := carry.Log1p(carry.Div(carry.Mul(K, keep), N))
		return krrCurve{v: l.Up(),
			p0: newClassPair(evClass{a, l}, evClass{b, carry.Neg(l)}, carry.Mul(carry.Exact(buckets-2), a))}
	}
	km1 := carry.Exact(buckets - 1) // exact: buckets <= 2^53
	ls := carry.Log1p(carry.Mul(km1, keep))
	ln := carry.Log(N)
	return krrCurve{v: math.Max(ls.Up(), carry.Neg(ln).Up()), special: true,
		p0: newClassPair(evClass{carry.Div(carry.Exact(1), K), ls}, evClass{carry.Div(km1, K), ln}, carry.Val{}),
		p1: newClassPair(evClass{b, carry.Neg(ls)}, evClass{carry.Mul(km1, a), carry.Neg(ln)}, carry.Val{})}
}

func (k *krrCurve) at(alpha float64) float64 {
	switch {
	case k.fixed || math.IsInf(alpha, 1):
		return k.v
	case k.special:
		return math.Max(k.p0.div(alpha), k.p1.div(alpha))
	}
	return k.p0.div(alpha)
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
func KaryRandomizedResponseCurve(noise, buckets float64, relation string, orders, out []float64) error {
	const fn = "KaryRandomizedResponseCurve"
	if err := checkNoise(fn, noise, buckets, relation); err != nil {
		return err
	}
	if err := checkCurveOut(fn, orders, out); err != nil {
		return err
	}
	k := newKRR(noise, buckets, relation)
	for i, a := range orders {
		out[i] = k.at(a)
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
	return pureDPUp(eps, alpha), nil
}

// pureDPUp is PureDP for valid input.
func pureDPUp(eps, alpha float64) float64 {
	if eps == 0 {
		return 0
	}
	if math.IsInf(alpha, 1) {
		return eps
	}
	p := newPureDP(eps)
	return p.div(alpha)
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

// pureDPCurveUp writes pureDPUp(eps, orders[i]) into out[i] for valid
// input, the order-free parts computed once.
func pureDPCurveUp(eps float64, orders, out []float64) {
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
	return math.Nextafter(v+carry.SubnormalErr(rho*alpha), math.Inf(1)), nil
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
	if eps == 0 {
		return 0, nil
	}
	if math.IsInf(alpha, 1) {
		return eps, nil
	}
	k, e2 := emParts(eps)
	t := carry.Mul(e2, carry.Exact((alpha-1)/8)) // /8 exact above the subnormals
	t.E += carry.SubnormalErr((alpha - 1) / 8)
	return math.Min(carry.Add(k, t).UpNonNeg(), eps), nil
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
	return carry.ScaleUp(best, f), nil
}

// ExponentialMechanismCurve writes ExponentialMechanism(eps, orders[i])
// into out[i], computing the order-free part K once.
//
// Special cases and errors are those of ExponentialMechanism, and an error
// for empty orders or len(out) != len(orders).
func ExponentialMechanismCurve(eps float64, orders, out []float64) error {
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
			t := carry.Mul(e2, carry.Exact((a-1)/8))
			t.E += carry.SubnormalErr((a - 1) / 8)
			out[i] = math.Min(carry.Add(k, t).UpNonNeg(), eps)
		}
	}
	return nil
}
