package oracles

// Elementary functions on *big.Float used by the quadrature integrands.
//
// They are written here (rather than taken from github.com/ALTree/bigfloat)
// for speed: the integrands call exp/log a few thousand times per integral,
// and bigfloat.Exp runs Newton on an AGM logarithm. Keeping two independent
// implementations also lets the tests check one against the other; the
// closed forms (closed.go) use bigfloat, the quadratures use these.
//
// Conventions: every function returns a fresh *big.Float of precision prec,
// accurate to a few units in the last place (relative), including expm1 and
// log1p near 0.

import (
	"math"
	"math/big"
	"sync"
)

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

func fl(v float64, prec uint) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }

func fint(v int64, prec uint) *big.Float { return new(big.Float).SetPrec(prec).SetInt64(v) }

// ---- constants -------------------------------------------------------------

var constCache struct {
	sync.Mutex
	ln2, pi   *big.Float
	ln2p, pip uint
}

// roundUpPrec rounds the cache precision up so that nearby requests share it.
func roundUpPrec(p uint) uint { return (p + 255) &^ 255 }

// ln2 returns log 2, from 2*atanh(1/3) = sum 2/((2k+1) 3^(2k+1)).
func ln2(prec uint) *big.Float {
	constCache.Lock()
	defer constCache.Unlock()
	if constCache.ln2p < prec {
		p := roundUpPrec(prec + 64)
		constCache.ln2 = atanhInv(3, p)
		constCache.ln2.Mul(constCache.ln2, fint(2, p))
		constCache.ln2p = p
	}
	return newF(prec).Set(constCache.ln2)
}

// pi returns pi by Machin's formula 16 atan(1/5) - 4 atan(1/239).
func pi(prec uint) *big.Float {
	constCache.Lock()
	defer constCache.Unlock()
	if constCache.pip < prec {
		p := roundUpPrec(prec + 64)
		a := atanInv(5, p)
		a.Mul(a, fint(16, p))
		b := atanInv(239, p)
		b.Mul(b, fint(4, p))
		constCache.pi = a.Sub(a, b)
		constCache.pip = p
	}
	return newF(prec).Set(constCache.pi)
}

// atanhInv returns atanh(1/n) = sum 1/((2k+1) n^(2k+1)), n >= 2.
func atanhInv(n int64, prec uint) *big.Float {
	return arctanSeries(n, prec, false)
}

// atanInv returns atan(1/n) = sum (-1)^k/((2k+1) n^(2k+1)), n >= 2.
func atanInv(n int64, prec uint) *big.Float {
	return arctanSeries(n, prec, true)
}

func arctanSeries(n int64, prec uint, alternate bool) *big.Float {
	p := prec + 32
	pow := newF(p).Quo(fint(1, p), fint(n, p)) // 1/n^(2k+1)
	n2 := fint(n*n, p)
	sum := newF(p).Set(pow)
	t := newF(p)
	eps := newF(p).SetMantExp(fint(1, p), -int(p))
	for k := int64(1); ; k++ {
		pow.Quo(pow, n2)
		t.Quo(pow, fint(2*k+1, p))
		if alternate && k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Cmp(eps) < 0 {
			break
		}
	}
	return sum.SetPrec(prec)
}

// ---- exp / expm1 -----------------------------------------------------------

// maxExpArg bounds |x| in exp(x): big.Float exponents are int32, so exp(x)
// overflows near x = 2^31 ln 2 ~ 1.488e9. We stop a little earlier.
const maxExpArg = 1.45e9

// taylorCoef caches the integers N!/n! (n = 0..N) as big.Float so that the
// Taylor sum of expm1 is a Horner loop of multiplications and additions,
// with a single division by N! at the end.
var taylorCoef sync.Map // key N -> []*big.Float (exact, 0..N)

func taylorCoefs(N int) []*big.Float {
	if v, ok := taylorCoef.Load(N); ok {
		return v.([]*big.Float)
	}
	c := make([]*big.Float, N+1)
	acc := big.NewInt(1)
	for n := N; n >= 0; n-- {
		// c[n] = N!/n! = prod_{j=n+1..N} j
		c[n] = new(big.Float).SetInt(acc) // exact: SetInt picks enough precision
		acc = new(big.Int).Mul(acc, big.NewInt(int64(n)))
		if n == 0 {
			break
		}
	}
	taylorCoef.Store(N, c)
	return c
}

// expm1Reduced returns expm1(r) for |r| <= ~0.36 to relative precision
// prec. For |r| < 2^-9 it sums the Taylor series (sumExpm1Series); else
// with k = round(256 r) and r' = r - k/256 (exact, |r'| <= 2^-9),
//
//	expm1(r) = expm1(k/256) + exp(k/256) expm1(r'),
//
// the two constants from a cached table; the terms cannot cancel by more
// than one bit since |expm1(k/256)| >= 2|expm1(r')|.
func expm1Reduced(r *big.Float, prec uint) *big.Float {
	if r.Sign() == 0 {
		return newF(prec)
	}
	p := prec + 8
	rf, _ := r.Float64()
	k := int(math.Round(rf * 256))
	rr := r
	if k != 0 {
		rr = newF(p).Sub(r, fint(int64(k), 64).SetMantExp(fint(int64(k), 64), -8))
	}
	b := -rr.MantExp(nil) // |rr| < 2^-b
	if b < 1 {
		b = 1
	}
	// The relative truncation error after N terms is below rr^N/(N+1)!,
	// so take the smallest N with N*b + log2((N+1)!) >= p.
	N := 1
	for lg := 1.0; float64(N*b)+lg < float64(p); N++ {
		lg += math.Log2(float64(N + 2))
	}
	em := sumExpm1Series(rr, N, p)
	if k != 0 {
		et := getExpTab(p)
		em1k, ek := et.entry(k)
		em.Mul(em, ek)
		em.Add(em, em1k)
	}
	return em.SetPrec(prec)
}

type expTab struct {
	mu   sync.Mutex
	prec uint
	em1  map[int]*big.Float // expm1(k/256)
	e    map[int]*big.Float // exp(k/256)
}

var expTabs sync.Map // bucket precision -> *expTab

func getExpTab(prec uint) *expTab {
	b := roundUpPrec(prec + 32)
	if v, ok := expTabs.Load(b); ok {
		return v.(*expTab)
	}
	v, _ := expTabs.LoadOrStore(b, &expTab{prec: b, em1: map[int]*big.Float{}, e: map[int]*big.Float{}})
	return v.(*expTab)
}

func (et *expTab) entry(k int) (em1, e *big.Float) {
	et.mu.Lock()
	defer et.mu.Unlock()
	if v, ok := et.em1[k]; ok {
		return v, et.e[k]
	}
	x := fint(int64(k), 64)
	x.SetMantExp(x, -8)
	em1 = expm1Doubling(x, et.prec)
	e = newF(et.prec).Add(em1, fint(1, 64))
	et.em1[k], et.e[k] = em1, e
	return em1, e
}

// expm1Doubling returns expm1(r) for |r| <= ~0.36 to relative precision prec.
//
// Method: r' = r/2^s (s small), Taylor series of expm1(r') summed by
// rectangular splitting (Paterson-Stockmeyer: about 2 sqrt(N) full
// multiplications for N terms, the rest are multiplications and divisions
// by one-word integers), then s doublings expm1(2a) = expm1(a)(expm1(a)+2),
// which keep the relative accuracy (no cancellation), so the result is
// relatively accurate even for tiny r. It fills the table of expm1Reduced.
func expm1Doubling(r *big.Float, prec uint) *big.Float {
	if r.Sign() == 0 {
		return newF(prec)
	}
	s := 3
	re := r.MantExp(nil) // |r| < 2^re
	if re < -s {
		s = 0 // already small enough
	} else {
		s += re
		if s < 0 {
			s = 0
		}
	}
	p := prec + uint(s) + 12
	rr := newF(p).SetMantExp(r, -s)
	b := -rr.MantExp(nil) // |rr| < 2^-b
	if b < 1 {
		b = 1
	}
	// Number of terms: the relative truncation error after N terms is
	// below rr^N/(N+1)!, so take the smallest N with N*b + log2((N+1)!) >= p.
	N := 1
	for lg := 1.0; float64(N*b)+lg < float64(p); N++ {
		lg += math.Log2(float64(N + 2))
	}
	acc := sumExpm1Series(rr, N, p)
	two := fint(2, p)
	t := newF(p)
	for i := 0; i < s; i++ {
		t.Add(acc, two)
		acc.Mul(acc, t)
	}
	return acc.SetPrec(prec)
}

// sumExpm1Series returns sum_{n=1..N} x^n/n! at precision p by rectangular
// splitting in blocks of m = ceil(sqrt(N)) terms. With
// D(n, top) = top!/n! (a product of fewer than 2m small integers, < 2^64
// for N <= 400), block i (n = mi..mi+m-1, top = mi+m-1) is
// x^(mi) (1/top!) sum_j x^j D(mi+j, top), and Horner over the blocks
// divides by the one-word integer (top+m)!/top! when stepping down
// (m is lowered so that these products fit in 64 bits).
func sumExpm1Series(x *big.Float, N int, p uint) *big.Float {
	m := int(math.Ceil(math.Sqrt(float64(N))))
	// The one-word integer products need (2m) log2(N+2m) < 64.
	for m > 2 && float64(m)*math.Log2(float64(N+2*m)) >= 63 {
		m--
	}
	if m < 2 {
		m = 2
	}
	pw := make([]*big.Float, m+1) // x^0 .. x^m
	pw[0] = fint(1, p)
	pw[1] = newF(p).Set(x)
	for j := 2; j <= m; j++ {
		pw[j] = newF(p).Mul(pw[j-1], x)
	}
	nb := N/m + 1 // blocks 0..nb-1 cover n = 0..nb*m-1 >= N
	// Two buffers each, swapped, so that no big.Float operation aliases
	// its result with an operand (math/big then allocates).
	acc, acc2 := newF(p), newF(p)
	inner, inner2 := newF(p), newF(p)
	t := newF(p)
	ci := new(big.Float).SetPrec(64)
	for i := nb - 1; i >= 0; i-- {
		top := m*i + m - 1
		// inner = sum_j x^j D(mi+j, top), skipping n = 0 and n > N.
		inner.SetInt64(0)
		var d uint64 = 1 // D(n, top) for n = top, top-1, ...
		for j := m - 1; j >= 0; j-- {
			n := m*i + j
			if n >= 1 && n <= N {
				ci.SetUint64(d)
				t.Mul(pw[j], ci)
				inner2.Add(inner, t)
				inner, inner2 = inner2, inner
			}
			d *= uint64(n) // D(n-1, top) = D(n, top) * n
		}
		if i == nb-1 {
			acc.Set(inner)
			continue
		}
		// acc_i = inner_i + x^m acc_{i+1} / prod_{k=top+1}^{top+m} k
		var q uint64 = 1
		for k := top + 1; k <= top+m; k++ {
			q *= uint64(k)
		}
		acc2.Mul(acc, pw[m])
		ci.SetUint64(q)
		acc.Quo(acc2, ci)
		acc2.Add(acc, inner)
		acc, acc2 = acc2, acc
	}
	// divide by (m-1)! (top of block 0)
	var f uint64 = 1
	for k := 2; k <= m-1; k++ {
		f *= uint64(k)
	}
	ci.SetUint64(f)
	return acc.Quo(acc, ci)
}

// expBig returns exp(x) at precision prec. Overflow gives +Inf, underflow 0.
func expBig(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return fint(1, prec)
	}
	if x.IsInf() {
		if x.Sign() > 0 {
			return newF(prec).SetInf(false)
		}
		return newF(prec)
	}
	xf, _ := x.Float64()
	if xf > maxExpArg {
		return newF(prec).SetInf(false)
	}
	if xf < -maxExpArg {
		return newF(prec)
	}
	k := math.Round(xf / math.Ln2)
	p := prec + 16
	r := x
	if k != 0 {
		// r = x - k ln2 needs ln2 to (bits of k) extra bits.
		kb := uint(math.Log2(math.Abs(k))) + 2
		l := ln2(p + kb)
		l.Mul(l, fl(k, p+kb))
		r = newF(p).Sub(x, l)
	}
	e := expm1Reduced(r, p)
	e.Add(e, fint(1, p))
	e.SetMantExp(e, int(k))
	return e.SetPrec(prec)
}

// expm1Big returns exp(x)-1 at relative precision prec.
func expm1Big(x *big.Float, prec uint) *big.Float {
	xf, _ := x.Float64()
	if math.Abs(xf) < 0.35 {
		return expm1Reduced(x, prec)
	}
	e := expBig(x, prec+8)
	if e.IsInf() {
		return e.SetPrec(prec)
	}
	subTo(e, e, fint(1, prec+8))
	return e.SetPrec(prec)
}

// ---- log / log1p -----------------------------------------------------------

// log1pHalley returns log(1+t) for |t| <= 0.42 to relative precision prec,
// by Halley's iteration y <- y + 2 (t - expm1(y)) / (2 + t + expm1(y)),
// cubically convergent, started from math.Log1p. Using expm1 and t itself
// (not 1+t) keeps relative accuracy for tiny t. It is slow (two or three
// expm1) and only fills the table of logBig.
func log1pHalley(t *big.Float, prec uint) *big.Float {
	if t.Sign() == 0 {
		return newF(prec)
	}
	p := prec + 16
	tf, _ := t.Float64()
	y := fl(math.Log1p(tf), p)
	acc := 50
	two := fint(2, p)
	for acc < int(p) {
		acc = 3*acc - 6
		wp := uint(acc + 16)
		if wp > p {
			wp = p
		}
		E := expm1Reduced(y, wp)
		num := newF(wp).Sub(t, E)
		den := newF(wp).Add(two, t)
		den.Add(den, E)
		num.Quo(num, den)
		num.Mul(num, two)
		y.Add(y, num)
	}
	return y.SetPrec(prec)
}

// Table for logBig: log(n/logTabN) for n near logTabN, and the
// coefficients 1/(2k+1) of the atanh series, per precision bucket.
const logTabN = 4096

type logTab struct {
	mu    sync.Mutex
	prec  uint
	vals  map[int]*big.Float
	coefs []*big.Float // 1/(2k+1), k = 0, 1, ...
}

var logTabs sync.Map // bucket precision -> *logTab

func getLogTab(prec uint) *logTab {
	b := roundUpPrec(prec + 32)
	if v, ok := logTabs.Load(b); ok {
		return v.(*logTab)
	}
	v, _ := logTabs.LoadOrStore(b, &logTab{prec: b, vals: map[int]*big.Float{}})
	return v.(*logTab)
}

// entry returns log(n/logTabN) at the table's precision.
func (lt *logTab) entry(n int) *big.Float {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if v, ok := lt.vals[n]; ok {
		return v
	}
	t := fint(int64(n-logTabN), lt.prec+16)
	t.Quo(t, fint(logTabN, lt.prec+16))
	v := log1pHalley(t, lt.prec)
	lt.vals[n] = v
	return v
}

func (lt *logTab) coef(k int) *big.Float {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for len(lt.coefs) <= k {
		j := len(lt.coefs)
		lt.coefs = append(lt.coefs, newF(lt.prec).Quo(fint(1, lt.prec), fint(int64(2*j+1), lt.prec)))
	}
	return lt.coefs[k]
}

// log1pSeries returns log(1+t) for |t| <= 2^-12 by
// log1p(t) = 2 atanh(s) = 2 sum s^(2k+1)/(2k+1), s = t/(2+t): with
// s^2 <= 2^-26 about prec/26 terms, relatively accurate for any tiny t.
func log1pSeries(t *big.Float, prec uint) *big.Float {
	if t.Sign() == 0 {
		return newF(prec)
	}
	p := prec + 8
	lt := getLogTab(p)
	s := addTo(newF(p), t, fint(2, p))
	s.Quo(t, s)
	s2 := newF(p).Mul(s, s)
	b := -s2.MantExp(nil) // s2 < 2^-b
	if s2.Sign() == 0 || b >= int(p) {
		// s^2 negligible (or underflowed): log1p(t) = 2s to p bits.
		return s.SetMantExp(s, 1).SetPrec(prec)
	}
	N := int(p)/b + 1
	acc := newF(p).Set(lt.coef(N))
	for k := N - 1; k >= 0; k-- {
		acc.Mul(acc, s2)
		acc.Add(acc, lt.coef(k))
	}
	acc.Mul(acc, s)
	return acc.SetMantExp(acc, 1).SetPrec(prec)
}

// logBig returns log(x), x > 0 (x = 0 gives -Inf).
//
// Method: x = m 2^e with m in [1/sqrt2, sqrt2); n = round(logTabN/m) so
// that t = m n/logTabN - 1 (computed exactly) has |t| < 2^-12.5; then
// log x = log1pSeries(t) - log(n/logTabN) + e log 2, the middle term from
// a cached table (filled on demand by Halley's iteration). Near m = 1,
// n = logTabN and the table term is 0, so log is relatively accurate;
// otherwise |log m| >= 2^-13 and the subtraction loses at most 2 bits.
func logBig(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec).SetInf(true)
	}
	if x.IsInf() {
		return newF(prec).SetInf(false)
	}
	p := prec + 16
	m := newF(p)
	e := x.MantExp(m) // x = m 2^e, m in [0.5,1)
	if m.Cmp(fl(math.Sqrt2/2, 64)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	mf, _ := m.Float64()
	n := int(math.Round(logTabN / mf))
	t := newF(p+16).Mul(m, fint(int64(n), 64)) // exact: 13-bit n
	t.SetMantExp(t, -12)                       // / 4096
	t.Sub(t, fint(1, 64))                      // exact
	r := log1pSeries(t, p)
	if n != logTabN {
		r.Sub(r, getLogTab(p).entry(n))
	}
	if e != 0 {
		eb := uint(math.Log2(math.Abs(float64(e)))) + 2
		l := ln2(p + eb)
		l.Mul(l, fint(int64(e), p+eb))
		r.Add(r, l)
	}
	return r.SetPrec(prec)
}

// log1pBig returns log(1+x), x > -1, at relative precision prec.
func log1pBig(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec)
	}
	if x.MantExp(nil) <= -12 {
		return log1pSeries(x, prec)
	}
	// |x| >= 2^-13: 1+x rounded at prec+32 bits keeps x's relative accuracy
	// to 2^-(prec+19), and log then loses at most 2 bits (see logBig).
	w := addTo(newF(prec+32), x, fint(1, prec+32))
	return logBig(w, prec)
}

// ---- safe addition -----------------------------------------------------------

// addTo sets z = x + y rounded to z's precision. Unlike big.Float.Add it
// does not align mantissas across a huge exponent gap (which allocates
// gap/8 bytes): when the smaller operand is below half an ulp of the larger
// at z's precision it returns the larger one (error < 1 ulp).
func addTo(z, x, y *big.Float) *big.Float {
	if x.Sign() == 0 {
		return z.Set(y)
	}
	if y.Sign() == 0 {
		return z.Set(x)
	}
	ex, ey := x.MantExp(nil), y.MantExp(nil)
	gap := int(z.Prec()) + 4
	if ex-ey > gap {
		return z.Set(x)
	}
	if ey-ex > gap {
		return z.Set(y)
	}
	return z.Add(x, y)
}

// subTo sets z = x - y like addTo.
func subTo(z, x, y *big.Float) *big.Float {
	if x.Sign() == 0 {
		return z.Neg(y)
	}
	if y.Sign() == 0 {
		return z.Set(x)
	}
	ex, ey := x.MantExp(nil), y.MantExp(nil)
	gap := int(z.Prec()) + 4
	if ex-ey > gap {
		return z.Set(x)
	}
	if ey-ex > gap {
		return z.Neg(y)
	}
	return z.Sub(x, y)
}
