package reference

// Events of the RDP accountants beyond the Gaussian family: k-ary randomized
// response, the tight curve of pure DP, zCDP lines, the exponential
// mechanism's bounded-range bound and group privacy.
//
// The divergences here are between distributions with at most three distinct
// likelihood ratios. For weights w_i (the probabilities under the second
// distribution Q) and log ratios l_i = log(p_i/q_i),
//
//	sum_i w_i e^(alpha l_i) - 1 = sum_i w_i f(l_i),  f(l) = expm1(alpha l) - alpha expm1(l),
//
// because sum_i w_i = sum_i w_i e^(l_i) = 1. Each f(l) >= 0 for alpha > 1
// (convexity of t^alpha), so the sum has no cancellation; f itself cancels
// where l or alpha-1 is small, and cancelBits proves how many bits that costs.

import (
	"math"
	"math/big"
)

// Relations of KaryRandomizedResponse, as dp_accounting names them.
const (
	// ReplaceOne: the neighbour holds another true bucket.
	ReplaceOne = "replace-one"
	// ReplaceSpecial: the neighbour holds a special value whose output is
	// uniform over the buckets; the larger of the two directions counts.
	ReplaceSpecial = "replace-special"
)

// maxBuckets is the largest bucket count accepted: every integer up to it is
// a float64.
const maxBuckets = 1 << 53

// class is one likelihood-ratio class: weight w under Q, log ratio l.
type class struct{ w, l *big.Float }

// logAbsExpm1 is log|expm1(y)| in float64 (for bounds only), y != 0.
func logAbsExpm1(y float64) float64 {
	if y > 30 {
		return y + math.Log1p(-math.Exp(-y))
	}
	return math.Log(math.Abs(math.Expm1(y)))
}

// cancelBits returns a proven upper bound, plus 10 guard bits, on the bits
// that evaluating f(l) = expm1(alpha l) - alpha expm1(l) as that difference
// loses to cancellation: log2 of (|expm1(alpha l)| + alpha |expm1(l)|) over a
// lower bound on f(l). With t = e^l, Taylor's theorem with the Lagrange
// remainder gives f = alpha(alpha-1)/2 xi^(alpha-2) (t-1)^2 for some xi
// between 1 and t, so f >= alpha(alpha-1)/2 (t-1)^2 min(1, t^(alpha-2));
// and f >= alpha(1-t)/2 where alpha(1-t) >= 2 (t < 1: t^alpha >= 0), f >=
// t^alpha/2 where t^alpha >= 2(1 + alpha(t-1)) (t > 1). The float64
// evaluation of these logs is within 1e-10 relative; a margin of 4 bits
// covers it. l = 0 costs nothing (f = 0 exactly).
func cancelBits(alpha, l float64) uint {
	if l == 0 || math.IsInf(l, 0) {
		return 0
	}
	logM := math.Max(logAbsExpm1(alpha*l), math.Log(alpha)+logAbsExpm1(l)) + math.Ln2
	logL := math.Log(alpha) + math.Log(alpha-1) - math.Ln2 + 2*logAbsExpm1(l) + math.Min(0, (alpha-2)*l)
	if l < 0 {
		if a1 := math.Log(alpha) + math.Log(-math.Expm1(l)); a1 >= math.Ln2 {
			logL = math.Max(logL, a1-math.Ln2)
		}
	} else if alpha*l >= math.Ln2+math.Log1p(alpha*math.Expm1(l))+1 {
		logL = math.Max(logL, alpha*l-math.Ln2)
	}
	b := (logM-logL)/math.Ln2 + 14
	if !(b > 0) {
		return 10
	}
	if b > MaxWorkingPrec {
		return MaxWorkingPrec
	}
	return uint(math.Ceil(b))
}

// classDivergence returns 1/(alpha-1) log1p(sum_i w_i f(l_i)) at precision
// wp, for finite alpha > 1 and finite l_i (a class with w = 0 is skipped).
func classDivergence(cs []class, alpha float64, wp uint) *big.Float {
	A := fl(alpha, wp)
	for _, c := range cs {
		if lf, _ := c.l.Float64(); c.w.Sign() != 0 && alpha*lf > 1e9 {
			return classDivergenceLog(cs, A, wp)
		}
	}
	s := newF(wp)
	for _, c := range cs {
		if c.w.Sign() == 0 || c.l.Sign() == 0 {
			continue
		}
		f := expm1F(newF(wp).Mul(A, c.l), wp)
		g := expm1F(c.l, wp)
		f.Sub(f, g.Mul(g, A))
		s.Add(s, f.Mul(f, c.w))
	}
	l := log1pF(s, wp)
	return l.Quo(l, newF(wp).Sub(A, intF(1, wp)))
}

// classDivergenceLog is classDivergence where some alpha l is beyond
// big.Float's exponents (expF gives +Inf from 1.48e9, and log +Inf
// panicked: PureDP(1, 1e100)): log sum_c w_c e^(alpha l_c), which is log
// of the moment (the w_c and w_c e^(l_c) each sum to 1), as the largest
// term's log plus the log of the sum of the terms over it; every term is
// positive, and a moment above e^(1e9) has no cancellation to avoid.
func classDivergenceLog(cs []class, A *big.Float, wp uint) *big.Float {
	var ts []*big.Float
	var M *big.Float
	for _, c := range cs {
		if c.w.Sign() == 0 {
			continue
		}
		t := newF(wp).Mul(A, c.l)
		t.Add(t, logF(c.w, wp))
		if M == nil || t.Cmp(M) > 0 {
			M = t
		}
		ts = append(ts, t)
	}
	s := newF(wp)
	for _, t := range ts {
		s.Add(s, expF(newF(wp).Sub(t, M), wp))
	}
	l := logF(s, wp)
	l.Add(l, M)
	return l.Quo(l, newF(wp).Sub(A, intF(1, wp)))
}

func checkOrderAboveOne(fn string, alpha float64) error {
	if math.IsNaN(alpha) || alpha <= 1 {
		return inputErr(fn, "alpha", alpha, "order must be > 1 (or +Inf)")
	}
	return nil
}

func checkNoise(fn string, noise, buckets float64, relation string) error {
	if math.IsNaN(noise) || noise < 0 || noise > 1 {
		return inputErr(fn, "noise", noise, "must be in [0, 1]")
	}
	if math.IsNaN(buckets) || buckets < 2 || buckets > maxBuckets || buckets != math.Trunc(buckets) {
		return inputErr(fn, "buckets", buckets, "must be an integer in [2, 2^53]")
	}
	if relation != ReplaceOne && relation != ReplaceSpecial {
		return inputErr(fn, "relation", math.NaN(), "must be \"replace-one\" or \"replace-special\", not "+quoteShort(relation))
	}
	return nil
}

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "\"" + s + "\""
}

// KaryRandomizedResponse returns the exact RDP of k-ary randomized response
// with k = buckets: the true bucket is kept with probability 1 - noise and
// otherwise a uniform bucket is output. Its output distribution on input i
// puts 1 - noise + noise/k on bucket i and noise/k on each other.
//
// relation ReplaceOne: D_alpha(P_i || P_j), i != j,
//
//	1/(alpha-1) log( a r^alpha + b r^(-alpha) + (k-2) a ),  a = noise/k, b = 1 - noise + a, r = b/a;
//
// relation ReplaceSpecial: the larger of D_alpha(P_i || U) and
// D_alpha(U || P_i), U uniform,
//
//	1/(alpha-1) log( (kb)^alpha/k + (k-1) noise^alpha/k ),
//	1/(alpha-1) log( (kb)^(1-alpha)/k + (k-1) noise^(1-alpha)/k ).
//
// These are the divergences of dp_accounting's
// _randomized_response_rdp_replace_one and _replace_special
// (rdp_privacy_accountant.py), evaluated here as sums of non-negative terms
// (see classDivergence). At alpha = +Inf the limit is log r (replace-one)
// and max(log(kb), -log noise) (replace-special).
//
// Special cases are:
//
//	KaryRandomizedResponse(noise=1, ...) = 0
//	KaryRandomizedResponse(noise=0, ...) = +Inf
//	KaryRandomizedResponse(...) = error for noise outside [0, 1], buckets
//	    < 2, above 2^53 or not an integer, an unknown relation, alpha <= 1
//	    or NaN
func (c Context) KaryRandomizedResponse(noise, buckets float64, relation string, alpha float64) (*big.Float, error) {
	const fn = "KaryRandomizedResponse"
	if err := checkNoise(fn, noise, buckets, relation); err != nil {
		return nil, err
	}
	if err := checkOrderAboveOne(fn, alpha); err != nil {
		return nil, err
	}
	p := c.prec()
	switch {
	case noise == 1:
		return newF(p), nil
	case noise == 0:
		return newF(p).SetInf(false), nil
	}
	// log ratios in float64, for the cancellation bound only
	keep := 1 - noise
	lOne := math.Log1p(buckets * keep / noise)
	lSpec := math.Log1p((buckets - 1) * keep)
	lNoise := math.Log(noise)
	var extra uint
	if relation == ReplaceOne {
		extra = cancelBits(alpha, lOne) + cancelBits(alpha, -lOne)
	} else {
		extra = max(cancelBits(alpha, lSpec)+cancelBits(alpha, lNoise),
			cancelBits(alpha, -lSpec)+cancelBits(alpha, -lNoise))
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		wp += extra
		N := fl(noise, wp)
		K := fl(buckets, wp)
		Keep := exactSum(intF(1, 64), fl(-noise, 64)) // 1 - noise, exact
		a := newF(wp).Quo(N, K)
		b := newF(wp).Add(Keep, a)
		if relation == ReplaceOne {
			x := newF(wp).Mul(K, Keep)
			x.Quo(x, N)
			l := log1pF(x, wp)
			if math.IsInf(alpha, 1) {
				return l, nil
			}
			return classDivergence([]class{{a, l}, {b, newF(wp).Neg(l)}}, alpha, wp), nil
		}
		km1 := newF(wp).Sub(K, intF(1, wp))
		ls := log1pF(newF(wp).Mul(km1, Keep), wp) // log(kb)
		ln := logF(N, wp)                         // log noise
		if math.IsInf(alpha, 1) {
			if ls.Cmp(newF(wp).Neg(ln)) >= 0 {
				return ls, nil
			}
			return ln.Neg(ln), nil
		}
		w1 := newF(wp).Quo(intF(1, wp), K)
		w2 := newF(wp).Quo(km1, K)
		d1 := classDivergence([]class{{w1, ls}, {w2, ln}}, alpha, wp)
		d2 := classDivergence([]class{{b, newF(wp).Neg(ls)}, {newF(wp).Mul(km1, a), newF(wp).Neg(ln)}}, alpha, wp)
		if d1.Cmp(d2) >= 0 {
			return d1, nil
		}
		return d2, nil
	})
}

func checkEps(fn string, eps float64) error {
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return inputErr(fn, "eps", eps, "must be finite and >= 0")
	}
	return nil
}

// PureDP returns the tight RDP of an eps-DP mechanism, the Rényi divergence
// of binary randomized response with log-odds eps:
//
//	1/(alpha-1) log( (e^(alpha eps) + e^((1-alpha) eps)) / (1 + e^eps) ),
//
// and eps at alpha = +Inf. Every eps-DP mechanism satisfies (alpha, PureDP(eps,
// alpha))-RDP at every order, and randomized response attains it: the Rényi
// divergence is jointly quasi-convex and any pair of distributions with
// likelihood ratios in [e^-eps, e^eps] is a post-processing of that pair of
// binary distributions. The statement and its proof are in T. Steinke,
// "Tight RDP & zCDP bounds from pure DP" (differentialprivacy.org,
// pdp-to-zcdp); dp_accounting charges its EpsilonDeltaDpEvent this curve
// citing Mironov 2017. The value is evaluated without cancellation
// (classDivergence).
//
// Special cases are:
//
//	PureDP(eps=0, alpha) = 0
//	PureDP(eps, alpha=+Inf) = eps
//	PureDP(eps, alpha) = error for eps < 0, NaN or +Inf, alpha <= 1 or NaN
func (c Context) PureDP(eps, alpha float64) (*big.Float, error) {
	const fn = "PureDP"
	if err := checkEps(fn, eps); err != nil {
		return nil, err
	}
	if err := checkOrderAboveOne(fn, alpha); err != nil {
		return nil, err
	}
	p := c.prec()
	if eps == 0 {
		return newF(p), nil
	}
	if math.IsInf(alpha, 1) {
		return fl(eps, p), nil
	}
	if eps > 1e8 {
		// e^eps is beyond big.Float's exponents from 1.48e9 (the weight
		// e^eps/(1+e^eps) was Inf/Inf, a panic, and 1/(1+e^eps) would
		// vanish): with the moment (e^(alpha eps) + e^((1-alpha) eps))
		// /(1 + e^eps), D = eps + (log1p(e^(-(2 alpha-1) eps)) -
		// log1p(e^(-eps)))/(alpha-1), every exponential below 1
		return ziv(p, func(wp uint) (*big.Float, error) {
			E := fl(eps, wp)
			A := fl(alpha, wp)
			am1 := newF(wp).Sub(A, intF(1, wp))
			t := newF(wp).Add(A, am1)
			t.Mul(t, E)
			d := log1pF(expF(t.Neg(t), wp), wp)
			d.Sub(d, log1pF(expF(newF(wp).Neg(E), wp), wp))
			d.Quo(d, am1)
			return d.Add(d, E), nil
		})
	}
	extra := cancelBits(alpha, eps) + cancelBits(alpha, -eps)
	return ziv(p, func(wp uint) (*big.Float, error) {
		wp += extra
		E := fl(eps, wp)
		ee := expF(E, wp)
		den := newF(wp).Add(ee, intF(1, wp))
		w1 := newF(wp).Quo(intF(1, wp), den)
		w2 := newF(wp).Quo(ee, den)
		return classDivergence([]class{{w1, E}, {w2, newF(wp).Neg(E)}}, alpha, wp), nil
	})
}

// ZCDP returns the RDP line of (xi, rho)-zCDP (Bun and Steinke 2016,
// Definition 1.1): xi + rho alpha, correctly rounded.
//
// Special cases are:
//
//	ZCDP(rho=0, xi, alpha) = xi (alpha = +Inf included)
//	ZCDP(rho>0, xi, alpha=+Inf) = +Inf
//	ZCDP(rho, xi, alpha) = error for rho or xi < 0, NaN or +Inf, alpha <= 1
//	    or NaN
func (c Context) ZCDP(rho, xi, alpha float64) (*big.Float, error) {
	const fn = "ZCDP"
	if math.IsNaN(rho) || rho < 0 || math.IsInf(rho, 1) {
		return nil, inputErr(fn, "rho", rho, "must be finite and >= 0")
	}
	if math.IsNaN(xi) || xi < 0 || math.IsInf(xi, 1) {
		return nil, inputErr(fn, "xi", xi, "must be finite and >= 0")
	}
	if err := checkOrderAboveOne(fn, alpha); err != nil {
		return nil, err
	}
	p := c.prec()
	switch {
	case rho == 0:
		return fl(xi, p), nil
	case math.IsInf(alpha, 1):
		return newF(p).SetInf(false), nil
	}
	prod := newF(2*64+2).Mul(fl(rho, 64), fl(alpha, 64)) // exact
	return newF(p).Add(prod, fl(xi, 64)), nil
}

// ExponentialMechanism returns the RDP bound dp_accounting (0.6.0,
// rdp_privacy_accountant.py) charges for the exponential mechanism with
// privacy parameter eps, taken as an eps-bounded-range mechanism (Cesar and
// Rogers 2021, arXiv 2004.07223, section 3):
//
//	min( xi + eps^2 alpha/8, eps ),  xi = eps/expm1(eps) - 1 - log(eps/expm1(eps)) - eps^2/8.
//
// It is an upper bound, not the exact RDP of a particular mechanism. The
// reference writes it as K + eps^2 (alpha-1)/8 with K = -log1p(-u) - u >= 0,
// u = 1 - eps/expm1(eps): K is the bound at alpha -> 1 (Kullback-Leibler),
// about eps^2/8 for small eps, where the float64 form cancels every digit
// (dp_accounting's float64 xi at eps = 1e-8 is 2.1e-25, all rounding:
// the bound at alpha = 2 comes out 1.7e-8 relative high); the
// cancellation in K and in u is paid for with proven extra bits (K >= u^2/2,
// u >= eps/2 - eps^2/12).
//
// Checked against the mathematics (the text of arXiv 2004.07223
// was not available to this package's authors, so its lemma numbers are
// not cited): K = v - 1 - log v, v = eps/expm1(eps), equals c - 1 - log c,
// c = eps/(1 - e^-eps) (c - v = eps = log(c/v)), the largest KL divergence
// of a pair whose privacy loss lies in an interval of width eps (a
// two-point loss attains it), which is BoundedRangeZCDP. The bound is
// Hoeffding's lemma on that loss: D_alpha <= KL + (alpha-1) eps^2/8, so
// dp_accounting's xi = K - eps^2/8 is <= 0 and the statement is valid at
// every order, exact as alpha -> 1. It is not the tightest line: Harrison
// and Manurangsi 2025 give the worst-case bounded-range mechanism's tight
// zCDP parameter as K itself, and K alpha = K + (alpha-1) K is below it at
// every alpha > 1 (K < eps^2/8); PureDP(eps, alpha) is smaller still at
// large orders (the table of docs/bounds.md, TestBoundComparisonTable).
//
// Special cases are:
//
//	ExponentialMechanism(eps=0, alpha) = 0
//	ExponentialMechanism(eps, alpha=+Inf) = eps
//	ExponentialMechanism(eps, alpha) = error for eps < 0, NaN or +Inf,
//	    alpha <= 1 or NaN
func (c Context) ExponentialMechanism(eps, alpha float64) (*big.Float, error) {
	const fn = "ExponentialMechanism"
	if err := checkEps(fn, eps); err != nil {
		return nil, err
	}
	if err := checkOrderAboveOne(fn, alpha); err != nil {
		return nil, err
	}
	p := c.prec()
	if eps == 0 {
		return newF(p), nil
	}
	if math.IsInf(alpha, 1) {
		return fl(eps, p), nil
	}
	// u >= eps/2 - eps^2/12 >= eps/3 for eps <= 2, and u >= 1 - 2/(e^2-1) > 0.68 above
	// (in logs: eps/3 underflows to 0 for eps = 5e-324, and log2(4/0) asked
	// for unbounded precision)
	uLowLog2 := math.Min(math.Log2(eps)-math.Log2(3), math.Log2(0.68))
	extra := uint(2*(2-uLowLog2)) + 16
	return ziv(p, func(wp uint) (*big.Float, error) {
		w := wp + extra
		E := fl(eps, w)
		r := newF(w).Quo(E, expm1F(E, w))
		u := newF(w).Sub(intF(1, w), r)
		var k *big.Float
		if r.Sign() == 0 || r.MantExp(nil) < -int(w)+8 {
			// r = 1 - u is below the precision of u (eps above about
			// w log 2: 1 - u was 0, and its log panicked at eps = 2^20),
			// or 0 where e^eps is beyond big.Float's exponents (eps =
			// 1e100): log(1 - u) = log r = log eps - eps - log1p(-e^-eps)
			k = logF(E, w)
			k.Sub(k, E)
			k.Sub(k, log1pF(newF(w).Neg(expF(newF(w).Neg(E), w)), w))
		} else {
			k = log1pF(newF(w).Neg(u), w)
		}
		k.Neg(k)
		k.Sub(k, u)
		t := newF(w).Mul(E, E)
		t.Mul(t, newF(w).Sub(fl(alpha, w), intF(1, w)))
		t.Quo(t, intF(8, w))
		k.Add(k, t)
		if k.Cmp(E) > 0 {
			return newF(wp).Set(E), nil
		}
		return newF(wp).Set(k), nil
	})
}

// GroupPrivacy returns an RDP bound at order alpha for groups of 2^c records,
// from the RDP curve (orders, rdp) of a mechanism for single records, by
// Mironov 2017 (arXiv 1702.07476), Proposition 2: if f is (beta, r)-RDP, g
// is 2^c-stable and beta >= 2^(c+1), then f(g(.)) is (beta/2^c, 3^c
// r)-RDP. With beta = 2^c alpha the condition is alpha >= 2. Rényi
// divergence is non-decreasing in its order, so any curve order >= 2^c
// alpha bounds it: the result is 3^c min{ rdp[i] : orders[i] >= 2^c alpha }.
// At alpha = +Inf the bound is pure DP's group privacy, 2^c rdp(+Inf)
// (Dwork and Roth 2014, Theorem 2.2), from the curve's order +Inf. c = 0 is
// the curve itself (its smallest value at an order >= alpha).
//
// Special cases are:
//
//	GroupPrivacy(orders, rdp, c, alpha) = +Inf where the chosen rdp is +Inf
//	GroupPrivacy(...) = error for empty or mismatched lists, an order <= 1
//	    or NaN, an rdp < 0 or nil, c < 0 or c > 30, alpha < 2 (c > 0), alpha
//	    <= 1 or NaN, no curve order >= 2^c alpha
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func (c Context) GroupPrivacy(orders []float64, rdp []*big.Float, groupLog2 int, alpha float64) (*big.Float, error) {
	const fn = "GroupPrivacy"
	if err := checkCurve(fn, orders, rdp, Classic); err != nil {
		return nil, err
	}
	if groupLog2 < 0 || groupLog2 > 30 {
		return nil, inputErr(fn, "c", float64(groupLog2), "must be an integer in [0, 30]")
	}
	if err := checkOrderAboveOne(fn, alpha); err != nil {
		return nil, err
	}
	if groupLog2 > 0 && alpha < 2 {
		return nil, inputErr(fn, "alpha", alpha, "must be >= 2 (Mironov 2017, Prop 2: 2^c alpha >= 2^(c+1))")
	}
	p := c.prec()
	need := math.Ldexp(alpha, groupLog2)
	var best *big.Float
	for i, o := range orders {
		if o >= need && (best == nil || rdp[i].Cmp(best) < 0) {
			best = rdp[i]
		}
	}
	if best == nil {
		return nil, inputErr(fn, "orders", need, "no order >= 2^c alpha: the curve does not cover the order the theorem needs")
	}
	if best.IsInf() {
		return newF(p).SetInf(false), nil
	}
	base := int64(3)
	if math.IsInf(alpha, 1) {
		base = 2
	}
	m := new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(groupLog2)), nil)
	return newF(p).Mul(best, newF(p).SetInt(m)), nil
}

// KaryRandomizedResponse is Context{}.KaryRandomizedResponse at DefaultPrec.
func KaryRandomizedResponse(noise, buckets float64, relation string, alpha float64) (*big.Float, error) {
	return Context{}.KaryRandomizedResponse(noise, buckets, relation, alpha)
}

// PureDP is Context{}.PureDP at DefaultPrec.
func PureDP(eps, alpha float64) (*big.Float, error) { return Context{}.PureDP(eps, alpha) }

// ZCDP is Context{}.ZCDP at DefaultPrec.
func ZCDP(rho, xi, alpha float64) (*big.Float, error) { return Context{}.ZCDP(rho, xi, alpha) }

// ExponentialMechanism is Context{}.ExponentialMechanism at DefaultPrec.
func ExponentialMechanism(eps, alpha float64) (*big.Float, error) {
	return Context{}.ExponentialMechanism(eps, alpha)
}

// GroupPrivacy is Context{}.GroupPrivacy at DefaultPrec.
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func GroupPrivacy(orders []float64, rdp []*big.Float, c int, alpha float64) (*big.Float, error) {
	return Context{}.GroupPrivacy(orders, rdp, c, alpha)
}
