package pld

import (
	"math"
)

// One step's privacy loss, discretised on the grid g_k = k h into an upper
// and a lower measure (see doc.go, "Method", steps 1 and 2).
//
// A cell j is the set of outcomes whose loss L lies in (g_j, g_(j+1)]; for
// the mechanisms here L is monotone in the outcome x, so a cell is an
// x-interval, and the package computes for it
//
//	alpha_j = P(cell),  beta_j = Q(cell),  A_j = E_P[1_cell (1 - e^(g_j - L))]
//
// (A_j >= 0 is the cell's surplus over its left grid point; the deficit
// below its right one is C_j = (e^g_(j+1) - e^g_j) beta_j - A_j).

// cell holds a cell's quantities as scaled values.
type cell struct {
	alpha, beta, A sc
	sliver         float64 // log of a bound on the P-mass within the uncertainty of the cell's right boundary
	// C is the deficit e^(g_(j+1)) beta - alpha, when the cell knows it
	// better than from beta (hasC; atoms on their grid points)
	C    sc
	hasC bool
}

// measure is one step's privacy loss distribution in one direction: the
// law of L = log(dP/dQ)(X) for X ~ P, with the P-mass where Q = 0 at
// +Inf. Each event kind has its own (sgm.go, laplace.go, discrete.go,
// mixture.go); the composer (run.go, compose.go) sees only this.
type measure interface {
	// cells discretises the step on the grid g_k = k h (step.go turns
	// the cells into the upper and lower measures). cut places the
	// grid's ends for a continuous loss: its tilt, and the budget for the
	// P-mass beyond them (see stepCells).
	cells(h float64, c cut) (stepCells, error)
	// logMGF estimates K(lambda) = log E_P e^(lambda L) over the finite
	// losses. It is not certified: it only chooses tilts and cuts.
	logMGF(lambda float64) float64
	// maxLoss is a certified upper bound on the step's finite losses
	// (+Inf when they are unbounded).
	maxLoss() float64
	// key identifies the measure: equal keys are equal measures, whose
	// counts the plan adds.
	key() string
}

// cut says where a continuous loss may be cut: lambda is the tilt the
// run uses, tail > 0 a budget for the P-mass beyond each cut (0: place
// the cuts by the tilt alone). maxCells > 0 refuses a step of more cells
// before they are computed (the grid's budget; 0: maxStepCells).
type cut struct {
	lambda, tail float64
	maxCells     int
}

// maxStepCells bounds the cells of one step when the cut gives no
// budget: 2^28 cells is 20 GB.
const maxStepCells = 1 << 28

// cellCount is kmax - kmin + 1, or an error when it is above the cut's
// budget (checked before the cells are computed: a Gaussian of noise
// 0.03 spans 3.7 million cells at h = 2^-10, 8 s of work that
// Options.MaxGrid then refused) or not a size at all (an end whose loss
// is not a finite number).
func cellCount(kminF, kmaxF float64, ct cut) (int, error) {
	if math.IsNaN(kminF) || math.IsNaN(kmaxF) || math.IsInf(kminF, 0) || math.IsInf(kmaxF, 0) {
		return 0, &precisionErr{"grid", "a step's loss at an end of its kept range is not a finite number"}
	}
	limit := maxStepCells
	if ct.maxCells > 0 {
		limit = min(limit, ct.maxCells)
	}
	n := kmaxF - kminF + 1
	if n > float64(limit) {
		return 0, &tooLargeErr{"grid", "a step's grid is larger than Options.MaxGrid"}
	}
	return int(math.Max(n, 1)), nil
}

// stepCells is one step on the grid: cells (g_(kmin+i), g_(kmin+i+1)],
// the P-mass below the first (leftTail: the upper measure puts it at the
// grid point leftK, above every loss it holds; the lower drops it) and
// above the last (rightTail: at +Inf
// in the upper, dropped in the lower), and the step's exact mass at +Inf
// within [infLo, infHi] (kept at +Inf by both).
type stepCells struct {
	kmin                int
	cells               []cell
	leftTail, rightTail sc
	leftK               int // the upper measure puts leftTail at g_leftK (its losses are below it)
	infLo, infHi        float64
}

// atom is a point of a discrete loss distribution: P-mass p and loss l
// within le (its Q-mass is p e^-l).
type atom struct {
	p     sc
	l, le float64
}

// relErr returns a bound on |computed - exact|/|exact| of a scaled value
// (+Inf when the error may exceed the value).
func (a sc) relErr() float64 {
	m := math.Abs(a.m)
	if !(a.err < m) {
		return inf
	}
	return a.err / (m - a.err)
}

// atomPQ is the atom of P-mass p and Q-mass q (q > 0): its loss is log of
// a ratio of values within rp and rq relative, which moves by at most
// -log(1 - rp) - log(1 - rq) <= 1.01 (rp + rq) for rp, rq <= 1/64;
// math.Log within 4u of each log; the sums within u each.
func atomPQ(p, q sc) atom {
	rp, rq := p.relErr(), q.relErr()
	lp, lq := math.Log(p.m), math.Log(q.m)
	l := (lp + p.ls) - (lq + q.ls)
	if rp > 1.0/64 || rq > 1.0/64 {
		return atom{p, l, inf}
	}
	err := 1.01*(rp+rq) + 4*u64*(math.Abs(lp)+math.Abs(lq)) + 3*u64*(math.Abs(lp)+math.Abs(p.ls)+math.Abs(lq)+math.Abs(q.ls))
	return atom{p, l, err * (1 + 4*u64)}
}

// q returns the atom's Q-mass p e^-l: the scale p.ls - l within u of its
// magnitude, and l within le, move it by (u |p.ls - l| + le) 1.01 relative
// (le <= 1/64).
func (a atom) q() sc {
	ls := a.p.ls - a.l
	r := (u64*math.Abs(ls) + a.le) * 1.01
	return sc{a.p.m, ls, (a.p.err*(1+r) + r*math.Abs(a.p.m)) * (1 + 2*u64)}
}

// atomCells puts atoms in their cells: atom (p, q) of loss l is in cell j,
// g_j < l <= g_(j+1), with alpha += p, beta += q and A += p (1 - e^(g_j -
// l)) (step.go's quantities). When l's error bound straddles a grid point
// the atom goes in the cell below it and its mass is that cell's sliver:
// the upper measure then also carries it two points up and the lower
// leaves it out (step.go), so either side holds whichever cell is true.
func atomCells(atoms []atom, h float64) (kmin int, cells []cell, err error) {
	type placed struct {
		j     int
		l, le float64
		amb   bool
	}
	ps := make([]placed, len(atoms))
	kmin, kmax := math.MaxInt, math.MinInt
	for i, a := range atoms {
		l, le := a.l, a.le
		if !(le <= 1.0/64) || math.IsNaN(l) {
			return 0, nil, &precisionErr{"grid", "an atom's loss is not known to its cell"}
		}
		// the atom's cell is ceil(l/h) - 1 for every l in [l - le, l + le]
		// (l/h is exact: h is a power of two), with those ends rounded
		// outward
		lLo, lHi := l, l
		if le > 0 {
			lLo, lHi = math.Nextafter(l-le, math.Inf(-1)), math.Nextafter(l+le, inf)
		}
		jHi := math.Ceil(lHi/h) - 1
		jLo := math.Ceil(lLo/h) - 1
		if math.Abs(jHi) > 1<<50 || math.Abs(jLo) > 1<<50 {
			return 0, nil, &tooLargeErr{"grid", "an atom's loss is beyond the grid"}
		}
		ps[i] = placed{int(jLo), l, le, jHi != jLo}
		if ps[i].amb && jHi != jLo+1 {
			return 0, nil, &precisionErr{"grid", "an atom's loss is not known to h"}
		}
		kmin = min(kmin, ps[i].j)
		kmax = max(kmax, ps[i].j)
	}
	if len(atoms) == 0 {
		return 0, nil, nil
	}
	if kmax-kmin > 1<<30 {
		return 0, nil, &tooLargeErr{"grid", "the atoms span more than 2^30 cells"}
	}
	cells = make([]cell, kmax-kmin+1)
	for i := range cells {
		cells[i].sliver = math.Inf(-1)
	}
	for i, a := range atoms {
		p := ps[i]
		cl := &cells[p.j-kmin]
		// g_j and g_(j+1) are exact (h a power of two); g - l and g + h - l
		// are within u of their magnitudes, and l within le.
		g, gh := float64(p.j)*h, float64(p.j+1)*h
		// w = 1 - e^(g - l) for l in (g, g + h]: -expm1 within 4u, its
		// argument's error times the slope, at most 1.
		x := g - p.l
		w := -math.Expm1(x)
		we := 4*u64*math.Abs(w) + (u64*math.Abs(x)+p.le)*1.01
		if w < 0 {
			w = 0
		}
		A := sc{a.p.m * w, a.p.ls, (a.p.err*(w+we) + math.Abs(a.p.m)*we) * (1 + 4*u64)}
		// C = p (e^(g + h - l) - 1) >= 0 likewise (the slope at most e^h):
		// 0 exactly for an exact loss on g_(j+1)
		y := gh - p.l
		cv := math.Expm1(y)
		ce := 4*u64*math.Abs(cv) + (u64*math.Abs(y)+p.le)*1.01*math.Exp(h)
		if cv < 0 {
			cv = 0
		}
		C := sc{a.p.m * cv, a.p.ls, (a.p.err*(cv+ce) + math.Abs(a.p.m)*ce) * (1 + 4*u64)}
		if !cl.hasC && cl.alpha == (sc{}) {
			cl.hasC = true
		}
		cl.C = cl.C.addTo(C)
		cl.alpha = cl.alpha.addTo(a.p)
		cl.beta = cl.beta.addTo(a.q())
		cl.A = cl.A.addTo(A)
		if p.amb {
			cl.sliver = logAdd(cl.sliver, math.Log(a.p.hi()))
		}
	}
	return kmin, cells, nil
}

// addTo returns a + b, treating the zero sc as 0 (its scale is then b's).
func (a sc) addTo(b sc) sc {
	if a == (sc{}) {
		return b
	}
	return a.add(b, 1)
}

// atomMeasure is a discrete loss distribution: finitely many atoms and an
// exact mass at +Inf.
type atomMeasure struct {
	name         string
	atoms        []atom
	infLo, infHi float64
	lat          *lattice // the atoms' lattice (nil: none known)
}

// withLattice returns m with its lattice set (autoLattice's for one or two
// atoms, when the constructor gave none).
func (m *atomMeasure) withLattice() *atomMeasure {
	if m.lat == nil {
		m.lat = autoLattice(m.atoms)
	}
	return m
}

func (m *atomMeasure) key() string { return m.name }

func (m *atomMeasure) cells(h float64, _ cut) (stepCells, error) {
	kmin, cells, err := atomCells(m.atoms, h)
	return stepCells{kmin: kmin, cells: cells, infLo: m.infLo, infHi: m.infHi}, err
}

func (m *atomMeasure) maxLoss() float64 {
	v := math.Inf(-1)
	for _, a := range m.atoms {
		v = math.Max(v, math.Nextafter(a.l+a.le, inf))
	}
	return v
}

func (m *atomMeasure) logMGF(lambda float64) float64 {
	best := math.Inf(-1)
	v := make([]float64, len(m.atoms))
	for i, a := range m.atoms {
		v[i] = a.p.ls + math.Log(a.p.m) + lambda*a.l
		best = math.Max(best, v[i])
	}
	var s float64
	for _, x := range v {
		s += math.Exp(x - best)
	}
	return best + math.Log(s)
}
