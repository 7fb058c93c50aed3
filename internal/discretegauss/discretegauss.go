package discretegauss

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/carry"
)

// dgMaxTerms bounds the terms of either sum (sigma <= 1/2 needs at most 7
// direct terms for 2^-70; the dual sum at most 4).
const dgMaxTerms = 12

// Curve holds the order-independent sums of one sigma and sensitivity
// (fast.DiscreteGaussian's theta ratios), so that a curve forms them once.
type Curve struct {
	sigma, d float64
	c        carry.Val // d^2/(2 sigma^2)
	cNormal  bool      // c is a normal float64 well inside the range
	s2       carry.Val // 2 sigma^2
	inv2     carry.Val // 1/(2 sigma^2)
	invS     carry.Val // 1/sigma^2
	dual     bool
	s0       carry.Val // direct: S0
	g        [dgMaxTerms]carry.Val
	nx       int
	q        [dgMaxTerms]carry.Val // dual: q^(k^2), k = 1..nq
	nq       int
	den      carry.Val // dual: 1 + 2 sum q^(k^2), tail included in the bound
	tailQ    float64   // dual: bound on sum_{k>nq} k^2 q^(k^2)
}

var piEv = carry.Val{V: math.Pi, E: 1.3e-16} // |pi - math.Pi| < 1.23e-16

// NewCurve prepares sigma > 0 finite and an integer distance d >= 0
// (the sensitivity's absolute value).
func NewCurve(sigma, d float64) Curve {
	p := Curve{sigma: sigma, d: d}
	s := carry.ToScaled(carry.Exact(sigma))
	den := carry.ScaledMul(s, s)
	den.X++
	p.c = carry.ScaledDiv(carry.ToScaled(carry.Mul(carry.Exact(d), carry.Exact(d))), den).Float()
	p.cNormal = p.c.V >= 0x1p-900 && p.c.V <= 0x1p900
	p.s2 = carry.Mul2(carry.Mul(carry.Exact(sigma), carry.Exact(sigma)))
	p.inv2 = carry.Div(carry.Exact(1), p.s2)
	p.invS = carry.Mul2(p.inv2)
	if sigma <= 0.5 {
		// Terms exp(-x^2/(2 sigma^2)) while above 2^-80 of 1 (x = 1 always).
		p.s0 = carry.Exact(1)
		for x := 1; x < dgMaxTerms; x++ {
			xf := float64(x)
			if x > 1 && xf*xf/p.s2.V > 56 {
				break
			}
			g := carry.Exp(carry.Neg(carry.Div(carry.Exact(xf*xf), p.s2)))
			p.g[x-1] = g
			p.s0 = carry.Add(p.s0, carry.Mul2(g))
			p.nx = x
		}
		xn := float64(p.nx + 1)
		p.g[p.nx] = carry.Exp(carry.Neg(carry.Div(carry.Exact(xn*xn), p.s2)))
		// The terms left out: x >= nx+1, each exp(-x^2/s2) and decaying by
		// at least e^-(2x+1)/s2 < e^-4 per step: twice the first, doubled.
		p.s0.E += 4 * math.Exp(-xn*xn/p.s2.V)
		return p
	}
	p.dual = true
	lq := carry.Neg(carry.Mul2(carry.Mul(carry.Mul(piEv, piEv), carry.Mul(carry.Exact(sigma), carry.Exact(sigma)))))
	p.den = carry.Exact(1)
	for k := 1; k <= dgMaxTerms; k++ {
		kk := float64(k * k)
		if k > 1 && (kk-1)*-lq.V > 52 {
			break
		}
		qk := carry.Exp(carry.Mul(lq, carry.Exact(kk)))
		p.q[k-1] = qk
		p.den = carry.Add(p.den, carry.Mul2(qk))
		p.nq = k
	}
	kn := float64(p.nq + 1)
	p.tailQ = 2 * kn * kn * math.Exp((lq.V+lq.E)*kn*kn)
	p.den.E += 2 * p.tailQ
	return p
}

// dist returns the distance of alpha d to the integers, with its error
// bound: alpha d = p + e exactly (FMA), both reduced modulo 1 exactly.
func dgDist(alpha, d float64) carry.Val {
	p := alpha * d
	e := math.FMA(alpha, d, -p)
	g := (p - math.Round(p)) + (e - math.Round(e))
	f := math.Abs(g)
	if f > 0.5 {
		f = 1 - f // exact (Sterbenz)
	}
	return carry.Val{V: f, E: carry.Unit * f}
}

func (p *Curve) line(alpha float64) carry.Val {
	if p.cNormal && alpha <= 0x1p100 {
		return carry.Mul(carry.Exact(alpha), p.c)
	}
	s := carry.ToScaled(carry.Exact(p.sigma))
	den := carry.ScaledMul(s, s)
	den.X++
	return carry.ScaledDiv(carry.ScaledMul(carry.ToScaled(carry.Exact(alpha)), carry.ToScaled(carry.Mul(carry.Exact(p.d), carry.Exact(p.d)))), den).Float()
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
	var L carry.Val
	if p.dual {
		L = p.logRatioDual(f)
	} else {
		L = p.logRatioDirect(f)
	}
	am1 := carry.Sub(carry.Exact(alpha), carry.Exact(1))
	if alpha > 0.5 && alpha < 2 {
		am1 = carry.Exact(alpha - 1) // Sterbenz: exact
	}
	return carry.Add(M, carry.Div(L, am1)).Up()
}

// logRatioDirect is -b + log1p(R) (see fast.DiscreteGaussian), sigma <= 1/2.
// With t = x f/sigma^2 and em = expm1(t), a term of R is
// exp(-x^2/(2 sigma^2)) em^2/(1+em): one expm1 per term, the Gaussian
// factors formed once per curve. Where t > 600 (sigma far below 0.1) em
// would overflow and the exponents are combined first instead.
func (p *Curve) logRatioDirect(f carry.Val) carry.Val {
	b := carry.Mul(carry.Mul(f, f), p.inv2)
	R := carry.Exact(0)
	for x := 1; x <= p.nx+1; x++ {
		xf := float64(x)
		t := carry.Mul(carry.Mul(carry.Exact(xf), f), p.invS)
		var term carry.Val
		if t.V <= 600 {
			em := carry.Expm1(t)
			term = carry.Div(carry.Mul(p.g[x-1], evSq(em)), carry.Add(carry.Exact(1), em))
		} else {
			ex := carry.Mul(carry.Sub(carry.Exact(xf*xf), carry.Mul2(carry.Mul(carry.Exact(xf), f))), p.inv2)
			term = carry.Mul(carry.Exp(carry.Neg(ex)), evSq(carry.Expm1(carry.Neg(t))))
		}
		R = carry.Add(R, term)
	}
	// Left out: x >= nx+2, exponent (x^2-2xf)/s2 >= (x^2-x)/s2, and
	// expm1^2 <= 1; decaying by e^-2x/s2 per step: twice the first.
	xn := float64(p.nx + 2)
	R.E += 2 * math.Exp(-(xn*xn-xn)/p.s2.V)
	R = carry.Div(R, p.s0)
	return carry.Sub(carry.Log1p(R), b)
}

func evSq(x carry.Val) carry.Val { return carry.Mul(x, x) }

// logRatioDual is log1p(-r) (see fast.DiscreteGaussian), sigma > 1/2.
func (p *Curve) logRatioDual(f carry.Val) carry.Val {
	N := carry.Exact(0)
	for k := 1; k <= p.nq; k++ {
		kf := carry.Mul(carry.Exact(float64(k)), f)
		t := carry.Sub(kf, carry.Exact(math.Round(kf.V))) // |t| <= 1/2
		t = carry.Val{V: math.Abs(t.V), E: t.E}
		s := sinPiEv(t)
		N = carry.Add(N, carry.Mul(p.q[k-1], evSq(s)))
	}
	// Tail: sin^2(pi k f) <= pi^2 k^2 f^2.
	N.E += 10 * f.V * f.V * p.tailQ
	N = carry.Val{V: 4 * N.V, E: 4 * N.E}
	r := carry.Div(N, p.den)
	return carry.Log1p(carry.Neg(r))
}

// sinPiEv returns sin(pi t) for t in [0, 1/2] (with its bound on t): x =
// pi t <= pi/2, sin x = x P(x^2) with P the Taylor polynomial to
// x^24/25! (remainder below x^26/27! < 1.9e-23 of P >= 2/pi, times x).
// Horner in plain float64: 13 steps, each rounding adds at most u times the
// sum of the absolute terms, sum |c_i| x^(2i) = sinh(x)/x <= 1.47 <= 2.3 P,
// so P's error is at most 2 * 13 * 2.3 u P < 64 u P; the error of x
// propagates with |d sin/dx| <= 1.
func sinPiEv(t carry.Val) carry.Val {
	x := carry.Mul(piEv, t)
	x2 := x.V * x.V
	s := 0.0
	for n := 12; n >= 0; n-- {
		c := carry.InvFact[2*n+1]
		if n%2 == 1 {
			c = -c
		}
		s = s*x2 + c
	}
	v := s * x.V
	return carry.Val{V: v, E: (64*carry.Unit+3e-23)*math.Abs(v) + 2*x.E + carry.Unit*math.Abs(v)}
}
