package sampled

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// rhoPlan holds, for one piece and one ellipse parameter rho, the
// order-independent parts of the node-count bound.
type rhoPlan struct {
	ok                  bool
	mlo, mhi, lcos      float64 // log m at the ellipse's real ends; log cos of its height
	lo, lqe, lconst, l2 float64 // real end; log(q (e^hi + 1)); log(64/15/(1-rho^-2)); 2 log rho
}

// pieceInfo is a piece's planning data: its skip test's parts and rhoPlans.
type pieceInfo struct {
	xa, lma, lmb, lqb float64
	rho               []rhoPlan
	hint              int // where the last scan of rho ended
}

// LaplaceCurve is what a curve of the Poisson-sampled Laplace mechanism
// shares between orders: q, b, the pieces and the node data per (piece,
// rule size). It is not safe for concurrent use.
type LaplaceCurve struct {
	q, b, c float64
	np      int
	hw      float64
	pre     float64 // log(2 hw e^(-c/2)/4): the pieces' common factor
	logNP   float64
	nodes   [][]*lapNodes // by piece and index in glSizes
	info    []pieceInfo
	tails   lapNodes // the two tails as nodes: weights 1/2 and e^-c/2
	// tailLower prepares the tails' lower bounds on h.
	tailLower [2]xmath.HLower
	// skipScreen counts the orders left before the backward direction's
	// screening is tried again (see At).
	skipScreen int
	bInf       float64 // backInf's value, once computed
}

// minQuadratureScale is the smallest b the quadrature takes (as in the
// reference): its pieces grow as 1/b. Below it At returns a bound.
const minQuadratureScale = 1e-3

// NewLaplaceCurve prepares the curve of q in [0, 1] and b > 0 finite.
func NewLaplaceCurve(q, b float64) *LaplaceCurve {
	c := 1 / b
	if b < minQuadratureScale {
		return &LaplaceCurve{q: q, b: b, c: c}
	}
	np := max(1, int(math.Ceil(c/2)))
	lc := &LaplaceCurve{q: q, b: b, c: c, np: np, hw: c / float64(np), nodes: make([][]*lapNodes, np)}
	// c = 1/b is rounded (2u c absolute), which moves the tails' t by
	// e^c/|expm1(c)| times that, relative.
	// 1 + t = (1-q) + q e^-c on the left, 1-q exact for q >= 1/2 (the
	// only case where t < -1/2), e^-c moved by 2u c relative.
	lc.tails.appendNode(-math.Ln2, q*math.Expm1(-c), 6*errfloat.Unit+math.Exp(-c)/math.Abs(math.Expm1(-c))*2*errfloat.Unit*c,
		(1-q)+q*math.Exp(-c), 8*errfloat.Unit+2*errfloat.Unit*c)
	lc.tails.appendNode(-math.Ln2-c, q*math.Expm1(c), 6*errfloat.Unit+math.Exp(c)/math.Abs(math.Expm1(c))*2*errfloat.Unit*c, 0, 0)
	lc.tails.lwErr = 2 * errfloat.Unit * (c + 1) // -ln 2 - c rounded
	lc.pre = math.Log(0.25) - c/2 + math.Log(2*lc.hw)
	lc.logNP = math.Log(float64(np))
	lc.tailLower[0], lc.tailLower[1] = xmath.LaplaceTails(q, c)
	hw := lc.hw
	for i := range np {
		xa := -c + float64(2*i)*hw
		xb := xa + 2*hw
		pi := pieceInfo{xa: xa, lma: xmath.LogMix(q, xa), lmb: xmath.LogMix(q, xb), lqb: math.Log1p(q * (math.Exp(xb) + 1))}
		for rho := 1.1; ; rho *= 1.1 {
			bb := hw * (rho - 1/rho) / 2
			if bb > 3 || rho > 1e6 { // 3 < pi: the singularities are at Im u = ±pi
				break
			}
			D := hw * ((rho+1/rho)/2 - 1)
			lo, hi := xa-D, xb+D
			pi.rho = append(pi.rho, rhoPlan{true, xmath.LogMix(q, lo), xmath.LogMix(q, hi), math.Log(math.Cos(bb / 2)), lo,
				math.Log(q*(math.Exp(hi)+1) + 1e-300), math.Log(64 / 15 / (1 - 1/(rho*rho))), 2 * math.Log(rho)})
		}
		lc.info = append(lc.info, pi)
	}
	return lc
}

// piece returns the nodes of piece i for the rule glSizes[k].
func (lc *LaplaceCurve) piece(i, k int) *lapNodes {
	if lc.nodes[i] == nil {
		lc.nodes[i] = make([]*lapNodes, len(glSizes))
	}
	if p := lc.nodes[i][k]; p != nil {
		return p
	}
	n := glSizes[k]
	r := glRule(n)
	p := &lapNodes{}
	block := make([]float64, 8*n) // one allocation for the eight columns
	for c, s := range []*[]float64{&p.lw, &p.w, &p.t, &p.dt, &p.L, &p.l1, &p.dL, &p.dl1} {
		*s = block[c*n : (c+1)*n : (c+1)*n]
	}
	uc := -lc.c + float64(2*i+1)*lc.hw
	pre := math.Log(0.25*lc.hw) - lc.c/2
	// lw = pre + log w_j - u/2: pre's, u's and the sums' roundings, with
	// |log w_j| < 12 for every rule size used (w_j > 1e-5).
	p.lwErr = 4 * errfloat.Unit * (math.Abs(pre) + math.Abs(uc)/2 + lc.hw/2 + 12)
	eu := 2 * errfloat.Unit * (math.Abs(uc) + lc.hw) // a node's rounding
	for j := range r.x {
		for si, s := range [2]float64{-1, 1} {
			u := uc + s*lc.hw*r.x[j]
			em1 := math.Expm1(u)
			e := 1 + em1 // within 2 ulps where e^u >= 1/2, else an exponential
			if u < -0.69 {
				e = math.Exp(u)
			}
			dt := 6*errfloat.Unit + e/math.Abs(em1)*eu
			p.setNode(2*j+si, pre+r.lw[j]-u/2, lc.q*em1, dt, (1-lc.q)+lc.q*e, 8*errfloat.Unit+eu)
		}
	}
	lc.nodes[i][k] = p
	return p
}

// moment returns an upper bound on log of E_mu0[h(t)] (the log of S), or
// ok = false when the method cannot bound it.
func (lc *LaplaceCurve) moment(kind int, g float64, tbits int) (float64, bool) {
	c := lc.c
	logSL := logAddExpLower(-math.Ln2+lc.tailLower[0].Log(xmath.MomentKind(kind), g), -math.Ln2-c+lc.tailLower[1].Log(xmath.MomentKind(kind), g))
	gb := g
	switch kind {
	case kindKLF:
		gb = 2
	case kindKLB:
		gb = -1
	}
	lgb := math.Log(math.Abs(gb))
	lgb1 := max(0, lgb)
	pre := lc.pre
	target := float64(tbits)*math.Ln2 + lc.logNP + 3 - logSL + pre
	extraK := 3 + 2*math.Ln2 // margin, and the two log-add-exps bounded by max + ln 2
	if kind != kindPow {
		extraK += math.Log(3 + math.Pi) // |m log m| <= |m|^2 + 1 + pi |m|, and the like
	}
	// y = g log1p(t) is monotone in t, and the tails hold the extreme t:
	// if neither exceeds linMax, every term is summed in linear scale.
	yTail := max(g*lc.tails.L[0], g*lc.tails.L[1])
	linear := c <= 300 && (kind != kindPow || yTail <= linMax)
	// The tails hold the extreme t, so also the extreme y = g L.
	usePowers := kind == kindPow && yTail > 1
	var S, E float64
	var acc lsum
	n := 0
	addNodes := func(p *lapNodes) bool {
		if linear && kind == kindPow && !near1(g) {
			s, e, ok := p.sumPow(g, usePowers)
			S += s
			E += e
			n += len(p.t)
			return ok
		}
		for j := range p.t {
			n++
			if linear {
				h, e, ok := hLin(kind, g, p.t[j], p.dt[j], p.L[j], p.l1[j], p.dL[j], p.dl1[j])
				if !ok {
					return false
				}
				w := p.w[j]
				S += w * h
				E += w * (e + h*(16*errfloat.Unit+4*errfloat.Unit*math.Abs(p.lw[j])+p.lwErr))
				continue
			}
			lh, e, ok := hLog(kind, g, p.t[j], p.dt[j], p.L[j], p.l1[j], p.dL[j], p.dl1[j])
			if !ok {
				return false
			}
			acc.add(p.lw[j]+lh, e+16*errfloat.Unit+4*errfloat.Unit*math.Abs(p.lw[j])+p.lwErr)
		}
		return true
	}
	if !addNodes(&lc.tails) {
		return 0, false
	}
	for i := range lc.np {
		pi := &lc.info[i]
		skip := -pi.xa/2 + max(0, gb*pi.lma, gb*pi.lmb) + lgb1 + pi.lqb + 2
		if skip+pre < logSL-float64(tbits)*math.Ln2-10 {
			continue
		}
		// Any rho gives a valid bound, so the scan (plain comparisons: it
		// runs per order and piece) starts where the previous order's
		// ended, walks towards smaller counts and stops once the count
		// stops falling or reaches the smallest rule.
		count := func(k int) float64 {
			rp := &pi.rho[k]
			lM := gb * rp.mhi // m is increasing: g > 0 peaks at the right end
			if gb < 0 {
				lM = gb * (rp.mlo + rp.lcos) // |1+t|^g <= (cos(b/2) m)^g for g < 0
			}
			a := max(0, lgb+rp.lqe, lM)
			return (target - rp.lo/2 + a + extraK + rp.lconst) / rp.l2
		}
		if len(pi.rho) == 0 {
			return 0, false
		}
		k := min(pi.hint, len(pi.rho)-1)
		best := count(k)
		step := 1
		if k+1 >= len(pi.rho) || count(k+1) >= best {
			step = -1
		}
		for best > 8 {
			j := k + step
			if j < 0 || j >= len(pi.rho) {
				break
			}
			v := count(j)
			if !(v < best) {
				break
			}
			k, best = j, v
		}
		pi.hint = k
		nn, ok := roundRule(max(8, best))
		if !ok {
			return 0, false
		}
		if !addNodes(lc.piece(i, nn)) {
			return 0, false
		}
	}
	// Quadrature truncation: at most 2^-tbits of the sum (with the lower
	// bound logSL standing for the sum): relative 2^(2-tbits) with margin.
	var ls float64
	if linear {
		if !(S > 0) {
			return 0, false
		}
		rel := E/S + float64(n+2)*errfloat.Unit + math.Ldexp(1, 2-tbits)
		ls = math.Log(S) + 2*rel + 2*errfloat.Unit
	} else {
		ls = acc.logUp(math.Ldexp(1, 2-tbits))
	}
	if ls < logSL-1e-3 {
		return 0, false // below a proven lower bound: not to be trusted
	}
	return ls, true
}

// logAddExpLower returns a lower bound on log(e^a + e^b) (-Inf for a zero
// term): the larger alone where the smaller adds under e^-36 of it.
func logAddExpLower(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if b < a-36 {
		return a
	}
	return xmath.LogAddExp(a, b)
}

// backInf returns an upper bound on the backward direction at alpha =
// +Inf, -log(1 - q + q e^(-1/b)), which bounds it at every order.
func (lc *LaplaceCurve) backInf() float64 {
	if lc.bInf == 0 {
		q, c := lc.q, lc.c
		var m errfloat.Val // log of 1 - q + q e^-c
		if q*-math.Expm1(-c) < 0.5 {
			m = errfloat.Log1p(errfloat.Mul(errfloat.Exact(q), errfloat.Expm1(errfloat.Exact(-c))))
		} else {
			// 1 + q expm1(-c) cancels: (1-q) + q e^-c, both terms >= 0
			// and 1-q exact (q >= 1/2); xmath.LogMix's split, with error
			// bounds. (Found by FuzzSampled: at q = 1 -
			// 2^-53, b = 0.0261 the interval of q expm1(-c) reached -1,
			// and the bound was +Inf at every order above 2.)
			m = errfloat.Log(errfloat.Add(errfloat.Exact(1-q), errfloat.Mul(errfloat.Exact(q), errfloat.Exp(errfloat.Exact(-c)))))
		}
		lc.bInf = errfloat.RoundUp(errfloat.Neg(m).Up(), (c+2)*errfloat.Unit+4*errfloat.Unit) // as infValue
	}
	return lc.bInf
}

// direction returns an upper bound on one direction of order alpha, or
// ok = false.
func (lc *LaplaceCurve) direction(fwd bool, alpha float64, tbits int) (float64, bool) {
	kind, g := directionKind(fwd, alpha)
	ls, ok := lc.moment(kind, g, tbits)
	if !ok {
		return 0, false
	}
	var v float64
	if alpha == 1 {
		v = math.Exp(ls)
	} else {
		v = log1pOfExp(ls) / (alpha - 1)
	}
	return errfloat.RoundUp(v, 16*errfloat.Unit), true
}

// At is fast.SampledLaplace at the order alpha >= 1 (or +Inf), with the
// nodes (and powers, and the screening's state) of the curve's earlier
// orders: an upper bound either way, within the error bounds of the
// value a fresh curve gives.
func (lc *LaplaceCurve) At(alpha float64) float64 {
	q, b := lc.q, lc.b
	switch {
	case q == 0:
		return 0
	case q == 1:
		v := Laplace(b, alpha)
		return v
	case math.IsInf(alpha, 1):
		return lc.infValue()
	case b < minQuadratureScale:
		// Both are upper bounds at every order: the unsampled mechanism's
		// value (sampling never increases RDP) and the order-infinity
		// value (RDP is non-decreasing in the order). (Found by
		// FuzzSampled: b = 7e-15 asked for 7e13 pieces, and hung.)
		v := Laplace(b, alpha)
		return min(v, lc.infValue())
	}
	f, okf := lc.direction(true, alpha, fineBits)
	if okf && f >= lc.backInf() {
		// The backward direction is at most its order-infinity value
		// (Rényi divergences do not decrease with the order).
		return f
	}
	if okf && lc.skipScreen == 0 {
		// A coarse upper bound on the backward direction (half the nodes)
		// settles the maximum whenever it is below the forward one. Where
		// it fails (small q: the two directions agree to first order), the
		// next few orders of a curve go straight to the fine evaluation.
		if bc, ok := lc.direction(false, alpha, coarseBits); ok && bc <= f {
			return f
		}
		lc.skipScreen = 8
	} else if lc.skipScreen > 0 {
		lc.skipScreen--
	}
	bk, okb := lc.direction(false, alpha, fineBits)
	switch {
	case !okf:
		// A bound the method cannot certify falls back to bounds valid at
		// every order: the unsampled mechanism's value (sampling never
		// increases RDP) and the order-infinity value.
		v := Laplace(b, alpha)
		return min(v, lc.infValue())
	case !okb:
		// The backward direction is at most its order-infinity value and
		// at most the unsampled Laplace's (joint convexity of
		// e^((alpha-1) D)): the smaller. (Found by FuzzSampled: at q =
		// 7e-6, alpha = 141432 the Laplace alone, 0.92, stood above the
		// value at a higher order, 4e-6; at q = 1 - 2^-53, b = 0.1044,
		// alpha = 4914 the order-infinity value alone stood above the
		// Laplace's.)
		v := Laplace(b, alpha)
		return math.Max(f, min(v, lc.backInf()))
	}
	return math.Max(f, bk)
}

// infValue returns an upper bound on the value at alpha = +Inf,
// max(log(1 - q + q e^(1/b)), -log(1 - q + q e^(-1/b))).
func (lc *LaplaceCurve) infValue() float64 {
	q, c := lc.q, lc.c
	var f errfloat.Val
	if c <= 700 {
		f = errfloat.Log1p(errfloat.Mul(errfloat.Exact(q), errfloat.Expm1(errfloat.Exact(c))))
	} else {
		// e^c overflows float64 (b below 1/709.8): log(1 - q + q e^c)
		// = c + log(q + (1-q) e^-c), every term positive. (Found by
		// FuzzSampled: b = 8.7e-4 gave +Inf, above the Laplace's 1152.)
		f = errfloat.Add(errfloat.Exact(c), errfloat.Log(errfloat.Add(errfloat.Exact(q), errfloat.Mul(errfloat.Sub(errfloat.Exact(1), errfloat.Exact(q)), errfloat.Exp(errfloat.Exact(-c))))))
	}
	// c = 1/b is rounded (relative u): that moves log1p(q expm1(c)) by
	// at most c e^c/expm1(c) u <= (c+1) u of itself, and the backward
	// value by at most u of itself.
	return math.Max(errfloat.RoundUp(f.Up(), (c+2)*errfloat.Unit+4*errfloat.Unit), lc.backInf())
}

// fineBits is the quadrature's truncation target (2^-fineBits of the sum:
// the bound it adds, 2^-50 relative, is far below the 1e-12 promised, and
// 60 bits cost 9% more instructions per curve); coarseBits the target of
// the backward direction's screening bound.
const (
	fineBits   = 52
	coarseBits = 20
)
