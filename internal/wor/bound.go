package wor

import (
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Bound is fast.WORBound for valid arguments past its special cases: q in
// (0, 1], a finite alpha >= 1 within rdpcheck.MaxWOROrder, base with the
// orders 2..ceil(alpha), finite there and within rdpcheck.MaxWORExponent (for
// q < 1), no entry above base.Inf, base.Inf > 0.
func Bound(q, alpha float64, base rdpcheck.BaseCurve) float64 {
	lqh, lql := errfloat.LogDD(q)
	logA := func(a int) (float64, float64) {
		if q == 1 { // (a-1) eps(a), one rounding
			return float64(a-1) * base.Eps[a-2], errfloat.Unit
		}
		return worBoundLogA(lqh, lql, a, base)
	}
	var v, rel float64
	switch lo := math.Floor(alpha); {
	case alpha <= 2:
		v, rel = logA(2)
	case lo == alpha:
		v, rel = logA(int(lo))
		v /= alpha - 1
		rel += errfloat.Unit
	default:
		t := alpha - lo
		x, rx := logA(int(lo))
		y, ry := logA(int(lo) + 1)
		v = ((1-t)*x + t*y) / (alpha - 1)
		rel = max(rx, ry) + 6*errfloat.Unit
	}
	return errfloat.RoundUp(v, rel)
}

// worBoundLogA returns an upper bound on ln A of Theorem 9 at integer
// order a >= 2 and the relative error bound of its last roundings.
func worBoundLogA(lqh, lql float64, a int, base rdpcheck.BaseCurve) (float64, float64) {
	var xs [rdpcheck.MaxWOROrder + 1]float64
	xmax := math.Inf(-1)
	// ln min(2, P^j), P = e^(eps(Inf)) - 1 (Expm1 and Log within 1 ulp each).
	lnP, lnPErr := math.Inf(1), 0.0
	if !math.IsInf(base.Inf, 1) {
		lnP = math.Log(math.Expm1(base.Inf))
		lnPErr = 2*errfloat.Unit*math.Abs(lnP) + 2.01*errfloat.Unit
	}
	cbh, cbl := lnInt[a][0], lnInt[a][1] // ln C(a, j) from j = 1
	for j := 2; j <= a; j++ {
		cbh, cbl = errfloat.DDAdd(cbh, cbl, lnInt[a-j+1][0], lnInt[a-j+1][1])
		cbh, cbl = errfloat.DDAdd(cbh, cbl, -lnInt[j][0], -lnInt[j][1])
		fj := float64(j)
		e := base.Eps[j-2]
		var lf, lfErr float64
		if j == 2 {
			// min(4 (e^e - 1), e^e min(2, P^2)).
			l1 := 2*errfloat.Ln2 + math.Log(math.Expm1(e))
			l1e := 2*errfloat.Unit*math.Abs(l1) + 4.02*errfloat.Unit
			l2 := e + math.Min(errfloat.Ln2, 2*lnP)
			l2e := errfloat.Unit*math.Abs(l2) + 2*lnPErr + errfloat.Unit*e
			if l1+l1e < l2+l2e {
				lf, lfErr = l1, l1e
			} else {
				lf, lfErr = l2, l2e
			}
		} else {
			// (j-1) eps(j) + min(ln 2, j ln P).
			lf = (fj-1)*e + math.Min(errfloat.Ln2, fj*lnP)
			lfErr = 2*errfloat.Unit*(fj-1)*e + errfloat.Unit*math.Abs(lf) + fj*lnPErr + errfloat.Unit*fj*math.Abs(lnP)
			if math.IsInf(lnP, 1) {
				lfErr = 2*errfloat.Unit*(fj-1)*e + errfloat.Unit*math.Abs(lf)
			}
		}
		jqh, jql := errfloat.DDMul(lqh, lql, fj, 0)
		xh, xl := errfloat.DDAdd(jqh, jql, cbh, cbl)
		xh, xl = errfloat.DDAdd(xh, xl, lf, 0)
		x := xh + xl
		xs[j] = x + lfErr + 0x1p-98*(math.Abs(jqh)+math.Abs(cbh)+math.Abs(lf)) + errfloat.Unit*math.Abs(x)
		xmax = max(xmax, xs[j])
	}
	return logOnePlusSum(xs[2:a+1], xmax)
}
