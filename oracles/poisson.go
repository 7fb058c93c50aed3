package oracles

// Zhu and Wang 2019 ("Poisson Subsampled Rényi Differential Privacy", ICML
// 2019): for a mechanism whose outputs on a neighbouring pair are mu1 (with
// the individual) and mu0 (without), the Poisson-sampled mixture mu = (1-q)
// mu0 + q mu1 has, at integer alpha, by the binomial theorem,
//
//	E_mu0[(mu/mu0)^alpha] = sum_{l=0}^{alpha} C(alpha,l) (1-q)^(alpha-l) q^l E_mu0[(mu1/mu0)^l],
//
// and E_mu0[(mu1/mu0)^l] = e^((l-1) D_l(mu1||mu0)). This is the forward
// direction D_alpha(mu || mu0) exactly, for any mechanism. Their theorem
// (under their tightness condition, which the Gaussian and Laplace
// mechanisms meet; see reference.PoissonBound on theorem numbers) says that this pair and this direction are the worst case, so that the
// sum is the sampled mechanism's RDP; for the sampled Gaussian that the
// forward direction dominates is also Mironov, Talwar and Zhang 2019,
// Theorem 5. Here the moments of the base pair come from their closed forms
// (Laplace: Mironov 2017, Proposition 6; Gaussian: e^(l(l-1)/(2 sigma^2))),
// the sum is formed directly (all terms positive) and its log taken; the
// cancellation of log near 1 at small q is absorbed by stable's rising
// precision. It shares nothing with reference's quadrature.

import (
	"fmt"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// zwForward returns log(sum_l C(a,l) (1-q)^(a-l) q^l M_l)/(a-1) at wp bits,
// M_l from moments (l = 0..a).
func zwForward(q float64, a int64, moments []*big.Float, wp uint) *big.Float {
	Q := fl(q, wp)
	omq := newF(wp).Sub(fint(1, wp), Q) // rounded: the wp bits exceed q's 53
	qp := make([]*big.Float, a+1)       // q^l
	op := make([]*big.Float, a+1)       // (1-q)^l
	qp[0], op[0] = fint(1, wp), fint(1, wp)
	for l := int64(1); l <= a; l++ {
		qp[l] = newF(wp).Mul(qp[l-1], Q)
		op[l] = newF(wp).Mul(op[l-1], omq)
	}
	sum := newF(wp)
	bin := new(big.Int)
	for l := int64(0); l <= a; l++ {
		bin.Binomial(a, l)
		t := newF(wp).SetInt(bin)
		t.Mul(t, qp[l])
		t.Mul(t, op[a-l])
		t.Mul(t, moments[l])
		sum.Add(sum, t)
	}
	l := bigfloat.Log(sum)
	return l.Quo(l, fint(a-1, wp))
}

func checkZW(fn string, q float64, alpha int64, prec uint) error {
	if !(q > 0 && q < 1) {
		return inErr(fn, "q", q, "must be in (0, 1)")
	}
	if alpha < 2 || alpha > 4096 {
		return inErr(fn, "alpha", float64(alpha), "must be an integer in [2, 4096]")
	}
	return checkPrec(fn, prec)
}

// PoissonLaplaceZW returns the forward divergence D_alpha(mu || Lap(0, b)),
// mu = (1-q) Lap(0, b) + q Lap(1, b), at integer alpha by Zhu and Wang's
// binomial sum (see the file comment), with the Laplace moments
//
//	E[(mu1/mu0)^l] = (l e^((l-1)/b) + (l-1) e^(-l/b)) / (2l-1),
//
// to prec bits. Errors for q outside (0, 1), b <= 0 or not finite, alpha
// outside [2, 4096] (*InputError).
func PoissonLaplaceZW(q, b float64, alpha int64, prec uint) (*big.Float, error) {
	const fn = "PoissonLaplaceZW"
	if err := checkZW(fn, q, alpha, prec); err != nil {
		return nil, err
	}
	if !finite(b) || b <= 0 {
		return nil, inErr(fn, "b", b, "must be finite and > 0")
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		E := bigfloat.Exp(newF(wp).Quo(fint(1, wp), fl(b, wp))) // e^(1/b)
		Ei := newF(wp).Quo(fint(1, wp), E)
		m := make([]*big.Float, alpha+1)
		m[0], m[1] = fint(1, wp), fint(1, wp)
		up := fint(1, wp)      // e^((l-1)/b)
		dn := newF(wp).Set(Ei) // e^(-l/b)
		for l := int64(2); l <= alpha; l++ {
			up.Mul(up, E)
			dn.Mul(dn, Ei)
			x := newF(wp).Mul(fint(l, wp), up)
			x.Add(x, newF(wp).Mul(fint(l-1, wp), dn))
			m[l] = x.Quo(x, fint(2*l-1, wp))
		}
		return zwForward(q, alpha, m, wp)
	})
}

// PoissonGaussianZW returns the forward divergence D_alpha(mu || N(0,
// sigma^2)), mu = (1-q) N(0, sigma^2) + q N(1, sigma^2), which is the
// sampled Gaussian mechanism's RDP, at integer alpha by Zhu and Wang's
// binomial sum with E[(mu1/mu0)^l] = e^(l(l-1)/(2 sigma^2)), to prec bits.
// Errors for q outside (0, 1), sigma <= 0 or not finite, alpha outside
// [2, 4096] (*InputError), and for l(l-1)/(2 sigma^2) beyond 1e8 nats
// (ErrUnsupported).
func PoissonGaussianZW(q, sigma float64, alpha int64, prec uint) (*big.Float, error) {
	const fn = "PoissonGaussianZW"
	if err := checkZW(fn, q, alpha, prec); err != nil {
		return nil, err
	}
	if !finite(sigma) || sigma <= 0 {
		return nil, inErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if a := float64(alpha); a*(a-1)/(2*sigma*sigma) > 1e8 {
		return nil, fmt.Errorf("oracles.%s: exponent %g nats: %w", fn, a*(a-1)/(2*sigma*sigma), ErrUnsupported)
	}
	return stable(fn, prec, func(wp uint) *big.Float {
		s2 := newF(wp).Mul(fl(sigma, wp), fl(sigma, wp))
		G := bigfloat.Exp(newF(wp).Quo(fint(1, wp), s2)) // e^(1/sigma^2)
		m := make([]*big.Float, alpha+1)
		m[0] = fint(1, wp)
		step := fint(1, wp) // e^(l/sigma^2)
		for l := int64(1); l <= alpha; l++ {
			// M_l = M_(l-1) e^((l-1)/sigma^2)
			m[l] = newF(wp).Mul(m[l-1], step)
			step.Mul(step, G)
		}
		return zwForward(q, alpha, m, wp)
	})
}
