package fast

import "math"

// Pruned search of the binomial terms of an integer order (see "Integer
// orders" in the Method comment of sgm.go).

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
			lh[m], ll[m] = logDD(float64(m))
		} else {
			f := int(spf[m])
			lh[m], ll[m] = ddAdd(lh[f], ll[f], lh[m/f], ll[m/f])
		}
		hi[m], lo[m] = ddAdd(hi[m-1], lo[m-1], lh[m], ll[m])
	}
	return &hi, &lo
}

// lgC returns log C(n, k) for 0 <= k <= n <= lfTabN, with absolute error
// below u |log C| + 1e-20 (Method).
func lgC(n, k int) float64 {
	s1, e1 := twoSum(lfHi[n], -lfHi[k])
	s2, e2 := twoSum(s1, -lfHi[n-k])
	return s2 + ((e1 + e2) + ((lfLo[n] - lfLo[k]) - lfLo[n-k]))
}

// gAt returns p.gk(k), memoised in g[k] when k < len(g) (NaN: not yet
// computed).
func (p *params) gAt(g []float64, k int) float64 {
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
	return ub + 0.5 + 8*unit*(math.Abs(B)+kmax*absD+math.Abs(nl1q)+2*math.Abs(lemB)+cb+math.Abs(ub))
}

// intSum returns log(I-1) = M + log S for the integer order n >= 2
// (1 <= S <= n) and a bound on the absolute error of log(I-1).
func (p *params) intSum(n int, g, buf []float64) (M, S, errAbs float64) {
	if n > lfTabN || n >= len(buf) {
		lm1, errAbs := p.intLogIm1Scan(n, g, buf)
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
			x := (lgC(n, lo) + nl1q) + p.gAt(g, lo)
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
				gv = p.gAt(g, k)
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
			lm1, errAbs := p.intLogIm1Scan(n, g, buf)
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
	dAgg := unit * (4*max(math.Abs(M-nl1q), math.Abs(thresh-nl1q)) + 7*fkm*(absQ+absL) +
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
				d := unit * (4*(math.Abs(x-nl1q)+fk*(absQ+absL)+c+p.lemLow) + 3*math.Abs(nl1q) +
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
	errAbs = dmax + float64(m+4)*unit + unit*math.Abs(M) + 4.3e-18
	return M, S, errAbs
}

// intVal is log I(n) with what intRDP needs to round it up: sig =
// (I-1)/I (or an upper bound on it), the relative weight of an absolute
// error of log(I-1) in log I (see intRDP), and that error bound.
type intVal struct{ logI, sig, errAbs float64 }

// intValue evaluates log I(n).
func (p *params) intValue(n int, g, buf []float64) intVal {
	return p.intValueFrom(p.intSum(n, g, buf))
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
	return intVal{math.Log1p(e), e / (1 + e), errAbs + 2*unit}
}

// Small integer orders of a curve, in linear space (Method): for n <=
// binomTabN, I(n)-1 = (1-q)^n sum_{k=2..n} C(n,k) G_k with
// G_k = e^(g_k) = (q/(1-q))^k expm1(c_k) held as m_k 2^(e_k), so that a
// term costs two products and no exp or log.

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

// gPow is G_k = m 2^e with dg a bound on its relative error; emax is the
// largest e of G_2..G_k.
type gPow struct {
	m, dg   float64
	e, emax int
}

// ln2Hi has 21 trailing zero bits: k*ln2Hi is exact for |k| < 2^21.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2E = 1.44269504088896338700e+00
)

// gPowAt returns G_k; ok is false when |g_k| is too large for the
// reduction (then the order is summed in log space).
func (p *params) gPowAt(g []float64, k int) (gp gPow, ok bool) {
	gv := p.gAt(g, k)
	if !(math.Abs(gv) < 1e6) {
		return gp, false
	}
	fk := float64(k)
	c := fk * (fk - 1) * p.i2s2
	// Error of g_k = k (log q - log(1-q)) + log expm1(c_k): the logs are
	// within an ulp (2u relative), k D within 4u k (|log q|+|log(1-q)|),
	// c_k within 4u c_k, log expm1(c) within 4u(c+1) + 2u + 2u|lem| (or
	// 4u c + 4.3e-18 above 40), |lem| <= c + lemLow, and the final sum u|g|.
	dg := unit*(4*fk*(math.Abs(p.lq)+math.Abs(p.l1q))+6*c+2*p.lemLow+6+math.Abs(gv)) + 4.3e-18
	// e^g = e^r 2^K, r = g - K log 2 with Cody-Waite's split of log 2:
	// r is within 2u|r| + 1e-25|K| (|r| <= 0.7), e^r within an ulp (2u).
	K := math.Floor(gv * log2E)
	r := (gv - K*ln2Hi) - K*ln2Lo
	gp.m = math.Exp(r)
	gp.e = int(K)
	gp.dg = dg + 4*unit
	return gp, true
}

// intSumLin is intSum for n <= binomTabN in linear space; gp[k] (k <= n)
// must hold gPowAt(k). log(I-1) = M + log S, 1 <= S < 2.
func (p *params) intSumLin(n int, gp []gPow) (M, S, errAbs float64) {
	gp = gp[:n+1]
	emax := gp[n].emax
	row := binomTab[n*(n+1)/2 : n*(n+1)/2+n+1]
	var Sd float64
	for k := 2; k <= n; k++ {
		d := gp[k].e - emax
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
	fn := float64(n)
	fe := float64(emax)
	dterm := Sd / S
	m, e := math.Frexp(S)
	S = 2 * m
	fe += float64(e - 1)
	M = fn*p.l1q + fe*ln2
	// Terms: their G_k error (weighted by the terms), C(n,k) (u) and two
	// products (2u); the sum of n-1 positive terms, (n-1)u; the dropped
	// terms; n log(1-q) (3u|n log(1-q)|), e log 2 (2u|e log 2|) and their
	// sum (u|M|); a margin of u|M| for the use of M + log S.
	errAbs = dterm*(1+1e-9) + float64(n+3)*unit + 3*unit*math.Abs(fn*p.l1q) +
		2*unit*math.Abs(fe*ln2) + 2*unit*math.Abs(M) + 5.5e-20
	return M, S, errAbs
}
