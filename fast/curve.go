package fast

import "math"

// Shared work for a curve (SGMCurve). Two devices make a fractional order
// cost a few flops per node instead of a transcendental function:
//
//  1. Moments. On the nodes where |u| <= tau/amax (amax the largest
//     fractional order of the curve), h(u) = sum_{j=2..J} C(a,j) u^j for
//     every order a of the curve, so their sum is sum_j C(a,j) Mom_j with
//     Mom_j = sum_n P_n u_n^j, computed once. Reordering the sum is safe:
//     sum_j |C(a,j)| |u|^j <= C(a,2) u^2/(1-rho) and h >= C(a,2) u^2
//     (1-rho/(1-rho)), so the rounding error stays below 1.4 u sum h.
//
//  2. A recurrence in the order. Orders in arithmetic progression (the
//     default 1.1, 1.2, ...) step E_n = expm1(beta t_n) by
//     E(beta+d) = E(beta) e^(d t) + expm1(d t), whose two terms always have
//     the same sign (no cancellation; <= 5u relative per step). The chain
//     is restarted from expm1 every maxSteps orders, and E is corrected to
//     first order for the difference between the order's beta and the
//     chain's anchor + m d (that difference is a few ulps).
const maxSteps = 8

// nodeX holds the per-node data of the recurrence.
type nodeX struct {
	Pa, Pu float64 // e^(lP+t) and e^(lP+t) u/(1+u): term = Pa E - beta Pu
	r, s   float64 // e^(d t), expm1(d t)
	E      float64 // expm1(betaRec t)
}

type shared struct {
	on     bool
	x      []nodeX
	t0, t1 int // tiny node range [t0, t1) as indices into grid.nodes
	mom    [maxJ + 1]float64
	amax   float64
	// chain state
	chain    bool
	anchor   float64 // beta of the last exact restart
	d        float64 // step of r, s (0: none computed)
	m        int     // steps since anchor
	betaRec  float64 // anchor + m d
	stepsBuf int
}

// prepare computes the moments and per-node constants on the cached grid.
func (sh *shared) prepare(p *params, g *grid, amax float64) {
	n := len(g.nodes)
	sh.on = n > 0
	sh.chain = false
	sh.d = 0
	if !sh.on {
		return
	}
	if cap(sh.x) < n {
		sh.x = make([]nodeX, n)
	}
	sh.x = sh.x[:n]
	sh.amax = amax
	lim := tau / amax
	sh.t0, sh.t1 = n, n
	for i := range sh.mom {
		sh.mom[i] = 0
	}
	for i := range g.nodes {
		nd := &g.nodes[i]
		if math.Abs(nd.u) <= lim {
			if sh.t0 == n {
				sh.t0 = i
			}
			sh.t1 = i + 1
			// u^j P for j = 2..maxJ
			v := nd.P * nd.u * nd.u
			for j := 2; j <= maxJ; j++ {
				sh.mom[j] += v
				v *= nd.u
			}
			continue
		}
		x := &sh.x[i]
		x.Pa = math.Exp(nd.lP + nd.t)
		r := 1.0
		if !math.IsInf(nd.A, 1) {
			r = nd.u / nd.A
		}
		x.Pu = x.Pa * r
	}
}

func (sh *shared) tiny(i int) bool { return i >= sh.t0 && i < sh.t1 }

// advance brings E to beta (= a-1), by the recurrence when beta is 1 to 3
// steps of d past the chain, and by a restart otherwise.
func (sh *shared) advance(g *grid, beta float64) {
	if sh.chain && sh.d > 0 {
		k := math.Round((beta - sh.betaRec) / sh.d)
		if k >= 1 && k <= 3 && sh.m+int(k) <= maxSteps &&
			math.Abs(beta-sh.betaRec-k*sh.d) <= 1e-9*sh.d {
			for ; k > 0; k-- {
				for i := range sh.x {
					if sh.tiny(i) {
						continue
					}
					x := &sh.x[i]
					x.E = x.E*x.r + x.s
				}
				sh.m++
			}
			sh.betaRec = math.FMA(float64(sh.m), sh.d, sh.anchor)
			return
		}
	}
	if sh.chain && sh.d == 0 && beta > sh.anchor && beta-sh.anchor <= 1 {
		// Second order of a chain: fix the step d from the first two.
		d := beta - sh.anchor
		for i := range sh.x {
			if sh.tiny(i) {
				continue
			}
			x := &sh.x[i]
			t := g.nodes[i].t
			x.r = math.Exp(d * t)
			x.s = math.Expm1(d * t)
			x.E = x.E*x.r + x.s
		}
		sh.d = d
		sh.m = 1
		sh.betaRec = math.FMA(1, d, sh.anchor)
		return
	}
	for i := range sh.x {
		if sh.tiny(i) {
			continue
		}
		sh.x[i].E = math.Expm1(beta * g.nodes[i].t)
	}
	sh.chain = true
	sh.anchor, sh.betaRec, sh.m = beta, beta, 0
	if sh.d != 0 && sh.m == 0 {
		// keep d: the next orders may continue the progression
	}
}

// fracShared is fracRDP on the cached grid with the moments and the chain;
// ok is false if the order's windows leave the cached grid.
func (p *params) fracShared(a, lref float64, g *grid, sh *shared, coef *[maxJ + 1]float64) (rdp, rel float64, ok bool) {
	if !sh.on || a > sh.amax {
		return 0, 0, false
	}
	var c, lw [4]float64
	nc := p.fracCentres(a, false, &c, &lw)
	beta := a - 1
	rho := math.Max(tau/3, tau/a)
	J := 2
	for r := rho; r > 1e-18 && J < maxJ; r *= rho {
		J++
	}
	coef[2] = a * (a - 1) / 2
	for j := 2; j < J; j++ {
		coef[j+1] = coef[j] * (a - float64(j)) / float64(j+1)
	}
	lim := tau / a
	hiIdx := g.lo + len(g.nodes) - 1
	sh.advance(g, beta)
	dBeta := beta - sh.betaRec
	// Overflow guard: log of the largest node term of phi_s (1+u)^a is
	// below this bound (two-Gaussian bound, see Method); below 600 the
	// direct sum of P h(u) cannot overflow.
	mxb := p.logh - p.lNorm + (a-1)*ln2 + logaddexp(a*p.l1q, a*p.lq+(a*a-a)*p.i2s2)
	// Node ranges by u (u increases with z): [l0, l1) has |u| <= lim.
	l0, l1 := sh.t0, sh.t1
	for l0 > 0 && math.Abs(g.nodes[l0-1].u) <= lim {
		l0--
	}
	for l1 < len(g.nodes) && math.Abs(g.nodes[l1].u) <= lim {
		l1++
	}
	for iter := 0; iter < 4; iter++ {
		w := p.fracWindows(c[:nc], lw[:nc], lref)
		if w.n == 0 || w.lo[0] < g.lo || w.hi[w.n-1] > hiIdx {
			return 0, 0, false
		}
		if mxb >= 600 {
			Mx := math.Inf(-1)
			for iv := 0; iv < w.n; iv++ {
				for j := w.lo[iv]; j <= w.hi[iv]; j++ {
					nd := &g.nodes[j-g.lo]
					if v := nd.lP + a*nd.t; v > Mx {
						Mx = v
					}
				}
			}
			if Mx >= 600 {
				return p.fracLarge(a, g, Mx)
			}
		}
		var S float64
		for j := J; j >= 2; j-- {
			S += coef[j] * sh.mom[j]
		}
		n := J
		for iv := 0; iv < w.n; iv++ {
			lo, hi := w.lo[iv]-g.lo, w.hi[iv]-g.lo+1
			n += hi - lo
			// beta form, left and right of [l0, l1)
			S += sh.betaSum(g, lo, min(hi, l0), beta, a, dBeta)
			S += sh.betaSum(g, max(lo, l1), hi, beta, a, dBeta)
			// series on [l0, t0) and [t1, l1)
			for _, r := range [2][2]int{{max(lo, l0), min(hi, sh.t0)}, {max(lo, sh.t1), min(hi, l1)}} {
				for i := r[0]; i < r[1]; i++ {
					nd := &g.nodes[i]
					v := coef[J]
					for k := J - 1; k >= 2; k-- {
						v = v*nd.u + coef[k]
					}
					S += nd.P * v * nd.u * nd.u
				}
			}
		}
		if S <= 0 {
			return 0, 0, false
		}
		lS := math.Log(S)
		if lref > lS+3 {
			lref = lS
			continue
		}
		// 128u per term as in fracRDP, plus 5u per chain step and the
		// first-order drift correction, both amplified by the <= 25x
		// cancellation of the beta form.
		rel = float64(128+n)*unit + 25*float64(5*sh.m+4)*unit + 2e-18
		return math.Log1p(S) / beta, rel, true
	}
	return 0, 0, false
}

// betaSum adds P h(u) over nodes [lo, hi) by the beta form with the chain's E.
func (sh *shared) betaSum(g *grid, lo, hi int, beta, a, dBeta float64) float64 {
	var S float64
	for i := lo; i < hi; i++ {
		nd := &g.nodes[i]
		if beta*nd.t > 700 {
			S += math.Exp(nd.lP + a*nd.t)
			continue
		}
		x := &sh.x[i]
		E := x.E + dBeta*nd.t*(1+x.E)
		S += x.Pa*E - beta*x.Pu
	}
	return S
}

// logaddexp returns log(e^x + e^y).
func logaddexp(x, y float64) float64 {
	if x < y {
		x, y = y, x
	}
	if math.IsInf(y, -1) {
		return x
	}
	return x + math.Log1p(math.Exp(y-x))
}
