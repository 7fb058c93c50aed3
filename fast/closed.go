package fast

import (
	"fmt"
	"math"
)

// closedRel is the relative error bound (and rounding-up margin) of the
// closed forms below: each is a handful of correctly rounded operations
// arranged so that no step cancels by more than a factor of ~10.
const closedRel = 64 * unit

// em returns expm1(y) - y without cancellation.
func em(y float64) float64 {
	if math.Abs(y) < 0.5 {
		// y^2/2! + y^3/3! + ...; |y| < 0.5 -> 18 terms reach 1e-20 relative
		s, t := 0.0, y*y/2
		for k := 3; k < 24 && math.Abs(t) > 1e-20*math.Abs(s); k++ {
			s += t
			t *= y / float64(k)
		}
		return s + t
	}
	return math.Expm1(y) - y
}

// log1pmx returns log1p(x) - x without cancellation.
func log1pmx(x float64) float64 {
	if math.Abs(x) < 0.25 {
		// log1p(x) = 2 atanh(y), y = x/(2+x): log1p(x) - x = -x^2/(2+x) + 2(y^3/3 + y^5/5 + ...)
		y := x / (2 + x)
		y2 := y * y
		s, t := 0.0, y*y2
		for k := 3; k < 60 && math.Abs(t) > 1e-20*math.Abs(x*x); k += 2 {
			s += t / float64(k)
			t *= y2
		}
		return -x*x/(2+x) + 2*s
	}
	return math.Log1p(x) - x
}

func checkAlpha(fn string, alpha, min float64) error {
	if math.IsNaN(alpha) || alpha < min {
		return inputErr(fn, "alpha", alpha, fmt.Sprintf("must be >= %v (or +Inf)", min))
	}
	return nil
}

// Gaussian returns the RDP of the Gaussian mechanism with l2-sensitivity 1
// and noise multiplier sigma: D_alpha(N(0,sigma^2) || N(1,sigma^2)) =
// alpha/(2 sigma^2) (Mironov 2017, Prop 7).
//
// Special cases are:
//
//	Gaussian(sigma, alpha=0) = 0
//	Gaussian(sigma, alpha=+Inf) = +Inf
//	Gaussian(sigma, alpha) = error for sigma <= 0, sigma = +Inf, alpha < 0 or NaN
//
// Accuracy: rounded up, at most 3 ulps above the exact value.
func Gaussian(sigma, alpha float64) (float64, error) {
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 1) {
		return 0, inputErr("Gaussian", "sigma", sigma, "must be finite and > 0")
	}
	if err := checkAlpha("Gaussian", alpha, 0); err != nil {
		return 0, err
	}
	if alpha == 0 {
		return 0, nil
	}
	return gaussianRDP(sigma, alpha), nil
}

// GaussianDivergence returns D_alpha(N(m1, s1^2) || N(m2, s2^2)):
//
//	log(s2/s1) + log(s2^2/sa^2)/(2(alpha-1)) + alpha (m1-m2)^2/(2 sa^2),  sa^2 = alpha s2^2 + (1-alpha) s1^2
//
// (Gil, Alajaji, Linder 2013), evaluated as
// (log1p((1-a)r)/(1-a) - log1p(r))/2 with r = (s1^2-s2^2)/s2^2 through
// log1p(x)-x, which does not cancel when s1 is close to s2.
//
// Special cases are:
//
//	GaussianDivergence(m1, s1, m2, s2, alpha=0) = 0
//	GaussianDivergence(m1, s1, m2, s2, alpha=1) = KL = log(s2/s1) + (s1^2 + (m1-m2)^2)/(2 s2^2) - 1/2
//	GaussianDivergence(m1, s1, m2, s2, alpha>1) = +Inf where sa^2 <= 0
//	GaussianDivergence(m1, s, m2, s, alpha=+Inf) = +Inf for m1 != m2, 0 for m1 == m2
//	GaussianDivergence(m1, s1, m2, s2, alpha=+Inf) = +Inf for s1 > s2, log(s2/s1) + (m1-m2)^2/(2(s2^2-s1^2)) for s1 < s2
//	GaussianDivergence(...) = error for NaN or infinite means, s1 or s2 <= 0 or +Inf, alpha < 0 or NaN
//
// Accuracy: rounded up by 64 ulps; relative error below 1e-14 (the
// terms are non-negative for alpha >= 1 after the rewriting).
func GaussianDivergence(m1, s1, m2, s2, alpha float64) (float64, error) {
	const fn = "GaussianDivergence"
	for _, v := range []struct {
		n string
		x float64
	}{{"m1", m1}, {"m2", m2}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return 0, inputErr(fn, v.n, v.x, "must be finite")
		}
	}
	for _, v := range []struct {
		n string
		x float64
	}{{"s1", s1}, {"s2", s2}} {
		if math.IsNaN(v.x) || v.x <= 0 || math.IsInf(v.x, 1) {
			return 0, inputErr(fn, v.n, v.x, "must be finite and > 0")
		}
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	if alpha == 0 {
		return 0, nil
	}
	dm := m1 - m2
	dm2 := dm * dm
	if math.IsInf(alpha, 1) {
		switch {
		case s1 > s2:
			return math.Inf(1), nil
		case s1 == s2:
			if dm == 0 {
				return 0, nil
			}
			return math.Inf(1), nil
		}
		d2 := (s2 - s1) * (s2 + s1)
		return roundUp(math.Log(s2/s1)+dm2/(2*d2), closedRel), nil
	}
	r := (s1 - s2) * (s1 + s2) / (s2 * s2)
	if alpha == 1 {
		// KL = -log1p(r)/2 + r/2 + dm^2/(2 s2^2) = -log1pmx(r)/2 + dm^2/(2 s2^2)
		return roundUp(-log1pmx(r)/2+dm2/(2*s2*s2), closedRel), nil
	}
	// sa^2 = s2^2 (1 + (1-a) r)
	x := (1 - alpha) * r
	if 1+x <= 0 || x <= -1 {
		return math.Inf(1), nil
	}
	sa2 := s2 * s2 * (1 + x)
	// (log1p(x)/(1-a) - log1p(r))/2 = (log1pmx(x)/(1-a) - log1pmx(r))/2
	v := (log1pmx(x)/(1-alpha) - log1pmx(r)) / 2
	v += alpha * dm2 / (2 * sa2)
	if v < 0 {
		v = 0
	}
	return roundUp(v, closedRel), nil
}

// Laplace returns the RDP of the Laplace mechanism with l1-sensitivity 1
// and scale b, D_alpha(Lap(0,b) || Lap(1,b)) (Mironov 2017, Prop 6):
//
//	1/(alpha-1) log( alpha/(2alpha-1) e^((alpha-1)/b) + (alpha-1)/(2alpha-1) e^(-alpha/b) )
//
// evaluated as log1p((alpha em((alpha-1)/b) + (alpha-1) em(-alpha/b))/(2alpha-1))/(alpha-1)
// with em(y) = expm1(y)-y >= 0, which keeps every digit for large b.
//
// Special cases are:
//
//	Laplace(b, alpha=1) = 1/b + e^(-1/b) - 1
//	Laplace(b, alpha=+Inf) = 1/b
//	Laplace(b, alpha) = error for b <= 0, b = +Inf, alpha < 1 or NaN
//
// Accuracy: rounded up by 64 ulps; relative error below 1e-14.
func Laplace(b, alpha float64) (float64, error) {
	if math.IsNaN(b) || b <= 0 || math.IsInf(b, 1) {
		return 0, inputErr("Laplace", "b", b, "must be finite and > 0")
	}
	if err := checkAlpha("Laplace", alpha, 1); err != nil {
		return 0, err
	}
	x := 1 / b
	switch {
	case math.IsInf(alpha, 1):
		return roundUp(x, closedRel), nil
	case alpha == 1:
		return roundUp(em(-x), closedRel), nil // 1/b + e^(-1/b) - 1
	}
	am1 := alpha - 1
	if am1*x > 30 {
		// log( e^((a-1)x) (a + (a-1) e^(-(2a-1)x)) / (2a-1) )
		v := am1*x + math.Log((alpha+am1*math.Exp(-(2*alpha-1)*x))/(2*alpha-1))
		return roundUp(v/am1, closedRel), nil
	}
	br := (alpha*em(am1*x) + am1*em(-alpha*x)) / (2*alpha - 1)
	return roundUp(math.Log1p(br)/am1, closedRel), nil
}

// RandomizedResponse returns the RDP of binary randomized response that
// reports the true bit with probability p:
//
//	1/(alpha-1) log( p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha) )
//
// (Mironov 2017, Prop 5), evaluated with r = log(p/(1-p)) as
// log1p(p em((alpha-1)r) + (1-p) em(-(alpha-1)r) + (2p-1)(alpha-1)r)/(alpha-1),
// a sum of non-negative terms for p >= 1/2 (p < 1/2 is mapped to 1-p).
//
// Special cases are:
//
//	RandomizedResponse(p=1/2, alpha) = 0
//	RandomizedResponse(p=0 or 1, alpha) = +Inf
//	RandomizedResponse(p, alpha=1) = (2p-1) log(p/(1-p))
//	RandomizedResponse(p, alpha=+Inf) = |log(p/(1-p))|
//	RandomizedResponse(p, alpha) = error for p outside [0,1] or NaN, alpha < 1 or NaN
//
// Accuracy: rounded up by 64 ulps; relative error below 1e-14.
func RandomizedResponse(p, alpha float64) (float64, error) {
	if math.IsNaN(p) || p < 0 || p > 1 {
		return 0, inputErr("RandomizedResponse", "p", p, "must be in [0, 1]")
	}
	if err := checkAlpha("RandomizedResponse", alpha, 1); err != nil {
		return 0, err
	}
	if p < 0.5 {
		p = 1 - p // exact for p in [1/4, 1/2); otherwise the RR of the rounded 1-p
	}
	if p == 0.5 {
		return 0, nil
	}
	if p == 1 {
		return math.Inf(1), nil
	}
	omp := 1 - p // exact for p >= 1/2
	d := 2*p - 1 // exact
	r := math.Log1p(d / omp)
	switch {
	case math.IsInf(alpha, 1):
		return roundUp(r, closedRel), nil
	case alpha == 1:
		return roundUp(d*r, closedRel), nil
	}
	am1 := alpha - 1
	y := am1 * r
	if y > 30 {
		// log(p e^y + (1-p) e^-y) = y + log(p + (1-p) e^(-2y))
		return roundUp((y+math.Log(p+omp*math.Exp(-2*y)))/am1, closedRel), nil
	}
	s := p*em(y) + omp*em(-y) + d*y
	return roundUp(math.Log1p(s)/am1, closedRel), nil
}

// Divergence returns the Rényi divergence D_alpha(P || Q) of two discrete
// distributions given as probability vectors, for alpha in [0, +Inf]:
//
//	alpha in (0,1) and (1,inf): 1/(alpha-1) log sum_i p_i^alpha q_i^(1-alpha)
//	alpha = 0:   -log sum_{i: p_i > 0} q_i
//	alpha = 1:   sum_i p_i log(p_i/q_i)   (Kullback-Leibler)
//	alpha = Inf: log max_{i: p_i > 0} p_i/q_i
//
// Zeros follow the definitions: terms with p_i = 0 vanish; for alpha >= 1 a
// p_i > 0 with q_i = 0 gives +Inf; for alpha < 1 such terms vanish, and
// disjoint supports give +Inf. The entries are taken as given (no
// renormalisation); each vector must have non-negative finite entries whose
// sum is within len*2^-52 of 1.
//
// Special cases are:
//
//	Divergence(P, P, alpha) = 0
//	Divergence(P, Q, alpha) = error for empty or mismatched vectors, negative,
//	    NaN or Inf entries, sums away from 1, alpha < 0 or NaN
//
// Accuracy: the sum is formed as sum_i q_i h(p_i/q_i - 1) plus the
// compensated defect alpha(sum p - 1) + (1-alpha)(sum q - 1), with
// h(u) = (1+u)^alpha - 1 - alpha u evaluated as in SGM, so P close to Q keeps
// its digits; relative error below about 1e-13 (len(P) u + 128 u), rounded up
// by that bound. A result that would be negative through rounding is 0.
func Divergence(p, q []float64, alpha float64) (float64, error) {
	const fn = "Divergence"
	if len(p) == 0 || len(p) != len(q) {
		return 0, &InputError{Func: fn, Arg: "p, q", Value: math.NaN(),
			Msg: fmt.Sprintf("must be non-empty and of equal length (have %d and %d)", len(p), len(q))}
	}
	if err := checkAlpha(fn, alpha, 0); err != nil {
		return 0, err
	}
	for _, v := range []struct {
		n string
		x []float64
	}{{"p", p}, {"q", q}} {
		var s, c float64
		for i, x := range v.x {
			if math.IsNaN(x) || x < 0 || math.IsInf(x, 0) {
				return 0, inputErr(fn, fmt.Sprintf("%s[%d]", v.n, i), x, "must be finite and >= 0")
			}
			s, c = twoSumAcc(s, c, x)
		}
		if math.Abs((s-1)+c) > float64(len(v.x))*0x1p-52 {
			return 0, inputErr(fn, v.n, s+c, "entries must sum to 1")
		}
	}
	n := float64(len(p))
	switch {
	case alpha == 0:
		var s, c float64
		for i := range p {
			if p[i] > 0 {
				s, c = twoSumAcc(s, c, q[i])
			}
		}
		if s+c == 0 {
			return math.Inf(1), nil
		}
		return roundUp(math.Max(0, -math.Log1p((s-1)+c)), (n+8)*unit), nil
	case math.IsInf(alpha, 1):
		m := 0.0
		for i := range p {
			if p[i] > 0 {
				if q[i] == 0 {
					return math.Inf(1), nil
				}
				m = math.Max(m, p[i]/q[i])
			}
		}
		return roundUp(math.Max(0, math.Log(m)), 4*unit), nil
	}
	// T = sum_i q_i h(u_i) + defect, I = 1 + T.
	var sp, cp, sq, cq, T float64
	supp := false
	for i := range p {
		pi, qi := p[i], q[i]
		if pi == 0 {
			if alpha > 1 || qi == 0 {
				continue
			}
			// (1+u)^a = 0 at u = -1: h(-1) = a - 1 for a < 1
			sq, cq = twoSumAcc(sq, cq, qi)
			T += qi * (alpha - 1)
			continue
		}
		if qi == 0 {
			if alpha >= 1 {
				return math.Inf(1), nil
			}
			sp, cp = twoSumAcc(sp, cp, pi)
			T += 0 // p^a q^(1-a) = 0; the defect below accounts for -a p
			T -= alpha * pi
			continue
		}
		supp = true
		sp, cp = twoSumAcc(sp, cp, pi)
		sq, cq = twoSumAcc(sq, cq, qi)
		if alpha == 1 {
			continue
		}
		u := (pi - qi) / qi
		T += qi * hAlpha(alpha, u)
	}
	if !supp {
		return math.Inf(1), nil
	}
	dp := (sp - 1) + cp
	dq := (sq - 1) + cq
	if alpha == 1 {
		// KL = sum p log(p/q) = sum q [(1+u)log(1+u) - u] + (sum p - sum q)
		var kl float64
		for i := range p {
			if p[i] == 0 {
				continue
			}
			u := (p[i] - q[i]) / q[i]
			kl += q[i] * xlogxm(u)
		}
		kl += dp - dq
		return roundUp(math.Max(0, kl), (n+128)*unit), nil
	}
	T += alpha*dp + (1-alpha)*dq
	v := math.Log1p(T) / (alpha - 1)
	if v < 0 || math.IsNaN(v) {
		v = 0
	}
	return roundUp(v, (n+128)*unit), nil
}

// xlogxm returns (1+u) log1p(u) - u >= 0 without cancellation.
func xlogxm(u float64) float64 {
	if math.Abs(u) < 0.25 {
		// = u^2/2 - u^3/6 + u^4/12 - ... = sum_{k>=2} (-1)^k u^k/(k(k-1))
		s, t := 0.0, u*u
		for k := 2; k < 60 && math.Abs(t) > 1e-20*u*u; k++ {
			s += t / float64(k*(k-1))
			t *= -u
		}
		return s
	}
	return (1+u)*math.Log1p(u) - u
}

// hAlpha returns h(u) = (1+u)^a - 1 - a u for u > -1, without cancellation
// worse than ~25x (series for a|u| <= 0.1, else the beta form).
func hAlpha(a, u float64) float64 {
	if math.Abs(u)*math.Max(a, 1) <= tau && math.Abs(u) <= tau {
		var v, t float64
		c := a * (a - 1) / 2
		t = c * u * u
		for j := 2; j < 60; j++ {
			v += t
			if math.Abs(t) <= 1e-20*math.Abs(v) {
				break
			}
			c *= (a - float64(j)) / float64(j+1)
			t = c * math.Pow(u, float64(j+1))
		}
		return v
	}
	t := math.Log1p(u)
	b := a - 1
	if b*t > 700 {
		return math.Exp(a * t)
	}
	return (1+u)*math.Expm1(b*t) - b*u
}

// twoSumAcc adds x to the compensated sum (s, c) (Neumaier).
func twoSumAcc(s, c, x float64) (float64, float64) {
	t := s + x
	if math.Abs(s) >= math.Abs(x) {
		c += (s - t) + x
	} else {
		c += (x - t) + s
	}
	return t, c
}
