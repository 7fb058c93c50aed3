package oracles

// Float64 model of the SGM moment integrand, in log form.
//
// It is used (1) to find where the integrand is significant and to place
// the quadrature pieces, (2) to skip quadrature nodes whose contribution is
// negligible and to choose the working precision of each node, and (3) as
// the integrand of the float64 second opinion SGMQuadFloat64. It never
// decides the big.Float result by itself.
//
// Notation (see doc.go): phi = density of N(0, sigma^2),
// L(z) = exp(u), u = (2z-1)/(2 sigma^2), x = q (L-1), so 1+x = (1-q)+qL, and
//
//	I(beta) - 1 = J(beta) = int phi(z) B(x(z)) dz,
//	B(x) = (1+x)^beta - 1 - beta x.
//
// Subtracting beta x changes nothing (int phi (L-1) = 0) but makes the
// integrand O(x^2) and of one sign: B >= 0 for beta outside [0,1] and
// B <= 0 inside (convexity of (1+x)^beta), so there is no cancellation in
// the integral even when q is tiny.

import "math"

type sgmF64 struct {
	q, sigma, beta float64
	lq, l1q        float64 // log q, log(1-q)
	inv2s2         float64 // 1/(2 sigma^2)
	c0             float64 // log(sigma sqrt(2 pi))
	labsBeta       float64 // log|beta|
}

func newSGMF64(q, sigma, beta float64) *sgmF64 {
	return &sgmF64{
		q: q, sigma: sigma, beta: beta,
		lq:       log64(q),
		l1q:      math.Log1p(-q),
		inv2s2:   1 / (2 * sigma * sigma),
		c0:       log64(sigma) + 0.5*math.Log(2*math.Pi),
		labsBeta: log64(math.Abs(beta)),
	}
}

// l2f = log1p(x) - x without cancellation.
func l2f(x float64) float64 {
	if math.Abs(x) < 1e-4 {
		return x * x * (-0.5 + x*(1.0/3+x*(-0.25+x*0.2)))
	}
	return math.Log1p(x) - x
}

// e2f = expm1(y) - y without cancellation.
func e2f(y float64) float64 {
	if math.Abs(y) < 1e-4 {
		return y * y * (0.5 + y*(1.0/6+y*(1.0/24+y/120)))
	}
	return math.Expm1(y) - y
}

func logaddexp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// logAbsX returns log|x| and the sign of x = q expm1(u).
func (s *sgmF64) logAbsX(u float64) (float64, float64) {
	switch {
	case u > 0.5:
		return s.lq + u + math.Log1p(-math.Exp(-u)), 1
	case u < -0.5:
		return s.lq + math.Log1p(-math.Exp(u)), -1
	case u == 0:
		return math.Inf(-1), 0
	default:
		e := math.Expm1(u)
		return s.lq + log64(math.Abs(e)), math.Copysign(1, e)
	}
}

// logAbsH returns log|phi(z) B(x(z))| (-Inf where it vanishes).
func (s *sgmF64) logAbsH(z float64) float64 {
	return s.logAbsHU(z, (2*z-1)*s.inv2s2)
}

// logAbsHU is logAbsH with u = (2z-1)/(2 sigma^2) supplied by the caller
// (computed exactly: near z = 1/2 the float64 z loses u's relative
// accuracy, and h ~ u^2 there).
func (s *sgmF64) logAbsHU(z, u float64) float64 {
	lphi := -z*z*s.inv2s2 - s.c0
	lx, sx := s.logAbsX(u)
	if sx == 0 || math.IsInf(lx, -1) {
		return math.Inf(-1)
	}
	b := s.beta
	var logB float64
	if lx+s.labsBeta < -40 {
		// |beta x| < e^-40: B = C(beta,2) x^2 (1 + (beta-2) x/3 + ...),
		// in logs so that x^2 cannot underflow (q down to 1e-300).
		return lphi + log64(math.Abs(b*(b-1)/2)) + 2*lx
	}
	if lx <= math.Log(0.25) {
		x := sx * math.Exp(lx)
		l2 := l2f(x)
		y := b * (x + l2)
		if y > 700 {
			logB = y
		} else {
			logB = log64(math.Abs(e2f(y) + b*l2))
		}
	} else {
		l := logaddexp(s.l1q, s.lq+u)
		y := b * l
		lbx := s.labsBeta + lx
		sbx := sx * math.Copysign(1, b)
		var lQ, sQ float64
		if lbx < 700 {
			Q := 1 + sbx*math.Exp(lbx)
			lQ, sQ = log64(math.Abs(Q)), math.Copysign(1, Q)
		} else {
			lQ, sQ = lbx, sbx
		}
		M := math.Max(y, lQ)
		logB = M + log64(math.Abs(math.Exp(y-M)-sQ*math.Exp(lQ-M)))
	}
	return lphi + logB
}

// sign of B (and of the integrand): +1 for beta outside [0,1], -1 inside.
func sgmSign(beta float64) float64 {
	if beta > 0 && beta < 1 {
		return -1
	}
	return 1
}
