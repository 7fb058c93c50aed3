package divergence

import (
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Discrete is fast.Divergence for valid arguments: p and q of one
// non-zero length, finite entries >= 0 each summing to within len 2^-52
// of 1, alpha >= 0 (or +Inf). fast.Divergence's doc comment gives the
// method and the accuracy; the names below follow it.
func Discrete(p, q []float64, alpha float64) float64 {
	same := true
	for i := range p {
		if p[i] != q[i] {
			same = false
			break
		}
	}
	switch {
	case same:
		return 0
	case alpha == 0:
		return divOrder0(p, q)
	case math.IsInf(alpha, 1):
		return divOrderInf(p, q)
	}
	inside, meet := true, false
	for i := range p {
		if p[i] > 0 && q[i] > 0 {
			meet = true
		}
		if p[i] > 0 && q[i] == 0 {
			inside = false
		}
	}
	if !meet || (alpha >= 1 && !inside) {
		return math.Inf(1)
	}
	dp, dq := SumDefect(p), SumDefect(q)
	if alpha == 1 {
		return divKL(p, q, dp, dq).UpNonNeg()
	}
	return divAlpha(p, q, alpha, dp, dq)
}

// SumDefect returns sum(x) - 1, formed exactly (the entries are multiples
// of 2^-1074 below 2^(1+log2 len), so 1200 bits hold every partial sum)
// and rounded once: exactly 0 for vectors that sum to exactly 1, whatever
// their entries.
func SumDefect(x []float64) errfloat.Val {
	// fast path: every partial sum exact (dyadic entries, for instance);
	// then s-1 is exact too (Sterbenz: s is within len 2^-52 of 1)
	f := 0.0
	for _, v := range x {
		t, e := errfloat.TwoSum(f, v)
		if e != 0 {
			f = math.NaN()
			break
		}
		f = t
	}
	if f >= 0.5 && f <= 2 {
		return errfloat.Val{V: f - 1, E: 0}
	}
	s := new(big.Float).SetPrec(1200).SetInt64(-1)
	for _, v := range x {
		s.Add(s, big.NewFloat(v))
	}
	return roundedBig(s)
}

// roundedBig is s rounded to float64, with its rounding error.
func roundedBig(s *big.Float) errfloat.Val {
	if s.Sign() == 0 {
		return errfloat.Val{}
	}
	d, _ := s.Float64()
	if d == 0 {
		return errfloat.Val{V: 0, E: errfloat.TinyErr}
	}
	return errfloat.Val{V: d, E: errfloat.Unit*math.Abs(d) + errfloat.SubnormalErr(d)}
}

// divOrder0 is -log sum_{p_i > 0} q_i, rounded up; the sum is exact, and
// its log is taken through log1p of (sum - 1) from 1/2 on.
func divOrder0(p, q []float64) float64 {
	s := new(big.Float).SetPrec(1200)
	for i := range p {
		if p[i] > 0 {
			s.Add(s, big.NewFloat(q[i]))
		}
	}
	if s.Sign() == 0 {
		return math.Inf(1)
	}
	var l errfloat.Val
	if s.Cmp(big.NewFloat(0.5)) >= 0 {
		l = errfloat.Log1p(roundedBig(s.Sub(s, big.NewFloat(1))))
	} else {
		l = errfloat.Log(roundedBig(s))
	}
	return errfloat.Neg(l).UpNonNeg()
}

// divOrderInf is log max_{p_i > 0} p_i/q_i, rounded up: the largest of the
// upper bounds of the log ratios.
func divOrderInf(p, q []float64) float64 {
	best := 0.0
	for i := range p {
		if p[i] == 0 {
			continue
		}
		if q[i] == 0 {
			return math.Inf(1)
		}
		if v := errfloat.LogRatio(p[i], q[i]).Up(); v > best {
			best = v
		}
	}
	return best
}

// pqTerm holds the pieces of one term p, q > 0.
type pqTerm struct {
	p, q   float64
	isNear bool
	d      errfloat.Val // p - q
	y, z   errfloat.Val // near: (p-q)/(p+q) and y^2
	s      errfloat.Val // near: p + q
	b      errfloat.Val // near: sum_k z^k/(2k+3)
	l      errfloat.Val // log(p/q)
	// log(p/q) in double-double with its error bound, once computed
	lh, ll, le float64
	hasDD      bool
}

func newPQ(p, q float64) pqTerm {
	t := pqTerm{p: p, q: q, isNear: errfloat.NearRatio(p, q)}
	if t.isNear {
		t.d = errfloat.Exact(p - q)
		t.s = errfloat.Add(errfloat.Exact(p), errfloat.Exact(q))
		t.y = errfloat.Div(t.d, t.s)
		t.z = errfloat.Mul(t.y, t.y)
		var tail float64
		t.b, tail = errfloat.SeriesOdd(t.z)
		t.b.E += tail
		// log(p/q) = 2 atanh(y) = 2y (1 + z B)
		t.l = errfloat.Mul2(errfloat.Mul(t.y, errfloat.Add(errfloat.Exact(1), errfloat.Mul(t.z, t.b))))
	} else {
		t.d = errfloat.Sub(errfloat.Exact(p), errfloat.Exact(q))
		t.l = errfloat.LogRatio(p, q)
	}
	return t
}

// qX returns q X(u) = p log(p/q) - (p-q) >= 0.
func (t *pqTerm) qX() errfloat.Val {
	if t.isNear {
		// q X = (p+q) z (1 + (1+y) y B): (1+y) atanh y - y = y^2 + (1+y) y^3 B
		w := errfloat.Mul(errfloat.Mul(errfloat.Add(errfloat.Exact(1), t.y), t.y), t.b)
		return errfloat.Mul(errfloat.Mul(t.s, t.z), errfloat.Add(errfloat.Exact(1), w))
	}
	return errfloat.Sub(errfloat.Mul(errfloat.Exact(t.p), t.l), t.d)
}

// qM returns q (L - u) = q log(p/q) - (p-q) <= 0.
func (t *pqTerm) qM() errfloat.Val {
	if t.isNear {
		// q L - d = -y (d - 2 q z B)
		w := errfloat.Mul2(errfloat.Mul(errfloat.Mul(errfloat.Exact(t.q), t.z), t.b))
		return errfloat.Neg(errfloat.Mul(t.y, errfloat.Sub(t.d, w)))
	}
	return errfloat.Sub(errfloat.Mul(errfloat.Exact(t.q), t.l), t.d)
}

// emOf returns em(c L) for a multiplier c = ch + cl (exact), taking L in
// double-double when |c L| > 1 (where exp magnifies its absolute error).
func (t *pqTerm) emOf(ch, cl float64) errfloat.Val {
	if math.Abs(ch*t.l.V) <= 1 {
		return errfloat.Em(errfloat.Mul(errfloat.Val{V: ch, E: math.Abs(cl)}, t.l))
	}
	if !t.hasDD {
		t.lh, t.ll, t.le = errfloat.DDLogRatio(t.p, t.q)
		t.hasDD = true
	}
	yh, yl := errfloat.DDMul(ch, cl, t.lh, t.ll)
	ye := math.Abs(ch)*t.le*(1+0x1p-50) + 0x1p-100*math.Abs(yh)
	return errfloat.EmDD(yh, yl, ye)
}

// divKL is sum_i q_i X(u_i) + (sum p - sum q).
func divKL(p, q []float64, dp, dq errfloat.Val) errfloat.Val {
	var T errfloat.Val
	for i := range p {
		switch {
		case p[i] == 0:
			T = errfloat.Add(T, errfloat.Exact(q[i])) // q X(-1) = q
		case q[i] > 0:
			t := newPQ(p[i], q[i])
			T = errfloat.Add(T, t.qX())
		}
	}
	return errfloat.Add(T, errfloat.Sub(dp, dq))
}

// divAlpha is the divergence for alpha in (0,1) or (1,Inf), rounded up.
func divAlpha(p, q []float64, a float64, dp, dq errfloat.Val) float64 {
	bh, bl := errfloat.TwoSum(a, -1) // a-1 exactly
	ch, cl := errfloat.TwoSum(1, -a) // 1-a exactly
	bEv := errfloat.Val{V: bh, E: math.Abs(bl)}
	best := math.Inf(1)
	var T errfloat.Val
	for i := range p {
		pi, qi := p[i], q[i]
		switch {
		case pi == 0 && qi == 0:
		case pi == 0:
			T = errfloat.Add(T, errfloat.Mul(errfloat.Exact(qi), bEv)) // q h(-1) = q (a-1)
		case qi == 0: // a < 1 here
			T = errfloat.Sub(T, errfloat.Mul(errfloat.Exact(a), errfloat.Exact(pi)))
		default:
			t := newPQ(pi, qi)
			// form B: (a-1) q X + p em((a-1) L)
			fb := errfloat.Add(errfloat.Mul(bEv, t.qX()), errfloat.Mul(errfloat.Exact(pi), t.emOf(bh, bl)))
			if a < 1 {
				// form A: q em(a L) + a q (L - u)
				fa := errfloat.Add(errfloat.Mul(errfloat.Exact(qi), t.emOf(a, 0)), errfloat.Mul(errfloat.Exact(a), t.qM()))
				if fa.OK() && !(fa.E >= fb.E) {
					fb = fa
				}
			}
			T = errfloat.Add(T, fb)
		}
	}
	T = errfloat.Add(T, defectSum(a, ch, cl, dp, dq))
	if T.OK() && T.V >= -0.5 {
		d := errfloat.Div(errfloat.Log1p(T), bEv)
		if d.OK() {
			best = d.UpNonNeg()
			if d.Rel() < 0x1p-40 {
				return best
			}
		}
	}
	if ls := divLogSpace(p, q, a); ls.OK() {
		if v := errfloat.Div(ls, bEv).UpNonNeg(); v < best {
			best = v
		}
	}
	if math.IsInf(best, 1) {
		// Both evaluations overflowed (alpha beyond ~1e300): D_alpha is
		// non-decreasing in alpha, so D_inf bounds it.
		best = divOrderInf(p, q)
	}
	return best
}

// defectSum returns a dp + (1-a) dq, with 1-a = ch + cl exactly. The two
// products are taken exactly (errfloat.TwoProd) and summed in double-double, so
// that their cancellation (dp = dq = 2^-52 at a = 560 gives 560 and -559
// times 2^-52, summing to 2^-52) costs nothing: the result is rounded once.
// Its error is that rounding, u|v|; the propagated errors of the defects,
// |a| e_dp + |1-a| e_dq; the product cl dq (below u^2 |ch dq|) and the
// double-double sum (below 4u^2 (|a dp| + |ch dq|)); and where a product
// underflows, its residual is not exact (errfloat.TinyErr each). Rounding each
// product and the sum separately instead would carry u (|a dp| + |(1-a) dq|),
// 1100 times the result in that example: a value rounded up by 1.25e-13.
func defectSum(a, ch, cl float64, dp, dq errfloat.Val) errfloat.Val {
	h1, l1 := errfloat.TwoProd(a, dp.V)
	h2, l2 := errfloat.TwoProd(ch, dq.V)
	l2 += cl * dq.V
	h, l := errfloat.DDAdd(h1, l1, h2, l2)
	v := h + l
	mag := math.Abs(h1) + math.Abs(h2)
	e := math.Abs(a)*dp.E + math.Abs(ch)*(1+2*errfloat.Unit)*dq.E + errfloat.Unit*math.Abs(v) + 5*errfloat.Unit*errfloat.Unit*mag + 2*errfloat.TinyErr
	return errfloat.Val{V: v, E: e * (1 + 4*errfloat.Unit)}
}

// divLogSpace returns log sum_i p_i^a q_i^(1-a) over p_i, q_i > 0, from
// double-double exponents x_i = a log p_i + (1-a) log q_i.
func divLogSpace(p, q []float64, a float64) errfloat.Val {
	ch, cl := errfloat.TwoSum(1, -a)
	type xe struct{ h, l, e float64 }
	xs := make([]xe, 0, len(p))
	M := math.Inf(-1)
	for i := range p {
		if p[i] == 0 || q[i] == 0 {
			continue
		}
		ph, pl := errfloat.LogDD(p[i])
		qh, ql := errfloat.LogDD(q[i])
		ah, al := errfloat.DDMul(a, 0, ph, pl)
		bh, bl := errfloat.DDMul(ch, cl, qh, ql)
		xh, xl := errfloat.DDAdd(ah, al, bh, bl)
		mag := math.Abs(a*ph) + math.Abs(ch*qh)
		e := 0x1p-98 * mag // the logs' 2^-99, the products' and the sum's 2^-100
		if math.IsNaN(xh) || math.IsInf(xh, 0) || math.IsInf(mag, 0) {
			return errfloat.Val{V: math.NaN(), E: math.Inf(1)}
		}
		xs = append(xs, xe{xh, xl, e})
		M = math.Max(M, xh)
	}
	var s errfloat.Val
	for _, x := range xs {
		th, tl := errfloat.TwoSum(x.h, -M)
		tl += x.l // |tl| <= 2u |th| + |x.l|; rounding within u^2 |x|
		terr := x.e + 0x1p-100*(math.Abs(x.h)+math.Abs(M))
		E := errfloat.Exp(errfloat.Val{V: th, E: terr})
		// e^(th+tl) = e^th (1 + tl + r), |r| <= tl^2 for |tl| < 1/2
		one := errfloat.Val{V: 1 + tl, E: errfloat.Unit*(1+math.Abs(tl)) + tl*tl}
		s = errfloat.Add(s, errfloat.Mul(E, one))
	}
	return errfloat.Add(errfloat.Exact(M), errfloat.Log(s))
}
