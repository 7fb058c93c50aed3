package pld

import (
	"context"
	"math"
	"slices"
)

// A discrete event's atoms sit on a lattice: losses c + z_i s for
// integers z_i. Its n-fold composition then sits on n c + Z s, Z an
// integer, and is computed there exactly (the FFT's error bounded as on
// the grid, compose.go): no discretisation at all. Alone, that is the
// composition's profile (latticeDelta); beside other events it is put on
// the dyadic grid once (regrid: connect-the-dots above, post-processing
// below, as one step is), so a discrete event costs the grid's error
// once, not once per step.

// lattice says the atoms' losses are c + z[i] s exactly, with c within
// ce and s within se (s > 0).
type lattice struct {
	c, ce, s, se float64
	z            []int
}

// autoLattice is the lattice of one or two atoms: one, c = its loss;
// two, c the lower loss and s the difference (within u of itself and
// both losses' bounds).
func autoLattice(atoms []atom) *lattice {
	switch len(atoms) {
	case 1:
		return &lattice{c: atoms[0].l, ce: atoms[0].le, s: 1, z: []int{0}}
	case 2:
		lo, hi := 0, 1
		if atoms[1].l < atoms[0].l {
			lo, hi = 1, 0
		}
		s := atoms[hi].l - atoms[lo].l
		if !(s > 0) {
			return nil
		}
		// the difference's rounding error exactly (TwoSum), 0 when exact
		bb := s - atoms[hi].l
		de := math.Abs((atoms[hi].l - (s - bb)) + (-atoms[lo].l - bb))
		if math.IsInf(s, 0) || math.IsNaN(de) {
			de = u64 * s
		}
		z := make([]int, 2)
		z[hi] = 1
		return &lattice{c: atoms[lo].l, ce: atoms[lo].le, s: s, se: (atoms[hi].le + atoms[lo].le + de) * (1 + 2*u64), z: z}
	}
	return nil
}

// latticeStep returns one step of m on its lattice as a tilted vector
// (tilt lambda): entry z - zmin holds the atom at z (upper: its mass from
// above; lower: from below), e^(lambda g_z - ref) with g_z = c + z s. The
// tilt's rounding (lambda g and the difference, within u of their
// magnitudes, the sum c + z s within u of |z s| and of itself, each
// step's sum differing from the composed entry's) is charged to tiltRel.
func latticeStep(m *atomMeasure, lambda float64) tmeas {
	lat := m.lat
	zmin, zmax := slices.Min(lat.z), slices.Max(lat.z)
	n := zmax - zmin + 1
	up, lo := make([]float64, n), make([]float64, n)
	ref := math.Inf(-1)
	for i, a := range m.atoms {
		g := lat.c + float64(lat.z[i])*lat.s
		ref = math.Max(ref, a.p.ls+math.Log(math.Abs(a.p.m))+lambda*g)
	}
	if math.IsInf(ref, -1) {
		ref = 0
	}
	var tiltRel float64
	for i, a := range m.atoms {
		zs := float64(lat.z[i]) * lat.s
		g := lat.c + zs
		lg := lambda * g
		d := a.p.ls + lg - ref
		r := (2.02*(math.Abs(zs)+math.Abs(g))*math.Abs(lambda)+1.01*(math.Abs(lg)+math.Abs(d)))*u64 + 4*u64
		tiltRel = math.Max(tiltRel, r)
		e := math.Exp(d)
		up[lat.z[i]-zmin] += (a.p.m + a.p.err) * e * (1 + 2*u64)
		if v := (a.p.m - a.p.err) * e * (1 - 2*u64); v > 0 {
			lo[lat.z[i]-zmin] += v
		}
	}
	return normalise(tmeas{k0: zmin, up: up, lo: lo, logZ: ref, tiltRel: tiltRel * (1 + 4*u64)})
}

// latticeRun is n steps of m on its lattice, with the grid of the result.
func latticeRun(ctx context.Context, m *atomMeasure, n int64, lambda float64, maxLen int) (tmeas, grid, error) {
	lat := m.lat
	t, err := power(ctx, latticeStep(m, lambda), n, maxLen, lat.s, lambda)
	if err != nil {
		return tmeas{}, grid{}, err
	}
	nf := float64(n)
	o := nf * lat.c
	// o's rounding error exactly (FMA), so that an exact offset adds none;
	// coarsened t.sh times: the spacing (and its error) times 2^sh, exactly
	oe := math.Abs(math.FMA(nf, lat.c, -o))
	if math.Abs(o) < 0x1p-960 || math.IsInf(o, 0) {
		oe = u64 * math.Abs(o)
	}
	return t, grid{o: o, s: math.Ldexp(lat.s, t.sh), oErr: (nf*lat.ce + oe) * (1 + 2*u64), sErr: math.Ldexp(lat.se, t.sh)}, nil
}

// regrid puts a vector on a lattice (g, tilt lambda) on the dyadic grid of
// spacing h: its upper entries, as atoms of their loss within the
// lattice's bound, through the step's upper construction (connect the
// dots: the curve above, and the slack's bound unchanged, since the slack
// bounds E_U phi - E_up phi for the phi that a further composition
// applies, each a G(e^-l) with G convex non-increasing); its lower
// entries through the step's lower construction (a post-processing, or
// rounding down: the curve below). The slacks carry over in the new
// scale.
func regrid(m tmeas, g grid, lambda, h float64, maxGrid int) (tmeas, stepGrid, error) {
	atomsOf := func(v []float64) []atom {
		var as []atom
		for i, x := range v {
			if x <= 0 {
				continue
			}
			gv, ge := g.at(m.k0 + i)
			lg := lambda * gv
			d := m.logZ - lg
			r := m.tiltRel + (4+1.01*(math.Abs(lg)+math.Abs(d)))*u64
			as = append(as, atom{sc{x, d, x * r}, gv, ge})
		}
		return as
	}
	up, lo := atomsOf(m.up), atomsOf(m.lo)
	if len(up) == 0 {
		return tmeas{}, stepGrid{}, &precisionErr{"grid", "a discrete composition lost all its mass"}
	}
	ku, cu, err := atomCells(up, h)
	if err != nil {
		return tmeas{}, stepGrid{}, err
	}
	if len(cu) > maxGrid {
		return tmeas{}, stepGrid{}, &tooLargeErr{"grid", "a discrete composition spans more than Options.MaxGrid cells"}
	}
	sg := buildStep(stepCells{kmin: ku, cells: cu, leftK: ku}, h, lambda)
	if len(lo) > 0 {
		kl, cl, err := atomCells(lo, h)
		if err != nil {
			return tmeas{}, stepGrid{}, err
		}
		if len(cl) > maxGrid {
			return tmeas{}, stepGrid{}, &tooLargeErr{"grid", "a discrete composition spans more than Options.MaxGrid cells"}
		}
		sg = sg.withLower(buildStep(stepCells{kmin: kl, cells: cl, leftK: kl}, h, lambda))
	} else {
		sg.lo = make([]float64, len(sg.up))
	}
	t := fromStep(sg)
	t.sh = 0
	// the slacks are in units of e^logZ
	f := math.Exp(m.logZ-t.logZ) * (1 + (4+1.01*math.Abs(m.logZ-t.logZ))*u64)
	t.slack += m.slack * f
	t.slackLo += m.slackLo * f
	return t, sg, nil
}
