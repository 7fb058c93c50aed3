package puredp

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// The divergence of two distributions made of a few likelihood-ratio
// classes (each a weight under Q and a log ratio), the form every
// mechanism of this package takes.

// evClass is one likelihood-ratio class: weight w under Q, log ratio l.
type evClass struct{ w, l errfloat.Val }

// evExp1 is errfloat.Exp with one call of math.Exp (none at 0) where the
// argument's error is at most 2^-10: then exp(x.V + x.E) <= exp(x.V)
// (1 + x.E + x.E^2) <= 1.002 v (with v's 2 ulps), so the error is at most
// 1.002 v x.E plus v's own rounding (2 errfloat.TinyErr where v is subnormal).
func evExp1(x errfloat.Val) errfloat.Val {
	if !(x.E <= 0x1p-10) {
		return errfloat.Exp(x)
	}
	if x.V == 0 {
		return errfloat.Val{V: 1, E: 1.002 * x.E}
	}
	v := math.Exp(x.V)
	e := 1.002*v*x.E + errfloat.ExpErr*v
	if v < 0x1p-1022 {
		e += 2 * errfloat.TinyErr
	}
	return errfloat.Val{V: v, E: e}
}

// classPair is two likelihood-ratio classes and a third of weight rest and
// log ratio 0, whose weights and w e^l each sum to 1; newClassPair computes
// the order-free parts of div (the logs of the weights and em(l)) once, so
// that a curve reuses them.
type classPair struct {
	c0, c1       evClass
	rest         errfloat.Val
	lw0, lw1, lr errfloat.Val // log w0, log w1, log rest
	em0, em1     errfloat.Val // em(l0), em(l1)
	zero0, zero1 bool
	// near order 1: p = w e^l (the other distribution's weights), KL =
	// sum_i w_i phi(l_i) and max |l|
	p0, p1, kl errfloat.Val
	lmax       float64
}

func newClassPair(c0, c1 evClass, rest errfloat.Val) classPair {
	p := classPair{c0: c0, c1: c1, rest: rest, lw0: errfloat.Log(c0.w), lw1: errfloat.Log(c1.w)}
	if rest.V != 0 {
		p.lr = errfloat.Log(rest)
	}
	p.zero0 = c0.l.V == 0 && c0.l.E == 0
	p.zero1 = c1.l.V == 0 && c1.l.E == 0
	if !p.zero0 {
		p.em0 = errfloat.Em(c0.l)
	}
	if !p.zero1 {
		p.em1 = errfloat.Em(c1.l)
	}
	// p = e^(log w + l): w e^l may overflow where p does not (noise near
	// 2^-1022, l near 709)
	p.p0, p.p1 = errfloat.Exp(errfloat.Add(p.lw0, c0.l)), errfloat.Exp(errfloat.Add(p.lw1, c1.l))
	p.kl = errfloat.Add(wPhi(c0.w, p.p0, c0.l), wPhi(c1.w, p.p1, c1.l))
	p.lmax = math.Max(math.Abs(c0.l.V)+c0.l.E, math.Abs(c1.l.V)+c1.l.E)
	return p
}

// wPhi returns w phi(l), phi(l) = 1 + e^l (l - 1) = l expm1(l) - em(l) >=
// 0, the term of KL(P||Q) = sum_i q_i phi(l_i) (w = q, p = w e^l, l = log
// p/q): for |l| >= 1 as w + p (l - 1) (p (l-1) >= -2w/e, so at most 2 bits
// cancel, and no e^l overflows), below as w (l expm1(l) - em(l)) (both
// terms near l^2 and l^2/2: 1 bit).
func wPhi(w, p, l errfloat.Val) errfloat.Val {
	if l.V == 0 && l.E == 0 {
		return errfloat.Val{}
	}
	one := errfloat.Exact(1)
	if math.Abs(l.V) >= 1 {
		return errfloat.Add(w, errfloat.Mul(p, errfloat.Sub(l, one)))
	}
	return errfloat.Mul(w, errfloat.Sub(errfloat.Mul(l, errfloat.Expm1(l)), errfloat.Em(l)))
}

// div returns an upper bound on 1/(alpha-1) log(rest + sum_i w_i
// e^(alpha l_i)) over the pair's classes, finite alpha > 1. Near order 1
// ((alpha-1) max |l| <= 0.5) it sums a series of non-negative terms (see
// below); else, where every term w e^(alpha l) is below e^0.5, it sums the
// non-negative w (em(alpha l) - alpha em(l)) (em(y) = expm1(y) - y) and
// takes log1p; else it sums in the log domain, where log S >= 0.5 and
// nothing cancels.
func (p *classPair) div(alpha float64) float64 {
	A := errfloat.Exact(alpha)
	am1 := errfloat.Exact(alpha - 1) // exact for alpha in (1, 2^53]
	x0 := errfloat.Add(p.lw0, errfloat.Mul(A, p.c0.l))
	x1 := errfloat.Add(p.lw1, errfloat.Mul(A, p.c1.l))
	m := math.Max(x0.V, x1.V)
	if (alpha-1)*p.lmax <= 0.5 {
		// Near order 1 both sums below cancel: the log domain's M + log S
		// (both near alpha |l|, the result near (alpha-1) KL), and the
		// series' em(alpha l) - alpha em(l) (by a factor up to about
		// alpha/(alpha-1) e^|l|). With beta = alpha-1,
		// S = sum_i p_i e^(beta l_i), so log S = log1p(T), T = beta KL +
		// sum_i p_i em(beta l_i) (sum p_i = 1, sum p_i l_i = KL): every
		// term >= 0, nothing cancels.
		B := am1
		t := errfloat.Add(errfloat.Mul(B, p.kl), errfloat.Add(errfloat.Mul(p.p0, errfloat.Em(errfloat.Mul(B, p.c0.l))), errfloat.Mul(p.p1, errfloat.Em(errfloat.Mul(B, p.c1.l)))))
		return errfloat.Div(errfloat.Log1p(t), am1).UpNonNeg()
	}
	if m > 0.5 {
		M := errfloat.Exact(m)
		s := errfloat.Add(evExp1(errfloat.Sub(x0, M)), evExp1(errfloat.Sub(x1, M)))
		if p.rest.V != 0 {
			s = errfloat.Add(s, evExp1(errfloat.Sub(p.lr, M)))
		}
		return errfloat.Div(errfloat.Add(M, errfloat.Log(s)), am1).UpNonNeg()
	}
	var t errfloat.Val
	if !p.zero0 {
		t = errfloat.Mul(p.c0.w, errfloat.Sub(errfloat.Em(errfloat.Mul(A, p.c0.l)), errfloat.Mul(A, p.em0)))
	}
	if !p.zero1 {
		t = errfloat.Add(t, errfloat.Mul(p.c1.w, errfloat.Sub(errfloat.Em(errfloat.Mul(A, p.c1.l)), errfloat.Mul(A, p.em1))))
	}
	if t.V < 0 { // only rounding: the exact sum is >= 0
		t = errfloat.Val{V: 0, E: t.E}
	}
	return errfloat.Div(errfloat.Log1p(t), am1).UpNonNeg()
}
