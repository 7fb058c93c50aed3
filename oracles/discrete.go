package oracles

import (
	"fmt"
	"math"
	"math/big"
)

// DiscreteMomentRat returns the exact Rényi moment
//
//	M = sum_i p_i^alpha q_i^(1-alpha)   (integer alpha >= 2)
//
// of two probability vectors given as exact rationals. Terms with p_i = 0
// vanish; p_i > 0 with q_i = 0 makes M = +Inf, reported as an error
// wrapping ErrInfinite. p and q must have the same length, non-negative
// entries, and each sum exactly to 1.
func DiscreteMomentRat(p, q []*big.Rat, alpha int64) (*big.Rat, error) {
	const fn = "DiscreteMomentRat"
	if err := checkDiscrete(fn, p, q); err != nil {
		return nil, err
	}
	if alpha < 2 {
		return nil, inErr(fn, "alpha", float64(alpha), "must be an integer >= 2")
	}
	// p^a / q^(a-1) = (pn^a qd^(a-1)) / (pd^a qn^(a-1)) with p = pn/pd, q = qn/qd.
	a := big.NewInt(alpha)
	am1 := big.NewInt(alpha - 1)
	sum := new(big.Rat)
	for i := range p {
		if p[i].Sign() == 0 {
			continue
		}
		if q[i].Sign() == 0 {
			return nil, fmt.Errorf("oracles.%s: p[%d] = %s > 0 but q[%d] = 0: %w", fn, i, p[i].RatString(), i, ErrInfinite)
		}
		num := new(big.Int).Exp(p[i].Num(), a, nil)
		num.Mul(num, new(big.Int).Exp(q[i].Denom(), am1, nil))
		den := new(big.Int).Exp(p[i].Denom(), a, nil)
		den.Mul(den, new(big.Int).Exp(q[i].Num(), am1, nil))
		sum.Add(sum, new(big.Rat).SetFrac(num, den))
	}
	return sum, nil
}

// DiscreteRenyiRat returns D_alpha(p || q) = log(M)/(alpha-1) at precision
// prec, M from DiscreteMomentRat (exact). M - 1 >= 0 is formed exactly,
// and log M = log1p(M - 1) keeps full relative accuracy when p ~ q.
func DiscreteRenyiRat(p, q []*big.Rat, alpha int64, prec uint) (*big.Float, error) {
	const fn = "DiscreteRenyiRat"
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	m, err := DiscreteMomentRat(p, q, alpha)
	if err != nil {
		return nil, err
	}
	wp := prec + 32
	mm1 := new(big.Rat).Sub(m, big.NewRat(1, 1))
	x := newF(wp).SetRat(mm1)
	l := log1pBig(x, wp)
	return l.Quo(l, fint(alpha-1, wp)).SetPrec(prec), nil
}

func checkDiscrete(fn string, p, q []*big.Rat) error {
	if len(p) == 0 {
		return inErr(fn, "p", math.NaN(), "must be non-empty")
	}
	if len(p) != len(q) {
		return inErr(fn, "q", math.NaN(), fmt.Sprintf("length %d differs from len(p) = %d", len(q), len(p)))
	}
	for name, v := range map[string][]*big.Rat{"p": p, "q": q} {
		sum := new(big.Rat)
		for i, x := range v {
			if x == nil {
				return inErr(fn, fmt.Sprintf("%s[%d]", name, i), math.NaN(), "is nil")
			}
			if x.Sign() < 0 {
				f, _ := x.Float64()
				return inErr(fn, fmt.Sprintf("%s[%d]", name, i), f, "must be >= 0")
			}
			sum.Add(sum, x)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			f, _ := sum.Float64()
			return inErr(fn, "sum("+name+")", f, "must be exactly 1 (is "+sum.RatString()+")")
		}
	}
	return nil
}
