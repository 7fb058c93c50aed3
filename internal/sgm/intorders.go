package sgm

import (
	"math"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// lfTabN is the largest order whose terms are found by the pruned search;
// larger orders scan every term (intLogIm1Scan).
const lfTabN = 1 << 12

// lfHi[m] + lfLo[m] = log(m!) in double-double, m <= lfTabN.
var lfHi, lfLo = buildLogFact()

func buildLogFact() (*[lfTabN + 1]float64, *[lfTabN + 1]float64) {
	var hi, lo [lfTabN + 1]float64
	var lh, ll [lfTabN + 1]float64 // log m in double-double
	var spf [lfTabN + 1]int32      // smallest prime factor
	for m := 2; m <= lfTabN; m++ {
		if spf[m] == 0 {
			for j := m; j <= lfTabN; j += m {
				if spf[j] == 0 {
					spf[j] = int32(m)
				}
			}
			lh[m], ll[m] = errfloat.LogDD(float64(m))
		} else {
			f := int(spf[m])
			lh[m], ll[m] = errfloat.DDAdd(lh[f], ll[f], lh[m/f], ll[m/f])
		}
		hi[m], lo[m] = errfloat.DDAdd(hi[m-1], lo[m-1], lh[m], ll[m])
	}
	return &hi, &lo
}

// lgC returns log C(n, k) for 0 <= k <= n <= lfTabN, with absolute error
// below u |log C| + 1e-20 (Method).
func lgC(n, k int) float64 {
	s1, e1 := errfloat.TwoSum(lfHi[n], -lfHi[k])
	s2, e2 := errfloat.TwoSum(s1, -lfHi[n-k])
	return s2 + ((e1 + e2) + ((lfLo[n] - lfLo[k]) - lfLo[n-k]))
}

// gAt returns p.gk(k), memoised in g[k] when k < len(g) (NaN: not yet
// computed).
func (io *intOrders) gAt(k int) float64 {
	p, g := io.p, io.g
	if k < len(g) {
		v := g[k]
		if v == v {
			return v
		}
		v = p.gk(k)
		g[k] = v
		return v
	}
	return p.gk(k)
}

const (
	pruneLeaf  = 8  // intervals this short are evaluated term by term
	pruneSmall = 12 // orders up to this evaluate every term
	pruneWalk  = 64 // longest walk down from k = n
	maxRanges  = 16 // evaluated k ranges kept for the summation
)

// binomUB returns an upper bound on x_k over a <= k <= b (a >= 2):
// max_{a<=k<=b} B(k) + n log(1-q) + c_b + min(0, log c_b) with
// B(k) = log C(n,k) + k (log q - log(1-q)), plus a margin for rounding.
// m0 = floor((n+1) q) as computed; the maximiser of B lies in [m0-2, m0+1].
func (p *params) binomUB(n, a, b, m0 int, nl1q, D, absD float64) float64 {
	var B, kmax float64
	switch {
	case b < m0-2: // B increasing on [a, b]
		kmax = float64(b)
		B = lgC(n, b) + kmax*D
	case a > m0+1: // B decreasing on [a, b]
		kmax = float64(a)
		B = lgC(n, a) + kmax*D
	default:
		B = math.Inf(-1)
		for k := max(a, m0-2); k <= min(b, m0+1); k++ {
			B = max(B, lgC(n, k)+float64(k)*D)
		}
		if m0-2 < a {
			B = max(B, lgC(n, a)+float64(a)*D)
		}
		if m0+1 > b {
			B = max(B, lgC(n, b)+float64(b)*D)
		}
		kmax = float64(b)
	}
	fb := float64(b)
	cb := fb * (fb - 1) * p.i2s2
	lemB := cb // log expm1(c) <= min(c, c + log c)
	if cb < 1 {
		lemB += math.Log(cb)
	}
	ub := B + nl1q + lemB
	return ub + 0.5 + 8*errfloat.Unit*(math.Abs(B)+kmax*absD+math.Abs(nl1q)+2*math.Abs(lemB)+cb+math.Abs(ub))
}

// intSum returns log(I-1) = M + log S for the integer order n >= 2
// (1 <= S <= n) and a bound on the absolute error of log(I-1).
func (io *intOrders) intSum(n int) (M, S, errAbs float64) {
	p, g, buf := io.p, io.g, io.buf
	if n > lfTabN || n >= len(buf) {
		lm1, errAbs := io.intLogIm1Scan(n)
		return lm1, 1, errAbs
	}
	fn := float64(n)
	nl1q := fn * p.l1q
	D := p.lq - p.l1q
	absQ := math.Abs(p.lq)
	absL := math.Abs(p.l1q)
	T := 40 + logTab[n]
	M = math.Inf(-1)
	var rs [maxRanges][2]int32 // evaluated ranges, in decreasing k
	nr := 0
	var st [16][2]int32 // DFS stack: at most one pending interval per level (<= 10)
	st[0] = [2]int32{2, int32(n)}
	ns := 1
	if n > pruneSmall {
		// Walk down from k = n, where the terms of the larger orders
		// peak, to the first term below the drop level (at most
		// pruneWalk terms); the search below covers the rest.
		lo := n + 1 // [lo, n] evaluated
		for lo > max(2, n-pruneWalk+1) {
			lo--
			x := (lgC(n, lo) + nl1q) + io.gAt(lo)
			buf[lo] = x
			if x > M {
				M = x
			}
			if x < M-T {
				break
			}
		}
		rs[0] = [2]int32{int32(lo), int32(n)}
		nr = 1
		st[0][1] = int32(lo - 1)
		if lo == 2 {
			ns = 0
		}
	}
	m0 := int((fn + 1) * p.q)
	for ns > 0 {
		ns--
		a, b := int(st[ns][0]), int(st[ns][1])
		if b-a >= pruneLeaf && n > pruneSmall {
			if p.binomUB(n, a, b, m0, nl1q, D, absQ+absL) < M-T {
				continue // every x_k of [a, b] is below the drop level
			}
			mid := a + (b-a)/2
			st[ns] = [2]int32{int32(a), int32(mid)}
			st[ns+1] = [2]int32{int32(mid + 1), int32(b)} // right half first: larger c_k
			ns += 2
			continue
		}
		for k := b; k >= a; k-- {
			var gv float64
			if k < len(g) && g[k] == g[k] {
				gv = g[k]
			} else {
				gv = io.gAt(k)
			}
			x := (lgC(n, k) + nl1q) + gv
			buf[k] = x
			if x > M {
				M = x
			}
		}
		switch {
		case nr > 0 && int(rs[nr-1][0]) == b+1:
			rs[nr-1][0] = int32(a)
		case nr < maxRanges:
			rs[nr] = [2]int32{int32(a), int32(b)}
			nr++
		default:
			lm1, errAbs := io.intLogIm1Scan(n)
			return lm1, 1, errAbs
		}
	}
	thresh := M - T
	var dmax float64
	m := 0
	// Relative weight of an absolute error of log(I-1) = x in log I:
	// e^x/((1+e^x) log1p(e^x)) <= 1, and <= 1/x for x >= 1
	// (log1p(e^x) >= x); it only decides which terms are recomputed.
	scale := 1.0
	if M >= 1 {
		scale = 1 / M
	}
	// Error of a kept x_k: a few ulps of each of its parts; log C from the
	// table is within u|log C| + 1e-20 (Method):
	//   d_k = u (4|x_k - n log(1-q)| + 7k(|log q|+|log(1-q)|) + 10 c_k + 7 lemLow
	//            + 3|n log(1-q)| + 2|x_k| + 8).
	// Every kept term has thresh <= x_k <= M and k <= kmax, so d_k is at
	// most dAgg below (|.| is convex, c_k increases with k); when dAgg is
	// small enough that no term needs recomputing, the terms are summed
	// without their individual bounds.
	kmax := 0
	for r := 0; r < nr; r++ {
		for k := int(rs[r][0]); k <= int(rs[r][1]); k++ {
			if x := buf[k]; x >= thresh {
				S += math.Exp(x - M)
				m++
				kmax = max(kmax, k)
			}
		}
	}
	fkm := float64(kmax)
	dAgg := errfloat.Unit * (4*max(math.Abs(M-nl1q), math.Abs(thresh-nl1q)) + 7*fkm*(absQ+absL) +
		10*fkm*(fkm-1)*p.i2s2 + 7*p.lemLow + 3*math.Abs(nl1q) + 2*max(math.Abs(M), math.Abs(thresh)) + 8)
	if dAgg*scale <= 1e-13 {
		dmax = dAgg
	} else {
		S, m, dmax = 0, 0, 0
		for r := 0; r < nr; r++ {
			for k := int(rs[r][0]); k <= int(rs[r][1]); k++ {
				x := buf[k]
				if x < thresh {
					continue
				}
				fk := float64(k)
				c := fk * (fk - 1) * p.i2s2
				d := errfloat.Unit * (4*(math.Abs(x-nl1q)+fk*(absQ+absL)+c+p.lemLow) + 3*math.Abs(nl1q) +
					3*fk*(absQ+absL) + 6*c + 3*p.lemLow + 2*math.Abs(x) + 8)
				if d*scale > 1e-13 {
					// Recompute the kept term by Loader's saddle-point form
					// (see intLogIm1Scan).
					x, d = p.xkAccurate(n, k, c)
				}
				S += math.Exp(x - M)
				m++
				if d > dmax {
					dmax = d
				}
			}
		}
	}
	errAbs = dmax + float64(m+4)*errfloat.Unit + errfloat.Unit*math.Abs(M) + 4.3e-18
	return M, S, errAbs
}

// intVal is log I(n) with what intRDP needs to round it up: sig =
// (I-1)/I (or an upper bound on it), the relative weight of an absolute
// error of log(I-1) in log I (see intOrders.rdp), and that error bound.
type intVal struct{ logI, sig, errAbs float64 }

// intValue evaluates log I(n).
func (io *intOrders) intValue(n int) intVal {
	return io.p.intValueFrom(io.intSum(n))
}

// intValueFrom returns log I = log1p(e^M S) from log(I-1) = M + log S.
func (p *params) intValueFrom(M, S, errAbs float64) intVal {
	if M > 40 {
		// log I = lm1 + log1p(e^-lm1): the second part is below
		// e^-40 < 4.3e-18 and is carried by the bound instead.
		return intVal{M + math.Log(S), 1, errAbs + 4.3e-18}
	}
	if M > 36 {
		lm1 := M + math.Log(S)
		return intVal{lm1 + math.Exp(-lm1), 1, errAbs}
	}
	e := math.Exp(M) * S // e^(log(I-1)) with 2 roundings
	return intVal{math.Log1p(e), e / (1 + e), errAbs + 2*errfloat.Unit}
}

// Small integer orders of a curve, in linear space (Method): for n <=
// binomTabN, I(n)-1 = (1-q)^n sum_{k=2..n} C(n,k) G_k with
// G_k = e^(g_k) = (q/(1-q))^k expm1(c_k) held as m_k 2^(e_k), so that a
// term costs two products and no exp or log.

// intLogIm1Scan returns log(I-1) for the integer order n >= 2 and a bound
// on its absolute error by a scan of every term, with log C(n,k) carried by
// the compensated recurrence; used above lfTabN. g memoises p.gk (gAt).
func (io *intOrders) intLogIm1Scan(n int) (lm1, errAbs float64) {
	p, buf := io.p, io.buf
	nl1q := float64(n) * p.l1q
	fn := float64(n)
	lC := math.Log(fn * (fn - 1) / 2) // exact product for n <= 2^26
	var lCc float64                   // Neumaier compensation of lC
	M := math.Inf(-1)
	useBuf := n < len(buf)
	for k := 2; ; k++ {
		x := (lC + lCc) + nl1q + io.gAt(k)
		if useBuf {
			buf[k] = x
		}
		if x > M {
			M = x
		}
		if k == n {
			break
		}
		d := logInt(n-k) - logInt(k+1)
		t := lC + d
		if math.Abs(lC) >= math.Abs(d) {
			lCc += (lC - t) + d
		} else {
			lCc += (d - t) + lC
		}
		lC = t
	}
	thresh := M - 40 - math.Log(fn)
	var S, dmax float64
	m := 0
	ln := math.Log(fn)
	absL := math.Abs(p.l1q)
	absQ := math.Abs(p.lq)
	// relative weight of an absolute error of log(I-1) in log I (see intOrders.rdp)
	scale := 1 / (1 + math.Exp(-M)) / log1pexp(M)
	var lCr, lCrc float64
	if !useBuf {
		lCr = math.Log(fn * (fn - 1) / 2)
	}
	for k := 2; k <= n; k++ {
		var x float64
		if useBuf {
			x = buf[k]
		} else {
			x = (lCr + lCrc) + nl1q + io.gAt(k)
			if k < n {
				d := logInt(n-k) - logInt(k+1)
				t := lCr + d
				if math.Abs(lCr) >= math.Abs(d) {
					lCrc += (lCr - t) + d
				} else {
					lCrc += (d - t) + lCr
				}
				lCr = t
			}
		}
		if x < thresh {
			continue
		}
		fk := float64(k)
		c := fk * (fk - 1) * p.i2s2
		// Error of the recurrence value: table and compensated-sum errors
		// of log C (2k u log n) plus a few ulps of each term.
		d := errfloat.Unit * (4*(math.Abs(x-nl1q)+fk*(absQ+absL)+c+p.lemLow) + 3*math.Abs(nl1q) +
			3*fk*(absQ+absL) + 6*c + 3*p.lemLow + 2*math.Abs(x) + 2*fk*ln + 8)
		if d*scale > 1e-13 {
			// Recompute the kept term by Loader's saddle-point form of the
			// binomial pmf: its absolute error is a few ulps of the (small)
			// log pmf, not of the large cancelling terms log C,
			// n log(1-q), k log q.
			x, d = p.xkAccurate(n, k, c)
		}
		S += math.Exp(x - M)
		m++
		if d > dmax {
			dmax = d
		}
	}
	lm1 = M + math.Log(S)
	errAbs = dmax + float64(m+4)*errfloat.Unit + errfloat.Unit*math.Abs(M) + 4.3e-18
	return lm1, errAbs
}

// stirlerr returns log(n!) - log(sqrt(2 pi n) (n/e)^n) for integer n >= 1
// (Loader 2000), with absolute error below 1e-14.
func stirlerr(n float64) float64 {
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - errfloat.LnSqrt2Pi
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x log(x/M) + M - x >= 0 (Loader 2000) for x >= 1 and
// M = mh + ml > 0 (a double-double: the exact product n q), in
// double-double, and a bound on its absolute error. Away from x = M the
// parts x log(x/M) and M - x are each as large as x and M and cancel to
// far less (bd0(1300, 1000) = 111 from 341 and -300): they are formed in
// double-double, so that only the final rounding is left (a float64
// Loader form lost 4u (x + M + |x log(x/M)|) there, 1.6e-12 relative in
// SGM at n = 10,000, sigma = 1000).
func bd0(x, mh, ml float64) (vh, vl, err float64) {
	dh, dl := errfloat.TwoSum(x, -mh)
	dl -= ml // x - M, exact to ~u^2 M
	d := dh + dl
	// M's own error: none where n q is exact in double-double; where it is
	// subnormal, half a step of 2^-1074 moves bd0 by |1 - x/M| of it.
	var eM float64
	if mh < 0x1p-969 {
		eM = math.Abs(d) / mh * 0x1p-1075
	}
	if math.Abs(d) < 0.1*(x+mh) {
		w := d / (x + mh)
		s := d * w
		ej := 2 * x * w
		w2 := w * w
		for j := 1; j < 1000; j++ {
			ej *= w2
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				break
			}
			s = s1
		}
		return s, 0, 8*errfloat.Unit*s + 4*errfloat.Unit*math.Abs(d)*math.Abs(w) + eM + 1e-300
	}
	lxh, lxl := errfloat.LogDD(x)
	lmh, lml := errfloat.LogDD(mh)
	lml += ml / mh // log(mh + ml) to (ml/mh)^2/2 < u^2/2
	rh, rl := errfloat.DDAdd(lxh, lxl, -lmh, -lml)
	ph, pl := errfloat.DDMul(x, 0, rh, rl)
	vh, vl = errfloat.DDAdd(ph, pl, -dh, -dl)
	// errfloat.LogDD within ~1e-31 relative, three double-double operations
	return vh, vl, 1e-29*(math.Abs(ph)+x+mh) + eM + 1e-300
}

// binomMeans returns n q and n (1-q) as exact double-doubles (the exact
// products, 1-q being exact for q >= 1/2), the centres of bd0.
func (p *params) binomMeans(fn float64) (m1h, m1l, m2h, m2l float64) {
	if p.q > 0.5 {
		m2h, m2l = errfloat.TwoProd(fn, p.omq)
		h, l := errfloat.TwoSum(fn, -m2h)
		m1h, m1l = errfloat.FastTwoSum(h, l-m2l)
		return
	}
	m1h, m1l = errfloat.TwoProd(fn, p.q)
	h, l := errfloat.TwoSum(fn, -m1h)
	m2h, m2l = errfloat.FastTwoSum(h, l-m1l)
	return
}

// logBinomPMF returns log(C(n,k) q^k (1-q)^(n-k)) for 2 <= k <= n and an
// absolute error bound, by Loader's form
// stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, nq) - bd0(n-k, n(1-q)) + log(n/(2 pi k (n-k)))/2,
// summed in double-double: the bd0 are as large as n times a KL
// divergence where the pmf is small, the result is what is left.
func (p *params) logBinomPMF(n, k int) (v, err float64) {
	fn, fk := float64(n), float64(k)
	if k == n {
		v = fn * p.lq
		return v, 2 * errfloat.Unit * math.Abs(v)
	}
	m1h, m1l, m2h, m2l := p.binomMeans(fn)
	b1h, b1l, e1 := bd0(fk, m1h, m1l)
	b2h, b2l, e2 := bd0(fn-fk, m2h, m2l)
	st := stirlerr(fn) - stirlerr(fk) - stirlerr(fn-fk)
	lg := 0.5 * math.Log(fn/(2*math.Pi*fk*(fn-fk)))
	h, l := errfloat.DDAdd(b1h, b1l, b2h, b2l)
	h, l = errfloat.DDAdd(st, 0, -h, -l)
	h, l = errfloat.DDAdd(h, l, lg, 0)
	v = h + l
	// stirlerr within 1e-14 each; lg within 3 roundings of its argument and
	// the log; st's two subtractions; the final rounding.
	err = e1 + e2 + 3e-14 + 3*errfloat.Unit*math.Abs(lg) + 2*errfloat.Unit*math.Abs(st) + errfloat.Unit*math.Abs(v)
	return v, err
}

// xkAccurate returns x_k = log(C(n,k) q^k (1-q)^(n-k) expm1(c)) and an
// absolute error bound, by Loader's form of the binomial pmf; when its
// bd0(k, nq) is large (tiny q) and c > 40, the two large cancelling parts
// k log q and c = k(k-1)/(2 s^2) are added in double-double.
func (p *params) xkAccurate(n, k int, c float64) (x, d float64) {
	fn, fk := float64(n), float64(k)
	m1h, m1l, m2h, m2l := p.binomMeans(fn)
	if c <= 40 || (k != n && math.Abs(fk-m1h) < 0.1*(fk+m1h)) {
		lp, lpErr := p.logBinomPMF(n, k)
		le := lem(c)
		x = lp + le
		return x, lpErr + errfloat.Unit*(4*c+3*math.Abs(le)+2*math.Abs(x)+4)
	}
	lqh, lql := errfloat.LogDD(p.q)
	ah, al := errfloat.DDMul(fk, 0, lqh, lql)
	s2h, s2l := errfloat.TwoProd(p.s, p.s)
	ch, cl := errfloat.DDDiv(fk*(fk-1), 0, 2*s2h, 2*s2l)
	bh, bl := errfloat.DDAdd(ah, al, ch, cl)
	if k == n {
		// q^n expm1(c), c > 40: x = n log q + c
		x = bh + bl
		return x, 4*errfloat.Unit*math.Abs(x) + 1e-28*(c+fk*math.Abs(p.lq))
	}
	b2h, b2l, e2 := bd0(fn-fk, m2h, m2l)
	st := stirlerr(fn) - stirlerr(fk) - stirlerr(fn-fk)
	lg := 0.5 * math.Log(fn/(2*math.Pi*fk*(fn-fk)))
	// -bd0(k, M1) = -k log(k/n) - M1 + k + k log q, the last in bh
	knh, knl := errfloat.LogDD(fk / fn) // fk/fn rounded: k u more below
	klh, kll := errfloat.DDMul(fk, 0, knh, knl)
	h, l := errfloat.DDAdd(st+lg, 0, -b2h, -b2l)
	h, l = errfloat.DDAdd(h, l, -klh, -kll)
	h, l = errfloat.DDAdd(h, l, fk, -m1h)
	h, l = errfloat.DDAdd(h, l, -m1l, 0)
	x, _ = errfloat.DDAdd(h, l, bh, bl)
	d = e2 + 3e-14 + 3*errfloat.Unit*math.Abs(lg) + 2*errfloat.Unit*math.Abs(st) + errfloat.Unit*math.Abs(st+lg) + fk*errfloat.Unit +
		errfloat.Unit*math.Abs(x) + 1e-28*(c+fk*math.Abs(p.lq)+math.Abs(klh)+fk+m1h)
	return x, d
}

const binomTabN = 64

// binomTab holds C(n, k) for k <= n <= binomTabN, row n from n(n+1)/2,
// each rounded once from its exact uint64 value (relative error <= u).
var binomTab = func() *[(binomTabN + 1) * (binomTabN + 2) / 2]float64 {
	var t [(binomTabN + 1) * (binomTabN + 2) / 2]float64
	var row [binomTabN + 1]uint64
	row[0] = 1
	for n := 0; n <= binomTabN; n++ {
		if n > 0 {
			for k := n; k >= 1; k-- {
				row[k] += row[k-1] // C(64, 32) < 2^61: no overflow
			}
		}
		for k := 0; k <= n; k++ {
			t[n*(n+1)/2+k] = float64(row[k])
		}
	}
	return &t
}()

// gPow is G_k = m 2^e with dg a bound on its relative error; exmax is the
// largest e of G_2..G_k.
type gPow struct {
	m, dg     float64
	ex, exmax int
	G         float64 // m 2^ex itself where |ex| <= gFloatEx, else 0
}

// gFloatEx: G_k = m_k 2^ex_k is kept as a float where |ex_k| <= gFloatEx,
// far inside the normal range with room for C(n,k) (< 2^64), the sum and
// the error weights dg (> 2^-60).
const gFloatEx = 900

// ln2Hi has 21 trailing zero bits: k*ln2Hi is exact for |k| < 2^21.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2E = 1.44269504088896338700e+00
)

// gPowAt returns G_k; ok is false when |g_k| is too large for the
// reduction (then the order is summed in log space).
func (io *intOrders) gPowAt(k int) (gp gPow, ok bool) {
	p := io.p
	gv := io.gAt(k)
	if !(math.Abs(gv) < 1e6) {
		return gp, false
	}
	fk := float64(k)
	c := fk * (fk - 1) * p.i2s2
	// Error of g_k = k (log q - log(1-q)) + log expm1(c_k): the logs are
	// within an ulp (2u relative), k D within 4u k (|log q|+|log(1-q)|),
	// c_k within 4u c_k, log expm1(c) within 4u(c+1) + 2u + 2u|lem| (or
	// 4u c + 4.3e-18 above 40), |lem| <= c + lemLow, and the final sum u|g|.
	dg := errfloat.Unit*(4*fk*(math.Abs(p.lq)+math.Abs(p.l1q))+6*c+2*p.lemLow+6+math.Abs(gv)) + 4.3e-18
	// e^g = e^r 2^K, r = g - K log 2 with Cody-Waite's split of log 2:
	// r is within 2u|r| + 1e-25|K| (|r| <= 0.7), e^r within an ulp (2u).
	K := math.Floor(gv * log2E)
	r := (gv - K*ln2Hi) - K*ln2Lo
	gp.m = math.Exp(r)
	gp.ex = int(K)
	gp.dg = dg + 4*errfloat.Unit
	if -gFloatEx <= gp.ex && gp.ex <= gFloatEx {
		gp.G = math.Ldexp(gp.m, gp.ex) // exact
	}
	return gp, true
}

// intSumLin is intSum for n <= binomTabN in linear space; gp[k] (k <= n)
// must hold gPowAt(k). log(I-1) = M + log S, 1 <= S < 2.
func (p *params) intSumLin(n int, gp []gPow) (M, S, errAbs float64) {
	gp = gp[:n+1]
	exmax := gp[n].exmax
	row := binomTab[n*(n+1)/2 : n*(n+1)/2+n+1]
	var Sd float64
	fe := float64(exmax)
	if -gFloatEx+135 <= exmax && exmax <= gFloatEx {
		// The same sum scaled by 2^exmax: every kept term has
		// |ex_k| <= gFloatEx, so every product and partial sum is the
		// one below times 2^exmax exactly (no subnormal, no overflow),
		// one multiplication fewer per term.
		for k := 2; k <= n; k++ {
			if gp[k].ex-exmax < -135 {
				continue // dropped, as below
			}
			t := row[k] * gp[k].G
			S += t
			Sd += t * gp[k].dg
		}
		fe = 0
	} else {
		for k := 2; k <= n; k++ {
			d := gp[k].ex - exmax
			if d < -135 {
				// C(n,k) m_k 2^d < 2^64 * 2.01 * 2^-136 < 2^-70, while the
				// term with d = 0 is >= 0.99: the dropped terms are below
				// 64 * 2^-70 / 0.99 < 5.5e-20 of the sum.
				continue
			}
			t := row[k] * gp[k].m * math.Float64frombits(uint64(1023+d)<<52) // 2^d
			S += t
			Sd += t * gp[k].dg
		}
	}
	fn := float64(n)
	dterm := Sd / S
	m, e := math.Frexp(S)
	S = 2 * m
	fe += float64(e - 1)
	M = fn*p.l1q + fe*errfloat.Ln2
	// Terms: their G_k error (weighted by the terms), C(n,k) (u) and two
	// products (2u); the sum of n-1 positive terms, (n-1)u; the dropped
	// terms; n log(1-q) (3u|n log(1-q)|), e log 2 (2u|e log 2|) and their
	// sum (u|M|); a margin of u|M| for the use of M + log S.
	errAbs = dterm*(1+1e-9) + float64(n+3)*errfloat.Unit + 3*errfloat.Unit*math.Abs(fn*p.l1q) +
		2*errfloat.Unit*math.Abs(fe*errfloat.Ln2) + 2*errfloat.Unit*math.Abs(M) + 5.5e-20
	return M, S, errAbs
}

// intCache memoises intValue for the small integer orders of one curve
// (logI NaN: unset), with the G_k of the linear-space sums (intSumLin).
type intCache struct {
	v   [128]intVal
	gp  [binomTabN + 1]gPow
	gpN int  // gp[k] valid for k < gpN
	lin bool // false once some G_k could not be reduced
}

func (c *intCache) reset() {
	for i := range c.v {
		c.v[i].logI = math.NaN()
	}
	c.gpN = 2
	c.lin = true
}

// value is intValue memoised in the cache; orders up to
// binomTabN are summed in linear space.
func (io *intOrders) value(n int) intVal {
	p, cache := io.p, &io.cache
	if n >= len(cache.v) {
		return io.intValue(n)
	}
	if c := &cache.v[n]; !math.IsNaN(c.logI) {
		return *c
	}
	if n <= binomTabN && cache.lin {
		for ; cache.gpN <= n && cache.lin; cache.gpN++ {
			k := cache.gpN
			cache.gp[k], cache.lin = io.gPowAt(k)
			cache.gp[k].exmax = cache.gp[k].ex
			if k > 2 {
				cache.gp[k].exmax = max(cache.gp[k].ex, cache.gp[k-1].exmax)
			}
		}
	}
	var v intVal
	if n <= binomTabN && cache.lin {
		v = p.intValueFrom(p.intSumLin(n, cache.gp[:]))
		// The linear sum has no recomputation of the large terms whose
		// parts cancel (tiny q, q near 1): when its bound is loose, sum
		// in log space, which recomputes them (xkAccurate).
		if !(v.errAbs*v.sig <= 1e-13*v.logI) {
			v = io.intValue(n)
		}
	} else {
		v = io.intValue(n)
	}
	cache.v[n] = v
	return v
}

// rdp is log I(n)/(alpha-1), rounded up by its error bound: an absolute
// error d of log(I-1) = x moves log I = log1p(e^x) by at most
// d e^x/(1+e^x), a relative d e^x/((1+e^x) log1p(e^x)) <= d.
func (io *intOrders) rdp(n int, alpha float64) float64 {
	v := io.value(n)
	logI, sig, errAbs := v.logI, v.sig, v.errAbs
	if logI <= 0 {
		// I-1 = e^x underflowed (x < -745.13, within errAbs < 1e-13):
		// log I < 2^-1075 (1+1e-13).
		return errfloat.RoundUpTiny(0x1p-1075/(alpha-1), 1e-13)
	}
	return errfloat.RoundUpTiny(logI/(alpha-1), errAbs*sig/logI*(1+1e-3)+4*errfloat.Unit)
}

// intOrders evaluates the integer orders of one (q, sigma) (Method 2-6):
// the memo of g_k, the scratch of the terms x_k and the values of the
// small orders, reset for each (q, sigma).
type intOrders struct {
	p     *params
	g     []float64 // g_k for k < len(g), NaN until computed (gAt)
	buf   []float64 // x_k of the order being summed
	cache intCache
}

// gMemo is the number of g_k memoised (gAt).
const gMemo = 128

// reset prepares io for the parameters p.
func (io *intOrders) reset(p *params) {
	io.p = p
	if cap(io.g) < gMemo {
		io.g = make([]float64, gMemo)
	}
	io.g = io.g[:gMemo]
	for k := range io.g {
		io.g[k] = math.NaN()
	}
	if len(io.buf) < lfTabN+2 {
		io.buf = make([]float64, 4200)
	}
	io.cache.reset()
}
