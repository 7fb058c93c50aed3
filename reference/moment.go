package reference

// The moment I(beta) = E_{z~mu0}[((1-q) + q L(z))^beta] of the sampled
// Gaussian mechanism, mu0 = N(0, s^2), L(z) = exp((2z-1)/(2 s^2)), for
// 0 < q < 1, 0 < s < inf and any real beta. The forward divergence
// D_a(mu||mu0) is log I(a)/(a-1); the backward one D_a(mu0||mu) is
// log I(1-a)/(a-1).
//
// Method (Mironov, Talwar, Zhang 2019, arXiv 1908.10530, section 3.3, made to
// converge geometrically). Let z0 = 1/2 + s^2 log((1-q)/q), where qL = 1-q,
// and u = (z - z0)/s^2, so that (1-q) + qL = (1-q)(1 + e^u). Fix c >= 1.
//
//	left,  u <= -c: (1+e^u)^beta = sum_k C(beta,k) e^(ku), and
//	       int_{-inf}^{zL} mu0 e^(ku) = (q/(1-q))^k exp((k^2-k)/(2s^2)) Q((k-zL)/s);
//	right, u >= c:  (1+e^u)^beta = sum_j C(beta,j) e^((beta-j)u), and with m = beta-j
//	       int_{zR}^{inf} mu0 (qL)^m (1-q)^j = q^m (1-q)^j exp((m^2-m)/(2s^2)) Q((zR-m)/s);
//	middle, |u| < c: Gauss-Legendre on pieces of half-width min(1, 1/s) in u.
//
// MTZ split at u = 0, where both series converge only polynomially (the
// peers' bugs live there). On u <= -c, e^u <= e^-c, so consecutive terms
// satisfy |t_(k+1)/t_k| <= e^-c |beta-k|/(k+1), and once that bound rho < 1
// for all later k the tail is at most |t_k| rho/(1-rho): a proven stopping
// rule. Likewise on the right. c grows with |beta| for negative beta so that
// the alternating series cancels at most a factor e^2.
//
// All terms are first estimated in float64 (log-magnitudes, error far below
// the 30-nat margin), which decides which terms can change the result at the
// working precision and sets a common scale M, so that no big.Float leaves its
// exponent range. The kept terms are then evaluated in big.Float.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

var errCancelled = errors.New("reference: series cancelled beyond the working precision")

// errOutOfRange reports a term whose exponent is beyond big.Float's range.
var errOutOfRange = fmt.Errorf("%w: a term of the moment overflows big.Float", ErrTooLarge)

// maxTerms bounds each series; reaching it is an error, never a truncation.
const maxTerms = 2_000_000

type termEst struct {
	k    int
	est  float64 // log |term|, float64 estimate
	sign int
}

// logMomentSeries returns log I(beta) at working precision wp. cache, if
// not nil, must belong to this (q, sigma); it shares the beta-independent
// work between the orders of a curve.
func logMomentSeries(q, sigma, beta float64, wp uint, cache *curveCache) (*big.Float, error) {
	s2 := sigma * sigma
	lq, l1q := xmath.Log(q), math.Log1p(-q)
	z0 := 0.5 + s2*(l1q-lq)
	c := 1.0
	if beta < 0 && math.Log(-beta) > c {
		c = math.Log(-beta)
	}
	// The middle strip's piece count (below) depends on c and sigma only;
	// checked first so that a sigma beyond range fails before the series
	// are planned (at sigma = 1e300 planning took a second).
	if c*max(1, sigma) > maxTerms {
		return nil, ErrTooLarge
	}
	zL, zR := z0-c*s2, z0+c*s2
	budget := float64(wp)*math.Ln2 + 30 // nats below the largest term that still matter
	ec := math.Exp(-c)

	// The series terms' float64 estimates, with the proven tail bound as the
	// stopping rule. side = +1 left (index k), -1 right (index j).
	plan := func(side int) ([]termEst, error) {
		var out []termEst
		logC, sign := 0.0, 1
		runMax := math.Inf(-1)
		for k := 0; ; k++ {
			if k > maxTerms {
				return nil, ErrTooLarge
			}
			fk := float64(k)
			var est float64
			if side > 0 {
				est = logC + beta*l1q + fk*(lq-l1q) + (fk*fk-fk)/(2*s2) + logTailEstimate((fk-zL)/sigma)
			} else {
				m := beta - fk
				est = logC + m*lq + fk*l1q + (m*m-m)/(2*s2) + logTailEstimate((zR-m)/sigma)
			}
			out = append(out, termEst{k: k, est: est, sign: sign})
			runMax = max(runMax, est)
			d := beta - fk
			if d == 0 { // beta a non-negative integer: the series is finite
				break
			}
			ratio := math.Max(math.Abs(d)/(fk+1), 1) * ec
			if ratio < 1 && est+math.Log(ratio/(1-ratio)) < runMax-budget {
				break
			}
			logC += math.Log(math.Abs(d)) - math.Log(fk+1)
			if d < 0 {
				sign = -sign
			}
		}
		return out, nil
	}
	left, err := plan(+1)
	if err != nil {
		return nil, err
	}
	right, err := plan(-1)
	if err != nil {
		return nil, err
	}
	seriesMax := math.Inf(-1)
	for _, t := range left {
		seriesMax = max(seriesMax, t.est)
	}
	for _, t := range right {
		seriesMax = max(seriesMax, t.est)
	}

	// Big-float constants.
	sigB := fl(sigma, wp)
	s2B := newF(wp).Mul(sigB, sigB)
	lqB := logF(fl(q, wp), wp)
	l1qB := log1pF(fl(-q, 64), wp)
	z0B := newF(wp).Sub(l1qB, lqB)
	z0B.Mul(z0B, s2B)
	z0B.Add(z0B, fl(0.5, wp))
	cB := fl(c, wp)
	zLB := newF(wp).Sub(z0B, newF(wp).Mul(cB, s2B))
	zRB := newF(wp).Add(z0B, newF(wp).Mul(cB, s2B))
	betaB := fl(beta, wp)
	logNorm := logF(newF(wp).Quo(sigB, consts(wp).invSqrt2Pi), wp) // log(s sqrt(2 pi))

	// Middle strip: pieces in u of width h <= 2 (half-width <= 1, and <= 1/s
	// so that a piece spans at most ~2 standard deviations of mu0).
	h := 2 * math.Min(1, 1/sigma)
	npieces := int(math.Ceil(2 * c / h))
	if npieces > maxTerms {
		return nil, ErrTooLarge
	}
	h = 2 * c / float64(npieces)
	type piece struct {
		i     int     // index: the piece spans [-c + i h, -c + (i+1) h] in u
		ua    float64 // lower end in u
		bound float64 // log of an upper bound on the piece's integral
	}
	var pieces []piece
	softplus := func(u float64) float64 {
		if u > 0 {
			return u + math.Log1p(math.Exp(-u))
		}
		return math.Log1p(math.Exp(u))
	}
	for i := range npieces {
		ua := -c + float64(i)*h
		ub := ua + h
		za, zb := z0+ua*s2, z0+ub*s2
		zc := math.Max(za, math.Min(zb, 0)) // where mu0 peaks on the piece
		b := math.Log(zb-za) - zc*zc/(2*s2) - math.Log(sigma*math.Sqrt(2*math.Pi)) +
			beta*l1q + math.Max(beta*softplus(ua), beta*softplus(ub))
		pieces = append(pieces, piece{i, ua, b})
	}
	slices.SortFunc(pieces, func(a, b piece) int { return -cmpF(a.bound, b.bound) })

	M := seriesMax
	if len(pieces) > 0 {
		M = math.Max(M, pieces[0].bound)
	}
	MB := fl(M, wp)
	sum := newF(wp)

	// Middle: evaluate pieces by decreasing bound while they can matter
	// relative to the largest value known to be attained.
	attained := seriesMax
	if npieces > 0 {
		// Gauss-Legendre error on [-1, 1] is O(K rho^-2n) for an integrand
		// analytic with |f| <= K inside the ellipse E_rho (Trefethen, ATAP,
		// Thm 19.3). In half-widths hw the nearest singularities (u = ±i pi)
		// are d = pi/hw away, so rho < d + sqrt(d^2+1). Inside E_rho the
		// integrand exceeds its values on the piece by at most e^G, with
		// G = ((rho+1/rho)/2 - 1) hw (|beta| + |z|)   (real overhang)
		//   + s^2 hw^2 (rho-1/rho)^2 / 8               (mu0 off the axis).
		// Pick the rho that needs the fewest nodes.
		hw := h / 2
		zmax := math.Min(math.Max(math.Abs(zL), math.Abs(zR)), 40*sigma+math.Abs(beta))
		d := math.Pi / hw
		rhoMax := 0.9 * (d + math.Sqrt(d*d+1))
		best := math.Inf(1)
		for rho := 2.0; rho <= rhoMax; rho *= 1.25 {
			G := ((rho+1/rho)/2-1)*hw*(math.Abs(beta)+zmax) + s2*hw*hw*(rho-1/rho)*(rho-1/rho)/8
			best = math.Min(best, (float64(wp)*math.Ln2+G+12)/(2*math.Log(rho)))
		}
		nodes := uint(math.Ceil(best)) + 4
		rule := gaussLegendre(nodes, wp)
		// Tile [-c, c] exactly in big.Float: float64 ends would leave gaps.
		hB := newF(wp).Quo(newF(wp).Mul(cB, intF(2, wp)), intF(int64(npieces), wp))
		hB.SetMantExp(hB, -1) // glPiece takes the half-width
		for _, p := range pieces {
			if p.bound < attained-budget {
				break
			}
			uc := newF(wp).Mul(hB, intF(int64(2*p.i+1), wp))
			uc.Sub(uc, cB)
			parts := cache.nodeParts(nodeKey{wp, c, p.i, rule.n}, func() []nodePart {
				return glNodeParts(rule, uc, hB, z0B, s2B, l1qB, logNorm, wp)
			})
			v := glSum(rule, parts, hB, s2B, betaB, MB, wp)
			sum.Add(sum, v)
			if v.Sign() > 0 {
				lv, _ := logF(v, 64).Float64()
				attained = math.Max(attained, lv+M)
			}
		}
	}

	// Series terms that can matter at this precision.
	nterms := float64(len(left) + len(right))
	top := math.Max(attained, seriesMax)
	cut := top - budget - math.Log(nterms+1)
	sc := &seriesConsts{sigB, s2B, zLB, zRB, betaB, lqB, l1qB, MB, wp, c, cache}
	sc.add(sum, left, +1, top, cut)
	sc.add(sum, right, -1, top, cut)
	if sum.Sign() <= 0 {
		return nil, errCancelled
	}
	if sum.IsInf() { // a term beyond big.Float's range: not reached since tinysigma.go, but never a panic
		return nil, errOutOfRange
	}
	out := logF(sum, wp)
	return out.Add(out, MB), nil
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// seriesConsts are one evaluation's constants for the series terms.
type seriesConsts struct {
	sig, s2, zL, zR, beta, lq, l1q, M *big.Float
	wp                                uint
	c                                 float64
	cache                             *curveCache
}

// add adds the kept terms of one series, scaled by e^-M, to sum.
//
// A term e^-d below the largest needs only wp - d/ln2 bits of its own for the
// sum to keep wp bits, so each is evaluated at that precision (plus guard,
// rounded up to a multiple of 32 so that a curve's orders can share the
// left series' normal tails, which do not depend on beta).
func (sc *seriesConsts) add(sum *big.Float, terms []termEst, side int, top, cut float64) {
	wpSum := sc.wp
	absC := intF(1, wpSum+24) // |C(beta, k)|, updated incrementally
	d := newF(wpSum + 24)
	for i, t := range terms {
		if i > 0 {
			k := int64(terms[i-1].k)
			d.Sub(sc.beta, intF(k, 64))
			absC.Mul(absC, d.Abs(d))
			absC.Quo(absC, intF(k+1, 64))
		}
		if t.est < cut {
			continue
		}
		wp := (wpSum + 24 - min(wpSum-40, uint(math.Max(0, (top-t.est)/math.Ln2))) + 31) &^ 31
		k := intF(int64(t.k), wp)
		var X *big.Float // the term's exponent
		var tl tail
		if side > 0 {
			// X = beta log(1-q) + k (log q - log(1-q)) + (k^2-k)/(2 s^2)
			X = newF(wp).Sub(sc.lq, sc.l1q)
			X.Mul(X, k)
			X.Add(X, newF(wp).Mul(sc.beta, sc.l1q))
			e := newF(wp).Mul(k, k)
			e.Sub(e, k)
			e.Quo(e, newF(wp).Mul(intF(2, 64), sc.s2))
			X.Add(X, e)
			tl = sc.cache.tail(tailKey{wp, sc.c, t.k}, func() tail {
				x := newF(wp).Sub(k, sc.zL)
				return normTail(x.Quo(x, sc.sig), wp)
			})
		} else {
			m := newF(wp).Sub(sc.beta, k)
			X = newF(wp).Mul(m, sc.lq)
			X.Add(X, newF(wp).Mul(k, sc.l1q))
			e := newF(wp).Mul(m, m)
			e.Sub(e, m)
			e.Quo(e, newF(wp).Mul(intF(2, 64), sc.s2))
			X.Add(X, e)
			x := newF(wp).Sub(sc.zR, m)
			tl = normTail(x.Quo(x, sc.sig), wp)
		}
		if tl.s != nil {
			X.Sub(X, tl.s)
		}
		X.Sub(X, sc.M)
		v := expF(X, wp)
		v.Mul(v, tl.m)
		v.Mul(v, absC)
		v.SetPrec(wpSum)
		if t.sign < 0 {
			v.Neg(v)
		}
		sum.Add(sum, v)
	}
}

// nodePart is the beta-independent part of the middle integrand at a node:
// the integrand is exp(a + beta s - M), a = -z^2/(2 s^2) - log(s sqrt(2 pi)),
// s = log(1-q) + log(1 + e^u).
type nodePart struct{ a, s *big.Float }

// glNodeParts evaluates the node parts of the piece of u-centre uc and
// half-width h, with z = z0 + s^2 u: for each node x, at uc + h x and uc - h x.
func glNodeParts(rule *glRule, uc, h, z0, s2, l1q, logNorm *big.Float, wp uint) []nodePart {
	two := intF(2, wp)
	part := func(u *big.Float) nodePart {
		z := newF(wp).Mul(s2, u)
		z.Add(z, z0)
		a := newF(wp).Mul(z, z)
		a.Quo(a, newF(wp).Mul(two, s2))
		a.Neg(a)
		a.Sub(a, logNorm)
		sp := softplusF(u, wp)
		return nodePart{a, sp.Add(sp, l1q)}
	}
	out := make([]nodePart, 0, 2*len(rule.x))
	for _, x := range rule.x {
		dx := newF(wp).Mul(h, x)
		out = append(out, part(newF(wp).Add(uc, dx)), part(newF(wp).Sub(uc, dx)))
	}
	return out
}

// glSum integrates mu0(z) (1-q)^beta (1+e^u)^beta e^-M over a piece from its
// node parts; dz = s^2 du.
func glSum(rule *glRule, parts []nodePart, h, s2, beta, M *big.Float, wp uint) *big.Float {
	// Two buffers for X and for sum, as in expF: the same values without
	// math/big's new mantissa for a result written over an operand.
	sum, sum2 := newF(wp), newF(wp)
	X, X2 := newF(wp), newF(wp)
	for i, w := range rule.w {
		for _, p := range parts[2*i : 2*i+2] {
			X2.Mul(beta, p.s)
			X.Add(X2, p.a)
			X2.Sub(X, M)
			v := expF(X2, wp)
			sum2.Add(sum, v.Mul(v, w))
			sum, sum2 = sum2, sum
		}
	}
	sum.Mul(sum, h)
	return sum.Mul(sum, s2)
}

// softplusF returns log(1 + e^u).
func softplusF(u *big.Float, wp uint) *big.Float {
	if u.Sign() > 0 {
		e := expF(newF(wp).Neg(u), wp)
		r := log1pF(e, wp)
		return r.Add(r, u)
	}
	return log1pF(expF(u, wp), wp)
}
