package sampled

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
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
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
		e = 8*errfloat.Unit*emv + math.Abs(emv+y)*math.Abs(y)*dL + math.Abs(gl)*(2*errfloat.Unit+dl1) + errfloat.Unit*h
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
		return h, math.Abs(a)*(4*errfloat.Unit+2*dt) + math.Abs(b)*(2*errfloat.Unit+dt+dl1) + 4*errfloat.Unit*h
	}
	// (1+t) L - t: for t >= 1/2 the first term is over 1.2 t; for t <
	// -1/2 both terms are >= 0, and 1 + t is e^L (2 ulps and L's absolute
	// error |L| dL): 1 + t formed from t would carry t's absolute error
	// |t| dt, relative |t| dt/(1+t), unbounded as t -> -1, which the
	// bound |a| dt missed by up to a factor |L|.
	m, dm := 1+t, dt
	if t < -0.5 {
		m, dm = math.Exp(L), 4*errfloat.Unit+math.Abs(L)*dL
	}
	a := m * L
	h = a - t
	return h, math.Abs(a)*(4*errfloat.Unit+dm+dL) + math.Abs(t)*dt + 2*errfloat.Unit*math.Abs(h)
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
	eem := 8*errfloat.Unit*em + math.Abs(em+y)*math.Abs(y)*(dL+errfloat.Unit)
	m, dm := 1+t, errfloat.Unit+math.Abs(t)*dt/(1+t)
	if t < -0.5 {
		m, dm = math.Exp(L), 4*errfloat.Unit+math.Abs(L)*dL
	}
	a := m * em
	k, ek := hKLF(t, dt, L, l1, dL, dl1)
	b := d * k
	h = a + b
	return h, m*eem + a*(dm+errfloat.Unit) + d*ek + errfloat.Unit*b + errfloat.Unit*h
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
		e := L*dL + (L*dL+r*(3*errfloat.Unit+dt))/d + 2*errfloat.Unit*math.Abs(lh) + 4*errfloat.Unit
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
		e := (math.Abs(y)*dL*1.01 + 8*errfloat.Unit*r) / (1 - r)
		return y + math.Log1p(-r), e + 4*errfloat.Unit, true
	}
	h, he, ok := hLin(kind, g, t, dt, L, l1, dL, dl1)
	if !ok {
		return 0, 0, false
	}
	return math.Log(h), he/h + 4*errfloat.Unit, true
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
		eem = 1.01*math.Abs(y)*(dL+errfloat.Unit) + 8*errfloat.Unit*r + 4*errfloat.Unit
	} else {
		em := emSampled(y)
		if !(em > 0x1p-1000) {
			return 0, 0, false
		}
		lem = math.Log(em)
		// em's error, relative, and the log's own rounding (1 ulp of
		// |lem|, which may exceed |la| below: L + lem can cancel).
		eem = 8*errfloat.Unit + math.Abs(em+y)*math.Abs(y)*(dL+errfloat.Unit)/em + 2*errfloat.Unit*math.Abs(lem)
	}
	// 1 + t = e^L (t > e^20): log A = L + log em(y), L's error |L| dL.
	la := L + lem
	ea := eem + math.Abs(L)*dL + 2*errfloat.Unit*math.Abs(la)
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
		ek = e/k + 2*errfloat.Unit*math.Abs(lk)
	}
	lb := math.Log(d) + lk
	eb := ek + 2*errfloat.Unit*math.Abs(math.Log(d)) + 2*errfloat.Unit*math.Abs(lb)
	lh = xmath.LogAddExp(la, lb)
	return lh, max(ea, eb) + 8*errfloat.Unit + 2*errfloat.Unit*math.Abs(lh), true
}

const (
	kindPow = int(xmath.Pow)
	kindKLF = int(xmath.KLForward)
	kindKLB = int(xmath.KLBackward)
)

// directionKind is the moment one direction of the sampled divergence
// needs at order alpha: the forward direction's alpha-th power moment, the
// backward's (1-alpha)-th, or at alpha = 1 the KL form of either.
func directionKind(fwd bool, alpha float64) (kind int, g float64) {
	switch {
	case alpha == 1 && fwd:
		return kindKLF, alpha
	case alpha == 1:
		return kindKLB, alpha
	case !fwd:
		return kindPow, 1 - alpha
	}
	return kindPow, alpha
}

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
	a.e += x * (r + 4*errfloat.Unit) // the exponential's 2 ulps, with the shift's
}

// logUp returns an upper bound on log of the sum times (1 + extra).
func (a *lsum) logUp(extra float64) float64 {
	if a.n == 0 {
		return math.Inf(-1)
	}
	rel := a.e/a.s + float64(a.n+2)*errfloat.Unit + extra
	return a.M + math.Log(a.s) + 2*rel + 4*errfloat.Unit*math.Abs(a.M)
}

// log1pOfExp returns log(1 + e^l), rounded up by a few ulps of its size.
func log1pOfExp(l float64) float64 {
	if l > 36 {
		return l + math.Exp(-l) // log(1+e^l) = l + log1p(e^-l) <= l + e^-l
	}
	return math.Log1p(math.Exp(l))
}

// linMax is the largest g log1p(t) summed in linear scale: a term w h is
// then below e^linMax (w <= 1), so a sum of up to 2^20 of them stays far
// from overflow (e^709); above it the terms are summed as logarithms.
const linMax = 600
