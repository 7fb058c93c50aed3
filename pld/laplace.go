package pld

import (
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// LaplaceDelta returns a certified interval for the optimal delta(eps) of
// count compositions of the Laplace mechanism with scale b and sensitivity
// 1 (the pair Lap(0, b), Lap(1, b) is symmetric, so add/remove and both
// directions agree).
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
// Compositions (count >= 2) go through the grid of the SGM (doc.go,
// Method, steps 1 to 4) with the cells of laplaceCells: the loss is
// bounded, so there are no tails, and the cell boundaries are grid points
// (no slivers); the atoms at +-B are placed in their cells by an exact
// test (the sign of the FMA k h b -+ 1), and the error of fl(1/b) (at most
// u B) moves a cell's masses and surplus by at most a quarter of it
// (both densities are at most 1/4), charged to the cells next to +-B.
// LaplaceDelta uses h = 2^-14 (less where B/h would exceed 2^22).
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
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	switch {
	case math.IsInf(eps, 1):
		return Interval{0, 0}, nil
	case math.IsInf(eps, -1):
		return Interval{1, 1}, nil
	case count == 1:
		return laplaceOneStep(b, eps), nil
	}
	h := laplaceH(b, 0x1p-14)
	lam := tiltEps(func(l float64) float64 { return float64(count) * laplaceK(b, l) }, eps)
	c, err := laplaceRun(b, count, h, lam)
	if err != nil {
		return Interval{0, 1}, err // delta is in [0, 1]
	}
	return c.delta(eps), nil
}

// LaplaceEpsilon returns a certified interval for the optimal eps(delta)
// = inf{eps >= 0 : delta(eps) <= delta} of count compositions of the
// Laplace mechanism (see LaplaceDelta), refining the grid from h = 2^-10
// until hi/lo - 1 <= 1e-3 or the grid has 2^18 cells per step (then
// ErrPrecision is returned with the certified, wider interval); one step:
// by bisection on the closed form to 1e-12 relative. An atom at +-1/b
// between two grid points can only be moved down to the point below in a
// lower measure (no post-processing puts its mass, 1/2 or e^(-1/b)/2 of
// the step's, on the grid without it), so the lower end converges only as
// h, and runs with large b and many steps need fine grids (b = 20, 1,000
// steps: 2^-16, seconds).
func LaplaceEpsilon(b float64, count int, delta float64) (Interval, error) {
	const fn = "LaplaceEpsilon"
	if err := checkLaplace(fn, b, count); err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	if count == 1 {
		return invert(func(e float64) Interval { return laplaceOneStep(b, e) }, delta, 1e-12)
	}
	const width = 1e-3
	lam := tiltDelta(func(l float64) float64 { return float64(count) * laplaceK(b, l) }, delta)
	best := Interval{0, inf} // certified until a grid gives better
	first := true
	for h := laplaceH(b, 0x1p-10); ; h /= 2 {
		c, err := laplaceRun(b, count, h, lam)
		if err != nil {
			return best, err
		}
		iv, err := invert(c.delta, delta, width/50)
		if err != nil {
			if first {
				return iv, err
			}
			return best, err
		}
		if first {
			best, first = iv, false
		} else { // both certified: so is their intersection
			best.Lo = math.Max(best.Lo, iv.Lo)
			best.Hi = math.Min(best.Hi, iv.Hi)
		}
		if best.RelWidth() <= width || best.Hi == 0 {
			return best, nil
		}
		if h/2 < 0x1p-22 || 2/(b*h) >= 1<<18 {
			return best, &precisionErr{fn, "width not reached"}
		}
	}
}

func checkLaplace(fn string, b float64, count int) error {
	if !(b > 0) || math.IsInf(b, 1) {
		return inputErr(fn, "b", b, "must be finite and > 0")
	}
	if err := checkCount(fn, count); err != nil {
		return err
	}
	if 1/b > 64 {
		return &tooLargeErr{fn, "1/b above 64 is not supported"}
	}
	return nil
}

// laplaceH returns h, made coarser (by powers of two) until 2/(b h) cells
// fit in 2^22, and at most 1/4.
func laplaceH(b, h float64) float64 {
	for 2/(b*h) > 1<<22 {
		h *= 2
	}
	return math.Min(h, 0.25)
}

// laplaceK estimates (float64, uncertified: it only chooses the tilt)
// K(lambda) = log E_P e^(lambda L) for one step.
func laplaceK(b, lambda float64) float64 {
	B := 1 / b
	c := lambda + 0.5
	cont := 0.25 * math.Exp(-B/2) * (math.Exp(c*B) - math.Exp(-c*B)) / c
	return math.Log(0.5*math.Exp(lambda*B) + 0.5*math.Exp(-B-lambda*B) + cont)
}

func laplaceRun(b float64, count int, h, lam float64) (*composed, error) {
	spec := stepSpec{count, func() (int, []cell, sc, sc, error) {
		kmin, cells := laplaceCells(b, h)
		return kmin, cells, sc{0, 0, 0}, sc{0, 0, 0}, nil
	}}
	return composeSteps([]stepSpec{spec}, h, lam, 1<<23)
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
