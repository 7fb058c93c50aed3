package sgm

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

const (
	logTabN = 1 << 14 // log n is tabulated for n <= logTabN
	theta   = 0.9     // strip half-width d = theta pi s^2 (Method 8)
	tailT   = 46.0    // truncation and discretisation exponent (Method 8, 9)
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
	kappa     float64 // trapezoid error exponent (Method 8)
	expm1is2  float64 // expm1(1/s^2)
	lExpm1is2 float64 // log(expm1(1/s^2))
	lqh, lql  float64 // log q in double-double, once lqDD is true
	lqDD      bool
}

func newParams(q, s float64) params {
	p := params{q: q, s: s, omq: 1 - q}
	p.lq = xmath.Log(q)
	if q >= 0.5 {
		p.l1q = math.Log(1 - q)
	} else {
		p.l1q = math.Log1p(-q)
	}
	s2h, s2l := errfloat.TwoProd(s, s) // exact
	p.i2s2, p.i2s2l = errfloat.DDDiv(1, 0, 2*s2h, 2*s2l)
	p.is2, p.is2l = 2*p.i2s2, 2*p.i2s2l
	p.lemLow = math.Abs(math.Log(2*p.i2s2)) + 1
	ls := math.Log(s)
	p.lNorm = ls + errfloat.LnSqrt2Pi
	// kappa = 46 + log1p(4 s^2), without overflowing 4 s^2
	if s > 1 {
		p.kappa = tailT + 2*math.Log(2*s) + math.Log1p(0.25*p.is2)
	} else {
		p.kappa = tailT + math.Log1p(4*s*s)
	}
	h1 := math.Pi * s * math.Sqrt(2/p.kappa)
	if h1 >= 2/theta {
		p.h = h1
	} else {
		t2 := theta * theta * math.Pi * math.Pi * s * s
		p.h = 2 * theta * math.Pi * math.Pi * s * s / (p.kappa + t2/2)
	}
	p.logh = math.Log(p.h)
	p.ih = 1 / p.h
	p.c0 = p.logh - p.lNorm
	// log h, log s within 2u relative, errfloat.LnSqrt2Pi within u/2, two sums
	p.ec0 = 2*math.Abs(p.logh) + 2*math.Abs(ls) + 1 + math.Abs(p.lNorm) + math.Abs(p.c0)
	p.kL = 10.5
	// Right of z = 1/2, t = log1p(y) is within 6.1u t, except on nodes
	// where q L overflows (y = +Inf: e >= 709 and log q + e >= 708.5, see
	// node) where t = log q + lL + log1p(w) is within u (2t + 8|log q| +
	// 1426) and t >= 708 (see Method).
	p.kR = max(6.5, 2+(8*math.Abs(p.lq)+1426)/708)
	p.expm1is2 = math.Expm1(p.is2)
	p.lExpm1is2 = math.Log(p.expm1is2)
	if math.IsInf(p.expm1is2, 1) {
		// sigma below 0.0376: log expm1(x) = x + log1p(-e^-x) = x to
		// float64 for x > 709, finite where expm1 is not (fracOrders.lref
		// needs it: a level of +Inf gives no windows, and the order fell
		// back on a bound 1e5 times too high).
		p.lExpm1is2 = p.is2
	}
	return p
}

// logQDD returns log q in double-double (errfloat.LogDD, relative error ~1e-31),
// computed once per params.
func (p *params) logQDD() (float64, float64) {
	if !p.lqDD {
		p.lqh, p.lql = errfloat.LogDD(p.q)
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

// log1pexp returns log(1+e^x).
func log1pexp(x float64) float64 {
	if x > 36 {
		return x + math.Exp(-x)
	}
	return math.Log1p(math.Exp(x))
}
