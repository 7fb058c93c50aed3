package fast

import (
	"math"
	"sync"
)

// Method
//
// Notation: s = sigma, L(z) = exp((2z-1)/(2 s^2)), u(z) = q (L(z)-1),
// phi_s the N(0, s^2) density, I(alpha) = E_mu0[(1+u)^alpha], and
// RDP = log I / (alpha-1). u = 2^-53 below is the unit roundoff.
//
// Integer orders (alpha = n). Because sum_k C(n,k)(1-q)^(n-k) q^k = 1,
//
//	I - 1 = sum_{k=2..n} T_k,  T_k = C(n,k) (1-q)^(n-k) q^k expm1((k^2-k)/(2 s^2)),
//
// a sum of non-negative terms: no cancellation, whatever q. Each term is
// formed in log space, x_k = log C(n,k) + n log(1-q) + g_k with
// g_k = k (log q - log(1-q)) + log expm1(c_k); exponents up to 5e9
// (n = 10,000, s = 0.1) are harmless. Terms with x_k < max - 40 - log n are
// dropped: together they are below e^-40 < 4.3e-18 of the sum. The
// absolute error of log(I-1) is bounded per evaluation by the worst error
// of a kept x_k plus (m+4)u for the m-term sum, and since
// d log1p(e^x) / log1p(e^x) <= dx, that bound is also the relative error
// bound of log I and of the RDP.
//
// log C(n,k). For n <= lfTabN = 4096 it is lf(n) - lf(k) - lf(n-k) from a
// double-double table of lf(m) = log m!, built at start-up from logDD of
// the primes (relative error ~1e-31), sums for composite m and prefix sums
// (each a double-double addition of positive terms, relative 2^-104): an
// entry is within 1e-21 absolute, and the difference, taken with two exact
// twoSums, is within u |log C| + 1e-20. The "+8" ulps of the per-term
// bound d_k cover the 1e-20. Above lfTabN log C is carried by a compensated
// recurrence over a table of log m (absolute error at most 2k u log n plus
// a few ulps of |log C|, added to d_k), with every term scanned.
//
// Skipping terms (n <= lfTabN). B(k) = log C(n,k) + k (log q - log(1-q))
// is strictly concave in k (B(k+1) - B(k) = log((n-k)/(k+1)) + log q -
// log(1-q) decreases), so its maximiser is floor((n+1) q) or one below;
// with m0 = floor((n+1) q) as computed (relative error < 1e-12, so off by at
// most one) it lies in [m0-2, m0+1], and over a <= k <= b B is largest at b
// if b < m0-2, at a if a > m0+1, and otherwise at one of the candidates
// m0-2..m0+1, a, b inside [a, b]. log expm1(c) increases with c, c_k with
// k, and log expm1(c) <= min(c, c + log c) (expm1(c) < e^c and
// expm1(c) <= c e^c). Hence every x_k of [a, b] is at most
// max B + n log(1-q) + c_b + min(0, log c_b); binomUB adds a margin of
// 0.5 + 8u times the magnitudes of the parts, above their rounding. An
// interval whose bound is below M' - 40 - log n, M' the largest x_k found
// so far (M' <= M), holds only terms the drop rule removes, and is never
// evaluated. The search walks down from k = n (where the terms of the
// larger orders peak) to the first term below the drop level (at most 64
// terms), then bisects the rest, evaluating intervals of at most 8 terms.
// The per-term bound d_k = u (4|x_k - n log(1-q)| + 7k (|log q| +
// |log(1-q)|) + 10 c_k + 7 lemLow + 3|n log(1-q)| + 2|x_k| + 8) is, over
// the kept terms (thresh <= x_k <= M, k <= kmax), at most its value with
// |x_k - n log(1-q)| and |x_k| replaced by their larger values at M and
// thresh, k by kmax (|.| is convex, c_k increases): that single bound dAgg
// is used when dAgg scale <= 1e-13, and otherwise each term's d_k as
// before, recomputing by xkAccurate the terms whose d_k scale > 1e-13
// (scale = 1 for log(I-1) < 1, 1/log(I-1) above, an upper bound on the
// relative weight e^x/((1+e^x) log1p(e^x)) of an error of x = log(I-1) in
// log I: log1p(e^x) >= x and >= e^x/(1+e^x)).
//
// Small orders of one (q, s) (n <= binomTabN = 64, intSumLin): the terms
// are summed in linear space, I - 1 = (1-q)^n sum_k C(n,k) G_k with
// G_k = e^(g_k) = m_k 2^(e_k), shared by all orders: e_k = floor(g_k/log 2),
// m_k = e^r, r = g_k - e_k log 2 by Cody-Waite's split of log 2 (exact
// products for |e_k| < 2^21). C(n,k) is rounded once from its exact
// integer. A term is C(n,k) m_k 2^(e_k - emax) (two products and an exact
// scaling by a power of 2); terms with e_k - emax < -135 are below 2^-70
// while the term at emax is >= 0.99, so the at most 63 dropped are below
// 5.5e-20 of the sum. The relative error of G_k is at most
// dg_k = u (4k (|log q|+|log(1-q)|) + 6 c_k + 2 lemLow + 6 + |g_k|) +
// 4.3e-18 (each log within an ulp, c_k within 4u c_k, log expm1(c) within
// 4u (c+1) + 2u + 2u|log expm1 c|) plus 4u for the reduction; the error of
// log(I-1) is the term-weighted mean of dg_k (accumulated with the sum),
// plus (n+3)u for C(n,k), the products and the sum, plus the roundings of
// n log(1-q) + emax log 2. The linear sum has no recomputation of terms
// whose parts cancel (tiny q, q near 1), so when its bound exceeds 1e-13
// relative in log I the order is summed in log space instead. SGM uses the
// same rule for these orders, so a curve and single calls agree.
//
// From log(I-1) = M + log S: log I = log1p(e^M S) for M <= 36 (e^M S has 2
// roundings, carried as 2u), lm1 + e^-lm1 with lm1 = M + log S up to 40,
// and lm1 above (the dropped e^-lm1 < 4.3e-18 is added to the bound).
//
// Fractional orders. I - 1 = integral of f(z) = phi_s(z) h(u(z)), where
// h(u) = (1+u)^alpha - 1 - alpha u >= 0 (convexity; the alpha u term
// integrates to 0 because E_mu0[L] = 1). Subtracting 1 + alpha u inside the
// integrand, rather than 1 from the integral, is what keeps every digit at
// q = 1e-12. h is evaluated pointwise by its binomial series (2 <= j <= J,
// ratio of terms at most rho = max(tau/3, tau/alpha) when alpha|u| <= tau =
// 0.1, truncated when rho^(J-1) < 1e-18) or else in the beta form
// (1+u) expm1((alpha-1) log1p(u)) - (alpha-1) u, or in the log form below;
// the cancellation of the beta form is measured (W below), not assumed.
//
// The integral is taken by the trapezoid rule on the grid z_j = j h. f is
// analytic in the strip |Im z| < pi s^2 (the only singularities of
// (1+u)^alpha are where 1+u = 0, at z0 + i(2m+1) pi s^2), so by
// Trefethen-Weideman (SIAM Rev. 2014, Thm 5.1) the error of the infinite
// sum is at most 2M/(exp(2 pi d/h)-1) for any d < pi s^2, where
// M = sup_{|y|<d} int |f(x+iy)| dx. With d = theta pi s^2, theta = 0.9:
// |phi_s(x+iy)| = phi_s(x) e^(y^2/(2s^2)); writing h(u) = u^2 alpha(alpha-1)
// int_0^1 (1-t)(1+tu)^(alpha-2) dt along a segment that stays in one half
// plane, |1+tu| <= 1+t u(x) and |1+tu| >= 0.157 (1+t u(x)) for
// |arg| <= 0.9 pi, and |u| <= q(L+1); hence M <= e^(d^2/(2s^2)) C (I-1) with
// C <= 6.4 (1 + 4 s^2) (the ratio E[(L+1)^2]/E[(L-1)^2] <= 1 + 4 s^2). The
// step h is chosen so that e^(d^2/(2s^2)) e^(-2 pi d/h) <= e^-E with
// E = 46 + log1p(4 s^2): minimising over d <= theta pi s^2 gives
// h = pi s sqrt(2/E) when that is >= 2/theta, and otherwise
// h = 2 theta pi^2 s^2 / (E + theta^2 pi^2 s^2/2). The discretisation error
// is then below 2 * 6.4 e^-46 < 1.4e-19 of I-1.
//
// Truncation. For real u > -1, h(u) <= C(alpha,2) u^2 max(1,(1+u)^(alpha-2)),
// u^2 <= q^2 (L^2+1), (1+u)^(alpha-2) <= 2^(alpha-2)(1+(qL)^(alpha-2)) for
// alpha >= 2 and <= (1-q)^(alpha-2) for alpha < 2. Since
// L^m phi_s(z) = e^((m^2-m)/(2s^2)) phi_s(z-m), f is bounded by a sum of at
// most four Gaussians of width s centred at 0, 2, alpha-2, alpha with known
// weights w_m. Each is covered out to R_m s (plus one step), with
// R_m^2 = 2 (log w_m - lref + 46), so the neglected mass is at most
// 4 e^(lref-46); after the sum S is known the code checks
// lref <= log S + 3 (so the tail is < 1e-18 S) and widens the windows if not.
// Any lref is thus valid; fracLref gives a lower estimate of log(I-1) from
// the integer order below (monotonicity), bounded below without a
// transcendental function (see fracLrefCached). Larger weights and wider
// windows only add nodes, so log C(alpha,2) in the weights is replaced by
// the upper bound logUB (within 0.2), and the node indices floor(a/h),
// ceil(b/h) of a window [a, b] are taken from a(1/h), b(1/h) moved outwards
// by 4u of their size (they are within 3u of a/h, b/h); a window reaching
// beyond 2^50 nodes (or NaN) is made wider still, and refused, instead of
// overflowing an index.
// When some node has phi_s (1+u)^alpha >= 4, I >= 4 and log I is summed
// directly in log space (no subtraction needed, no overflow), with windows
// from the two-Gaussian bound phi_s (1+u)^alpha <= 2^(alpha-1)
// ((1-q)^alpha phi_s + q^alpha L^alpha phi_s).
//
// Nodes. z_j = j h is carried exactly as zh + zl (zl = fma(j, h, -zh));
// z^2/(2 s^2) and e = (z - 1/2)/s^2 are formed in double-double (1/(2 s^2)
// from the exact s^2 of twoProd), so lP = log(h phi_s(z_j)) = c0 -
// z^2/(2 s^2) is known to ~u^2 |lP| and P = e^lP (from its two parts,
// e^hi (1 + lo)) is within 3u wherever it is normal, however large |lP| is;
// c0 = log h - log(s sqrt(2 pi)), common to every node, is within ec0 u.
// The elementary functions (math.Exp, Expm1, Log, Log1p) are taken within
// 1 ulp, 2u. u = q expm1(e) is within 4.1u (expm1 of the high part of e
// corrected by (1 + expm1) times the low part), 1+u within 5.1u right of
// z = 1/2 and 9.2u left of it (there also as 1-q + q e^e, within 5u, when
// u < -1/2), t = log(1+u) within 6.1u t right (kT = 6.5: u/(1+u) <= t) and
// 10.2u |t| left (kL = 10.5: |u|/(1+u) <= 2|t| for u >= -1/2, and
// |t| >= log 2 below). Right of the transition, u >= 1, 1+u = q e^e (1+w)
// with w = (1-q)/(q e^e) = (1-q)/(q+u), and t = log q + e + log1p(w) is
// carried in double-double (log q by logDD): within tw u, tw = 9.1 lw +
// 1e-13 (|log q| + t + 1), lw = log1p(w) (w within 7.1u, lw <= w) -- so that
// beta t keeps its digits at any size. Write tw = kT t for the other nodes
// right of z = 1/2: the error of t there is at most tw u.
//
// Beta form. A node with |u| > tau/alpha is summed as Pa E - beta Pu with
// Pa = P A = e^(lP+t), Pu = Pa u/A, E = expm1(beta t), beta t formed in
// double-double (expm1DD; curve.go steps d t the same way): an error dx of
// the argument x = beta t moves E by dx e^x/expm1(x) relative, at most
// dx (1 + 1/x) for x > 0 and dx/|x| for x < 0, so E is within
// (5m+4)u + 9.1u + beta tw u right of z = 1/2 and (5m+4)u + kL u left of it
// (tw/t <= 9.1; m the steps of the chain of curve.go since its restart, 0
// in SGM). The computed term is P(1+eP) [A(1+eA) E(1+eE) - beta u(1+eu)]
// up to four roundings (A cancels in Pu = P u), and beta|Pu| <= |Pa E| +
// term (term = Pa E - beta Pu >= 0; left of z = 1/2 both parts are
// negative), so its error is at most term (eP + eu + 3u) + |Pa E|
// (eA + eE + eu + 4u): over the beta-form nodes, at most
// u (32 + 5m) W + u beta D + 11u S with W = sum |Pa E| and
// D = sum Pa E tw right of z = 1/2, both accumulated with the sum. Series
// nodes: P (3u), u^2 (8.2u), coefficients (4u) and their evaluation,
// 16u + 1.4 (n + 2J) u of their sum (curve.go).
//
// Log form. Where the prefactor e^(lP+t) could be subnormal (lP < -708 or
// lP + t < -690, far out in z, as the Gaussian at alpha is when
// alpha* = 1 + 2 s^2 log(1/q) is large), where u overflowed (q e^e > e^708.5) or
// where E could (beta t > 700), a node right of z = 1/2 is summed as
// e^X B, X = lP + alpha t, B = (E - beta r)/(1+E), r = u/(1+u) (B = 1
// where beta t > 700: then B is within (1+beta) e^-700 below 1). No factor
// is far from the term, so nothing underflows unless the term itself does.
// For u >= 1, X = c0 - (z-alpha)^2/(2 s^2) + W + alpha lw with
// W = alpha log q + alpha(alpha-1)/(2 s^2) formed once per order in
// double-double (tailWeight; L^alpha phi_s(z) = e^((alpha^2-alpha)/(2s^2))
// phi_s(z-alpha) and t = log q + e + lw): the large parts of lP and
// alpha t (hundreds to thousands near alpha*) cancel exactly in W, and
// the rest is small where the term is not negligible. X is then within
// u (7 D + 2|W - D| + |c0| + 11.2 alpha lw + |X|), D = (z-alpha)^2/(2 s^2)
// (for u < 1: X = lP + alpha t within u ((kT+1) alpha t + |lP + alpha t| +
// |X|)), B within u (eE E (1 + beta r)/(1+E) + 11.2 beta r)/(E - beta r) +
// 3u (eE the bound on E above); logTerm adds term (those + 3u) to L.
// This is the cause of BugFastSGMTransition: those nodes were summed as
// e^(lP+t) (expm1(beta t) - beta r) with lP + t below -708 (a subnormal
// factor: 1.4% off at SGM(1e-9, 1, 40.59375), or lost to zero), and the
// errors of the exponents (u |lP| + alpha u t, 1e-12 relative and more near
// alpha*) were outside the 128u claimed per term.
//
// Subnormals. A subnormal prefactor is multiplied only by a factor of at
// most 1 (series, log form) or 1 + beta |r| <= (alpha+1) 2^54 (left of
// z = 1/2, 1-q >= 2^-53): every node adds at most (alpha+1) 2^-1020 of
// absolute error through underflow, and n of these are added to S.
//
// Rounding. S, the sum of the kept terms, is within rel(S) =
// u (20 + ec0 + 1.4 n + 2.8 J) + u ((32+5m) W + beta D + L)/S + 2e-18
// (truncation, discretisation, series) of I-1 (fracRel), and since
// log1p(S(1+r)) - log1p(S) <= S r/(1+S), log1p(S)/(alpha-1) is within
// rel(S) S/((1+S) log1p(S)) <= rel(S) of the RDP (logOnePlus). The result is
// rounded up by that bound, so that it is never below the exact RDP;
// TestFracErrorBoundHolds checks |value/exact - 1| <= bound on single calls
// and curves, in the band around alpha* too. In log space (I >= 4,
// fracLarge) a kept node's log term v = lP + alpha t is within
// u ((k+1) alpha |t| + 3|v| + 64), k = kL or kR (kR >= kT also covers the
// u = +Inf nodes, see newParams), the largest of which is carried.
//
// Extreme sigma. D_alpha is quasi-convex in its first argument (van
// Erven-Harremoes, Thm 13), so SGM <= D_alpha(N(1,s^2) || N(0,s^2)) =
// alpha/(2 s^2); and 1 - q + qL >= qL gives I >= q^alpha e^(alpha(alpha-1)
// /(2 s^2)), SGM >= alpha/(2 s^2) + alpha log q/(alpha-1). Where
// 2 s^2 |log q| <= (alpha-1) 2^-60 the two are within 2^-60 relative and
// SGM returns alpha/(2 s^2) rounded up (gaussianRDP, formed on scaled
// mantissas: +Inf only where it overflows; sigma^2 may underflow).
// For s >= 1e100, c = 1/(2 s^2) <= 5e-201: h(u) = C(alpha,2) u^2 (1 + theta
// 2|alpha-2| |u|) for |u| <= eta = c^(1/4) (|theta| <= 1), |u| > eta has
// probability below e^-(1e98) (log L ~ N(-c, 2c); the rest of E[h] there
// is negligible by Cauchy-Schwarz), and E[u^2] = q^2 expm1(2c), so
// I - 1 = C(alpha,2) q^2 expm1(2c) (1 + eps) with |eps| < 1e-44 (alpha <=
// 2^20), and SGM = alpha q^2 c within 1e-40 (sgmHugeSigma): the general
// method would form 4 s^2 = +Inf there. Results below the normal range
// carry four subnormal steps (roundUpRDP): the exact value is > 0 for
// q > 0, and SGM never returns 0 for it.
//
// Orders above maxFracOrder that are not integers are bounded by the next
// integer order: D_alpha is non-decreasing in alpha (van Erven-Harremoes
// 2014, Thm 3), so RDP(alpha) <= RDP(ceil alpha) (ceil(alpha)-1)/(alpha-1)
// is a valid upper bound; it is documented as such.

const (
	unit = 0x1p-53 // unit roundoff of float64

	// maxFracOrder: fractional orders above it are bounded by the next integer.
	maxFracOrder = 1024

	logTabN  = 1 << 14
	tau      = 0.1 // series region alpha |u| <= tau
	maxJ     = 24  // at most maxJ series coefficients (rho <= 0.1 -> J <= 19)
	maxNodes = 1 << 16
	theta    = 0.9
	tailT    = 46.0
	ln2      = math.Ln2
)

var logTab = func() *[logTabN + 1]float64 {
	var t [logTabN + 1]float64
	for n := 1; n <= logTabN; n++ {
		t[n] = math.Log(float64(n))
	}
	return &t
}()

func logInt(n int) float64 {
	if n <= logTabN {
		return logTab[n]
	}
	return math.Log(float64(n))
}

// params are the per-(q, sigma) constants shared by every order.
type params struct {
	q, s      float64
	omq       float64 // 1-q (exact when q >= 1/2)
	lq, l1q   float64 // log q, log(1-q)
	i2s2      float64 // 1/(2 s^2), high part of a double-double
	i2s2l     float64 // its low part
	is2, is2l float64 // 1/s^2 = 2 (i2s2 + i2s2l)
	lemLow    float64 // bound on |log expm1(c)| for small c
	lNorm     float64 // log(s sqrt(2 pi))
	h         float64 // trapezoid step
	ih        float64 // 1/h
	logh      float64
	c0        float64 // log h - lNorm = log(h phi_s(0))
	ec0       float64 // bound on the error of c0, in units of u
	kR, kL    float64 // |error of t| <= kR u t where t > 0, kL u |t| where t < 0
	E         float64 // trapezoid error exponent
	expm1is2  float64 // expm1(1/s^2)
	lExpm1is2 float64 // log(expm1(1/s^2))
	lqh, lql  float64 // log q in double-double, once lqDD is true
	lqDD      bool
}

func newParams(q, s float64) params {
	p := params{q: q, s: s, omq: 1 - q}
	p.lq = logPos(q)
	if q >= 0.5 {
		p.l1q = math.Log(1 - q)
	} else {
		p.l1q = math.Log1p(-q)
	}
	s2h, s2l := twoProd(s, s) // exact
	p.i2s2, p.i2s2l = ddDiv(1, 0, 2*s2h, 2*s2l)
	p.is2, p.is2l = 2*p.i2s2, 2*p.i2s2l
	p.lemLow = math.Abs(math.Log(2*p.i2s2)) + 1
	ls := math.Log(s)
	p.lNorm = ls + lnSqrt2Pi
	// E = 46 + log1p(4 s^2), without overflowing 4 s^2
	if s > 1 {
		p.E = tailT + 2*math.Log(2*s) + math.Log1p(0.25*p.is2)
	} else {
		p.E = tailT + math.Log1p(4*s*s)
	}
	h1 := math.Pi * s * math.Sqrt(2/p.E)
	if h1 >= 2/theta {
		p.h = h1
	} else {
		t2 := theta * theta * math.Pi * math.Pi * s * s
		p.h = 2 * theta * math.Pi * math.Pi * s * s / (p.E + t2/2)
	}
	p.logh = math.Log(p.h)
	p.ih = 1 / p.h
	p.c0 = p.logh - p.lNorm
	// log h, log s within 2u relative, lnSqrt2Pi within u/2, two sums
	p.ec0 = 2*math.Abs(p.logh) + 2*math.Abs(ls) + 1 + math.Abs(p.lNorm) + math.Abs(p.c0)
	p.kL = 10.5
	// Right of z = 1/2, t = log1p(u) is within 6.1u t, except on nodes
	// where q e^e overflows (u = +Inf: e >= 709 and log q + e >= 708.5, see
	// node) where t = log q + e + log1p(w) is within u (2t + 8|log q| +
	// 1426) and t >= 708 (see Method).
	p.kR = max(6.5, 2+(8*math.Abs(p.lq)+1426)/708)
	p.expm1is2 = math.Expm1(p.is2)
	p.lExpm1is2 = math.Log(p.expm1is2)
	return p
}

// logQDD returns log q in double-double (logDD, relative error ~1e-31),
// computed once per params.
func (p *params) logQDD() (float64, float64) {
	if !p.lqDD {
		p.lqh, p.lql = logDD(p.q)
		p.lqDD = true
	}
	return p.lqh, p.lql
}

// lem returns log(expm1(c)) for c > 0.
func lem(c float64) float64 {
	if c > 40 {
		return c // log1p(-e^-c) < 4.3e-18 relative to c >= 40
	}
	return math.Log(math.Expm1(c))
}

// gk is the order-independent part of x_k.
func (p *params) gk(k int) float64 {
	fk := float64(k)
	return fk*(p.lq-p.l1q) + lem(fk*(fk-1)*p.i2s2)
}

// intLogIm1Scan returns log(I-1) for the integer order n >= 2 and a bound
// on its absolute error by a scan of every term, with log C(n,k) carried by
// the compensated recurrence; used above lfTabN. g memoises p.gk (gAt).
func (p *params) intLogIm1Scan(n int, g, buf []float64) (lm1, errAbs float64) {
	nl1q := float64(n) * p.l1q
	fn := float64(n)
	lC := math.Log(fn * (fn - 1) / 2) // exact product for n <= 2^26
	var lCc float64                   // Neumaier compensation of lC
	M := math.Inf(-1)
	useBuf := n < len(buf)
	for k := 2; ; k++ {
		x := (lC + lCc) + nl1q + p.gAt(g, k)
		if useBuf {
			buf[k] = x
		}
		if x > M {
			M = x
		}
		if k == n {
			break
		}
		d := logInt(n-k) - logInt(k+1)
		t := lC + d
		if math.Abs(lC) >= math.Abs(d) {
			lCc += (lC - t) + d
		} else {
			lCc += (d - t) + lC
		}
		lC = t
	}
	thresh := M - 40 - math.Log(fn)
	var S, dmax float64
	m := 0
	ln := math.Log(fn)
	absL := math.Abs(p.l1q)
	absQ := math.Abs(p.lq)
	// relative weight of an absolute error of log(I-1) in log I (see intRDP)
	scale := 1 / (1 + math.Exp(-M)) / log1pexp(M)
	var lCr, lCrc float64
	if !useBuf {
		lCr = math.Log(fn * (fn - 1) / 2)
	}
	for k := 2; k <= n; k++ {
		var x float64
		if useBuf {
			x = buf[k]
		} else {
			x = (lCr + lCrc) + nl1q + p.gAt(g, k)
			if k < n {
				d := logInt(n-k) - logInt(k+1)
				t := lCr + d
				if math.Abs(lCr) >= math.Abs(d) {
					lCrc += (lCr - t) + d
				} else {
					lCrc += (d - t) + lCr
				}
				lCr = t
			}
		}
		if x < thresh {
			continue
		}
		fk := float64(k)
		c := fk * (fk - 1) * p.i2s2
		// Error of the recurrence value: table and compensated-sum errors
		// of log C (2k u log n) plus a few ulps of each term.
		d := unit * (4*(math.Abs(x-nl1q)+fk*(absQ+absL)+c+p.lemLow) + 3*math.Abs(nl1q) +
			3*fk*(absQ+absL) + 6*c + 3*p.lemLow + 2*math.Abs(x) + 2*fk*ln + 8)
		if d*scale > 1e-13 {
			// Recompute the kept term by Loader's saddle-point form of the
			// binomial pmf: its absolute error is a few ulps of the (small)
			// log pmf, not of the large cancelling terms log C,
			// n log(1-q), k log q.
			x, d = p.xkAccurate(n, k, c)
		}
		S += math.Exp(x - M)
		m++
		if d > dmax {
			dmax = d
		}
	}
	lm1 = M + math.Log(S)
	errAbs = dmax + float64(m+4)*unit + unit*math.Abs(M) + 4.3e-18
	return lm1, errAbs
}

const lnSqrt2Pi = 0.91893853320467274178032973640562 // log(sqrt(2 pi))

// stirlerr returns log(n!) - log(sqrt(2 pi n) (n/e)^n) for integer n >= 1
// (Loader 2000), with absolute error below 1e-14.
func stirlerr(n float64) float64 {
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - lnSqrt2Pi
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x log(x/M) + M - x >= 0 (Loader 2000) for x >= 1 and
// M = mh + ml > 0 (a double-double: the exact product n q), in
// double-double, and a bound on its absolute error. Away from x = M the
// parts x log(x/M) and M - x are each as large as x and M and cancel to
// far less (bd0(1300, 1000) = 111 from 341 and -300): they are formed in
// double-double, so that only the final rounding is left (a float64
// Loader form lost 4u (x + M + |x log(x/M)|) there, 1.6e-12 relative in
// SGM at n = 10,000, sigma = 1000).
func bd0(x, mh, ml float64) (vh, vl, err float64) {
	dh, dl := twoSum(x, -mh)
	dl -= ml // x - M, exact to ~u^2 M
	d := dh + dl
	// M's own error: none where n q is exact in double-double; where it is
	// subnormal, half a step of 2^-1074 moves bd0 by |1 - x/M| of it.
	var eM float64
	if mh < 0x1p-969 {
		eM = math.Abs(d) / mh * 0x1p-1075
	}
	if math.Abs(d) < 0.1*(x+mh) {
		w := d / (x + mh)
		s := d * w
		ej := 2 * x * w
		w2 := w * w
		for j := 1; j < 1000; j++ {
			ej *= w2
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				break
			}
			s = s1
		}
		return s, 0, 8*unit*s + 4*unit*math.Abs(d)*math.Abs(w) + eM + 1e-300
	}
	lxh, lxl := logDD(x)
	lmh, lml := logDD(mh)
	lml += ml / mh // log(mh + ml) to (ml/mh)^2/2 < u^2/2
	rh, rl := ddAdd(lxh, lxl, -lmh, -lml)
	ph, pl := ddMul(x, 0, rh, rl)
	vh, vl = ddAdd(ph, pl, -dh, -dl)
	// logDD within ~1e-31 relative, three double-double operations
	return vh, vl, 1e-29*(math.Abs(ph)+x+mh) + eM + 1e-300
}

// binomMeans returns n q and n (1-q) as exact double-doubles (the exact
// products, 1-q being exact for q >= 1/2), the centres of bd0.
func (p *params) binomMeans(fn float64) (m1h, m1l, m2h, m2l float64) {
	if p.q > 0.5 {
		m2h, m2l = twoProd(fn, p.omq)
		h, l := twoSum(fn, -m2h)
		m1h, m1l = fastTwoSum(h, l-m2l)
		return
	}
	m1h, m1l = twoProd(fn, p.q)
	h, l := twoSum(fn, -m1h)
	m2h, m2l = fastTwoSum(h, l-m1l)
	return
}

// logBinomPMF returns log(C(n,k) q^k (1-q)^(n-k)) for 2 <= k <= n and an
// absolute error bound, by Loader's form
// stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, nq) - bd0(n-k, n(1-q)) + log(n/(2 pi k (n-k)))/2,
// summed in double-double: the bd0 are as large as n times a KL
// divergence where the pmf is small, the result is what is left.
func (p *params) logBinomPMF(n, k int) (v, err float64) {
	fn, fk := float64(n), float64(k)
	if k == n {
		v = fn * p.lq
		return v, 2 * unit * math.Abs(v)
	}
	m1h, m1l, m2h, m2l := p.binomMeans(fn)
	b1h, b1l, e1 := bd0(fk, m1h, m1l)
	b2h, b2l, e2 := bd0(fn-fk, m2h, m2l)
	st := stirlerr(fn) - stirlerr(fk) - stirlerr(fn-fk)
	lg := 0.5 * math.Log(fn/(2*math.Pi*fk*(fn-fk)))
	h, l := ddAdd(b1h, b1l, b2h, b2l)
	h, l = ddAdd(st, 0, -h, -l)
	h, l = ddAdd(h, l, lg, 0)
	v = h + l
	// stirlerr within 1e-14 each; lg within 3 roundings of its argument and
	// the log; st's two subtractions; the final rounding.
	err = e1 + e2 + 3e-14 + 3*unit*math.Abs(lg) + 2*unit*math.Abs(st) + unit*math.Abs(v)
	return v, err
}

// xkAccurate returns x_k = log(C(n,k) q^k (1-q)^(n-k) expm1(c)) and an
// absolute error bound, by Loader's form of the binomial pmf; when its
// bd0(k, nq) is large (tiny q) and c > 40, the two large cancelling parts
// k log q and c = k(k-1)/(2 s^2) are added in double-double.
func (p *params) xkAccurate(n, k int, c float64) (x, d float64) {
	fn, fk := float64(n), float64(k)
	m1h, m1l, m2h, m2l := p.binomMeans(fn)
	if c <= 40 || (k != n && math.Abs(fk-m1h) < 0.1*(fk+m1h)) {
		lp, lpErr := p.logBinomPMF(n, k)
		le := lem(c)
		x = lp + le
		return x, lpErr + unit*(4*c+3*math.Abs(le)+2*math.Abs(x)+4)
	}
	lqh, lql := logDD(p.q)
	ah, al := ddMul(fk, 0, lqh, lql)
	s2h, s2l := twoProd(p.s, p.s)
	ch, cl := ddDiv(fk*(fk-1), 0, 2*s2h, 2*s2l)
	bh, bl := ddAdd(ah, al, ch, cl)
	if k == n {
		// q^n expm1(c), c > 40: x = n log q + c
		x = bh + bl
		return x, 4*unit*math.Abs(x) + 1e-28*(c+fk*math.Abs(p.lq))
	}
	b2h, b2l, e2 := bd0(fn-fk, m2h, m2l)
	st := stirlerr(fn) - stirlerr(fk) - stirlerr(fn-fk)
	lg := 0.5 * math.Log(fn/(2*math.Pi*fk*(fn-fk)))
	// -bd0(k, M1) = -k log(k/n) - M1 + k + k log q, the last in bh
	knh, knl := logDD(fk / fn) // fk/fn rounded: k u more below
	klh, kll := ddMul(fk, 0, knh, knl)
	h, l := ddAdd(st+lg, 0, -b2h, -b2l)
	h, l = ddAdd(h, l, -klh, -kll)
	h, l = ddAdd(h, l, fk, -m1h)
	h, l = ddAdd(h, l, -m1l, 0)
	x, _ = ddAdd(h, l, bh, bl)
	d = e2 + 3e-14 + 3*unit*math.Abs(lg) + 2*unit*math.Abs(st) + unit*math.Abs(st+lg) + fk*unit +
		unit*math.Abs(x) + 1e-28*(c+fk*math.Abs(p.lq)+math.Abs(klh)+fk+m1h)
	return x, d
}

// log1pexp returns log(1+e^x).
func log1pexp(x float64) float64 {
	if x > 36 {
		return x + math.Exp(-x)
	}
	return math.Log1p(math.Exp(x))
}

// roundUp returns v(1+rel) rounded up, so that an exact value within a
// relative distance rel of v is never above the result.
func roundUp(v, rel float64) float64 {
	if v <= 0 || math.IsInf(v, 1) {
		return v
	}
	return math.Nextafter(v*(1+rel), math.Inf(1))
}

// roundUpRDP is roundUp for the values of SGM, also below the normal
// range where float64 has no relative precision left: there four steps of
// the smallest subnormal are added, which cover the half-step roundings of
// a tiny result and of its product by 1+rel.
func roundUpRDP(v, rel float64) float64 {
	if v >= 0 && v < 0x1p-1000 {
		return v*(1+rel) + 4*0x1p-1074
	}
	return roundUp(v, rel)
}

// node holds the order-independent values at z_j = j h (see "Nodes" in
// the Method comment).
type node struct {
	lP  float64 // log(h phi_s(z_j)): high part
	lPl float64 // its low part
	P   float64 // h phi_s(z_j) = e^(lP+lPl), within 3u when normal
	u   float64 // q(L-1), within 4.1u; +Inf past overflow
	A   float64 // 1+u, accurate also when u is near -1
	t   float64 // log(1+u): high part
	tl  float64 // its low part, where u >= 1 (else 0)
	lw  float64 // log1p(w), w = (1-q)/(q L), where u >= 1 (else 0)
}

// node computes the values at z_j. z_j = zh + zl exactly; z^2/(2 s^2)
// and e = (z-1/2)/s^2 are formed in double-double, so that P and u carry a
// few ulps whatever the size of the exponents.
func (p *params) node(j int) node {
	fj := float64(j)
	zh := fj * p.h
	zl := math.FMA(fj, p.h, -zh)
	var nd node
	sh, sl := twoProd(zh, zh)
	sl += 2 * zh * zl
	qh, ql := ddMul(sh, sl, p.i2s2, p.i2s2l)
	lh, le := twoSum(p.c0, -qh)
	nd.lP, nd.lPl = lh, le-ql
	P := math.Exp(nd.lP)
	nd.P = math.FMA(P, nd.lPl, P)
	dh, dl := twoSum(zh, -0.5)
	eh, el := ddMul(dh, dl+zl, p.is2, p.is2l)
	nd.u = math.Inf(1)
	if eh < 709 {
		em := math.Expm1(eh)
		em += (1 + em) * el // expm1(eh+el) to first order in el
		nd.u = p.q * em
	} else if lqh, lql := p.logQDD(); lqh+eh < 708.5 {
		// e^e overflows but q e^e does not (tiny or subnormal q): u = q e^e
		// - q from log q + e in double-double, within 3u. Calling such a u
		// +Inf would leave t = log q + e + log1p(w) to cancel to nearly
		// nothing, and its error bound (kR) to grow without limit.
		xh, xl := ddAdd(lqh, lql, eh, el)
		ex := math.Exp(xh)
		nd.u = (ex + ex*xl) - p.q
	}
	switch {
	case math.IsInf(nd.u, 1):
		nd.A = math.Inf(1)
		nd.lw = math.Log1p(math.Exp(p.l1q - p.lq - eh))
		nd.t, nd.tl = p.tDD(eh, el, nd.lw)
	case nd.u >= 1:
		nd.A = 1 + nd.u
		// w = (1-q)/(q e^e) and q e^e = q + u
		w := p.omq / (p.q + nd.u)
		if w < 0x1p-14 {
			// log1p(w) to w^5/5 < 3e-18 w
			nd.lw = w * (1 - w*(0.5-w*(1.0/3-w*0.25)))
		} else {
			nd.lw = math.Log1p(w)
		}
		nd.t, nd.tl = p.tDD(eh, el, nd.lw)
	case nd.u >= -0.5:
		nd.A = 1 + nd.u
		nd.t = math.Log1p(nd.u)
	default:
		ex := math.Exp(eh)
		nd.A = p.omq + p.q*(ex+ex*el)
		nd.t = math.Log(nd.A)
	}
	return nd
}

// tDD returns t = log(1+u) = log q + e + log1p(w) (1+u = q e^e (1+w)) in
// double-double, for u >= 1: within 9.1u lw + 1e-13 u (|log q| + e + 1).
func (p *params) tDD(eh, el, lw float64) (float64, float64) {
	lqh, lql := p.logQDD()
	h, l := ddAdd(lqh, lql, eh, el)
	return ddAdd(h, l, lw, 0)
}

// kT: |error of t| <= kT u t right of z = 1/2 where u < 1 (log1p of u
// within 4.1u); tErr is the error of t in units of u right of z = 1/2.
const kT = 6.5

func (p *params) tErr(nd *node) float64 {
	if nd.u >= 1 {
		return 9.1*nd.lw + 1e-13*(math.Abs(p.lq)+nd.t+1)
	}
	return kT * nd.t
}

// expm1DD returns expm1(x (t + tl)) for x t <= 709, correcting the
// rounding of the product to first order (pl e^p, pl <= u |x t|).
func expm1DD(x, t, tl float64) float64 {
	p := x * t
	pl := math.FMA(x, t, -p) + x*tl
	E := math.Expm1(p)
	return E + (1+E)*pl
}

// grid caches nodes j in [lo, lo+len(nodes)).
type grid struct {
	lo    int
	nodes []node
}

func (g *grid) get(p *params, j int) node {
	if i := j - g.lo; i >= 0 && i < len(g.nodes) {
		return g.nodes[i]
	}
	return p.node(j)
}

// fill caches the nodes of [lo, hi] (at most maxShared of them).
func (g *grid) fill(p *params, lo, hi int) {
	if hi < lo || hi-lo+1 > maxShared {
		g.nodes = g.nodes[:0]
		return
	}
	g.lo = lo
	n := hi - lo + 1
	if cap(g.nodes) < n {
		g.nodes = make([]node, n)
	}
	g.nodes = g.nodes[:n]
	for i := range g.nodes {
		g.nodes[i] = p.node(lo + i)
	}
}

const maxShared = 1 << 13

// window is a set of at most 4 disjoint node index intervals.
type window struct {
	n      int
	lo, hi [4]int
}

// fracWindows returns the node intervals covering the Gaussians (centres c,
// log weights lw) out to R s + h, for the reference level lref.
func (p *params) fracWindows(c, lw []float64, lref float64) window {
	var w window
	type iv struct{ a, b float64 }
	var ivs [4]iv
	k := 0
	for i := range c {
		r := lw[i] - lref + tailT
		if r <= 0 {
			continue
		}
		R := math.Sqrt(2*r)*p.s + p.h
		ivs[k] = iv{c[i] - R, c[i] + R}
		k++
	}
	// sort by start (k <= 4)
	for i := 1; i < k; i++ {
		for j := i; j > 0 && ivs[j].a < ivs[j-1].a; j-- {
			ivs[j], ivs[j-1] = ivs[j-1], ivs[j]
		}
	}
	for i := 0; i < k; i++ {
		// floor(a/h) and ceil(b/h), or one node wider: x*ih is within
		// 3u|x/h| of x/h.
		x, y := ivs[i].a*p.ih, ivs[i].b*p.ih
		if !(math.Abs(x) < 0x1p50 && math.Abs(y) < 0x1p50) {
			// no index overflow: a window this far out (or NaN) is
			// made too wide, and count refuses it
			x, y = -0x1p50, 0x1p50
		}
		lo := int(math.Floor(x - 4*unit*math.Abs(x)))
		hi := int(math.Ceil(y + 4*unit*math.Abs(y)))
		if w.n > 0 && lo <= w.hi[w.n-1]+1 {
			if hi > w.hi[w.n-1] {
				w.hi[w.n-1] = hi
			}
			continue
		}
		w.lo[w.n], w.hi[w.n] = lo, hi
		w.n++
	}
	return w
}

func (w *window) count() int {
	c := 0
	for i := 0; i < w.n; i++ {
		c += w.hi[i] - w.lo[i] + 1
	}
	return c
}

// logUB returns an upper bound on log x (x > 0 finite), within 0.2:
// log(m 2^e) <= e log 2 + m - 1 for m in [1/2, 1).
func logUB(x float64) float64 {
	m, e := math.Frexp(x)
	fe := float64(e)
	return fe*ln2 + (m - 1) + 1e-15*(1+math.Abs(fe))
}

// fracCentres returns the centres and log weights (upper bounds) of the
// Gaussian bounds of the small-regime integrand phi_s h(u) (large=false) or
// of phi_s (1+u)^a.
func (p *params) fracCentres(a float64, large bool, c, lw *[4]float64) int {
	if large {
		c[0], lw[0] = 0, (a-1)*ln2+a*p.l1q
		c[1], lw[1] = a, (a-1)*ln2+a*p.lq+(a*a-a)*p.i2s2
		return 2
	}
	lC2 := logUB(a * (a - 1) / 2)
	var lK float64
	if a >= 2 {
		lK = lC2 + (a-2)*ln2
	} else {
		lK = lC2 + (a-2)*p.l1q
	}
	c[0], lw[0] = 0, lK+2*p.lq
	c[1], lw[1] = 2, lK+2*p.lq+p.is2
	if a < 2 {
		return 2
	}
	b := a - 2
	c[2], lw[2] = b, lK+a*p.lq+(b*b-b)*p.i2s2
	c[3], lw[3] = a, lK+a*p.lq+(a*a-a)*p.i2s2
	return 4
}

// fracLref is a first estimate of log(I-1), a lower bound for a >= 2:
// D_alpha is non-decreasing in alpha, so log I(a) >= (a-1)/(n-1) log I(n)
// with n = floor(a), and I(n) is the exact binomial sum.
func (p *params) fracLref(a float64, g, buf []float64) float64 {
	return p.fracLrefCached(a, g, buf, nil)
}

// intCache memoises intValue for the small integer orders of one curve
// (logI NaN: unset), with the G_k of the linear-space sums (intSumLin).
type intCache struct {
	v   [128]intVal
	gp  [binomTabN + 1]gPow
	gpN int  // gp[k] valid for k < gpN
	lin bool // false once some G_k could not be reduced
}

func (c *intCache) reset() {
	for i := range c.v {
		c.v[i].logI = math.NaN()
	}
	c.gpN = 2
	c.lin = true
}

// intValueCached is intValue memoised in cache (nil: none); orders up to
// binomTabN are summed in linear space.
func (p *params) intValueCached(n int, g, buf []float64, cache *intCache) intVal {
	if cache == nil || n >= len(cache.v) {
		return p.intValue(n, g, buf)
	}
	if c := &cache.v[n]; !math.IsNaN(c.logI) {
		return *c
	}
	if n <= binomTabN && cache.lin {
		for ; cache.gpN <= n && cache.lin; cache.gpN++ {
			k := cache.gpN
			cache.gp[k], cache.lin = p.gPowAt(g, k)
			cache.gp[k].emax = cache.gp[k].e
			if k > 2 {
				cache.gp[k].emax = max(cache.gp[k].e, cache.gp[k-1].emax)
			}
		}
	}
	var v intVal
	if n <= binomTabN && cache.lin {
		v = p.intValueFrom(p.intSumLin(n, cache.gp[:]))
		// The linear sum has no recomputation of the large terms whose
		// parts cancel (tiny q, q near 1): when its bound is loose, sum
		// in log space, which recomputes them (xkAccurate).
		if !(v.errAbs*v.sig <= 1e-13*v.logI) {
			v = p.intValue(n, g, buf)
		}
	} else {
		v = p.intValue(n, g, buf)
	}
	cache.v[n] = v
	return v
}

// fracLrefCached is fracLref with log I(n) memoised in cache. Any level
// is valid (fracRDP and fracShared check it against the sum and retry);
// a lower one only widens the windows. For lb = (a-1)/(n-1) log I(n) <= 36
// it returns a lower bound on log(expm1(lb)) without a transcendental
// function: log(expm1(lb)) = lb + log(1-e^-lb) >= lb - 0.1455 for lb >= 2,
// and log(expm1(lb)) >= log(lb) >= e log 2 + 1 - 1/m for lb = m 2^e,
// m in [1/2, 1) (log x >= 1 - 1/x).
func (p *params) fracLrefCached(a float64, g, buf []float64, cache *intCache) float64 {
	if a >= 2 {
		n := int(a)
		var logIn float64
		if n == 2 {
			logIn = math.Log1p(p.q * p.q * p.expm1is2)
		} else {
			logIn = p.intValueCached(n, g, buf, cache).logI
		}
		lb := (a - 1) / float64(n-1) * logIn
		switch {
		case lb > 36:
			return lb
		case lb >= 2:
			return lb - 0.1455
		case lb > 0:
			m, e := math.Frexp(lb)
			return float64(e)*ln2 + 1 - 1/m
		}
	}
	return math.Log(a*(a-1)/2) + 2*p.lq + p.lExpm1is2
}

// logForm reports whether a node with t > 0 is summed in log form (see
// "Log form" in the Method comment): its prefactor e^(lP+t) could be
// subnormal, u overflowed, or E = expm1(beta t) could.
func logForm(nd *node, bt float64) bool {
	return nd.lP < -708 || nd.lP+nd.t < -690 || math.IsInf(nd.u, 1) || bt > 700
}

// tailW is W = a log q + a(a-1)/(2 s^2), the log weight of the Gaussian at
// a (L^a phi_s(z) = e^((a^2-a)/(2s^2)) phi_s(z-a)), in double-double: its
// error is below 1e-29 (mag = |a log q| + a(a-1)/(2s^2)).
type tailW struct{ h, l, mag float64 }

func (p *params) tailWeight(a float64) tailW {
	lqh, lql := p.logQDD()
	ah, al := twoProd(a, lqh)
	al += a * lql
	bh, bl := twoProd(a, a-1) // a-1 is exact
	ch, cl := ddMul(bh, bl, p.i2s2, p.i2s2l)
	h, l := ddAdd(ah, al, ch, cl)
	return tailW{h, l, math.Abs(ah) + math.Abs(ch)}
}

// logTerm returns the term P h(u) of node j (t > 0) in log form,
// e^X (E - beta r)/(1+E) with X = lP + a t, and a bound on its absolute
// error in units of u (the common error ec0 of c0 aside). E = expm1(beta t)
// within eE u relative (not used when beta t > 700). W: tailWeight(a),
// needed when u >= 1.
func (p *params) logTerm(j int, nd *node, a, beta float64, W *tailW, E, eE float64) (term, errAbs float64) {
	var X, eX float64
	if nd.u >= 1 {
		// X = c0 - (z-a)^2/(2 s^2) + W + a log1p(w): the large parts of
		// lP and a t cancel exactly in W.
		fj := float64(j)
		zh := fj * p.h
		zl := math.FMA(fj, p.h, -zh)
		dz := (zh - a) + zl
		D := dz * dz * p.i2s2
		wd := W.h - D
		al := a * nd.lw
		X = (wd + p.c0) + (W.l + al)
		eX = 7*D + 2*math.Abs(wd) + math.Abs(p.c0) + 11.2*al + math.Abs(X) + 1e-13*W.mag
		if math.IsInf(nd.u, 1) {
			// w = exp(log(1-q) - log q - e), e <= t + |log q|
			eX += al * (5*math.Abs(p.lq) + 2*math.Abs(p.l1q) + 3*nd.t + 4)
		}
	} else {
		at := a * nd.t
		v := nd.lP + at
		X = v + nd.lPl
		eX = (kT+1)*at + math.Abs(v) + math.Abs(X)
	}
	eX += 3 // exp and the product by B
	f := math.Exp(X)
	if beta*nd.t > 700 {
		// B = 1 - (1 + beta r) e^(-beta t) is within (1+beta) e^-700 below 1
		return f, f * eX
	}
	br := beta
	if !math.IsInf(nd.A, 1) {
		br = beta * (nd.u / nd.A)
	}
	num := E - br
	dB := eE*(E/(1+E))*(1+br) + 11.2*br // error of num (units of u), see Method
	if num <= 0 {
		// all cancelled: the term is at most the error of num
		return 0, f * (dB + 3*E) / (1 + E)
	}
	term = f * (num / (1 + E))
	return term, term * (eX + 3 + dB/num)
}

// fracRDP returns the RDP at the fractional order a (1 < a <= maxFracOrder)
// and its relative error bound; ok is false if the grid would be too large.
func (p *params) fracRDP(a, lref float64, g *grid, coef *[maxJ + 1]float64) (rdp, rel float64, ok bool) {
	var c, lw [4]float64
	nc := p.fracCentres(a, false, &c, &lw)
	beta := a - 1
	J := seriesCoef(a, coef)
	lim := tau / a
	var W tailW
	haveW := false

	for iter := 0; iter < 4; iter++ {
		w := p.fracWindows(c[:nc], lw[:nc], lref)
		if w.count() > maxNodes {
			return 0, 0, false
		}
		// regime: largest node term of phi_s (1+u)^a
		Mx := math.Inf(-1)
		for iv := 0; iv < w.n; iv++ {
			for j := w.lo[iv]; j <= w.hi[iv]; j++ {
				nd := g.get(p, j)
				if v := nd.lP + a*nd.t; v > Mx {
					Mx = v
				}
			}
		}
		if Mx >= 600 {
			return p.fracLarge(a, g, Mx)
		}
		// S: the sum; Wb = sum |Pa E| and Dt = sum Pa E tErr (t > 0) over
		// the beta-form nodes, L the absolute error bound of the log-form
		// nodes (units of u).
		var S, Wb, Dt, L float64
		n := 0
		for iv := 0; iv < w.n; iv++ {
			for j := w.lo[iv]; j <= w.hi[iv]; j++ {
				nd := g.get(p, j)
				n++
				if math.Abs(nd.u) <= lim {
					v := coef[J]
					for k := J - 1; k >= 2; k-- {
						v = v*nd.u + coef[k]
					}
					S += nd.P * v * nd.u * nd.u
					continue
				}
				bt := beta * nd.t
				if nd.t > 0 && logForm(&nd, bt) {
					if !haveW && nd.u >= 1 {
						W, haveW = p.tailWeight(a), true
					}
					var E float64
					if bt <= 700 {
						E = expm1DD(beta, nd.t, nd.tl)
					}
					tm, e := p.logTerm(j, &nd, a, beta, &W, E, beta*p.tErr(&nd)+14)
					S += tm
					L += e
					continue
				}
				Pa := nd.P * nd.A
				pe := Pa * expm1DD(beta, nd.t, nd.tl)
				S += pe - beta*(Pa*(nd.u/nd.A))
				if nd.t > 0 {
					Wb += pe
					Dt += pe * p.tErr(&nd)
				} else {
					Wb -= pe
				}
			}
		}
		absT := float64(n) * (a + 1) * 0x1p-1020 // subnormal prefactors
		if S <= 0 {
			// Every node underflowed: I-1 is below 1e-300; retry lower.
			if lref < -2000 {
				return math.Log1p(absT) / beta, 0, true
			}
			lref -= 700
			continue
		}
		lS := math.Log(S)
		if lref > lS+3 {
			lref = lS
			continue
		}
		rel = fracRel(p, S, Wb, Dt, L, beta, n, J, 0)
		return logOnePlus(S+absT, rel, beta)
	}
	return 0, 0, false
}

// logOnePlus returns log1p(S)/beta and its relative error bound for S
// within rel relative: log1p(S(1+rel)) - log1p(S) <= S rel/(1+S), a
// relative S rel/((1+S) log1p(S)) <= rel; for S >= 1, log(1+S) (the
// rounding of 1+S costs at most u/log 2 < 1.5u relative, carried as 2u).
func logOnePlus(S, rel, beta float64) (float64, float64, bool) {
	if S >= 1 {
		l := math.Log(1 + S)
		return l / beta, rel*(S/((1+S)*l)) + 2*unit, true
	}
	return math.Log1p(S) / beta, rel, true // (the factor is >= 0.72 here)
}

// fracRel is the relative error bound of the sum S of a fractional order
// (see "Rounding" in the Method comment): n nodes, J series coefficients,
// m steps of the chain since its restart; 1.01 covers the rounding of the
// sums W, D and L themselves.
func fracRel(p *params, S, Wb, Dt, L, beta float64, n, J, m int) float64 {
	return unit*(20+p.ec0+1.4*float64(n)+2.8*float64(J)) +
		1.01*unit*((32+5*float64(m))*Wb+beta*Dt+L)/S + 2e-18
}

// fracLarge sums log I in log space when I >= 4.
func (p *params) fracLarge(a float64, g *grid, Mx0 float64) (rdp, rel float64, ok bool) {
	var c, lw [4]float64
	nc := p.fracCentres(a, true, &c, &lw)
	lref := Mx0 - 1
	for iter := 0; iter < 4; iter++ {
		w := p.fracWindows(c[:nc], lw[:nc], lref)
		if w.count() > maxNodes {
			return 0, 0, false
		}
		Mx := math.Inf(-1)
		var dmax float64
		for iv := 0; iv < w.n; iv++ {
			for j := w.lo[iv]; j <= w.hi[iv]; j++ {
				nd := g.get(p, j)
				if v := nd.lP + a*nd.t; v > Mx {
					Mx = v
				}
			}
		}
		var S float64
		n := 0
		for iv := 0; iv < w.n; iv++ {
			for j := w.lo[iv]; j <= w.hi[iv]; j++ {
				nd := g.get(p, j)
				v := (nd.lP + a*nd.t) + nd.lPl
				if v < Mx-60 {
					continue // < e^-60 each, at most maxNodes of them
				}
				S += math.Exp(v - Mx)
				n++
				// a t within (k+1) u a|t| (t within k u |t|, the
				// product), two sums, v - Mx and exp
				k := p.kL
				if nd.t > 0 {
					k = p.kR
				}
				if d := unit * ((k+1)*a*math.Abs(nd.t) + 3*math.Abs(v) + 64); d > dmax {
					dmax = d
				}
			}
		}
		lS := math.Log(S)
		logI := Mx + lS
		if lref > logI+3 {
			lref = logI
			continue
		}
		abs := dmax + unit*(float64(n+4)+math.Abs(Mx)+math.Abs(logI)+2*math.Abs(lS)+p.ec0) + 1e-18
		return logI / (a - 1), abs/logI + 2*unit, true
	}
	return 0, 0, false
}

// workspace is the scratch memory of one curve evaluation.
type workspace struct {
	icache intCache // for one (q, sigma); reset by SGM and SGMCurve
	sh     shared
	g      []float64
	buf    []float64
	grid   grid
	wins   []window // per order of a curve
	coef   [maxJ + 1]float64
}

var wsPool = sync.Pool{New: func() any {
	return &workspace{g: make([]float64, 0, 1100), buf: make([]float64, 4200)}
}}

func checkQSigma(fn string, q, sigma float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 1) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	return nil
}

func checkOrder(fn string, alpha float64) error {
	if math.IsNaN(alpha) || alpha <= 1 {
		return inputErr(fn, "alpha", alpha, "must be > 1 (or +Inf)")
	}
	if !math.IsInf(alpha, 1) && alpha > MaxIntegerOrder {
		return &tooLargeErr{fn: fn, alpha: alpha}
	}
	return nil
}

type tooLargeErr struct {
	fn    string
	alpha float64
}

func (e *tooLargeErr) Error() string {
	return "fast." + e.fn + ": alpha above MaxIntegerOrder: " + ErrTooLarge.Error()
}
func (e *tooLargeErr) Unwrap() error { return ErrTooLarge }

// SGM returns the Rényi differential privacy eps(alpha) of one step of the
// Poisson-subsampled Gaussian mechanism with sampling rate q, noise
// multiplier sigma (l2-sensitivity 1, add/remove-one neighbours):
// log(E_mu0[((1-q) + q L)^alpha]) / (alpha-1), the forward divergence
// D_alpha(mu || mu0), which dominates the backward one (Mironov, Talwar,
// Zhang 2019, Thm 4/5).
//
// Special cases are:
//
//	SGM(q=0, sigma, alpha) = 0
//	SGM(q=1, sigma, alpha) = alpha/(2 sigma^2) (+Inf where it overflows)
//	SGM(q>0, sigma, alpha=+Inf) = +Inf
//	SGM(q, sigma, alpha) = alpha/(2 sigma^2) (an upper bound within 2^-60
//	of the exact value) where 2 sigma^2 |log q| <= (alpha-1) 2^-60: tiny
//	sigma; +Inf where that overflows
//	SGM(q, sigma>=1e100, alpha) = alpha q^2/(2 sigma^2) (within 1e-40 of
//	the exact value), the smallest subnormals where it underflows
//	SGM(q, sigma, alpha) = error for NaN, q outside [0,1], sigma <= 0 or
//	+Inf, alpha <= 1, alpha > MaxIntegerOrder
//
// Accuracy: the result is never below the exact value and, for q in
// [1e-12, 1], sigma in [0.1, 1000], integer alpha up to 10,000 and
// fractional alpha up to 256, it is within 1e-12 relative of it (typically
// 1e-14): the computation carries an error bound and the value is rounded
// up by it. Outside those ranges the result is still rounded up by its
// bound, but the bound can be loose: at fractional orders where I-1 nears
// float64's underflow (roughly q^2 alpha/(2 sigma^2) below 1e-290, e.g.
// q below 1e-145), the quadrature's absolute error (about 2^-1020 per
// node) becomes a relative one (1.3e-12 at q = 1e-145, sigma = 10,
// alpha = 1.1; 1.3% at q = 1e-150; about 1e-303 absolute where the exact
// value is below the float64 range). Fractional orders above 1024 return
// the upper bound
// SGM(ceil alpha) (ceil(alpha)-1)/(alpha-1) (Rényi divergence is
// non-decreasing in its order). The result is never negative or NaN.
func SGM(q, sigma, alpha float64) (float64, error) {
	if err := checkQSigma("SGM", q, sigma); err != nil {
		return 0, err
	}
	if err := checkOrder("SGM", alpha); err != nil {
		return 0, err
	}
	if v, ok := sgmSpecial(q, sigma, alpha); ok {
		return v, nil
	}
	if v, ok := sgmExtreme(q, sigma, alpha); ok {
		return v, nil
	}
	p := newParams(q, sigma)
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)
	ws.grid.nodes = ws.grid.nodes[:0]
	ws.sh.on = false
	ws.icache.reset()
	var lref float64
	if alpha != math.Trunc(alpha) && alpha <= maxFracOrder {
		lref = p.fracLref(alpha, nil, ws.buf)
	}
	return p.one(alpha, lref, nil, nil, ws), nil
}

func sgmSpecial(q, sigma, alpha float64) (float64, bool) {
	switch {
	case q == 0:
		return 0, true
	case math.IsInf(alpha, 1):
		return math.Inf(1), true
	case q == 1:
		return gaussianRDP(sigma, alpha), true
	}
	return 0, false
}

// gaussianRDP is alpha/(2 sigma^2) rounded up, for sigma > 0 finite and
// alpha >= 0 (+Inf at alpha = +Inf): gaussianRDPUp of Gaussian, formed on
// scaled mantissas, so that neither sigma^2 overflowing nor underflowing
// loses it (+Inf only where the value overflows, a subnormal step above it
// where it underflows), and SGM at q = 1 equals Gaussian.
func gaussianRDP(sigma, alpha float64) float64 { return gaussianRDPUp(sigma, alpha) }

// sigmaHuge: from it on SGM is the closed form of sgmHugeSigma.
const sigmaHuge = 1e100

// sgmExtreme returns SGM for 0 < q < 1 and a finite order where sigma is
// so small or so large that the general method would overflow or
// underflow (see "Extreme sigma" in the Method comment); ok is false
// elsewhere.
func sgmExtreme(q, sigma, alpha float64) (float64, bool) {
	if sigma >= sigmaHuge {
		return sgmHugeSigma(q, sigma, alpha), true
	}
	if 2*sigma*sigma*math.Abs(logPos(q)) <= (alpha-1)*0x1p-60 {
		return gaussianRDP(sigma, alpha), true
	}
	return 0, false
}

// sgmHugeSigma is alpha q^2/(2 sigma^2) rounded up (relative model error
// below 1e-40 for sigma >= 1e100, alpha <= MaxIntegerOrder), from the
// mantissas (four roundings) and a power of two.
func sgmHugeSigma(q, sigma, alpha float64) float64 {
	ma, ea := math.Frexp(alpha)
	mq, eq := math.Frexp(q)
	ms, es := math.Frexp(sigma)
	m := ma * mq * mq / (ms * ms) // in [1/8, 4)
	return roundUpRDP(math.Ldexp(m, ea+2*eq-2*es-1), 5*unit+1e-40)
}

// one evaluates a finite order with 0 < q < 1.
// w, if not nil, holds the windows of a fractional order at level lref.
func (p *params) one(alpha, lref float64, w *window, g []float64, ws *workspace) float64 {
	if alpha == math.Trunc(alpha) {
		n := int(alpha)
		return intRDP(p, n, alpha, g, ws)
	}
	if alpha <= maxFracOrder {
		rdp, rel, ok := p.fracShared(alpha, lref, w, &ws.grid, &ws.sh, &ws.coef)
		if !ok {
			rdp, rel, ok = p.fracRDP(alpha, lref, &ws.grid, &ws.coef)
		}
		if ok {
			return roundUpRDP(rdp, rel+4*unit)
		}
	}
	// Upper bound through the next integer order.
	return intRDP(p, int(math.Ceil(alpha)), alpha, g, ws)
}

// intRDP is log I(n)/(alpha-1), rounded up by its error bound: an absolute
// error d of log(I-1) = x moves log I = log1p(e^x) by at most
// d e^x/(1+e^x), a relative d e^x/((1+e^x) log1p(e^x)) <= d.
func intRDP(p *params, n int, alpha float64, g []float64, ws *workspace) float64 {
	v := p.intValueCached(n, g, ws.buf, &ws.icache)
	logI, sig, errAbs := v.logI, v.sig, v.errAbs
	if logI <= 0 {
		// I-1 = e^x underflowed (x < -745.13, within errAbs < 1e-13):
		// log I < 2^-1075 (1+1e-13).
		return roundUpRDP(0x1p-1075/(alpha-1), 1e-13)
	}
	return roundUpRDP(logI/(alpha-1), errAbs*sig/logI*(1+1e-3)+4*unit)
}

// SGMCurve writes steps * SGM(q, sigma, orders[i]) into out[i] (RDP
// composes additively). out must have len(orders) elements; with it
// supplied the call does not allocate. Work is shared between orders
// (the integration grid and the order-independent parts of the binomial
// terms), so a curve costs far less than len(orders) calls of SGM.
//
// Special cases and accuracy are those of SGM; steps*value is rounded up.
// Errors: as SGM, plus steps <= 0, empty orders or len(out) != len(orders).
func SGMCurve(q, sigma float64, steps int, orders []float64, out []float64) error {
	if err := checkQSigma("SGMCurve", q, sigma); err != nil {
		return err
	}
	if steps <= 0 {
		return inputErr("SGMCurve", "steps", float64(steps), "must be > 0")
	}
	if len(orders) == 0 {
		return inputErr("SGMCurve", "orders", math.NaN(), "must not be empty")
	}
	if len(out) != len(orders) {
		return inputErr("SGMCurve", "out", float64(len(out)), "must have len(orders) elements")
	}
	for _, a := range orders {
		if err := checkOrder("SGMCurve", a); err != nil {
			return err
		}
	}
	fs := float64(steps)
	if q == 0 || q == 1 || sigma >= sigmaHuge {
		for i, a := range orders {
			v, ok := sgmSpecial(q, sigma, a)
			if !ok {
				v, _ = sgmExtreme(q, sigma, a)
			}
			out[i] = scaleUp(v, fs)
		}
		return nil
	}
	// orders of the tiny-sigma closed form (sgmExtreme)
	lq2s2 := 2 * sigma * sigma * math.Abs(logPos(q))
	extreme := func(a float64) bool { return lq2s2 <= (a-1)*0x1p-60 }
	p := newParams(q, sigma)
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)

	// Shared integer-order parts: g_k memoised for k < 128 (gAt), the
	// small orders and their G_k in icache.
	var hullLo, hullHi = math.MaxInt, math.MinInt
	var c, lw [4]float64
	amax := 0.0
	gmax := min(128, cap(ws.g)) // g_k memoised for k < 128
	ws.g = ws.g[:gmax]
	for k := range ws.g {
		ws.g[k] = math.NaN() // filled on demand by gAt
	}
	ws.icache.reset()
	// out[i] holds the first window level of each fractional order until
	// its value replaces it; ws.wins[i] its windows at that level.
	if cap(ws.wins) < len(orders) {
		ws.wins = make([]window, len(orders))
	}
	ws.wins = ws.wins[:len(orders)]
	amin := math.Inf(1)
	for i, a := range orders {
		if math.IsInf(a, 1) || a == math.Trunc(a) || a > maxFracOrder || extreme(a) {
			continue
		}
		amax = max(amax, a)
		amin = min(amin, a)
		out[i] = p.fracLrefCached(a, ws.g, ws.buf, &ws.icache)
		nc := p.fracCentres(a, false, &c, &lw)
		w := p.fracWindows(c[:nc], lw[:nc], out[i])
		ws.wins[i] = w
		if w.n > 0 && w.count() <= maxNodes { // larger ones are refused
			hullLo = min(hullLo, w.lo[0])
			hullHi = max(hullHi, w.hi[w.n-1])
		}
	}
	ws.grid.nodes = ws.grid.nodes[:0]
	ws.sh.on = false
	if hullLo <= hullHi {
		ws.grid.fill(&p, hullLo, hullHi)
		ws.sh.prepare(&p, &ws.grid, amin, amax)
	}
	for i, a := range orders {
		var v float64
		switch {
		case math.IsInf(a, 1):
			v = math.Inf(1)
		case extreme(a):
			v = gaussianRDP(sigma, a)
		default:
			v = p.one(a, out[i], &ws.wins[i], ws.g, ws)
		}
		out[i] = scaleUp(v, fs)
	}
	return nil
}

// scaleUp returns v*f rounded up.
func scaleUp(v, f float64) float64 {
	if f == 1 || v == 0 || math.IsInf(v, 0) {
		return v
	}
	return math.Nextafter(v*f, math.Inf(1))
}
