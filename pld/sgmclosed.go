package pld

import (
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// sgmOneStep returns the exact delta(eps) of one step of the
// Poisson-subsampled Gaussian (sampling rate q, noise sigma, sensitivity
// 1), max of the two directions, as a certified float64 interval.
//
// Method. With s = sigma, u(x) = (2x-1)/(2 s^2) and
// L(x) = log(1 - q + q e^u(x)) (increasing in x):
//
//	remove: P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2), loss L(X);
//	        L > eps iff X > x_eps = s^2 log((e^eps - 1 + q)/q) + 1/2, so
//	        delta = (1-q) Qn(x_eps/s) + q Qn((x_eps-1)/s) - e^eps Qn(x_eps/s)
//	        (for e^eps <= 1-q every x qualifies: delta = 1 - e^eps).
//	add:    P = N(0,s^2), Q the mixture, loss -L(X); -L > eps iff
//	        X < x_-eps (needs e^-eps > 1-q, else delta = 0), so
//	        delta = Phi(x/s) - e^eps ((1-q) Phi(x/s) + q Phi((x-1)/s)).
//
// (Qn is the normal upper tail, Phi = Qn(-.).) Both are evaluated in
// big.Float at two precisions until they agree to 64 bits, then rounded
// outward by 2^-60 relative; the profile is the larger of the two.
func sgmOneStep(q, sigma, eps float64) Interval {
	switch {
	case math.IsInf(eps, 1):
		return Interval{0, 0}
	case math.IsInf(eps, -1):
		return Interval{1, 1}
	case q == 0:
		return Interval{0, 0}
	}
	eval := func(wp uint) *big.Float {
		one := newF(wp).SetInt64(1)
		bq := newF(wp).SetFloat64(q)
		s := newF(wp).SetFloat64(sigma)
		s2 := newF(wp).Mul(s, s)
		e := newF(wp).SetFloat64(eps)
		ee := bigfloat.Exp(e)
		omq := newF(wp).Sub(one, bq)
		xOf := func(t *big.Float) *big.Float { // s^2 log((t - 1 + q)/q) + 1/2
			a := newF(wp).Sub(t, omq)
			a.Quo(a, bq)
			a = bigfloat.Log(a)
			a.Mul(a, s2)
			return a.Add(a, newF(wp).SetFloat64(0.5))
		}
		// remove
		var rem *big.Float
		if ee.Cmp(omq) <= 0 {
			rem = newF(wp).Sub(one, ee)
		} else {
			x := xOf(ee)
			z0 := newF(wp).Quo(x, s)
			z1 := newF(wp).Quo(newF(wp).Sub(x, one), s)
			q0 := bigNormTail(z0, wp)
			q1 := bigNormTail(z1, wp)
			rem = newF(wp).Mul(newF(wp).Sub(omq, ee), q0)
			rem.Add(rem, newF(wp).Mul(bq, q1))
		}
		// add
		add := newF(wp)
		eme := newF(wp).Quo(one, ee)
		if q < 1 && eme.Cmp(omq) > 0 {
			x := xOf(eme)
			z0 := newF(wp).Quo(x, s)
			z1 := newF(wp).Quo(newF(wp).Sub(x, one), s)
			p0 := bigNormTail(newF(wp).Neg(z0), wp)
			p1 := bigNormTail(newF(wp).Neg(z1), wp)
			t := newF(wp).Mul(omq, p0)
			t.Add(t, newF(wp).Mul(bq, p1))
			t.Mul(t, ee)
			add.Sub(p0, t)
		}
		if add.Cmp(rem) > 0 {
			return add
		}
		return rem
	}
	wp := uint(128)
	for {
		x, y := eval(wp), eval(2*wp)
		if agreeBits(x, y, 64) || wp > 1<<15 {
			return outward(y, 0x1p-60)
		}
		wp *= 2
	}
}
