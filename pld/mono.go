package pld

import (
	"math"
)

// monoSpec is one direction of a mechanism whose privacy loss increases
// with a real outcome x (a decreasing one is given reflected, x -> -x):
// its continuous part on [xa, xb] (xa may be -Inf, xb +Inf) and its atoms.
// monoCells discretises it for any such mechanism: the mixtures of
// Gaussians (mixture.go) and the sampled Laplace mechanism (laplace.go).
type monoSpec struct {
	name   string
	xa, xb float64
	// loss returns L(x) in float64 and a certified bound on its error.
	loss func(x float64) (l, e float64)
	// pMass and qMass return the P- and Q-mass of [a, b] within [xa, xb]
	// (a may be -Inf, b +Inf) with certified error bounds.
	pMass, qMass func(a, b float64) sc
	// cuts returns where the continuous part may be cut for the tilt
	// lambda and a tail budget (the mass beyond is a tail, computed with
	// its bound); the grid covers the losses between.
	cuts  func(lambda, tail float64) (xl, xr float64)
	atoms []atom
	mgf   func(lambda float64) float64
	// supLoss bounds the loss as x -> +Inf (used when xb = +Inf; +Inf
	// when unbounded)
	supLoss float64
}

func (m *monoSpec) key() string                   { return m.name }
func (m *monoSpec) logMGF(lambda float64) float64 { return m.mgf(lambda) }

// maxLoss is the largest of the atoms' bounds and the continuous part's:
// its bound at xb when that is finite, else the spec's sup (supLoss).
func (m *monoSpec) maxLoss() float64 {
	v := m.supLoss
	if !math.IsInf(m.xb, 1) {
		l, e := m.loss(m.xb)
		v = math.Nextafter(l+e, inf)
	}
	for _, a := range m.atoms {
		v = math.Max(v, math.Nextafter(a.l+a.le, inf))
	}
	return v
}

// boundary is a grid point's outcome, certified: L(x) < g for x < lo
// and L(x) >= g... more precisely L(lo) < g <= L(hi), so the outcome
// where the loss crosses g lies in [lo, hi] (lo = hi only at an end of
// the range).
type boundary struct{ lo, hi float64 }

// cross returns the certified boundary of g in [xl, xr] (an end when the
// loss's bound there straddles g). step is a guess of the distance from
// x0, an outcome with L(x0) < g (or xl), to the crossing: the root is
// bracketed by doubling it, then found by regula falsi (Illinois), with
// bisection when that stalls; then certified by stepping out until the
// loss's bounds are below and above g.
func (m *monoSpec) cross(g, xl, xr, x0, step float64) boundary {
	f := func(x float64) float64 { l, _ := m.loss(x); return l - g }
	lo, hi := math.Max(x0, xl), xr
	flo := f(lo)
	if flo < 0 && step > 0 {
		for d := step; ; d *= 2 {
			x := lo + d
			if !(x < xr) {
				break
			}
			if fx := f(x); fx >= 0 {
				hi = x
				break
			} else {
				lo, flo = x, fx
			}
		}
	}
	fhi := f(hi)
	if flo >= 0 {
		hi, fhi = lo, flo
	}
	side := 0
	for i := 0; i < 200 && flo < 0 && fhi >= 0; i++ {
		if hi-lo <= 4*ulp(math.Max(math.Abs(lo), math.Abs(hi))) {
			break
		}
		var x float64
		if i%8 == 7 || math.IsInf(flo, 0) || math.IsInf(fhi, 0) {
			x = lo + (hi-lo)/2 // bisection now and then: a bound on the steps
		} else {
			x = lo + (hi-lo)*(-flo)/(fhi-flo)
		}
		if !(x > lo && x < hi) {
			x = lo + (hi-lo)/2
		}
		if fx := f(x); fx < 0 {
			lo, flo = x, fx
			if side == -1 {
				fhi /= 2
			}
			side = -1
		} else {
			hi, fhi = x, fx
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	x := hi
	below := func(x float64) bool { l, e := m.loss(x); return l+e < g }
	above := func(x float64) bool { l, e := m.loss(x); return l-e >= g }
	b := boundary{x, x}
	d := 4 * ulp(math.Max(math.Abs(x), 1))
	for b.lo = x; b.lo > xl && !below(b.lo); d *= 2 {
		b.lo = math.Max(x-d, xl)
	}
	d = 4 * ulp(math.Max(math.Abs(x), 1))
	for b.hi = x; b.hi < xr && !above(b.hi); d *= 2 {
		b.hi = math.Min(x+d, xr)
	}
	return b
}

func ulp(x float64) float64 { return math.Nextafter(x, inf) - x }

// cells discretises the step (see stepCells). The grid points g_k whose
// crossing may lie in the kept range [xl, xr] are certified (cross); the
// cell between two crossings is [hi_k, lo_(k+1)] with the P- and Q-mass
// and the surplus A = alpha - e^(g_k) beta of that interval; the crossing
// intervals [lo_k, hi_k] are the slivers (their loss is within the
// loss's error bound of g_k, at most h/4: checked), carried as step.go
// carries them. A first cell with no mass holds the first crossing's
// sliver; the P-mass below the first crossing (a cut) is the left tail,
// losses below g_(kmin+1); above the last (a cut), the right tail. The
// atoms go in their cells as atomCells puts them.
func (m *monoSpec) cells(h float64, c cut) (stepCells, error) {
	xl, xr := m.xa, m.xb
	if m.cuts != nil {
		a, b := m.cuts(c.lambda, c.tail)
		xl, xr = math.Max(xl, a), math.Min(xr, b)
	}
	var cont []cell
	var k0, leftK int
	var lt, rt sc
	if xl < xr {
		Ll, el := m.loss(xl)
		Lr, er := m.loss(xr)
		kAF, kBF := math.Ceil((Ll-el)/h), math.Floor((Lr+er)/h) // g_(kA-1) < L(xl)
		// the budget before the crossings are searched (each takes up
		// to 200 loss evaluations): a sampled Laplace of b = 0.92 at q
		// = 3.3e-7 spanned millions of cells and ran past every deadline
		if _, err := cellCount(kAF-1, kBF, c); err != nil {
			return stepCells{}, err
		}
		kA, kB := int(kAF), int(kBF)
		bs := make([]boundary, 0, max(kB-kA+1, 0))
		x0, step := xl, (xr-xl)/float64(max(kB-kA+2, 1))
		for k := kA; k <= kB; k++ {
			b := m.cross(float64(k)*h, xl, xr, x0, step)
			if _, e := m.loss(b.hi); e > h/4 {
				return stepCells{}, &precisionErr{"grid", "a cell boundary is not known to h/4"}
			}
			if len(bs) > 0 {
				step = math.Max(b.lo-x0, 0)
			}
			bs = append(bs, b)
			x0 = b.lo
		}
		// cells kA-1 .. kB: [xl, lo_kA], [hi_k, lo_(k+1)], [hi_kB, xr];
		// with a cut at xl, the first cell (cell kA-1) is the left tail and
		// holds only the sliver of crossing kA
		k0 = kA - 1
		cont = make([]cell, len(bs)+1)
		left := xl
		for i := range cont {
			right := xr
			if i < len(bs) {
				right = bs[i].lo
			}
			cl := cell{sliver: math.Inf(-1)}
			if i < len(bs) && bs[i].hi > bs[i].lo {
				cl.sliver = math.Log(m.pMass(bs[i].lo, bs[i].hi).hi())
			}
			tail := i == 0 && xl > m.xa
			if right > left && !tail {
				g := float64(k0+i) * h
				cl.alpha = m.pMass(left, right)
				cl.beta = m.qMass(left, right)
				cl.A = cl.alpha.sub(cl.beta, math.Exp(g))
				// e^g within 4u of the exact e^(g_k) (g exact)
				cl.A.err += 5 * u64 * math.Exp(g+cl.beta.ls-cl.A.ls) * (math.Abs(cl.beta.m) + cl.beta.err)
			}
			cont[i] = cl
			if i < len(bs) {
				left = bs[i].hi
			}
		}
		if xl > m.xa {
			// the tail: below the first crossing (or all of [xa, xr] when
			// no grid point is crossed), losses below g_kA
			lo := xr
			if len(bs) > 0 {
				lo = bs[0].lo
			}
			lt = m.pMass(m.xa, lo)
			leftK = kA
		}
		if xr < m.xb {
			// above the cut: losses above L(xr), at +Inf in the upper
			rt = m.pMass(xr, m.xb)
		}
	}
	ka, atomCl, err := atomCells(m.atoms, h)
	if err != nil {
		return stepCells{}, err
	}
	cells, kmin := mergeCells(k0, cont, ka, atomCl)
	if lt == (sc{}) {
		leftK = kmin
	}
	return stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: leftK, rightTail: rt}, nil
}

// mergeCells adds two runs of cells (each from its first index) into one.
func mergeCells(ka int, a []cell, kb int, b []cell) ([]cell, int) {
	switch {
	case len(a) == 0:
		return b, kb
	case len(b) == 0:
		return a, ka
	}
	k0 := min(ka, kb)
	end := max(ka+len(a), kb+len(b))
	out := make([]cell, end-k0)
	for i := range out {
		out[i].sliver = math.Inf(-1)
	}
	for _, run := range []struct {
		k  int
		cs []cell
	}{{ka, a}, {kb, b}} {
		for i, c := range run.cs {
			o := &out[run.k-k0+i]
			// C's own bound holds while every part has one
			o.hasC = (o.alpha == (sc{}) || o.hasC) && c.hasC
			o.C = o.C.addTo(c.C)
			o.alpha = o.alpha.addTo(c.alpha)
			o.beta = o.beta.addTo(c.beta)
			o.A = o.A.addTo(c.A)
			o.sliver = logAdd(o.sliver, c.sliver)
		}
	}
	return out, k0
}

// mixCells is the measure w a + (1-w) b of two steps' cells (the weights
// within u): the masses, surpluses, slivers and tails scale and add.
func mixCells(wa, wb float64, a, b stepCells) stepCells {
	scale := func(cs []cell, w float64) []cell {
		out := make([]cell, len(cs))
		lw := math.Log(w)
		for i, c := range cs {
			out[i] = cell{alpha: c.alpha.scale(w), beta: c.beta.scale(w), A: c.A.scale(w), sliver: c.sliver + lw + 4*u64, C: c.C.scale(w), hasC: c.hasC}
		}
		return out
	}
	cells, kmin := mergeCells(a.kmin, scale(a.cells, wa), b.kmin, scale(b.cells, wb))
	addT := func(x, y sc) sc { return x.scale(wa).addTo(y.scale(wb)) }
	return stepCells{
		kmin: kmin, cells: cells,
		leftTail: addT(a.leftTail, b.leftTail), rightTail: addT(a.rightTail, b.rightTail),
		infLo: (wa*a.infLo + wb*b.infLo) * (1 - 4*u64), infHi: (wa*a.infHi + wb*b.infHi) * (1 + 4*u64),
	}
}

// mixMeasure is the loss distribution wa a + wb b: a mechanism that runs
// a with probability wa and b otherwise and reveals which (its profile is
// above the one that does not reveal it). wa + wb may exceed 1 (an upper
// measure with uncertain weights).
type mixMeasure struct {
	name   string
	wa, wb float64
	a, b   measure
}

func (m *mixMeasure) key() string { return m.name }

func (m *mixMeasure) cells(h float64, c cut) (stepCells, error) {
	ca, err := m.a.cells(h, c)
	if err != nil {
		return stepCells{}, err
	}
	cb, err := m.b.cells(h, c)
	if err != nil {
		return stepCells{}, err
	}
	return mixCells(m.wa, m.wb, ca, cb), nil
}

func (m *mixMeasure) maxLoss() float64 { return math.Max(m.a.maxLoss(), m.b.maxLoss()) }

func (m *mixMeasure) logMGF(l float64) float64 {
	a, b := m.a.logMGF(l), m.b.logMGF(l)
	return logAdd(a+math.Log(m.wa), b+math.Log(m.wb))
}
