package pld

import "math"

// A discrete step composed once beside continuous ones (randomized
// response, an (eps, delta) step, the exponential mechanism) is not put on
// the grid: its few atoms are mixed into the rest's profile exactly. With
// L = A + R, A the step's loss (atoms a of P-mass p_a at loss l_a, and
// mass tau at +Inf) and R the rest's, independent under P,
//
//	delta(eps) = E_P[(1 - e^(eps - A - R))_+] = tau + sum_a p_a delta_R(eps - l_a),
//
// where delta_R(x) = E_P[(1 - e^(x - R))_+] is the rest's profile at any
// real x (composed.delta reads it at negative x too). On the grid each
// atom would move by up to h in either measure; here only the rest's grid
// error remains, so the width is reached on a coarser grid (a randomized
// response beside three Gaussians at h = 2^-10: 8.5e-7 wide instead of
// 5.1e-4; TestMixedAtomsNarrowAFixedGrid).

// maxMixedAtoms bounds the atoms mixed so: each reads the rest's profile
// once at each eps the caller asks (an inversion asks about a hundred).
const maxMixedAtoms = 16

// mixed is a direction's discrete step of count 1 taken out of its terms.
type mixed struct {
	atoms        []atom
	infLo, infHi float64
}

// splitMixed returns the first term of direction d that is a discrete
// step of count 1 with at most maxMixedAtoms atoms, each loss known to
// 1/64, and the other terms, when there are any.
func (p *plan) splitMixed(d int) (mixed, []runTerm, bool) {
	terms := p.dirs[d]
	if len(terms) < 2 {
		return mixed{}, nil, false
	}
	for i, t := range terms {
		am, ok := t.up.(*atomMeasure)
		if !ok || t.lo != t.up || t.n != 1 || len(am.atoms) > maxMixedAtoms {
			continue
		}
		known := true
		for _, a := range am.atoms {
			known = known && a.le <= 1.0/64 && !math.IsNaN(a.l) && !math.IsInf(a.l, 0)
		}
		if !known {
			continue
		}
		rest := make([]runTerm, 0, len(terms)-1)
		rest = append(append(rest, terms[:i]...), terms[i+1:]...)
		return mixed{am.atoms, am.infLo, am.infHi}, rest, true
	}
	return mixed{}, nil, false
}

// profile is delta(eps) of the step composed with the rest, whose
// certified profile is rest. delta_R falls as its argument grows, so the
// lower end reads it at the largest argument an atom's loss allows and
// the upper at the smallest, each rounded outward. Each product of
// non-negative values is within u, and their sum of k terms within k u.
func (m mixed) profile(rest func(float64) Interval) func(float64) Interval {
	return func(eps float64) Interval {
		var lo, hi float64
		for _, a := range m.atoms {
			lLo := math.Nextafter(a.l-a.le, math.Inf(-1))
			lHi := math.Nextafter(a.l+a.le, inf)
			pHi, pLo := a.p.at(0)
			lo += pLo * rest(math.Nextafter(eps-lLo, inf)).Lo
			hi += pHi * rest(math.Nextafter(eps-lHi, math.Inf(-1))).Hi
		}
		k := float64(len(m.atoms) + 2)
		lo = (lo*(1-2*k*u64) + m.infLo) * (1 - 2*u64)
		hi = (hi*(1+2*k*u64) + m.infHi) * (1 + 2*u64)
		return Interval{lo, math.Min(1, hi)}
	}
}
