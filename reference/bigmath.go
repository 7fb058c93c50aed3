package reference

// Elementary functions on *big.Float. The reference carries its own exp and
// log rather than calling github.com/ALTree/bigfloat on its hot paths: that
// library's Exp runs Newton iterations on Log and is ~20x slower at 320 bits.
// The oracles use bigfloat, so the two packages also differ here.
//
// Every function takes the precision wanted for its result; each works
// internally with guard bits so that the result is correct to within a few
// ulps of that precision. The callers add their own guard bits on top and the
// Ziv loop (ziv.go) checks the final digits, so these bounds need not be tight.

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// fl converts a float64 exactly (53 bits always fit in prec >= 53).
func fl(x float64, prec uint) *big.Float { return newF(prec).SetFloat64(x) }

func intF(n int64, prec uint) *big.Float { return newF(prec).SetInt64(n) }

// exactSum returns x+y with enough precision that no bit is lost. The inputs
// come from float64 values (at most ~1100 significant bits apart), so this
// stays cheap; it exists to form 1-q exactly.
func exactSum(x, y *big.Float) *big.Float {
	if x.Sign() == 0 || y.Sign() == 0 {
		z := newF(max(x.MinPrec(), y.MinPrec(), 64))
		return z.Add(x, y)
	}
	hi := max(x.MantExp(nil), y.MantExp(nil))
	lo := min(x.MantExp(nil)-int(x.MinPrec()), y.MantExp(nil)-int(y.MinPrec()))
	return newF(uint(hi-lo)+2).Add(x, y)
}

type constants struct {
	ln2, pi, invSqrt2Pi *big.Float
}

var constCache sync.Map // uint (precision, rounded up to a multiple of 64) -> *constants

// consts returns ln 2, pi and 1/sqrt(2 pi) correct to at least prec bits.
func consts(prec uint) *constants {
	p := (prec + 63) &^ 63
	if c, ok := constCache.Load(p); ok {
		return c.(*constants)
	}
	wp := p + 32
	c := &constants{ln2: computeLn2(wp), pi: computePi(wp)}
	twoPi := newF(wp).SetMantExp(c.pi, 1)
	c.invSqrt2Pi = newF(wp).Quo(intF(1, wp), newF(wp).Sqrt(twoPi))
	constCache.Store(p, c)
	return c
}

// computeLn2 uses ln 2 = 2 atanh(1/3) = 2 sum 1/((2k+1) 9^k 3): 3.17 bits a term.
func computeLn2(wp uint) *big.Float {
	return newF(wp).SetMantExp(atanhInv(3, wp), 1)
}

// atanhInv returns atanh(1/n) = sum_k 1/((2k+1) n^(2k+1)) for an integer n >= 2.
func atanhInv(n int64, wp uint) *big.Float {
	sum := newF(wp + 16)
	pow := newF(wp+16).Quo(intF(1, wp+16), intF(n, wp+16)) // 1/n^(2k+1)
	n2 := intF(n*n, wp+16)
	t := newF(wp + 16)
	for k := int64(0); ; k++ {
		t.Quo(pow, intF(2*k+1, wp+16))
		sum.Add(sum, t)
		if t.MantExp(nil) < sum.MantExp(nil)-int(wp)-8 {
			break
		}
		pow.Quo(pow, n2)
	}
	return sum.SetPrec(wp)
}

// atanInv returns atan(1/n) for an integer n >= 2 (alternating series).
func atanInv(n int64, wp uint) *big.Float {
	sum := newF(wp + 16)
	pow := newF(wp+16).Quo(intF(1, wp+16), intF(n, wp+16))
	n2 := intF(n*n, wp+16)
	t := newF(wp + 16)
	for k := int64(0); ; k++ {
		t.Quo(pow, intF(2*k+1, wp+16))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		if t.MantExp(nil) < sum.MantExp(nil)-int(wp)-8 {
			break
		}
		pow.Quo(pow, n2)
	}
	return sum.SetPrec(wp)
}

// computePi uses Machin's formula pi = 16 atan(1/5) - 4 atan(1/239).
func computePi(wp uint) *big.Float {
	a := atanInv(5, wp+8)
	b := atanInv(239, wp+8)
	a.SetMantExp(a, 4)
	b.SetMantExp(b, 2)
	return newF(wp).Sub(a, b)
}

// expF returns e^x to prec bits. Reduction: x = n ln2 + r with |r| <= ln2/2,
// then r/2^k is summed by Taylor series (Horner, with cached 1/i!) and
// squared k times; the k squarings multiply the relative error by about 2^k,
// paid for by k guard bits. Results beyond big.Float's exponent range are
// +Inf or 0.
func expF(x *big.Float, prec uint) *big.Float {
	z := newF(prec)
	if x.Sign() == 0 {
		return z.SetInt64(1)
	}
	if x.IsInf() {
		if x.Sign() > 0 {
			return z.SetInf(false)
		}
		return z
	}
	xf, _ := x.Float64()
	if xf > 1.48e9 {
		return z.SetInf(false)
	}
	if xf < -1.48e9 {
		return z
	}
	n := int64(math.Round(xf / math.Ln2))
	k := uint(math.Sqrt(float64(prec)) / 2)
	nbits := uint(bits.Len64(uint64(absI(n))))
	wp := prec + nbits + k + 24
	r := newF(wp).Set(x)
	if n != 0 {
		t := newF(wp).Mul(consts(wp).ln2, intF(n, wp))
		r.Sub(r, t)
	}
	r.SetMantExp(r, -int(k))
	wq := prec + k + 24
	r.SetPrec(wq)
	// Terms needed: |r| < 2^-(k+1), so r^m/m! < 2^-wq once m(k+1) + log2 m! > wq.
	m := 1
	for lg := 0.0; float64(m)*float64(k+1)+lg <= float64(wq); m++ {
		lg += math.Log2(float64(m + 1))
	}
	inv := invFactorials(m, wq)
	// Each step writes into the other buffer: math/big allocates a new
	// mantissa when a result overwrites an operand, and these loops were
	// most of the reference's allocations. The values are the same: each
	// operation is rounded to wq bits whichever variable holds it.
	sum, tmp := newF(wq).Set(inv[m]), newF(wq)
	for i := m - 1; i >= 0; i-- {
		tmp.Mul(sum, r)
		sum.Add(tmp, inv[i])
	}
	for range k {
		tmp.Mul(sum, sum)
		sum, tmp = tmp, sum
	}
	// SetMantExp copies sum's precision (it calls Copy): round afterwards.
	return z.Set(sum.SetMantExp(sum, int(n)))
}

type invFactKey struct{ n, prec uint }

var invFactCache sync.Map

// invFactorials returns 1/i! for i = 0..n (n rounded up to a multiple of 8) to prec bits.
func invFactorials(n int, prec uint) []*big.Float {
	key := invFactKey{uint(n+7) &^ 7, (prec + 63) &^ 63}
	if v, ok := invFactCache.Load(key); ok {
		return v.([]*big.Float)
	}
	wp := key.prec + 16
	out := make([]*big.Float, key.n+1)
	f := intF(1, wp)
	for i := range out {
		if i > 0 {
			f.Quo(f, intF(int64(i), wp))
		}
		out[i] = newF(key.prec).Set(f)
	}
	invFactCache.Store(key, out)
	return out
}

func absI(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// expm1F returns e^x - 1 to prec bits relative. For small |x| the subtraction
// cancels about -log2|x| bits, which are added to the working precision.
func expm1F(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec)
	}
	extra := 0
	if e := x.MantExp(nil); e < 0 {
		extra = -e
	}
	wp := prec + uint(extra) + 8
	e := expF(x, wp)
	return newF(prec).Sub(e, intF(1, wp))
}

// logF returns log x for x > 0 to prec bits relative. x = m 2^e is reduced to
// m in [1/2, 1) except when x is within a factor 2 of 1, where log x is small
// and the split would cancel. Halley's iteration y += 2(x - e^y)/(x + e^y)
// triples the correct bits of a float64 start each step.
func logF(x *big.Float, prec uint) *big.Float {
	if x.Sign() <= 0 || x.IsInf() {
		panic("reference: logF of non-positive or infinite value") // callers check
	}
	m := newF(0)
	e := x.MantExp(m)
	if e == 0 || e == 1 { // x in [1/2, 2): log x is small near 1
		return logNear1(x, prec)
	}
	wp := prec + 16
	lm := logNear1(m.SetPrec(x.Prec()), wp)
	t := newF(wp).Mul(consts(wp+64).ln2, intF(int64(e), wp))
	return newF(prec).Add(lm, t)
}

// logNear1 is Halley's iteration for x in [1/2, 2). The result is relative to
// log x, so when x is near 1 the working precision grows by -log2|x-1| bits;
// x is exact, so the residual x - e^y loses nothing that matters.
func logNear1(x *big.Float, prec uint) *big.Float {
	d := newF(x.Prec()+2).Sub(x, intF(1, 64))
	if d.Sign() == 0 {
		return newF(prec)
	}
	extra := 0
	if ed := d.MantExp(nil); ed < 0 {
		extra = -ed
	}
	wp := prec + uint(extra) + 16
	xf, _ := x.Float64()
	y := fl(math.Log(xf), wp)
	if y.Sign() == 0 { // x rounds to 1 in float64: log1p of the exact difference
		df, _ := d.Float64()
		y = fl(math.Log1p(df), wp)
	}
	// Each step triples the correct bits, so run it at only the precision
	// it can deliver: 53 -> ~150 -> ~450 bits.
	for good := 45.0; ; good *= 3 {
		p := min(wp, uint(3*good)+32)
		y.SetPrec(p)
		ey := expF(y, p)
		xw := newF(p).Set(x)
		num := newF(p).Sub(xw, ey)
		den := newF(p).Add(xw, ey)
		num.Quo(num, den)
		num.SetMantExp(num, 1)
		y.Add(y, num)
		if p == wp && 3*good > float64(wp) {
			break
		}
	}
	return newF(prec).Set(y)
}

// log1pF returns log(1+y) for y > -1, relative to the result even when |y|
// is tiny: 1+y is formed exactly first. Below 2^-(prec+2), log1p(y) = y to
// within half an ulp, and forming 1+y exactly would cost -log2|y| bits.
func log1pF(y *big.Float, prec uint) *big.Float {
	if y.Sign() == 0 || y.MantExp(nil) < -int(prec)-2 {
		return newF(prec).Set(y)
	}
	return logF(exactSum(intF(1, 64), y), prec)
}
