package pld

import (
	"errors"
	"math"
)

// Phase is a run of Steps steps of the Poisson-subsampled Gaussian
// mechanism with sampling rate Q and noise multiplier Sigma (noise standard
// deviation Sigma times the L2 sensitivity).
type Phase struct {
	Q, Sigma float64
	Steps    int
}

// Options tunes the certified computations. The zero value asks for the
// defaults.
type Options struct {
	// Width is the relative width hi/lo - 1 the eps interval should reach;
	// the grid is refined (h halved) until it does. Default 1e-3.
	Width float64
	// H, when > 0, fixes the grid spacing (rounded down to a power of two)
	// and disables refinement.
	H float64
	// MaxGrid bounds the number of grid cells of one step; refinement stops
	// before exceeding it. Default 1<<22.
	MaxGrid int
}

func (o Options) width() float64 {
	if o.Width > 0 {
		return o.Width
	}
	return 1e-3
}

func (o Options) maxGrid() int {
	if o.MaxGrid > 0 {
		return o.MaxGrid
	}
	return 1 << 22
}

func checkPhases(fn string, phases []Phase) error {
	if len(phases) == 0 {
		return inputErr(fn, "phases", math.NaN(), "must not be empty")
	}
	for _, p := range phases {
		if !(p.Q >= 0 && p.Q <= 1) {
			return inputErr(fn, "q", p.Q, "must be in [0, 1]")
		}
		if err := checkSigma(fn, p.Sigma); err != nil {
			return err
		}
		if p.Sigma < 0.1 || p.Sigma > 1e3 {
			return &tooLargeErr{fn, "sigma outside [0.1, 1000] is not supported"}
		}
		if p.Steps < 0 {
			return inputErr(fn, "steps", float64(p.Steps), "must be >= 0")
		}
	}
	return nil
}

// cumulant returns an estimate (float64 quadrature, not certified: it only
// chooses the tilt) of K(lambda) = log E_P e^(lambda L) for one step in
// direction add.
func cumulant(q, s, lambda float64, add bool) float64 {
	s2 := s * s
	lo, hi := -15*s-1-lambda, 1+lambda+15*s
	const n = 3000
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

func totalK(phases []Phase, lambda float64, add bool) float64 {
	var t float64
	for _, p := range phases {
		if p.Steps == 0 || p.Q == 0 {
			continue
		}
		t += float64(p.Steps) * cumulant(p.Q, p.Sigma, lambda, add)
	}
	return t
}

// tiltForEps solves sum n_i K_i'(lambda) = eps for lambda >= 0.
func tiltForEps(phases []Phase, eps float64, add bool) float64 {
	return tiltEps(func(l float64) float64 { return totalK(phases, l, add) }, eps)
}

// tiltEps solves K'(lambda) = eps for lambda >= 0 (K a cumulant estimate).
func tiltEps(K func(float64) float64, eps float64) float64 {
	d := func(l float64) float64 {
		e := 1e-4 * (1 + l)
		return (K(l+e) - K(math.Max(l-e, 0))) / (l + e - math.Max(l-e, 0))
	}
	if d(0) >= eps {
		return 0
	}
	a, b := 0.0, 1.0
	for d(b) < eps && b < 200 {
		a, b = b, 2*b
	}
	for i := 0; i < 40; i++ {
		m := (a + b) / 2
		if d(m) < eps {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

// tiltForDelta minimises the Chernoff estimate (K(lambda) - log delta)/lambda.
func tiltForDelta(phases []Phase, delta float64, add bool) float64 {
	return tiltDelta(func(l float64) float64 { return totalK(phases, l, add) }, delta)
}

func tiltDelta(K func(float64) float64, delta float64) float64 {
	f := func(l float64) float64 { return (K(l) - math.Log(delta)) / l }
	best, bl := math.Inf(1), 1.0
	for l := 1.0 / 64; l <= 256; l *= 1.25 {
		if v := f(l); v < best {
			best, bl = v, l
		}
	}
	return bl
}

// runDir composes the phases in one direction at spacing h and tilt lambda.
// tail > 0 is a budget for the run's mass at +Inf: each step's cut at the
// large losses is placed where its P-mass beyond is about tail over the
// number of steps (sgmCells); 0 places it by the tilt alone.
func runDir(phases []Phase, h, lambda, tail float64, add bool, maxGrid int) (*composed, error) {
	var parts []stepSpec
	steps := 0
	for _, p := range phases {
		steps += p.Steps
	}
	stepTail := 0.0
	if tail > 0 && steps > 0 {
		stepTail = tail / float64(steps)
	}
	for _, p := range phases {
		if p.Steps == 0 || p.Q == 0 {
			continue
		}
		p := p
		parts = append(parts, stepSpec{p.Steps, func() (int, []cell, sc, sc, error) {
			return sgmCells(p.Q, p.Sigma, h, lambda, stepTail, add)
		}})
	}
	return composeSteps(parts, h, lambda, maxGrid)
}

// stepSpec is a run of n identical steps whose cells (see grid.go) cells
// computes.
type stepSpec struct {
	n     int
	cells func() (kmin int, cells []cell, leftTail, rightTail sc, err error)
}

// composeSteps discretises each part's step at spacing h and tilt lambda
// and composes the runs (nil when there are none).
func composeSteps(specs []stepSpec, h, lambda float64, maxGrid int) (*composed, error) {
	var acc *tmeas
	var logMass, inf, excess float64
	type part struct {
		inf, excess float64
		n           int
	}
	var parts []part
	for _, p := range specs {
		kmin, cells, lt, rt, err := p.cells()
		if err != nil {
			return nil, err
		}
		if len(cells) > maxGrid {
			return nil, &tooLargeErr{"SGM", "grid larger than Options.MaxGrid"}
		}
		sg := buildStep(kmin, cells, lt, rt, h, lambda)
		m := power(fromStep(sg), p.n)
		if acc == nil {
			acc = &m
		} else {
			c := conv(acc, &m)
			acc = &c
		}
		logMass += float64(p.n) * math.Log(math.Max(1, (sg.mass+sg.infMass)*(1+4*u64)))
		parts = append(parts, part{sg.infMass, sg.excess, p.n})
	}
	if acc == nil {
		return nil, nil
	}
	f := math.Exp(logMass) * (1 + 8*u64)
	for _, pt := range parts {
		inf += float64(pt.n) * pt.inf * f
		excess += float64(pt.n) * pt.excess
	}
	return &composed{m: *acc, h: h, lambda: lambda, inf: inf * (1 + 8*u64), excess: excess * (1 + 8*u64)}, nil
}

func gridH(h float64) float64 {
	_, e := math.Frexp(h)
	return math.Ldexp(1, e-1)
}

// SGMDelta returns a certified interval for the optimal delta(eps) of a run
// of phases of the Poisson-subsampled Gaussian, add/remove neighbours,
// maximised over both directions (see doc.go for the method).
//
// Special cases:
//
//	SGMDelta(phases with all q = 0 or steps = 0, eps) = [0, 0] for eps >= 0
//	SGMDelta(phases, +Inf) = [0, 0]
func SGMDelta(phases []Phase, eps float64, opts ...Options) (Interval, error) {
	const fn = "SGMDelta"
	if err := checkPhases(fn, phases); err != nil {
		return Interval{}, err
	}
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if math.IsInf(eps, 1) {
		return Interval{0, 0}, nil
	}
	if len(phases) == 1 && phases[0].Steps == 1 {
		return sgmOneStep(phases[0].Q, phases[0].Sigma, eps), nil
	}
	h := 1.0 / 4096
	if o.H > 0 {
		h = gridH(o.H)
	}
	var res Interval
	for _, add := range []bool{false, true} {
		lam := tiltForEps(phases, eps, add)
		// tail budget: 2^-30 of the Chernoff estimate e^(K - lambda eps),
		// an estimate above delta(eps) (it only places the cut)
		tail := math.Ldexp(math.Exp(totalK(phases, lam, add)-lam*eps), -30)
		c, err := runDir(phases, h, lam, tail, add, o.maxGrid())
		if err != nil {
			return Interval{0, 1}, err // delta is in [0, 1]
		}
		if c == nil {
			if eps < 0 {
				return Interval{1 - math.Exp(eps), 1 - math.Exp(eps)}, nil
			}
			return Interval{0, 0}, nil
		}
		iv := c.delta(eps)
		res.Lo = math.Max(res.Lo, iv.Lo)
		res.Hi = math.Max(res.Hi, iv.Hi)
	}
	return res, nil
}

// SGMEpsilon returns a certified interval for the optimal eps(delta) =
// inf{eps >= 0 : delta(eps) <= delta} of a run of phases of the
// Poisson-subsampled Gaussian (add/remove, both directions), refining the
// grid until the interval is within Options.Width (default 1e-3) relative
// or Options.MaxGrid is reached (then ErrPrecision is returned with the
// certified, wider interval). The first grid is h = 2^-10; each next one
// is what the h^2 law predicts from the width reached (one to three
// halvings), or half when the lower end is still 0.
func SGMEpsilon(phases []Phase, delta float64, opts ...Options) (Interval, error) {
	const fn = "SGMEpsilon"
	if err := checkPhases(fn, phases); err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if len(phases) == 1 && phases[0].Steps == 1 {
		p := phases[0]
		return invert(func(e float64) Interval { return sgmOneStep(p.Q, p.Sigma, e) }, delta, 1e-9)
	}
	h := 0x1p-10 // a cheap first grid; see the step below
	fixed := o.H > 0
	if fixed {
		h = gridH(o.H)
	}
	// Each refinement's interval for each direction is certified, so
	// their intersection is too. The profile's eps is the larger of the
	// two directions' (delta(eps) is the larger of theirs), so once one
	// direction's Hi is at most the other's Lo it can change neither end
	// of [max Lo, max Hi] again, and finer grids skip it.
	var best [2]Interval
	var seen, skip [2]bool
	var last Interval // the last grid's certified interval
	haveLast := false
	for {
		for d, add := range []bool{false, true} {
			if skip[d] {
				continue
			}
			iv, ok, err := sgmEpsilonDir(phases, delta, h, add, o)
			if err != nil {
				// Return the last certified interval (or [0, +Inf]); a
				// grid beyond Options.MaxGrid means the width was not
				// reached.
				if errors.Is(err, ErrTooLarge) && haveLast {
					err = &precisionErr{fn, "width not reached within Options.MaxGrid"}
				}
				if haveLast {
					return last, err
				}
				return Interval{0, inf}, err
			}
			if !ok {
				skip[d] = true
				continue
			}
			if !seen[d] {
				best[d], seen[d] = iv, true
			} else {
				best[d].Lo = math.Max(best[d].Lo, iv.Lo)
				best[d].Hi = math.Min(best[d].Hi, iv.Hi)
			}
		}
		var res Interval
		for d := range best {
			if seen[d] {
				res.Lo = math.Max(res.Lo, best[d].Lo)
				res.Hi = math.Max(res.Hi, best[d].Hi)
			}
		}
		if fixed || res.RelWidth() <= o.width() || res.Hi == 0 {
			return res, nil
		}
		last, haveLast = res, true
		for d := range best {
			if seen[d] && seen[1-d] && best[d].Hi <= best[1-d].Lo {
				skip[d] = true
			}
		}
		// The width falls about as h^2 (both measures' errors are those of
		// merging within cells): from a finite width, go to the h that
		// the h^2 law predicts for 0.8 of the goal, one to three halvings;
		// else halve.
		k := 1
		if w := res.RelWidth(); w < inf {
			k = int(math.Ceil(math.Log2(math.Sqrt(w / (0.8 * o.width())))))
			k = max(1, min(k, 3))
		}
		h = math.Ldexp(h, -k)
		if h < 0x1p-24 {
			return res, &precisionErr{fn, "width not reached"}
		}
	}
}

// sgmEpsilonDir returns the certified eps interval of one direction at
// spacing h; ok is false when the direction has no steps.
func sgmEpsilonDir(phases []Phase, delta, h float64, add bool, o Options) (iv Interval, ok bool, err error) {
	lam := tiltForDelta(phases, delta, add)
	// The run's +Inf mass is added to the upper delta: a budget of
	// delta width 2^-10 moves eps's upper end by far less than the width.
	c, err := runDir(phases, h, lam, delta*o.width()*0x1p-10, add, o.maxGrid())
	if err != nil || c == nil {
		return Interval{}, false, err
	}
	iv, err = invert(c.delta, delta, o.width()/50)
	return iv, err == nil, err
}
