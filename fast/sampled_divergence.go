package fast

import (
	"fmt"
	"github.com/rdpcheck/rdpcheck/internal/carry"
	"github.com/rdpcheck/rdpcheck/internal/divergence"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
	"math"
)

// SampledDivergence returns the Rényi differential privacy of order alpha of
// a Poisson-sampled mechanism with discrete outputs (add/remove
// neighbours): with Q the output distribution without the individual
// (distQ), P the output with it (distP) and mu = (1-q) Q + q P,
// max(D_alpha(mu || Q), D_alpha(Q || mu)), the exact value that
// reference.SampledDivergence computes. Each ratio is 1 + t_i, t_i = q (P_i
// - Q_i)/Q_i, never formed as a difference of near-equal numbers; the moment
// is sum_i Q_i h(t_i) plus the exact defect (sum Q - 1) + g q (sum_{Q>0} P -
// sum Q) (see sampled.go), with a carried error bound, rounded up: never
// below the exact value. Where the bound cannot be certified (the defect
// cancelling the sum) it returns max(Divergence(P, Q), Divergence(Q, P)),
// the unsampled value, which is never below the sampled one. A result that
// would be negative through the sums' defects is 0.
//
// Special cases are:
//
//	SampledDivergence(q=0, P, Q, alpha) = 0
//	SampledDivergence(q=1, P, Q, alpha) = max(Divergence(P, Q, alpha), Divergence(Q, P, alpha))
//	SampledDivergence(q>0, P, Q, alpha) = +Inf if some P_i > 0 has Q_i = 0
//	SampledDivergence(q, P, P, alpha) = 0
//	SampledDivergence(q, P, Q, alpha=+Inf) = max(log(1 + q max_i (P_i/Q_i - 1)), -log(1 + q min_i (P_i/Q_i - 1)))
//	SampledDivergence = error for q outside [0, 1], empty or mismatched vectors,
//	    negative, NaN or Inf entries, sums away from 1, alpha < 1 or NaN
func SampledDivergence(q float64, distP, distQ []float64, alpha float64) (float64, error) {
	const fn = "SampledDivergence"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	if len(distP) == 0 || len(distP) != len(distQ) {
		return 0, inputErr(fn, "distP, distQ", math.NaN(),
			fmt.Sprintf("probability vectors must be non-empty and of equal length (have %d and %d)", len(distP), len(distQ)))
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"distP", distP}, {"distQ", distQ}} {
		sum := 0.0
		for i, x := range v.x {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return 0, inputErr(fn, fmt.Sprintf("%s[%d]", v.name, i), x, "probabilities must be finite and >= 0")
			}
			sum += x
		}
		if math.Abs(sum-1) > float64(len(v.x))*0x1p-52 {
			return 0, inputErr(fn, "sum("+v.name+")", sum, "probabilities must sum to 1")
		}
	}
	if err := checkAlpha(fn, alpha, 1); err != nil {
		return 0, err
	}
	unsampled := func() float64 {
		f, _ := Divergence(distP, distQ, alpha)
		b, _ := Divergence(distQ, distP, alpha)
		return math.Max(f, b)
	}
	if q == 0 {
		return 0, nil
	}
	if q == 1 {
		return unsampled(), nil
	}
	n := len(distP)
	outside, same := false, true
	var pIn []float64 // P restricted to Q > 0
	var nodes lapNodes
	for i := range n {
		P, Q := distP[i], distQ[i]
		if Q == 0 {
			if P > 0 {
				outside = true
			}
			continue
		}
		pIn = append(pIn, P)
		if P == Q {
			continue // h(0) = 0
		}
		same = false
		d := P - Q
		dt := 3 * carry.Unit
		if carry.NearRatio(P, Q) {
			dt = 2 * carry.Unit // P - Q exact (Sterbenz)
		}
		if math.Abs(d) < 0x1p-1020 {
			dt += carry.TinyErr / math.Abs(d)
		}
		// 1 + t = ((1-q) Q + q P)/Q, 1-q exact where it matters (t < -1/2
		// needs q > 1/2): four roundings.
		nodes.appendNode(math.Log(Q), q*(d/Q), dt, ((1-q)*Q+q*P)/Q, 5*carry.Unit)
		nodes.w[len(nodes.w)-1] = Q // exact weight
	}
	if outside {
		return math.Inf(1), nil
	}
	dQ := divergence.SumDefect(distQ)
	dP := divergence.SumDefect(pIn)
	if same {
		return 0, nil // every ratio exactly 1: the mixture is Q (see the reference)
	}
	if math.IsInf(alpha, 1) {
		// log max (1+t) and -log min (1+t); an entry with t = 0 counts as 0.
		f, b := math.Inf(-1), math.Inf(-1)
		if len(nodes.t) < len(pIn) {
			f, b = 0, 0
		}
		for j, t := range nodes.t {
			L := carry.Log1p(carry.Val{V: t, E: math.Abs(t) * nodes.dt[j]})
			f = math.Max(f, L.Up())
			b = math.Max(b, carry.Neg(L).Up())
		}
		return math.Max(f, b), nil
	}
	best := math.Inf(-1)
	for _, fwd := range []bool{true, false} {
		kind, g := kindPow, alpha
		switch {
		case alpha == 1 && fwd:
			kind = kindKLF
		case alpha == 1:
			kind = kindKLB
		case !fwd:
			g = 1 - alpha
		}
		// The defect X = (sum Q - 1) + g lin, lin = q (dP - dQ) (KL: +-lin).
		lin := carry.Mul(carry.Exact(q), carry.Sub(dP, dQ))
		var X carry.Val
		switch kind {
		case kindKLF:
			X = lin
		case kindKLB:
			X = carry.Neg(lin)
		default:
			X = carry.Add(dQ, carry.Mul(carry.Exact(g), lin))
		}
		var S, E float64
		var acc lsum
		linear := true
		for j := range nodes.t {
			if _, _, ok := hLin(kind, g, nodes.t[j], nodes.dt[j], nodes.L[j], nodes.l1[j], nodes.dL[j], nodes.dl1[j]); !ok {
				linear = false
				break
			}
		}
		for j := range nodes.t {
			a := nodes.t[j]
			if linear {
				h, e, _ := hLin(kind, g, a, nodes.dt[j], nodes.L[j], nodes.l1[j], nodes.dL[j], nodes.dl1[j])
				S += nodes.w[j] * h
				E += nodes.w[j] * (e + 2*carry.Unit*h)
				continue
			}
			lh, e, ok := hLog(kind, g, a, nodes.dt[j], nodes.L[j], nodes.l1[j], nodes.dL[j], nodes.dl1[j])
			if !ok {
				return unsampled(), nil
			}
			acc.add(nodes.lw[j]+lh, e+4*carry.Unit*math.Abs(nodes.lw[j]))
		}
		var ls float64
		if linear {
			// The total may be negative: entries taken exactly need not
			// sum to 1 (see the reference). Its upper bound is used as is.
			tot := S + X.V
			err := E + X.E + float64(len(nodes.t)+2)*carry.Unit*(S+math.Abs(X.V))
			up := tot + 2*err + 2*carry.Unit*math.Abs(tot)
			if !(up > -0.5) {
				return unsampled(), nil
			}
			var v float64
			if alpha == 1 {
				v = up
			} else {
				v = math.Log1p(up) / (alpha - 1)
			}
			best = math.Max(best, ceilRel(v, 8*carry.Unit))
			continue
		} else {
			// Here the sum is beyond e^40 the defect's size: add |X| up.
			ls = acc.logUp(0)
			ls = xmath.LogAddExp(ls, math.Log(math.Abs(X.V)+X.E+1e-300)) + 4*carry.Unit*math.Abs(ls)
		}
		var v float64
		if alpha == 1 {
			v = math.Exp(ls)
		} else {
			v = log1pOfExp(ls) / (alpha - 1)
		}
		best = math.Max(best, carry.RoundUp(v, 16*carry.Unit))
	}
	// Sums that miss 1 in the last bits may make the given entries' exact
	// value negative (reference.SampledDivergence returns it); as in
	// Divergence, 0 stands for it: still not below it, and no negative RDP.
	return max(best, 0), nil
}

// PoissonBound returns Zhu and Wang's general upper bound (ICML 2019)
// on the RDP of order alpha of a Poisson-sampled mechanism with
// rate q, given the mechanism's RDP at integer orders, base[i] = eps(i+2):
// the value that reference.PoissonBound computes (see there for the
// formula, the interpolation at fractional orders and why the sum has no
// cancellation), in float64 with terms summed in log scale and rounded up:
// never below the bound it evaluates.
//
// Special cases are:
//
//	PoissonBound(q=0, alpha, base) = 0
//	PoissonBound(q=1, alpha, base) = base's own curve (interpolated between integers)
//	PoissonBound(q, alpha=+Inf, base) = +Inf
//	PoissonBound(q, alpha, base) = +Inf if an entry it uses is +Inf
//	PoissonBound = error for q outside [0, 1], alpha < 1 or NaN, base
//	    shorter than ceil(alpha)-1 entries, negative or NaN entries
func PoissonBound(q, alpha float64, base []float64) (float64, error) {
	const fn = "PoissonBound"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	if err := checkAlpha(fn, alpha, 1); err != nil {
		return 0, err
	}
	if math.IsInf(alpha, 1) {
		if q == 0 {
			return 0, nil
		}
		return math.Inf(1), nil
	}
	hiOrd := int(math.Max(2, math.Ceil(alpha)))
	if len(base) < hiOrd-1 {
		return 0, inputErr(fn, "base", float64(len(base)), fmt.Sprintf("the base curve must give orders 2..%d (%d entries)", hiOrd, hiOrd-1))
	}
	for i, v := range base {
		if math.IsNaN(v) || v < 0 {
			return 0, inputErr(fn, fmt.Sprintf("base[%d]", i), v, "RDP values must be >= 0 (or +Inf)")
		}
	}
	if q == 0 {
		return 0, nil
	}
	loOrd := int(math.Max(2, math.Floor(alpha)))
	frac := 0.0
	if alpha > 2 {
		frac = alpha - math.Floor(alpha)
	}
	for k := 2; k <= hiOrd; k++ {
		if (q < 1 || k == loOrd || k == hiOrd) && math.IsInf(base[k-2], 1) {
			return math.Inf(1), nil
		}
	}
	// cgf(k) = (k-1) eps_bound(k), an upper bound. The log of each term,
	// log C(k,l) + l log q + (k-l) log(1-q) + log k_l, is formed in
	// double-double (carry.LogDD is within 2^-100 relative), so only its final
	// rounding, u |lt - M| for the terms within e^-40 of the largest M,
	// and the series' own few ulps remain.
	cgf := func(k int) float64 {
		if q == 1 {
			return carry.RoundUp(float64(k-1)*base[k-2], 2*carry.Unit)
		}
		lqh, lql := carry.LogDD(q)
		l1q := math.Log1p(-q) // error u |l1q|, times (k-l) below
		type term struct{ h, l, r float64 }
		var ts []term
		bh, bl := 0.0, 0.0 // log C(k, l), built up
		M := math.Inf(-1)
		for l := 1; l <= k; l++ {
			nh, nl := carry.LogDD(float64(k - l + 1))
			dh, dl := carry.LogDD(float64(l))
			bh, bl = carry.DDAdd(bh, bl, nh, nl)
			bh, bl = carry.DDAdd(bh, bl, -dh, -dl)
			if l < 2 {
				continue
			}
			xh, xl := carry.TwoProd(float64(l-1), base[l-2]) // x exactly
			var kh, kl float64                               // log k_l
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
				kh, kl = carry.DDAdd(xh, xl, 1.0986122886681098, 0)
				kl += math.Log1p(-math.Exp(-xh) / 3)
			}
			th, tl := carry.DDMul(float64(l), 0, lqh, lql)
			th, tl = carry.DDAdd(th, tl, bh, bl)
			th, tl = carry.DDAdd(th, tl, kh, kl)
			uh, ul := carry.TwoProd(float64(k-l), l1q)
			th, tl = carry.DDAdd(th, tl, uh, ul)
			// r: l1q's rounding times (k-l), log k_l's float64 parts
			// (log/expm1/log1p, 2 ulps each, of |log k_l| at most 1 + |x|
			// for l = 2), and the log 3 constant's half ulp.
			r := float64(k-l)*carry.Unit*math.Abs(l1q) + 8*carry.Unit*(1+math.Abs(kh)) + 8*carry.Unit
			ts = append(ts, term{th, tl, r})
			M = math.Max(M, th)
		}
		if len(ts) == 0 {
			return 0
		}
		var s, e float64
		for _, t := range ts {
			d := (t.h - M) + t.l // error u |t.h - M| + u |d|
			if d < -745 {
				continue
			}
			x := math.Exp(d)
			s += x
			e += x * (t.r + 2*carry.Unit*math.Abs(t.h-M) + 4*carry.Unit)
		}
		rel := e/s + float64(len(ts)+2)*carry.Unit
		ls := M + math.Log(s) + 2*rel + 2*carry.Unit*math.Abs(M+math.Log(s))
		return carry.RoundUp(log1pOfExp(ls), 4*carry.Unit)
	}
	var num float64
	if frac == 0 {
		num = cgf(loOrd)
	} else {
		num = carry.RoundUp(frac*cgf(hiOrd)+(1-frac)*cgf(loOrd), 4*carry.Unit)
	}
	if alpha <= 2 {
		return num, nil
	}
	return carry.RoundUp(num/(alpha-1), 2*carry.Unit), nil
}

// ceilRel returns a value not below v(1 + rel) for v > 0 and not below
// v(1 - rel) for v < 0: v moved up by rel of its size, rounded up.
func ceilRel(v, rel float64) float64 {
	if v < 0 {
		return math.Nextafter(v*(1-rel), math.Inf(1))
	}
	return carry.RoundUp(v, rel)
}
