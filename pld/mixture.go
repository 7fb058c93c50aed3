package pld

import (
	"math"
	"strings"
)

// gaussMix is a mixture sum_i w_i N(m_i, s^2) (a common s), each weight
// given as a float64 within wErr relative.
type gaussMix struct {
	w, m []float64
	wErr float64
	lw   []float64 // log w, set by gaussMixSpec
}

// withLogs returns the mixture with its log-weights.
func (g gaussMix) withLogs() gaussMix {
	g.lw = make([]float64, len(g.w))
	for i, w := range g.w {
		g.lw[i] = math.Log(w)
	}
	return g
}

// gaussMixSpec returns the monoSpec of the pair P against Q (mixtures of
// one noise s) whose loss increases with x: L(x) = log sum_i w_i
// e^((x m_i - m_i^2/2)/s^2) - log sum_j v_j e^((x n_j - n_j^2/2)/s^2) (the
// common factor e^(-x^2/(2 s^2)) of the densities cancels, so no term
// grows like x^2).
func gaussMixSpec(name string, s float64, P, Q gaussMix) *monoSpec {
	P, Q = P.withLogs(), Q.withLogs()
	inv := 1 / (s * s) // within 2u of 1/s^2
	// lse returns log sum_i w_i e^((x m_i - m_i^2/2)/s^2) and its error:
	// each exponent t_i = log w_i + (x m_i - m_i^2/2) inv: log within 4u
	// plus the weight's error (1.01 wErr), x m_i, m_i^2/2 and their
	// difference within u of their magnitudes each, the product by inv
	// 3u; the sum of exponentials e^(t_i - t_max) within (4 + n) u
	// relative (Exp 4u, its argument's rounding u |t_i - t_max| more),
	// its log 4u more.
	lse := func(mx gaussMix, x float64) (float64, float64) {
		// two passes, no allocation: the largest exponent and its error
		// bound, then the sum
		tmax, emax := math.Inf(-1), 0.0
		for i, w := range mx.w {
			if w == 0 {
				continue
			}
			lw := mx.lw[i]
			a := x*mx.m[i] - mx.m[i]*mx.m[i]/2
			t := lw + a*inv
			e := 4*u64*math.Abs(lw) + 1.01*mx.wErr + (3*(math.Abs(x*mx.m[i])+mx.m[i]*mx.m[i]/2)+3*math.Abs(a))*inv*u64 + u64*math.Abs(t)
			tmax = math.Max(tmax, t)
			emax = math.Max(emax, e)
		}
		var sum, se float64
		for i, w := range mx.w {
			if w == 0 {
				continue
			}
			d := mx.lw[i] + (x*mx.m[i]-mx.m[i]*mx.m[i]/2)*inv - tmax
			v := math.Exp(d)
			sum += v
			se += v * (5 + 1.01*math.Abs(d)) * u64
		}
		ls := math.Log(sum)
		return tmax + ls, (emax + (se/sum+float64(len(mx.w))*u64)*1.01 + 4*u64*math.Abs(ls) + u64*math.Abs(tmax+ls)) * (1 + 4*u64)
	}
	mass := func(mx gaussMix) func(a, b float64) sc {
		return func(a, b float64) sc {
			var r sc
			for i, w := range mx.w {
				if w == 0 {
					continue
				}
				c := normMass(a, b, mx.m[i], s)
				c = c.scale(w)
				c.err += mx.wErr * math.Abs(c.m) * 1.01
				r = r.addTo(c)
			}
			return r
		}
	}
	// the extreme means: as x -> +Inf the loss grows like x (P's largest
	// mean - Q's largest)/s^2, as x -> -Inf like x (P's least - Q's least)/s^2
	ext := func(mx gaussMix) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for i, m := range mx.m {
			if mx.w[i] > 0 {
				lo, hi = math.Min(lo, m), math.Max(hi, m)
			}
		}
		return lo, hi
	}
	pmin, pmax := ext(P)
	qmin, qmax := ext(Q)
	spec := &monoSpec{
		name: name,
		xa:   math.Inf(-1), xb: math.Inf(1),
		loss: func(x float64) (float64, float64) {
			a, ea := lse(P, x)
			b, eb := lse(Q, x)
			return a - b, (ea + eb + u64*math.Abs(a-b)) * (1 + 2*u64)
		},
		pMass: mass(P), qMass: mass(Q),
		// The tilt e^(lambda L) shifts P's right tail by lambda (pmax -
		// qmax) and its left one by lambda (pmin - qmin) (the loss's
		// slopes there); 13 s beyond leaves negligible tilted mass, and
		// the tail budget may cut nearer.
		cuts: func(lambda, tail float64) (float64, float64) {
			lambda = math.Max(lambda, 0)
			xl := pmin - 13*s + math.Min(0, lambda*(pmin-qmin))
			xr := pmax + 13*s + math.Max(0, lambda*(pmax-qmax))
			if z := tailZ(tail); z > 0 {
				// the large losses' side goes where the budget says,
				// nearer or farther; the other only moves in
				xl, xr = math.Max(xl, pmin-z*s), pmax+z*s
			}
			return xl, xr
		},
	}
	// As x -> +Inf the loss tends to +Inf when P's largest mean is above
	// Q's, else (they are equal: the loss increases) to the log of the
	// ratio of the weights there (the logs within 4u, the sums (n+1) u).
	spec.supLoss = inf
	if pmax <= qmax {
		var wp, wq float64
		for i, m := range P.m {
			if m == pmax {
				wp += P.w[i]
			}
		}
		for i, m := range Q.m {
			if m == qmax {
				wq += Q.w[i]
			}
		}
		l := math.Log(wp) - math.Log(wq)
		e := 4*u64*(math.Abs(math.Log(wp))+math.Abs(math.Log(wq))) + float64(len(P.w)+len(Q.w)+2)*u64*1.01 + 1.01*(P.wErr+Q.wErr)
		spec.supLoss = math.Nextafter(l+e+u64*math.Abs(l), inf)
	}
	spec.mgf = func(lambda float64) float64 {
		// midpoint quadrature of log E_P e^(lambda L) over the cut range
		xl, xr := spec.cuts(lambda, 0)
		const n = 400 // an estimate: it only chooses the tilt
		dx := (xr - xl) / n
		vals := make([]float64, n)
		best := math.Inf(-1)
		for i := range vals {
			x := xl + (float64(i)+0.5)*dx
			L, _ := spec.loss(x)
			a, _ := lse(P, x)
			// log p(x) = a - x^2/(2 s^2) - log(s sqrt(2 pi))
			vals[i] = a - x*x*inv/2 + lambda*L
			best = math.Max(best, vals[i])
		}
		var sum float64
		for _, v := range vals {
			sum += math.Exp(v - best)
		}
		return best + math.Log(sum*dx/s) - logSqrt2Pi
	}
	return spec
}

// normMass returns the N(m, s^2)-mass of [a, b] (a may be -Inf, b +Inf):
// normInt of the standardised ends, plus the error of standardising:
// (x - m)/s within (2|x - m|/s + |z|) u of the exact, which moves the mass
// by at most the density there (times 1.01) times that.
func normMass(a, b, m, s float64) sc {
	if !(b > a) {
		return sc{}
	}
	za, zb := (a-m)/s, (b-m)/s
	var r sc
	switch {
	case math.IsInf(a, -1) && math.IsInf(b, 1):
		return sc{1, 0, 0}
	case math.IsInf(a, -1):
		r = normUpTo(zb)
	case math.IsInf(b, 1):
		r = normInt(za, inf)
	default:
		w := zb - za
		if !(w > 0) {
			w = 0
		}
		r = normInt(za, w)
		// w within u|w|: the right end za + w moves by that much more
		r = r.addTo(sc{0, logPhi(math.Min(math.Abs(za), math.Abs(zb))), u64 * w * 1.01})
	}
	for _, z := range []float64{za, zb} {
		if math.IsInf(z, 0) {
			continue
		}
		dz := (2*math.Abs(z) + math.Abs(z)) * u64 * 1.01
		r = r.addTo(sc{0, logPhi(math.Max(math.Abs(z)-dz, 0)), dz * 1.01})
	}
	return r
}

// reflect returns the mixture of x -> -x.
func (g gaussMix) reflect() gaussMix {
	m := make([]float64, len(g.m))
	for i, v := range g.m {
		m[i] = -v
	}
	return gaussMix{w: g.w, m: m, wErr: g.wErr}
}

// sgmReplaceMeasure is one step of the SGM under ReplaceOne:
// (1-q) N(0, s^2) + q N(-1, s^2) against (1-q) N(0, s^2) + q N(1, s^2)
// (dp_accounting's REPLACE adjacency), whose loss decreases in x: given
// reflected. The pair is symmetric (x -> -x swaps P and Q).
func sgmReplaceMeasure(q, s float64) measure {
	P := gaussMix{w: []float64{1 - q, q}, m: []float64{0, 1}, wErr: u64}
	Q := gaussMix{w: []float64{1 - q, q}, m: []float64{0, -1}, wErr: u64}
	return gaussMixSpec("sgm-replace "+fmtF(q)+" "+fmtF(s), s, P, Q)
}

func (e MixtureOfGaussians) pair(rel Relation) (pairOf, error) {
	if rel == ReplaceOne {
		return pairOf{}, relErr(e, rel, "ADD_OR_REMOVE_ONE, REPLACE_SPECIAL")
	}
	// the P-mass at sensitivity 0 (no loss there) and the rest
	var p0 float64
	var w, m []float64
	for i, c := range e.Sensitivities {
		if e.Probs[i] == 0 {
			continue
		}
		if c == 0 {
			p0 += e.Probs[i]
		}
		w = append(w, e.Probs[i])
		m = append(m, c)
	}
	if p0 == 1 || len(w) == 1 && m[0] == 0 {
		return pairOf{noop: true}, nil
	}
	name := e.String()
	if e.Sigma == 0 {
		// D' is an atom at each c: remove, loss log(p0) at 0 and +Inf
		// elsewhere; add, the loss at 0 is -log(p0) (+Inf when p0 = 0:
		// then Q has no mass where P has all of it)
		if p0 == 0 {
			return pairOf{nonPrivate: true}, nil
		}
		l := math.Log(p0)
		le := 4*u64*math.Abs(l) + float64(len(w))*u64*1.01
		rem := (&atomMeasure{name: name + " remove", atoms: []atom{{within(p0, float64(len(w))*u64), l, le}}, infLo: (1 - p0) * (1 - float64(len(w)+1)*u64), infHi: math.Min(1, (1-p0)*(1+float64(len(w)+1)*u64))}).withLattice()
		add := (&atomMeasure{name: name + " add", atoms: []atom{{exactSC(1), -l, le}}}).withLattice()
		return exactPair(rem, add), nil
	}
	P := gaussMix{w: w, m: m, wErr: 2 * u64}
	Q := gaussMix{w: []float64{1}, m: []float64{0}}
	rem := gaussMixSpec(name+" remove", e.Sigma, P, Q)
	// add: P = N(0), Q the mixture; the loss decreases: reflected
	add := gaussMixSpec(name+" add", e.Sigma, Q.reflect(), P.reflect())
	return exactPair(rem, add), nil
}

// keyOf joins parts into a key.
func keyOf(parts ...string) string { return strings.Join(parts, " ") }
