package sampled

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/divergence"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// Discrete is fast.SampledDivergence for valid arguments (q in [0, 1],
// probability vectors of one length with finite entries >= 0 summing to
// 1 within the check's tolerance, alpha >= 1 or +Inf), by the moments of
// terms.go with the entries as nodes. ok is false where the caller is to
// return the unsampled value max(D(P||Q), D(Q||P)) instead: at q = 1, and
// where the bound cannot be certified (the defect cancelling the sum).
func Discrete(q float64, distP, distQ []float64, alpha float64) (v float64, ok bool) {
	if q == 0 {
		return 0, true
	}
	if q == 1 {
		return 0, false
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
		dt := 3 * errfloat.Unit
		if errfloat.NearRatio(P, Q) {
			dt = 2 * errfloat.Unit // P - Q exact (Sterbenz)
		}
		if math.Abs(d) < 0x1p-1020 {
			dt += errfloat.TinyErr / math.Abs(d)
		}
		// 1 + t = ((1-q) Q + q P)/Q, 1-q exact where it matters (t < -1/2
		// needs q > 1/2): four roundings.
		nodes.appendNode(math.Log(Q), q*(d/Q), dt, ((1-q)*Q+q*P)/Q, 5*errfloat.Unit)
		nodes.w[len(nodes.w)-1] = Q // exact weight
	}
	if outside {
		return math.Inf(1), true
	}
	dQ := divergence.SumDefect(distQ)
	dP := divergence.SumDefect(pIn)
	if same {
		return 0, true // every ratio exactly 1: the mixture is Q (see the reference)
	}
	if math.IsInf(alpha, 1) {
		// log max (1+t) and -log min (1+t); an entry with t = 0 counts as 0.
		f, b := math.Inf(-1), math.Inf(-1)
		if len(nodes.t) < len(pIn) {
			f, b = 0, 0
		}
		for j, t := range nodes.t {
			L := errfloat.Log1p(errfloat.Val{V: t, E: math.Abs(t) * nodes.dt[j]})
			f = math.Max(f, L.Up())
			b = math.Max(b, errfloat.Neg(L).Up())
		}
		return math.Max(f, b), true
	}
	best := math.Inf(-1)
	for _, fwd := range []bool{true, false} {
		kind, g := directionKind(fwd, alpha)
		// The defect X = (sum Q - 1) + g lin, lin = q (dP - dQ) (KL: +-lin).
		lin := errfloat.Mul(errfloat.Exact(q), errfloat.Sub(dP, dQ))
		var X errfloat.Val
		switch kind {
		case kindKLF:
			X = lin
		case kindKLB:
			X = errfloat.Neg(lin)
		default:
			X = errfloat.Add(dQ, errfloat.Mul(errfloat.Exact(g), lin))
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
				E += nodes.w[j] * (e + 2*errfloat.Unit*h)
				continue
			}
			lh, e, ok := hLog(kind, g, a, nodes.dt[j], nodes.L[j], nodes.l1[j], nodes.dL[j], nodes.dl1[j])
			if !ok {
				return 0, false
			}
			acc.add(nodes.lw[j]+lh, e+4*errfloat.Unit*math.Abs(nodes.lw[j]))
		}
		var ls float64
		if linear {
			// The total may be negative: entries taken exactly need not
			// sum to 1 (see the reference). Its upper bound is used as is.
			tot := S + X.V
			err := E + X.E + float64(len(nodes.t)+2)*errfloat.Unit*(S+math.Abs(X.V))
			up := tot + 2*err + 2*errfloat.Unit*math.Abs(tot)
			if !(up > -0.5) {
				return 0, false
			}
			var v float64
			if alpha == 1 {
				v = up
			} else {
				v = math.Log1p(up) / (alpha - 1)
			}
			best = math.Max(best, ceilRel(v, 8*errfloat.Unit))
			continue
		} else {
			// Here the sum is beyond e^40 the defect's size: add |X| up.
			ls = acc.logUp(0)
			ls = xmath.LogAddExp(ls, math.Log(math.Abs(X.V)+X.E+1e-300)) + 4*errfloat.Unit*math.Abs(ls)
		}
		var v float64
		if alpha == 1 {
			v = math.Exp(ls)
		} else {
			v = log1pOfExp(ls) / (alpha - 1)
		}
		best = math.Max(best, errfloat.RoundUp(v, 16*errfloat.Unit))
	}
	// Sums that miss 1 in the last bits may make the given entries' exact
	// value negative (reference.SampledDivergence returns it); as in
	// fast.Divergence, 0 stands for it: still not below it, and no negative RDP.
	return max(best, 0), true
}

// ceilRel returns a value not below v(1 + rel) for v > 0 and not below
// v(1 - rel) for v < 0: v moved up by rel of its size, rounded up.
func ceilRel(v, rel float64) float64 {
	if v < 0 {
		return math.Nextafter(v*(1-rel), math.Inf(1))
	}
	return errfloat.RoundUp(v, rel)
}
