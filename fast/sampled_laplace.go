package fast

// Poisson sampling of the Laplace mechanism and of discrete mechanisms, and
// Zhu and Wang's general bound, in float64 with carried error bounds.
//
// Every moment is written as in reference/sampled_divergence.go: E_Q[(1+t)^g] - 1 =
// (E_Q[1] - 1) + g E_Q[t] + E_Q[h_g(t)] with h_g(t) = (1+t)^g - 1 - g t >=
// 0, and h_g is evaluated without forming 1 + g t:
//
//	h_g(t) = em(g L) + g l1,   L = log1p(t), l1 = log1p(t) - t <= 0,
//
// em(y) = expm1(y) - y >= 0. For g < 0 (the backward direction) both terms
// are >= 0; for g >= 2 they cancel by at most a factor g/(g-1) <= 2 near t
// = 0, which the error bound measures per term. For 1 < g < 2, where that
// factor grows without bound as g -> 1, h_g = (1+t) em((g-1) L) + (g-1)
// ((1+t) L - t), two terms >= 0 (hNear1). Where g L > linMax
// somewhere on the curve (the sum could overflow), log h =
// g L + log1p(-(1 + g t) e^(-g L)) is used instead, so nothing overflows:
// the sum of the terms w h is kept as a scale M and a sum of e^(log w + log
// h - M).
//
// Error bound of a term, relative: the inputs t carry a relative error dt
// (from q expm1(u) and the node u's own rounding), L then dL <= 4u +
// dt |t|/((1+t)|L|); h's absolute error is at most
//
//	8u em + |expm1(y)| |y| dL + |g l1| (2u + dl1) + u h,
//
// (em and log1p to 2 ulps; l1's relative error dl1 is its series' 6 ulps
// and 2 dt/(1 + min(t, 0)), or the propagated errors of L - t; where t < -1/2, 1 + t is
// formed directly, (1-q) + q e^u, not from t), and the weight w (a
// Gauss-Legendre weight, computed by Newton to within 4u, times two
// exponentials) 16u. The sum of non-negative terms adds n u. The
// quadrature's truncation is bounded as in the reference (Trefethen, ATAP,
// Theorem 19.3) with the target 2^-52 of the sum, but with ellipses up to
// height 3 (< pi, where 1 - q + q e^u may vanish): on them |1 - q + q e^u|
// >= cos(Im u/2) (1 - q + q e^Re u), since |a + b e^(iy)|^2 = a^2 + b^2 +
// 2ab cos y >= (a + b)^2 (1 + cos y)/2 for a, b >= 0, so for g < 0 the
// bound on |1+t|^g gains the factor cos(Im u/2)^g >= 1, and pieces of
// half-width up to 2. The total, inflated by 2,
// is added before the final log1p, and the result is rounded up by 16 ulps.
//
// Along a curve, e^(g L) of a node for y = g L > 1 is a product with the
// previous order's (powState): its relative error, at most 8 steps from a
// fresh exponential, is carried as rel and enters em's error as rel e^y.

import (
	"github.com/rdpcheck/rdpcheck/internal/carry"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
	"math"
	"sync"
)

// hLin returns h(t) (kind hPow with exponent g, or KL forward or
// backward) with a bound on its absolute error, from a node's precomputed
// data; ok is false where g log1p(t) > linMax or h is not
// positive.
func hLin(kind int, g, t, dt, L, l1, dL, dl1 float64) (h, e float64, ok bool) {
	if t == 0 {
		return 0, 0, true
	}
	switch kind {
	case kindKLF:
		h, e = hKLF(t, dt, L, l1, dL, dl1)
	case kindKLB: // -l1
		h = -l1
		e = h * dl1
	default:
		y := g * L
		if y > linMax {
			return 0, 0, false
		}
		if near1(g) {
			h, e = hNear1(g, t, dt, L, l1, dL, dl1)
			break
		}
		emv := emSampled(y)
		gl := g * l1
		h = emv + gl
		e = 8*carry.Unit*emv + math.Abs(emv+y)*math.Abs(y)*dL + math.Abs(gl)*(2*carry.Unit+dl1) + carry.Unit*h
	}
	if !(h > 0) || h < 0x1p-1000 {
		return 0, 0, false
	}
	return h, e, true
}

// hKLF returns the KL forward summand (1+t) log1p(t) - t >= 0 with a
// bound on its absolute error.
func hKLF(t, dt, L, l1, dL, dl1 float64) (h, e float64) {
	if math.Abs(t) < 0.5 { // t^2 + (1+t) l1: the two cancel at most by 2
		a, b := t*t, (1+t)*l1
		h = a + b
		return h, math.Abs(a)*(4*carry.Unit+2*dt) + math.Abs(b)*(2*carry.Unit+dt+dl1) + 4*carry.Unit*h
	}
	// (1+t) L - t: for t >= 1/2 the first term is over 1.2 t; for t <
	// -1/2 both terms are >= 0, and 1 + t is e^L (2 ulps and L's absolute
	// error |L| dL): 1 + t formed from t would carry t's absolute error
	// |t| dt, relative |t| dt/(1+t), unbounded as t -> -1, which the
	// bound |a| dt missed by up to a factor |L|.
	m, dm := 1+t, dt
	if t < -0.5 {
		m, dm = math.Exp(L), 4*carry.Unit+math.Abs(L)*dL
	}
	a := m * L
	h = a - t
	return h, math.Abs(a)*(4*carry.Unit+dm+dL) + math.Abs(t)*dt + 2*carry.Unit*math.Abs(h)
}

// near1 reports whether h_g for the exponent g is formed by hNear1.
func near1(g float64) bool { return g > 1 && g < 2 }

// hNear1 returns h_g(t) = (1+t)^g - 1 - g t for 1 < g < 2 with a bound on
// its absolute error, as
//
//	h_g(t) = (1+t) em(d L) + d k(t),   d = g - 1, L = log1p(t),
//
// k(t) = (1+t) L - t >= 0 the KL forward summand (hKLF): (1+t)^g = (1+t)
// e^(d L) = (1+t) (1 + d L + em(d L)). Both terms are >= 0 (em >= 0, d >
// 0), so nothing cancels: em(g L) + g l1 cancels by g/(g-1) as g -> 1,
// which cost about 1e-14/(g-1) relative (1e-11 at g = 1.001, all digits
// at g = 1 + 1.4e-14). d is exact (Sterbenz).
//
// Error: d L is rounded (u) on L's error (dL), em is within 8 ulps and
// moves by |expm1(d L)| times d L's error; 1 + t is formed from t
// (relative u + |t| dt/(1+t)) or, for t < -1/2 where that would cancel,
// as e^L (2 ulps and L's absolute error |L| dL); the products and the sum
// round by u each.
func hNear1(g, t, dt, L, l1, dL, dl1 float64) (h, e float64) {
	d := g - 1
	y := d * L
	em := emSampled(y)
	eem := 8*carry.Unit*em + math.Abs(em+y)*math.Abs(y)*(dL+carry.Unit)
	m, dm := 1+t, carry.Unit+math.Abs(t)*dt/(1+t)
	if t < -0.5 {
		m, dm = math.Exp(L), 4*carry.Unit+math.Abs(L)*dL
	}
	a := m * em
	k, ek := hKLF(t, dt, L, l1, dL, dl1)
	b := d * k
	h = a + b
	return h, m*eem + a*(dm+carry.Unit) + d*ek + carry.Unit*b + carry.Unit*h
}

// emInv holds 1/k! for k = 2..16 (each correctly rounded from its exact
// rational by strconv).
var emInv = func() (c [15]float64) {
	f := 1.0
	for k := 1; k <= 16; k++ {
		f *= float64(k) // k! is exact in float64 up to 18!
		if k >= 2 {
			c[k-2] = 1 / f
		}
	}
	return c
}()

// emSampled is em(y) = expm1(y) - y to within 8 ulps, as em, but with the
// series for |y| < 0.5 as a fixed Horner polynomial (it runs once per node
// and order): y^2 (1/2! + y/3! + ... + y^14/16!), fewer terms for smaller
// |y|, whose first omitted term is below 2^-61 of the sum, and where an inner step's rounding reaches the
// result damped by |y|^k/k!·2 <= 2^-k, so the whole is a few ulps; and
// above 2, e^y - 1 - y (e^y/em(y) < 1.7 there: under 6 ulps).
func emSampled(y float64) float64 {
	switch {
	case y > -0x1p-16 && y < 0x1p-16:
		// The terms after y^5/5! are below 2^-72 of the sum.
		return y * y * (emInv[0] + y*(emInv[1]+y*(emInv[2]+y*emInv[3])))
	case y > -0x1p-8 && y < 0x1p-8:
		// The terms after y^7/9! are below 2^-65 of the sum.
		p := emInv[7]
		for k := 6; k >= 0; k-- {
			p = emInv[k] + y*p
		}
		return y * y * p
	case y > -0.0625 && y < 0.0625:
		// |y| < 1/16: the terms after y^9/11! are below 2^-68 of the sum.
		p := emInv[9]
		for k := 8; k >= 0; k-- {
			p = emInv[k] + y*p
		}
		return y * y * p
	case y > -0.5 && y < 0.5:
		p := emInv[14]
		for k := 13; k >= 0; k-- {
			p = emInv[k] + y*p
		}
		return y * y * p
	case y > 2:
		return math.Exp(y) - 1 - y
	}
	return math.Expm1(y) - y
}

// hLog returns log h and a bound on its error (h's relative error), also
// where g log1p(t) > 40: there log h = y + log1p(-(1 + g t) e^-y), y = g L;
// and for KL forward with t > 1e300.
func hLog(kind int, g, t, dt, L, l1, dL, dl1 float64) (lh, e float64, ok bool) {
	if t == 0 {
		return math.Inf(-1), 0, true
	}
	if kind == kindKLF && t > 1e300 {
		// h = (1+t) L - t = (1+t)(L - r), r = t/(1+t) < L, as log: (1+t) L
		// overflows for t near 1e306 (b near 1/700; found by FuzzSampled:
		// NaN at b = 1.41e-3). L - r > 690 - 1 does not cancel.
		r := t / (1 + t)
		d := L - r
		if !(d > 0) {
			return 0, 0, false
		}
		lh := L + math.Log(d)
		e := L*dL + (L*dL+r*(3*carry.Unit+dt))/d + 2*carry.Unit*math.Abs(lh) + 4*carry.Unit
		return lh, e, true
	}
	if y := g * L; kind == kindPow && y > 40 && near1(g) {
		return hLogNear1(g, t, dt, L, l1, dL, dl1)
	} else if kind == kindPow && y > 40 {
		r := (1 + g*t) * math.Exp(-y)
		if !(r < 1) {
			return 0, 0, false
		}
		// d(log h)/dy = e^y/h = 1/(1-r); the log1p's own error u r/(1-r).
		e := (math.Abs(y)*dL*1.01 + 8*carry.Unit*r) / (1 - r)
		return y + math.Log1p(-r), e + 4*carry.Unit, true
	}
	h, he, ok := hLin(kind, g, t, dt, L, l1, dL, dl1)
	if !ok {
		return 0, 0, false
	}
	return math.Log(h), he/h + 4*carry.Unit, true
}

// hLogNear1 returns log h_g(t) for 1 < g < 2 and g log1p(t) > 40 (t >
// e^20), and a bound on its error, from hNear1's two terms as logarithms
// (the first may overflow): log A = L + log em(d L), log B = log d + log
// k(t), log h = log(e^log A + e^log B). There y + log1p(-(1 + g t) e^-y)
// loses 1e-16/(1 - r), r = (1 + g t) e^-y near 1 - d (L - 1) as g -> 1.
// Each log's error is its term's relative error plus its own rounding;
// the log-add-exp of two positive terms keeps the larger of the two and
// adds its own few ulps.
func hLogNear1(g, t, dt, L, l1, dL, dl1 float64) (lh, e float64, ok bool) {
	d := g - 1
	y := d * L
	var lem, eem float64 // log em(y) and its error
	if y > 40 {
		// em(y) = e^y (1 - r), r = (1 + y) e^-y < e^-36: d(log em)/dy =
		// expm1(y)/em(y) <= 1.01.
		r := (1 + y) * math.Exp(-y)
		lem = y + math.Log1p(-r)
		eem = 1.01*math.Abs(y)*(dL+carry.Unit) + 8*carry.Unit*r + 4*carry.Unit
	} else {
		em := emSampled(y)
		if !(em > 0x1p-1000) {
			return 0, 0, false
		}
		lem = math.Log(em)
		// em's error, relative, and the log's own rounding (1 ulp of
		// |lem|, which may exceed |la| below: L + lem can cancel).
		eem = 8*carry.Unit + math.Abs(em+y)*math.Abs(y)*(dL+carry.Unit)/em + 2*carry.Unit*math.Abs(lem)
	}
	// 1 + t = e^L (t > e^20): log A = L + log em(y), L's error |L| dL.
	la := L + lem
	ea := eem + math.Abs(L)*dL + 2*carry.Unit*math.Abs(la)
	var lk, ek float64
	if t > 1e300 {
		var ok bool
		if lk, ek, ok = hLog(kindKLF, 1, t, dt, L, l1, dL, dl1); !ok {
			return 0, 0, false
		}
	} else {
		k, e := hKLF(t, dt, L, l1, dL, dl1)
		if !(k > 0) {
			return 0, 0, false
		}
		lk = math.Log(k)
		ek = e/k + 2*carry.Unit*math.Abs(lk)
	}
	lb := math.Log(d) + lk
	eb := ek + 2*carry.Unit*math.Abs(math.Log(d)) + 2*carry.Unit*math.Abs(lb)
	lh = xmath.LogAddExp(la, lb)
	return lh, max(ea, eb) + 8*carry.Unit + 2*carry.Unit*math.Abs(lh), true
}

const (
	kindPow = int(xmath.Pow)
	kindKLF = int(xmath.KLForward)
	kindKLB = int(xmath.KLBackward)
)

// oddInv holds 2/(2k+3) for k = 0..17 (each within an ulp).
var oddInv = func() (c [18]float64) {
	for k := range c {
		c[k] = 2 / float64(2*k+3)
	}
	return c
}()

// log1pmx returns log1p(t) - t for |t| < 0.5 to within 6 ulps, as
// -t s + s^3 (2/3 + s^2 (2/5 + ...)), s = t/(2+t) (log1p(t) = 2 atanh(s)),
// the series in Horner form with as many terms as |s| needs: the first
// omitted term is below 2^-62 of t s (|s| <= 1/3 needs 18, 0.1 needs 10,
// 0.02 needs 6). The series is at most 5.3% of t s (t = 1/2) and of its
// sign for t < 0, so the sum cancels by at most 1.12: t s's 3 ulps and the
// series' 1, times 1.12, and the sum's rounding.
func log1pmx(t float64) float64 {
	s := t / (2 + t)
	a := -t * s
	s2 := s * s
	k := len(oddInv)
	switch as := math.Abs(s); {
	case as <= 0.02:
		k = 6
	case as <= 0.1:
		k = 10
	}
	p := oddInv[k-1]
	for i := k - 2; i >= 0; i-- {
		p = oddInv[i] + s2*p
	}
	return a + s*s2*p
}

// lsum accumulates non-negative terms e^(l_i) with relative errors r_i.
type lsum struct {
	M    float64 // scale: the largest l so far
	s, e float64 // sum of e^(l_i - M) and of e^(l_i - M) r_i
	n    int
}

func (a *lsum) add(l, r float64) {
	if math.IsInf(l, -1) {
		return
	}
	a.n++
	if a.n == 1 || l > a.M {
		if a.n > 1 {
			f := math.Exp(a.M - l)
			a.s *= f
			a.e *= f
		}
		a.M = l
	}
	x := math.Exp(l - a.M)
	a.s += x
	a.e += x * (r + 4*carry.Unit) // the exponential's 2 ulps, with the shift's
}

// logUp returns an upper bound on log of the sum times (1 + extra).
func (a *lsum) logUp(extra float64) float64 {
	if a.n == 0 {
		return math.Inf(-1)
	}
	rel := a.e/a.s + float64(a.n+2)*carry.Unit + extra
	return a.M + math.Log(a.s) + 2*rel + 4*carry.Unit*math.Abs(a.M)
}

// glRule64 is an n-point Gauss-Legendre rule: positive nodes and weights.
type glRule64 struct{ x, w, lw []float64 } // lw: log w

var glRules sync.Map // int -> *glRule64

// glSizes are the rule sizes used; a needed n is rounded up to one.
var glSizes = []int{8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512}

func glRule(n int) *glRule64 {
	if r, ok := glRules.Load(n); ok {
		return r.(*glRule64)
	}
	r := &glRule64{}
	for i := 1; i <= n/2; i++ {
		x := math.Cos(math.Pi * (float64(i) - 0.25) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, x
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*x*p1-float64(k-1)*p0)/float64(k)
			}
			dp = float64(n) * (x*p1 - p0) / (x*x - 1)
			dx := p1 / dp
			x -= dx
			if math.Abs(dx) < 1e-17 {
				break
			}
		}
		r.x = append(r.x, x)
		w := 2 / ((1 - x*x) * dp * dp)
		r.w = append(r.w, w)
		r.lw = append(r.lw, math.Log(w))
	}
	glRules.Store(n, r)
	return r
}

// roundRule returns the index in glSizes of the smallest size >= n.
func roundRule(n float64) (int, bool) {
	for i, s := range glSizes {
		if float64(s) >= n {
			return i, true
		}
	}
	return 0, false
}

// lapNodes holds, for one piece and rule, what every order shares: each
// node's log weight lw (and w = e^lw), t, t's relative error dt, L =
// log1p(t), l1 = L - t and L's relative error dL.
type lapNodes struct {
	lw, w, t, dt, L, l1, dL, dl1 []float64
	// sumPow's: per-node error factors, their sum, max |L| (prepSum), and
	// the powers for g > 0 and g < 0.
	wLdL, wr     []float64
	sumWl1, maxL float64
	pow          [2]powState
	// lwErr bounds lw's rounding beyond 4u |lw|: lw is a sum of terms
	// larger than itself (up to c/2 each, cancelling at the left end).
	lwErr float64
}

// appendNode adds a node's order-independent data (setNode's).
func (p *lapNodes) appendNode(lw, t, dt, m, dm float64) {
	for _, s := range []*[]float64{&p.lw, &p.w, &p.t, &p.dt, &p.L, &p.l1, &p.dL, &p.dl1} {
		*s = append(*s, 0)
	}
	p.setNode(len(p.t)-1, lw, t, dt, m, dm)
}

// setNode writes node j's order-independent data. m, if > 0, is 1 + t
// formed directly with relative error dm (for t < -1/2, where 1 + t
// formed from t would cancel: q near 1 and a ratio near 0).
func (p *lapNodes) setNode(j int, lw, t, dt, m, dm float64) {
	var L, dL float64
	if m > 0 && t < -0.5 {
		L = math.Log(m)
		dL = 2*carry.Unit + dm/math.Abs(L)
	} else {
		L = math.Log1p(t)
		dL = 4 * carry.Unit
		if t != 0 {
			dL += dt * math.Abs(t) / ((1 + t) * math.Abs(L))
		}
	}
	l1 := L - t
	// l1's relative error: log1pmx's 6 ulps and t's, which |l1| >=
	// t^2/2 (1 - 2t/3) amplifies by t^2/((1+t)|l1|) <= 2/(1 + min(t, 0));
	// or the difference's propagated errors.
	var dl1 float64
	if math.Abs(t) < 0.5 {
		l1 = log1pmx(t)
		dl1 = 6*carry.Unit + 2*dt/(1+math.Min(t, 0))
	} else if l1 != 0 {
		dl1 = (math.Abs(L)*dL+math.Abs(t)*dt)/math.Abs(l1) + carry.Unit
	}
	p.lw[j], p.w[j], p.t[j], p.dt[j] = lw, math.Exp(lw), t, dt
	p.L[j], p.l1[j], p.dL[j], p.dl1[j] = L, l1, dL, dl1
}

// sumPow returns the sum of w h_g(t) over the nodes and a bound on its
// error, as hLin's kindPow case term by term (the same bound, written out
// here because this loop runs for every node and order); ok is false where
// hLin's would be. Where y = g L > 1 and usePowers is set (the caller
// sets it where some node has y > 1), em(y) = e^y - 1 - y takes e^y from
// powers (a product per node instead of an exponential), whose relative
// error rel is added.
func (p *lapNodes) sumPow(g float64, usePowers bool) (S, E float64, ok bool) {
	p.prepSum()
	var ey []float64
	var rel float64
	if usePowers {
		ey, rel = p.powers(g)
		ey = ey[:len(p.t)]
	}
	// E = sum of w (em's error + h's rounding and w's error) + |g| sum of
	// |em + y| w |L| dL (y's error) + |g| sum of w |l1| (2u + dl1) (g l1's).
	var Eem, Ey float64
	n := len(p.t)
	Ls, l1s, ws, wrs, wLdLs := p.L[:n], p.l1[:n], p.w[:n], p.wr[:n], p.wLdL[:n] // one bounds check each
	for j, t := range p.t {
		if t == 0 {
			continue
		}
		y := g * Ls[j]
		if y > linMax {
			return 0, 0, false
		}
		var emv, e float64
		if y > 1 && usePowers && ey[j] > 2.7 && ey[j] < 0x1p1000 { // else not a usable power (see powers)
			// e^y - 1 - y > e^y/3.8 for y > 1: the two roundings cost 2 ulps of it.
			e1 := ey[j]
			emv = e1 - 1 - y
			e = (rel+2*carry.Unit)*e1 + 2*carry.Unit*emv
		} else {
			emv = emSampled(y)
			e = 8 * carry.Unit * emv
		}
		h := emv + g*l1s[j]
		if !(h >= 0x1p-1000) {
			return 0, 0, false
		}
		w := ws[j]
		S += w * h
		Eem += w*e + h*wrs[j]
		Ey += math.Abs(emv+y) * wLdLs[j]
	}
	return S, Eem + math.Abs(g)*(Ey+p.sumWl1), true
}

// prepSum computes sumPow's per-node error factors once: w |L| dL, w (17u
// + 4u |lw|) (h's rounding, and w's error: a Gauss-Legendre weight,
// computed by Newton to within 4u, times two exponentials, 16u, and lw's
// own rounding) and the sum of w |l1| (2u + dl1); and max |L|.
func (p *lapNodes) prepSum() {
	if len(p.wr) == len(p.t) && p.wr != nil {
		return
	}
	n := len(p.t)
	block := make([]float64, 2*n)
	p.wLdL, p.wr = block[:n], block[n:]
	p.sumWl1, p.maxL = 0, 0
	for j, t := range p.t {
		w, L := p.w[j], math.Abs(p.L[j])
		p.wLdL[j] = w * L * p.dL[j]
		p.wr[j] = w * (17*carry.Unit + 4*carry.Unit*math.Abs(p.lw[j]) + p.lwErr)
		if t != 0 {
			p.sumWl1 += w * math.Abs(p.l1[j]) * (2*carry.Unit + p.dl1[j])
		}
		if L > p.maxL {
			p.maxL = L
		}
	}
	p.sumWl1 *= 1 + float64(n+2)*carry.Unit // the sum's own rounding
}

// powState holds e^(g L_j) for every node at one exponent g, so that the
// next order's powers are a product per node: a curve's orders step by
// 0.1 or 1, and an exponential per node and order was most of a curve's
// time.
type powState struct {
	g     float64   // ey[j] = e^(g L_j) (1 + d_j), |d_j| <= rel
	rel   float64   //
	steps int       // products since ey was last computed by exponentials
	ey    []float64 //
	step  float64   // mul[j] = e^(step L_j) (1 + d_j), |d_j| <= mrel
	mrel  float64   //
	mul   []float64 //
}

// maxPowSteps bounds the products between two fresh evaluations: rel grows
// by mrel + 3u and a little per product, so it stays near 40u (sumPow
// takes em(y) = e^y - 1 - y from the powers for y > 1, where em may be
// 3.8 times smaller than e^y).
const maxPowSteps = 8

// powers returns e^(g L_j) for every node and a bound on its relative
// error, where e^(g L_j) is a normal float64. Elsewhere a value may be 0,
// +Inf or NaN (an overflow at an earlier order stays one), and sumPow
// takes its exponential itself.
func (p *lapNodes) powers(g float64) ([]float64, float64) {
	s := &p.pow[0]
	if g < 0 {
		s = &p.pow[1]
	}
	n := len(p.L)
	if s.ey == nil {
		block := make([]float64, 2*n)
		s.ey, s.mul = block[:n], block[n:]
	} else if s.g == g {
		return s.ey, s.rel
	}
	// g and s.g of one sign within a factor 2: d = g - s.g is exact
	// (Sterbenz), and no node's power passes from below 2^-1000 to above
	// e in one step (|y| at most doubles), so a used product is formed
	// from normal numbers.
	near := s.rel > 0 && s.steps < maxPowSteps && math.Abs(g) <= 2*math.Abs(s.g) && math.Abs(s.g) <= 2*math.Abs(g)
	if near {
		d := g - s.g
		if s.step == 0 || math.Abs(d-s.step) > 0x1p-44*math.Abs(s.step) {
			// A new step: its factors by exponentials, each within 2 ulps
			// and the rounding of d L_j (u |d L_j|).
			for j, L := range p.L {
				s.mul[j] = math.Exp(d * L)
			}
			s.step, s.mrel = d, 2*carry.Unit+carry.Unit*math.Abs(d)*p.maxL*(1+2*carry.Unit)
		}
		// e^(d L) = e^(step L) e^(c), c = (d - step) L (exact difference,
		// |c| <= 2^-44 |step L|, a few ulps of g): e^c = 1 + c within c^2.
		c := d - s.step
		if c == 0 {
			for j := range s.ey {
				s.ey[j] *= s.mul[j]
			}
		} else {
			for j, L := range p.L {
				v := s.ey[j] * s.mul[j]
				s.ey[j] = v + v*(c*L)
			}
		}
		m := math.Abs(c) * p.maxL * (1 + 2*carry.Unit) // max |c L_j|
		s.rel += s.mrel + 3*carry.Unit + 2*m*m + carry.Unit*m
		s.g = g
		s.steps++
		return s.ey, s.rel
	}
	for j, L := range p.L {
		s.ey[j] = math.Exp(g * L)
	}
	s.g, s.rel, s.steps = g, 2*carry.Unit+carry.Unit*math.Abs(g)*p.maxL*(1+2*carry.Unit), 0
	return s.ey, s.rel
}

// rhoPlan holds, for one piece and one ellipse parameter rho, the
// order-independent parts of the node-count bound.
type rhoPlan struct {
	ok                  bool
	mlo, mhi, lcos      float64 // log m at the ellipse's real ends; log cos of its height
	lo, lqe, lconst, l2 float64 // real end; log(q (e^hi + 1)); log(64/15/(1-rho^-2)); 2 log rho
}

// pieceInfo is a piece's planning data: its skip test's parts and rhoPlans.
type pieceInfo struct {
	xa, lma, lmb, lqb float64
	rho               []rhoPlan
	hint              int // where the last scan of rho ended
}

// lapCtx is what a curve shares between orders: q, b, the pieces and the
// node data per (piece, rule size).
type lapCtx struct {
	q, b, c float64
	np      int
	hw      float64
	pre     float64 // log(2 hw e^(-c/2)/4): the pieces' common factor
	logNP   float64
	nodes   [][]*lapNodes // by piece and index in glSizes
	info    []pieceInfo
	tails   lapNodes // the two tails as nodes: weights 1/2 and e^-c/2
	// tailLower prepares the tails' lower bounds on h.
	tailLower [2]xmath.HLower
	// skipScreen counts the orders left before the backward direction's
	// screening is tried again (see value).
	skipScreen int
	bInf       float64 // backInf's value, once computed
}

// minQuadratureScale is the smallest b the quadrature takes (as in the
// reference): its pieces grow as 1/b. Below it value returns a bound.
const minQuadratureScale = 1e-3

func newLapCtx(q, b float64) *lapCtx {
	c := 1 / b
	if b < minQuadratureScale {
		return &lapCtx{q: q, b: b, c: c}
	}
	np := max(1, int(math.Ceil(c/2)))
	lc := &lapCtx{q: q, b: b, c: c, np: np, hw: c / float64(np), nodes: make([][]*lapNodes, np)}
	// c = 1/b is rounded (2u c absolute), which moves the tails' t by
	// e^c/|expm1(c)| times that, relative.
	// 1 + t = (1-q) + q e^-c on the left, 1-q exact for q >= 1/2 (the
	// only case where t < -1/2), e^-c moved by 2u c relative.
	lc.tails.appendNode(-math.Ln2, q*math.Expm1(-c), 6*carry.Unit+math.Exp(-c)/math.Abs(math.Expm1(-c))*2*carry.Unit*c,
		(1-q)+q*math.Exp(-c), 8*carry.Unit+2*carry.Unit*c)
	lc.tails.appendNode(-math.Ln2-c, q*math.Expm1(c), 6*carry.Unit+math.Exp(c)/math.Abs(math.Expm1(c))*2*carry.Unit*c, 0, 0)
	lc.tails.lwErr = 2 * carry.Unit * (c + 1) // -ln 2 - c rounded
	lc.pre = math.Log(0.25) - c/2 + math.Log(2*lc.hw)
	lc.logNP = math.Log(float64(np))
	lc.tailLower[0], lc.tailLower[1] = xmath.LaplaceTails(q, c)
	hw := lc.hw
	for i := range np {
		xa := -c + float64(2*i)*hw
		xb := xa + 2*hw
		pi := pieceInfo{xa: xa, lma: xmath.LogMix(q, xa), lmb: xmath.LogMix(q, xb), lqb: math.Log1p(q * (math.Exp(xb) + 1))}
		for rho := 1.1; ; rho *= 1.1 {
			bb := hw * (rho - 1/rho) / 2
			if bb > 3 || rho > 1e6 { // 3 < pi: the singularities are at Im u = ±pi
				break
			}
			D := hw * ((rho+1/rho)/2 - 1)
			lo, hi := xa-D, xb+D
			pi.rho = append(pi.rho, rhoPlan{true, xmath.LogMix(q, lo), xmath.LogMix(q, hi), math.Log(math.Cos(bb / 2)), lo,
				math.Log(q*(math.Exp(hi)+1) + 1e-300), math.Log(64 / 15 / (1 - 1/(rho*rho))), 2 * math.Log(rho)})
		}
		lc.info = append(lc.info, pi)
	}
	return lc
}

// piece returns the nodes of piece i for the rule glSizes[k].
func (lc *lapCtx) piece(i, k int) *lapNodes {
	if lc.nodes[i] == nil {
		lc.nodes[i] = make([]*lapNodes, len(glSizes))
	}
	if p := lc.nodes[i][k]; p != nil {
		return p
	}
	n := glSizes[k]
	r := glRule(n)
	p := &lapNodes{}
	block := make([]float64, 8*n) // one allocation for the eight columns
	for c, s := range []*[]float64{&p.lw, &p.w, &p.t, &p.dt, &p.L, &p.l1, &p.dL, &p.dl1} {
		*s = block[c*n : (c+1)*n : (c+1)*n]
	}
	uc := -lc.c + float64(2*i+1)*lc.hw
	pre := math.Log(0.25*lc.hw) - lc.c/2
	// lw = pre + log w_j - u/2: pre's, u's and the sums' roundings, with
	// |log w_j| < 12 for every rule size used (w_j > 1e-5).
	p.lwErr = 4 * carry.Unit * (math.Abs(pre) + math.Abs(uc)/2 + lc.hw/2 + 12)
	eu := 2 * carry.Unit * (math.Abs(uc) + lc.hw) // a node's rounding
	for j := range r.x {
		for si, s := range [2]float64{-1, 1} {
			u := uc + s*lc.hw*r.x[j]
			em1 := math.Expm1(u)
			e := 1 + em1 // within 2 ulps where e^u >= 1/2, else an exponential
			if u < -0.69 {
				e = math.Exp(u)
			}
			dt := 6*carry.Unit + e/math.Abs(em1)*eu
			p.setNode(2*j+si, pre+r.lw[j]-u/2, lc.q*em1, dt, (1-lc.q)+lc.q*e, 8*carry.Unit+eu)
		}
	}
	lc.nodes[i][k] = p
	return p
}

// moment returns an upper bound on log of E_mu0[h(t)] (the log of S), or
// ok = false when the method cannot bound it.
func (lc *lapCtx) moment(kind int, g float64, tbits int) (float64, bool) {
	c := lc.c
	logSL := logAddExpLower(-math.Ln2+lc.tailLower[0].Log(xmath.MomentKind(kind), g), -math.Ln2-c+lc.tailLower[1].Log(xmath.MomentKind(kind), g))
	gb := g
	switch kind {
	case kindKLF:
		gb = 2
	case kindKLB:
		gb = -1
	}
	lgb := math.Log(math.Abs(gb))
	lgb1 := max(0, lgb)
	pre := lc.pre
	target := float64(tbits)*math.Ln2 + lc.logNP + 3 - logSL + pre
	extraK := 3 + 2*math.Ln2 // margin, and the two log-add-exps bounded by max + ln 2
	if kind != kindPow {
		extraK += math.Log(3 + math.Pi) // |m log m| <= |m|^2 + 1 + pi |m|, and the like
	}
	// y = g log1p(t) is monotone in t, and the tails hold the extreme t:
	// if neither exceeds linMax, every term is summed in linear scale.
	yTail := max(g*lc.tails.L[0], g*lc.tails.L[1])
	linear := c <= 300 && (kind != kindPow || yTail <= linMax)
	// The tails hold the extreme t, so also the extreme y = g L.
	usePowers := kind == kindPow && yTail > 1
	var S, E float64
	var acc lsum
	n := 0
	addNodes := func(p *lapNodes) bool {
		if linear && kind == kindPow && !near1(g) {
			s, e, ok := p.sumPow(g, usePowers)
			S += s
			E += e
			n += len(p.t)
			return ok
		}
		for j := range p.t {
			n++
			if linear {
				h, e, ok := hLin(kind, g, p.t[j], p.dt[j], p.L[j], p.l1[j], p.dL[j], p.dl1[j])
				if !ok {
					return false
				}
				w := p.w[j]
				S += w * h
				E += w * (e + h*(16*carry.Unit+4*carry.Unit*math.Abs(p.lw[j])+p.lwErr))
				continue
			}
			lh, e, ok := hLog(kind, g, p.t[j], p.dt[j], p.L[j], p.l1[j], p.dL[j], p.dl1[j])
			if !ok {
				return false
			}
			acc.add(p.lw[j]+lh, e+16*carry.Unit+4*carry.Unit*math.Abs(p.lw[j])+p.lwErr)
		}
		return true
	}
	if !addNodes(&lc.tails) {
		return 0, false
	}
	for i := range lc.np {
		pi := &lc.info[i]
		skip := -pi.xa/2 + max(0, gb*pi.lma, gb*pi.lmb) + lgb1 + pi.lqb + 2
		if skip+pre < logSL-float64(tbits)*math.Ln2-10 {
			continue
		}
		// Any rho gives a valid bound, so the scan (plain comparisons: it
		// runs per order and piece) starts where the previous order's
		// ended, walks towards smaller counts and stops once the count
		// stops falling or reaches the smallest rule.
		count := func(k int) float64 {
			rp := &pi.rho[k]
			lM := gb * rp.mhi // m is increasing: g > 0 peaks at the right end
			if gb < 0 {
				lM = gb * (rp.mlo + rp.lcos) // |1+t|^g <= (cos(b/2) m)^g for g < 0
			}
			a := max(0, lgb+rp.lqe, lM)
			return (target - rp.lo/2 + a + extraK + rp.lconst) / rp.l2
		}
		if len(pi.rho) == 0 {
			return 0, false
		}
		k := min(pi.hint, len(pi.rho)-1)
		best := count(k)
		step := 1
		if k+1 >= len(pi.rho) || count(k+1) >= best {
			step = -1
		}
		for best > 8 {
			j := k + step
			if j < 0 || j >= len(pi.rho) {
				break
			}
			v := count(j)
			if !(v < best) {
				break
			}
			k, best = j, v
		}
		pi.hint = k
		nn, ok := roundRule(max(8, best))
		if !ok {
			return 0, false
		}
		if !addNodes(lc.piece(i, nn)) {
			return 0, false
		}
	}
	// Quadrature truncation: at most 2^-tbits of the sum (with the lower
	// bound logSL standing for the sum): relative 2^(2-tbits) with margin.
	var ls float64
	if linear {
		if !(S > 0) {
			return 0, false
		}
		rel := E/S + float64(n+2)*carry.Unit + math.Ldexp(1, 2-tbits)
		ls = math.Log(S) + 2*rel + 2*carry.Unit
	} else {
		ls = acc.logUp(math.Ldexp(1, 2-tbits))
	}
	if ls < logSL-1e-3 {
		return 0, false // below a proven lower bound: not to be trusted
	}
	return ls, true
}

// logAddExpLower returns a lower bound on log(e^a + e^b) (-Inf for a zero
// term): the larger alone where the smaller adds under e^-36 of it.
func logAddExpLower(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if b < a-36 {
		return a
	}
	return xmath.LogAddExp(a, b)
}

// backInf returns an upper bound on the backward direction at alpha =
// +Inf, -log(1 - q + q e^(-1/b)), which bounds it at every order.
func (lc *lapCtx) backInf() float64 {
	if lc.bInf == 0 {
		q, c := lc.q, lc.c
		var m carry.Val // log of 1 - q + q e^-c
		if q*-math.Expm1(-c) < 0.5 {
			m = carry.Log1p(carry.Mul(carry.Exact(q), carry.Expm1(carry.Exact(-c))))
		} else {
			// 1 + q expm1(-c) cancels: (1-q) + q e^-c, both terms >= 0
			// and 1-q exact (q >= 1/2); xmath.LogMix's split, with error
			// bounds. (Found by FuzzSampled: at q = 1 -
			// 2^-53, b = 0.0261 the interval of q expm1(-c) reached -1,
			// and the bound was +Inf at every order above 2.)
			m = carry.Log(carry.Add(carry.Exact(1-q), carry.Mul(carry.Exact(q), carry.Exp(carry.Exact(-c)))))
		}
		lc.bInf = carry.RoundUp(carry.Neg(m).Up(), (c+2)*carry.Unit+4*carry.Unit) // as infValue
	}
	return lc.bInf
}

// direction returns an upper bound on one direction of order alpha, or
// ok = false.
func (lc *lapCtx) direction(fwd bool, alpha float64, tbits int) (float64, bool) {
	kind, g := kindPow, alpha
	switch {
	case alpha == 1 && fwd:
		kind = kindKLF
	case alpha == 1:
		kind = kindKLB
	case !fwd:
		g = 1 - alpha
	}
	ls, ok := lc.moment(kind, g, tbits)
	if !ok {
		return 0, false
	}
	var v float64
	if alpha == 1 {
		v = math.Exp(ls)
	} else {
		v = log1pOfExp(ls) / (alpha - 1)
	}
	return carry.RoundUp(v, 16*carry.Unit), true
}

// log1pOfExp returns log(1 + e^l), rounded up by a few ulps of its size.
func log1pOfExp(l float64) float64 {
	if l > 36 {
		return l + math.Exp(-l) // log(1+e^l) = l + log1p(e^-l) <= l + e^-l
	}
	return math.Log1p(math.Exp(l))
}

func checkSampledLaplace(q, b, alpha float64) error {
	const fn = "SampledLaplace"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	if math.IsNaN(b) || b <= 0 || math.IsInf(b, 0) {
		return inputErr(fn, "b", b, "scale must be finite and > 0")
	}
	return checkAlpha(fn, alpha, 1)
}

func (lc *lapCtx) value(alpha float64) float64 {
	q, b := lc.q, lc.b
	switch {
	case q == 0:
		return 0
	case q == 1:
		v, _ := Laplace(b, alpha)
		return v
	case math.IsInf(alpha, 1):
		return lc.infValue()
	case b < minQuadratureScale:
		// Both are upper bounds at every order: the unsampled mechanism's
		// value (sampling never increases RDP) and the order-infinity
		// value (RDP is non-decreasing in the order). (Found by
		// FuzzSampled: b = 7e-15 asked for 7e13 pieces, and hung.)
		v, _ := Laplace(b, alpha)
		return min(v, lc.infValue())
	}
	f, okf := lc.direction(true, alpha, fineBits)
	if okf && f >= lc.backInf() {
		// The backward direction is at most its order-infinity value
		// (Rényi divergences do not decrease with the order).
		return f
	}
	if okf && lc.skipScreen == 0 {
		// A coarse upper bound on the backward direction (half the nodes)
		// settles the maximum whenever it is below the forward one. Where
		// it fails (small q: the two directions agree to first order), the
		// next few orders of a curve go straight to the fine evaluation.
		if bc, ok := lc.direction(false, alpha, coarseBits); ok && bc <= f {
			return f
		}
		lc.skipScreen = 8
	} else if lc.skipScreen > 0 {
		lc.skipScreen--
	}
	bk, okb := lc.direction(false, alpha, fineBits)
	switch {
	case !okf:
		// A bound the method cannot certify falls back to bounds valid at
		// every order: the unsampled mechanism's value (sampling never
		// increases RDP) and the order-infinity value.
		v, _ := Laplace(b, alpha)
		return min(v, lc.infValue())
	case !okb:
		// The backward direction is at most its order-infinity value and
		// at most the unsampled Laplace's (joint convexity of
		// e^((alpha-1) D)): the smaller. (Found by FuzzSampled: at q =
		// 7e-6, alpha = 141432 the Laplace alone, 0.92, stood above the
		// value at a higher order, 4e-6; at q = 1 - 2^-53, b = 0.1044,
		// alpha = 4914 the order-infinity value alone stood above the
		// Laplace's.)
		v, _ := Laplace(b, alpha)
		return math.Max(f, min(v, lc.backInf()))
	}
	return math.Max(f, bk)
}

// infValue returns an upper bound on the value at alpha = +Inf,
// max(log(1 - q + q e^(1/b)), -log(1 - q + q e^(-1/b))).
func (lc *lapCtx) infValue() float64 {
	q, c := lc.q, lc.c
	var f carry.Val
	if c <= 700 {
		f = carry.Log1p(carry.Mul(carry.Exact(q), carry.Expm1(carry.Exact(c))))
	} else {
		// e^c overflows float64 (b below 1/709.8): log(1 - q + q e^c)
		// = c + log(q + (1-q) e^-c), every term positive. (Found by
		// FuzzSampled: b = 8.7e-4 gave +Inf, above the Laplace's 1152.)
		f = carry.Add(carry.Exact(c), carry.Log(carry.Add(carry.Exact(q), carry.Mul(carry.Sub(carry.Exact(1), carry.Exact(q)), carry.Exp(carry.Exact(-c))))))
	}
	// c = 1/b is rounded (relative u): that moves log1p(q expm1(c)) by
	// at most c e^c/expm1(c) u <= (c+1) u of itself, and the backward
	// value by at most u of itself.
	return math.Max(carry.RoundUp(f.Up(), (c+2)*carry.Unit+4*carry.Unit), lc.backInf())
}

// SampledLaplace returns the Rényi differential privacy of order alpha of
// the Poisson-sampled Laplace mechanism (sampling rate q, scale b,
// l1-sensitivity 1, add/remove neighbours): max(D_alpha(mu || mu0),
// D_alpha(mu0 || mu)) with mu0 = Lap(0, b) and mu = (1-q) Lap(0, b) + q
// Lap(1, b), the exact value that reference.SampledLaplace computes (see
// there; the forward direction was the larger at every point measured).
// Two closed-form tails plus Gauss-Legendre on [0, 1] with a proven
// truncation bound, in float64 with a carried error bound (see the file
// comment), rounded up: never below the exact value. Where the method
// cannot certify its bound (orders extremely close to 1 with huge
// exponents, underflow outside the ranges below) it returns bounds valid at
// every order: for the backward direction its order-infinity value, and
// otherwise the smaller of the unsampled Laplace value and the
// order-infinity value. So it does for b < 1e-3, where the quadrature's
// cost grows as 1/b (the reference returns ErrTooLarge), without
// quadrature.
//
// Accuracy: within 1e-12 relative of the reference for q in [1e-10, 1], b in
// [0.05, 1000], integer orders to 1024 and fractional orders in [1, 256],
// down to 1 + 2^-52 (TestSampledLaplaceAccuracySweep).
//
// Special cases are:
//
//	SampledLaplace(q=0, b, alpha) = 0
//	SampledLaplace(q=1, b, alpha) = Laplace(b, alpha)
//	SampledLaplace(q, b, alpha=+Inf) = max(log(1 - q + q e^(1/b)), -log(1 - q + q e^(-1/b)))
//	SampledLaplace = error for q outside [0, 1], b <= 0, b = +Inf, alpha < 1 or any NaN
func SampledLaplace(q, b, alpha float64) (float64, error) {
	if err := checkSampledLaplace(q, b, alpha); err != nil {
		return 0, err
	}
	return newLapCtx(q, b).value(alpha), nil
}

// SampledLaplaceCurve returns SampledLaplace at each order, sharing the
// quadrature nodes between orders.
//
// Special cases are those of SampledLaplace, and an error for empty orders.
func SampledLaplaceCurve(q, b float64, orders []float64) ([]float64, error) {
	if len(orders) == 0 {
		return nil, inputErr("SampledLaplaceCurve", "orders", 0, "must be non-empty")
	}
	for _, a := range orders {
		if err := checkSampledLaplace(q, b, a); err != nil {
			return nil, err
		}
	}
	lc := newLapCtx(q, b)
	out := make([]float64, len(orders))
	for i, a := range orders {
		out[i] = lc.value(a)
	}
	return out, nil
}

// linMax is the largest g log1p(t) summed in linear scale: a term w h is
// then below e^linMax (w <= 1), so a sum of up to 2^20 of them stays far
// from overflow (e^709); above it the terms are summed as logarithms.
const linMax = 600

// fineBits is the quadrature's truncation target (2^-fineBits of the sum:
// the bound it adds, 2^-50 relative, is far below the 1e-12 promised, and
// 60 bits cost 9% more instructions per curve); coarseBits the target of
// the backward direction's screening bound.
const (
	fineBits   = 52
	coarseBits = 20
)
