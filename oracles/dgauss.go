package oracles

import (
	"math"
	"math/big"
)

// DiscreteGaussianSum returns D_alpha(N_Z(0, sigma^2) || N_Z(sens, sigma^2))
// for an integer sensitivity and a finite alpha > 0, alpha != 1, by summing
// the definition
//
//	D = 1/(alpha-1) log( sum_x P(x)^alpha Q(x)^(1-alpha) ),
//	P(x) = e^(-x^2/(2 sigma^2))/Z, Q(x) = e^(-(x-sens)^2/(2 sigma^2))/Z,
//	Z = sum_x e^(-x^2/(2 sigma^2)),
//
// term by term over a window wide enough that the omitted terms are below
// 2^-(wp+20) of the sums, with github.com/ALTree/bigfloat's Exp and Log
// (no theta identity, no Poisson summation: the reference uses both). The
// cost grows with sigma and (1-alpha) sens, so it is meant for sigma <= 20.
func DiscreteGaussianSum(sigma, sens, alpha float64, prec uint) (*big.Float, error) {
	const fn = "DiscreteGaussianSum"
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if !finite(sigma) || sigma <= 0 || sigma > 20 {
		return nil, inErr(fn, "sigma", sigma, "must be in (0, 20]")
	}
	if !finite(sens) || sens != math.Trunc(sens) || math.Abs(sens) > 1e4 {
		return nil, inErr(fn, "sens", sens, "must be an integer of magnitude <= 1e4")
	}
	if !finite(alpha) || alpha <= 0 || alpha == 1 || alpha > 1e4 {
		return nil, inErr(fn, "alpha", alpha, "must be in (0, 1e4], not 1")
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		s2 := newF(wp).Mul(fl(sigma, wp), fl(sigma, wp))
		s2.SetMantExp(s2, 1)
		A := fl(alpha, wp)
		B := subTo(newF(wp), fint(1, wp), A) // 1 - alpha
		S := fl(sens, wp)
		// The log of a summand of either sum is a concave quadratic in x;
		// its peak lies in [min(0, c), max(0, c)] with c = (1-alpha) sens,
		// and beyond T = sigma sqrt(2 (wp+30) ln 2) + 2 from the peak the
		// terms fall below e^-(wp+30) ln2 and decay geometrically.
		c := (1 - alpha) * sens
		T := sigma*math.Sqrt(2*float64(wp+30)*math.Ln2) + 2
		lo := int64(math.Floor(math.Min(math.Min(0, c), sens) - T))
		hi := int64(math.Ceil(math.Max(math.Max(0, c), sens) + T))
		z := newF(wp)
		sum := newF(wp)
		for x := lo; x <= hi; x++ {
			X := fint(x, wp)
			lp := newF(wp).Mul(X, X)
			lp.Quo(lp, s2)
			lp.Neg(lp)
			d := subTo(newF(wp), X, S)
			lq := newF(wp).Mul(d, d)
			lq.Quo(lq, s2)
			lq.Neg(lq)
			z.Add(z, bexpSmall(newF(wp).Set(lp)))
			e := newF(wp).Mul(A, lp)
			e.Add(e, newF(wp).Mul(B, lq))
			sum.Add(sum, bexpSmall(e))
		}
		l := subTo(newF(wp), blog(sum), blog(z))
		am1 := subTo(newF(wp), A, fint(1, wp))
		return l.Quo(l, am1)
	})
}
