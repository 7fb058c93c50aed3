package oracles

// High-precision closed forms, evaluated with github.com/ALTree/bigfloat
// (Exp, Log, Pow), not with this package's own exp/log (bigmath.go), so
// that the quadratures (which use bigmath.go) are checked against an
// independent implementation of the elementary functions too.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// stable evaluates f at increasing working precisions until two successive
// values agree to prec+8 bits, and returns the last one rounded to prec.
// This absorbs any cancellation in a closed form (e.g. log(s2/s1) against
// log(s2^2/s_a^2) when s1 ~ s2) without analysing it case by case.
func stable(fn string, prec uint, f func(wp uint) *big.Float) (*big.Float, error) {
	wp := prec + 64
	prev := f(wp)
	for i := 0; i < 6; i++ {
		wp = 2*wp - prec/2
		cur := f(wp)
		if cur.IsInf() || prev.IsInf() || cur.Sign() == 0 || prev.Sign() == 0 {
			if cur.Cmp(prev) == 0 {
				return cur.SetPrec(prec), nil
			}
		} else if relDiffLog2(cur, prev) <= -float64(prec+8) {
			return cur.SetPrec(prec), nil
		}
		prev = cur
	}
	return nil, fmt.Errorf("oracles.%s: closed form did not stabilise up to %d bits: %w", fn, wp, ErrUnsupported)
}

// relDiffLog2 returns log2(|a-b|/|b|) (-Inf if equal).
func relDiffLog2(a, b *big.Float) float64 {
	d := subTo(newF(64), a, b)
	if d.Sign() == 0 {
		return math.Inf(-1)
	}
	return (logOf(d) - logOf(b)) / math.Ln2
}

// bexpSmall returns exp(x) for x <= 0 that is added to a quantity of order
// 1: below 2^-(prec+64) it is 0 (bigfloat.Exp would recurse ~log2|x| times
// at growing precision for huge |x|).
func bexpSmall(x *big.Float) *big.Float {
	xf, _ := x.Float64()
	if xf < -float64(x.Prec()+64)*math.Ln2 {
		return newF(x.Prec())
	}
	return bigfloat.Exp(x)
}
func blog(x *big.Float) *big.Float { return bigfloat.Log(x) }

func checkAlpha(fn string, alpha float64, allowInf bool) error {
	if math.IsNaN(alpha) || alpha <= 0 || math.IsInf(alpha, -1) || (math.IsInf(alpha, 1) && !allowInf) {
		if allowInf {
			return inErr(fn, "alpha", alpha, "must be > 0 (+Inf allowed)")
		}
		return inErr(fn, "alpha", alpha, "must be finite and > 0")
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// GaussianClosed returns D_alpha(N(m1, s1^2) || N(m2, s2^2)) from the closed
// form (alpha > 0; alpha = 1 is KL; alpha = +Inf is log ess sup p/q):
//
//	D = log(s2/s1) + log(s2^2/s_a^2)/(2(alpha-1)) + alpha (m1-m2)^2/(2 s_a^2),
//	s_a^2 = alpha s2^2 + (1-alpha) s1^2,
//
// +Inf when s_a^2 <= 0;
// KL = log(s2/s1) + (s1^2 + (m1-m2)^2)/(2 s2^2) - 1/2;
// D_inf = log(s2/s1) + (m1-m2)^2/(2 (s2^2 - s1^2)) if s1 < s2, 0 if the two
// are equal, +Inf otherwise. Infinite values are returned as +Inf.
func GaussianClosed(m1, s1, m2, s2, alpha float64, prec uint) (*big.Float, error) {
	const fn = "GaussianClosed"
	if err := checkGaussArgs(fn, m1, s1, m2, s2); err != nil {
		return nil, err
	}
	if err := checkAlpha(fn, alpha, true); err != nil {
		return nil, err
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	inf := newF(prec).SetInf(false)
	if math.IsInf(alpha, 1) {
		switch {
		case s1 > s2:
			return inf, nil
		case s1 == s2:
			if m1 == m2 {
				return newF(prec), nil
			}
			return inf, nil
		}
	} else if alpha != 1 {
		// s_a^2 = alpha s2^2 + (1-alpha) s1^2, exactly (float64 inputs).
		sa := gaussSa2(s1, s2, alpha, 256)
		if sa.Sign() <= 0 {
			return inf, nil
		}
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		F := func(v float64) *big.Float { return fl(v, wp) }
		dm := newF(wp).Sub(F(m1), F(m2))
		dm2 := newF(wp).Mul(dm, dm)
		S1, S2 := F(s1), F(s2)
		s12 := newF(wp).Mul(S1, S1)
		s22 := newF(wp).Mul(S2, S2)
		lr := blog(newF(wp).Quo(S2, S1)) // log(s2/s1)
		switch {
		case math.IsInf(alpha, 1):
			den := newF(wp).Sub(s22, s12)
			den.Mul(den, F(2))
			return lr.Add(lr, dm2.Quo(dm2, den))
		case alpha == 1:
			t := newF(wp).Add(s12, dm2)
			t.Quo(t, newF(wp).Mul(s22, F(2)))
			t.Sub(t, F(0.5))
			return lr.Add(lr, t)
		}
		A := F(alpha)
		sa := gaussSa2(s1, s2, alpha, wp)
		am1 := newF(wp).Sub(A, F(1))
		t := blog(newF(wp).Quo(s22, sa))
		t.Quo(t, am1.Mul(am1, F(2)))
		u := newF(wp).Mul(A, dm2)
		u.Quo(u, newF(wp).Mul(sa, F(2)))
		lr.Add(lr, t)
		return lr.Add(lr, u)
	})
}

// gaussSa2 returns s_a^2 = alpha s2^2 + (1-alpha) s1^2 rounded to prec
// bits; it is formed exactly (big.Rat from the float64 inputs), so its
// sign, which decides finiteness, is exact.
func gaussSa2(s1, s2, alpha float64, prec uint) *big.Float {
	r := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	A := r(alpha)
	a := new(big.Rat).Mul(r(s2), r(s2))
	a.Mul(a, A)
	b := new(big.Rat).Mul(r(s1), r(s1))
	b.Mul(b, new(big.Rat).Sub(big.NewRat(1, 1), A))
	return newF(prec).SetRat(a.Add(a, b))
}

func checkGaussArgs(fn string, m1, s1, m2, s2 float64) error {
	if !finite(m1) {
		return inErr(fn, "m1", m1, "must be finite")
	}
	if !finite(m2) {
		return inErr(fn, "m2", m2, "must be finite")
	}
	if !finite(s1) || s1 <= 0 {
		return inErr(fn, "s1", s1, "must be finite and > 0")
	}
	if !finite(s2) || s2 <= 0 {
		return inErr(fn, "s2", s2, "must be finite and > 0")
	}
	return nil
}

// LaplaceClosed returns D_alpha(Lap(0, b) || Lap(1, b)) (Mironov 2017,
// Prop. 6 / Table II, extended to alpha in (0,1) by the same integral):
//
//	D = log( alpha/(2alpha-1) e^((alpha-1)/b) + (alpha-1)/(2alpha-1) e^(-alpha/b) ) / (alpha-1),
//
// alpha = 1: 1/b + e^(-1/b) - 1; alpha = +Inf: 1/b;
// alpha = 1/2 (the removable singularity): 1/b - 2 log(1 + 1/(2b)).
// It is evaluated with the larger exponential factored out,
// D = 1/b + log(alpha/(2alpha-1) + (alpha-1)/(2alpha-1) e^(-(2alpha-1)/b))/(alpha-1)
// for alpha > 1/2 (symmetrically for alpha < 1/2), so no exponential
// overflows for small b or large alpha.
func LaplaceClosed(b, alpha float64, prec uint) (*big.Float, error) {
	const fn = "LaplaceClosed"
	if !finite(b) || b <= 0 {
		return nil, inErr(fn, "b", b, "must be finite and > 0")
	}
	if err := checkAlpha(fn, alpha, true); err != nil {
		return nil, err
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if math.IsInf(alpha, 1) {
		return newF(prec).Quo(fint(1, prec+64), fl(b, prec+64)), nil
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		F := func(v float64) *big.Float { return fl(v, wp) }
		B := F(b)
		inv := newF(wp).Quo(F(1), B)
		switch alpha {
		case 1:
			e := bexpSmall(newF(wp).Neg(inv))
			e.Sub(e, F(1))
			return e.Add(e, inv)
		case 0.5:
			t := newF(wp).Quo(inv, F(2))
			t.Add(t, F(1))
			l := blog(t)
			l.Mul(l, F(2))
			return l.Sub(inv, l)
		}
		A := F(alpha)
		am1 := newF(wp).Sub(A, F(1))
		tam1 := newF(wp).Sub(newF(wp).Mul(A, F(2)), F(1)) // 2 alpha - 1
		// M = e^{(a-1)/b} [a + (a-1) e^{-(2a-1)/b}]/(2a-1)   (a > 1/2)
		//   = e^{-a/b} [a e^{(2a-1)/b} + (a-1)]/(2a-1)     (a < 1/2)
		e := newF(wp).Quo(tam1, B)
		if alpha < 0.5 {
			e = bexpSmall(e)
			e.Mul(e, A)
			e.Add(e, am1)
		} else {
			e = bexpSmall(e.Neg(e))
			e.Mul(e, am1)
			e.Add(e, A)
		}
		e.Quo(e, tam1)
		l := blog(e)
		l.Quo(l, am1)
		if alpha < 0.5 {
			t := newF(wp).Quo(A, B)
			return l.Sub(l, t.Quo(t, am1))
		}
		return l.Add(l, inv)
	})
}

// RandomizedResponseClosed returns D_alpha(P || Q) for P = (p, 1-p),
// Q = (1-p, p) (randomized response with truth probability p):
//
//	D = log( p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha) ) / (alpha-1),
//
// alpha = 1: (2p-1) log(p/(1-p)); alpha = +Inf: |log(p/(1-p))|;
// +Inf for p in {0, 1}, 0 for p = 1/2.
func RandomizedResponseClosed(p, alpha float64, prec uint) (*big.Float, error) {
	const fn = "RandomizedResponseClosed"
	if math.IsNaN(p) || p < 0 || p > 1 {
		return nil, inErr(fn, "p", p, "must be in [0, 1]")
	}
	if err := checkAlpha(fn, alpha, true); err != nil {
		return nil, err
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if p == 0 || p == 1 {
		return newF(prec).SetInf(false), nil
	}
	if p == 0.5 {
		return newF(prec), nil
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		F := func(v float64) *big.Float { return fl(v, wp) }
		P := F(p)
		Q := newF(wp).Sub(F(1), P) // exact at wp >= 64... rounded correctly otherwise
		lp, lq := blog(P), blog(Q)
		lr := newF(wp).Sub(lp, lq) // log(p/(1-p))
		switch {
		case math.IsInf(alpha, 1):
			return lr.Abs(lr)
		case alpha == 1:
			t := newF(wp).Sub(newF(wp).Mul(P, F(2)), F(1))
			return t.Mul(t, lr)
		}
		A := F(alpha)
		om := newF(wp).Sub(F(1), A)
		// p^a q^(1-a) = exp(a lp + (1-a) lq)
		x1 := newF(wp).Add(newF(wp).Mul(A, lp), newF(wp).Mul(om, lq))
		x2 := newF(wp).Add(newF(wp).Mul(A, lq), newF(wp).Mul(om, lp))
		if x1.Cmp(x2) < 0 {
			x1, x2 = x2, x1
		}
		// log(e^x1 + e^x2) = x1 + log(1 + e^(x2-x1)): no overflow
		s := bexpSmall(x2.Sub(x2, x1))
		s.Add(s, F(1))
		l := blog(s)
		l.Add(l, x1)
		return l.Quo(l, newF(wp).Sub(A, F(1)))
	})
}
