package reference

import (
	"fmt"
	"math"
	"math/big"
)

// PoissonBound returns Zhu and Wang's general upper bound on the Rényi
// differential privacy of order alpha of any mechanism M under Poisson
// sampling with rate q, add/remove neighbours ("Poisson Subsampled Rényi
// Differential Privacy", ICML 2019, PMLR 97), given M's RDP curve at
// integer orders: base[i] is eps_M(i+2). For integer alpha >= 2,
//
//	eps(alpha) <= 1/(alpha-1) log( (1-q)^(alpha-1) (alpha q - q + 1)
//	    + C(alpha,2) q^2 (1-q)^(alpha-2) e^eps_M(2)
//	    + 3 sum_{l=3}^{alpha} C(alpha,l) q^l (1-q)^(alpha-l) e^((l-1) eps_M(l)) ).
//
// It is an upper bound, not a value; at integer orders it exceeds the exact
// RDP of mechanisms meeting the paper's tightness condition (the Gaussian and
// Laplace mechanisms, whose exact value is the same sum without the factor
// 3) by at most log(3)/(alpha-1). The argument of the log is 1 plus a sum
// of non-negative terms, since sum_l C(alpha,l) q^l (1-q)^(alpha-l) = 1:
//
//	1 + sum_{l>=2} C(alpha,l) q^l (1-q)^(alpha-l) k_l,
//	k_2 = e^eps_M(2) - 1, k_l = 3 e^((l-1) eps_M(l)) - 1,
//
// which is how it is evaluated, so tiny q loses nothing to cancellation.
// Fractional alpha > 2 interpolates (alpha-1) eps linearly between the
// bounds at floor(alpha) and ceil(alpha), which is valid because the
// cumulant (alpha-1) eps(alpha) of the sampled mechanism is convex in alpha
// (as autodp does); alpha in [1, 2] takes the bound at 2 (RDP is
// non-decreasing in the order).
//
// autodp 0.2.3.1's default for Poisson sampling
// (AmplificationBySampling(PoissonSampling=True) without
// improved_bound_flag) evaluates a different sum: for l >= 3 its terms are
// e^(l eps_M(l+1)) without the factor 3. Theorem numbers: the paper's full
// text was not reachable when this was written, and the authors' autodp
// cites the general bound as "theorem 1 in 2019 ICML"
// (rdp_acct.general_upperbound) and the tightness conditions as "Theorem 8
// of" the PMLR version (transformer_zoo.AmplificationBySampling), so no
// number is given here. Its older rdp_acct.general_upperbound expands the same sum
// as 3 e^(-eps_M(alpha)) (1 - q + q e^eps_M(alpha))^alpha minus corrections
// for l <= 50: equal to the sum above up to order 51, and above it the terms
// l > 50 use e^((l-1) eps_M(alpha)) instead, a looser bound.
//
// Special cases are:
//
//	PoissonBound(q=0, alpha, base) = 0
//	PoissonBound(q=1, alpha, base) = base's own curve: eps_M(alpha) at
//	    integer alpha, interpolated as above between integers
//	PoissonBound(q, alpha=+Inf, base) = +Inf (an integer curve says nothing there)
//	PoissonBound(q, alpha, base) = +Inf if an entry it uses is +Inf
//	PoissonBound = error for q outside [0, 1], alpha < 1 or NaN, base
//	    shorter than ceil(alpha)-1 entries, negative or NaN entries
//	    (*InputError), and for finite alpha above MaxFractionalOrder (ErrTooLarge)
//
// Slices: base is only read.
func (c Context) PoissonBound(q, alpha float64, base []float64) (*big.Float, error) {
	const fn = "PoissonBound"
	if err := checkSampledQ(fn, q); err != nil {
		return nil, err
	}
	if err := checkSampledOrder(fn, alpha); err != nil {
		return nil, err
	}
	p := c.prec()
	if math.IsInf(alpha, 1) {
		if q == 0 {
			return newF(p), nil
		}
		return newF(p).SetInf(false), nil
	}
	hiOrd := int(math.Max(2, math.Ceil(alpha)))
	if len(base) < hiOrd-1 {
		return nil, &InputError{Pkg: pkgName, Func: fn, Arg: "base", Value: float64(len(base)),
			Msg: fmt.Sprintf("the base curve must give orders 2..%d (%d entries)", hiOrd, hiOrd-1)}
	}
	for i, v := range base {
		if math.IsNaN(v) || v < 0 {
			return nil, inputErr(fn, fmt.Sprintf("base[%d]", i), v, "RDP values must be >= 0 (or +Inf)")
		}
	}
	if q == 0 {
		return newF(p), nil
	}
	loOrd := int(math.Max(2, math.Floor(alpha)))
	frac := 0.0
	if alpha > 2 {
		frac = alpha - math.Floor(alpha) // exact
	}
	// The entries used: orders 2..hiOrd for q < 1; floor and ceil for q = 1.
	for k := 2; k <= hiOrd; k++ {
		used := q < 1 || k == loOrd || k == hiOrd
		if used && math.IsInf(base[k-2], 1) {
			return newF(p).SetInf(false), nil
		}
	}
	// Exact zeros (the Ziv loop never accepts 0): every k_l is >= 2 for
	// l >= 3, so the bound is 0 only at orders <= 2 with eps_M(2) = 0, or at
	// q = 1 where the curve itself is 0.
	if (hiOrd == 2 && base[0] == 0) || (q == 1 && base[loOrd-2] == 0 && (frac == 0 || base[hiOrd-2] == 0)) {
		return newF(p), nil
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		// exp(l log q + (a-l) log(1-q)) carries the absolute error of an
		// exponent up to a |log q| in size.
		wq := wp + 40 + 2*uint(bits64(hiOrd))
		// cgf(k) = (k-1) eps_bound(k) = log(1 + S_k).
		cgf := func(k int) *big.Float {
			if q == 1 {
				return newF(wq).Mul(intF(int64(k-1), wq), fl(base[k-2], wq))
			}
			s := zwSum(q, k, base, true, wq)
			if s.IsInf() {
				return s
			}
			return log1pF(s, wq)
		}
		var num *big.Float
		if frac == 0 {
			num = cgf(loOrd)
		} else {
			F := fl(frac, wq)
			a := newF(wq).Mul(F, cgf(hiOrd))
			b := newF(wq).Mul(newF(wq).Sub(intF(1, wq), F), cgf(loOrd))
			num = a.Add(a, b)
		}
		if num.IsInf() {
			return num, nil
		}
		if alpha <= 2 {
			return num, nil // cgf(2)/(2-1)
		}
		am1 := newF(wq).Sub(fl(alpha, 64), intF(1, 64))
		return num.Quo(num, am1), nil
	})
}

func bits64(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// zwSum returns sum_{l=2}^{a} C(a,l) q^l (1-q)^(a-l) k_l for 0 < q < 1 at
// precision wq: the bound's k_l (three = true) or, with three = false,
// e^((l-1) eps(l)) - 1 throughout (Zhu and Wang's exact formula under their
// tightness condition). Every term is >= 0.
func zwSum(q float64, a int, base []float64, three bool, wq uint) *big.Float {
	Q := fl(q, wq)
	omq := exactSum(intF(1, 64), fl(-q, 64))
	lq := logF(Q, wq)
	l1q := logF(omq, wq)
	sum := newF(wq)
	binom := new(big.Int)
	for l := 2; l <= a; l++ {
		binom.Binomial(int64(a), int64(l))
		// log of q^l (1-q)^(a-l)
		e := newF(wq).Mul(intF(int64(l), wq), lq)
		e.Add(e, newF(wq).Mul(intF(int64(a-l), wq), l1q))
		x := newF(wq).Mul(intF(int64(l-1), wq), fl(base[l-2], wq))
		var k *big.Float
		if l == 2 || !three {
			k = expm1F(x, wq)
		} else {
			k = expF(x, wq)
			k.Mul(k, intF(3, wq))
			k.Sub(k, intF(1, wq))
		}
		if k.Sign() == 0 {
			continue
		}
		if k.IsInf() {
			return k
		}
		t := expF(e, wq)
		t.Mul(t, newF(wq).SetInt(binom))
		sum.Add(sum, t.Mul(t, k))
	}
	return sum
}

// PoissonBound is Context{}.PoissonBound at DefaultPrec.
//
// Slices: base is only read.
func PoissonBound(q, alpha float64, base []float64) (*big.Float, error) {
	return Context{}.PoissonBound(q, alpha, base)
}
