package reference

// The Poisson-sampled Laplace mechanism. With mu0 = Lap(0, b), mu1 = Lap(1, b)
// and c = 1/b, the density ratio r = mu1/mu0 is e^-c on x <= 0, e^c on
// x >= 1 and e^(2x-1)/b on (0, 1). mu0 gives the tails masses 1/2 and
// e^-c/2, and in u = (2x-1)/b the middle is
//
//	int_0^1 mu0(x) f(r(x)) dx = (1/4) e^(-c/2) int_{-c}^{c} e^(-u/2) f(e^u) du.
//
// With t = q (r - 1) every moment E_mu0[(1+t)^g] - 1 is E_mu0[h_g(t)]
// (E_mu0[t] = 0 exactly: r is a density ratio), summed by sampled.go's hAcc:
// two tail terms plus the middle by Gauss-Legendre on pieces of half-width
// at most 1 in u.
//
// Quadrature error (Trefethen, Approximation Theory and Approximation
// Practice, Theorem 19.3): an n-point rule on [-1, 1] errs by at most
// 64 K / (15 (1 - rho^-2) rho^(2n)) for an integrand analytic with |f| <= K
// inside the Bernstein ellipse E_rho. The integrand's singularities are at
// Im u = ±pi (where 1 - q + q e^u may vanish); the ellipse is kept within
// |Im u| <= 1.2, where Re(1 - q + q e^u) >= cos(1.2) (1 - q + q e^Re u) > 0,
// so on it |1 + t| <= m(Re u) and, for g < 0, |1 + t|^g <= (cos 1.2)^g
// m(Re u)^g, with m(x) = 1 - q + q e^x and 0 <= d log m/dx < 1. K is
// bounded from these in float64 logarithms (with a margin of nats far above
// their rounding) and compared with a proven lower bound on the sum, the two
// tail terms (h >= 0 everywhere), so the node count of each piece makes its
// error below 2^-wq of the sum; pieces whose whole bound is below that are
// skipped.

import (
	"fmt"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
	"math"
	"math/big"
)

// lapPlan is one Gauss-Legendre piece of the middle integral: its index
// and node count.
type lapPlan struct{ i, n int }

// planLaplaceMiddle returns the pieces (of npieces tiling [-c, c]) that can
// matter at precision wq and the nodes each needs, given the lower bound
// logSL on the sum.
func planLaplaceMiddle(kind hKind, g, q, c float64, npieces int, wq uint, logSL float64) ([]lapPlan, error) {
	hw := c / float64(npieces)
	gb := g // the exponent whose growth bounds the integrand
	switch kind {
	case hKLF:
		gb = 2
	case hKLB:
		gb = -1
	}
	pre := math.Log(0.25) - c/2 + math.Log(2*hw)
	target := float64(wq)*math.Ln2 + math.Log(float64(npieces)) + 3 - logSL + pre
	var out []lapPlan
	for i := range npieces {
		xa := -c + float64(2*i)*hw
		xb := xa + 2*hw
		// The piece's whole contribution bound: skip it if far below.
		skip := -xa/2 + math.Max(math.Abs(gb)*math.Max(math.Abs(xmath.LogMix(q, xa)), math.Abs(xmath.LogMix(q, xb))), 0) +
			math.Log1p(math.Abs(gb)*q*(math.Exp(xb)+1)) + 2
		if skip+pre < logSL-float64(wq)*math.Ln2-10 {
			continue
		}
		best := math.Inf(1)
		for rho := 1.05; ; rho *= 1.05 {
			b := hw * (rho - 1/rho) / 2
			if b > 1.2 || rho > 1e6 {
				break
			}
			D := hw * ((rho+1/rho)/2 - 1)
			lo, hi := xa-D, xb+D
			lM := math.Max(gb*xmath.LogMix(q, lo), gb*xmath.LogMix(q, hi))
			if gb < 0 {
				lM += gb * math.Log(math.Cos(b)) // (cos b)^g >= 1 for g < 0: log adds g log cos b > 0
			}
			lK := -lo/2 + xmath.LogAddExp(xmath.LogAddExp(lM, 0), math.Log(math.Abs(gb)*q*(math.Exp(hi)+1)+1e-300))
			if kind != hPow {
				lK += math.Log(3 + math.Pi) // |m log m| <= |m|^2 + 1 + pi |m|, and the like
			}
			lK += 3 // margin for the float64 evaluation of these bounds
			n := (target + lK + math.Log(64/15/(1-1/(rho*rho)))) / (2 * math.Log(rho))
			best = math.Min(best, n)
		}
		if best > 20000 {
			return nil, fmt.Errorf("%w: sampled Laplace needs more than 20000 nodes a piece", ErrTooLarge)
		}
		out = append(out, lapPlan{i, max(8, int(math.Ceil(best)))})
	}
	return out, nil
}

// ruleSize rounds a node count up to one of a few sizes (ratio 1.5), and
// the callers round the rule's precision up to a multiple of 256 bits, so
// that the rules, cached by (size, precision), are shared between calls
// whose working precisions differ (computing a rule costs more than using
// it). More nodes and bits than needed only shrink the error.
func ruleSize(n int) uint {
	s := 8
	for s < n {
		if s%3 == 0 {
			s = s / 3 * 4
		} else {
			s = s / 2 * 3
		}
	}
	return uint(s)
}

// laplaceMoment returns E_mu0[h(t)] at about wp bits (see the file comment).
func laplaceMoment(kind hKind, g, q, b float64, wp uint) (*big.Float, error) {
	c := 1 / b
	npieces := max(1, int(math.Ceil(c)))
	lowerL, lowerR := xmath.LaplaceTails(q, c)
	logSL := xmath.LogAddExp(-math.Ln2+lowerL.Log(xmath.MomentKind(kind), g), -math.Ln2-c+lowerR.Log(xmath.MomentKind(kind), g))
	return sampledMoment(wp, func(wq uint) (*hAcc, error) {
		plan, err := planLaplaceMiddle(kind, g, q, c, npieces, wq, logSL)
		if err != nil {
			return nil, err
		}
		a := newHAcc(kind, g, wq)
		qB := fl(q, wq)
		cB := newF(wq).Quo(intF(1, wq), fl(b, wq))
		half := fl(0.5, wq)
		tt := func(u *big.Float) *big.Float { return newF(wq).Mul(qB, expm1F(u, wq)) }
		// Tails: mass 1/2 at ratio e^-c, mass e^-c/2 at ratio e^c.
		a.add(half, tt(newF(wq).Neg(cB)))
		wr := expF(newF(wq).Neg(cB), wq)
		a.add(wr.Mul(wr, half), tt(cB))
		// Middle.
		hB := newF(wq).Quo(cB, intF(int64(npieces), wq))
		pre := expF(newF(wq).Quo(cB, intF(-2, wq)), wq)
		pre.Quo(pre, intF(4, wq))
		pre.Mul(pre, hB)
		for _, pl := range plan {
			rule := gaussLegendre(ruleSize(pl.n), (wq+255)&^255)
			uc := newF(wq).Mul(hB, intF(int64(2*pl.i+1), wq))
			uc.Sub(uc, cB)
			for j := range rule.x {
				d := newF(wq).Mul(hB, rule.x[j])
				for _, u := range []*big.Float{newF(wq).Sub(uc, d), newF(wq).Add(uc, d)} {
					w := expF(newF(wq).Quo(u, intF(-2, wq)), wq)
					w.Mul(w, rule.w[j])
					w.Mul(w, pre)
					a.add(w, tt(u))
				}
			}
		}
		if a.S.Sign() > 0 && !a.failed {
			// The tails are a proven lower bound: a sum below it means a
			// planning error, never a value to return.
			if ls, _ := logF(a.S, 64).Float64(); ls < logSL-1e-3 {
				return nil, fmt.Errorf("%w: sampled Laplace sum below its proven lower bound", ErrPrecision)
			}
		}
		return a, nil
	})
}

func (c Context) checkSampledLaplace(fn string, q, b, alpha float64) error {
	if err := checkSampledQ(fn, q); err != nil {
		return err
	}
	if math.IsNaN(b) || b <= 0 || math.IsInf(b, 0) {
		return inputErr(fn, "b", b, "scale must be finite and > 0")
	}
	if err := checkSampledOrder(fn, alpha); err != nil {
		return err
	}
	if b < 1e-3 && q > 0 && q < 1 {
		return fmt.Errorf("%w: %s: scale %g below 1e-3 (the quadrature's cost grows as 1/b)", ErrTooLarge, fn, b)
	}
	if q > 0 && q < minSampledLaplaceQ && !math.IsInf(alpha, 1) {
		return fmt.Errorf("%w: %s: q = %g below %g (the working precision grows as log(1/q))", ErrTooLarge, fn, q, minSampledLaplaceQ)
	}
	return nil
}

// minSampledLaplaceQ is the least q > 0 SampledLaplace takes at a finite
// order: the moment is summed with its leading 1 split off exactly, which
// takes about 2 log2(1/q) bits beyond the precision asked, and the
// Gauss-Legendre rules grow with them. At b = 1, alpha = 2, Prec 64 a
// call took 0.3 s at q = 1e-10, 10 s at 1e-100, 47 s at 1e-250 and more
// than 13 minutes at 2.2e-308 (a 2048-node rule at 2562 bits; found by
// TestContractSpecialInputs). fast.SampledLaplace has no such limit.
const minSampledLaplaceQ = 1e-100

// SampledLaplaceDirections returns both Rényi divergences of order alpha
// between the outputs of the Poisson-sampled Laplace mechanism (scale b,
// l1-sensitivity 1): with mu0 = Lap(0, b) and mu = (1-q) Lap(0, b) + q
// Lap(1, b), forward = D_alpha(mu || mu0) and backward = D_alpha(mu0 || mu).
// SampledLaplace returns the larger.
//
// Unlike the sampled Gaussian's (Mironov, Talwar, Zhang 2019, Theorem 5),
// which direction is larger is not settled in general; the tests measure it
// over q in [1e-6, 0.99], b in [0.05, 100] and orders in [1, 256] (see
// TestSampledLaplaceDirections), where the forward direction was never below
// the backward one.
//
// Special cases are those of SampledLaplace, for both values, except at
// alpha = +Inf, where forward = log(1 - q + q e^(1/b)) and backward =
// -log(1 - q + q e^(-1/b)).
func (c Context) SampledLaplaceDirections(q, b, alpha float64) (forward, backward *big.Float, err error) {
	const fn = "SampledLaplace"
	if err := c.checkSampledLaplace(fn, q, b, alpha); err != nil {
		return nil, nil, err
	}
	p := c.prec()
	switch q {
	case 0:
		return newF(p), newF(p), nil
	case 1: // mu = Lap(1, b); both directions are the Laplace mechanism's by symmetry
		v, err := c.Laplace(b, alpha)
		if err != nil {
			return nil, nil, err
		}
		return v, newF(p).Set(v), nil
	}
	dir := func(fwd bool) (*big.Float, error) {
		if math.IsInf(alpha, 1) {
			return ziv(p, func(wp uint) (*big.Float, error) {
				t := expm1F(newF(wp).Quo(intF(1, wp), fl(b, wp)), wp)
				if !fwd {
					t = expm1F(newF(wp).Quo(intF(-1, wp), fl(b, wp)), wp)
				}
				l := log1pF(t.Mul(t, fl(q, wp)), wp)
				if !fwd {
					l.Neg(l)
				}
				return l, nil
			})
		}
		kind, g := momentKind(alpha, fwd)
		return ziv(p, func(wp uint) (*big.Float, error) {
			S, err := laplaceMoment(kind, g, q, b, wp)
			if err != nil {
				return nil, err
			}
			return fromMoment(S, alpha, wp), nil
		})
	}
	if forward, err = dir(true); err != nil {
		return nil, nil, err
	}
	if backward, err = dir(false); err != nil {
		return nil, nil, err
	}
	return forward, backward, nil
}

// SampledLaplace returns the Rényi differential privacy of order alpha of
// the Poisson-sampled Laplace mechanism with sampling rate q, scale b and
// l1-sensitivity 1, add/remove neighbours: the exact value
//
//	max(D_alpha(mu || mu0), D_alpha(mu0 || mu)),
//	mu0 = Lap(0, b), mu = (1-q) Lap(0, b) + q Lap(1, b),
//
// correct to c.Prec bits by the Ziv loop (no published bound: Zhu and Wang
// 2019, "Poisson Subsampled Rényi Differential Privacy", ICML, give the
// forward direction at integer orders as a finite sum, which oracles
// evaluates to check this). Each direction is two closed-form tail terms
// plus one integral over [0, 1], by Gauss-Legendre with a proven error
// bound (see the file comment); the moment's leading 1 is split off
// exactly, so tiny q costs no accuracy.
//
// Special cases are:
//
//	SampledLaplace(q=0, b, alpha) = 0
//	SampledLaplace(q=1, b, alpha) = Laplace(b, alpha)
//	SampledLaplace(q, b, alpha=+Inf) = max(log(1 - q + q e^(1/b)), -log(1 - q + q e^(-1/b)))
//	SampledLaplace = error for q outside [0, 1], b <= 0, b = +Inf, alpha < 1
//	    or any NaN (*InputError), and for finite alpha above
//	    MaxFractionalOrder, b below 1e-3 with 0 < q < 1, or 0 < q < 1e-100
//	    (ErrTooLarge: see minSampledLaplaceQ)
func (c Context) SampledLaplace(q, b, alpha float64) (*big.Float, error) {
	f, bk, err := c.SampledLaplaceDirections(q, b, alpha)
	if err != nil {
		return nil, err
	}
	return maxF(f, bk), nil
}

// SampledLaplace is Context{}.SampledLaplace at DefaultPrec.
func SampledLaplace(q, b, alpha float64) (*big.Float, error) {
	return Context{}.SampledLaplace(q, b, alpha)
}

// SampledLaplaceDirections is Context{}.SampledLaplaceDirections at DefaultPrec.
func SampledLaplaceDirections(q, b, alpha float64) (forward, backward *big.Float, err error) {
	return Context{}.SampledLaplaceDirections(q, b, alpha)
}
