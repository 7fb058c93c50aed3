package discretegauss

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// dgMaxTerms bounds the terms of either sum (sigma <= 1/2 needs at most 7
// direct terms for 2^-70; the dual sum at most 4).
const dgMaxTerms = 12

// Curve holds the order-independent sums of one sigma and sensitivity
// (fast.DiscreteGaussian's theta ratios), so that a curve forms them once.
type Curve struct {
	sigma, d float64
	c        errfloat.Val // d^2/(2 sigma^2)
	cNormal  bool         // c is a normal float64 well inside the range
	s2       errfloat.Val // 2 sigma^2
	inv2     errfloat.Val // 1/(2 sigma^2)
	invS     errfloat.Val // 1/sigma^2
	dual     bool
	s0       errfloat.Val // direct: S0
	g        [dgMaxTerms]errfloat.Val
	nx       int
	q        [dgMaxTerms]errfloat.Val // dual: q^(k^2), k = 1..nq
	nq       int
	den      errfloat.Val // dual: 1 + 2 sum q^(k^2), tail included in the bound
	tailQ    float64      // dual: bound on sum_{k>nq} k^2 q^(k^2)
}

var piEv = errfloat.Val{V: math.Pi, E: 1.3e-16} // |pi - math.Pi| < 1.23e-16

// NewCurve prepares sigma > 0 finite and an integer distance d >= 0
// (the sensitivity's absolute value).
func NewCurve(sigma, d float64) Curve {
	p := Curve{sigma: sigma, d: d}
	s := errfloat.ToScaled(errfloat.Exact(sigma))
	den := errfloat.ScaledMul(s, s)
	den.X++
	p.c = errfloat.ScaledDiv(errfloat.ToScaled(errfloat.Mul(errfloat.Exact(d), errfloat.Exact(d))), den).Float()
	p.cNormal = p.c.V >= 0x1p-900 && p.c.V <= 0x1p900
	p.s2 = errfloat.Mul2(errfloat.Mul(errfloat.Exact(sigma), errfloat.Exact(sigma)))
	p.inv2 = errfloat.Div(errfloat.Exact(1), p.s2)
	p.invS = errfloat.Mul2(p.inv2)
	if sigma <= 0.5 {
		// Terms exp(-x^2/(2 sigma^2)) while above 2^-80 of 1 (x = 1 always).
		p.s0 = errfloat.Exact(1)
		for x := 1; x < dgMaxTerms; x++ {
			xf := float64(x)
			if x > 1 && xf*xf/p.s2.V > 56 {
				break
			}
			g := errfloat.Exp(errfloat.Neg(errfloat.Div(errfloat.Exact(xf*xf), p.s2)))
			p.g[x-1] = g
			p.s0 = errfloat.Add(p.s0, errfloat.Mul2(g))
			p.nx = x
		}
		xn := float64(p.nx + 1)
		p.g[p.nx] = errfloat.Exp(errfloat.Neg(errfloat.Div(errfloat.Exact(xn*xn), p.s2)))
		// The terms left out: x >= nx+1, each exp(-x^2/s2) and decaying by
		// at least e^-(2x+1)/s2 < e^-4 per step: twice the first, doubled.
		p.s0.E += 4 * math.Exp(-xn*xn/p.s2.V)
		return p
	}
	p.dual = true
	lq := errfloat.Neg(errfloat.Mul2(errfloat.Mul(errfloat.Mul(piEv, piEv), errfloat.Mul(errfloat.Exact(sigma), errfloat.Exact(sigma)))))
	p.den = errfloat.Exact(1)
	for k := 1; k <= dgMaxTerms; k++ {
		kk := float64(k * k)
		if k > 1 && (kk-1)*-lq.V > 52 {
			break
		}
		qk := errfloat.Exp(errfloat.Mul(lq, errfloat.Exact(kk)))
		p.q[k-1] = qk
		p.den = errfloat.Add(p.den, errfloat.Mul2(qk))
		p.nq = k
	}
	kn := float64(p.nq + 1)
	p.tailQ = 2 * kn * kn * math.Exp((lq.V+lq.E)*kn*kn)
	p.den.E += 2 * p.tailQ
	return p
}

// dist returns the distance of alpha d to the integers, with its error
// bound: alpha d = p + e exactly (FMA), both reduced modulo 1 exactly.
func dgDist(alpha, d float64) errfloat.Val {
	p := alpha * d
	e := math.FMA(alpha, d, -p)
	g := (p - math.Round(p)) + (e - math.Round(e))
	f := math.Abs(g)
	if f > 0.5 {
		f = 1 - f // exact (Sterbenz)
	}
	return errfloat.Val{V: f, E: errfloat.Unit * f}
}

func (p *Curve) line(alpha float64) errfloat.Val {
	if p.cNormal && alpha <= 0x1p100 {
		return errfloat.Mul(errfloat.Exact(alpha), p.c)
	}
	s := errfloat.ToScaled(errfloat.Exact(p.sigma))
	den := errfloat.ScaledMul(s, s)
	den.X++
	return errfloat.ScaledDiv(errfloat.ScaledMul(errfloat.ToScaled(errfloat.Exact(alpha)), errfloat.ToScaled(errfloat.Mul(errfloat.Exact(p.d), errfloat.Exact(p.d)))), den).Float()
}

// At is fast.DiscreteGaussian at the order alpha >= 0 (or +Inf).
func (p *Curve) At(alpha float64) float64 {
	switch {
	case p.d == 0 || alpha == 0:
		return 0
	case math.IsInf(alpha, 1):
		return math.Inf(1)
	}
	M := p.line(alpha)
	if !M.OK() {
		return math.Inf(1)
	}
	if alpha >= 0x1p50 {
		return M.Up()
	}
	f := dgDist(alpha, p.d)
	if f.V == 0 {
		return M.Up() // exact 0: g = 0 only when both parts cancel exactly
	}
	var L errfloat.Val
	if p.dual {
		L = p.logRatioDual(f)
	} else {
		L = p.logRatioDirect(f)
	}
	am1 := errfloat.Sub(errfloat.Exact(alpha), errfloat.Exact(1))
	if alpha > 0.5 && alpha < 2 {
		am1 = errfloat.Exact(alpha - 1) // Sterbenz: exact
	}
	return errfloat.Add(M, errfloat.Div(L, am1)).Up()
}

// logRatioDirect is -b + log1p(R) (see fast.DiscreteGaussian), sigma <= 1/2.
// With t = x f/sigma^2 and em = expm1(t), a term of R is
// exp(-x^2/(2 sigma^2)) em^2/(1+em): one expm1 per term, the Gaussian
// factors formed once per curve. Where t > 600 (sigma far below 0.1) em
// would overflow and the exponents are combined first instead.
func (p *Curve) logRatioDirect(f errfloat.Val) errfloat.Val {
	b := errfloat.Mul(errfloat.Mul(f, f), p.inv2)
	R := errfloat.Exact(0)
	for x := 1; x <= p.nx+1; x++ {
		xf := float64(x)
		t := errfloat.Mul(errfloat.Mul(errfloat.Exact(xf), f), p.invS)
		var term errfloat.Val
		if t.V <= 600 {
			em := errfloat.Expm1(t)
			term = errfloat.Div(errfloat.Mul(p.g[x-1], evSq(em)), errfloat.Add(errfloat.Exact(1), em))
		} else {
			ex := errfloat.Mul(errfloat.Sub(errfloat.Exact(xf*xf), errfloat.Mul2(errfloat.Mul(errfloat.Exact(xf), f))), p.inv2)
			term = errfloat.Mul(errfloat.Exp(errfloat.Neg(ex)), evSq(errfloat.Expm1(errfloat.Neg(t))))
		}
		R = errfloat.Add(R, term)
	}
	// Left out: x >= nx+2, exponent (x^2-2xf)/s2 >= (x^2-x)/s2, and
	// expm1^2 <= 1; decaying by e^-2x/s2 per step: twice the first.
	xn := float64(p.nx + 2)
	R.E += 2 * math.Exp(-(xn*xn-xn)/p.s2.V)
	R = errfloat.Div(R, p.s0)
	return errfloat.Sub(errfloat.Log1p(R), b)
}

func evSq(x errfloat.Val) errfloat.Val { return errfloat.Mul(x, x) }

// logRatioDual is log1p(-r) (see fast.DiscreteGaussian), sigma > 1/2.
func (p *Curve) logRatioDual(f errfloat.Val) errfloat.Val {
	N := errfloat.Exact(0)
	for k := 1; k <= p.nq; k++ {
		kf := errfloat.Mul(errfloat.Exact(float64(k)), f)
		t := errfloat.Sub(kf, errfloat.Exact(math.Round(kf.V))) // |t| <= 1/2
		t = errfloat.Val{V: math.Abs(t.V), E: t.E}
		s := sinPiEv(t)
		N = errfloat.Add(N, errfloat.Mul(p.q[k-1], evSq(s)))
	}
	// Tail: sin^2(pi k f) <= pi^2 k^2 f^2.
	N.E += 10 * f.V * f.V * p.tailQ
	N = errfloat.Val{V: 4 * N.V, E: 4 * N.E}
	r := errfloat.Div(N, p.den)
	return errfloat.Log1p(errfloat.Neg(r))
}

// sinPiEv returns sin(pi t) for t in [0, 1/2] (with its bound on t): x =
// pi t <= pi/2, sin x = x P(x^2) with P the Taylor polynomial to
// x^24/25! (remainder below x^26/27! < 1.9e-23 of P >= 2/pi, times x).
// Horner in plain float64: 13 steps, each rounding adds at most u times the
// sum of the absolute terms, sum |c_i| x^(2i) = sinh(x)/x <= 1.47 <= 2.3 P,
// so P's error is at most 2 * 13 * 2.3 u P < 64 u P; the error of x
// propagates with |d sin/dx| <= 1.
func sinPiEv(t errfloat.Val) errfloat.Val {
	x := errfloat.Mul(piEv, t)
	x2 := x.V * x.V
	s := 0.0
	for n := 12; n >= 0; n-- {
		c := errfloat.InvFact[2*n+1]
		if n%2 == 1 {
			c = -c
		}
		s = s*x2 + c
	}
	v := s * x.V
	return errfloat.Val{V: v, E: (64*errfloat.Unit+3e-23)*math.Abs(v) + 2*x.E + errfloat.Unit*math.Abs(v)}
}
