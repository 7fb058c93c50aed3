package pld

import (
	"context"
	"math"
	"strconv"
)

// Phase is a run of Steps steps of the Poisson-subsampled Gaussian
// mechanism with sampling rate Q and noise multiplier Sigma (noise standard
// deviation Sigma times the L2 sensitivity).
type Phase struct {
	Q, Sigma float64
	Steps    int
}

// phasesComposition is the composition of phases, add/remove neighbours.
func phasesComposition(fn string, phases []Phase) (Composition, error) {
	if len(phases) == 0 {
		return Composition{}, inputErr(fn, "phases", math.NaN(), "must not be empty")
	}
	c := Composition{Terms: make([]Term, len(phases))}
	for i, p := range phases {
		if p.Steps < 0 {
			return Composition{}, inputErr(fn, "steps", float64(p.Steps), "must be >= 0")
		}
		if !(p.Sigma > 0) {
			return Composition{}, inputErr(fn, "sigma", p.Sigma, "must be finite and > 0")
		}
		c.Terms[i] = Term{SampledGaussian{p.Q, p.Sigma}, int64(p.Steps)}
	}
	return c, nil
}

// SGMDelta returns a certified interval for the optimal delta(eps) of a run
// of phases of the Poisson-subsampled Gaussian, add/remove neighbours: Delta
// of the composition of SampledGaussian events.
//
// Special cases:
//
//	SGMDelta(phases with all q = 0 or steps = 0, eps) = [0, 0] for eps >= 0
//	SGMDelta(phases, +Inf) = [0, 0]
//	SGMDelta(phases, -Inf) = [1, 1]
func SGMDelta(phases []Phase, eps float64, opts ...Options) (Interval, error) {
	c, err := phasesComposition("SGMDelta", phases)
	if err != nil {
		return Interval{}, err
	}
	return Delta(context.Background(), c, eps, opts...)
}

// SGMEpsilon returns a certified interval for the optimal eps(delta) =
// inf{eps >= 0 : delta(eps) <= delta} of a run of phases of the
// Poisson-subsampled Gaussian (add/remove): Epsilon of the composition of
// SampledGaussian events.
func SGMEpsilon(phases []Phase, delta float64, opts ...Options) (Interval, error) {
	c, err := phasesComposition("SGMEpsilon", phases)
	if err != nil {
		return Interval{}, err
	}
	return Epsilon(context.Background(), c, delta, opts...)
}

func (e SampledGaussian) pair(rel Relation) (pairOf, error) {
	switch {
	case e.Q == 0:
		return pairOf{noop: true}, nil
	case e.Sigma == 0 && e.Q == 1:
		return pairOf{nonPrivate: true}, nil
	case e.Sigma == 0:
		return sgmNoNoise(e.Q, rel), nil
	case e.Q == 1:
		return Gaussian{e.Sigma}.pair(rel)
	case rel == ReplaceOne:
		m := sgmReplaceMeasure(e.Q, e.Sigma)
		return exactPair(m, nil), nil
	}
	return exactPair(sgmMeasure{e.Q, e.Sigma, false}, sgmMeasure{e.Q, e.Sigma, true}), nil
}

// sgmPairExact reports whether one step of e under add/remove has the
// closed form of sgmOneStep.
func sgmPairExact(e SampledGaussian) bool { return e.Q > 0 && e.Sigma > 0 }

func (e Gaussian) pair(rel Relation) (pairOf, error) {
	switch {
	case e.Sigma == 0:
		return pairOf{nonPrivate: true}, nil
	case rel == ReplaceOne: // sensitivity 2: N(-1, s^2) against N(1, s^2)
		return exactPair(gaussMeasure{e.Sigma / 2}, nil), nil
	}
	return exactPair(gaussMeasure{e.Sigma}, nil), nil
}

// sgmMeasure is one step of the SGM in one direction (add: the add
// direction, else remove); its cells are sgmCells'.
type sgmMeasure struct {
	q, sigma float64
	add      bool
}

func (m sgmMeasure) key() string {
	return "sgm " + strconv.FormatFloat(m.q, 'g', -1, 64) + " " + strconv.FormatFloat(m.sigma, 'g', -1, 64) + " " + strconv.FormatBool(m.add)
}

func (m sgmMeasure) cells(h float64, c cut) (stepCells, error) {
	kmin, cells, lt, rt, err := sgmCells(m.q, m.sigma, h, c, m.add)
	// the left tail's losses are below g_kmin plus its boundary's error
	// (at most h/4): below g_(kmin+1)
	return stepCells{kmin: kmin, cells: cells, leftTail: lt, leftK: kmin + 1, rightTail: rt}, err
}

func (m sgmMeasure) logMGF(lambda float64) float64 { return cumulant(m.q, m.sigma, lambda, m.add) }

// maxLoss: the remove direction's loss is unbounded; the add direction's
// is below -log(1-q) (log1p within 4u).
func (m sgmMeasure) maxLoss() float64 {
	if !m.add || m.q == 1 {
		return inf
	}
	return -math.Log1p(-m.q) * (1 + 6*u64)
}

func (m gaussMeasure) maxLoss() float64 { return inf }

// gaussMeasure is the Gaussian mechanism of noise sigma, sensitivity 1:
// the SGM at q = 1 (either direction).
type gaussMeasure struct{ sigma float64 }

func (m gaussMeasure) key() string { return "gauss " + strconv.FormatFloat(m.sigma, 'g', -1, 64) }

func (m gaussMeasure) cells(h float64, c cut) (stepCells, error) {
	return sgmMeasure{1, m.sigma, false}.cells(h, c)
}

// logMGF: the loss is N(mu^2/2, mu^2), mu = 1/sigma.
func (m gaussMeasure) logMGF(lambda float64) float64 {
	return lambda * (lambda + 1) / (2 * m.sigma * m.sigma)
}

// cumulant returns an estimate (float64 quadrature, not certified: it only
// chooses the tilt) of K(lambda) = log E_P e^(lambda L) for one step in
// direction add.
func cumulant(q, s, lambda float64, add bool) float64 {
	s2 := s * s
	lo, hi := -15*s-1-lambda, 1+lambda+15*s
	const n = 600 // an estimate: it only chooses the tilt
	dx := (hi - lo) / n
	best := math.Inf(-1)
	vals := make([]float64, n+1)
	for i := 0; i <= n; i++ {
		x := lo + float64(i)*dx
		L := sgmLoss(x, q, s2)
		var v float64
		if add {
			v = logPhi(x/s) - lambda*L
		} else {
			v = logPhi(x/s) + (lambda+1)*L
		}
		vals[i] = v
		best = math.Max(best, v)
	}
	var sum float64
	for _, v := range vals {
		sum += math.Exp(v - best)
	}
	return best + math.Log(sum*dx/s)
}

// boundary of an x-interval computed in float64, with a bound on its error.
type xb struct {
	x, err float64
}

// sgmX returns x(g) = s^2 log((e^g - 1 + q)/q) + 1/2, the outcome at which
// the remove-direction loss L(x) = log(1 - q + q e^((2x-1)/(2 s^2))) equals
// g (g > log(1-q)), with an error bound: e = expm1(g) + q within
// 4u|expm1 g| + 2u e, log within 4u, the rest within 8u (|x| + 1), plus
// 4u (|x| + 2) for the standardisations (x-1)/s and x/s made of it later.
func sgmX(g, q, s2 float64) xb {
	// le = log(e^g - 1 + q). Where (1-q) e^-g <= 1/2 it is g +
	// log1p(-(1-q) e^-g), free of cancellation (1-q within u, e^-g within
	// 4u, their product within 6u, log1p's slope at most 2 there, 4u
	// more); q = 1 gives g exactly. Else it is log(expm1(g) + q).
	var le, leErr float64
	if y := (1 - q) * math.Exp(-g); q == 1 || y <= 0.5 {
		if q == 1 {
			y = 0
		}
		l1 := math.Log1p(-y)
		le = g + l1
		leErr = 12*u64*y + 4*u64*math.Abs(l1) + u64*math.Abs(le)
	} else {
		em := math.Expm1(g)
		e := em + q
		if !(e > 0) {
			return xb{math.Inf(-1), 0}
		}
		re := (4*math.Abs(em) + 2*e) * u64 / e
		if re > 0.01 {
			return xb{s2*(math.Log(e)-math.Log(q)) + 0.5, math.Inf(1)}
		}
		le = math.Log(e)
		leErr = re*1.01 + 4*u64*math.Abs(le)
	}
	lq := math.Log(q)
	x := s2*(le-lq) + 0.5
	err := s2*(leErr+4*u64*(math.Abs(le)+2*math.Abs(lq))) + 12*u64*(math.Abs(x)+2)
	return xb{x, err}
}

// sgmLoss returns the remove-direction loss at x. At q = 1 it is the
// exponent itself: log1p(expm1(y)) is -Inf once e^y is below an ulp of 1
// (y < -37), and a cut at -Inf sized a grid from it.
func sgmLoss(x, q, s2 float64) float64 {
	y := (2*x - 1) / (2 * s2)
	if q == 1 {
		return y
	}
	return math.Log1p(q * math.Expm1(y))
}

// sgmCells discretises one SGM step in direction add (false: remove).
// lambda is the tilt (used to place the right cut). stepTail > 0 moves the
// x-cuts in to where the P-mass beyond each is about stepTail (see tailZ);
// that mass is still computed with its error bound (leftTail, rightTail)
// and placed as before (at +Inf, or at the lowest grid point, in the
// upper measure; dropped from the lower), so the cuts are a matter of
// width and speed only, not of soundness. It pays where the tilt put the
// cut far out for mass that is negligible untilted (small q, many steps:
// the grid then spans losses up to ~20 for a step whose losses are within
// 1e-3, and the FFT's error grows with the vectors' length).
func sgmCells(q, sigma, h float64, ct cut, add bool) (kmin int, cells []cell, leftTail, rightTail sc, err error) {
	lambda, stepTail := ct.lambda, ct.tail
	s := sigma
	s2 := s * s
	c := 1 / s
	lmin := math.Inf(-1)
	if q < 1 {
		lmin = math.Log1p(-q)
	}
	// x-range kept: remove: [xlo, xhi]; the loss is increasing in x.
	xloCut := -13*s - 1
	xhiCut := 1 + math.Max(lambda, 0) + 13*s
	if add {
		xloCut = -math.Max(lambda, 0) - 13*s - 1
		xhiCut = 13*s + 1
	}
	if z := tailZ(stepTail); z > 0 {
		// remove: the mixture's mass above x is at most N(1,s^2)'s (the
		// largest losses, to +Inf); add: N(0,s^2)'s mass below x (the
		// largest losses -L, to +Inf; only cut when q = 1) and above x
		// (the smallest, moved up to the lowest grid point in the upper
		// measure, dropped from the lower: both moves keep them bounds,
		// and change the composed delta by at most their mass each step).
		// The cut on the side of the large losses goes where the budget
		// says, nearer than the tilt's or farther (a tiny delta needs the
		// tail far out); on the other side it only moves in.
		if add {
			xloCut = -z * s
			xhiCut = math.Min(xhiCut, z*s)
		} else {
			xhiCut = 1 + z*s
		}
	}
	Llo := sgmLoss(xloCut, q, s2)
	Lhi := sgmLoss(xhiCut, q, s2)
	// remove: cells cover (g_kmin, g_kmax+1] ⊇ (Llo, Lhi]; add: losses -L.
	var loCutUsed bool // remove: x lower cut in force (else x from -Inf)
	if !add {
		kminF := math.Floor(Llo / h)
		if q < 1 && Llo-lmin < h/2 {
			kminF = math.Floor(lmin / h)
		} else {
			loCutUsed = true
		}
		n, err := cellCount(kminF, math.Ceil(Lhi/h)-1, ct)
		if err != nil {
			return 0, nil, sc{}, sc{}, err
		}
		kmin = int(kminF)
		cells = make([]cell, n)
		bnd := make([]xb, len(cells)+1)
		for i := range bnd {
			g := float64(kmin+i) * h
			bnd[i] = sgmX(g, q, s2)
		}
		if !loCutUsed {
			bnd[0] = xb{math.Inf(-1), 0}
		}
		for i := range cells {
			g := float64(kmin+i) * h
			xl, xr := bnd[i], bnd[i+1]
			cells[i] = sgmCell(q, s, c, h, g, xl, xr, false)
		}
		// tails
		last := bnd[len(bnd)-1]
		rightTail = tailAbove(last.x-last.err, q, s, false)
		if loCutUsed {
			leftTail = tailBelow(bnd[0].x+bnd[0].err, q, s, false)
		} else {
			leftTail = sc{0, 0, 0}
		}
		return kmin, cells, leftTail, rightTail, checkSlivers(cells, h, bnd, s2)
	}
	// add: loss L' = -L(x), decreasing in x. Cells j: L' in (g_j, g_(j+1)]
	// <=> x in [x(-g_(j+1)), x(-g_j)].
	topCut := true
	kmaxF := math.Ceil(-Llo/h) - 1
	if q < 1 {
		// the top cell contains the largest loss -log(1-q), reached as
		// x -> -Inf: no cut
		kmaxF = math.Ceil(-lmin/h) - 1
		topCut = false
	}
	kminF := math.Floor(-Lhi / h)
	n, err := cellCount(kminF, kmaxF, ct)
	if err != nil {
		return 0, nil, sc{}, sc{}, err
	}
	kmin = int(kminF)
	cells = make([]cell, n)
	bnd := make([]xb, len(cells)+1) // bnd[i] = x(-g_(kmin+i)), decreasing in i
	for i := range bnd {
		g := float64(kmin+i) * h
		bnd[i] = sgmX(-g, q, s2)
	}
	if !topCut {
		bnd[len(bnd)-1] = xb{math.Inf(-1), 0}
	}
	for i := range cells {
		g := float64(kmin+i) * h
		cells[i] = sgmCell(q, s, c, h, g, bnd[i+1], bnd[i], true)
	}
	leftTail = tailAbove(bnd[0].x-bnd[0].err, q, s, true)
	if topCut {
		b := bnd[len(bnd)-1]
		rightTail = tailBelow(b.x+b.err, q, s, true)
	}
	// slivers: reverse the order of boundaries to match cells' right ends
	rb := make([]xb, len(bnd))
	copy(rb, bnd)
	return kmin, cells, leftTail, rightTail, checkSlivers(cells, h, rb, s2)
}

// tailZ returns z >= 4 with the normal upper tail at z about b (0 < b <
// 3e-5), else 0 (no budget). It only places a cut; the mass beyond is
// computed with its own bound. The tail is compared in logs (logPhi plus
// the log of the Mills ratio), so b may be as small as the least float64.
func tailZ(b float64) float64 {
	if !(b > 0) || b >= 3e-5 {
		return 0
	}
	lb := math.Log(b)
	a, c := 4.0, 64.0
	for i := 0; i < 60; i++ {
		m := (a + c) / 2
		r, _ := mills(m)
		if logPhi(m)+math.Log(r) > lb {
			a = m
		} else {
			c = m
		}
	}
	return c
}

func checkSlivers(cells []cell, h float64, bnd []xb, s2 float64) error {
	for _, b := range bnd {
		if !math.IsInf(b.x, -1) && b.err/s2 > h/4 {
			return &precisionErr{"grid", "a cell boundary is not known to h/4"}
		}
	}
	return nil
}

// P-mass of x > b (remove: the mixture; add: N(0,s^2)), rounded up later.
func tailAbove(b, q, s float64, add bool) sc {
	t0 := normInt(b/s, math.Inf(1))
	if add {
		return t0
	}
	t1 := normInt((b-1)/s, math.Inf(1))
	return t0.scale(1-q).add(t1, q)
}

func tailBelow(b, q, s float64, add bool) sc {
	t0 := normUpTo(b / s)
	if add {
		return t0
	}
	t1 := normUpTo((b - 1) / s)
	return t0.scale(1-q).add(t1, q)
}

// sgmCell computes one cell's quantities. Remove (add=false): the cell is
// x in [xl, xr] (xl may be -Inf), P the mixture, Q = N(0,s^2), and
// A = q K1, K1 = int_0^w phi(z+t)(1 - e^(-c t)) dt, z = (xl-1)/s,
// w = (xr-xl)/s, c = 1/s (e^L(x) - e^L(xl) = q (e^u(x) - e^u(xl)) and
// phi_s(x) e^u(x) = phi_s(x-1)). Add: the cell is x in [xl, xr], loss -L
// decreasing, P = N(0,s^2), and A = q e^g K2, K2 = int_0^w phi(z+t)
// (e^(c(w-t)) - 1) dt. When the integrals' window is narrow they come from
// sSeries (no cancellation); otherwise from differences of normInt values.
// The boundary's error (xb.err) moves the loss at the boundary by at most
// tau = err/s^2, which changes A by at most 1.02 alpha tau (added to A's
// error), and puts at most the sliver mass on the wrong side (see grid.go's
// use of cell.sliver).
func sgmCell(q, s, c, h, g float64, xl, xr xb, add bool) cell {
	var n1, n0 sc // N(1,s^2) and N(0,s^2) masses of the cell
	zr := (xr.x - 1) / s
	if math.IsInf(xl.x, -1) {
		n1 = normUpTo(zr)
		n0 = normUpTo(xr.x / s)
	} else {
		z := (xl.x - 1) / s
		w := (xr.x - xl.x) / s
		n1 = normInt(z, w)
		n0 = normInt(xl.x/s, w)
	}
	mix := n0.scale(1-q).add(n1, q)
	var cl cell
	if !add {
		cl.alpha, cl.beta = mix, n0
	} else {
		cl.alpha, cl.beta = n0, mix
	}
	// surplus A
	switch {
	case !add && math.IsInf(xl.x, -1):
		// A = alpha - e^g beta (g < log(1-q) < every loss of the cell)
		cl.A = cl.alpha.sub(cl.beta, math.Exp(g)*(1+2*u64))
		cl.A.err += 4 * u64 * math.Abs(cl.beta.m) * math.Exp(g+cl.beta.ls-cl.A.ls)
	case !add:
		z := (xl.x - 1) / s
		w := (xr.x - xl.x) / s
		var k1 sc
		if w <= 0.5 && math.Abs(z)*w <= 0.5 && c*w <= 0.5 {
			v, rel := sSeries(z, -c, w)
			k1 = sc{-v, logPhi(z), rel * math.Abs(v)}
		} else {
			sh := normInt(xl.x/s, w)
			sh.ls += c*z + c*c/2
			sh.err += math.Abs(sh.m) * (c*math.Abs(z) + c*c + 4) * 4 * u64
			k1 = n1.sub(sh, 1)
		}
		cl.A = k1.scale(q)
	default:
		zr := (xr.x - 1) / s
		var k2 sc
		if math.IsInf(xl.x, -1) {
			sh := normUpTo(xr.x / s)
			sh.ls += c*zr + c*c/2
			sh.err += math.Abs(sh.m) * (c*math.Abs(zr) + c*c + 4) * 4 * u64
			k2 = sh.sub(n1, 1)
		} else {
			z := (xl.x - 1) / s
			w := (xr.x - xl.x) / s
			zeta := -zr
			if w <= 0.5 && math.Abs(zeta)*w <= 0.5 && c*w <= 0.5 {
				v, rel := sSeries(zeta, c, w)
				k2 = sc{v, logPhi(zeta), rel * math.Abs(v)}
			} else {
				sh := normInt(xl.x/s, w)
				sh.ls += c*w + c*z + c*c/2
				sh.err += math.Abs(sh.m) * (c*w + c*math.Abs(z) + c*c + 4) * 4 * u64
				k2 = sh.sub(n1, 1)
			}
		}
		k2.ls += g
		k2.err += math.Abs(k2.m) * (math.Abs(g) + 2) * 4 * u64
		cl.A = k2.scale(q)
	}
	// boundary error: A moves by at most 1.02 alpha tau.
	var bErr float64
	if add {
		bErr = xr.err
	} else {
		bErr = xl.err
	}
	if math.IsInf(xl.x, -1) && !add {
		bErr = 0
	}
	tau := bErr / (s * s)
	if tau > 0 {
		cl.A = cl.A.add(cl.alpha, 0)
		aEr := (math.Abs(cl.alpha.m) + cl.alpha.err) * math.Exp(cl.alpha.ls-cl.A.ls) * 1.02 * tau
		cl.A.err += aEr
	}
	// sliver at the boundary shared with the next cell (remove: xr; add: xl)
	bx := xr
	if add {
		bx = xl
	}
	cl.sliver = math.Inf(-1)
	if !math.IsInf(bx.x, 0) && bx.err > 0 {
		// density bound over [x - err, x + err]
		d0 := logPhi(bx.x/s) - math.Log(s)
		d1 := logPhi((bx.x-1)/s) - math.Log(s)
		var ld float64
		if add {
			ld = d0
		} else {
			ld = math.Max(d0, d1) + math.Log1p(math.Exp(math.Min(d0, d1)-math.Max(d0, d1)))
		}
		grow := (math.Abs(bx.x) + 1 + bx.err) * bx.err / (s * s)
		cl.sliver = math.Log(2*bx.err) + ld + grow + 1e-12
	}
	return cl
}
