package pld

import (
	"math"
)

// The truncated sampled Gaussian (TruncatedSampledGaussian) and the
// certified binomial probabilities its pairs need.
//
// Upper pair. Ganesh (2025, arXiv 2508.15089; summarised in Section 5.3
// of dp_accounting's supplementary material, common_docs/
// Privacy_Loss_Distributions.pdf) shows that, for a dataset of N records
// and under any neighbouring relation, the mechanism has a dominating
// pair whose privacy loss distribution is the mixture
//
//	(1 - t) PLD(SGM of rate Q and noise Sigma under the relation)
//	  + t PLD(the replace-one SGM of rate q2: (1-q2) N(0, S^2) + q2 N(-2, S^2)
//	          against (1-q2) N(0, S^2) + q2 N(2, S^2), S = Sigma),
//
// t = P(Binomial(N-1, Q) >= Batch) the probability that the other records
// fill the batch, q2 = Q E[Batch/(K+1) | K >= Batch] (K ~ Binomial(N-1,
// Q)) = P(Binomial(N, Q) >= Batch+1) Batch/(t N) the rate at which the
// record is in the batch then. dp_accounting builds exactly this
// (privacy_loss_distribution.py, from_truncated_subsampled_gaussian_mechanism,
// at b5b0286: from_gaussian_mechanism of standard deviation Sigma/2,
// sensitivity 1, sampling_prob q2, REPLACE_ONE, mixed by compute_mixture
// with weight t into the plain SGM's distribution), the second component
// for every relation (a replace-one pair dominates the add/remove and
// replace-special ones). In pld terms, per direction: a mixMeasure of
// sgmReplaceMeasure(q2, Sigma/2) and the SGM's measure of that direction.
// The pair rests on that theorem; pld does not prove it.
//
// t and q2 are known within certified bounds, not exactly. The mixture's
// delta(eps), and that of any composition containing it, is linear in
// each weight with a non-negative coefficient (the components' curves are
// >= 0), so weights above the true ones give a measure above the true
// mixture: t_hi for the replace-one part, (1-t)_hi (the lower tail
// P(Binomial(N-1, Q) <= Batch-1), bounded on its own, not 1 - t_lo) for
// the SGM; and the sampled Gaussian's profile grows with its rate (the
// pair at a lower rate is the pair at a higher one post-processed by
// re-drawing the record's absence), so q2_hi.
//
// Lower pair. One instance of the mechanism: every other record
// contributes 0 and the record's clipped gradient has norm 1 (under
// ReplaceOne, -1 against +1). The output is then N(0, Sigma^2) shifted by
// the record's gradient when the record is in the truncated batch, which
// happens with probability q' = Q E[min(1, Batch/(K+1))], K the number of
// other records sampled: a sampled Gaussian of rate q' (its pair under the
// relation). Its profile is at most the optimal one for the class, and
// grows with q', so any q'_lo <= q' gives a lower end. Under
// AddOrRemoveOne it is not settled whether N counts the record (the
// dataset with the record has N records, dp_accounting's reading) or not
// (N + 1): K ~ Binomial(N, Q) is used, whose q' is the smaller (more
// others, more truncation), below the true rate under either reading.
// Under ReplaceOne and ReplaceSpecial both datasets have N records, so
// K ~ Binomial(N-1, Q). The identity E[1{K >= B}/(K+1)] = P(Binomial(m+1,
// Q) >= B+1)/((m+1) Q) for K ~ Binomial(m, Q) gives
//
//	q' = Q P(Binomial(m, Q) <= B-1) + B/(m+1) P(Binomial(m+1, Q) >= B+1),
//
// two tails of non-negative terms.
//
// Edge cases, as dp_accounting: Q = 0 or Batch = 0 is a no-op; t = 0
// (Batch >= N: the batch is never truncated) is the plain SGM. With t = 0
// the lower pair is the same SGM exactly when q' = Q (Batch >= m+1), so
// the interval is exact but for Batch = N under AddOrRemoveOne.
//
// Sigma = 0 with t > 0, where dp_accounting reports a non-private event:
// the mechanism is (0, m)-DP, m = t q2 + (1-t) Q, so the upper pair is
// EpsilonDelta(0, m)'s. Couple the two runs' sampling and truncation (the
// same others sampled; the same subset kept when the record is not in
// the batch, a uniform Batch-subset of the others either way): the
// outputs differ only when the record is in the truncated batch, with
// probability q' for N-1 others, which the identity above shows to be
// t q2 + (1-t) Q, and q' only falls with more others (the N+1 reading).
// The lower pair is the instance's, sgmNoNoise(q'_lo).
//
// Binomial tails. P(Binomial(n, p) >= k) and P(... <= k) are sums of
// terms f(x) = C(n, x) p^x (1-p)^(n-x) taken from k away from the mode,
// where they decrease (the complement, 1 - the other tail, where k is on
// the mode's far side: that tail is then at most about 1/2, so the
// subtraction keeps its relative accuracy). log f(x) is Loader's form
// (Loader 2000, "Fast and accurate computation of binomial
// probabilities"): log f(x) = delta(n) - delta(x) - delta(n-x) +
// log(n/(2 pi x (n-x)))/2 - D(x; n p) - D(n-x; n(1-p)), delta Stirling's
// error (its series, enveloping for real arguments: the remainder is
// below the first omitted term, DLMF 5.11(ii); log m! summed below 16),
// D(x; M) = x log(x/M) + M - x the deviance (by its series in v =
// (x-M)/(x+M) for |v| < 1/4, where it has no cancellation; x - n p to
// within a few ulps of itself from the exact product n p = P1 + P2 and
// integer arithmetic), each with an error bound, so that no term of size
// n log n is ever formed. Along the sum, each term is the previous times
// the ratio (n-x)p/((x+1)(1-p)) (within 7u), re-anchored on log f every
// 512 terms. The pmf is log-concave, so past a point x where the ratio r
// is below 1 the rest is at most f(x)/(1-r) (the ratios decrease): the
// sum stops when that is below 2^-48 of it and adds it to the upper end.
// Where the binomial is so wide (n p (1-p) above about 10^11) that term
// by term would be slow, blocks of w terms are bounded on both sides by
// log-concavity: below by the geometric sequence through their end
// points (the chord of log f), above by the one of the first ratio (its
// tangent), w chosen from log f's curvature 1/(x+1) + 1/(n-x+1) so that
// the two are within about 2^-30 of each other.

// maxTSGN bounds TruncatedSampledGaussian's N: the binomials have n up
// to N + 1 <= 2^62.
const maxTSGN = 1<<62 - 1

// lv is a positive number known by the logs of its bounds: e^lo <= v <=
// e^hi (lo = -Inf: no lower bound above 0).
type lv struct{ lo, hi float64 }

var lvOne = lv{0, 0}
var lvZero = lv{math.Inf(-1), math.Inf(-1)}

// logPos is math.Log, correct also for subnormal x (Go's amd64 Log does
// not normalise them: golang/go#56600).
func logPos(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p64) - 64*math.Ln2
	}
	return math.Log(x)
}

// expHi and expLo bound e^x from above and below for x exact (math.Exp
// within 4u; below e^-708 the result may be subnormal: the upper bound
// then uses e^-708's, the lower gives 0).
func expHi(x float64) float64 {
	switch {
	case math.IsInf(x, -1):
		return 0
	case x > 709:
		return inf
	}
	return math.Exp(math.Max(x, -708)) * (1 + 5*u64)
}

func expLo(x float64) float64 {
	if x < -708 {
		return 0
	}
	return math.Exp(x) * (1 - 5*u64)
}

// toFloat returns v's bounds as float64 numbers.
func (v lv) toFloat() (lo, hi float64) { return expLo(v.lo), expHi(v.hi) }

// log1mExp returns bounds on log(1 - e^v) for v an lv below 1 (a
// complement): -expm1 within 4u, its log 4u of itself more; the result
// is lvZero when v may be 1.
func (v lv) complement() lv {
	if !(v.hi < 0) {
		// the complement may be 0: its upper end still holds
		if math.IsInf(v.lo, -1) {
			return lvOne
		}
		c := -math.Expm1(v.lo) * (1 + 5*u64)
		l := math.Log(c)
		return lv{math.Inf(-1), l + 5*u64*math.Abs(l) + 1e-300}
	}
	cHi := math.Min(1, -math.Expm1(v.lo)*(1+5*u64))
	cLo := -math.Expm1(v.hi) * (1 - 5*u64)
	lHi, lLo := math.Log(cHi), logPos(cLo)
	return lv{lLo - 5*u64*math.Abs(lLo) - 1e-300, math.Min(0, lHi+5*u64*math.Abs(lHi)+1e-300)}
}

// binom is Binomial(n, p) for 1 <= n <= 2^62, 0 < p < 1, with what its
// terms need.
type binom struct {
	n        int64
	nf       float64 // float64(n), within u (exact below 2^53)
	lnf      float64 // log(nf), within 4u of itself
	lp, lpe  float64 // log p and its error bound
	lq, lqe  float64 // log(1 - p) (log1p(-p)) and its error bound
	c, cinv  float64 // p/(1-p) and (1-p)/p, each within 3u
	np, nq   float64 // n p within 3u, n (1-p) within 4u
	p1i      int64   // n p = p1i + p1f + p2 + p3 (+ p3's rounding)
	p1f, p2  float64
	p3, p3e  float64
	nfExact  bool
	logS2Pi  float64 // log sqrt(2 pi)
	logS2PiE float64
}

func newBinom(n int64, p float64) *binom {
	b := &binom{n: n}
	b.nf = float64(n)
	b.nfExact = int64(b.nf) == n
	b.lnf = math.Log(b.nf)
	b.lp = logPos(p)
	b.lpe = 4 * u64 * math.Abs(b.lp)
	b.lq = math.Log1p(-p)
	b.lqe = 4*u64*math.Abs(b.lq) + 1e-300
	q := 1 - p // exact for p >= 1/2 (Sterbenz), else within u
	b.c, b.cinv = p/q, q/p
	b.np, b.nq = b.nf*p, b.nf*q
	// n p exactly as P1 + P2 (FMA) + nl p, nl = n - nf (|nl| <= 2^9,
	// exact in float64)
	nl := n - int64(b.nf)
	p1 := b.nf * p
	b.p2 = math.FMA(b.nf, p, -p1)
	b.p3 = float64(nl) * p
	b.p3e = u64*math.Abs(b.p3) + 0x1p-1060 // p3's rounding (and an underflowing P2's)
	fl := math.Floor(p1)
	b.p1i, b.p1f = int64(fl), p1-fl
	// 0.5 Log(2 Pi): 2 Pi within u/2 relative, Log within 4u of itself,
	// the halving exact: within 5u of 0.919
	b.logS2Pi, b.logS2PiE = logSqrt2Pi, 5*u64
	return b
}

// dev returns x - n p (x an integer in [0, n]) and a bound on its error:
// x - p1i exactly in int64; its float64 within u of itself (exact below
// 2^53); the three subtractions within u of their results.
func (b *binom) dev(x int64) (float64, float64) {
	ix := x - b.p1i
	a := float64(ix)
	e := 0.0
	if int64(a) != ix {
		e = u64 * math.Abs(a)
	}
	s1 := a - b.p1f
	s2 := s1 - b.p2
	d := s2 - b.p3
	e += u64*(math.Abs(s1)+math.Abs(s2)+math.Abs(d)) + b.p3e
	return d, e * (1 + 4*u64)
}

// stirlingErr returns delta(m) = log m! - (m + 1/2) log m + m - log
// sqrt(2 pi) for m >= 1, and a bound on its error. Below 16, from log m!
// summed (each Log within 4u, each sum u); from 16 on, from Stirling's
// series to the m^-9 term, whose remainder is below the next,
// 691/(360360 m^11) <= 1.1e-16 m^-1 (DLMF 5.11(ii): enveloping for real
// m > 0), the evaluation within 12u of the value.
func (b *binom) stirlingErr(m int64) (float64, float64) {
	if m < 16 {
		var lf, ef float64
		for i := int64(2); i <= m; i++ {
			li := math.Log(float64(i))
			lf += li
			ef += 4*u64*li + u64*lf
		}
		mf := float64(m)
		lm := math.Log(mf)
		t := (mf + 0.5) * lm
		et := (mf+0.5)*4*u64*lm + u64*t
		v1 := lf - t
		v2 := v1 + mf
		v := v2 - b.logS2Pi
		e := ef + et + u64*(math.Abs(v1)+math.Abs(v2)+math.Abs(v)) + b.logS2PiE
		return v, e * (1 + 4*u64)
	}
	mf := float64(m)
	x := 1 / mf
	x2 := x * x
	v := x * (1.0/12 - x2*(1.0/360-x2*(1.0/1260-x2*(1.0/1680-x2/1188))))
	rem := 691.0 / 360360 * x2 * x2 * x2 * x2 * x2 * x
	return v, 12*u64*v + rem*1.01
}

// deviance returns D(x; M) = x log(x/M) + M - x for x >= 1 (given as its
// float64 xf within xr relative; xl its log within xle), M (mf within mr
// relative; lm its log within lme) and d = x - M (within de), and a bound
// on its error. For |v| < 1/4, v = d/(x+M), D = v^2 ((x+M) + 2 x v S),
// S = sum_(k>=1) v^(2k-2)/(2k+1), the bracket at least 0.8 (x+M) (no
// cancellation); S to 13 terms, the rest below 16^-13/29 (16/15) <
// 1e-17 of 1/3. Else D = x (log x - log M) - d, where log(x/M) is at
// least 0.2 in magnitude.
func deviance(xf, xr, xl, xle, mf, mr, lm, lme, d, de float64) (float64, float64) {
	s := xf + mf
	sr := math.Max(xr, mr) + u64 // s within sr relative
	v := d / s
	if math.Abs(v) < 0.25 {
		v2 := v * v
		S, t := 0.0, 1.0
		for k := 1; k <= 13; k++ {
			S += t / float64(2*k+1)
			t *= v2
		}
		B := s + 2*xf*v*S
		D := v2 * B
		// |dD/dd| <= 3 |d|/s (the bracket's derivative included), over
		// the perturbed d; relative: s (v^2 and B), x, S and the roundings
		e := (3*math.Abs(d)+2*de)/s*de*1.1 + math.Abs(D)*(3*sr+xr+40*u64) + math.Abs(D)*1e-17
		return D, e * (1 + 4*u64)
	}
	L := xl - lm
	Le := xle + lme + u64*math.Abs(L)
	t := xf * L
	te := xf*Le + math.Abs(t)*(xr+u64)
	D := t - d
	e := te + de + u64*math.Abs(D)
	return D, e * (1 + 4*u64)
}

// logPMF returns log f(x) and a bound on its error (x in [0, n]; -Inf
// outside).
func (b *binom) logPMF(x int64) (float64, float64) {
	switch {
	case x < 0 || x > b.n:
		return math.Inf(-1), 0
	case x == 0 || x == b.n:
		l, le := b.lq, b.lqe
		if x == b.n {
			l, le = b.lp, b.lpe
		}
		v := b.nf * l
		return v, (b.nf*le*(1+u64) + math.Abs(v)*2.02*u64) * (1 + 2*u64)
	}
	y := b.n - x
	xf, yf := float64(x), float64(y)
	xr, yr := 0.0, 0.0
	if int64(xf) != x {
		xr = u64
	}
	if int64(yf) != y {
		yr = u64
	}
	nr := 0.0
	if !b.nfExact {
		nr = u64
	}
	lx, ly := math.Log(xf), math.Log(yf)
	lxe, lye := 4*u64*math.Abs(lx)+1.01*xr, 4*u64*math.Abs(ly)+1.01*yr
	lne := 4*u64*math.Abs(b.lnf) + 1.01*nr
	sn, sne := b.stirlingErr(b.n)
	sx, sxe := b.stirlingErr(x)
	sy, sye := b.stirlingErr(y)
	d, de := b.dev(x)
	// M = n p: its log log n + log p; as a float64, nf p within nr + u
	// relative (the series branch only, where M >= x/2 >= 1/2 is normal)
	lm1, lme1 := b.lnf+b.lp, lne+b.lpe+u64*math.Abs(b.lnf+b.lp)
	lm2, lme2 := b.lnf+b.lq, lne+b.lqe+u64*math.Abs(b.lnf+b.lq)
	D1, e1 := deviance(xf, xr, lx, lxe, b.np, nr+2*u64, lm1, lme1, d, de)
	D2, e2 := deviance(yf, yr, ly, lye, b.nq, nr+3*u64, lm2, lme2, -d, de)
	h := 0.5 * ((b.lnf - lx) - ly)
	he := 0.5*(lne+lxe+lye) + u64*(math.Abs(b.lnf-lx)+math.Abs(h))
	s := ((sn - sx) - sy) + (h - b.logS2Pi)
	l := s - D1 - D2
	e := sne + sxe + sye + he + b.logS2PiE + e1 + e2 +
		u64*(math.Abs(sn-sx)+math.Abs(sn-sx-sy)+math.Abs(h-b.logS2Pi)+math.Abs(s)+math.Abs(s-D1)+math.Abs(l))
	return l, e * (1 + 4*u64)
}

// ratio returns f(x+dir)/f(x) (dir = +1 or -1, both points in [0, n]),
// within 7u: (n-x)/(x+1) p/(1-p) or x/(n-x+1) (1-p)/p, each integer's
// float64 within u, p/(1-p) within 3u, the quotient and product u each.
func (b *binom) ratio(x, dir int64) float64 {
	if dir > 0 {
		return float64(b.n-x) / float64(x+1) * b.c
	}
	return float64(x) / float64(b.n-x+1) * b.cinv
}

// Tolerances of the sums: the tail beyond a point is dropped (added to
// the upper end) below tailStop of the sum; a block's two bounds are
// within about blockTol of each other.
const (
	tailStop   = 0x1p-48
	blockTol   = 0x1p-30
	termsChunk = 512
)

// sumFrom returns bounds on log sum_(j >= 0) f(k + dir j) over the x in
// [0, n], k in [0, n]; the terms should not increase along dir (k on the
// mode's far side), or the sum is long but still certified.
func (b *binom) sumFrom(k, dir int64) lv {
	ref, e0 := b.logPMF(k)
	// the state: x, and log(f(x)/e^ref) = a within ea
	x, a, ea := k, 0.0, e0
	end := b.n
	if dir < 0 {
		end = 0
	}
	// the sums of the terms' bounds, in units of e^ref; outer counts the
	// additions to them (each within u of its result: the sums of
	// non-negative terms are within (count) u of the exact ones), chunk
	// the most terms added within one chunk first
	var hi, lo float64
	outer, chunk := 0, 0
	remaining := func(x int64) int64 { // terms from x to end, inclusive
		if dir > 0 {
			return end - x + 1
		}
		return x - end + 1
	}
	for remaining(x) > 0 {
		gHi := expHi(a + ea + u64*math.Abs(a+ea))
		// the rest from x is at most f(x)/(1 - r) once r < 1
		if x != end {
			if r := b.ratio(x, dir) * (1 + 8*u64); r < 1 {
				tail := (gHi + 0x1p-1000) / ((1 - r) * (1 - 2*u64))
				if tail <= lo*tailStop {
					hi += tail * (1 + 2*u64)
					outer++
					break
				}
			}
		}
		xf := float64(x)
		curv := 1/(xf+1) + 1/(b.nf-xf+1)
		w := int64(math.Sqrt(2 * blockTol / curv))
		if w > remaining(x)-1 {
			w = remaining(x) - 1
		}
		if w < 32 {
			// term by term: each term the previous times the ratio
			// (within 7u; the product within u more), then re-anchored
			gLo := expLo(a - ea - u64*math.Abs(a-ea))
			var cHi, cLo float64
			n := min(int64(termsChunk), remaining(x))
			for i := int64(0); i < n; i++ {
				cHi += gHi
				cLo += gLo
				if i+1 < n {
					r := b.ratio(x, dir)
					gHi *= r * (1 + 10*u64)
					gLo *= r * (1 - 10*u64)
					x += dir
				}
			}
			chunk = max(chunk, int(n))
			hi += cHi
			lo += cLo
			outer++
			if remaining(x) == 1 {
				break
			}
			x += dir
			l, e := b.logPMF(x)
			a, ea = l-ref, e+u64*math.Abs(l-ref)
			continue
		}
		// a block of w terms x .. x + (w-1) dir, between the geometric
		// sequences of the first ratio (above) and of the chord to
		// x + w dir (below)
		xw := x + w*dir
		lw, ew := b.logPMF(xw)
		aw, eaw := lw-ref, ew+u64*math.Abs(lw-ref)
		rHi := b.ratio(x, dir) * (1 + 8*u64)
		lHi := math.Log(rHi)
		lHi += 5*u64*math.Abs(lHi) + 0x1p-1070
		chord := ((aw - eaw) - (a - ea)) / float64(w)
		lLo := chord - 4*u64*math.Abs(chord) - 2*u64*(math.Abs(aw-eaw)+math.Abs(a-ea))/float64(w)
		gH, gHe := geomSum(lHi, w)
		gL, gLe := geomSum(lLo, w)
		hi += expHi(a+ea+u64*math.Abs(a+ea)) * gH * (1 + gHe)
		lo += expLo(a-ea-u64*math.Abs(a-ea)) * gL * (1 - gLe)
		outer++
		x, a, ea = xw, aw, eaw
	}
	f := float64(chunk+outer+2) * u64 * 1.01
	hi *= 1 + f
	lo *= 1 - f
	if !(lo > 0) {
		return lv{math.Inf(-1), ref + math.Log(hi)*(1+4*u64) + 4*u64*math.Abs(ref)}
	}
	lh, ll := math.Log(hi), math.Log(lo)
	vh, vl := ref+lh, ref+ll
	return lv{vl - 4*u64*math.Abs(ll) - u64*math.Abs(vl) - 1e-300, vh + 4*u64*math.Abs(lh) + u64*math.Abs(vh) + 1e-300}
}

// geomSum returns G = sum_(i<w) e^(i l) = expm1(w l)/expm1(l) (w at l = 0;
// increasing in l) and its relative error: expm1 within 4u each, w l
// within u of itself, which moves expm1(w l) by at most (1 + max(w l,
// 0)) u of itself, the quotient u.
func geomSum(l float64, w int64) (float64, float64) {
	if l == 0 {
		return float64(w), u64
	}
	y := float64(w) * l
	g := math.Expm1(y) / math.Expm1(l)
	if math.IsInf(g, 0) || math.IsNaN(g) {
		return inf, 0
	}
	return g, (11 + 1.01*math.Max(y, 0)) * u64
}

// binomGE returns bounds on P(Binomial(n, p) >= k), for 0 <= n <= 2^62
// and p in [0, 1].
func binomGE(n int64, p float64, k int64) lv {
	switch {
	case k <= 0:
		return lvOne
	case k > n || p == 0:
		return lvZero
	case p == 1:
		return lvOne
	}
	b := newBinom(n, p)
	if float64(k) >= b.np {
		return b.sumFrom(k, 1)
	}
	// k below n p: 1 - P(X <= k-1), that tail at most about 1/2
	return binomLE(n, p, k-1).complement()
}

// binomLE returns bounds on P(Binomial(n, p) <= k).
func binomLE(n int64, p float64, k int64) lv {
	switch {
	case k < 0:
		return lvZero
	case k >= n || p == 0:
		return lvOne
	case p == 1:
		return lvZero
	}
	b := newBinom(n, p)
	if float64(k) <= b.np {
		return b.sumFrom(k, -1)
	}
	return binomGE(n, p, k+1).complement()
}

// lvMul returns bounds on the product of a and b (the sums of logs
// rounded outward).
func lvMul(a, b lv) lv {
	lo := a.lo + b.lo
	hi := a.hi + b.hi
	return lv{lo - 2*u64*math.Abs(lo) - 1e-300, hi + 2*u64*math.Abs(hi) + 1e-300}
}

// lvAdd returns bounds on a + b: logAdd (Exp and Log1p within 4u, the
// sums u) widened by 8u of its result.
func lvAdd(a, b lv) lv {
	lo, hi := logAdd(a.lo, b.lo), logAdd(a.hi, b.hi)
	return lv{lo - 8*u64*(1+math.Abs(lo)), hi + 8*u64*(1+math.Abs(hi))}
}

// lvConst returns bounds on x > 0, a float64 within r relative: its Log
// within 4u of itself and 1.01 r more.
func lvConst(x, r float64) lv {
	l := logPos(x)
	e := 4*u64*math.Abs(l) + 1.01*r + 1e-300
	return lv{l - e, l + e}
}

// lvInt is lvConst of an integer (its float64 within u when inexact).
func lvInt(n int64) lv {
	f := float64(n)
	r := 0.0
	if int64(f) != n {
		r = u64
	}
	return lvConst(f, r)
}

// truncRate returns bounds on q' = Q E[min(1, B/(K+1))], K ~ Binomial(m,
// Q), the rate at which a record is in the truncated batch when m other
// records are sampled with it (0 <= m < 2^62, 1 <= B <= m), as
// Q P(K <= B-1) + B/(m+1) P(Binomial(m+1, Q) >= B+1).
func truncRate(m int64, Q float64, B int64) lv {
	a := lvMul(lvConst(Q, 0), binomLE(m, Q, B-1))
	c := lvMul(lvMul(lvInt(B), binomGE(m+1, Q, B+1)), lvDiv(lvOne, lvInt(m+1)))
	return lvAdd(a, c)
}

// lvDiv returns bounds on a/b.
func lvDiv(a, b lv) lv {
	lo := a.lo - b.hi
	hi := a.hi - b.lo
	return lv{lo - 2*u64*math.Abs(lo) - 1e-300, hi + 2*u64*math.Abs(hi) + 1e-300}
}

// tsgBounds are the certified numbers of a TruncatedSampledGaussian's
// pairs (see the comment at the top).
type tsgBounds struct {
	truncates bool    // t > 0 (Batch < N)
	t, s      lv      // t and 1 - t
	q2        lv      // q2 (when truncates)
	qLo       float64 // a lower bound on q' (m others)
	qExact    bool    // q' = Q exactly (Batch >= m + 1)
}

// others returns the number of other records the lower pair assumes
// under rel (see the comment at the top).
func (e TruncatedSampledGaussian) others(rel Relation) int64 {
	if rel == AddOrRemoveOne {
		return e.N
	}
	return e.N - 1
}

// bounds computes tsgBounds for 0 < Q, 1 <= Batch, 1 <= N <= maxTSGN.
func (e TruncatedSampledGaussian) bounds(rel Relation) tsgBounds {
	var r tsgBounds
	N, B, Q := e.N, e.Batch, e.Q
	if B < N {
		r.truncates = true
		r.t = binomGE(N-1, Q, B)
		r.s = binomLE(N-1, Q, B-1)
		u := binomGE(N, Q, B+1)
		r.q2 = lvDiv(lvMul(u, lvInt(B)), lvMul(r.t, lvInt(N)))
	} else {
		r.t, r.s = lvZero, lvOne
	}
	m := e.others(rel)
	if B >= m+1 {
		r.qLo, r.qExact = Q, true
		return r
	}
	lo, _ := truncRate(m, Q, B).toFloat()
	r.qLo = math.Min(lo, Q)
	return r
}

// Measures for the sides that are not an SGM's: a step with no privacy
// loss (a lower pair at rate 0), and a non-private one for an upper side
// (Sigma = 0 with Q = 1 and no truncation, or (0, m) with m rounded up to
// 1): mass 1 at +Inf, so that its delta is 1
// at every eps, and 1 more at loss 0, which only adds to an upper
// measure's delta and keeps the finite part of a composition non-empty.
var (
	noLossMeasure     = (&atomMeasure{name: "no-loss", atoms: []atom{{exactSC(1), 0, 0}}}).withLattice()
	nonPrivateMeasure = (&atomMeasure{name: "non-private", atoms: []atom{{exactSC(1), 0, 0}}, infLo: 1, infHi: 1}).withLattice()
)

// weightFloor is the least weight given to a mixture component: a
// smaller certified upper bound is raised to it (still above the true
// weight), so that the scaled cells stay far from subnormal numbers.
const weightFloor = 0x1p-600

// pairMeasures returns the measures of a pair per direction, the second filled
// in (the first) when the pair is symmetric.
func pairMeasures(pr pairOf) (up, lo [2]measure) {
	up, lo = pr.up, pr.lo
	if up[1] == nil {
		up[1] = up[0]
	}
	if lo[1] == nil {
		lo[1] = lo[0]
	}
	return up, lo
}

// pair returns the two pairs described at the top of this file. As
// dp_accounting at commit b5b0286 of google/differential-privacy
// (python/dp_accounting/dp_accounting/dp_event.py,
// TruncatedSubsampledGaussianDpEvent; pld/pld_privacy_accountant.py,
// which composes it under ADD_OR_REMOVE_ONE and REPLACE_ONE through
// pld/privacy_loss_distribution.py's
// from_truncated_subsampled_gaussian_mechanism). The upper side is a
// bound: dp_accounting's dominating mixture with certified weights (and,
// at Sigma = 0, the coupling's (0, m)); the lower side is exact for the
// instance it describes, so it bounds the optimum for the class from
// below. Without truncation (Batch >= m + 1) the two coincide and the
// interval is the sampled Gaussian's, exact.
func (e TruncatedSampledGaussian) pair(rel Relation) (pairOf, error) {
	if e.N > maxTSGN {
		return pairOf{}, paramErr(e, "n", float64(e.N), "must be below 2^62")
	}
	if e.Q == 0 || e.Batch == 0 {
		return pairOf{noop: true}, nil
	}
	bd := e.bounds(rel)
	plain, err := SampledGaussian{e.Q, e.Sigma}.pair(rel)
	if err != nil {
		return pairOf{}, err
	}
	if !bd.truncates && bd.qExact {
		return plain, nil
	}
	// the upper side
	var up [2]measure
	switch {
	case !bd.truncates && plain.nonPrivate:
		up = [2]measure{nonPrivateMeasure, nonPrivateMeasure}
	case !bd.truncates:
		up, _ = pairMeasures(plain)
	case e.Sigma == 0:
		// the mixture at no noise: both components have losses <= 0 or
		// +Inf but for the SGM's add direction (loss -log(1-Q), mass 1-t,
		// delta(eps) <= Q at eps >= 0), so it is (0, m)-DP with m = t q2
		// + (1-t) Q, and dominated by that pair
		_, tHi := bd.t.toFloat()
		_, sHi := bd.s.toFloat()
		_, q2Hi := bd.q2.toFloat()
		m := (math.Min(tHi, 1)*math.Min(q2Hi, e.Q) + math.Min(sHi, 1)*e.Q) * (1 + 4*u64)
		if m >= 1 {
			up = [2]measure{nonPrivateMeasure, nonPrivateMeasure}
			break
		}
		ed := epsDeltaMeasure("tsg-up-no-noise "+fmtF(m), 0, m)
		up = [2]measure{ed, ed}
	default:
		_, tHi := bd.t.toFloat()
		_, sHi := bd.s.toFloat()
		_, q2Hi := bd.q2.toFloat()
		wa := math.Max(math.Min(tHi, 1), weightFloor)
		q2 := math.Min(math.Max(q2Hi, 0x1p-1000), e.Q)
		repl := sgmReplaceMeasure(q2, e.Sigma/2)
		plainUp, _ := pairMeasures(plain)
		for d := range 2 {
			switch {
			case sHi == 0:
				// Q = 1: t = 1 exactly, the mixture is its replace-one part
				up[d] = repl
			case d == 1 && plainUp[1] == plainUp[0]:
				up[1] = up[0]
			default:
				wb := math.Max(math.Min(sHi, 1), weightFloor)
				up[d] = &mixMeasure{
					name: keyOf("tsg-up", fmtF(wa), repl.key(), fmtF(wb), plainUp[d].key()),
					wa:   wa, wb: wb, a: repl, b: plainUp[d],
				}
			}
		}
	}
	// the lower side: the instance, an SGM of rate qLo
	var lo [2]measure
	switch inst, err := (SampledGaussian{bd.qLo, e.Sigma}).pair(rel); {
	case err != nil:
		return pairOf{}, err
	case bd.qLo < 0x1p-1000 || inst.noop:
		lo = [2]measure{noLossMeasure, noLossMeasure}
	case inst.nonPrivate:
		lo = [2]measure{nonPrivateMeasure, nonPrivateMeasure}
	default:
		_, lo = pairMeasures(inst)
	}
	pr := pairOf{up: up, lo: lo}
	if up[0] == up[1] && lo[0] == lo[1] {
		pr.up[1], pr.lo[1] = nil, nil
	}
	return pr, nil
}
