package reference

// The standard normal upper tail Q(x) = P(Z > x) = erfc(x/sqrt2)/2 in
// big.Float, for the closed-form integrals of the series in sgm.go.
//
// Method, by region, at working precision wp:
//
//	x <= -xa:      Q(x) = 1 - Q(|x|), and Q(|x|) < 2^-(wp+16): returns 1.
//	|x| < xa:      Q(x) = 1/2 - phi(x) S(x), S(x) = sum_n x^(2n+1)/(2n+1)!!
//	               (all terms positive). For x > 0 the subtraction cancels
//	               about x^2/(2 ln 2) bits, which are added to the precision.
//	x >= xa:       the asymptotic series Q(x) = phi(x)/x sum_n (-1)^n (2n-1)!!/x^(2n),
//	               which envelops Q (the error is below the first omitted
//	               term) and reaches 2^-wp before its smallest term because
//	               xa^2/2 >= wp ln2 + 16. Returned scaled by e^(x^2/2).
//
// xa = sqrt(2 (wp ln2 + 16)); for wp = 320, xa ~ 21.8.

import (
	"math"
	"math/big"
	"sync"
)

// tail is Q(x) = m * exp(-s); s is 0 or x^2/2 (scaled form for large x, so
// that callers can fold exp(-x^2/2) into their own exponents and never form
// a number beyond big.Float's range).
type tail struct {
	m *big.Float
	s *big.Float // nil means 0
}

func asymThreshold(wp uint) float64 {
	return math.Sqrt(2 * (float64(wp)*math.Ln2 + 16))
}

// normTail returns Q(x) to wp bits relative.
func normTail(x *big.Float, wp uint) tail {
	xf, _ := x.Float64()
	xa := asymThreshold(wp)
	switch {
	case xf <= -xa:
		return tail{m: intF(1, wp)}
	case xf >= xa:
		return tail{m: tailAsymptotic(x, wp), s: newF(wp).Quo(newF(wp).Mul(x, x), intF(2, wp))}
	}
	extra := uint(0)
	if xf > 0 {
		extra = uint(xf*xf/(2*math.Ln2)) + 1
	}
	w := wp + extra + 16
	// S(x) = x sum_n (x^2)^n / (2n+1)!!; find the number of terms in float64
	// (they grow until n ~ x^2, then fall), then sum by Horner with cached
	// reciprocals of the double factorials.
	lx2 := math.Log(xf * xf)
	n, lt, top := 0, 0.0, 0.0
	for ; ; n++ {
		lt += lx2 - math.Log(float64(2*n+3))
		top = math.Max(top, lt)
		if float64(n) > xf*xf && lt < top-float64(w)*math.Ln2-8 {
			break
		}
	}
	coef := invDoubleFactorials(n+1, w)
	xw := newF(w).Set(x)
	x2 := newF(w).Mul(xw, xw)
	sum, tmp := newF(w).Set(coef[n+1]), newF(w) // two buffers, as in expF
	for i := n; i >= 0; i-- {
		tmp.Mul(sum, x2)
		sum.Add(tmp, coef[i])
	}
	sum.Mul(sum, xw)
	phi := newF(w).Quo(x2, intF(-2, w))
	phi = expF(phi, w)
	phi.Mul(phi, consts(w).invSqrt2Pi)
	sum.Mul(sum, phi)
	half := newF(w).SetFloat64(0.5)
	return tail{m: newF(wp).Sub(half, sum)}
}

var invDFCache sync.Map

// invDoubleFactorials returns 1/(2i+1)!! for i = 0..n (n rounded up to a
// multiple of 32) to prec bits.
func invDoubleFactorials(n int, prec uint) []*big.Float {
	key := invFactKey{uint(n+31) &^ 31, (prec + 63) &^ 63}
	if v, ok := invDFCache.Load(key); ok {
		return v.([]*big.Float)
	}
	wp := key.prec + 16
	out := make([]*big.Float, key.n+1)
	f := intF(1, wp)
	for i := range out {
		if i > 0 {
			f.Quo(f, intF(int64(2*i+1), wp))
		}
		out[i] = newF(key.prec).Set(f)
	}
	invDFCache.Store(key, out)
	return out
}

// tailAsymptotic returns Q(x) e^(x^2/2) = (1/sqrt(2pi)) (1/x) sum_n (-1)^n (2n-1)!!/x^(2n)
// for x >= xa, summed to the first term below 2^-(wp+8) of the sum.
func tailAsymptotic(x *big.Float, wp uint) *big.Float {
	w := wp + 16
	xw := newF(w).Set(x)
	inv2 := newF(w).Quo(intF(1, w), newF(w).Mul(xw, xw))
	// Results go to the other buffer of each pair (sum, sum2), (term,
	// tmp): math/big allocates when a result overwrites an operand. The
	// values are those of the in-place loop, each rounded to w bits.
	sum, sum2 := intF(1, w), newF(w)
	term, tmp := intF(1, w), newF(w)
	odd := intF(0, w)
	for n := int64(1); ; n++ {
		tmp.Mul(term, inv2)
		term.Mul(tmp, odd.SetInt64(-(2*n - 1)))
		sum2.Add(sum, term)
		sum, sum2 = sum2, sum
		if term.MantExp(nil) < sum.MantExp(nil)-int(wp)-8 {
			break
		}
	}
	sum.Quo(sum, xw)
	sum.Mul(sum, consts(w).invSqrt2Pi)
	return sum.SetPrec(wp)
}

// logTailEstimate is log Q(x) in float64, for planning which series terms
// matter. Its error (well under 1e-6 absolute) is covered by planning margins.
func logTailEstimate(x float64) float64 {
	if x < 5 {
		return math.Log(0.5 * math.Erfc(x/math.Sqrt2))
	}
	x2 := x * x
	return -x2/2 - math.Log(x) - 0.5*math.Log(2*math.Pi) + math.Log1p(-1/x2+3/(x2*x2)-15/(x2*x2*x2))
}
