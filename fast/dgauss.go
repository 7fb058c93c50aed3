package fast

import (
	"math"
)

// DiscreteGaussian returns the Rényi divergence of order alpha between the
// discrete Gaussians N_Z(0, sigma^2) and N_Z(sensitivity, sigma^2), for an
// integer sensitivity D (Canonne, Kamath, Steinke 2020, arXiv 2004.00010):
// the exact value (see reference.DiscreteGaussian for the derivation),
//
//	alpha D^2/(2 sigma^2) + log(theta(f)/theta(0))/(alpha-1),  f = dist(alpha D, Z),
//
// theta(t) = sum_x exp(-(x-t)^2/(2 sigma^2)), evaluated so that no step
// cancels by more than a small factor:
//
//   - sigma <= 1/2: log(theta(f)/theta(0)) = -b + log1p(R), b = f^2/(2 sigma^2),
//     R = sum_{x>=1} exp(-(x^2-2xf)/(2 sigma^2)) expm1(-xf/sigma^2)^2 / S0,
//     S0 = 1 + 2 sum_{x>=1} exp(-x^2/(2 sigma^2)): positive terms; -b +
//     log1p(R) cancels by at most a factor 5 at sigma = 1/2 (log1p(R) <=
//     0.81 b there, less below).
//   - sigma > 1/2: Poisson summation, log1p(-r) with
//     r = 4 sum_k q^(k^2) sin^2(pi k f) / (1 + 2 sum_k q^(k^2)), q = e^(-2 pi^2 sigma^2) < 0.0072,
//     sin by its Taylor series with a bounded remainder.
//
// Every operation carries its error bound (ev) and the result is rounded up
// by it, so it is never below the exact value. Orders alpha >= 2^50 return
// the zCDP line alpha D^2/(2 sigma^2), an upper bound (the divergence never
// exceeds it above order 1) within (1/(8 sigma^2) + 1)/(alpha-1) of the line.
//
// Special cases are:
//
//	DiscreteGaussian(sigma, 0, alpha) = 0
//	DiscreteGaussian(sigma, D, alpha) = alpha D^2/(2 sigma^2) (rounded up) when (1-alpha) D is an integer
//	DiscreteGaussian(sigma, D, +Inf) = +Inf for D != 0
//	DiscreteGaussian = error for sigma <= 0, +Inf or NaN, a non-integer or infinite sensitivity, alpha < 0 or NaN
//
// Accuracy: within 1e-12 relative of the reference for sigma >= 0.1 (the
// sweep in dgauss_test.go measures it), and never below it.
func DiscreteGaussian(sigma, sensitivity, alpha float64) (float64, error) {
	const fn = "DiscreteGaussian"
	if err := checkDG(fn, sigma, sensitivity); err != nil {
		return 0, err
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	p := newDGParams(sigma, math.Abs(sensitivity))
	return p.at(alpha), nil
}

// DiscreteGaussianCurve writes DiscreteGaussian at each order to out (no
// allocation; the order-independent sums are formed once).
func DiscreteGaussianCurve(sigma, sensitivity float64, orders, out []float64) error {
	const fn = "DiscreteGaussianCurve"
	if err := checkDG(fn, sigma, sensitivity); err != nil {
		return err
	}
	if len(out) != len(orders) {
		return inputErr(fn, "out", float64(len(out)), "must have the length of orders")
	}
	for _, a := range orders {
		if err := checkAlpha(fn, a, 0); err != nil {
			return err
		}
	}
	p := newDGParams(sigma, math.Abs(sensitivity))
	for i, a := range orders {
		out[i] = p.at(a)
	}
	return nil
}

func checkDG(fn string, sigma, sens float64) error {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if math.IsNaN(sens) || math.IsInf(sens, 0) || sens != math.Trunc(sens) {
		return inputErr(fn, "sensitivity", sens, "must be a finite integer")
	}
	return nil
}

// dgMaxTerms bounds the terms of either sum (sigma <= 1/2 needs at most 7
// direct terms for 2^-70; the dual sum at most 4).
const dgMaxTerms = 12

type dgParams struct {
	sigma, d float64
	c        ev   // d^2/(2 sigma^2)
	cNormal  bool // c is a normal float64 well inside the range
	s2       ev   // 2 sigma^2
	inv2     ev   // 1/(2 sigma^2)
	invS     ev   // 1/sigma^2
	dual     bool
	s0       ev // direct: S0
	g        [dgMaxTerms]ev
	nx       int
	q        [dgMaxTerms]ev // dual: q^(k^2), k = 1..nq
	nq       int
	den      ev      // dual: 1 + 2 sum q^(k^2), tail included in the bound
	tailQ    float64 // dual: bound on sum_{k>nq} k^2 q^(k^2)
}

var piEv = ev{math.Pi, 1.3e-16} // |pi - math.Pi| < 1.23e-16

func newDGParams(sigma, d float64) dgParams {
	p := dgParams{sigma: sigma, d: d}
	s := toSev(evExact(sigma))
	den := sevMul(s, s)
	den.x++
	p.c = sevDiv(toSev(evMul(evExact(d), evExact(d))), den).float()
	p.cNormal = p.c.v >= 0x1p-900 && p.c.v <= 0x1p900
	p.s2 = evMul2(evMul(evExact(sigma), evExact(sigma)))
	p.inv2 = evDiv(evExact(1), p.s2)
	p.invS = evMul2(p.inv2)
	if sigma <= 0.5 {
		// Terms exp(-x^2/(2 sigma^2)) while above 2^-80 of 1 (x = 1 always).
		p.s0 = evExact(1)
		for x := 1; x < dgMaxTerms; x++ {
			xf := float64(x)
			if x > 1 && xf*xf/p.s2.v > 56 {
				break
			}
			g := evExp(evNeg(evDiv(evExact(xf*xf), p.s2)))
			p.g[x-1] = g
			p.s0 = evAdd(p.s0, evMul2(g))
			p.nx = x
		}
		xn := float64(p.nx + 1)
		p.g[p.nx] = evExp(evNeg(evDiv(evExact(xn*xn), p.s2)))
		// The terms left out: x >= nx+1, each exp(-x^2/s2) and decaying by
		// at least e^-(2x+1)/s2 < e^-4 per step: twice the first, doubled.
		p.s0.e += 4 * math.Exp(-xn*xn/p.s2.v)
		return p
	}
	p.dual = true
	lq := evNeg(evMul2(evMul(evMul(piEv, piEv), evMul(evExact(sigma), evExact(sigma)))))
	p.den = evExact(1)
	for k := 1; k <= dgMaxTerms; k++ {
		kk := float64(k * k)
		if k > 1 && (kk-1)*-lq.v > 52 {
			break
		}
		qk := evExp(evMul(lq, evExact(kk)))
		p.q[k-1] = qk
		p.den = evAdd(p.den, evMul2(qk))
		p.nq = k
	}
	kn := float64(p.nq + 1)
	p.tailQ = 2 * kn * kn * math.Exp((lq.v+lq.e)*kn*kn)
	p.den.e += 2 * p.tailQ
	return p
}

// dist returns the distance of alpha d to the integers, with its error
// bound: alpha d = p + e exactly (FMA), both reduced modulo 1 exactly.
func dgDist(alpha, d float64) ev {
	p := alpha * d
	e := math.FMA(alpha, d, -p)
	g := (p - math.Round(p)) + (e - math.Round(e))
	f := math.Abs(g)
	if f > 0.5 {
		f = 1 - f // exact (Sterbenz)
	}
	return ev{f, unit * f}
}

func (p *dgParams) line(alpha float64) ev {
	if p.cNormal && alpha <= 0x1p100 {
		return evMul(evExact(alpha), p.c)
	}
	s := toSev(evExact(p.sigma))
	den := sevMul(s, s)
	den.x++
	return sevDiv(sevMul(toSev(evExact(alpha)), toSev(evMul(evExact(p.d), evExact(p.d)))), den).float()
}

func (p *dgParams) at(alpha float64) float64 {
	switch {
	case p.d == 0 || alpha == 0:
		return 0
	case math.IsInf(alpha, 1):
		return math.Inf(1)
	}
	M := p.line(alpha)
	if !M.ok() {
		return math.Inf(1)
	}
	if alpha >= 0x1p50 {
		return M.up()
	}
	f := dgDist(alpha, p.d)
	if f.v == 0 {
		return M.up() // exact 0: g = 0 only when both parts cancel exactly
	}
	var L ev
	if p.dual {
		L = p.logRatioDual(f)
	} else {
		L = p.logRatioDirect(f)
	}
	am1 := evSub(evExact(alpha), evExact(1))
	if alpha > 0.5 && alpha < 2 {
		am1 = evExact(alpha - 1) // Sterbenz: exact
	}
	return evAdd(M, evDiv(L, am1)).up()
}

// logRatioDirect is -b + log1p(R) (see DiscreteGaussian), sigma <= 1/2.
// With t = x f/sigma^2 and em = expm1(t), a term of R is
// exp(-x^2/(2 sigma^2)) em^2/(1+em): one expm1 per term, the Gaussian
// factors formed once per curve. Where t > 600 (sigma far below 0.1) em
// would overflow and the exponents are combined first instead.
func (p *dgParams) logRatioDirect(f ev) ev {
	b := evMul(evMul(f, f), p.inv2)
	R := evExact(0)
	for x := 1; x <= p.nx+1; x++ {
		xf := float64(x)
		t := evMul(evMul(evExact(xf), f), p.invS)
		var term ev
		if t.v <= 600 {
			em := evExpm1(t)
			term = evDiv(evMul(p.g[x-1], evSq(em)), evAdd(evExact(1), em))
		} else {
			ex := evMul(evSub(evExact(xf*xf), evMul2(evMul(evExact(xf), f))), p.inv2)
			term = evMul(evExp(evNeg(ex)), evSq(evExpm1(evNeg(t))))
		}
		R = evAdd(R, term)
	}
	// Left out: x >= nx+2, exponent (x^2-2xf)/s2 >= (x^2-x)/s2, and
	// expm1^2 <= 1; decaying by e^-2x/s2 per step: twice the first.
	xn := float64(p.nx + 2)
	R.e += 2 * math.Exp(-(xn*xn-xn)/p.s2.v)
	R = evDiv(R, p.s0)
	return evSub(evLog1p(R), b)
}

func evSq(x ev) ev { return evMul(x, x) }

// logRatioDual is log1p(-r) (see DiscreteGaussian), sigma > 1/2.
func (p *dgParams) logRatioDual(f ev) ev {
	N := evExact(0)
	for k := 1; k <= p.nq; k++ {
		kf := evMul(evExact(float64(k)), f)
		t := evSub(kf, evExact(math.Round(kf.v))) // |t| <= 1/2
		t = ev{math.Abs(t.v), t.e}
		s := sinPiEv(t)
		N = evAdd(N, evMul(p.q[k-1], evSq(s)))
	}
	// Tail: sin^2(pi k f) <= pi^2 k^2 f^2.
	N.e += 10 * f.v * f.v * p.tailQ
	N = ev{4 * N.v, 4 * N.e}
	r := evDiv(N, p.den)
	return evLog1p(evNeg(r))
}

// sinPiEv returns sin(pi t) for t in [0, 1/2] (with its bound on t): x =
// pi t <= pi/2, sin x = x P(x^2) with P the Taylor polynomial to
// x^24/25! (remainder below x^26/27! < 1.9e-23 of P >= 2/pi, times x).
// Horner in plain float64: 13 steps, each rounding adds at most u times the
// sum of the absolute terms, sum |c_i| x^(2i) = sinh(x)/x <= 1.47 <= 2.3 P,
// so P's error is at most 2 * 13 * 2.3 u P < 64 u P; the error of x
// propagates with |d sin/dx| <= 1.
func sinPiEv(t ev) ev {
	x := evMul(piEv, t)
	x2 := x.v * x.v
	s := 0.0
	for n := 12; n >= 0; n-- {
		c := invFact[2*n+1]
		if n%2 == 1 {
			c = -c
		}
		s = s*x2 + c
	}
	v := s * x.v
	return ev{v, (64*unit+3e-23)*math.Abs(v) + 2*x.e + unit*math.Abs(v)}
}
