package sgm

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

const (
	tau      = 0.1 // series region alpha |y| <= tau
	maxJ     = 24  // at most maxJ series coefficients (rho <= 0.1 -> J <= 19)
	maxNodes = 1 << 16
)

// node holds the order-independent values at z_j = j h (Method 10).
type node struct {
	lP  float64 // log(h phi_s(z_j)): high part
	lPl float64 // its low part
	P   float64 // h phi_s(z_j) = e^(lP+lPl), within 3u when normal
	y   float64 // q(L-1), within 4.1u; +Inf past overflow
	A   float64 // 1+y, accurate also when y is near -1
	t   float64 // log(1+y): high part
	tl  float64 // its low part, where y >= 1 (else 0)
	lw  float64 // log1p(w), w = (1-q)/(q L), where y >= 1 (else 0)
}

// node computes the values at z_j. z_j = zh + zl exactly; z^2/(2 s^2)
// and lL = log L = (z-1/2)/s^2 are formed in double-double, so that P and y carry a
// few ulps whatever the size of the exponents.
func (p *params) node(j int) node {
	fj := float64(j)
	zh := fj * p.h
	zl := math.FMA(fj, p.h, -zh)
	var nd node
	sh, sl := errfloat.TwoProd(zh, zh)
	sl += 2 * zh * zl
	qh, ql := errfloat.DDMul(sh, sl, p.i2s2, p.i2s2l)
	lh, le := errfloat.TwoSum(p.c0, -qh)
	nd.lP, nd.lPl = lh, le-ql
	P := math.Exp(nd.lP)
	nd.P = math.FMA(P, nd.lPl, P)
	dh, dl := errfloat.TwoSum(zh, -0.5)
	lLh, lLl := errfloat.DDMul(dh, dl+zl, p.is2, p.is2l)
	nd.y = math.Inf(1)
	if lLh < 709 {
		em := math.Expm1(lLh)
		em += (1 + em) * lLl // expm1(lLh+lLl) to first order in lLl
		nd.y = p.q * em
	} else if lqh, lql := p.logQDD(); lqh+lLh < 708.5 {
		// L overflows but q L does not (tiny or subnormal q): y = q L
		// - q from log q + e in double-double, within 3u. Calling such a u
		// +Inf would leave t = log q + lL + log1p(w) to cancel to nearly
		// nothing, and its error bound (kR) to grow without limit.
		xh, xl := errfloat.DDAdd(lqh, lql, lLh, lLl)
		ex := math.Exp(xh)
		nd.y = (ex + ex*xl) - p.q
	}
	switch {
	case math.IsInf(nd.y, 1):
		nd.A = math.Inf(1)
		nd.lw = math.Log1p(math.Exp(p.l1q - p.lq - lLh))
		nd.t, nd.tl = p.tDD(lLh, lLl, nd.lw)
	case nd.y >= 1:
		nd.A = 1 + nd.y
		// w = (1-q)/(q L) and q L = q + y
		w := p.omq / (p.q + nd.y)
		if w < 0x1p-14 {
			// log1p(w) to w^5/5 < 3e-18 w
			nd.lw = w * (1 - w*(0.5-w*(1.0/3-w*0.25)))
		} else {
			nd.lw = math.Log1p(w)
		}
		nd.t, nd.tl = p.tDD(lLh, lLl, nd.lw)
	case nd.y >= -0.5:
		nd.A = 1 + nd.y
		nd.t = math.Log1p(nd.y)
	default:
		ex := math.Exp(lLh)
		nd.A = p.omq + p.q*(ex+ex*lLl)
		nd.t = math.Log(nd.A)
	}
	return nd
}

// tDD returns t = log(1+y) = log q + lL + log1p(w) (1+y = q L (1+w)) in
// double-double, for y >= 1: within 9.1u lw + 1e-13 u (|log q| + lL + 1).
func (p *params) tDD(lLh, lLl, lw float64) (float64, float64) {
	lqh, lql := p.logQDD()
	h, l := errfloat.DDAdd(lqh, lql, lLh, lLl)
	return errfloat.DDAdd(h, l, lw, 0)
}

// kT: |error of t| <= kT u t right of z = 1/2 where y < 1 (log1p of y
// within 4.1u); tErr is the error of t in units of u right of z = 1/2.
const kT = 6.5

func (p *params) tErr(nd *node) float64 {
	if nd.y >= 1 {
		return 9.1*nd.lw + 1e-13*(math.Abs(p.lq)+nd.t+1)
	}
	return kT * nd.t
}

// expm1DD returns expm1(x (t + tl)), x t in double-double, correcting the
// rounding of the product to first order (pl e^p, pl <= u |x t|; Method
// 11). From x t = 709 on the correction is left out (E is near overflow
// or +Inf there): the sums take nodes with beta t > 700 in log form
// (Method 12) and do not use their E.
func expm1DD(x, t, tl float64) float64 {
	return expm1Of(mulDD(x, t, tl))
}

// mulDD returns x (t + tl) in double-double, p + pl: the rounding of x t
// recovered exactly by an FMA, plus x tl (Method 11). The chain of Method
// 15 takes its step d t this way too, so its rounding does not grow with t.
func mulDD(x, t, tl float64) (p, pl float64) {
	p = x * t
	return p, math.FMA(x, t, -p) + x*tl
}

// expm1Of is expm1DD of the double-double product p + pl.
func expm1Of(p, pl float64) float64 {
	E := math.Expm1(p)
	if p < 709 {
		E += (1 + E) * pl
	}
	return E
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

// fill caches the nodes of [lo, hi] (at most maxGrid of them).
func (g *grid) fill(p *params, lo, hi int) {
	if hi < lo || hi-lo+1 > maxGrid {
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

// maxGrid is the largest grid cached: the nodes of one order (at most
// maxNodes) always fit.
const maxGrid = 2 * maxNodes

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
		lo := int(math.Floor(x - 4*errfloat.Unit*math.Abs(x)))
		hi := int(math.Ceil(y + 4*errfloat.Unit*math.Abs(y)))
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
	return fe*errfloat.Ln2 + (m - 1) + 1e-15*(1+math.Abs(fe))
}

// fracCentres returns the centres and log weights (upper bounds) of the
// Gaussian bounds of the small-regime integrand phi_s h(y) (large=false) or
// of phi_s (1+y)^a.
func (p *params) fracCentres(a float64, large bool, c, lw *[4]float64) int {
	if large {
		c[0], lw[0] = 0, (a-1)*errfloat.Ln2+a*p.l1q
		c[1], lw[1] = a, (a-1)*errfloat.Ln2+a*p.lq+(a*a-a)*p.i2s2
		return 2
	}
	lC2 := logUB(a * (a - 1) / 2)
	var lK float64
	if a >= 2 {
		lK = lC2 + (a-2)*errfloat.Ln2
	} else {
		lK = lC2 + (a-2)*p.l1q
	}
	c[0], lw[0] = 0, lK+2*p.lq
	c[1], lw[1] = 2, lK+2*p.lq+p.is2
	if v := a*p.lq + (a*a-a)*p.i2s2; a < 2 && v < lw[1] {
		// Below order 2 the lighter of two bounds right of z = 1/2:
		// there y >= 0 and h(y) <= C(a,2) y^2 (the Gaussian at 2 above)
		// and h(y) <= y^a <= (q L)^a (y^a - h(y) is 0 at y = 0, and its
		// derivative a (1 + y^(a-1) - (1+y)^(a-1)) >= 0, t^(a-1) being
		// subadditive for 1 < a <= 2), with (q L)^a phi_s(z) = q^a
		// e^((a^2-a)/(2s^2)) phi_s(z-a); left of it the Gaussian at 0
		// bounds f alone (y^2 <= q^2). For small sigma the one at 2,
		// of weight e^(1/s^2) (e^711 at sigma = 0.0375), is far heavier:
		// its window alone needed 65,755 nodes at sigma = 0.012. The
		// weight carries a margin above its roundings.
		c[1], lw[1] = a, v+1e-12*(1+math.Abs(a*p.lq)+(a*a-a)*p.i2s2)
		return 2
	}
	if a < 2 {
		return 2
	}
	b := a - 2
	c[2], lw[2] = b, lK+a*p.lq+(b*b-b)*p.i2s2
	c[3], lw[3] = a, lK+a*p.lq+(a*a-a)*p.i2s2
	return 4
}

// logForm reports whether a node with t > 0 is summed in log form at every
// order (Method 12): its prefactor e^(lP+t) could be subnormal, or y
// overflowed. (A node is also summed in log form at an order where E =
// expm1(beta t) could overflow, beta t > 700.)
func logForm(nd *node) bool {
	return nd.lP < -708 || nd.lP+nd.t < -690 || math.IsInf(nd.y, 1)
}

// tailW is V = a log q + a(a-1)/(2 s^2), the log weight of the Gaussian at
// a (L^a phi_s(z) = e^((a^2-a)/(2s^2)) phi_s(z-a)), in double-double: its
// error is below 1e-29 (mag = |a log q| + a(a-1)/(2s^2)).
type tailW struct{ h, l, mag float64 }

func (p *params) tailWeight(a float64) tailW {
	lqh, lql := p.logQDD()
	ah, al := errfloat.TwoProd(a, lqh)
	al += a * lql
	bh, bl := errfloat.TwoProd(a, a-1) // a-1 is exact
	ch, cl := errfloat.DDMul(bh, bl, p.i2s2, p.i2s2l)
	h, l := errfloat.DDAdd(ah, al, ch, cl)
	return tailW{h, l, math.Abs(ah) + math.Abs(ch)}
}

// logTerm returns the term P h(y) of node j (t > 0) in log form,
// e^X (E - beta r)/(1+E) with X = lP + a t, and a bound on its absolute
// error in units of u (the common error ec0 of c0 aside). E = expm1(beta t)
// within eE u relative (not used when beta t > 700). V: tailWeight(a),
// needed when y >= 1.
func (p *params) logTerm(j int, nd *node, a, beta float64, V *tailW, E, eE float64) (term, errAbs float64) {
	var X, eX float64
	if nd.y >= 1 {
		// X = c0 - (z-a)^2/(2 s^2) + V + a log1p(w): the large parts of
		// lP and a t cancel exactly in V.
		fj := float64(j)
		zh := fj * p.h
		zl := math.FMA(fj, p.h, -zh)
		dz := (zh - a) + zl
		Q := dz * dz * p.i2s2
		wd := V.h - Q
		al := a * nd.lw
		X = (wd + p.c0) + (V.l + al)
		eX = 7*Q + 2*math.Abs(wd) + math.Abs(p.c0) + 11.2*al + math.Abs(X) + 1e-13*V.mag
		if math.IsInf(nd.y, 1) {
			// w = exp(log(1-q) - log q - e), lL <= t + |log q|
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
		br = beta * (nd.y / nd.A)
	}
	num := E - br
	dB := eE*(E/(1+E))*(1+br) + 11.2*br // error of num (units of u), Method 12
	if num <= 0 {
		// all cancelled: the term is at most the error of num
		return 0, f * (dB + 3*E) / (1 + E)
	}
	term = f * (num / (1 + E))
	return term, term * (eX + 3 + dB/num)
}
