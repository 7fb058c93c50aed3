package divergence

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Gaussian is fast.GaussianDivergence for valid arguments: finite means,
// s1, s2 > 0 finite, alpha >= 0 (or +Inf). fast.GaussianDivergence's doc
// comment gives the method and the accuracy.
func Gaussian(m1, s1, m2, s2, alpha float64) float64 {
	if alpha == 0 || (m1 == m2 && s1 == s2) {
		return 0
	}
	return gaussDiv(m1, s1, m2, s2, alpha)
}

// gaussDiv is Gaussian for alpha > 0, rounded up.
func gaussDiv(m1, s1, m2, s2, a float64) float64 {
	dm2 := meanSq(m1, m2)
	S1, S2 := errfloat.ToScaled(errfloat.Exact(s1)), errfloat.ToScaled(errfloat.Exact(s2))
	if math.IsInf(a, 1) {
		switch {
		case s1 > s2:
			return math.Inf(1)
		case s1 == s2:
			if dm2.M.V == 0 {
				return 0
			}
			return math.Inf(1)
		}
		// log(s2/s1) + dm^2 / (2 (s2-s1)(s2+s1))
		v := errfloat.Neg(errfloat.LogRatio(s1, s2))
		den := errfloat.ScaledMul(errfloat.ToScaled(errfloat.Sub(errfloat.Exact(s2), errfloat.Exact(s1))), sumSev(s1, s2))
		den.X++
		return errfloat.Add(v, errfloat.ScaledDiv(dm2, den).Float()).UpNonNeg()
	}
	// The variance part depends on s1/s2 only: scale both by the same power
	// of 2 (exactly) so that the double-double products below see no
	// subnormals.
	t1, t2 := scaledPair(s1, s2)
	g := newGaussRatios(t1, t2)
	if a == 1 {
		// KL = -lm(r)/2 + dm^2/(2 s2^2)
		v := errfloat.Neg(g.lm(g.r, g.lr))
		v.V /= 2
		v.E /= 2
		den := errfloat.ScaledMul(S2, S2)
		den.X++
		return errfloat.Add(v, errfloat.ScaledDiv(dm2, den).Float()).UpNonNeg()
	}
	bh, bl := errfloat.TwoSum(a, -1)
	ch, cl := errfloat.TwoSum(1, -a)
	c := errfloat.Val{V: ch, E: math.Abs(cl)}
	A := errfloat.Exact(a)
	var N errfloat.Val      // N/(2c) is the variance part
	var sa2 errfloat.Scaled // sa^2
	if a < 1 {
		// sa^2 = a s2^2 + c s1^2, positive terms
		sa2 = errfloat.ScaledAdd(errfloat.ScaledMul(errfloat.ToScaled(A), errfloat.ScaledMul(S2, S2)), errfloat.ScaledMul(errfloat.ToScaled(c), errfloat.ScaledMul(S1, S1)))
		if s1 == s2 {
			N = errfloat.Exact(0)
			sa2 = errfloat.ScaledMul(S2, S2)
		} else {
			N = g.formsBelowOne(a, c)
		}
	} else {
		sigma, ok := sigmaAboveOne(t1, t2, a, bh, bl)
		if !ok {
			return math.Inf(1) // sa^2 <= 0, or too close to 0 to tell
		}
		sa2 = errfloat.ScaledMul(errfloat.ScaledMul(S2, S2), errfloat.ToScaled(sigma))
		if s1 == s2 {
			N = errfloat.Exact(0)
		} else {
			// lm(c r) - c lm(r): both <= 0 (c < 0)
			cr := errfloat.Mul(c, g.r)
			var lsig errfloat.Val
			if math.Abs(cr.V) <= 0.5 {
				lsig = errfloat.Log1p(cr)
			} else {
				lsig = errfloat.Log(sigma)
			}
			N = errfloat.Sub(g.lm(cr, lsig), errfloat.Mul(c, g.lm(g.r, g.lr)))
		}
	}
	V := errfloat.Div(N, errfloat.Mul2(c))
	mean := errfloat.ScaledDiv(errfloat.ScaledMul(errfloat.ToScaled(A), dm2), errfloat.ScaledMul(errfloat.ToScaled(errfloat.Exact(2)), sa2)).Float()
	d := errfloat.Add(V, mean)
	if !d.OK() && a > 1 && s1 < s2 {
		// overflow for alpha near MaxFloat64: D_alpha <= D_inf
		return gaussDiv(m1, s1, m2, s2, math.Inf(1))
	}
	return d.UpNonNeg()
}

// scaledPair returns s1 2^k, s2 2^k for a k that brings the larger to
// [1/2, 1) when that is exact (always when scaling up; when scaling down,
// if the smaller stays normal), else s1, s2.
func scaledPair(s1, s2 float64) (float64, float64) {
	_, k := math.Frexp(math.Max(s1, s2))
	if k > 0 && math.Ldexp(math.Min(s1, s2), -k) < 0x1p-1022 {
		return s1, s2
	}
	return math.Ldexp(s1, -k), math.Ldexp(s2, -k)
}

// meanSq returns (m1-m2)^2 as a scaled value (m1-m2 may overflow).
func meanSq(m1, m2 float64) errfloat.Scaled {
	var d errfloat.Scaled
	if math.Abs(m1) <= math.MaxFloat64/4 && math.Abs(m2) <= math.MaxFloat64/4 {
		d = errfloat.ToScaled(errfloat.Sub(errfloat.Exact(m1), errfloat.Exact(m2)))
	} else {
		h := errfloat.Sub(errfloat.Half(m1), errfloat.Half(m2))
		d = errfloat.ToScaled(h)
		d.X++
	}
	return errfloat.ScaledMul(d, d)
}

// sumSev returns s1 + s2 (> 0) as a scaled value.
func sumSev(s1, s2 float64) errfloat.Scaled {
	if s1 <= math.MaxFloat64/4 && s2 <= math.MaxFloat64/4 {
		return errfloat.ToScaled(errfloat.Add(errfloat.Exact(s1), errfloat.Exact(s2)))
	}
	d := errfloat.ToScaled(errfloat.Add(errfloat.Half(s1), errfloat.Half(s2)))
	d.X++
	return d
}

// gaussRatios holds rho = s1/s2 and the quantities of the variance part:
// r = rho^2 - 1, lr = log1p(r) = 2 log rho, w = r/(1+r) = 1 - 1/rho^2.
// r is +Inf (not ok) for rho beyond 1e154, w -Inf for rho below 1e-154.
type gaussRatios struct {
	rho, irho errfloat.Val // s1/s2, s2/s1
	r, lr, w  errfloat.Val
}

func newGaussRatios(s1, s2 float64) gaussRatios {
	var g gaussRatios
	d := errfloat.Sub(errfloat.Exact(s1), errfloat.Exact(s2)) // exact when within a factor 2
	g.rho = errfloat.Div(errfloat.Exact(s1), errfloat.Exact(s2))
	g.irho = errfloat.Div(errfloat.Exact(s2), errfloat.Exact(s1))
	// r = ((s1-s2)/s2) (s1/s2 + 1), w = ((s1-s2)/s1) (s2/s1 + 1)
	g.r = errfloat.Mul(errfloat.Div(d, errfloat.Exact(s2)), errfloat.Add(g.rho, errfloat.Exact(1)))
	g.w = errfloat.Mul(errfloat.Div(d, errfloat.Exact(s1)), errfloat.Add(g.irho, errfloat.Exact(1)))
	l := errfloat.LogRatio(s1, s2)
	g.lr = errfloat.Mul2(l)
	return g
}

// lm returns log1p(x) - x given x and lx = log1p(x): by series near 0,
// else as lx - x (no cancellation worse than 3.5 outside [-0.7, 2]).
func (g *gaussRatios) lm(x, lx errfloat.Val) errfloat.Val {
	if x.V >= -0.7 && x.V <= 2 {
		return errfloat.Log1pmx(x)
	}
	return errfloat.Sub(lx, x)
}

// formsBelowOne returns N for alpha in (0, 1), c = 1-alpha, by whichever
// of its four forms has the smallest error bound.
func (g *gaussRatios) formsBelowOne(a float64, c errfloat.Val) errfloat.Val {
	A := errfloat.Exact(a)
	best := errfloat.Val{V: math.NaN(), E: math.Inf(1)}
	take := func(f errfloat.Val) {
		if f.OK() && f.E < best.E {
			best = f
		}
	}
	if g.r.OK() {
		cr := errfloat.Mul(c, g.r)
		// sigma = 1 + c r = a + c rho^2, positive terms
		sigma := errfloat.Add(A, errfloat.Mul(c, errfloat.Mul(g.rho, g.rho)))
		var ls errfloat.Val
		if math.Abs(cr.V) <= 0.5 {
			ls = errfloat.Log1p(cr)
		} else {
			ls = errfloat.Log(sigma)
		}
		take(errfloat.Sub(g.lm(cr, ls), errfloat.Mul(c, g.lm(g.r, g.lr)))) // lm(c r) - c lm(r)
		take(errfloat.Sub(ls, errfloat.Mul(c, g.lr)))                      // log1p(c r) - c log1p(r)
	}
	if g.w.OK() {
		aw := errfloat.Mul(A, g.w)
		naw := errfloat.Neg(aw)
		// tau = 1 - a w = c + a/rho^2, positive terms
		tau := errfloat.Add(c, errfloat.Mul(A, errfloat.Mul(g.irho, g.irho)))
		var lt errfloat.Val // log1p(-a w)
		if math.Abs(aw.V) <= 0.5 {
			lt = errfloat.Log1p(naw)
		} else {
			lt = errfloat.Log(tau)
		}
		// log1p(r) - w = -lm(-w) (log1p(-w) = -log1p(r))
		nw := errfloat.Neg(g.w)
		lrmw := errfloat.Neg(g.lm(nw, errfloat.Neg(g.lr)))
		take(errfloat.Add(errfloat.Mul(A, lrmw), g.lm(naw, lt))) // a (log1p(r) - w) + lm(-a w)
		take(errfloat.Add(errfloat.Mul(A, g.lr), lt))            // a log1p(r) + log1p(-a w)
	}
	return best
}

// sigmaAboveOne returns sa^2/s2^2 = a - (a-1) rho^2 for a > 1 from
// double-double products, and false when it is not positive within its
// error bound (+Inf divergence, or too close to 0 to tell).
func sigmaAboveOne(s1, s2, a, bh, bl float64) (errfloat.Val, bool) {
	rh := s1 / s2
	switch {
	case rh > 0x1p400:
		return errfloat.Val{}, false
	case rh < 0x1p-400:
		// (a-1) rho^2 < 4 (a-1) rh^2, far below a's ulp
		return errfloat.Val{V: a, E: 4 * bh * rh * rh}, true
	}
	rh, rl := errfloat.DDDiv(s1, 0, s2, 0)
	qh, ql := errfloat.DDMul(rh, rl, rh, rl)
	th, tl := errfloat.DDMul(bh, bl, qh, ql)
	sh, sl := errfloat.DDAdd(a, 0, -th, -tl)
	e := 0x1p-98 * (a + math.Abs(th))
	sg := errfloat.Val{V: sh, E: math.Abs(sl) + e}
	if !(sg.V-sg.E > 0) {
		return errfloat.Val{}, false
	}
	return sg, true
}
