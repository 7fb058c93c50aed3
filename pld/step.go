package pld

import "math"

// stepGrid is one step discretised: grid points k0 .. k0+len(up)-1.
// up and lo hold tilted masses p_k e^(lambda g_k - ref) (rounded up and
// down); infMass is the upper measure's mass at +Inf (untilted: the
// step's exact mass there and its right tail), infLo the lower measure's
// (its exact mass there, from below); mass is an upper bound on the
// upper measure's finite mass (untilted).
type stepGrid struct {
	k0          int
	up, lo      []float64
	ref         float64
	infMass     float64
	infLo       float64
	mass        float64
	roundedDown bool    // the lower measure is the rounded-down one (see buildStep)
	excess      float64 // tilted mass of the clamped lower entries over the lower's tilted mass (see buildStep)
	tiltRel     float64 // relative error of every entry from the tilt's rounding (see tmeas)
}

// withLower returns s with the lower measure of l (the same spacing and
// tilt; a one-sided event's lower pair differs from its upper one): the
// vectors aligned on the union of their points, l's lower rescaled to
// s's reference (rounded down).
func (s stepGrid) withLower(l stepGrid) stepGrid {
	k0 := min(s.k0, l.k0)
	end := max(s.k0+len(s.up), l.k0+len(l.lo))
	up := make([]float64, end-k0)
	lo := make([]float64, end-k0)
	copy(up[s.k0-k0:], s.up)
	f := math.Exp(l.ref-s.ref) * (1 - 4*u64)
	for i, v := range l.lo {
		lo[l.k0-k0+i] = v * f
	}
	r := s
	r.k0, r.up, r.lo = k0, up, lo
	r.infLo = l.infLo
	r.roundedDown, r.excess = l.roundedDown, l.excess
	r.tiltRel = math.Max(s.tiltRel, l.tiltRel+(4+1.01*math.Abs(l.ref-s.ref))*u64)
	return r
}

// buildStep turns cells (cell i is (g_(kmin+i), g_(kmin+i+1)]) into the
// tilted upper and lower measures of one step. leftTail is P-mass of
// losses below g_leftK (upper: at g_leftK; lower: dropped), rightTail
// P-mass above the last cell (upper: at +Inf; lower: dropped).
//
// Upper (connect the dots, Doroshenko et al. 2022, written per cell):
// a_hi = A/(1 - e^-h) at the cell's right point, a_lo = alpha - a_hi at
// its left point; both preserve the cell's P and Q masses, and since a
// convex function lies below its chords the split's curve
// c(t) = E_P (1 - t e^-L)_+ is above the cell's on [s_j, s_(j+1)]
// (s_k = e^g_k) and equal elsewhere. Slivers (boundary uncertainty) add
// their mass two points up. Lower: the same split minus the measure of
// iota, the piecewise-linear function through d_k = max(Dmax_(k-1),
// Dmax_k), Dmax_j = A_j C_j/(A_j + C_j) >= max of (split - true) on cell
// j (the split is linear, the true curve is at least (alpha - t beta)_+),
// so split - iota <= true everywhere; its masses are the split's minus
// iota's second differences (iotaMass), raised where negative by raising
// d (fixNegative), or, failing that, the rounded-down measure.
func buildStep(sc0 stepCells, h, lambda float64) stepGrid {
	kmin, cells, leftTail, rightTail := sc0.kmin, sc0.cells, sc0.leftTail, sc0.rightTail
	n := len(cells) + 3
	// reference scale: the largest tilted cell mass
	ref := math.Inf(-1)
	for i, cl := range cells {
		g := float64(kmin+i) * h
		if cl.alpha.m > 0 {
			ref = math.Max(ref, cl.alpha.ls+math.Log(cl.alpha.m)+lambda*g)
		}
	}
	if math.IsInf(ref, -1) {
		ref = 0
	}
	// every entry's tilt e^(lambda g - ref): lambda g and ref - lambda g
	// are within u of their magnitudes (g exact), at its ends the largest
	var tiltRel float64
	for _, k := range []int{kmin, kmin + n} {
		lg := lambda * float64(k) * h
		tiltRel = math.Max(tiltRel, 1.01*(math.Abs(lg)+math.Abs(ref-lg))*u64)
	}
	at := func(v sc, k int) (hi, lo float64) { // tilted at grid index k
		return v.at(ref - lambda*float64(kmin+k)*h)
	}
	up := make([]float64, n)
	lo := make([]float64, n)
	omeh := -math.Expm1(-h) // 1 - e^-h, within 4u
	slA := math.Max(omeh+h/4, math.Expm1(h/4)) * (1 + 8*u64)
	eh1 := math.Expm1(h)
	eh := math.Exp(h)
	var mass float64
	aHiLo := make([]float64, len(cells)) // A's lower bound (tilted at left point), -1 when A may be < 0
	aHiHi := make([]float64, len(cells))
	dmax := make([]float64, len(cells))
	// the lower split of each cell (sliver-free): at its right point
	// (tilted there), at its left point, and the whole cell rounded down
	lsHi := make([]float64, len(cells))
	lsLo := make([]float64, len(cells))
	lsDown := make([]float64, len(cells))
	cHi := make([]float64, len(cells))  // C's upper bound, tilted at the left point
	alHi := make([]float64, len(cells)) // alpha's upper bound, tilted at the left point
	for i, cl := range cells {
		k := i // index into up/lo (grid kmin + i)
		// The split is of the sliver-free part of the cell (the computed
		// x-interval less the slivers at both ends: inside the true cell);
		// the slivers' mass is covered by the copies two points up. A
		// sliver of mass s has its loss within tau <= h/4 of its boundary
		// (checkSlivers), so it changes alpha by at most s and A by at
		// most s max(1 - e^-h + h/4, e^(h/4) - 1) (the integrand
		// 1 - e^(g_j - L) at the right end, at the left end), not s: the
		// split divides A's error by 1 - e^-h, and an error of s there
		// would add s/h to the mass.
		sl := math.Inf(-1)
		if i > 0 {
			sl = cells[i-1].sliver
		}
		sl = logAdd(sl, cl.sliver)
		alpha, A := cl.alpha, cl.A
		if !math.IsInf(sl, -1) {
			alpha = alpha.add(sc{0, sl, 1}, 1)
			A = A.add(sc{0, sl, slA}, 1)
		}
		aH, aL := at(alpha, k)
		alHi[i] = aH
		AH, AL := at(A, k)
		if AL < 0 {
			AL = 0
		}
		hiH := AH / omeh * (1 + 8*u64) // a_hi upper, tilted at k
		hiL := AL / omeh * (1 - 8*u64)
		aHiLo[i], aHiHi[i] = AL, AH
		if !(A.m-A.err > 0) && !(A.m == 0 && A.err == 0) {
			aHiLo[i] = -1 // A may be < 0 (at clamps its lower end at 0); an empty cell's is exactly 0
		}
		// upper: a_hi at k+1 (tilt by e^(lambda h)), a_lo at k. Any
		// a_hi' >= a_hi and a_lo' >= 0 with a_lo' + a_hi' >= alpha give a
		// curve above the exact split's (the difference is (a_lo' + a_hi'
		// - alpha)(1 - t/s_k)_+ + (a_hi' - a_hi)((1 - t/s_(k+1))_+ -
		// (1 - t/s_k)_+), both >= 0), so a_lo' is alpha's upper bound less
		// a_hi's upper bound: A's error (1/(1 - e^-h) times larger in
		// a_hi) moves mass up by h, not adds it (adding it made the upper
		// mass 1 + 4e-8 a step at h = 2^-20, q = 1e-4: 4% after 1e6 steps).
		tl := math.Exp(lambda*h) * (1 + 4*u64)
		up[k+1] += hiH * tl * (1 + 2*u64)
		loUp := aH - hiH
		if loUp < 0 {
			loUp = 0
		}
		up[k] += loUp * (1 + 2*u64)
		// lower (built below, once it is known which cells are split)
		lsDown[i] = aL
		lsHi[i] = hiL * math.Exp(lambda*h) * (1 - 6*u64)
		if loLo := (aL - hiH) * (1 - 2*u64); loLo > 0 {
			lsLo[i] = loLo
		}
		mass += cl.alpha.hi()
		// slivers of the upper: two points up
		if !math.IsInf(cl.sliver, -1) && k+2 < n {
			v, _ := at(sc{1, cl.sliver, 0}, k+2)
			up[k+2] += v
			mass += math.Exp(cl.sliver) * (1 + 8*u64)
		}
		// Dmax = A C/(A+C), C = (e^h - 1) e^g beta - A (upper bounds)
		bH, _ := at(cl.beta, k)
		bH *= math.Exp(float64(kmin+i) * h)
		CH := eh1*bH*(1+8*u64) - AL
		if cl.hasC {
			// the cell's own bound on C (atoms: from their losses, so an
			// atom on g_(k+1) has C = 0, not the error of e^g beta - A)
			CH, _ = at(cl.C, k)
		}
		if CH < 0 {
			CH = 0
		}
		cHi[i] = CH
		if AH+CH > 0 {
			dmax[i] = AH * CH / (AH + CH) * (1 + 8*u64)
		}
	}
	// tails
	if lk := sc0.leftK - kmin; lk >= 0 && lk < n {
		if lt, _ := at(leftTail, lk); lt > 0 {
			up[lk] += lt
			mass += leftTail.hi()
		}
	} else if leftTail.m != 0 || leftTail.err != 0 {
		panic("buildStep: the left tail's point is off the grid")
	}
	infMass := rightTail.hi()
	if infMass < 0 {
		infMass = 0
	}
	infMass = (infMass + sc0.infHi) * (1 + 2*u64)
	// lower: d_k tilted at k. Cell i spans points i, i+1. Cells in the
	// set R (down[i]) are rounded down whole to their left point (their
	// curve is then below the cell's, by coupling) and carry no split;
	// the others are split and iota is built over them alone: the curve
	// is additive, so (split_S - iota) + down_R is below true_S + true_R
	// as soon as iota is above the split's excess on every split cell,
	// which d_k >= Dmax of the split cells next to point k gives. The last
	// cell (m-1) is always in R, so iota is 0 from point m-1 on; on cell
	// m-2, if split, iota runs from d >= A_(m-2) down to 0, above the
	// split's excess a_hi (1 - t/s_(m-1)) there. R starts with the last
	// cell and grows by the cells next to entries fixNegative could not
	// make >= 0, a few times; then all cells are rounded down.
	m := len(cells)
	sg := stepGrid{k0: kmin, up: up, ref: ref, infMass: infMass, infLo: sc0.infLo, mass: mass, tiltRel: tiltRel}
	// The lower measure: a post-processing of the cells, placed on the
	// grid (garbleLower); where its checks fail, the split minus iota.
	if g, ok := garbleLower(lsDown, alHi, aHiLo, cHi, math.Exp(lambda*h), eh1, n, false); ok {
		sg.lo = g
		return sg
	}
	down := make([]bool, m)
	if m >= 1 {
		down[m-1] = true
	}
	et := math.Exp(lambda * h)
	for round := 0; ; round++ {
		for i := range lo {
			lo[i] = 0
		}
		d := make([]float64, m+3) // indices 0..m+1 are grid points
		for i := 0; i < m; i++ {
			if down[i] {
				lo[i] += lsDown[i]
				continue
			}
			lo[i+1] += lsHi[i]
			lo[i] += lsLo[i]
			d[i] = math.Max(d[i], dmax[i])
			d[i+1] = math.Max(d[i+1], dmax[i]*et*(1+4*u64))
		}
		if m >= 2 && !down[m-2] {
			d[m-2] = math.Max(d[m-2], aHiHi[m-2]*(1+2*u64))
		}
		if m >= 1 {
			d[m-1] = 0
		}
		d[m] = 0
		clamped := fixNegative(lo, d, m, h, lambda, eh, eh1)
		// Entries still negative are set to 0. That adds a measure mu to
		// the lower one; its effect on the composed delta(eps) is at most
		// E[e^(lambda (X + R - eps))] = T(mu) T(R) e^(-lambda eps)
		// (f_eps(l) <= e^(lambda (l - eps))), and T(R) <= T(composed
		// upper)/T(this step's lower). excess keeps T(mu)/T(lower) (tilted
		// masses); compose.go takes n excess T(upper) e^(logZ - lambda
		// eps) kappa off delta's lower bound.
		var cl, tlo float64
		for _, c := range clamped {
			cl += c
		}
		for _, v := range lo {
			tlo += v
		}
		sg.excess = 0
		if cl > 0 {
			if tlo > 0 {
				sg.excess = cl * (1 + float64(len(lo)+4)*u64) / (tlo * (1 - float64(len(lo)+4)*u64))
			} else {
				sg.excess = inf
			}
		}
		if sg.excess <= 1e-9 {
			break
		}
		if round == 4 {
			// The iota construction left too much to clamp: use the
			// rounded-down measure (each cell's sliver-free P-mass at its
			// left point, below the true one by coupling; no excess).
			for i := range lo {
				lo[i] = 0
			}
			for i := range cells {
				lo[i] += lsDown[i]
			}
			sg.excess = 0
			sg.roundedDown = true
			break
		}
		for k, c := range clamped {
			if c > 0 {
				for i := k - 2; i <= k+1; i++ {
					if i >= 0 && i < m {
						down[i] = true
					}
				}
			}
		}
	}
	sg.lo = lo
	return sg
}

// iotaMass returns an upper bound on the tilted mass of iota at point k
// (0 <= k <= m+1): [(d_(k+1) e^(-lambda h) - d_k) - e^h (d_k - d_(k-1) e^(lambda h))]/(e^h - 1)
// with d beyond m+1 zero and, to the left, iota(t) = d_0 t/s_0 for
// t <= s_0 (the line through the origin: d_(-1) e^(lambda h) = d_0 e^-h).
// Left of s_0 every cell's split equals its curve, so iota needs only be
// >= 0 there, and a line through the origin keeps iota(0), the P-mass the
// lower measure loses, at 0 (a flat iota = d_0 would take d_0 off every
// step's mass: e^(-n d_0) after n steps). el is e^(lambda h) as math.Exp
// computes it.
func iotaMass(d []float64, k, m int, el, eh, eh1 float64) float64 {
	dk := d[k]
	var dn, dp float64
	if k+1 <= m+1 {
		dn = d[k+1] / el
	}
	if k == 0 {
		dp = dk / eh // d_(-1) e^(lambda h) = d_0 e^-h
	} else {
		dp = d[k-1] * el
	}
	v := ((dn - dk) - eh*(dk-dp)) / eh1
	e := 12 * u64 * (dn + (1+eh)*dk + eh*dp) / eh1
	return v + e
}

// fixNegative sets lo -= iota's masses and, where an entry would go
// negative, raises d there (which lowers iota's mass at that point and
// raises it at the neighbours; d from point m-1 on stays 0) over a few sweeps.
// Entries still negative are set to 0 and returned (tilted) in clamped.
func fixNegative(lo, d []float64, m int, h, lambda, eh, eh1 float64) (clamped []float64) {
	base := make([]float64, m+2)
	copy(base, lo[:m+2])
	res := make([]float64, m+2)
	el := math.Exp(lambda * h)
	for sweep := 0; ; sweep++ {
		bad := false
		for k := 0; k <= m+1; k++ {
			res[k] = base[k] - iotaMass(d, k, m, el, eh, eh1)
			if res[k] < 0 && k < m-1 {
				bad = true
			}
		}
		if !bad || sweep == 60 {
			break
		}
		for k := 0; k < m-1; k++ { // d from m-1 on stays 0
			if res[k] < 0 {
				coef := (1 + eh) / eh1
				if k == 0 {
					coef = eh / eh1
				}
				d[k] += -res[k] / coef * 1.5
			}
		}
	}
	clamped = make([]float64, m+2)
	for k := 0; k <= m+1; k++ {
		if res[k] < 0 {
			clamped[k] = -res[k]
			res[k] = 0
		}
		lo[k] = res[k]
	}
	for k := m + 2; k < len(lo); k++ {
		lo[k] = 0
	}
	return clamped
}

func logAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	mx := math.Max(a, b)
	return mx + math.Log1p(math.Exp(math.Min(a, b)-mx))
}

// garbleLower returns the lower measure of a post-processing of the
// cell-merged pair (each cell j an outcome with P-mass alpha_j, Q-mass
// beta_j): cell j sends the fraction theta_j of itself to the outcome
// k = j and the rest to k = j+1, and outcome k is placed at g_k. Outcome
// k's loss is >= g_k when its P - e^(g_k) Q = theta_k A_k - (1 -
// theta_(k-1)) C_(k-1) >= 0 (A_j = alpha_j - e^(g_j) beta_j, C_j =
// e^(g_(j+1)) beta_j - alpha_j); then putting its P-mass (or less) at g_k
// lowers the curve (coupling). A post-processing of a post-processing of
// the mechanism is dominated by it in every composition, so the composed
// lower measure's curve is below the truth. theta is chosen left to right
// to make each outcome's P - e^(g_k) Q zero where it can (then it is
// placed exactly), else theta_(k-1) is raised. aL (tilted at k): lower
// bounds on alpha; AL (tilted at k): on A; cH (tilted at k): upper bounds
// on C; el: e^(lambda h) (within 4u). Each outcome's inequality is checked
// with the rounded values; ok is false if one fails.
func garbleLower(aL, aH, AL, cH []float64, el, eh1 float64, n int, forward bool) ([]float64, bool) {
	m := len(aL)
	theta := make([]float64, m+1)
	A := func(k int) float64 {
		if k >= m {
			return 0
		}
		return AL[k]
	}
	cT := func(k int) float64 { return cH[k] * el * (1 + 16*u64) } // C_k tilted at k+1, from above
	// forward step k (1 <= k): theta_k from theta_(k-1), raising
	// theta_(k-1) where outcome k cannot be balanced; returns the
	// surplus this leaves at outcome k-1 (the raise's waste).
	fwd := func(th []float64, k int) float64 {
		need := (1 - th[k-1]) * cT(k-1)
		a := A(k)
		if need <= 0 {
			th[k] = 0 // no deficit at outcome k: all of cell k moves on
			return 0
		}
		if a > 0 && need <= a {
			th[k] = math.Min(1, need/a*(1+8*u64))
			return 0
		}
		old := th[k-1]
		if a > 0 && cH[k-1] > 0 {
			th[k-1] = math.Max(th[k-1], oneMinus(a/cT(k-1)*(1-8*u64)))
		} else {
			th[k-1] = 1
		}
		if a > 0 {
			th[k] = 1
		} else {
			th[k] = 0
		}
		return (th[k-1] - old) * math.Max(A(k-1), 0)
	}
	// backward step k (k <= m): theta_(k-1) from theta_k; returns the
	// surplus left at outcome k (where it cannot be balanced).
	bwd := func(th []float64, k int) float64 {
		c := cT(k - 1)
		a := A(k)
		switch {
		case a < 0:
			th[k] = 0
			th[k-1] = 1
			return 0
		case c <= 0:
			th[k-1] = 0
			return th[k] * a
		}
		y := th[k] * a / c * (1 - 8*u64)
		th[k-1] = oneMinus(y)
		if y > 1 {
			return th[k]*a - c
		}
		return 0
	}
	// The forward chain theta_k = (1 - theta_(k-1)) C_(k-1)/A_k contracts
	// where the mass grows (C_(k-1) < A_k) and oscillates into raises
	// where it falls; there the backward chain theta_(k-1) = 1 - theta_k
	// A_k/C_(k-1) contracts instead. The forward chain runs up to cell
	// s-1 and the backward one down to cell s, and outcome s joins them
	// (raising theta_(s-1) if it needs to). s is the junction with the
	// least surplus (waste) among the cells near the heaviest, judged from
	// one full pass of each chain.
	mode := 0
	for k := range aL {
		if aL[k] > aL[mode] {
			mode = k
		}
	}
	thF := make([]float64, m+1)
	fSet := make([]float64, m+1) // theta_k as the forward step k set it
	wF := make([]float64, m+1)   // waste of forward steps 1..k
	for k := 1; k <= m; k++ {
		wF[k] = wF[k-1] + fwd(thF, k)
		fSet[k] = thF[k]
	}
	thB := make([]float64, m+1)
	bSet := make([]float64, m+1) // theta_k as the backward step k+1 set it
	wB := make([]float64, m+2)   // waste of backward steps k..m
	for k := m; k >= 1; k-- {
		wB[k] = wB[k+1] + bwd(thB, k)
		bSet[k-1] = thB[k-1]
	}
	s, best := mode, math.Inf(1)
	if forward {
		// the caller's cells make the forward chain contract everywhere
		s, best = m, 0
	}
	for c := mode - 256; c <= mode+256 && !forward; c++ {
		if c < 1 || c > m-1 {
			continue
		}
		sur := bSet[c] * math.Max(A(c), 0)
		def := (1 - fSet[c-1]) * cT(c-1)
		j := sur - def
		if j < 0 && cH[c-1] > 0 {
			j = -j / cT(c-1) * math.Max(A(c-1), 0)
		}
		if t := wF[c-1] + wB[c+1] + math.Abs(j); t < best {
			s, best = c, t
		}
	}
	for k := 1; k < s; k++ {
		fwd(theta, k)
	}
	theta[m] = 0
	for k := m; k > s; k-- {
		bwd(theta, k)
	}
	if s > 0 {
		c := cT(s - 1)
		if a := A(s); c > 0 && a >= 0 {
			theta[s-1] = math.Max(theta[s-1], oneMinus(theta[s]*a/c*(1-8*u64)))
		} else if c > 0 {
			theta[s-1] = 1
		}
	}
	// check every outcome: theta_k A_k - (1 - theta_(k-1)) C_(k-1) >= 0;
	// W[k] keeps its certified lower bound (the surplus)
	W := make([]float64, m+1)
	for k := 0; k <= m; k++ {
		var sur, def float64
		if k < m {
			sur = theta[k] * A(k) * (1 - 4*u64)
			if A(k) < 0 && theta[k] > 0 {
				return nil, false
			}
		}
		if k > 0 {
			def = (1 - theta[k-1]) * (1 + 2*u64) * cH[k-1] * el * (1 + 8*u64)
		}
		if sur < def {
			return nil, false
		}
		W[k] = (sur - def) * (1 - 4*u64)
	}
	// each outcome's P-mass, from below and above (tilted at k)
	pL := make([]float64, m+1)
	pH := make([]float64, m+1)
	for k := 0; k < m; k++ {
		pL[k] += theta[k] * aL[k] * (1 - 4*u64)
		pH[k] += theta[k] * aH[k] * (1 + 4*u64)
		pL[k+1] += (1 - theta[k]) * (1 - 2*u64) * aL[k] * el * (1 - 8*u64)
		pH[k+1] += (1 - theta[k]) * (1 + 2*u64) * aH[k] * el * (1 + 8*u64)
	}
	// An outcome k with surplus W_k > 0 (its loss above g_k: the chains
	// met there, or a raise) takes the fraction f = W_k/(P_(k-1)
	// (e^h - 1)) of outcome k-1 (loss >= g_(k-1), surplus >= 0): that part's
	// P - e^(g_k) Q is >= -f P_(k-1) (e^h - 1), so the merged outcome's
	// is >= 0 and its P-mass goes at g_k instead of g_(k-1); what stays of
	// outcome k-1 keeps a surplus >= 0. (Splitting an outcome at random
	// and merging is a post-processing.)
	for k := 1; k <= m; k++ {
		if !(W[k] > 0) || !(pH[k-1] > 0) {
			continue
		}
		f := math.Min(1, W[k]*(1-8*u64)/(pH[k-1]*el*(1+8*u64)*eh1*(1+8*u64)))
		pL[k] += f * pL[k-1] * el * (1 - 8*u64) * (1 - 2*u64)
		pH[k] += f * pH[k-1] * el * (1 + 8*u64) * (1 + 2*u64)
		pL[k-1] *= (1 - f) * (1 - 2*u64)
		pH[k-1] *= (1 - f) * (1 + 2*u64)
	}
	lo := make([]float64, n)
	copy(lo, pL)
	return lo, true
}

// oneMinus returns a float64 t in [0, 1] with 1 - t <= y exactly (y >= 0):
// 1 - y rounded, then one ulp up.
func oneMinus(y float64) float64 {
	if !(y < 1) {
		return 0
	}
	return math.Min(1, math.Nextafter(1-y, 2))
}
