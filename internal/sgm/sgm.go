package sgm

import (
	"math"
	"sync"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// Method
//
// The sections are numbered; comments in the code cite them as "Method n".
// The files of the engine, from the bottom: params.go (the constants of
// one (q, sigma)), intorders.go (integer orders, 2-6), nodes.go (the
// quadrature nodes and their terms, 8-12), fracorders.go (the fractional
// summation, one for SGM and SGMCurve, 7-15), sgm.go (special cases and
// dispatch, 16-17); fast/sgm.go checks the domain. TestFileLayers checks
// that no file uses a name of a file above it.
//
// 1. Notation. s = sigma, L(z) = exp((2z-1)/(2 s^2)), lL(z) = log L(z) =
// (z - 1/2)/s^2, y(z) = q (L(z)-1), phi_s the N(0, s^2) density,
// I(alpha) = E_mu0[(1+y)^alpha], and RDP = log I / (alpha-1). u = 2^-53 is
// the unit roundoff, and only that: an error "within 4.1u" is 4.1 u
// relative.
//
// 2. Integer orders (alpha = n). Because sum_k C(n,k)(1-q)^(n-k) q^k = 1,
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
// 3. log C(n,k). For n <= lfTabN = 4096 it is lf(n) - lf(k) - lf(n-k) from a
// double-double table of lf(m) = log m!, built at start-up from errfloat.LogDD of
// the primes (relative error ~1e-31), sums for composite m and prefix sums
// (each a double-double addition of positive terms, relative 2^-104): an
// entry is within 1e-21 absolute, and the difference, taken with two exact
// twoSums, is within u |log C| + 1e-20. The "+8" ulps of the per-term
// bound d_k cover the 1e-20. Above lfTabN log C is carried by a compensated
// recurrence over a table of log m (absolute error at most 2k u log n plus
// a few ulps of |log C|, added to d_k), with every term scanned.
//
// 4. Skipping terms (n <= lfTabN). B(k) = log C(n,k) + k (log q - log(1-q))
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
// 5. Small orders of one (q, s) (n <= binomTabN = 64, intSumLin): the terms
// are summed in linear space, I - 1 = (1-q)^n sum_k C(n,k) G_k with
// G_k = e^(g_k) = m_k 2^(ex_k), shared by all orders: ex_k = floor(g_k/log 2),
// m_k = e^r, r = g_k - ex_k log 2 by Cody-Waite's split of log 2 (exact
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
// 6. From log(I-1) = M + log S: log I = log1p(e^M S) for M <= 36 (e^M S has 2
// roundings, carried as 2u), lm1 + e^-lm1 with lm1 = M + log S up to 40,
// and lm1 above (the dropped e^-lm1 < 4.3e-18 is added to the bound).
//
// 7. Fractional orders. I - 1 = integral of f(z) = phi_s(z) h(y(z)), where
// h(y) = (1+y)^alpha - 1 - alpha y >= 0 (convexity; the alpha y term
// integrates to 0 because E_mu0[L] = 1). Subtracting 1 + alpha y inside the
// integrand, rather than 1 from the integral, is what keeps every digit at
// q = 1e-12. h is evaluated pointwise by its binomial series (2 <= j <= J,
// ratio of terms at most rho = max(tau/3, tau/alpha) when alpha|y| <= tau =
// 0.1, truncated when rho^(J-1) < 1e-18) or else in the beta form
// (1+y) expm1((alpha-1) log1p(y)) - (alpha-1) y, or in the log form below;
// the cancellation of the beta form is measured (W below), not assumed.
//
// 8. Trapezoid rule. The integral is taken by the trapezoid rule on the grid z_j = j h. f is
// analytic in the strip |Im z| < pi s^2 (the only singularities of
// (1+y)^alpha are where 1+y = 0, at z0 + i(2m+1) pi s^2), so by
// Trefethen-Weideman (SIAM Rev. 2014, Thm 5.1) the error of the infinite
// sum is at most 2M/(exp(2 pi d/h)-1) for any d < pi s^2, where
// M = sup_{|omega|<d} int |f(x+i omega)| dx. With d = theta pi s^2, theta = 0.9:
// |phi_s(x+i omega)| = phi_s(x) e^(omega^2/(2s^2)); writing h(y) = y^2 alpha(alpha-1)
// int_0^1 (1-t)(1+ty)^(alpha-2) dt along a segment that stays in one half
// plane, |1+ty| <= 1+t y(x) and |1+ty| >= 0.157 (1+t y(x)) for
// |arg| <= 0.9 pi, and |y| <= q(L+1); hence M <= e^(d^2/(2s^2)) C (I-1) with
// C <= 6.4 (1 + 4 s^2) (the ratio E[(L+1)^2]/E[(L-1)^2] <= 1 + 4 s^2). The
// step h is chosen so that e^(d^2/(2s^2)) e^(-2 pi d/h) <= e^-kappa with
// kappa = 46 + log1p(4 s^2): minimising over d <= theta pi s^2 gives
// h = pi s sqrt(2/kappa) when that is >= 2/theta, and otherwise
// h = 2 theta pi^2 s^2 / (kappa + theta^2 pi^2 s^2/2). The discretisation error
// is then below 2 * 6.4 e^-46 < 1.4e-19 of I-1.
//
// 9. Truncation. For real y > -1, h(y) <= C(alpha,2) y^2 max(1,(1+y)^(alpha-2)),
// y^2 <= q^2 (L^2+1), (1+y)^(alpha-2) <= 2^(alpha-2)(1+(qL)^(alpha-2)) for
// alpha >= 2 and <= (1-q)^(alpha-2) for alpha < 2. Since
// L^m phi_s(z) = e^((m^2-m)/(2s^2)) phi_s(z-m), f is bounded by a sum of at
// most four Gaussians of width s centred at 0, 2, alpha-2, alpha with known
// weights w_m. Each is covered out to R_m s (plus one step), with
// R_m^2 = 2 (log w_m - lref + 46), so the neglected mass is at most
// 4 e^(lref-46); after the sum S is known the code checks
// lref <= log S + 3 (so the tail is < 1e-18 S) and widens the windows if not.
// Any lref is thus valid; fracOrders.lref gives a lower estimate of log(I-1) from
// the integer order below (monotonicity), bounded below without a
// transcendental function (see fracOrders.lref). Larger weights and wider
// windows only add nodes, so log C(alpha,2) in the weights is replaced by
// the upper bound logUB (within 0.2), and the node indices floor(a/h),
// ceil(b/h) of a window [a, b] are taken from a(1/h), b(1/h) moved outwards
// by 4u of their size (they are within 3u of a/h, b/h); a window reaching
// beyond 2^50 nodes (or NaN) is made wider still, and refused, instead of
// overflowing an index.
// When some node has phi_s (1+y)^alpha >= 4, I >= 4 and log I is summed
// directly in log space (no subtraction needed, no overflow), with windows
// from the two-Gaussian bound phi_s (1+y)^alpha <= 2^(alpha-1)
// ((1-q)^alpha phi_s + q^alpha L^alpha phi_s).
//
// 10. Nodes. z_j = j h is carried exactly as zh + zl (zl = fma(j, h, -zh));
// z^2/(2 s^2) and lL = (z - 1/2)/s^2 are formed in double-double (1/(2 s^2)
// from the exact s^2 of twoProd), so lP = log(h phi_s(z_j)) = c0 -
// z^2/(2 s^2) is known to ~u^2 |lP| and P = e^lP (from its two parts,
// e^hi (1 + lo)) is within 3u wherever it is normal, however large |lP| is;
// c0 = log h - log(s sqrt(2 pi)), common to every node, is within ec0 u.
// The elementary functions (math.Exp, Expm1, Log, Log1p) are taken within
// 1 ulp, 2u. y = q expm1(lL) is within 4.1u (expm1 of the high part of lL
// corrected by (1 + expm1) times the low part), 1+y within 5.1u right of
// z = 1/2 and 9.2u left of it (there also as 1-q + q L, within 5u, when
// y < -1/2), t = log(1+y) within 6.1u t right (kT = 6.5: y/(1+y) <= t) and
// 10.2u |t| left (kL = 10.5: |y|/(1+y) <= 2|t| for y >= -1/2, and
// |t| >= log 2 below). Right of the transition, y >= 1, 1+y = q L (1+w)
// with w = (1-q)/(q L) = (1-q)/(q+y), and t = log q + lL + log1p(w) is
// carried in double-double (log q by errfloat.LogDD): within tw u, tw = 9.1 lw +
// 1e-13 (|log q| + t + 1), lw = log1p(w) (w within 7.1u, lw <= w) -- so that
// beta t keeps its digits at any size. Write tw = kT t for the other nodes
// right of z = 1/2: the error of t there is at most tw u.
//
// 11. Beta form. A node with |y| > tau/alpha is summed as Pa E - beta Py with
// Pa = P A = e^(lP+t), Py = Pa y/A, E = expm1(beta t), beta t formed in
// double-double (expm1DD; the chain of Method 15 steps d t the same way): an error dx of
// the argument x = beta t moves E by dx e^x/expm1(x) relative, at most
// dx (1 + 1/x) for x > 0 and dx/|x| for x < 0, so E is within
// (5m+4)u + 9.1u + beta tw u right of z = 1/2 and (5m+4)u + kL u left of it
// (tw/t <= 9.1; m the steps of the chain (Method 15) since its restart,
// 0 for a single order). The computed term is P(1+eP) [A(1+eA) E(1+eE) - beta y(1+ey)]
// up to four roundings (A cancels in Py = P y), and beta|Py| <= |Pa E| +
// term (term = Pa E - beta Py >= 0; left of z = 1/2 both parts are
// negative), so its error is at most term (eP + ey + 3u) + |Pa E|
// (eA + eE + ey + 4u): over the beta-form nodes, at most
// u (32 + 5m) W + u beta D + 11u S with W = sum |Pa E| and
// D = sum Pa E tw right of z = 1/2, both accumulated with the sum. Series
// nodes: 24u + 1.25 n u of their sum, n the nodes (Method 15, 1).
//
// 12. Log form. Where the prefactor e^(lP+t) could be subnormal (lP < -708 or
// lP + t < -690, far out in z, as the Gaussian at alpha is when
// alpha* = 1 + 2 s^2 log(1/q) is large), where y overflowed (q L > e^708.5) or
// where E could (beta t > 700), a node right of z = 1/2 is summed as
// e^X B, X = lP + alpha t, B = (E - beta r)/(1+E), r = y/(1+y) (B = 1
// where beta t > 700: then B is within (1+beta) e^-700 below 1). No factor
// is far from the term, so nothing underflows unless the term itself does.
// For y >= 1, X = c0 - (z-alpha)^2/(2 s^2) + V + alpha lw with
// V = alpha log q + alpha(alpha-1)/(2 s^2) formed once per order in
// double-double (tailWeight; L^alpha phi_s(z) = e^((alpha^2-alpha)/(2s^2))
// phi_s(z-alpha) and t = log q + lL + lw): the large parts of lP and
// alpha t (hundreds to thousands near alpha*) cancel exactly in V, and
// the rest is small where the term is not negligible. X is then within
// u (7 Q + 2|V - Q| + |c0| + 11.2 alpha lw + |X|), Q = (z-alpha)^2/(2 s^2)
// (for y < 1: X = lP + alpha t within u ((kT+1) alpha t + |lP + alpha t| +
// |X|)), B within u (eE E (1 + beta r)/(1+E) + 11.2 beta r)/(E - beta r) +
// 3u (eE the bound on E above); logTerm adds term (those + 3u) to L.
// The log form guards against two failures of the beta form there: a
// subnormal factor e^(lP+t) (lP + t below -708: 1.4% off, or terms lost
// to zero), and exponent errors (u |lP| + alpha u t, 1e-12 relative and
// more near alpha*) far beyond a per-term bound of a few ulps.
//
// 13. Subnormals. A subnormal prefactor is multiplied only by a factor of at
// most 1 (series, log form) or 1 + beta |r| <= (alpha+1) 2^54 (left of
// z = 1/2, 1-q >= 2^-53): every node adds at most (alpha+1) 2^-1020 of
// absolute error through underflow, and n of these are added to S.
//
// 14. Rounding. S, the sum of the kept terms, is within rel(S) =
// u (30 + ec0 + 1.4 n) + u ((32+5m) W + beta D + L)/S + 4e-18
// (truncation, discretisation, series, and the rounding of the series
// nodes outside the windows, Method 15) of I-1 (fracRel), n the nodes in
// the order's windows (any summation tree of n terms has n-1 additions,
// each within u of a partial sum of non-negative terms; 30u covers the
// 24u of a series node and the 11u of a beta-form one), and since
// log1p(S(1+r)) - log1p(S) <= S r/(1+S), log1p(S)/(alpha-1) is within
// rel(S) S/((1+S) log1p(S)) <= rel(S) of the RDP (logOnePlus). The result is
// rounded up by that bound, so that it is never below the exact RDP;
// TestFracErrorBoundHolds checks |value/exact - 1| <= bound on single calls
// and curves, in the band around alpha* too. In log space (I >= 4,
// fracOrders.large) a kept node's log term v = lP + alpha t is within
// u ((k+1) alpha |t| + 3|v| + 64), k = kL or kR (kR >= kT also covers the
// y = +Inf nodes, see newParams), the largest of which is carried.
//
// 15. Shared work of a curve: see the comment at the top of fracorders.go.
//
// 16. Extreme sigma. D_alpha is quasi-convex in its first argument (van
// Erven-Harremoes, Thm 13), so SGM <= D_alpha(N(1,s^2) || N(0,s^2)) =
// alpha/(2 s^2); and 1 - q + qL >= qL gives I >= q^alpha e^(alpha(alpha-1)
// /(2 s^2)), SGM >= alpha/(2 s^2) + alpha log q/(alpha-1). Where
// 2 s^2 |log q| <= (alpha-1) 2^-60 the two are within 2^-60 relative and
// SGM returns alpha/(2 s^2) rounded up (Gaussian, formed on scaled
// mantissas: +Inf only where it overflows; sigma^2 may underflow).
// For s >= 1e100, c = 1/(2 s^2) <= 5e-201: h(y) = C(alpha,2) y^2 (1 + theta
// 2|alpha-2| |y|) for |y| <= eta = c^(1/4) (|theta| <= 1), |y| > eta has
// probability below e^-(1e98) (log L ~ N(-c, 2c); the rest of E[h] there
// is negligible by Cauchy-Schwarz), and E[y^2] = q^2 expm1(2c), so
// I - 1 = C(alpha,2) q^2 expm1(2c) (1 + eps) with |eps| < 1e-44 (alpha <=
// 2^20), and SGM = alpha q^2 c within 1e-40 (hugeSigma): the general
// method would form 4 s^2 = +Inf there. Results below the normal range
// carry four subnormal steps (errfloat.RoundUpTiny): the exact value is > 0 for
// q > 0, and SGM never returns 0 for it.
//
// 17. Orders above maxFracOrder that are not integers, and orders from 2
// on whose quadrature needs more than maxNodes nodes (or a grid of more
// than maxGrid: sigma below 0.005), are bounded by the chord between the
// integer orders around them: log I = (alpha-1) D_alpha is convex in
// alpha (the cumulant generating function of the privacy loss; van
// Erven-Harremoes 2014, Thm 11), so with n = ceil(alpha), log I(alpha) <=
// (n - alpha) log I(n-1) + (alpha - n + 1) log I(n), log I(1) = 0
// (workspace.chord); it is documented as such. It is below RDP(n)
// (D_alpha is non-decreasing, Thm 3) and below RDP(n) (n-1)/(alpha-1),
// the bound used before it. Between 1 and 2 the chord is RDP(2) itself,
// far above the exact value at small sigma near order 1 (200 times at
// q = 0.01, sigma = 0.002, alpha = 1 + 1e-9; the earlier bound was 1.3e5
// times at alpha = 1.0012, sigma = 0.0375, before fracOrders.rdp's retry),
// so a refused order below 2 gets no value: RDP and Curve report it, and
// fast.SGM answers ErrTooLarge. (Unless Method 16's two bounds are within
// 2^-40 there, 2 s^2 |log q| <= (alpha-1) 2^-40: then the Gaussian bound
// alpha/(2 s^2) is as accurate as a summed order.) From sigma = 0.005 up
// no order is refused (TestSGMSmallSigma).

const (
	// maxFracOrder: fractional orders above it are bounded by the next integer.
	maxFracOrder = 1024
)

// workspace is the scratch memory of one SGM call or curve: the integer
// and the fractional orders of one (q, sigma).
type workspace struct {
	p    params
	io   intOrders
	fo   fracOrders
	wins []window  // per order of a curve
	lref []float64 // per order of a curve: the level of its windows
}

var wsPool = sync.Pool{New: func() any { return new(workspace) }}

// reset prepares ws for the parameters of (q, sigma).
func (ws *workspace) reset(q, sigma float64) *params {
	ws.p = newParams(q, sigma)
	ws.io.reset(&ws.p)
	ws.fo.reset(&ws.p, &ws.io)
	return &ws.p
}

// RDP is fast.SGM for valid arguments: q in [0, 1], sigma > 0 finite,
// alpha > 1 up to rdpcheck.MaxIntegerOrder or +Inf. Its special cases and
// accuracy are those documented there. ok is false for a fractional
// order below 2 that the quadrature refuses (Method 17): no value is
// given there.
func RDP(q, sigma, alpha float64) (v float64, ok bool) {
	if v, ok := special(q, sigma, alpha); ok {
		return v, true
	}
	if v, ok := extremeSigma(q, sigma, alpha); ok {
		return v, true
	}
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)
	ws.reset(q, sigma)
	var lref float64
	if alpha != math.Trunc(alpha) && alpha <= maxFracOrder {
		lref = ws.fo.lref(alpha)
	}
	return ws.one(alpha, lref, nil)
}

func special(q, sigma, alpha float64) (float64, bool) {
	switch {
	case q == 0:
		return 0, true
	case math.IsInf(alpha, 1):
		return math.Inf(1), true
	case q == 1:
		return Gaussian(sigma, alpha), true
	}
	return 0, false
}

// Gaussian is alpha/(2 sigma^2) rounded up, for sigma > 0 finite and
// alpha >= 0 (+Inf at alpha = +Inf): the RDP of the Gaussian mechanism,
// formed on scaled mantissas, so that neither sigma^2 overflowing nor
// underflowing loses it (+Inf only where the value overflows, a subnormal
// step above it where it underflows). fast's Gaussian is this function, so
// SGM at q = 1 equals Gaussian.
func Gaussian(sigma, alpha float64) float64 {
	switch {
	case alpha == 0:
		return 0
	case math.IsInf(alpha, 1):
		return math.Inf(1)
	}
	s := errfloat.ToScaled(errfloat.Exact(sigma))
	den := errfloat.ScaledMul(s, s)
	den.X++
	return errfloat.ScaledDiv(errfloat.ToScaled(errfloat.Exact(alpha)), den).Float().Up()
}

// sigmaHuge: from it on SGM is the closed form of hugeSigma.
const sigmaHuge = 1e100

// extremeSigma returns SGM for 0 < q < 1 and a finite order where sigma is
// so small or so large that the general method would overflow or
// underflow (Method 16); ok is false
// elsewhere.
func extremeSigma(q, sigma, alpha float64) (float64, bool) {
	if sigma >= sigmaHuge {
		return hugeSigma(q, sigma, alpha), true
	}
	if 2*sigma*sigma*math.Abs(xmath.Log(q)) <= (alpha-1)*0x1p-60 {
		return Gaussian(sigma, alpha), true
	}
	return 0, false
}

// hugeSigma is alpha q^2/(2 sigma^2) rounded up (relative model error
// below 1e-40 for sigma >= 1e100, alpha <= MaxIntegerOrder), from the
// mantissas (four roundings) and a power of two.
func hugeSigma(q, sigma, alpha float64) float64 {
	ma, ea := math.Frexp(alpha)
	mq, eq := math.Frexp(q)
	ms, es := math.Frexp(sigma)
	m := ma * mq * mq / (ms * ms) // in [1/8, 4)
	return errfloat.RoundUpTiny(math.Ldexp(m, ea+2*eq-2*es-1), 5*errfloat.Unit+1e-40)
}

// one evaluates a finite order with 0 < q < 1; ok is false for a
// fractional order below 2 that the quadrature refuses (Method 17).
// w, if not nil, holds the windows of a fractional order at level lref.
func (ws *workspace) one(alpha, lref float64, w *window) (float64, bool) {
	if alpha == math.Trunc(alpha) {
		return ws.io.rdp(int(alpha), alpha), true
	}
	if alpha <= maxFracOrder {
		if rdp, rel, ok := ws.fo.rdp(alpha, lref, w); ok {
			return errfloat.RoundUpTiny(rdp, rel+4*errfloat.Unit), true
		}
		if alpha < 2 {
			// Method 16's Gaussian bound where it is within 2^-40 of
			// the exact value (the lower bound there), else no value
			p := &ws.p
			if 2*p.s*p.s*math.Abs(p.lq) <= (alpha-1)*0x1p-40 {
				return Gaussian(p.s, alpha), true
			}
			return 0, false
		}
	}
	return ws.chord(alpha), true
}

// chord is the upper bound of Method 17 at a fractional order alpha:
// log I is convex in the order, so log I(alpha) is at most the chord
// (n - alpha) log I(n-1) + (alpha - n + 1) log I(n), n = ceil(alpha),
// log I(1) = 0. Each part divided by alpha - 1 is io.rdp's value, rounded
// up; the weights n - alpha and alpha - (n-1) are exact (Sterbenz, n >= 2),
// and the two products and the sum are covered by 4u.
func (ws *workspace) chord(alpha float64) float64 {
	n := math.Ceil(alpha)
	v := (alpha - (n - 1)) * ws.io.rdp(int(n), alpha)
	if n > 2 {
		v += (n - alpha) * ws.io.rdp(int(n)-1, alpha)
	}
	return errfloat.RoundUpTiny(v, 4*errfloat.Unit)
}

// Curve is fast.SGMCurve for valid arguments (those of RDP, steps > 0,
// len(out) = len(orders) > 0): steps * RDP(q, sigma, orders[i]) into
// out[i], rounded up, with the work shared between orders (Method 15).
// ok is false if RDP refuses an order (refused is the first such order);
// out is then unspecified.
// out may be the same slice as orders: out[i] is written only after
// orders[i] is read for the last time.
func Curve(q, sigma float64, steps int, orders []float64, out []float64) (refused float64, ok bool) {
	fs := float64(steps)
	if q == 0 || q == 1 || sigma >= sigmaHuge {
		for i, a := range orders {
			v, ok := special(q, sigma, a)
			if !ok {
				v, _ = extremeSigma(q, sigma, a)
			}
			out[i] = errfloat.ScaleUp(v, fs)
		}
		return 0, true
	}
	// orders of the tiny-sigma closed form (extremeSigma)
	lq2s2 := 2 * sigma * sigma * math.Abs(xmath.Log(q))
	extreme := func(a float64) bool { return lq2s2 <= (a-1)*0x1p-60 }
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)

	ws.reset(q, sigma)
	var hullLo, hullHi = math.MaxInt, math.MinInt
	amax := 0.0
	// ws.lref[i] holds the first window level of each fractional order,
	// ws.wins[i] its windows at that level. Not out: out may be orders.
	if cap(ws.wins) < len(orders) {
		ws.wins = make([]window, len(orders))
		ws.lref = make([]float64, len(orders))
	}
	ws.wins = ws.wins[:len(orders)]
	ws.lref = ws.lref[:len(orders)]
	amin := math.Inf(1)
	for i, a := range orders {
		if math.IsInf(a, 1) || a == math.Trunc(a) || a > maxFracOrder || extreme(a) {
			continue
		}
		amax = max(amax, a)
		amin = min(amin, a)
		ws.lref[i] = ws.fo.lref(a)
		w := ws.fo.windows(a, ws.lref[i], nil)
		ws.wins[i] = w
		if w.n > 0 && w.count() <= maxNodes { // larger ones are refused
			hullLo = min(hullLo, w.lo[0])
			hullHi = max(hullHi, w.hi[w.n-1])
		}
	}
	if hullLo <= hullHi {
		ws.fo.cover(hullLo, hullHi, amin, amax)
	}
	for i, a := range orders {
		var v float64
		switch {
		case math.IsInf(a, 1):
			v = math.Inf(1)
		case extreme(a):
			v = Gaussian(sigma, a)
		default:
			var ok bool
			if v, ok = ws.one(a, ws.lref[i], &ws.wins[i]); !ok {
				return a, false
			}
		}
		out[i] = errfloat.ScaleUp(v, fs)
	}
	return 0, true
}
