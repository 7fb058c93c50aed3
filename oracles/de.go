package oracles

// Double-exponential (DE) quadrature in big.Float.
//
// Two rules are provided:
//
//   - tanh-sinh on a finite interval [a, b]:
//     z = c + r tanh(pi/2 sinh t), c = (a+b)/2, r = (b-a)/2,
//     dz = r (pi/2) cosh t / cosh^2(pi/2 sinh t) dt;
//   - exp-sinh on a half-line [a, +inf):
//     z = a + s exp(pi/2 sinh t), dz = s (pi/2) cosh t exp(pi/2 sinh t) dt,
//     with a user scale s.
//
// The transformed integral over t in R is done by the trapezoidal rule with
// step h = 2^-k. Level k+1 reuses all nodes of level k and adds the odd
// multiples of 2^-(k+1), so going one level deeper costs as many new
// evaluations as all previous levels together. For an integrand analytic in
// a strip around the interval the error of level k decreases like
// exp(-c 2^k): each level roughly doubles the number of correct digits.
//
// Error estimate and stopping rule. Let d_k = |S_k - S_{k-1}| and
// l_k = log(d_k / scale) (scale = magnitude of the whole integral); d_k is
// (asymptotically) the error of S_{k-1}, so it grossly overestimates the
// error of S_k. For DE the number of correct digits grows by a factor
// r_k = l_k / l_{k-1} per level; on our integrands we measured r between
// 1.65 and 2.5 once past the first levels. The error of S_k is therefore
// estimated by E_k = scale exp(deRate * l_k) with deRate = 1.5, used only
// when r_k >= deRate (the sequence is in that fast regime). A piece is
// accepted at the first level k >= deMinLevel with
//
//	d_k <= tol, or
//	l_k <= deRate l_{k-1} < 0 and E_k <= tol;
//
// it fails if no level up to deMaxLevel meets that. The estimate reported
// is min(d_k, E_k). (Bailey's estimate l_k^2/l_{k-1} was tried and found
// optimistic by up to e^40 on a piece whose rate dropped from 2.2 to 1.7.)
//
// Nodes near the ends of the interval are stored as their distance to the
// end (delta = 1 - |tanh(...)|), so no precision is lost there; the t-range
// is cut where the weight drops below 2^-(prec+40).

import (
	"fmt"
	"math"
	"math/big"
	"sync"
)

type deRule int

const (
	ruleTanhSinh deRule = iota
	ruleExpSinh
)

const (
	deMinLevel = 3  // first level whose difference may stop a piece (h = 1/8)
	deMaxLevel = 10 // h = 1/1024; ~ 10^4 nodes per piece at most
	deRate     = 1.5
	// expSinhRight caps z - a at s*expSinhMaxScaled on the exp-sinh rule;
	// callers must choose s so that the integrand is negligible beyond it.
	expSinhMaxScaled = 1e4
)

// deNode is one abscissa/weight pair of the transformed rule.
// tanh-sinh: z = a + r*off (fromB false) or z = b - r*off (fromB true).
// exp-sinh: z = a + s*off.
type deNode struct {
	off, w *big.Float
	lw     float64 // log(w), to skip negligible nodes cheaply
	fromB  bool
}

type deTable struct {
	mu     sync.Mutex
	prec   uint
	rule   deRule
	levels [][]deNode
}

var deTables sync.Map // key deKey -> *deTable

type deKey struct {
	rule deRule
	prec uint
}

// getDETable returns the node table for working precision prec, shared by
// all precisions up to the next multiple of 64 bits (building a table
// costs a few exp per node, so one per distinct prec would dominate).
func getDETable(rule deRule, prec uint) *deTable {
	prec = (prec + 63) &^ 63
	k := deKey{rule, prec}
	if v, ok := deTables.Load(k); ok {
		return v.(*deTable)
	}
	v, _ := deTables.LoadOrStore(k, &deTable{prec: prec, rule: rule})
	return v.(*deTable)
}

// level returns the nodes that level k adds (level 0: t = 0, +-1, +-2, ...).
func (tb *deTable) level(k int) []deNode {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for len(tb.levels) <= k {
		tb.levels = append(tb.levels, tb.build(len(tb.levels)))
	}
	return tb.levels[k]
}

// logOf returns log|x| in float64 without underflow for tiny x.
func logOf(x *big.Float) float64 {
	if x.Sign() == 0 {
		return math.Inf(-1)
	}
	m := new(big.Float)
	e := x.MantExp(m)
	mf, _ := m.Float64()
	return math.Log(math.Abs(mf)) + float64(e)*math.Ln2
}

func (tb *deTable) build(k int) []deNode {
	p := tb.prec + 32
	h := math.Ldexp(1, -k)
	var ts []float64 // t > 0 only; t = 0 handled separately at level 0
	var out []deNode
	start, stride := h, 2*h
	if k == 0 {
		start, stride = 1, 1
	}
	// Cut-offs in t (float64 is plenty to choose them).
	cut := float64(tb.prec+40) * math.Ln2
	var tmaxL, tmaxR float64
	switch tb.rule {
	case ruleTanhSinh:
		// weight ~ pi cosh t exp(-pi sinh t) < 2^-(prec+40)
		tmaxL = math.Asinh((cut + 8) / math.Pi)
		tmaxL += 0.1 * math.Log(tmaxL+1) // the cosh factor
		tmaxR = tmaxL
	case ruleExpSinh:
		tmaxL = math.Asinh((cut + 8) / (math.Pi / 2))
		tmaxL += 0.1 * math.Log(tmaxL+1)
		tmaxR = math.Asinh(math.Log(expSinhMaxScaled) / (math.Pi / 2))
	}
	tmax := math.Max(tmaxL, tmaxR)
	for t := start; t <= tmax; t += stride {
		ts = append(ts, t)
	}
	piB := pi(p)
	halfPi := newF(p).Quo(piB, fint(2, p))
	one := fint(1, p)
	if k == 0 {
		switch tb.rule {
		case ruleTanhSinh:
			out = append(out, deNode{off: fint(1, p).SetPrec(tb.prec), w: newF(tb.prec).Set(halfPi)})
		case ruleExpSinh:
			out = append(out, deNode{off: fint(1, tb.prec), w: newF(tb.prec).Set(halfPi)})
		}
	}
	for _, t := range ts {
		tB := fl(t, p)
		et := expBig(tB, p)
		inv := newF(p).Quo(one, et)
		sh := newF(p).Sub(et, inv)
		sh.Quo(sh, fint(2, p)) // sinh t
		ch := newF(p).Add(et, inv)
		ch.Quo(ch, fint(2, p)) // cosh t
		switch tb.rule {
		case ruleTanhSinh:
			// E = exp(-pi sinh t); delta = 2E/(1+E); w = 2 pi cosh t E/(1+E)^2
			if t > tmaxL {
				continue
			}
			arg := newF(p).Mul(piB, sh)
			arg.Neg(arg)
			E := expBig(arg, p)
			onePE := newF(p).Add(one, E)
			delta := newF(p).Mul(E, fint(2, p))
			delta.Quo(delta, onePE)
			w := newF(p).Mul(piB, ch)
			w.Mul(w, fint(2, p))
			w.Mul(w, E)
			w.Quo(w, onePE)
			w.Quo(w, onePE)
			delta.SetPrec(tb.prec)
			w.SetPrec(tb.prec)
			out = append(out, deNode{off: delta, w: w}, deNode{off: delta, w: w, fromB: true})
		case ruleExpSinh:
			// g = exp(pi/2 sinh t); right node off g, weight pi/2 cosh t g;
			// left node (-t) off 1/g, weight pi/2 cosh t / g.
			arg := newF(p).Mul(halfPi, sh)
			g := expBig(arg, p)
			wc := newF(p).Mul(halfPi, ch)
			if t <= tmaxR {
				w := newF(p).Mul(wc, g)
				out = append(out, deNode{off: newF(tb.prec).Set(g), w: w.SetPrec(tb.prec)})
			}
			if t <= tmaxL {
				gi := newF(p).Quo(one, g)
				w := newF(p).Mul(wc, gi)
				out = append(out, deNode{off: gi.SetPrec(tb.prec), w: w.SetPrec(tb.prec)})
			}
		}
	}
	for i := range out {
		out[i].lw = logOf(out[i].w)
	}
	return out
}

// dePiece is the running state of one DE integral.
type dePiece struct {
	rule  deRule
	a, b  *big.Float // b unused for exp-sinh
	neg   bool       // exp-sinh on (-inf, a]: z = a - s*off
	scale *big.Float // r = (b-a)/2 for tanh-sinh, s for exp-sinh
	prec  uint

	sum   *big.Float // sum of w*f over all nodes so far
	level int        // last level added; -1 before the first
	S     *big.Float // scale * h * sum at the current level
	prevS *big.Float
	err   *big.Float // d_k = |S - prevS| (nil before level 1)
	prevD float64    // log d_{k-1} (NaN if unknown)
	est   float64    // error estimate of S (float64)
	evals int
	bad   bool // the integrand returned +-Inf at some node
}

func newTanhSinhPiece(a, b *big.Float, prec uint) *dePiece {
	r := newF(prec).Sub(b, a)
	r.Quo(r, fint(2, prec))
	return &dePiece{rule: ruleTanhSinh, a: a, b: b, scale: r, prec: prec, sum: newF(prec), level: -1}
}

// newExpSinhPiece integrates over [a, +inf) (neg false) or (-inf, a]
// (neg true) with scale s > 0.
func newExpSinhPiece(a, s *big.Float, neg bool, prec uint) *dePiece {
	return &dePiece{rule: ruleExpSinh, a: a, neg: neg, scale: s, prec: prec, sum: newF(prec), level: -1}
}

// next adds the nodes of the next level. f receives the abscissa and the
// log of the node's full weight (scale * h * w); it may return nil for a
// node whose contribution it judges negligible (or exactly zero).
func (pc *dePiece) next(f func(z *big.Float, logw float64) *big.Float) {
	k := pc.level + 1
	tb := getDETable(pc.rule, pc.prec)
	nodes := tb.level(k)
	z := newF(pc.prec)
	t := newF(pc.prec)
	lscale := logOf(pc.scale) - float64(k)*math.Ln2
	for i := range nodes {
		nd := &nodes[i]
		t.Mul(pc.scale, nd.off)
		if pc.neg {
			subTo(z, pc.a, t)
		} else if nd.fromB {
			subTo(z, pc.b, t)
		} else {
			addTo(z, pc.a, t)
		}
		v := f(z, nd.lw+lscale)
		pc.evals++
		if v == nil || v.Sign() == 0 {
			continue
		}
		if v.IsInf() {
			pc.bad = true // reported by the caller; never summed
			continue
		}
		t.Mul(v, nd.w)
		addTo(pc.sum, pc.sum, t)
	}
	pc.level = k
	S := newF(pc.prec).Mul(pc.sum, pc.scale)
	S.SetMantExp(S, -k) // times h = 2^-k
	pc.prevS, pc.S = pc.S, S
	if pc.err != nil {
		pc.prevD = logOf(pc.err)
	} else {
		pc.prevD = math.NaN()
	}
	if pc.prevS != nil {
		pc.err = subTo(newF(pc.prec), pc.S, pc.prevS)
		pc.err.Abs(pc.err)
	}
}

// converged reports whether the piece meets the stopping rule for the
// absolute tolerance exp(logTol); logScale is the log of the magnitude of
// the whole integral (for the half-the-digits condition). On success it
// sets pc.est.
func (pc *dePiece) converged(logTol, logScale float64) bool {
	if pc.level < deMinLevel || pc.err == nil {
		return false
	}
	d := logOf(pc.err)
	lk, lk1 := d-logScale, pc.prevD-logScale
	fast := !math.IsNaN(lk1) && lk1 < 0 && lk <= deRate*lk1
	est := d
	if fast {
		est = math.Min(d, logScale+deRate*lk)
	}
	if est <= logTol {
		pc.est = math.Exp(est)
		return true
	}
	return false
}

// deIntegrate integrates f over the union of pieces to a relative error
// estimate of 2^-tb (relative to the sum of the pieces' magnitudes, then,
// if the pieces cancel, to the magnitude of the total). It returns the sum,
// the relative error estimate and the statistics, or ErrNotConverged.
func deIntegrate(pieces []*dePiece, f func(z *big.Float, logw float64) *big.Float, tb uint) (*big.Float, QuadStats, error) {
	var st QuadStats
	st.Pieces = len(pieces)
	for _, pc := range pieces {
		for pc.level < deMinLevel {
			pc.next(f)
		}
	}
	mag := math.Inf(-1) // log of sum |S_piece| (coarse)
	for _, pc := range pieces {
		mag = logaddexp(mag, logOf(pc.S))
	}
	if math.IsInf(mag, -1) {
		return newF(pieces[0].prec), st, nil // integrand vanishes at all nodes
	}
	var sum *big.Float
	for attempt := 0; attempt < 3; attempt++ {
		logTol := mag - float64(tb)*math.Ln2 - math.Log(float64(len(pieces)))
		sum = newF(pieces[0].prec)
		errSum := 0.0
		for _, pc := range pieces {
			ok := pc.converged(logTol, mag)
			for !ok && pc.level < deMaxLevel {
				pc.next(f)
				ok = pc.converged(logTol, mag)
			}
			if pc.bad {
				return nil, st, fmt.Errorf("integrand overflowed: %w", ErrUnsupported)
			}
			if !ok {
				return nil, st, ErrNotConverged
			}
			addTo(sum, sum, pc.S)
			errSum += pc.est
			if pc.level > st.MaxLevel {
				st.MaxLevel = pc.level
			}
		}
		for _, pc := range pieces {
			st.Evals += pc.evals
		}
		ls := logOf(sum)
		st.RelErr = errSum / math.Exp(ls)
		if st.RelErr <= math.Ldexp(1, -int(tb)) || math.IsInf(ls, -1) {
			return sum, st, nil
		}
		mag = ls // the pieces cancel: tighten to the total's magnitude
		st.Evals = 0
	}
	return nil, st, ErrNotConverged
}
