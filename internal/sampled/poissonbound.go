package sampled

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// PoissonBound is fast.PoissonBound for valid arguments: q in [0, 1], a
// finite alpha >= 1, base with the orders 2..ceil(alpha) and no entry
// negative or NaN. Zhu and Wang's sum is formed in log scale from
// double-double terms.
func PoissonBound(q, alpha float64, base []float64) float64 {
	hiOrd := int(math.Max(2, math.Ceil(alpha)))
	if q == 0 {
		return 0
	}
	loOrd := int(math.Max(2, math.Floor(alpha)))
	frac := 0.0
	if alpha > 2 {
		frac = alpha - math.Floor(alpha)
	}
	// +Inf where an order's cgf, (k-1) base[k-2], is beyond float64 (a
	// base of +Inf, or one near MaxFloat64): a valid bound, and the sum
	// below would turn the overflow into NaN.
	for k := 2; k <= hiOrd; k++ {
		if (q < 1 || k == loOrd || k == hiOrd) && math.IsInf(float64(k-1)*base[k-2], 1) {
			return math.Inf(1)
		}
	}
	// cgf(k) = (k-1) eps_bound(k), an upper bound. The log of each term,
	// log C(k,l) + l log q + (k-l) log(1-q) + log k_l, is formed in
	// double-double (errfloat.LogDD is within 2^-100 relative), so only its final
	// rounding, u |lt - M| for the terms within e^-40 of the largest M,
	// and the series' own few ulps remain.
	cgf := func(k int) float64 {
		if q == 1 {
			return errfloat.RoundUp(float64(k-1)*base[k-2], 2*errfloat.Unit)
		}
		lqh, lql := errfloat.LogDD(q)
		l1q := math.Log1p(-q) // error u |l1q|, times (k-l) below
		type term struct{ h, l, r float64 }
		var ts []term
		bh, bl := 0.0, 0.0 // log C(k, l), built up
		// M + Ml is the largest term's log in double-double: the terms are
		// taken relative to all of it, as a huge x leaves a low part
		// (-1489 beside 1e100) that is not small on the scale of exp.
		M, Ml := math.Inf(-1), 0.0
		for l := 1; l <= k; l++ {
			nh, nl := errfloat.LogDD(float64(k - l + 1))
			dh, dl := errfloat.LogDD(float64(l))
			bh, bl = errfloat.DDAdd(bh, bl, nh, nl)
			bh, bl = errfloat.DDAdd(bh, bl, -dh, -dl)
			if l < 2 {
				continue
			}
			xh, xl := errfloat.TwoProd(float64(l-1), base[l-2]) // x exactly
			var kh, kl float64                                  // log k_l
			if l == 2 {
				if xh == 0 {
					continue
				}
				if xh > 700 {
					kh, kl = xh, xl+math.Log1p(-math.Exp(-xh)) // log(e^x - 1)
				} else {
					kh, kl = math.Log(math.Expm1(xh)), xl*math.Exp(xh)/math.Expm1(xh)
				}
			} else {
				// log(3 e^x - 1) = x + log 3 + log1p(-e^-x/3)
				kh, kl = errfloat.DDAdd(xh, xl, 1.0986122886681098, 0)
				kl += math.Log1p(-math.Exp(-xh) / 3)
			}
			th, tl := errfloat.DDMul(float64(l), 0, lqh, lql)
			th, tl = errfloat.DDAdd(th, tl, bh, bl)
			th, tl = errfloat.DDAdd(th, tl, kh, kl)
			uh, ul := errfloat.TwoProd(float64(k-l), l1q)
			th, tl = errfloat.DDAdd(th, tl, uh, ul)
			// r: l1q's rounding times (k-l), log k_l's float64 parts
			// (log/expm1/log1p, 2 ulps each, of |log k_l| at most 1 + |x|
			// for l = 2), and the log 3 constant's half ulp.
			r := float64(k-l)*errfloat.Unit*math.Abs(l1q) + 8*errfloat.Unit*(1+math.Abs(kh)) + 8*errfloat.Unit
			ts = append(ts, term{th, tl, r})
			if th > M || (th == M && tl > Ml) {
				M, Ml = th, tl
			}
		}
		if len(ts) == 0 {
			return 0
		}
		var s, e float64
		for _, t := range ts {
			d := (t.h - M) + (t.l - Ml) // error u |t.h - M| + u |t.l - Ml| + u |d|
			if d < -745 {
				continue
			}
			x := math.Exp(d)
			s += x
			e += x * (t.r + 2*errfloat.Unit*(math.Abs(t.h-M)+math.Abs(t.l-Ml)) + 4*errfloat.Unit)
		}
		rel := e/s + float64(len(ts)+2)*errfloat.Unit
		lsum := Ml + math.Log(s)
		ls := M + lsum + 2*rel + 2*errfloat.Unit*(math.Abs(M+lsum)+math.Abs(lsum))
		return errfloat.RoundUp(log1pOfExp(ls), 4*errfloat.Unit)
	}
	var num float64
	if frac == 0 {
		num = cgf(loOrd)
	} else {
		num = errfloat.RoundUp(frac*cgf(hiOrd)+(1-frac)*cgf(loOrd), 4*errfloat.Unit)
	}
	if alpha <= 2 {
		return num
	}
	return errfloat.RoundUp(num/(alpha-1), 2*errfloat.Unit)
}
