package oracles

import (
	"fmt"
	"math"
	"math/big"
)

// maxQuadAlpha bounds the order of GaussianQuad and LaplaceQuad: beyond it
// the log-integrand alpha log p + (1-alpha) log q cancels too much.
const maxQuadAlpha = 1e6

// GaussianQuad returns D_alpha(N(m1, s1^2) || N(m2, s2^2)) by DE quadrature
// of M = int p^alpha q^(1-alpha) dz (D = log M / (alpha-1)), or of
// KL = int p log(p/q) dz for alpha = 1. alpha must be finite and > 0.
// When alpha s2^2 + (1-alpha) s1^2 <= 0 the integrand does not decay and
// the result is +Inf (no quadrature is done).
//
// The integrand exp(alpha log p + (1-alpha) log q) is evaluated from the
// two log-densities at each node; its peak c and width v (of the Gaussian
// it is) only place the pieces: [c - R sqrt v, c + R sqrt v] cut into
// pieces of length <= 6 sqrt v, R = sqrt(2 (tb+40) ln 2), so the cut tails
// are below 2^-(tb+40) relative.
func GaussianQuad(m1, s1, m2, s2, alpha float64, prec uint) (*big.Float, error) {
	const fn = "GaussianQuad"
	if err := checkGaussArgs(fn, m1, s1, m2, s2); err != nil {
		return nil, err
	}
	if err := checkAlpha(fn, alpha, false); err != nil {
		return nil, err
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if alpha > maxQuadAlpha {
		return nil, fmt.Errorf("oracles.%s: alpha = %v > %g: %w", fn, alpha, maxQuadAlpha, ErrUnsupported)
	}
	if alpha != 1 && gaussSa2(s1, s2, alpha, 256).Sign() <= 0 {
		return newF(prec).SetInf(false), nil
	}
	q := func(prec, tb uint) (*big.Float, error) { return gaussQuad(m1, s1, m2, s2, alpha, prec, tb) }
	r, err := withLogLoss(q, alpha, prec)
	if err != nil {
		return nil, fmt.Errorf("oracles.%s(%v, %v, %v, %v, alpha=%v): %w", fn, m1, s1, m2, s2, alpha, err)
	}
	return r, nil
}

// withLogLoss runs q (which returns D = log M/(alpha-1)) at the target
// TargetBits(prec); the relative error of M becomes an absolute error of
// log M, so when |log M| < 1 it reruns q with the target raised by
// log2(1/|log M|) bits.
func withLogLoss(q func(prec, tb uint) (*big.Float, error), alpha float64, prec uint) (*big.Float, error) {
	tb := TargetBits(prec)
	r, err := q(prec, tb)
	if err != nil || alpha == 1 || r.Sign() == 0 {
		return r, err
	}
	lm := logOf(r) + math.Log(math.Abs(alpha-1)) // log |log M|
	if lm < 0 {
		extra := uint(-lm/math.Ln2) + 2
		r, err = q(prec+extra, tb+extra)
		if err != nil {
			return nil, err
		}
	}
	return r.SetPrec(prec), nil
}

func gaussQuad(m1, s1, m2, s2, alpha float64, prec, tb uint) (*big.Float, error) {
	wp := prec + 40
	F := func(v float64) *big.Float { return fl(v, wp) }
	// log densities: -(z-m)^2/(2 s^2) - log(s sqrt(2 pi))
	twoPi := newF(wp).Mul(pi(wp), F(2))
	lsq := newF(wp).Quo(logBig(twoPi, wp), F(2))
	norm := func(s float64) *big.Float { l := logBig(F(s), wp); return l.Add(l, lsq) }
	inv2 := func(s float64) *big.Float { t := newF(wp).Mul(F(s), F(s)); t.Mul(t, F(2)); return t.Quo(F(1), t) }
	c1, c2 := norm(s1), norm(s2)
	i1, i2 := inv2(s1), inv2(s2)
	M1, M2 := F(m1), F(m2)
	logDens := func(z, m, inv, c *big.Float) *big.Float {
		d := newF(wp).Sub(z, m)
		d.Mul(d, d)
		d.Mul(d, inv)
		d.Neg(d)
		return d.Sub(d, c)
	}
	A := F(alpha)
	oma := newF(wp).Sub(F(1), A)
	// center and width (float64, for placing pieces only)
	var c, sd float64
	if alpha == 1 {
		c, sd = m1, s1
	} else {
		k := alpha/(s1*s1) + (1-alpha)/(s2*s2)
		c = (alpha*m1/(s1*s1) + (1-alpha)*m2/(s2*s2)) / k
		sd = 1 / math.Sqrt(k)
	}
	if !finite(c) || !finite(sd) || !(sd > 0) || !finite(c+40*sd) || !finite(c-40*sd) {
		return nil, fmt.Errorf("integrand peak at %v, width %v: %w", c, sd, ErrUnsupported)
	}
	logInt := func(z *big.Float) *big.Float { // log of the integrand (alpha != 1)
		a := logDens(z, M1, i1, c1)
		a.Mul(a, A)
		b := logDens(z, M2, i2, c2)
		b.Mul(b, oma)
		return a.Add(a, b)
	}
	Cz := F(c)
	var scale *big.Float
	if alpha == 1 {
		scale = logDens(Cz, M1, i1, c1)
	} else {
		scale = logInt(Cz)
	}
	f := func(z *big.Float, _ float64) *big.Float {
		if alpha == 1 {
			lp := logDens(z, M1, i1, c1)
			lq := logDens(z, M2, i2, c2)
			d := newF(wp).Sub(lp, lq)
			e := expBig(lp.Sub(lp, scale), wp)
			return e.Mul(e, d)
		}
		l := logInt(z)
		return expBig(l.Sub(l, scale), wp)
	}
	R := math.Sqrt(2 * float64(tb+40) * math.Ln2)
	n := int(math.Ceil(R / 6))
	var pieces []*dePiece
	for side := -1; side <= 1; side += 2 {
		for i := 0; i < n; i++ {
			a := c + float64(side)*R*sd*float64(i)/float64(n)
			b := c + float64(side)*R*sd*float64(i+1)/float64(n)
			if side < 0 {
				a, b = b, a
			}
			pieces = append(pieces, newTanhSinhPiece(F(a), F(b), wp))
		}
	}
	sum, _, err := deIntegrate(pieces, f, tb)
	if err != nil {
		return nil, err
	}
	if alpha == 1 {
		e := expBig(scale, wp)
		return e.Mul(e, sum), nil
	}
	lm := logBig(sum, wp)
	lm.Add(lm, scale)
	return lm.Quo(lm, newF(wp).Sub(A, F(1))), nil
}

// LaplaceQuad returns D_alpha(Lap(0, b) || Lap(1, b)) by DE quadrature of
// M = int p^alpha q^(1-alpha) dz (D = log M/(alpha-1)), or of
// KL = int p log(p/q) for alpha = 1; alpha finite > 0, b finite > 0.
// The kinks of |z| and |z-1| are the piece ends: exp-sinh on (-inf, 0]
// and [1, +inf) (scale b), tanh-sinh on [0, 1].
func LaplaceQuad(b, alpha float64, prec uint) (*big.Float, error) {
	const fn = "LaplaceQuad"
	if !finite(b) || b <= 0 {
		return nil, inErr(fn, "b", b, "must be finite and > 0")
	}
	if err := checkAlpha(fn, alpha, false); err != nil {
		return nil, err
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if alpha > maxQuadAlpha || alpha/b > 1e9 || 1/b > 1e9 {
		return nil, fmt.Errorf("oracles.%s(b=%v, alpha=%v): exponents too large: %w", fn, b, alpha, ErrUnsupported)
	}
	q := func(prec, tb uint) (*big.Float, error) { return laplaceQuad(b, alpha, prec, tb) }
	r, err := withLogLoss(q, alpha, prec)
	if err != nil {
		return nil, fmt.Errorf("oracles.%s(b=%v, alpha=%v): %w", fn, b, alpha, err)
	}
	return r, nil
}

func laplaceQuad(b, alpha float64, prec, tb uint) (*big.Float, error) {
	wp := prec + 40
	F := func(v float64) *big.Float { return fl(v, wp) }
	B := F(b)
	l2b := logBig(newF(wp).Mul(B, F(2)), wp)
	logDens := func(z *big.Float, mu int64) *big.Float { // -|z-mu|/b - log(2b)
		d := newF(wp).Sub(z, fint(mu, wp))
		d.Abs(d)
		d.Quo(d, B)
		d.Neg(d)
		return d.Sub(d, l2b)
	}
	A := F(alpha)
	oma := newF(wp).Sub(F(1), A)
	logInt := func(z *big.Float) *big.Float {
		p := logDens(z, 0)
		p.Mul(p, A)
		q := logDens(z, 1)
		q.Mul(q, oma)
		return p.Add(p, q)
	}
	var scale *big.Float
	if alpha == 1 {
		scale = logDens(F(0), 0)
	} else {
		s0, s1 := logInt(F(0)), logInt(F(1))
		scale = s0
		if s1.Cmp(s0) > 0 {
			scale = s1
		}
	}
	f := func(z *big.Float, _ float64) *big.Float {
		if alpha == 1 {
			lp := logDens(z, 0)
			d := newF(wp).Sub(lp, logDens(z, 1))
			e := expBig(lp.Sub(lp, scale), wp)
			return e.Mul(e, d)
		}
		l := logInt(z)
		return expBig(l.Sub(l, scale), wp)
	}
	pieces := []*dePiece{
		newExpSinhPiece(F(0), B, true, wp),
		newTanhSinhPiece(F(0), F(1), wp),
		newExpSinhPiece(F(1), B, false, wp),
	}
	sum, _, err := deIntegrate(pieces, f, tb)
	if err != nil {
		return nil, err
	}
	if alpha == 1 {
		e := expBig(scale, wp)
		return e.Mul(e, sum), nil
	}
	lm := logBig(sum, wp)
	lm.Add(lm, scale)
	return lm.Quo(lm, newF(wp).Sub(A, F(1))), nil
}
