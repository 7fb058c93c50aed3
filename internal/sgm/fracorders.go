package sgm

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Method 15. Shared work of a curve (SGMCurve; a single order is a curve
// of one order). Four devices make a fractional order
// cost a few flops per node instead of a transcendental function:
//
//  1. Moments. A node with |y| <= tau/a is summed by the series
//     h(y) = sum_{j=2..J} C(a,j) y^j; over a set of such nodes the sum is
//     sum_j C(a,j) Mom_j with Mom_j = sum_n P_n y_n^j. Since y increases
//     with z, the series nodes of an order a are a contiguous index range
//     [l0, l1) around z = 1/2, growing as a decreases. Moments are
//     tabulated once per curve, cumulatively outwards from the nodes with
//     |y| <= tau/amax (the "tiny" nodes, series nodes of every order):
//     cl[m] covers the tiny nodes and the m nearest nodes on the left,
//     cr[m] the m nearest on the right, up to |y| <= tau/amin (amin, amax
//     the smallest and largest fractional order of the curve). An order's
//     series part is then sum_j C(a,j) (cl[t0-l0]_j + cr[l1-t1]_j),
//     evaluated as C(a,2) (M_2 + r_2 (M_3 + r_3 (...))) with
//     r_j = C(a,j+1)/C(a,j) = (a-j)/(j+1): J multiply-adds instead of J per
//     node. Reordering the sum is safe: every node of the set has
//     |y| <= tau/a, so sum_j |C(a,j)| |y|^j <= C(a,2) y^2/(1-rho) and
//     h >= C(a,2) y^2 (1-rho/(1-rho)). Error of the series part: with
//     rho <= 0.1 (a > 1), |C(a,j) y^j| <= rho^(j-2) C(a,2) y^2, and
//     C(a,2) y^2 <= 1.125 h, so an error of e_j u on every term j costs at
//     most 1.125 u sum_j e_j rho^(j-2) of sum h; sum_j rho^(j-2) <= 1.12,
//     sum_j j rho^(j-2) <= 2.35, sum_j (2j-2) rho^(j-2) <= 2.47. P (3u on
//     every term): 3.8u; y^j (4.1 j u): 10.9u; the coefficients (C(a,2)
//     2 roundings, each further ratio r_j, or step of seriesCoef, 4 more):
//     3.1u; the products P y^j (j roundings) and the nested evaluation
//     (2j-2 roundings of term j; Horner's per node, 2j in all): 5.5u;
//     together 24u. The moment sums add (number of nodes) u of their
//     |terms|, 1.25 u per node of sum h. So a series node costs at most
//     24u + 1.4 u (per node) of the sum, within the u (30 + 1.4 n) of
//     fracRel (Method 14), whatever J. Series nodes beyond the tabulated
//     maxSide per side are summed by Horner. A series node outside the
//     order's windows (the grid of a curve, or of a single order with
//     distant windows, covers their gaps) only adds a term of the infinite
//     trapezoid sum (every term is >= 0), so it can only lower the
//     truncation error; and since fl(s + x) is within |x| of s + x (s is a
//     float), adding it to a moment costs at most its own size, and all of
//     them together at most 1.25 times the truncated mass
//     4 e^(lref-46) < 8.6e-19 S (Method 9; 1.25 >= sum_j |C(a,j) y^j|/h):
//     n counts only the nodes in the windows, and fracRel's constant
//     4e-18 carries the rest (with the tail 8.6e-19, the discretisation
//     1.4e-19 and the series' truncation 1.25e-18).
//
//  2. A recurrence in the order. Orders in arithmetic progression (the
//     default 1.1, 1.2, ...) step E_n = expm1(beta t_n) by
//     E(beta+d) = E(beta) e^(d t) + expm1(d t), whose two terms always have
//     the same sign (no cancellation): with d t (and beta t at a restart)
//     formed in double-double, so that its rounding does not grow with t,
//     e^(dt) and expm1(dt) are within 3u and a step adds at most 5u to the
//     relative error of E. E is corrected to first order for the
//     difference between the order's beta and the chain's anchor + m d
//     (that difference is a few ulps). After m steps from a restart
//     (expm1, 3u) E is within (5m+4)u relative besides the error of t
//     itself (beta tw u, Method 11), so the chain adds at most
//     (5m+4)u W to the sum S of an order, with
//     W = sum Pa |E| over its beta-form nodes, accumulated with the sum (E
//     has the sign of t: negative left of z = 1/2, positive right). The
//     order's bound carries (5m+4)u W/S (W/S <= 25, the worst cancellation
//     of a beta-form term, so this is at most the former fixed bound
//     25 (5m+4)u). The chain is restarted when (5m+4) W/S, estimated by the
//     previous order's W/S, would exceed chainBudget = 25 (5*8+4), the
//     worst case of a chain of 8 steps; an order whose own W/S puts it over
//     the budget is summed again after a restart. So the chain term of the
//     bound never exceeds chainBudget u, while chains are as long as the
//     actual cancellation allows (a few restarts per curve instead of one
//     every 8 orders). A single step is applied in the same pass as the
//     order's sum (stepSumW).
//
//  3. Windows. The node windows of each order, needed first to size the
//     grid, are kept for the order's evaluation; only a retry at a lower
//     level recomputes them. Windows refused for their size (tiny sigma)
//     do not widen the grid of the other orders.
//
//  4. The level check lref <= log S + 3 is decided from the binary
//     exponent of S when it can be (log S >= (e-1) log 2 for S = m 2^e),
//     and log1p(S) is taken as log(1+S) when S >= 1 (the rounding of 1+S
//     costs at most 1.5u relative there, carried as 2u).
const (
	// The chain goes on while its error term (5m+4) u W/S, with the W/S
	// of the previous order, stays below the worst case 25 (5*8+4) u of
	// a chain of 8 steps, and for at most maxSteps steps.
	chainBudget = 25 * (5*8 + 4)
	maxSteps    = 64
	maxSide     = 256 // moment rows tabulated per side of the tiny nodes
)

// nodeX holds the per-node data of the recurrence.
type nodeX struct {
	Pa, Py float64 // e^(lP+t) and e^(lP+t) y/(1+y): term = Pa E - beta Py
	t, tl  float64 // log(1+y), high and low part (tl: where y >= 1)
	tw     float64 // right of z = 1/2: the error of t in units of u (tErr)
	r, s   float64 // e^(d t), expm1(d t)
	E      float64 // expm1(betaRec t)
}

type shared struct {
	on         bool
	x          []nodeX // indexed as grid.nodes; unused on [t0, t1)
	t0, t1     int     // tiny nodes [t0, t1): |y| <= tau/amax
	jU         int     // nodes from jU on (right of t1) are in log form
	amin, amax float64
	stride     int       // seriesJ(amin)+1
	cl, cr     []float64 // cumulative moments, rows of stride
	nl, nr     int       // tabulated rows beyond row 0, left and right
	// chain state
	chain   bool
	anchor  float64 // beta of the last exact restart
	d       float64 // step of r, s (0: none computed)
	m       int     // steps since anchor
	betaRec float64 // anchor + m d
	wsPrev  float64 // W/S of the last order (see sum)
	// series range of the last order (seriesRange; lastA +Inf: none)
	lastA          float64
	lastL0, lastL1 int
}

// seriesJ is the number of series coefficients for order a: the ratio of
// consecutive terms is at most rho = max(tau/3, tau/a) when a|y| <= tau,
// and the series stops when rho^(J-1) < 1e-18.
func seriesJ(a float64) int {
	if a >= 3 {
		return seriesJ3
	}
	return seriesJrho(tau / a)
}

var seriesJ3 = seriesJrho(tau / 3)

func seriesJrho(rho float64) int {
	J := 2
	for r := rho; r > 1e-18 && J < maxJ; r *= rho {
		J++
	}
	return J
}

// seriesCoef sets coef[2..J] = C(a, j) and returns J. Each coefficient
// carries at most 3j roundings (relative error <= 3j u); the terms j >= 3
// are below rho^(j-2) of the j = 2 term, so this adds less than 4u to the
// relative error of the series.
func seriesCoef(a float64, coef *[maxJ + 1]float64) int {
	J := seriesJ(a)
	coef[2] = a * (a - 1) * 0.5
	for j := 2; j < J; j++ {
		coef[j+1] = coef[j] * (a - float64(j)) * invInt[j+1]
	}
	return J
}

// invInt[j] = 1/j rounded.
var invInt = func() (t [maxJ + 1]float64) {
	for j := 1; j <= maxJ; j++ {
		t[j] = 1 / float64(j)
	}
	return
}()

// prepare computes the moments and per-node constants on the cached grid.
func (sh *shared) prepare(p *params, g *grid, amin, amax float64) {
	n := len(g.nodes)
	sh.on = n > 0
	sh.lastA = math.Inf(1)
	sh.chain = false
	sh.d = 0
	sh.wsPrev = 25
	if !sh.on {
		return
	}
	nodes := g.nodes
	sh.amin, sh.amax = amin, amax
	J := seriesJ(amin)
	st := J + 1
	sh.stride = st
	lim := tau / amax
	t0 := 0
	for t0 < n && nodes[t0].y < -lim {
		t0++
	}
	t1 := t0
	for t1 < n && nodes[t1].y <= lim {
		t1++
	}
	sh.t0, sh.t1 = t0, t1
	limS := tau / amin
	nl, nr := 0, 0
	for nl < maxSide && t0-1-nl >= 0 && nodes[t0-1-nl].y >= -limS {
		nl++
	}
	for nr < maxSide && t1+nr < n && nodes[t1+nr].y <= limS {
		nr++
	}
	sh.nl, sh.nr = nl, nr
	sh.cl = growF(sh.cl, (nl+1)*st)
	sh.cr = growF(sh.cr, (nr+1)*st)
	cl, cr := sh.cl, sh.cr
	clear(cl[:st])
	clear(cr[:st])
	addMom := func(row []float64, nd *node) {
		v := nd.P * nd.y * nd.y
		for j := 2; j <= J; j++ {
			row[j] += v
			v *= nd.y
		}
	}
	for i := t0; i < t1; i++ {
		addMom(cl[:st], &nodes[i])
	}
	for m := 1; m <= nl; m++ {
		row := cl[m*st : m*st+st]
		copy(row, cl[(m-1)*st:m*st])
		addMom(row, &nodes[t0-m])
	}
	for m := 1; m <= nr; m++ {
		row := cr[m*st : m*st+st]
		copy(row, cr[(m-1)*st:m*st])
		addMom(row, &nodes[t1+m-1])
	}
	if cap(sh.x) < n {
		sh.x = make([]nodeX, n)
	}
	sh.x = sh.x[:n]
	for _, r := range [2][2]int{{0, t0}, {t1, n}} {
		for i := r[0]; i < r[1]; i++ {
			nd := &nodes[i]
			x := &sh.x[i]
			x.t, x.tl = nd.t, nd.tl
			if i >= t1 {
				x.tw = p.tErr(nd)
			}
			r := 1.0
			if !math.IsInf(nd.A, 1) {
				r = nd.y / nd.A
			}
			if !math.IsInf(nd.A, 1) {
				// e^(lP+t) within 9.1u where P is normal (the right-side
				// nodes where it is not are in log form); left of z = 1/2 a
				// subnormal P only adds to the absolute term (Method)
				x.Pa = nd.P * nd.A
			} else {
				x.Pa = math.Exp(nd.lP + nd.t)
			}
			x.Py = x.Pa * r
		}
	}
	// First right-side node whose prefactor could underflow (or y
	// overflowed): from there on every node is summed in log form.
	sh.jU = n
	for i := t1; i < n; i++ {
		if logForm(&nodes[i]) {
			sh.jU = i
			break
		}
	}
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// advance brings E to beta (= a-1), by the recurrence when beta is 1 to 3
// steps of d past the chain, and by a restart otherwise.
// With deferOne, the last step is left to the caller (pending true), which
// must apply it (stepE, or stepSum over the nodes it sums) before using E:
// an order after a skipped one (1.9, then 2.1) passes over the nodes twice
// instead of three times.
func (sh *shared) advance(beta float64, deferOne bool) (pending bool) {
	xl, xr := sh.x[:sh.t0], sh.x[sh.t1:]
	if sh.chain && sh.d > 0 {
		k := math.Round((beta - sh.betaRec) / sh.d)
		if k >= 1 && k <= 3 && sh.m+int(k) <= maxSteps &&
			float64(5*(sh.m+int(k))+4)*sh.wsPrev*1.25 <= chainBudget &&
			math.Abs(beta-sh.betaRec-k*sh.d) <= 1e-9*sh.d {
			if deferOne {
				// the last step goes with the order's sum (stepSumW)
				pending = true
				sh.m++
				k--
			}
			for ; k > 0; k-- {
				stepE(xl)
				stepE(xr)
				sh.m++
			}
			sh.betaRec = math.FMA(float64(sh.m), sh.d, sh.anchor)
			return pending
		}
	}
	if sh.chain && sh.d == 0 && beta > sh.anchor && beta-sh.anchor <= 1 {
		// Second order of a chain: fix the step d from the first two.
		d := beta - sh.anchor
		// Orders 1+d, 1+2d, ... (the default 1.1, 1.2): the step is the
		// anchor up to a few ulps, which the first-order correction of
		// each order absorbs (as it does for anchor + m d), and
		// expm1(d t), formed as restart formed E, is E: one expm1 per
		// node instead of two.
		reuse := math.Abs(d-sh.anchor) <= 1e-9*d
		if reuse {
			d = sh.anchor
		}
		for _, xs := range [2][]nodeX{xl, xr} {
			for i := range xs {
				x := &xs[i]
				dt, dtl := mulDD(d, x.t, x.tl)
				if reuse {
					x.s = x.E
				} else {
					x.s = expm1Of(dt, dtl)
				}
				if dt >= -0.5 {
					// e^(dt) = 1 + expm1(dt), within u + 3u|s|/(1+s) <= 3u
					// (s >= -0.4): a step E r + s (same signs) then adds at
					// most 3u + 2u to the relative error of E, the 5u of 2.
					x.r = 1 + x.s
				} else {
					x.r = math.Exp(dt) * (1 + dtl)
				}
				x.E = x.E*x.r + x.s
			}
		}
		sh.d = d
		sh.m = 1
		sh.betaRec = math.FMA(1, d, sh.anchor)
		return false
	}
	sh.restart(beta)
	return false
}

// restart sets E = expm1(beta t) (within 3u, beta t in double-double)
// and anchors the chain at beta.
func (sh *shared) restart(beta float64) {
	for _, xs := range [2][]nodeX{sh.x[:sh.t0], sh.x[sh.t1:]} {
		for i := range xs {
			x := &xs[i]
			x.E = expm1DD(beta, x.t, x.tl)
		}
	}
	sh.chain = true
	sh.anchor, sh.betaRec, sh.m = beta, beta, 0
}

// stepE advances E by one step of the chain.
func stepE(xs []nodeX) {
	for i := range xs {
		x := &xs[i]
		x.E = x.E*x.r + x.s
	}
}

// stepSum is stepE followed by betaSum over xs (no node with beta t > 700),
// and also returns sum Pa E tw.
func stepSum(xs []nodeX, beta, dBeta float64) (S, W, D float64) {
	for i := range xs {
		x := &xs[i]
		E := x.E*x.r + x.s
		x.E = E
		pe := x.Pa * (E + dBeta*x.t*(1+E))
		S += pe - beta*x.Py
		W += pe
		D += pe * x.tw
	}
	return S, W, D
}

// stepSumW applies the pending step to every node E is kept for and
// returns the beta-form sums over the nodes [lo, hi) of one window, left
// and right of the series nodes [l0, l1) and below the log-form nodes
// (from jLog), as betaSum and betaSumR (signs included).
func (sh *shared) stepSumW(lo, hi, l0, l1, jLog int, beta, dBeta float64) (S, W, D float64) {
	x := sh.x
	t0, t1, n := sh.t0, sh.t1, len(x)
	// left: [0, t0) with the sum on [a, b); right: [t1, n) with [c, d)
	a, b := min(max(lo, 0), t0), min(max(min(hi, l0), 0), t0)
	b = max(a, b)
	c, d := min(max(lo, l1, t1), n), min(max(min(hi, jLog), t1), n)
	d = max(c, d)
	stepE(x[:a])
	sl, wl, _ := stepSum(x[a:b], beta, dBeta)
	stepE(x[b:t0])
	stepE(x[t1:c])
	sr, wr, dr := stepSum(x[c:d], beta, dBeta)
	stepE(x[d:])
	return sl + sr, wr - wl, dr
}

// sum is the fractional summation (Method 7-15) on the cached grid with
// the moments and the chain, for SGM and SGMCurve alike; w0 (if not nil)
// holds the order's windows at level lref. Where the order's windows leave
// the grid (or a is outside the orders the moments were built for), it
// returns sumRegrid with the windows wNew at level lrefNew, for rdp to
// widen the grid.
func (fo *fracOrders) sum(a, lref float64, w0 *window) (rdp, rel float64, res sumStatus, wNew window, lrefNew float64) {
	p, g, sh, coef := fo.p, &fo.grid, &fo.sh, &fo.coef
	if !sh.on || a > sh.amax || a < sh.amin {
		w := fo.windows(a, lref, w0)
		return 0, 0, sumRegrid, w, lref
	}
	beta := a - 1
	J := seriesJ(a)
	lim := tau / a
	nodes := g.nodes
	n := len(nodes)
	hiIdx := g.lo + n - 1
	t0, t1 := sh.t0, sh.t1
	// Series nodes [l0, t0) and [t1, l1): |y| <= lim (y increases with z).
	l0, l1 := sh.seriesRange(nodes, a, lim)
	mL, mR := t0-l0, l1-t1
	cL, cR := min(mL, sh.nl), min(mR, sh.nr)
	st := sh.stride
	rowL := sh.cl[cL*st : cL*st+st]
	rowR := sh.cr[cR*st : cR*st+st]
	// sum_j C(a,j) Mom_j nested as C(a,2) (Mom_2 + r_2 (Mom_3 + r_3 (...)))
	// with r_j = C(a,j+1)/C(a,j) = (a-j)/(j+1): a Horner evaluation, its
	// rounding error bounded as that of the dot product (see 1.).
	v := rowL[J] + rowR[J]
	for j := J - 1; j >= 2; j-- {
		v = (rowL[j] + rowR[j]) + v*((a-float64(j))*invInt[j+1])
	}
	Sser := a * (a - 1) * 0.5 * v
	if l0 < t0-cL || t1+cR < l1 {
		seriesCoef(a, coef)
		Sser += hornerSum(nodes[l0:t0-cL], coef, J) + hornerSum(nodes[t1+cR:l1], coef, J)
	}
	nSer := (t1 - t0) + mL + mR
	pending := sh.advance(beta, w0 != nil && w0.n == 1)
	flush := func() {
		if pending {
			stepE(sh.x[:t0])
			stepE(sh.x[t1:])
			pending = false
		}
	}
	dBeta := beta - sh.betaRec
	// Overflow guard: log of the largest node term of phi_s (1+y)^a is
	// below this bound (two-Gaussian bound, see Method; log(e^x+e^y) <=
	// max(x,y) + log 2); below 600 the direct sum of P h(y) cannot overflow.
	mxb := p.logh - p.lNorm + a*errfloat.Ln2 + max(a*p.l1q, a*p.lq+(a*a-a)*p.i2s2)
	// Log-form nodes: from jLog on (right of the series nodes), the first
	// with beta t > 700, or with a prefactor that could underflow or y
	// overflowed (jU, see prepare).
	jB := n
	if n > t1 && beta*nodes[n-1].t > 700 {
		jB = t1 + searchFirst(n-t1, func(m int) bool { return beta*nodes[t1+m].t > 700 })
	}
	jLog := max(l1, min(jB, sh.jU))
	var V tailW // tail weight, set on the first log-form node with y >= 1
	for iter := 0; iter < 4; iter++ {
		var w window
		if iter == 0 && w0 != nil {
			w = *w0
		} else {
			w = fo.windows(a, lref, nil)
		}
		if w.count() > maxNodes {
			flush()
			return 0, 0, sumRefused, w, lref
		}
		if w.n > 0 && (w.lo[0] < g.lo || w.hi[w.n-1] > hiIdx) {
			flush()
			return 0, 0, sumRegrid, w, lref
		}
		if mxb >= 600 {
			flush()
			Mx := math.Inf(-1)
			for iv := 0; iv < w.n; iv++ {
				for j := w.lo[iv]; j <= w.hi[iv]; j++ {
					nd := &nodes[j-g.lo]
					if v := nd.lP + a*nd.t; v > Mx {
						Mx = v
					}
				}
			}
			if Mx >= 600 {
				rdp, rel, ok := fo.large(a, Mx)
				return rdp, rel, status(ok), w, lref
			}
		}
		S := Sser
		// W: sum of Pa |E| over the beta-form nodes, Dt: sum of Pa E tw
		// over those right of z = 1/2, L: absolute error bound of the
		// log-form nodes (units of u)
		var Wb, Dt, L float64
		// cnt: every node summed (for the subnormal prefactors); cntW: the
		// nodes inside the windows (for the rounding of the sum, see
		// fracRel: a series node outside them adds at most itself).
		cnt, cntW := nSer, 0
		if pending {
			lo, hi := w.lo[0]-g.lo, w.hi[0]-g.lo+1
			cnt += hi - lo - overlap(lo, hi, l0, l1) // series nodes are in nSer
			cntW += hi - lo
			s, ww, dd := sh.stepSumW(lo, hi, l0, l1, jLog, beta, dBeta)
			S += s
			Wb += ww
			Dt += dd
			pending = false
			if hi > jLog {
				s, e := fo.logSum(max(lo, jLog), hi, a, dBeta, &V)
				S += s
				L += e
			}
			w.n = 0 // summed
		}
		for iv := 0; iv < w.n; iv++ {
			lo, hi := w.lo[iv]-g.lo, w.hi[iv]-g.lo+1
			cnt += hi - lo - overlap(lo, hi, l0, l1) // series nodes are in nSer
			cntW += hi - lo
			// beta form, left and right of the series nodes [l0, l1) and
			// below the log-form nodes
			sl, wl, _ := sh.betaSum(lo, min(hi, l0), beta, dBeta)
			sr, wr, dr := sh.betaSum(max(lo, l1), min(hi, jLog), beta, dBeta)
			S += sl + sr
			Wb += wr - wl // E < 0 on the left (y < 0), > 0 on the right
			Dt += dr
			if hi > jLog {
				s, e := fo.logSum(max(lo, jLog), hi, a, dBeta, &V)
				S += s
				L += e
			}
		}
		if S <= 0 {
			// Every node underflowed: I-1 is below 1e-300; retry lower.
			if lref < -2000 {
				absT := float64(cnt) * (a + 1) * 0x1p-1020 // subnormal prefactors
				return math.Log1p(absT) / beta, 0, sumDone, w, lref
			}
			lref -= 700
			continue
		}
		if sh.m > 0 && float64(5*sh.m+4)*Wb > chainBudget*S {
			// The chain's error term exceeds its budget: restart here.
			sh.restart(beta)
			dBeta = 0
			iter--
			continue
		}
		// The level check lref <= log S + 3; log S >= (e-1) log 2 for
		// S = m 2^e, m in [1/2, 1), which usually settles it.
		if _, e := math.Frexp(S); float64(e-1)*errfloat.Ln2 < lref-3+1e-9 {
			if lS := math.Log(S); lref > lS+3 {
				lref = lS
				continue
			}
		}
		rel = fracRel(p, S, Wb, Dt, L, beta, cntW, sh.m)
		sh.wsPrev = Wb / S
		S += float64(cnt) * (a + 1) * 0x1p-1020 // subnormal prefactors
		rdp, rel, _ = logOnePlus(S, rel, beta)
		return rdp, rel, sumDone, w, lref
	}
	return 0, 0, sumRefused, window{}, lref
}

// logSum adds the log-form nodes [lo, hi) of the cached grid (logTerm with
// the chain's E): their sum and absolute error bound (units of u). W is
// computed on the first node with y >= 1 (V.mag = 0: not yet).
func (fo *fracOrders) logSum(lo, hi int, a, dBeta float64, V *tailW) (S, L float64) {
	p, g, sh := fo.p, &fo.grid, &fo.sh
	beta := a - 1
	eE0 := float64(5*sh.m + 14)
	for i := lo; i < hi; i++ {
		nd := &g.nodes[i]
		if V.mag == 0 && nd.y >= 1 {
			*V = p.tailWeight(a)
		}
		x := &sh.x[i]
		var E float64
		if beta*x.t <= 700 {
			E = x.E + dBeta*x.t*(1+x.E)
		}
		tm, e := p.logTerm(g.lo+i, nd, a, beta, V, E, beta*x.tw+eE0)
		S += tm
		L += e
	}
	return S, L
}

// overlap is the number of nodes [lo, hi) shares with [l0, l1).
func overlap(lo, hi, l0, l1 int) int {
	return max(0, min(hi, l1)-max(lo, l0))
}

// hornerSum adds P h(y) over nodes by the series with coef[2..J].
func hornerSum(nodes []node, coef *[maxJ + 1]float64, J int) float64 {
	var S float64
	for i := range nodes {
		nd := &nodes[i]
		v := coef[J]
		for k := J - 1; k >= 2; k-- {
			v = v*nd.y + coef[k]
		}
		S += nd.P * v * nd.y * nd.y
	}
	return S
}

// seriesRange returns the series nodes [l0, t0) and [t1, l1) of order a
// (|y| <= lim, y increases with z). The range of a curve's next order
// (larger a, smaller lim) lies inside the last one: it is walked inwards
// from there instead of searched.
func (sh *shared) seriesRange(nodes []node, a, lim float64) (l0, l1 int) {
	t0, t1 := sh.t0, sh.t1
	if a >= sh.lastA {
		l0, l1 = sh.lastL0, sh.lastL1
		for l0 < t0 && nodes[l0].y < -lim {
			l0++
		}
		for l1 > t1 && nodes[l1-1].y > lim {
			l1--
		}
	} else {
		n := len(nodes)
		l0 = t0 - searchFirst(t0, func(m int) bool { return nodes[t0-1-m].y < -lim })
		l1 = t1 + searchFirst(n-t1, func(m int) bool { return nodes[t1+m].y > lim })
	}
	sh.lastA, sh.lastL0, sh.lastL1 = a, l0, l1
	return l0, l1
}

// searchFirst returns the smallest m in [0, n] with f(m) true, f monotone
// (false then true), n if none.
func searchFirst(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// betaSum adds P h(y) over the nodes [lo, hi) by the beta form with the
// chain's E (no node with beta t > 700: left of z = 1/2 t < 0, right of it
// the log-form nodes are excluded), and returns sum Pa E and sum Pa E tw
// (tw = 0 left of z = 1/2).
func (sh *shared) betaSum(lo, hi int, beta, dBeta float64) (S, W, D float64) {
	if lo >= hi {
		return 0, 0, 0
	}
	xs := sh.x[lo:hi]
	for i := range xs {
		x := &xs[i]
		pe := x.Pa * (x.E + dBeta*x.t*(1+x.E))
		S += pe - beta*x.Py
		W += pe
		D += pe * x.tw
	}
	return S, W, D
}

// lref is a first estimate of log(I-1), a lower bound for a >= 2:
// D_alpha is non-decreasing in alpha, so log I(a) >= (a-1)/(n-1) log I(n)
// with n = floor(a), and I(n) is the exact binomial sum. Any level
// is valid (sum checks it against the sum and retries);
// a lower one only widens the windows. For lb = (a-1)/(n-1) log I(n) <= 36
// it returns a lower bound on log(expm1(lb)) without a transcendental
// function: log(expm1(lb)) = lb + log(1-e^-lb) >= lb - 0.1455 for lb >= 2,
// and log(expm1(lb)) >= log(lb) >= e log 2 + 1 - 1/m for lb = m 2^e,
// m in [1/2, 1) (log x >= 1 - 1/x).
func (fo *fracOrders) lref(a float64) float64 {
	p := fo.p
	if a >= 2 {
		n := int(a)
		var logIn float64
		if n == 2 {
			// I(2) = 1 + q^2 expm1(1/s^2), and log I(2) >= 2 log q +
			// log expm1(1/s^2), the bound where expm1 overflows
			logIn = max(math.Log1p(p.q*p.q*p.expm1is2), 2*p.lq+p.lExpm1is2)
			if math.IsInf(logIn, 1) {
				logIn = 2*p.lq + p.lExpm1is2
			}
		} else {
			logIn = fo.io.value(n).logI
		}
		lb := (a - 1) / float64(n-1) * logIn
		switch {
		case lb > 36:
			return lb
		case lb >= 2:
			return lb - 0.1455
		case lb > 0:
			m, e := math.Frexp(lb)
			return float64(e)*errfloat.Ln2 + 1 - 1/m
		}
	}
	return math.Log(a*(a-1)/2) + 2*p.lq + p.lExpm1is2
}

// logOnePlus returns log1p(S)/beta and its relative error bound for S
// within rel relative: log1p(S(1+rel)) - log1p(S) <= S rel/(1+S), a
// relative S rel/((1+S) log1p(S)) <= rel; for S >= 1, log(1+S) (the
// rounding of 1+S costs at most u/log 2 < 1.5u relative, carried as 2u).
func logOnePlus(S, rel, beta float64) (float64, float64, bool) {
	if S >= 1 {
		l := math.Log(1 + S)
		return l / beta, rel*(S/((1+S)*l)) + 2*errfloat.Unit, true
	}
	return math.Log1p(S) / beta, rel, true // (the factor is >= 0.72 here)
}

// fracRel is the relative error bound of the sum S of a fractional order
// (Method 14): n nodes in the order's windows, m steps of the chain since
// its restart; 1.01 covers the rounding of the sums W, D and L themselves.
func fracRel(p *params, S, Wb, Dt, L, beta float64, n, m int) float64 {
	return errfloat.Unit*(30+p.ec0+1.4*float64(n)) +
		1.01*errfloat.Unit*((32+5*float64(m))*Wb+beta*Dt+L)/S + 4e-18
}

// large sums log I in log space when I >= 4 (Method 9), from the
// largest node term Mx0 found so far.
func (fo *fracOrders) large(a, Mx0 float64) (rdp, rel float64, ok bool) {
	p, g := fo.p, &fo.grid
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
				if d := errfloat.Unit * ((k+1)*a*math.Abs(nd.t) + 3*math.Abs(v) + 64); d > dmax {
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
		abs := dmax + errfloat.Unit*(float64(n+4)+math.Abs(Mx)+math.Abs(logI)+2*math.Abs(lS)+p.ec0) + 1e-18
		return logI / (a - 1), abs/logI + 2*errfloat.Unit, true
	}
	return 0, 0, false
}

// fracOrders evaluates the fractional orders of one (q, sigma): the node
// grid, the moments and the chain of E (shared), for one order (SGM) or
// all the orders of a curve (SGMCurve); the integer orders give the first
// level of each order (lref).
type fracOrders struct {
	p    *params
	io   *intOrders
	grid grid
	sh   shared
	coef [maxJ + 1]float64
}

// reset prepares fo for the parameters p, with an empty grid.
func (fo *fracOrders) reset(p *params, io *intOrders) {
	fo.p, fo.io = p, io
	fo.grid.nodes = fo.grid.nodes[:0]
	fo.sh.on = false
}

// windows returns the node windows of order a at level lref (w if not nil).
func (fo *fracOrders) windows(a, lref float64, w *window) window {
	if w != nil {
		return *w
	}
	var c, lw [4]float64
	nc := fo.p.fracCentres(a, false, &c, &lw)
	return fo.p.fracWindows(c[:nc], lw[:nc], lref)
}

// cover fills the grid over the nodes [lo, hi] and builds the moments for
// the orders amin to amax.
func (fo *fracOrders) cover(lo, hi int, amin, amax float64) {
	fo.grid.fill(fo.p, lo, hi)
	fo.sh.prepare(fo.p, &fo.grid, amin, amax)
}

type sumStatus int

const (
	sumDone    sumStatus = iota
	sumRefused           // more than maxNodes nodes: the caller bounds the order
	sumRegrid            // the windows leave the grid: widen it and sum again
)

func status(ok bool) sumStatus {
	if ok {
		return sumDone
	}
	return sumRefused
}

// rdp returns the RDP at the fractional order a (1 < a <= maxFracOrder)
// and its relative error bound; w (if not nil) holds the order's windows
// at level lref. ok is false if the order needs more than maxNodes nodes.
// Where the order's windows leave the grid, the grid is widened (to the
// union with the present one when that stays within maxGrid nodes) and
// the order summed again.
//
// An order refused so is summed once more from the level of the total
// weight of its Gaussian bounds (Method 9), an upper bound on log(I-1):
// around the heaviest Gaussian the windows are never empty, and the sum
// lowers the level to log S on its next pass. Where sigma is small (below
// about 0.015) the first level, from the integer orders, can be far from
// log(I-1): 16,500 nats below it at sigma = 0.012, alpha = 10.5 (78,518
// nodes); 6,900 nats above it at sigma = 0.012, alpha = 1.0012 (empty
// windows, then a level far below). Any level gives the same guarantee
// (Method 9); the retry changes only the nodes summed, so the orders
// summed at the first level keep their bits.
func (fo *fracOrders) rdp(a, lref float64, w *window) (rdp, rel float64, ok bool) {
	if rdp, rel, ok = fo.rdpAt(a, lref, w); ok {
		return rdp, rel, true
	}
	var c, lw [4]float64
	nc := fo.p.fracCentres(a, false, &c, &lw)
	top := math.Inf(-1)
	for i := range nc {
		top = max(top, lw[i])
	}
	return fo.rdpAt(a, top+math.Log(float64(nc)), nil)
}

// rdpAt is rdp's summation at a first level lref.
func (fo *fracOrders) rdpAt(a, lref float64, w *window) (rdp, rel float64, ok bool) {
	var wBuf window // the windows of a retry (a variable of the loop would escape)
	for range 8 {
		rdp, rel, st, wNew, lrefNew := fo.sum(a, lref, w)
		switch st {
		case sumDone:
			return rdp, rel, true
		case sumRefused:
			return 0, 0, false
		}
		if wNew.n == 0 {
			return 0, 0, false
		}
		lo, hi := wNew.lo[0], wNew.hi[wNew.n-1]
		amin, amax := a, a
		if fo.sh.on {
			amin, amax = min(amin, fo.sh.amin), max(amax, fo.sh.amax)
			glo, ghi := fo.grid.lo, fo.grid.lo+len(fo.grid.nodes)-1
			if ulo, uhi := min(lo, glo), max(hi, ghi); uhi-ulo+1 <= maxGrid {
				lo, hi = ulo, uhi
			}
		}
		if hi-lo+1 > maxGrid {
			return 0, 0, false
		}
		fo.cover(lo, hi, amin, amax)
		wBuf = wNew
		lref, w = lrefNew, &wBuf
	}
	return 0, 0, false
}
