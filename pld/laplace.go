package pld

import (
	"context"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// LaplaceDelta returns a certified interval for the optimal delta(eps) of
// count compositions of the Laplace mechanism with scale b and sensitivity
// 1 (the pair Lap(0, b), Lap(1, b) is symmetric, so add/remove and both
// directions agree): Delta of count Laplace events.
//
// Method. With B = 1/b, the privacy loss L(x) = (|x-1| - |x|)/b is B for
// x <= 0 (P-mass 1/2), -B for x >= 1 (P-mass e^-B/2) and 1 - 2x over b in
// between, where its P-density is e^(-B/2) e^(l/2)/4 and its Q-density
// e^(-B/2) e^(-l/2)/4 on (-B, B).
//
// One step (count = 1), in closed form: for |eps| <= B, L > eps iff
// x < x_e = (1 - b eps)/2 in (0, 1), so delta = P(X < x_e) - e^eps
// Q(X < x_e) = 1 - e^(-x_e/b)/2 - e^eps e^(-(1-x_e)/b)/2, that is
//
//	delta(eps) = 1 - e^((eps - B)/2)   for -B <= eps <= B,
//	delta(eps) = 0 for eps >= B, 1 - e^eps for eps <= -B,
//
// evaluated in big.Float at two precisions until they agree to 64 bits,
// then rounded outward by 2^-60 relative.
//
// Compositions (count >= 2) go through the grid (see the package's
// Method) with the cells of laplaceCells: the loss is bounded, so there
// are no tails, and the cell boundaries are grid points (no slivers); the
// atoms at +-B are placed in their cells by an exact test (the sign of the
// FMA k h b -+ 1), and the error of fl(1/b) (at most u B) moves a cell's
// masses and surplus by at most a quarter of it (both densities are at
// most 1/4), charged to the cells next to +-B. An atom at +-1/b between
// two grid points can only be moved down to the point below in a lower
// measure (no post-processing puts its mass, 1/2 or e^(-1/b)/2 of the
// step's, on the grid without it), so the lower end converges only as h,
// and runs with large b and many steps need fine grids.
//
// Special cases:
//
//	LaplaceDelta(b, count, +Inf) = [0, 0]
//	LaplaceDelta(b, count, -Inf) = [1, 1]
//	LaplaceDelta(b, 1, eps) = [0, 0] for eps >= 1/b
func LaplaceDelta(b float64, count int, eps float64) (Interval, error) {
	const fn = "LaplaceDelta"
	if err := checkLaplace(fn, b, count); err != nil {
		return Interval{}, err
	}
	return Delta(context.Background(), Composition{Terms: []Term{{Laplace{b}, int64(count)}}}, eps)
}

// LaplaceEpsilon returns a certified interval for the optimal eps(delta)
// = inf{eps >= 0 : delta(eps) <= delta} of count compositions of the
// Laplace mechanism (see LaplaceDelta): Epsilon of count Laplace events.
func LaplaceEpsilon(b float64, count int, delta float64) (Interval, error) {
	const fn = "LaplaceEpsilon"
	if err := checkLaplace(fn, b, count); err != nil {
		return Interval{}, err
	}
	return Epsilon(context.Background(), Composition{Terms: []Term{{Laplace{b}, int64(count)}}}, delta)
}

func checkLaplace(fn string, b float64, count int) error {
	if !(b > 0) || math.IsInf(b, 1) {
		return inputErr(fn, "b", b, "must be finite and > 0")
	}
	return checkCount(fn, count)
}

func (e Laplace) pair(rel Relation) (pairOf, error) {
	switch {
	case rel == ReplaceOne:
		return pairOf{}, relErr(e, rel, "ADD_OR_REMOVE_ONE, REPLACE_SPECIAL")
	case e.B == 0:
		return pairOf{nonPrivate: true}, nil
	}
	return exactPair(laplaceMeasure{e.B}, nil), nil
}

// laplaceMeasure is one step of the Laplace mechanism (either direction).
type laplaceMeasure struct{ b float64 }

func (m laplaceMeasure) key() string { return "laplace " + fmtF(m.b) }

func (m laplaceMeasure) cells(h float64, _ cut) (stepCells, error) {
	if 2/(m.b*h) > 1<<31 {
		return stepCells{}, &tooLargeErr{"grid", "the Laplace step spans more than 2^31 cells"}
	}
	kmin, cells := laplaceCells(m.b, h)
	return stepCells{kmin: kmin, cells: cells, leftK: kmin}, nil
}

func (m laplaceMeasure) logMGF(l float64) float64 { return laplaceK(m.b, l) }

// maxLoss: 1/b, within u.
func (m laplaceMeasure) maxLoss() float64 { return 1 / m.b * (1 + 2*u64) }

// laplaceK estimates (float64, uncertified: it only chooses the tilt)
// K(lambda) = log E_P e^(lambda L) for one step.
func laplaceK(b, lambda float64) float64 {
	B := 1 / b
	c := lambda + 0.5
	cont := 0.25 * math.Exp(-B/2) * (math.Exp(c*B) - math.Exp(-c*B)) / c
	return math.Log(0.5*math.Exp(lambda*B) + 0.5*math.Exp(-B-lambda*B) + cont)
}

func (e SampledLaplace) pair(rel Relation) (pairOf, error) {
	switch {
	case rel == ReplaceOne:
		return pairOf{}, relErr(e, rel, "ADD_OR_REMOVE_ONE, REPLACE_SPECIAL")
	case e.Q == 0:
		return pairOf{noop: true}, nil
	case e.B == 0 && e.Q == 1:
		return pairOf{nonPrivate: true}, nil
	case e.B == 0:
		return sgmNoNoise(e.Q, rel), nil // the outputs tell 0 from 1 exactly
	case e.Q == 1:
		return Laplace{e.B}.pair(rel)
	}
	return exactPair(sampledLaplaceSpec(e.Q, e.B, false), sampledLaplaceSpec(e.Q, e.B, true)), nil
}

// sampledLaplaceSpec is one step of the Poisson-sampled Laplace mechanism
// in one direction. Remove: P = (1-q) Lap(0, b) + q Lap(1, b), Q = Lap(0,
// b); with l(x) = (2x-1)/b on (0, 1), the loss is L = log1p(q expm1(l)),
// increasing; x <= 0 is an atom of loss log1p(q expm1(-B)) (P-mass
// (1-q)/2 + q e^-B/2), x >= 1 one of loss log1p(q expm1(B)) (P-mass
// (1-q) e^-B/2 + q/2), B = 1/b. Add: P = Lap(0, b), Q the mixture, loss
// the negative; it decreases in x, so it is given on y = -x.
func sampledLaplaceSpec(q, b float64, add bool) *monoSpec {
	B := 1 / b // within u B
	// the loss at l = (2x-1)/b (l within el) and its error: t = q expm1(l)
	// (expm1 4u, its argument's error times e^l, the product u),
	// log1p(t) (the error of t over 1 + t, log1p 4u).
	lossAt := func(l, el float64) (float64, float64) {
		em := math.Expm1(l)
		t := q * em
		et := q*(4*u64*math.Abs(em)+math.Exp(l)*el*1.01) + u64*math.Abs(t)
		L := math.Log1p(t)
		return L, (et/(1+t-et)*1.01 + 4*u64*math.Abs(L)) * (1 + 2*u64)
	}
	// Lap(m, b) masses of [a, c] within [0, 1] (on the side of m that
	// holds it): Lap0 = e^(-a/b) (1 - e^(-(c-a)/b))/2, Lap1 = e^(-(1-c)/b)
	// (1 - e^(-(c-a)/b))/2. c - a and 1 - c within u of their values, the
	// quotients by b within u more: -expm1 within 4u + 2u of its argument
	// (its slope is below 1 over the value), the scales within 2u of
	// their magnitude (1.01 of that relative).
	lap := func(a, c float64, one bool) sc {
		if !(c > a) {
			return sc{}
		}
		y := (c - a) / b
		v := -math.Expm1(-y) / 2
		var ls float64
		if one {
			ls = -(1 - c) / b
		} else {
			ls = -a / b
		}
		return sc{v, ls, math.Abs(v) * (8*u64 + 2.02*u64*math.Abs(ls))}
	}
	name := "sampled-laplace " + fmtF(q) + " " + fmtF(b) + " " + map[bool]string{false: "remove", true: "add"}[add]
	// atoms: B within u B, so expm1(+-B) within 4u + 1.01 u B e^B/|expm1|
	lm, elm := lossAt(-B, 1.01*u64*B)
	lp, elp := lossAt(B, 1.01*u64*B)
	eB := math.Exp(-B) // within 4u + 1.01 u B
	rB := (4 + 1.01*B) * u64
	mLo := sc{((1 - q) + q*eB) / 2, 0, ((1-q)*u64 + q*eB*rB + 2*u64*((1-q)+q*eB)) / 2}
	mHi := sc{((1-q)*eB + q) / 2, 0, ((1-q)*eB*(rB+u64) + 2*u64*((1-q)*eB+q)) / 2}
	spec := &monoSpec{name: name, mgf: func(l float64) float64 { return sampledLaplaceK(q, b, l, add) }}
	if !add {
		spec.xa, spec.xb = 0, 1
		spec.loss = func(x float64) (float64, float64) {
			l := (2*x - 1) / b
			return lossAt(l, 2.02*u64*math.Abs(l)+u64*B)
		}
		spec.qMass = func(a, c float64) sc { return lap(a, c, false) }
		spec.pMass = func(a, c float64) sc { return lap(a, c, false).scale(1 - q).addTo(lap(a, c, true).scale(q)) }
		spec.atoms = []atom{{mLo, lm, elm}, {mHi, lp, elp}}
		return spec
	}
	spec.xa, spec.xb = -1, 0
	spec.loss = func(y float64) (float64, float64) {
		l := (-2*y - 1) / b
		L, e := lossAt(l, 2.02*u64*math.Abs(l)+u64*B)
		return -L, e
	}
	spec.pMass = func(a, c float64) sc { return lap(-c, -a, false) }
	spec.qMass = func(a, c float64) sc { return lap(-c, -a, false).scale(1 - q).addTo(lap(-c, -a, true).scale(q)) }
	// x <= 0 (y >= 0): P-mass 1/2, loss -lm; x >= 1 (y <= -1): P-mass
	// e^-B/2, loss -lp
	spec.atoms = []atom{{exactSC(0.5), -lm, elm}, {sc{eB / 2, 0, eB / 2 * rB}, -lp, elp}}
	return spec
}

// sampledLaplaceK estimates (uncertified) log E_P e^(lambda L) of one
// sampled Laplace step: the atoms and a midpoint quadrature of the
// continuous part.
func sampledLaplaceK(q, b, lambda float64, add bool) float64 {
	B := 1 / b
	L := func(l float64) float64 { return math.Log1p(q * math.Expm1(l)) }
	sign := 1.0
	if add {
		sign = -1
	}
	// P-densities in l on (-B, B): Q = e^(-B/2) e^(-l/2)/4, the mixture
	// (1 - q + q e^l) times that
	const n = 2000
	dl := 2 * B / n
	var terms []float64
	for i := 0; i < n; i++ {
		l := -B + (float64(i)+0.5)*dl
		lq := -B/2 - l/2 - math.Log(4)
		lp := lq
		if !add {
			lp += L(l)
		}
		terms = append(terms, lp+lambda*sign*L(l)+math.Log(dl))
	}
	if add {
		terms = append(terms, math.Log(0.5)+lambda*sign*L(-B), -B+math.Log(0.5)+lambda*sign*L(B))
	} else {
		terms = append(terms, math.Log(((1-q)+q*math.Exp(-B))/2)+lambda*L(-B), math.Log(((1-q)*math.Exp(-B)+q)/2)+lambda*L(B))
	}
	best := math.Inf(-1)
	for _, t := range terms {
		best = math.Max(best, t)
	}
	var s float64
	for _, t := range terms {
		s += math.Exp(t - best)
	}
	return best + math.Log(s)
}

// laplaceCells returns the cells (g_(kmin+i), g_(kmin+i+1)] of one step's
// loss (see LaplaceDelta's Method), each with alpha (P-mass), beta
// (Q-mass) and A = E_P[1_cell (1 - e^(g - L))] as scaled values with error
// bounds, and no slivers.
func laplaceCells(b, h float64) (int, []cell) {
	B := 1 / b                  // within u B of 1/b
	dB := B * u64 * (1 + 4*u64) // |B - 1/b| <= dB
	// jp: the cell holding +B (g_jp < 1/b <= g_(jp+1)); jm: -B's.
	firstAtLeast := func(sign float64) int { // least k with k h b >= sign
		k := int(math.Ceil(sign * B / h))
		for math.FMA(float64(k)*h, b, -sign) >= 0 {
			k--
		}
		for math.FMA(float64(k)*h, b, -sign) < 0 {
			k++
		}
		return k
	}
	jp := firstAtLeast(1) - 1
	jm := firstAtLeast(-1) - 1
	kmin := jm - 1
	n := jp + 2 - kmin // cells kmin .. jp+1
	cells := make([]cell, n)
	for i := range cells {
		j := kmin + i
		g := float64(j) * h
		cl := cell{sliver: math.Inf(-1)}
		a, c := math.Max(g, -B), math.Min(g+h, B)
		if c > a {
			w := (c - a) / 2
			rel := 24*u64 + 2*u64*(math.Abs(a)+B) + dB
			// alpha = e^(-B/2)/2 e^(a/2) expm1(w)
			am := 0.5 * math.Expm1(w)
			cl.alpha = sc{am, (a - B) / 2, am * rel}
			// beta = e^(-B/2)/2 e^(-a/2) (1 - e^-w)
			bm := -0.5 * math.Expm1(-w)
			cl.beta = sc{bm, (-a - B) / 2, bm * rel}
			// A = e^(-B/2)/2 e^(a/2) [(2 sinh(w/2))^2 + rho (1 - e^-w)],
			// rho = 1 - e^(g-a) >= 0: positive terms
			sh := math.Expm1(w/2) - math.Expm1(-w/2)
			rho := -math.Expm1(g - a)
			Am := 0.5 * (sh*sh + rho*(-math.Expm1(-w)))
			cl.A = sc{Am, (a - B) / 2, Am * rel}
		} else {
			cl.alpha, cl.beta, cl.A = sc{0, 0, 0}, sc{0, 0, 0}, sc{0, 0, 0}
		}
		if j == jp { // atom at +B: P-mass 1/2, Q-mass e^-B/2
			cl.alpha = cl.alpha.add(sc{0.5, 0, 0}, 1)
			cl.beta = cl.beta.add(sc{0.5, -B, 0.5 * (dB*1.01 + 8*u64)}, 1)
			x := -math.Expm1(g - B) // 1 - e^(g - 1/b) within dB + 2u h + 4u
			cl.A = cl.A.add(sc{0.5 * math.Max(x, 0), 0, 0.5 * (dB + 2*u64*h + 8*u64)}, 1)
		}
		if j == jm { // atom at -B: P-mass e^-B/2, Q-mass 1/2
			cl.alpha = cl.alpha.add(sc{0.5, -B, 0.5 * (dB*1.01 + 8*u64)}, 1)
			cl.beta = cl.beta.add(sc{0.5, 0, 0}, 1)
			x := -math.Expm1(g + B)
			cl.A = cl.A.add(sc{0.5 * math.Max(x, 0), -B, 0.5 * (2*dB*1.01 + 2*u64*h + 8*u64)}, 1)
		}
		if j >= jp-1 || j <= jm+1 { // the error of fl(1/b) at the ends of the range
			e := sc{0, 0, 0.25 * (dB + 4*u64*B) * 1.01}
			cl.alpha = cl.alpha.add(e, 1)
			cl.beta = cl.beta.add(e, 1)
			cl.A = cl.A.add(e, 1)
		}
		cells[i] = cl
	}
	return kmin, cells
}

// laplaceOneStep is the closed form of one step (see LaplaceDelta).
func laplaceOneStep(b, eps float64) Interval {
	eval := func(wp uint) *big.Float {
		one := newF(wp).SetInt64(1)
		B := newF(wp).Quo(one, newF(wp).SetFloat64(b))
		e := newF(wp).SetFloat64(eps)
		switch {
		case e.Cmp(B) >= 0:
			return newF(wp)
		case e.Cmp(newF(wp).Neg(B)) <= 0:
			return newF(wp).Sub(one, bigfloat.Exp(e))
		}
		x := newF(wp).Sub(e, B)
		x.Quo(x, newF(wp).SetInt64(2))
		return newF(wp).Sub(one, bigfloat.Exp(x))
	}
	wp := uint(128)
	for {
		x, y := eval(wp), eval(2*wp)
		if agreeBits(x, y, 64) || wp > 1<<14 {
			if y.Sign() == 0 {
				return Interval{0, 0}
			}
			return outward(y, 0x1p-60)
		}
		wp *= 2
	}
}
