package oracles

import (
	"fmt"
	"math"
	"math/big"
	"sort"
)

// QuadStats describes one big.Float quadrature.
type QuadStats struct {
	RelErr   float64 // estimated relative error of the integral (sum of level differences + skipped nodes)
	Pieces   int     // number of DE pieces after any bisection
	Evals    int     // big.Float integrand evaluations (skipped nodes not counted)
	MaxLevel int     // deepest DE level used by a piece (h = 2^-MaxLevel)
	WorkPrec uint    // working precision in bits
}

// SGMMoment returns log I(beta) for the sampled Gaussian mechanism,
//
//	I(beta) = E_{z ~ N(0, sigma^2)} [ ((1-q) + q exp((2z-1)/(2 sigma^2)))^beta ],
//
// for any finite real beta, by DE quadrature of J = I - 1 (see doc.go).
// The result has precision prec; the quadrature's error estimate must
// reach 2^-TargetBits(prec) relative on J (else ErrNotConverged) and, for
// beta in (0, 1), where I = 1+J may be tiny, 2^-(TargetBits(prec)-8)
// relative on log I (else ErrUnsupported). In practice the value is good
// to far more digits (see doc.go).
func SGMMoment(q, sigma, beta float64, prec uint) (logI *big.Float, err error) {
	logI, _, err = SGMMomentStats(q, sigma, beta, prec)
	return logI, err
}

// SGMMomentStats is SGMMoment with the quadrature's statistics.
func SGMMomentStats(q, sigma, beta float64, prec uint) (*big.Float, QuadStats, error) {
	const fn = "SGMMoment"
	if err := checkSGMArgs(fn, q, sigma); err != nil {
		return nil, QuadStats{}, err
	}
	if math.IsNaN(beta) || math.IsInf(beta, 0) {
		return nil, QuadStats{}, inErr(fn, "beta", beta, "must be finite")
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, QuadStats{}, err
	}
	return sgmMoment(q, sigma, beta, prec)
}

// SGMQuad returns the two Rényi divergences of order alpha > 1 of the
// sampled Gaussian mechanism, by quadrature:
//
//	forward  = D_alpha(mu || mu0) = log I(alpha)   / (alpha-1)
//	backward = D_alpha(mu0 || mu) = log I(1-alpha) / (alpha-1)
//
// with mu0 = N(0, sigma^2), mu = (1-q) N(0, sigma^2) + q N(1, sigma^2).
func SGMQuad(q, sigma, alpha float64, prec uint) (forward, backward *big.Float, err error) {
	const fn = "SGMQuad"
	if err := checkSGMArgs(fn, q, sigma); err != nil {
		return nil, nil, err
	}
	if math.IsNaN(alpha) || math.IsInf(alpha, 0) || alpha <= 1 {
		return nil, nil, inErr(fn, "alpha", alpha, "must be finite and > 1")
	}
	if err := checkPrec(fn, prec); err != nil {
		return nil, nil, err
	}
	lf, _, err := sgmMoment(q, sigma, alpha, prec)
	if err != nil {
		return nil, nil, err
	}
	lb, _, err := sgmMoment(q, sigma, 1-alpha, prec)
	if err != nil {
		return nil, nil, err
	}
	am1 := newF(prec+64).Sub(fl(alpha, prec+64), fint(1, prec+64)) // exact
	forward = newF(prec).Quo(lf, am1)
	backward = newF(prec).Quo(lb, am1)
	return forward, backward, nil
}

// TargetBits is the relative accuracy, in bits, that the quadratures'
// error estimates must reach for a result of precision prec: 5/8 of prec
// (160 bits, 48 digits, at prec = 256). The estimate is conservative (see
// de.go); measured errors are typically near 2^-prec.
func TargetBits(prec uint) uint { return (5*prec + 7) / 8 }

func checkSGMArgs(fn string, q, sigma float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma <= 0 {
		return inErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	return nil
}

// sgmRange rejects valid inputs the SGM integrators are not built for:
// exponents beyond sgmMaxExponent, and beta within sgmMinGap of 0 or 1,
// where B ~ beta(beta-1) x^2/2 is a difference of terms larger by
// 1/|beta(beta-1)| and the float64 model of the integrand (used to plan
// and to skip nodes) would lose all its digits.
func sgmRange(fn string, q, sigma, beta float64) error {
	ab := math.Abs(beta)
	if (ab*ab+ab)/(2*sigma*sigma) > sgmMaxExponent || ab/(sigma*sigma) > sgmMaxExponent {
		return fmt.Errorf("oracles.%s: q=%v sigma=%v beta=%v: exponents near %.3g: %w",
			fn, q, sigma, beta, (ab*ab+ab)/(2*sigma*sigma), ErrUnsupported)
	}
	if ab < sgmMinGap || math.Abs(beta-1) < sgmMinGap {
		return fmt.Errorf("oracles.%s: beta=%v within %g of 0 or 1: %w", fn, beta, sgmMinGap, ErrUnsupported)
	}
	return nil
}

// sgmMinGap: see sgmRange (alpha in (1, 1+1e-9) is not supported).
const sgmMinGap = 1e-9

// sgmMaxExponent bounds (beta^2 - beta)/(2 sigma^2) and the like: the
// integrand's log-magnitudes must stay well inside float64 integers and
// the big.Float exponent range (~1.49e9 nats).
const sgmMaxExponent = 1e9

func sgmMoment(q, sigma, beta float64, prec uint) (*big.Float, QuadStats, error) {
	// Exact trivial cases: I = 1.
	if q == 0 || beta == 0 || beta == 1 {
		return newF(prec), QuadStats{}, nil
	}
	if err := sgmRange("SGMMoment", q, sigma, beta); err != nil {
		return nil, QuadStats{}, err
	}
	ab := math.Abs(beta)
	tb := TargetBits(prec)
	f64 := newSGMF64(q, sigma, beta)
	T := float64(tb+40) * math.Ln2 // significance threshold (nats below max)
	pl, err := planSGM(f64, T)
	if err != nil {
		return nil, QuadStats{}, err
	}
	// Target: relative error 2^-tb on J. Working precision: prec plus
	// guard bits for the rounding of ~1e4 terms (16), for the absolute
	// error of log-magnitudes up to M (log2 M: exp(lphi + y - S) with
	// |lphi|, |y|, |S| <= M), and for the cancellation in B when beta is
	// near 0 or 1.
	M := math.Abs(pl.S) + 1
	for _, p := range pl.pieces {
		for _, z := range p {
			M = math.Max(M, math.Abs(pl.S)+z*z*f64.inv2s2+ab*math.Abs(2*z-1)*f64.inv2s2)
		}
	}
	extra := 16 + uint(math.Log2(M)) + uint(math.Log2(1+1/math.Abs(beta-1))+math.Log2(1+1/ab))
	wp := prec + extra
	ig := newSGMBig(f64, pl, wp, tb, extra)

	var st QuadStats
	st.WorkPrec = wp
	Jhat := pl.Jhat // estimate of |J| e^{-S}
	var Jsum *big.Float
	for attempt := 0; attempt < 3; attempt++ {
		ig.setScale(Jhat)
		pieces := make([]*dePiece, 0, len(pl.pieces))
		for _, p := range pl.pieces {
			pieces = append(pieces, newTanhSinhPiece(fl(p[0], wp), fl(p[1], wp), wp))
		}
		tolTotal := math.Ldexp(Jhat, -int(tb))
		st.Pieces = 0
		Jsum = newF(wp)
		errSum := 0.0
		maxLevel := 0
		for len(pieces) > 0 {
			pc := pieces[0]
			pieces = pieces[1:]
			logTol := log64(tolTotal / float64(len(pl.pieces)+4))
			logScale := log64(Jhat)
			ok := false
			for !ok && pc.level < deMaxLevel {
				pc.next(ig.eval)
				ok = pc.converged(logTol, logScale)
			}
			if pc.bad {
				return nil, st, fmt.Errorf("oracles.SGMMoment(q=%v, sigma=%v, beta=%v): integrand overflowed: %w", q, sigma, beta, ErrUnsupported)
			}
			if !ok {
				// Bisect and retry both halves (bounded by the budget below).
				if st.Pieces > 400 {
					return nil, st, fmt.Errorf("oracles.SGMMoment(q=%v, sigma=%v, beta=%v): %w", q, sigma, beta, ErrNotConverged)
				}
				mid := newF(wp).Add(pc.a, pc.b)
				mid.Quo(mid, fint(2, wp))
				pieces = append(pieces, newTanhSinhPiece(pc.a, mid, wp), newTanhSinhPiece(mid, pc.b, wp))
				st.Pieces++
				continue
			}
			st.Pieces++
			if pc.level > maxLevel {
				maxLevel = pc.level
			}
			addTo(Jsum, Jsum, pc.S)
			errSum += pc.est
		}
		st.MaxLevel = maxLevel
		st.Evals = ig.evals
		aj := math.Exp(logOf(Jsum)) // J e^-S is O(1) by the choice of S
		errSum += ig.skipBound
		st.RelErr = errSum / aj
		// The tolerances used the float64 estimate Jhat; if the true |J|
		// is much smaller, redo with the computed value as the scale.
		if aj >= Jhat/16 {
			break
		}
		Jhat = aj
	}
	if !(st.RelErr <= math.Ldexp(1, -int(tb))) {
		return nil, st, fmt.Errorf("oracles.SGMMoment(q=%v, sigma=%v, beta=%v): relative error %.3g: %w", q, sigma, beta, st.RelErr, ErrNotConverged)
	}
	logI := assembleLogI(Jsum, pl.S, prec, wp)
	if Jsum.Sign() < 0 {
		// beta in (0, 1): I = 1+J can be far below 1 (nearly disjoint
		// distributions), and log1p(J) turns J's relative error e into
		// e |J| / ((1+J) |log(1+J)|) on log I. Past 8 bits of loss the
		// digits promised are not there; no finer quadrature of J helps.
		lf, _ := logI.Float64()
		logKappa := logOf(Jsum) + pl.S - lf - logOf(logI)
		if logKappa+math.Log(st.RelErr) > -float64(tb-8)*math.Ln2 {
			return nil, st, fmt.Errorf("oracles.SGMMoment(q=%v, sigma=%v, beta=%v): J is near -1, and log1p(J) multiplies its error by e^%.4g: %w", q, sigma, beta, logKappa, ErrUnsupported)
		}
	}
	return logI, st, nil
}

// assembleLogI returns log1p(Jscaled * e^S).
func assembleLogI(Js *big.Float, S float64, prec, wp uint) *big.Float {
	lj := logOf(Js)
	if Js.Sign() > 0 && S+lj > float64(wp+16)*math.Ln2 {
		// J huge: log(1+J) = S + log(Js) + log1p(1/J).
		r := logBig(Js, wp)
		r.Add(r, fl(S, wp))
		inv := expBig(fl(-S, wp), wp)
		inv.Quo(inv, Js)
		addTo(r, r, log1pBig(inv, wp))
		return r.SetPrec(prec)
	}
	J := newF(wp).Mul(Js, expBig(fl(S, wp), wp))
	return log1pBig(J, prec)
}

// ---- planning --------------------------------------------------------------

type sgmPlan struct {
	S      float64      // log scale: the integrand is evaluated as h(z) e^-S
	Jhat   float64      // float64 estimate of |J| e^-S
	pieces [][2]float64 // DE pieces covering the significant region
}

// planSGM finds the region where |h| >= max|h| e^-T and cuts it into
// pieces at the points where the integrand changes character.
//
// Rigour of the truncation: |h(z)| is bounded by a sum of Gaussian-shaped
// envelopes centred at 0, 1 and beta (see windows below); a grid of step
// sigma/2 over the windows where an envelope can exceed max-T locates the
// significant set, and the pieces extend one grid step beyond it on each
// side. What is cut off is below e^-T relative per unit length with
// Gaussian decay beyond, T = (prec+40) ln 2.
func planSGM(f *sgmF64, T float64) (*sgmPlan, error) {
	q, sigma, beta := f.q, f.sigma, f.beta
	cands := []float64{0, 1, 2, beta}
	var brk []float64
	if q > 0 && q < 1 {
		z0 := 0.5 + sigma*sigma*(f.l1q-f.lq) // where q L = 1-q
		zc := z0 - sigma*sigma*math.Log1p(math.Abs(beta))
		cands = append(cands, z0, zc)
		if sigma < 1 {
			// The integrand has branch points (or zeros of order beta) at
			// z0 +- i pi sigma^2 (2m+1); pieces of length pi sigma^2 next
			// to them keep the tanh-sinh convergence regular.
			d := math.Pi * sigma * sigma
			brk = append(brk, zc)
			for _, k := range transitionBreaks {
				brk = append(brk, z0+k*d)
			}
		}
	}
	Fmax := math.Inf(-1)
	for _, c := range cands {
		if v := f.logAbsH(c); v > Fmax {
			Fmax = v
		}
	}
	if math.IsInf(Fmax, -1) || math.IsNaN(Fmax) {
		return nil, fmt.Errorf("oracles.SGMMoment: no finite integrand value found (q=%v sigma=%v beta=%v): %w", q, sigma, beta, ErrUnsupported)
	}
	// Envelopes |h| <= sum_c exp(H_c) N(c, sigma^2)-density-shape (heights
	// without the 1/(sigma sqrt(2 pi)) factor), from
	// |h| <= h_I + phi (1 + |beta| q) + |beta| q phi L and
	// h_I = phi ((1-q)+qL)^beta <= phi + phi L^beta (beta >= 0),
	//                           <= q^beta phi L^beta (beta < 0, q >= 1/2),
	//                           <= (1-q)^beta phi (beta < 0, q < 1/2);
	// phi L^k = phi(z-k) exp((k^2-k)/(2 sigma^2)).
	aq := math.Abs(beta) * q
	type env struct{ c, H float64 }
	var envs []env
	switch {
	case beta >= 0:
		envs = append(envs, env{0, math.Log(3 + aq)}, env{beta, (beta*beta - beta) * f.inv2s2})
	case q >= 0.5:
		envs = append(envs, env{0, math.Log(2 + aq)}, env{beta, (beta*beta-beta)*f.inv2s2 + beta*f.lq})
	default:
		envs = append(envs, env{0, logaddexp(math.Log(2+aq), beta*f.l1q)})
	}
	envs = append(envs, env{1, log64(aq)})
	var wins [][2]float64
	for _, e := range envs {
		d := e.H - f.c0 + math.Log(3) - (Fmax - T)
		if d > 0 {
			w := sigma * math.Sqrt(2*d)
			wins = append(wins, [2]float64{e.c - w, e.c + w})
		}
	}
	wins = mergeIntervals(wins)
	// Grid over the windows, plus the candidate points.
	step := sigma / 2
	var grid []float64
	total := 0.0
	for _, w := range wins {
		total += (w[1] - w[0]) / step
	}
	if total > 4e6 {
		return nil, fmt.Errorf("oracles.SGMMoment: scan of %.3g points needed (q=%v sigma=%v beta=%v): %w", total, q, sigma, beta, ErrUnsupported)
	}
	for _, w := range wins {
		n := int(math.Ceil((w[1] - w[0]) / step))
		for i := 0; i <= n; i++ {
			grid = append(grid, w[0]+float64(i)*(w[1]-w[0])/float64(n))
		}
		for _, c := range cands {
			if c > w[0] && c < w[1] {
				grid = append(grid, c)
			}
		}
	}
	sort.Float64s(grid)
	grid = uniqSorted(grid)
	F := make([]float64, len(grid))
	for i, z := range grid {
		F[i] = f.logAbsH(z)
		if F[i] > Fmax {
			Fmax = F[i]
		}
	}
	// Significant runs, each widened by one grid point per side.
	sig := make([]bool, len(grid))
	for i := range grid {
		if F[i] >= Fmax-T {
			for j := max(i-1, 0); j <= min(i+1, len(grid)-1); j++ {
				sig[j] = true
			}
		}
	}
	// Jhat: trapezoid of exp(F - Fmax) over the grid (coarse, used only to
	// scale tolerances; the final check uses the computed integral).
	Jhat := 0.0
	for i := 1; i < len(grid); i++ {
		if sig[i] && sig[i-1] {
			Jhat += 0.5 * (math.Exp(F[i]-Fmax) + math.Exp(F[i-1]-Fmax)) * (grid[i] - grid[i-1])
		}
	}
	var pieces [][2]float64
	for i := 0; i < len(grid); {
		if !sig[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(grid) && sig[j+1] {
			j++
		}
		// Break points inside [grid[i], grid[j]]: the grid maxima (the
		// modes, to within sigma/2) and, when the transition at z0 is
		// sharp on the scale sigma, z0 and the cliff zc.
		bps := []float64{grid[i], grid[j]}
		for _, c := range brk {
			if c > grid[i] && c < grid[j] {
				bps = append(bps, c)
			}
		}
		for k := i + 1; k < j; k++ {
			if F[k] >= F[k-1] && F[k] >= F[k+1] {
				bps = append(bps, grid[k])
			}
		}
		sort.Float64s(bps)
		bps = uniqSorted(bps)
		for k := 1; k < len(bps); k++ {
			pieces = append(pieces, [2]float64{bps[k-1], bps[k]})
		}
		i = j + 1
	}
	if len(pieces) == 0 || !(Jhat > 0) {
		return nil, fmt.Errorf("oracles.SGMMoment: empty significant region (q=%v sigma=%v beta=%v): %w", q, sigma, beta, ErrUnsupported)
	}
	return &sgmPlan{S: Fmax, Jhat: Jhat, pieces: pieces}, nil
}

func mergeIntervals(w [][2]float64) [][2]float64 {
	sort.Slice(w, func(i, j int) bool { return w[i][0] < w[j][0] })
	var out [][2]float64
	for _, x := range w {
		if len(out) > 0 && x[0] <= out[len(out)-1][1] {
			if x[1] > out[len(out)-1][1] {
				out[len(out)-1][1] = x[1]
			}
			continue
		}
		out = append(out, x)
	}
	return out
}

func uniqSorted(x []float64) []float64 {
	out := x[:0]
	for i, v := range x {
		if i == 0 || v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// ---- big.Float integrand ---------------------------------------------------

type sgmBig struct {
	f64   *sgmF64
	S     float64
	wp    uint
	tb    uint
	guard uint // extra bits for magnitudes and cancellations in a node
	qB    *big.Float
	omqB  *big.Float // 1-q, exact
	betaB *big.Float
	inv2s *big.Float // 1/(2 sigma^2)
	c0S   *big.Float // log(sigma sqrt(2 pi)) + S

	logJhat   float64
	logSkip   float64 // nodes with log|w h e^-S| below this are skipped
	skipBound float64 // accumulated bound on skipped contributions
	evals     int
}

func newSGMBig(f *sgmF64, pl *sgmPlan, wp, tb, guard uint) *sgmBig {
	p := wp + 64
	s := &sgmBig{f64: f, S: pl.S, wp: wp, tb: tb, guard: guard}
	s.qB = fl(f.q, p)
	s.omqB = newF(p).Sub(fint(1, p), s.qB)
	s.betaB = fl(f.beta, p)
	sig := fl(f.sigma, p)
	s2 := newF(p).Mul(sig, sig)
	s.inv2s = newF(p).Quo(fint(1, p), s2.Mul(s2, fint(2, p)))
	twoPi := newF(p).Mul(pi(p), fint(2, p))
	c0 := logBig(sig, p)
	c0.Add(c0, newF(p).Quo(logBig(twoPi, p), fint(2, p)))
	s.c0S = c0.Add(c0, fl(pl.S, p))
	return s
}

func (s *sgmBig) setScale(Jhat float64) {
	s.logJhat = log64(Jhat)
	s.logSkip = s.logJhat - float64(s.tb+24)*math.Ln2
	s.skipBound = 0
}

// eval returns h(z) e^-S (signed) or nil for a skipped node.
func (s *sgmBig) eval(z *big.Float, logw float64) *big.Float {
	zf, _ := z.Float64()
	u := newF(z.Prec()+2).Add(z, z)
	u.Sub(u, fint(1, 2))
	uf, _ := u.Float64()
	lh := s.f64.logAbsHU(zf, uf*s.f64.inv2s2) - s.S
	c := lh + logw
	if math.IsInf(lh, -1) || math.IsNaN(lh) {
		// The float64 model cannot size this node (h = 0 at z = 1/2, or
		// an underflow): never skip on its word, evaluate in full.
		s.evals++
		return s.value(z, s.tb+24+s.guard)
	}
	if c < s.logSkip {
		// Bound on what is dropped; the float64 model is good to far
		// better than the factor e^2 allowed here.
		s.skipBound += math.Exp(c + 2)
		return nil
	}
	// Bits needed: the node's share of the tolerance 2^-tb |J|.
	need := float64(s.tb) + 24 + (c-s.logJhat)/math.Ln2
	p := uint(math.Max(64, math.Min(float64(s.tb)+24, need)))
	p += s.guard
	s.evals++
	return s.value(z, p)
}

func (s *sgmBig) value(z *big.Float, p uint) *big.Float {
	lphi := newF(p).Mul(z, z)
	lphi.Mul(lphi, s.inv2s)
	lphi.Neg(lphi)
	lphi.Sub(lphi, s.c0S)
	// 2z-1 exactly (z has s.wp bits): near z = 1/2 the cancellation would
	// otherwise cost the relative accuracy of u, hence of x and B.
	u := newF(z.Prec()+2).Add(z, z)
	u.Sub(u, fint(1, 2))
	u.Mul(u, s.inv2s).SetPrec(p)
	L, em := expAndExpm1(u, p)
	x := newF(p).Mul(s.qB, em)
	xf, _ := x.Float64()
	if math.Abs(xf) <= 0.25 {
		l2 := l2Big(x, p)
		y := newF(p).Add(x, l2)
		y.Mul(y, s.betaB)
		B := e2Big(y, p)
		l2.Mul(l2, s.betaB)
		addTo(B, B, l2)
		return B.Mul(B, expBig(lphi, p))
	}
	// |x| > 1/4: B = (1+x)^beta - (1 + beta x), 1+x = (1-q) + q L > 0.
	if L.IsInf() {
		return s.valueHugeU(u, lphi, p)
	}
	w := newF(p).Mul(s.qB, L)
	addTo(w, w, s.omqB)
	var y *big.Float
	if w.Sign() == 0 {
		// q = 1 and e^u below the exponent range: 1+x = e^u exactly, and
		// (1+x)^beta e^lphi may still be finite (small beta, or beta < 0).
		y = newF(p).Set(u)
	} else {
		y = logBig(w, p)
	}
	y.Mul(y, s.betaB)
	Q := newF(p).Mul(s.betaB, x)
	addTo(Q, Q, fint(1, p))
	yf, _ := y.Float64()
	lQ := logOf(Q)
	gap := float64(p+8) * math.Ln2
	switch {
	case yf-lQ > gap:
		return expBig(y.Add(y, lphi), p)
	case lQ-yf > gap:
		t := expBig(lphi, p)
		return t.Mul(t, Q).Neg(t)
	}
	t1 := expBig(newF(p).Add(y, lphi), p+32)
	t0 := expBig(lphi, p+32)
	t0.Mul(t0, Q)
	return subTo(t1, t1, t0).SetPrec(p)
}

// valueHugeU is value where e^u is beyond big.Float's exponent range (tiny
// sigma), though e^u times phi's factor e^lphi is not: in logs, with
// 1+x = q e^u and Q = beta q e^u (the terms 1-q and 1 - beta q are below
// e^-1e9 relative to them, far under any precision asked),
//
//	B e^lphi = exp(beta (u + log q) + lphi) - sign(beta) exp(u + log(|beta| q) + lphi).
func (s *sgmBig) valueHugeU(u, lphi *big.Float, p uint) *big.Float {
	pp := p + 32
	lq := logBig(s.qB, pp)
	y := newF(pp).Add(u, lq)
	y.Mul(y, s.betaB)
	y.Add(y, lphi)
	ab := newF(pp).Abs(s.betaB)
	lQ := newF(pp).Add(u, logBig(ab, pp))
	lQ.Add(lQ, lq)
	lQ.Add(lQ, lphi)
	t1 := expBig(y, pp)
	t0 := expBig(lQ, pp)
	if s.betaB.Sign() < 0 {
		t0.Neg(t0)
	}
	return subTo(t1, t1, t0).SetPrec(p)
}

// expAndExpm1 returns exp(u) and expm1(u), each relatively accurate.
func expAndExpm1(u *big.Float, p uint) (L, em *big.Float) {
	uf, _ := u.Float64()
	if math.Abs(uf) < 0.35 {
		em = expm1Reduced(u, p)
		return newF(p).Add(em, fint(1, p)), em
	}
	L = expBig(u, p)
	return L, subTo(newF(p), L, fint(1, p))
}

// l2Big returns log1p(x) - x for |x| <= 1/4, relatively accurate.
func l2Big(x *big.Float, p uint) *big.Float {
	if x.Sign() == 0 {
		return newF(p)
	}
	ex := x.MantExp(nil) // |x| < 2^ex
	if ex <= -12 {
		// log1p(x) = 2 atanh(s), s = x/(2+x); 2s - x = -x^2/(2+x), so
		// log1p(x) - x = -x^2/(2+x) + 2 s^3 (1/3 + s^2/5 + s^4/7 + ...).
		q := p + 8
		d := newF(q).Add(x, fint(2, q))
		s := newF(q).Quo(x, d)
		s2 := newF(q).Mul(s, s)
		es := s2.MantExp(nil)
		N := int(q)/(-es) + 1
		acc := newF(q).Quo(fint(1, q), fint(int64(2*N+3), q))
		for k := N - 1; k >= 0; k-- {
			acc.Mul(acc, s2)
			acc.Add(acc, newF(q).Quo(fint(1, q), fint(int64(2*k+3), q)))
		}
		acc.Mul(acc, s2)
		acc.Mul(acc, s)
		acc.Mul(acc, fint(2, q))
		x2 := newF(q).Mul(x, x)
		x2.Quo(x2, d)
		return acc.Sub(acc, x2).SetPrec(p)
	}
	q := p + uint(1-ex) + 4 // cancellation log2(|x|/|l2|) <= 1 - ex + 1
	l := log1pBig(x, q)
	return subTo(l, l, x).SetPrec(p)
}

// e2Big returns expm1(y) - y, relatively accurate.
func e2Big(y *big.Float, p uint) *big.Float {
	if y.Sign() == 0 {
		return newF(p)
	}
	ey := y.MantExp(nil) // |y| < 2^ey
	if ey <= -12 {
		// y^2 sum_{n>=2} y^(n-2)/n! with N!/n! integer coefficients.
		q := p + 8
		N := 2
		for lg := 1.0; float64((N-1)*(-ey))+lg < float64(q); N++ {
			lg += math.Log2(float64(N + 1))
		}
		c := taylorCoefs(N)
		acc := newF(q).Set(c[N])
		for n := N - 1; n >= 2; n-- {
			acc.Mul(acc, y)
			acc.Add(acc, c[n])
		}
		acc.Mul(acc, y)
		acc.Mul(acc, y)
		acc.Quo(acc, c[0])
		return acc.SetPrec(p)
	}
	q := p + 4
	if ey <= 0 {
		q += uint(2*(1-ey)) + 2 // loss log2(|y|/|e2|) <= 1 - ey + 1 (|y| < 1)
	}
	e := expm1Big(y, q)
	return subTo(e, e, y).SetPrec(p)
}

var transitionBreaks = []float64{-4, -2, -1, 0, 1, 2, 4}
