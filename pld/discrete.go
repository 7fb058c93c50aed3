package pld

import (
	"context"
	"math"
)

// RRDelta returns a certified interval for the optimal delta(eps) of count
// compositions of binary randomized response that reports the true bit
// with probability p (add/remove or replace-one: the pair of output laws,
// (p, 1-p) against (1-p, p), is symmetric, so both directions agree).
//
// Method. With P = max(p, 1-p), Q = 1 - P and r = log(P/Q), one step's
// privacy loss is +r with probability P and -r with probability Q, so the
// composed loss is r (n - 2K) with K ~ Binomial(n, Q), and
//
//	delta(eps) = sum over k with (n-2k) r > eps of
//	             C(n,k) P^(n-k) Q^k (1 - e^(eps - (n-2k) r)),
//
// a sum of positive terms. Each term is evaluated in the log domain,
// t_k = log C(n,k) + (n-k) log P + k log Q (log C(n,k) by the recurrence
// log C(n,k+1) = log C(n,k) + log((n-k)/(k+1))), x_k = eps - (n-2k) r, with
// running bounds a_k >= |t_k - exact| and b_k >= |x_k - exact| (math.Log,
// Log1p, Exp and Expm1 within 4u relative; every other operation within
// u; r = log1p((P-Q)/Q) within 7u relative, so that p near 1/2 keeps its
// digits). The weight w(x) = max(0, -expm1(x)) is 1-Lipschitz, so the term lies
// in [e^(t_k - a_k) max(0, w(x_k)(1-4u) - b_k), e^(t_k + a_k) min(1,
// w(x_k)(1+4u) + b_k)] (widened by 4u for Exp; below e^-700, where Exp's
// result is subnormal, the upper end uses e^-700 and the lower end drops
// the term); the sums are widened by 2 (n+3) u. The exact P is kept: for p < 1/2, Q = p and log P =
// log1p(-p).
//
// Special cases:
//
//	RRDelta(p=1/2, count, eps) = [0, 0] for eps >= 0, 1 - e^eps below
//	RRDelta(p=0 or 1, count, eps) = [1, 1] (the outputs tell the bit)
//	RRDelta(p, count, +Inf) = [0, 0] for 0 < p < 1
//	RRDelta(p, count, -Inf) = [1, 1]
func RRDelta(p float64, count int, eps float64) (Interval, error) {
	const fn = "RRDelta"
	if err := checkRR(fn, p, count); err != nil {
		return Interval{}, err
	}
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	return Delta(context.Background(), Composition{Terms: []Term{{rrBinary{p}, int64(count)}}}, eps)
}

// rrMaxCount bounds count (the sum has count + 1 terms).
const rrMaxCount = 1 << 26

func checkRR(fn string, p float64, count int) error {
	if !(p >= 0 && p <= 1) {
		return inputErr(fn, "p", p, "must be in [0, 1]")
	}
	if err := checkCount(fn, count); err != nil {
		return err
	}
	if count > rrMaxCount {
		return &tooLargeErr{fn, "count above 2^26 is not supported"}
	}
	return nil
}

func rrDelta(p float64, n int64, eps float64) Interval {
	switch {
	case math.IsInf(eps, -1) || p == 0 || p == 1:
		return Interval{1, 1}
	case math.IsInf(eps, 1):
		return Interval{0, 0}
	case p == 0.5:
		if eps >= 0 {
			return Interval{0, 0}
		}
		v := -math.Expm1(eps)
		return Interval{v * (1 - 4*u64), math.Min(1, v*(1+4*u64))}
	}
	var lP, lQ float64
	if p > 0.5 {
		lP, lQ = math.Log(p), math.Log(1-p) // 1-p exact (Sterbenz)
	} else {
		lP, lQ = math.Log1p(-p), math.Log(p)
	}
	// r = log1p((P-Q)/Q): P-Q = 2p-1 and Q = 1-p are exact for p > 1/2;
	// for p < 1/2, Q = p and 1-2p is within u. The quotient adds u, so
	// the argument is within 2u relative, which moves log1p by at most 2u
	// relative (y/(1+y) <= log1p(y)); log1p adds 4u.
	var r float64
	if p > 0.5 {
		r = math.Log1p((2*p - 1) / (1 - p))
	} else {
		r = math.Log1p((1 - 2*p) / p)
	}
	rErr := 7 * u64 * r
	aP, aQ := math.Abs(lP), math.Abs(lQ)
	var hi, lo float64
	lc, ec := 0.0, 0.0 // log C(n,k) and its error bound
	nf := float64(n)
	for k := int64(0); k <= n; k++ {
		if k > 0 {
			l := math.Log(float64(n-k+1) / float64(k))
			lc += l
			ec += 4*u64*math.Abs(l) + 1.01*u64 + u64*math.Abs(lc)
		}
		kf := float64(k)
		d := nf - 2*kf // exact
		x := eps - d*r
		b := math.Abs(d)*rErr + 2*u64*(math.Abs(eps)+math.Abs(d*r))
		b *= 1 + 4*u64
		if !(x < b) {
			continue
		}
		t := lc + (nf-kf)*lP + kf*lQ
		a := ec + (nf-kf)*4*u64*aP + kf*4*u64*aQ + 4*u64*(math.Abs(lc)+(nf-kf)*aP+kf*aQ)
		a *= 1 + 4*u64
		w := 0.0
		if x < 0 {
			w = -math.Expm1(x)
		}
		// Exp is trusted only for normal results: below e^-700 the upper
		// term uses e^-700 and the lower one drops the term.
		eh := math.Exp(math.Max(t+a, -700)) * (1 + 4*u64)
		hi += eh * math.Min(1, w*(1+4*u64)+b)
		if wl := w*(1-4*u64) - b; wl > 0 && t-a > -700 {
			lo += math.Exp(t-a) * (1 - 4*u64) * wl
		}
	}
	f := 2 * float64(n+3) * u64
	return Interval{lo * (1 - f), math.Min(1, hi*(1+f))}
}

// RREpsilon returns a certified interval for the optimal eps(delta) =
// inf{eps >= 0 : delta(eps) <= delta} of count compositions of binary
// randomized response (see RRDelta), by bisection on RRDelta's interval
// (see invert) to 1e-9 relative; past 10^5 steps, on the composition's
// lattice (the binomial's window, with the FFT's error bound).
//
// Special cases:
//
//	RREpsilon(p=1/2, count, delta) = [0, 0]
//	RREpsilon(p=0 or 1, count, delta < 1) = [+Inf, +Inf] (no eps has delta(eps) <= delta)
func RREpsilon(p float64, count int, delta float64) (Interval, error) {
	const fn = "RREpsilon"
	if err := checkRR(fn, p, count); err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	return Epsilon(context.Background(), Composition{Terms: []Term{{rrBinary{p}, int64(count)}}}, delta, Options{Width: 1e-9})
}

// rrBinary is binary randomized response reporting the true bit with
// probability p, for RRDelta and RREpsilon: the pair (p, 1-p) against
// (1-p, p), symmetric under every relation.
type rrBinary struct{ p float64 }

func (e rrBinary) String() string { return "RR(p=" + fmtF(e.p) + ")" }
func (e rrBinary) check() error   { return nil }

func (e rrBinary) pair(Relation) (pairOf, error) {
	switch {
	case e.p == 0.5:
		return pairOf{noop: true}, nil
	case e.p == 0 || e.p == 1:
		return pairOf{nonPrivate: true}, nil
	}
	// P = max(p, 1-p) and Q = min: one of them is p, exact; the other
	// 1 - p within u
	P, Q := within(1-e.p, u64), exactSC(e.p)
	if e.p > 0.5 {
		P, Q = exactSC(e.p), within(1-e.p, 0) // 1-p exact (Sterbenz)
	}
	m := (&atomMeasure{name: e.String(), atoms: []atom{atomPQ(P, Q), atomPQ(Q, P)}}).withLattice()
	return exactPair(m, nil), nil
}

// exactSC is a float64 value known exactly.
func exactSC(x float64) sc { return sc{x, 0, 0} }

// within returns x as a scaled value within rel relative of the exact one.
func within(x, rel float64) sc { return sc{x, 0, math.Abs(x) * rel} }

func (e RandomizedResponse) pair(rel Relation) (pairOf, error) {
	k := float64(e.Buckets)
	switch {
	case e.Buckets == 1 || e.Noise == 1:
		return pairOf{noop: true}, nil // the output does not depend on the input
	case e.Noise == 0:
		return pairOf{nonPrivate: true}, nil
	}
	p := e.Noise
	// pb = p/k within u; the other buckets' (k-2) p/k within 3u; the true
	// bucket's pa = (1-p) + p/k: 1-p within u (exact for p >= 1/2), the
	// sum within u more.
	pb := within(p/k, u64)
	pa := within((1-p)+p/k, 3*u64)
	name := e.String() + " " + rel.String()
	switch rel {
	case ReplaceOne:
		// x against x': the true bucket (pa, pb), x' (pb, pa), the others
		// (loss 0, exactly).
		atoms := []atom{atomPQ(pa, pb), atomPQ(pb, pa)}
		var lat *lattice
		if e.Buckets > 2 {
			atoms = append(atoms, atom{within((k-2)*p/k, 3*u64), 0, 0})
			// losses r, -r (the same logs, negated exactly) and 0
			lat = &lattice{s: atoms[0].l, se: atoms[0].le, z: []int{1, -1, 0}}
		}
		m := (&atomMeasure{name: name, atoms: atoms, lat: lat}).withLattice()
		return exactPair(m, nil), nil
	case ReplaceSpecial:
		// x against the uniform law: the true bucket (pa, 1/k), the
		// others together ((k-1) pb, (k-1)/k); the add direction swaps.
		po := within((k-1)*p/k, 3*u64)
		u1 := within(1/k, u64)
		uo := within((k-1)/k, u64)
		rem := (&atomMeasure{name: name + " remove", atoms: []atom{atomPQ(pa, u1), atomPQ(po, uo)}}).withLattice()
		add := (&atomMeasure{name: name + " add", atoms: []atom{atomPQ(u1, pa), atomPQ(uo, po)}}).withLattice()
		return exactPair(rem, add), nil
	}
	return pairOf{}, relErr(e, rel, "REPLACE_ONE, REPLACE_SPECIAL")
}

// epsDeltaMeasure is the worst case of (eps, delta)-DP: mass delta at
// +Inf, (1-delta) e^eps/(1+e^eps) at loss eps, (1-delta)/(1+e^eps) at -eps
// (exact losses). 1/(1+e^-eps) within 6u (Exp 4u, the sum and quotient u
// each), 1-delta within u.
func epsDeltaMeasure(name string, eps, delta float64) *atomMeasure {
	a := 1 / (1 + math.Exp(-eps)) // e^eps/(1+e^eps)
	r := 8 * u64
	atoms := []atom{
		{sc{(1 - delta) * a, 0, (1 - delta) * a * r}, eps, 0},
		// (1-delta)/(1+e^eps) = (1-delta) a e^-eps
		{sc{(1 - delta) * a, -eps, (1 - delta) * a * r}, -eps, 0},
	}
	if eps == 0 {
		atoms = []atom{{within(1-delta, u64), 0, 0}}
	}
	return (&atomMeasure{name: name, atoms: atoms, infLo: delta, infHi: delta}).withLattice()
}

func (e EpsilonDelta) pair(rel Relation) (pairOf, error) {
	switch {
	case e.Delta == 1:
		return pairOf{nonPrivate: true}, nil
	case e.Epsilon == 0 && e.Delta == 0:
		return pairOf{noop: true}, nil
	}
	return exactPair(epsDeltaMeasure(e.String(), e.Epsilon, e.Delta), nil), nil
}

// binaryMeasure is the symmetric pair with losses +l (P-mass 1/(1+e^-l))
// and -l, l exact.
func binaryMeasure(name string, l float64) *atomMeasure {
	return epsDeltaMeasure(name, l, 0)
}

// ExponentialMechanism: the upper pair is any eps-DP mechanism's worst
// case (EpsilonDelta(eps, 0)); the lower one two candidates whose
// utilities swap between D and D' (u = (Delta, 0) against (0, Delta)):
// the mechanism outputs each with probability proportional to
// e^(eps u/(2 Delta)), so the losses are +-eps/2 (eps/2 exact).
func (e ExponentialMechanism) pair(rel Relation) (pairOf, error) {
	if e.Epsilon == 0 {
		return pairOf{noop: true}, nil
	}
	up := epsDeltaMeasure("eps-DP "+fmtF(e.Epsilon), e.Epsilon, 0)
	lo := binaryMeasure(e.String()+" two candidates", e.Epsilon/2)
	return pairOf{up: [2]measure{up, nil}, lo: [2]measure{lo, nil}}, nil
}

// PermuteAndFlip: the upper pair is any eps-DP mechanism's worst case; the
// lower one permute-and-flip on two candidates whose utilities swap: it
// outputs the worse one with probability w = e^(-eps/2)/2 (it comes first
// with probability 1/2 and is kept with probability e^(-eps/2)), so the
// losses are +-log((1-w)/w). w within 5u (Exp 4u, the halving exact),
// 1 - w (w <= 1/2) within u + 5u w/(1-w) <= 6u.
func (e PermuteAndFlip) pair(rel Relation) (pairOf, error) {
	if rel == ReplaceOne {
		return pairOf{}, relErr(e, rel, "ADD_OR_REMOVE_ONE, REPLACE_SPECIAL")
	}
	if e.Epsilon == 0 {
		return pairOf{noop: true}, nil
	}
	up := epsDeltaMeasure("eps-DP "+fmtF(e.Epsilon), e.Epsilon, 0)
	w := math.Exp(-e.Epsilon/2) / 2
	pw, pb := within(w, 5*u64), within(1-w, 6*u64)
	lo := (&atomMeasure{name: e.String() + " two candidates", atoms: []atom{atomPQ(pb, pw), atomPQ(pw, pb)}}).withLattice()
	return pairOf{up: [2]measure{up, nil}, lo: [2]measure{lo, nil}}, nil
}

// maxDLaplaceAtoms bounds the discrete Laplace's sensitivity (its atoms).
const maxDLaplaceAtoms = 1 << 20

// DiscreteLaplace: P(x) = c e^(-a|x|), c = (1-e^-a)/(1+e^-a), against the
// same shifted by K. The loss a(|x-K| - |x|) is aK for x <= 0 (P-mass
// 1/(1+e^-a)), -aK for x >= K (P-mass e^(-aK)/(1+e^-a)) and a(K - 2x) at
// 0 < x < K (P-mass c e^(-ax)). The losses a m (m an integer) are within
// u |a m|; 1+e^-a within 5u, 1 - e^-a (-expm1) within 4u.
func (e DiscreteLaplace) pair(rel Relation) (pairOf, error) {
	if rel == ReplaceOne {
		return pairOf{}, relErr(e, rel, "ADD_OR_REMOVE_ONE, REPLACE_SPECIAL")
	}
	if e.Sensitivity+1 > maxDLaplaceAtoms {
		return pairOf{}, &tooLargeErr{e.String(), "a sensitivity above 2^20 is not supported"}
	}
	a, K := e.Param, float64(e.Sensitivity)
	den := 1 + math.Exp(-a)
	c := -math.Expm1(-a) / den
	r := 12 * u64
	// a z rounds with the error FMA(a, z, -fl(a z)) exactly (the error of
	// a product is a float64), so each loss's bound is exact
	loss := func(z float64) (float64, float64) {
		l := a * z
		return l, math.Abs(math.FMA(a, z, -l))
	}
	lK, eK := loss(K)
	atoms := []atom{
		{sc{1 / den, 0, r / den}, lK, eK},
		// e^(-aK)/(1+e^-a): the scale -aK within eK + u|aK| of -a K
		{sc{1 / den, -lK, (r + 1.01*(eK+u64*lK)) / den}, -lK, eK},
	}
	for x := 1; x < e.Sensitivity; x++ {
		xf := float64(x)
		l, le := loss(K - 2*xf)
		ax, ex := loss(xf)
		atoms = append(atoms, atom{sc{c, -ax, c * (r + 1.01*(ex+u64*ax))}, l, le})
	}
	// the losses a z exactly: the lattice of spacing a
	z := []int{e.Sensitivity, -e.Sensitivity}
	for x := 1; x < e.Sensitivity; x++ {
		z = append(z, e.Sensitivity-2*x)
	}
	return exactPair(&atomMeasure{name: e.String(), atoms: atoms, lat: &lattice{s: a, z: z}}, nil), nil
}

func (NonPrivate) pair(Relation) (pairOf, error) { return pairOf{nonPrivate: true}, nil }

// sgmNoNoise is the sampled Gaussian at sigma = 0 (0 < q < 1): remove, P =
// (1-q) at 0 and q at 1, Q all at 0 (loss log(1-q), and +Inf with mass q);
// add, the reverse (loss -log(1-q), mass 1). Under ReplaceOne, P = (1-q)
// at 0 and q at -1, Q (1-q) at 0 and q at 1: loss 0 (mass 1-q) and +Inf
// (mass q). 1-q within u, log1p within 4u.
func sgmNoNoise(q float64, rel Relation) pairOf {
	name := "sgm-no-noise " + fmtF(q) + " " + rel.String()
	l := math.Log1p(-q)
	le := 5 * u64 * math.Abs(l)
	if rel == ReplaceOne {
		return exactPair((&atomMeasure{name: name, atoms: []atom{{within(1-q, u64), 0, 0}}, infLo: q, infHi: q}).withLattice(), nil)
	}
	rem := (&atomMeasure{name: name + " remove", atoms: []atom{{within(1-q, u64), l, le}}, infLo: q, infHi: q}).withLattice()
	add := (&atomMeasure{name: name + " add", atoms: []atom{{exactSC(1), -l, le}}}).withLattice()
	return exactPair(rem, add)
}
