package pld

import (
	"context"
	"math"
)

// tmeas is a composed pair of measures on the grid: for grid index
// k0 + i, the upper mass is up[i] e^(logZ - lambda g) and the lower
// lo[i] e^(logZ - lambda g), g = (k0+i) h. slack (in the units of up)
// bounds what the upper vector leaves out: for every phi >= 0,
// E_U phi <= E_up phi + slack e^logZ sup_l phi(l) e^(-lambda l);
// slackLo bounds the tilted total variation |lo - X| of the lower vector
// from a measure X below the composed lower measure, so that
// E_L phi >= E_lo phi - slackLo e^logZ sup_l phi(l) e^(-lambda l)
// (doc.go, Method, step 3).
type tmeas struct {
	k0      int
	up, lo  []float64
	logZ    float64
	slack   float64
	slackLo float64
	// sh: the vector's spacing is its run's spacing times 2^sh (coarsen)
	sh int
	// tiltRel bounds the relative error of every entry that the tilts'
	// rounding makes (each step's e^(lambda g_k - ref) is computed with
	// lambda g_k and the difference rounded; those errors add under
	// composition, the entries being positive)
	tiltRel float64
}

// dropFrac is the tilted mass, relative to the total, dropped at each end
// after a convolution.
const dropFrac = 1e-24

func fromStep(s stepGrid) tmeas {
	return normalise(truncate(tmeas{k0: s.k0, up: s.up, lo: s.lo, logZ: s.ref, tiltRel: s.tiltRel}, 0))
}

func sumUp(v []float64) float64 {
	var t float64
	for _, x := range v {
		t += x
	}
	return t * (1 + float64(len(v)+2)*u64)
}

// conv composes a and b (b == nil: a with itself).
func conv(a, b *tmeas) tmeas {
	sq := b == nil
	if sq {
		b = a
	}
	ru, rl, err := convPair(a.up, a.lo, b.up, b.lo, sq)
	// err bounds the 2-norm of either result's error vector, so the sum
	// of its absolute entry errors is at most sqrt(len) err.
	e1 := err * math.Sqrt(float64(len(ru))) * (1 + 4*u64)
	return finishConv(a, b, ru, rl, e1)
}

// finishConv makes the composition of a and b from the computed
// convolutions ru (upper) and rl (lower), whose entries' absolute errors
// sum to at most e1 each.
func finishConv(a, b *tmeas, ru, rl []float64, e1 float64) tmeas {
	Ta, Tb := sumUp(a.up), sumUp(b.up)
	slack := a.slack*(Tb+b.slack) + b.slack*Ta + e1
	La, Lb := sumUp(a.lo), sumUp(b.lo)
	slackLo := a.slackLo*(Lb+b.slackLo) + b.slackLo*La + e1
	// The exact values are >= 0, so clamping at 0 moves no entry
	// further from them.
	for i := range ru {
		if ru[i] < 0 {
			ru[i] = 0
		}
		if rl[i] < 0 {
			rl[i] = 0
		}
	}
	if a.sh != b.sh {
		panic("finishConv: the vectors' spacings differ")
	}
	r := tmeas{k0: a.k0 + b.k0, up: ru, lo: rl, logZ: a.logZ + b.logZ, sh: a.sh,
		slack: slack * (1 + 4*u64), slackLo: slackLo * (1 + 4*u64),
		tiltRel: (a.tiltRel + b.tiltRel + a.tiltRel*b.tiltRel) * (1 + 4*u64)}
	return normalise(truncate(r, 2*e1))
}

// square composes a with itself. When most of a's tilted mass lies in a
// window H much shorter than a, a*a = H*H + R*(a + H) (R = a - H) is
// computed as two convolutions: H*H on a short transform, whose error is
// that of the window's length, and R*(a + H), whose error is in
// proportion to R's small norms; the sum of their bounds (each 2-norm
// bound times the square root of its length, plus u of each entry's
// sum) replaces sqrt(len) E of the whole. This is what keeps the early
// squarings of a narrow step on a long grid (small q: the mass within a
// few cells, the vector thousands long) from making an error that the
// later squarings double, each, up to the width. The split is used when
// its predicted bound is under half the plain one.
func square(a *tmeas) tmeas {
	if ru, rl, e1, ok := splitSquare(a.up, a.lo); ok {
		return finishConv(a, a, ru, rl, e1)
	}
	return conv(a, nil)
}

// splitSquare computes up*up and lo*lo as H*H + R*(a + H) (see square),
// with e1 bounding the sum of either result's absolute entry errors; ok is
// false when the split does not pay.
func splitSquare(up, lo []float64) (ru, rl []float64, e1 float64, ok bool) {
	n := len(up)
	i0, i1 := window(up, sumUp(up)*0x1p-12)
	w := i1 - i0
	if w <= 0 || 4*w > n {
		return nil, nil, 0, false
	}
	plain := convErr(nextPow2(2*n-1), up, lo, up, lo) * math.Sqrt(float64(2*n-1))
	hu, hl := up[i0:i1], lo[i0:i1]
	Ru := append([]float64(nil), up...)
	Rl := append([]float64(nil), lo...)
	cu := append([]float64(nil), up...)
	cl := append([]float64(nil), lo...)
	for i := i0; i < i1; i++ {
		Ru[i], Rl[i] = 0, 0
		cu[i] *= 2 // exact
		cl[i] *= 2
	}
	eH := convErr(nextPow2(2*w-1), hu, hl, hu, hl) * math.Sqrt(float64(2*w-1))
	eR := convErr(nextPow2(2*n-1), Ru, Rl, cu, cl) * math.Sqrt(float64(2*n-1))
	if !(eH+eR < plain/2) {
		return nil, nil, 0, false
	}
	hhU, hhL, _ := convPair(hu, hl, hu, hl, true)
	ru, rl, _ = convPair(Ru, Rl, cu, cl, false)
	// the sums: each entry within u of its exact sum, in all at most
	// u (sum|rc| + sum|hh|) (norms rounds these sums up)
	n1, _ := norms(hhU)
	n2, _ := norms(ru)
	n3, _ := norms(hhL)
	n4, _ := norms(rl)
	for j := range hhU {
		ru[2*i0+j] += hhU[j]
		rl[2*i0+j] += hhL[j]
	}
	e1 = (eH + eR + u64*math.Max(n1+n2, n3+n4)) * (1 + 4*u64)
	return ru, rl, e1, true
}

// window returns [i0, i1) such that the entries of v below i0 sum to at
// most lim, and those from i1 on too.
func window(v []float64, lim float64) (i0, i1 int) {
	acc := 0.0
	for i0 < len(v) && acc+v[i0] <= lim {
		acc += v[i0]
		i0++
	}
	i1, acc = len(v), 0
	for i1 > i0 && acc+v[i1-1] <= lim {
		acc += v[i1-1]
		i1--
	}
	return i0, i1
}

// truncate drops entries at both ends whose upper tilted mass sums to at
// most dropFrac of the total or budget (at each end); the dropped upper
// mass goes to slack, the dropped lower mass is simply lost (X restricted
// to the kept entries is still below the composed lower measure, and the
// kept entries' errors are unchanged).
func truncate(r tmeas, budget float64) tmeas {
	T := sumUp(r.up)
	lim := math.Max(T*dropFrac, budget)
	i, acc := 0, 0.0
	for i < len(r.up)-1 && acc+r.up[i] <= lim {
		acc += r.up[i]
		i++
	}
	j, acc2 := len(r.up), 0.0
	for j-1 > i && acc2+r.up[j-1] <= lim {
		acc2 += r.up[j-1]
		j--
	}
	r.slack += (acc + acc2) * (1 + float64(len(r.up))*u64)
	r.k0 += i
	r.up = r.up[i:j]
	r.lo = r.lo[i:j]
	return r
}

// normalise scales by a power of two (exact) so that max(up) is in [1, 2).
func normalise(r tmeas) tmeas {
	mx := 0.0
	for _, x := range r.up {
		mx = math.Max(mx, x)
	}
	if mx == 0 || math.IsInf(mx, 0) {
		return r
	}
	_, e := math.Frexp(mx)
	f := math.Ldexp(1, 1-e)
	for i := range r.up {
		r.up[i] *= f
		r.lo[i] *= f
	}
	r.slack *= f
	r.slackLo *= f
	r.logZ += float64(e-1) * math.Ln2
	return r
}

// coarsenLen is the length past which a composed vector is coarsened
// (coarsen): a run's spread of 2^20 points puts the spacing below a
// millionth of it, where coarsening's second-order error is far below
// the width asked.
const coarsenLen = 1 << 20

// power returns the n-fold composition by repeated squaring (n >= 1) of s,
// whose spacing is s0 times 2^s.sh, at tilt lambda, checking ctx between
// convolutions. A vector longer than coarsenLen is coarsened; one longer
// than maxLen is ErrTooLarge.
func power(ctx context.Context, s tmeas, n int64, maxLen int, s0, lambda float64) (tmeas, error) {
	var res *tmeas
	base := s
	for n > 0 {
		if err := ctx.Err(); err != nil {
			return tmeas{}, err
		}
		if n&1 == 1 {
			if res == nil {
				c := base
				res = &c
			} else {
				a, b := alignSh(*res, base, s0, lambda)
				c := conv(&a, &b)
				res = &c
			}
			for len(res.up) > coarsenLen {
				c := coarsen(*res, math.Ldexp(s0, res.sh), lambda)
				res = &c
			}
			if len(res.up) > maxLen {
				return tmeas{}, &tooLargeErr{"grid", "a composed vector is longer than Options.MaxGrid"}
			}
		}
		n >>= 1
		if n > 0 {
			base = square(&base)
			for len(base.up) > coarsenLen {
				base = coarsen(base, math.Ldexp(s0, base.sh), lambda)
			}
			if len(base.up) > maxLen {
				return tmeas{}, &tooLargeErr{"grid", "a composed vector is longer than Options.MaxGrid"}
			}
		}
	}
	return *res, nil
}

// alignSh coarsens the finer of a and b (spacings s0 2^sh) to the other's.
func alignSh(a, b tmeas, s0, lambda float64) (tmeas, tmeas) {
	for a.sh < b.sh {
		a = coarsen(a, math.Ldexp(s0, a.sh), lambda)
	}
	for b.sh < a.sh {
		b = coarsen(b, math.Ldexp(s0, b.sh), lambda)
	}
	return a, b
}

// grid is where a vector's entries sit: entry k at g_k = o + k s. On
// the dyadic grid (o = 0, s = h a power of two) g_k is exact; on an
// event's lattice (discrete.go) o and s are known within oErr and sErr and
// g_k is computed with rounding.
type grid struct {
	o, s       float64
	oErr, sErr float64
	exact      bool
}

func dyadic(h float64) grid { return grid{s: h, exact: true} }

// at returns g_k and a bound on |computed - exact|: o + k s rounds twice
// (within u of |k s| and of the sum), plus the errors of o and s.
func (g grid) at(k int) (v, e float64) {
	kf := float64(k) // exact: |k| <= 2^50 (atomCells, the grids' sizes)
	ks := kf * g.s
	v = g.o + ks
	if g.exact {
		return v, 0
	}
	// the product's and the sum's rounding errors, exactly (FMA; TwoSum),
	// so that a point the arithmetic hits exactly (a lattice of spacing 1
	// at 0, say) has no error of its own: an error bound straddling a cell
	// boundary would make its atom a sliver, dropped from the lower
	// measure. FMA's residual is exact unless the product is near the
	// underflow threshold: there the old bound, u of each magnitude.
	pe := math.FMA(kf, g.s, -ks)
	bb := v - g.o
	se := (g.o - (v - bb)) + (ks - bb)
	if math.Abs(ks) < 0x1p-960 || math.IsInf(v, 0) || math.IsNaN(se) {
		pe, se = 1.01*u64*math.Abs(ks), 1.01*u64*math.Abs(v)
	}
	return v, (g.oErr + math.Abs(kf)*g.sErr + math.Abs(pe) + math.Abs(se)) * (1 + 4*u64)
}

// composed is the result of a run in one direction.
type composed struct {
	m      tmeas
	g      grid
	lambda float64
	inf    float64 // upper bound on the composed upper measure's mass at +Inf
	infLo  float64 // lower bound on the composition's mass at +Inf
	excess float64 // sum over steps of their excess (see buildStep)
	// prepared once (prepare): the untilted upper and lower masses uU =
	// up e^(logZ - lambda g) and uL likewise, rounded up and down (the
	// tilts' rounding and Exp's charged); each entry's loss from above
	// (gU) and below (gL), and e^-gU, e^-gL (where gMax <= 600), the same
	// at every eps.
	uU, uL, gU, gL, egU, egL []float64
	gMax                     float64
}

func (c *composed) prepare() {
	m := &c.m
	n := len(m.up)
	c.uU, c.uL = make([]float64, n), make([]float64, n)
	c.gU, c.gL = make([]float64, n), make([]float64, n)
	c.egU, c.egL = make([]float64, n), make([]float64, n)
	c.gMax = math.Inf(-1)
	for i := range m.up {
		g, e := c.g.at(m.k0 + i)
		c.gU[i], c.gL[i] = g+e, g-e
		if !c.g.exact {
			c.gU[i], c.gL[i] = math.Nextafter(g+e, inf), math.Nextafter(g-e, math.Inf(-1))
		}
		c.gMax = math.Max(c.gMax, c.gU[i])
		// the tilt undone: lambda g and logZ - lambda g within u of their
		// magnitudes, Exp 4u more; and every entry's tilt error (tiltRel)
		lg := c.lambda * g
		d := m.logZ - lg
		r := (4+1.01*(math.Abs(lg)+math.Abs(d)))*u64 + m.tiltRel
		f := math.Exp(d)
		c.uU[i] = m.up[i] * f * (1 + r) * (1 + 2*u64)
		c.uL[i] = m.lo[i] * f * (1 - r) * (1 - 2*u64)
	}
	if c.gMax <= 600 {
		for i := range c.gU {
			c.egU[i], c.egL[i] = math.Exp(-c.gU[i]), math.Exp(-c.gL[i])
		}
	}
}

// delta returns certified bounds on this direction's delta(eps).
func (c *composed) delta(eps float64) Interval {
	if math.IsInf(eps, 1) {
		return Interval{c.infLo, math.Min(1, c.inf)}
	}
	m := &c.m
	if c.uU == nil {
		c.prepare()
	}
	var sHi, sLo float64
	// the entries whose loss may exceed eps: from the first with gU > eps
	i0 := 0
	if k := math.Floor((eps-c.g.o)/c.g.s) - float64(m.k0) - 2; k > 0 {
		i0 = int(math.Min(k, float64(len(m.up))))
	}
	for i0 > 0 && c.gU[i0-1] > eps {
		i0--
	}
	if eps >= 0 && eps <= 600 && c.gMax <= 600 {
		// w = 1 - e^eps e^-g: e^eps and e^-g within 4u each, their
		// product within 10u, so |w - (1 - e^(eps-g))| <= 10u e^(eps-g)
		// + u |w| <= 11u for g > eps; each term's error is at most 11u
		// times its U (or L), added below.
		E := math.Exp(eps)
		var sU, sL float64
		for i := i0; i < len(m.up); i++ {
			if c.gU[i] > eps {
				sHi += c.uU[i] * (1 - E*c.egU[i])
				sU += c.uU[i]
			}
			if c.gL[i] > eps {
				sLo += c.uL[i] * (1 - E*c.egL[i])
				sL += c.uL[i]
			}
		}
		sHi += 11 * u64 * sU
		sLo -= 11 * u64 * sL
	} else {
		for i := i0; i < len(m.up); i++ {
			if c.gU[i] > eps {
				sHi += c.uU[i] * -math.Expm1(eps-c.gU[i])
			}
			if c.gL[i] > eps {
				sLo += c.uL[i] * -math.Expm1(eps-c.gL[i])
			}
		}
		// Expm1 within 4u, its argument within u of its magnitude, which
		// moves it by at most u min(|eps - g|, 1) (x e^-x <= 1/e)
		sHi *= 1 + 8*u64
		sLo *= 1 - 8*u64
		sHi += 2 * u64 * sumAbsArg(c, i0, eps, true)
		sLo -= 2 * u64 * sumAbsArg(c, i0, eps, false)
	}
	n := float64(len(m.up) + 40)
	sHi *= 1 + 16*n*u64
	sLo *= 1 - 16*n*u64
	// slack: sup_{l > eps} (1 - e^(eps-l)) e^(-lambda l)
	lam := c.lambda
	kap := 1.0
	if lam > 0 {
		kap = math.Exp(-math.Log1p(lam) + lam*(math.Log(lam)-math.Log1p(lam)))
	}
	sl := m.slack * math.Exp(m.logZ-lam*eps) * kap * (1 + 16*u64)
	hi := sHi + sl + c.inf
	slLo := m.slackLo * math.Exp(m.logZ-lam*eps) * kap * (1 + 16*u64)
	lo := sLo - slLo - c.excess*(sumUp(m.up)+m.slack)*math.Exp(m.logZ-lam*eps)*kap*(1+16*u64)
	if lo < 0 {
		lo = 0
	}
	// the paths that reach +Inf add their mass (the vectors hold the
	// finite paths only)
	lo = (lo + c.infLo) * (1 - 2*u64)
	// a tilt far from eps can overflow the untilted weights: the bounds
	// are then the trivial ones (NaN fails both comparisons)
	if !(lo >= 0) {
		lo = 0
	}
	if !(hi <= 1) {
		hi = 1
	}
	return Interval{math.Min(lo, 1), math.Min(1, hi*(1+4*u64))}
}

// sumAbsArg is sum over the entries counted of their mass times |eps - g|
// (the rounding of Expm1's argument, relative to it).
func sumAbsArg(c *composed, i0 int, eps float64, upper bool) float64 {
	var s float64
	for i := i0; i < len(c.m.up); i++ {
		if upper && c.gU[i] > eps {
			s += c.uU[i] * math.Min(1, math.Abs(eps-c.gU[i]))
		}
		if !upper && c.gL[i] > eps {
			s += c.uL[i] * math.Min(1, math.Abs(eps-c.gL[i]))
		}
	}
	return s
}

// coarsen puts t (spacing s, tilt lambda) on the grid of spacing 2s whose
// points are its even ones: point 2j stays; the odd point 2j+1, halfway
// between 2j and 2j+2, is split as connect the dots splits it (mass
// p/(1 + e^-s) up to 2j+2 and p e^-s/(1 + e^-s) down to 2j: the same P-
// and Q-mass, the curve a chord above) in the upper vector, and in the
// lower vector each target cell (2j, 2j+2] is an outcome of alpha = p_odd
// + p_even, surplus A = p_odd (1 - e^-s) + p_even (1 - e^-2s) and deficit
// C = p_odd (e^s - 1) that garbleLower places on the grid by
// post-processing (the curve below), or, when its checks fail, the odd
// points are moved down (coupling). The slacks keep their meaning (both
// constructions move E phi the right way for every phi a composition
// applies); the factors e^(+-lambda s) and e^-s are within 4u plus u of
// their arguments' magnitudes, charged to tiltRel.
func coarsen(t tmeas, s, lambda float64) tmeas {
	n := len(t.up)
	k0, k1 := t.k0, t.k0+n-1
	jmin := floorDiv(k0-1, 2)
	jmax := floorDiv(k1-1, 2)
	m := jmax - jmin + 1 // cells
	up := make([]float64, m+1)
	eLs, eLsP := math.Exp(-lambda*s), math.Exp(lambda*s)
	es := math.Exp(-s)
	split := 1 / (1 + es) // up share
	r := (10 + 1.01*math.Abs(lambda*s) + 1.01*s) * u64
	val := func(v []float64, k int) float64 {
		if k < k0 || k > k1 {
			return 0
		}
		return v[k-k0]
	}
	for k := k0; k <= k1; k++ {
		v := t.up[k-k0]
		if v == 0 {
			continue
		}
		if k%2 == 0 {
			up[k/2-jmin] += v
			continue
		}
		j := floorDiv(k-1, 2)
		up[j+1-jmin] += v * eLsP * split * (1 + r)
		up[j-jmin] += v * eLs * es * split * (1 + r)
	}
	// the lower vector's cells, tilted at their left points
	aL, aH, AL, cH := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	omes, ome2s, esm1 := -math.Expm1(-s), -math.Expm1(-2*s), math.Expm1(s)
	for j := jmin; j <= jmax; j++ {
		po := val(t.lo, 2*j+1) * eLs
		pe := val(t.lo, 2*j+2) * eLs * eLs
		i := j - jmin
		a := po + pe
		aL[i], aH[i] = a*(1-r), a*(1+r)
		AL[i] = (po*omes + pe*ome2s) * (1 - r)
		cH[i] = po * esm1 * (1 + r)
	}
	// C/A is about 1/3 in every cell (the even point at a cell's right end
	// adds to A, not to C), so the forward chain contracts everywhere
	lo, ok := garbleLower(aL, aH, AL, cH, eLsP*eLsP*(1+r), math.Expm1(2*s), m+1, true)
	if !ok {
		lo = make([]float64, m+1)
		for k := k0; k <= k1; k++ {
			v := t.lo[k-k0]
			if k%2 == 0 {
				lo[k/2-jmin] += v
			} else {
				lo[floorDiv(k-1, 2)-jmin] += v * eLs * (1 - r)
			}
		}
	}
	c := tmeas{k0: jmin, up: up, lo: lo, logZ: t.logZ, slack: t.slack, slackLo: t.slackLo, sh: t.sh + 1,
		tiltRel: (t.tiltRel + r) * (1 + 2*u64)}
	return normalise(truncate(c, 0))
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
