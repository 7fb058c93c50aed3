package pld

// The standard normal upper tail Q(x) = P(Z > x) in big.Float, for the
// closed-form profile of the Gaussian mechanism (gauss.go) and for the
// one-step checks of the tests.
//
// Method, at working precision wp bits:
//
//	x < 0:       Q(x) = 1 - Q(-x).
//	0 <= x < 4:  Q(x) = 1/2 - phi(x) S(x), S(x) = sum_n x^(2n+1)/(2n+1)!!
//	             (positive terms); the subtraction cancels fewer than
//	             x^2/(2 ln 2) + 2 bits, which are added to the precision.
//	x >= 4:      Q(x) = phi(x) R(x), R the Mills ratio, from Laplace's
//	             continued fraction R = 1/(x + 1/(x + 2/(x + 3/(x + ...))))
//	             evaluated backward from N terms.
//
// Each value is accepted only when two evaluations (wp bits with N terms,
// wp+40 bits with 2N terms) agree to wp-8 bits (Ziv's strategy, as package
// reference does); otherwise wp and N are doubled.

import (
	"math"
	"math/big"
	"sync"

	"github.com/ALTree/bigfloat"
)

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// bigPhi returns phi(x) = e^(-x^2/2)/sqrt(2 pi) at prec bits.
func bigPhi(x *big.Float, prec uint) *big.Float {
	e := newF(prec).Mul(x, x)
	e.Quo(e, newF(prec).SetInt64(-2))
	e = bigfloat.Exp(e)
	twoPi := newF(prec).Mul(bigPi(prec), newF(prec).SetInt64(2))
	return e.Quo(e, newF(prec).Sqrt(twoPi))
}

// bigPi returns pi at prec bits (Machin: 16 atan(1/5) - 4 atan(1/239)).
func bigPi(prec uint) *big.Float {
	piMu.Lock()
	defer piMu.Unlock()
	if piCache != nil && piCache.Prec() >= prec {
		return newF(prec).Set(piCache)
	}
	piCache = machinPi(prec + 64)
	return newF(prec).Set(piCache)
}

var (
	piMu    sync.Mutex
	piCache *big.Float
)

func machinPi(prec uint) *big.Float {
	w := prec + 16
	at := func(n int64) *big.Float {
		// atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1))
		sum := newF(w)
		pw := newF(w).Quo(newF(w).SetInt64(1), newF(w).SetInt64(n))
		n2 := newF(w).SetInt64(n * n)
		tiny := newF(w).SetMantExp(newF(w).SetInt64(1), -int(w)-8)
		for k := int64(0); ; k++ {
			t := newF(w).Quo(pw, newF(w).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			if t.Cmp(tiny) < 0 {
				break
			}
			pw.Quo(pw, n2)
		}
		return sum
	}
	p := newF(w).Mul(at(5), newF(w).SetInt64(16))
	p.Sub(p, newF(w).Mul(at(239), newF(w).SetInt64(4)))
	return newF(prec).Set(p)
}

// normTailOnce evaluates Q(x) once at wp bits with continued-fraction depth n.
func normTailOnce(x *big.Float, wp uint, n int) *big.Float {
	if x.Sign() < 0 {
		q := normTailOnce(newF(wp).Neg(x), wp+8, n)
		return newF(wp).Sub(newF(wp).SetInt64(1), q)
	}
	xf, _ := x.Float64()
	if xf < 4 {
		w := wp + uint(xf*xf/(2*math.Ln2)) + 24
		xw := newF(w).Set(x)
		x2 := newF(w).Mul(xw, xw)
		term := newF(w).Set(xw) // x^(2n+1)/(2n+1)!!
		sum := newF(w).Set(term)
		tiny := newF(w).SetMantExp(newF(w).SetInt64(1), -int(w)-8)
		for k := int64(1); ; k++ {
			term.Mul(term, x2)
			term.Quo(term, newF(w).SetInt64(2*k+1))
			sum.Add(sum, term)
			if term.Sign() == 0 || (float64(k) > xf*xf && term.Cmp(newF(w).Mul(sum, tiny)) < 0) {
				break
			}
		}
		sum.Mul(sum, bigPhi(xw, w))
		return newF(wp).Sub(newF(w).SetFloat64(0.5), sum)
	}
	w := wp + 24
	xw := newF(w).Set(x)
	r := newF(w).Set(xw)
	for k := n; k >= 1; k-- {
		t := newF(w).Quo(newF(w).SetInt64(int64(k)), r)
		r.Add(xw, t)
	}
	phi := bigPhi(xw, w)
	return newF(wp).Quo(phi, r)
}

// bigNormTail returns Q(x) correct to about prec bits (Ziv-checked).
func bigNormTail(x *big.Float, prec uint) *big.Float {
	wp, n := prec+16, 64
	if xf, _ := x.Float64(); math.Abs(xf) >= 4 {
		// The continued fraction's error falls about like e^(-2 x sqrt(2n)).
		r := float64(prec+48) * math.Ln2 / (2 * math.Abs(xf))
		n = int(r*r/2) + 16
	}
	for {
		a := normTailOnce(x, wp, n)
		b := normTailOnce(x, wp+40, 2*n)
		if agreeBits(a, b, prec+4) {
			return a
		}
		wp *= 2
		n *= 2
	}
}

// agreeBits reports whether |a-b| <= 2^-bits max(|a|,|b|).
func agreeBits(a, b *big.Float, bits uint) bool {
	if a.Sign() == 0 && b.Sign() == 0 {
		return true
	}
	p := a.Prec() + 64
	d := newF(p).Sub(a, b)
	d.Abs(d)
	m := newF(p).Abs(a)
	if mb := newF(p).Abs(b); mb.Cmp(m) > 0 {
		m = mb
	}
	m.SetMantExp(m, -int(bits))
	return d.Cmp(m) <= 0
}
