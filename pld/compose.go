package pld

import "math"

// tmeas is a composed pair of measures on the grid: for grid index
// k0 + i, the upper mass is up[i] e^(logZ - lambda g) and the lower
// lo[i] e^(logZ - lambda g), g = (k0+i) h. slack (in the units of up)
// bounds what the upper vector leaves out: for every phi >= 0,
// E_U phi <= E_up phi + slack e^logZ sup_l phi(l) e^(-lambda l);
// slackLo bounds the tilted total variation |lo - X| of the lower vector
// from a measure X below the composed lower measure, so that
// E_L phi >= E_lo phi - slackLo e^logZ sup_l phi(l) e^(-lambda l)
// (doc.go, Method, step 3).
type tmeas struct {
	k0      int
	up, lo  []float64
	logZ    float64
	slack   float64
	slackLo float64
}

// dropFrac is the tilted mass, relative to the total, dropped at each end
// after a convolution.
const dropFrac = 1e-24

func fromStep(s stepGrid) tmeas {
	return normalise(truncate(tmeas{k0: s.k0, up: s.up, lo: s.lo, logZ: s.ref}, 0))
}

func sumUp(v []float64) float64 {
	var t float64
	for _, x := range v {
		t += x
	}
	return t * (1 + float64(len(v)+2)*u64)
}

// conv composes a and b (b == nil: a with itself).
func conv(a, b *tmeas) tmeas {
	sq := b == nil
	if sq {
		b = a
	}
	ru, rl, err := convPair(a.up, a.lo, b.up, b.lo, sq)
	// err bounds the 2-norm of either result's error vector, so the sum
	// of its absolute entry errors is at most sqrt(len) err.
	e1 := err * math.Sqrt(float64(len(ru))) * (1 + 4*u64)
	Ta, Tb := sumUp(a.up), sumUp(b.up)
	slack := a.slack*(Tb+b.slack) + b.slack*Ta + e1
	La, Lb := sumUp(a.lo), sumUp(b.lo)
	slackLo := a.slackLo*(Lb+b.slackLo) + b.slackLo*La + e1
	// The exact values are >= 0, so clamping at 0 moves no entry
	// further from them.
	for i := range ru {
		if ru[i] < 0 {
			ru[i] = 0
		}
		if rl[i] < 0 {
			rl[i] = 0
		}
	}
	r := tmeas{k0: a.k0 + b.k0, up: ru, lo: rl, logZ: a.logZ + b.logZ,
		slack: slack * (1 + 4*u64), slackLo: slackLo * (1 + 4*u64)}
	return normalise(truncate(r, 2*e1))
}

// truncate drops entries at both ends whose upper tilted mass sums to at
// most dropFrac of the total or budget (at each end); the dropped upper
// mass goes to slack, the dropped lower mass is simply lost (X restricted
// to the kept entries is still below the composed lower measure, and the
// kept entries' errors are unchanged).
func truncate(r tmeas, budget float64) tmeas {
	T := sumUp(r.up)
	lim := math.Max(T*dropFrac, budget)
	i, acc := 0, 0.0
	for i < len(r.up)-1 && acc+r.up[i] <= lim {
		acc += r.up[i]
		i++
	}
	j, acc2 := len(r.up), 0.0
	for j-1 > i && acc2+r.up[j-1] <= lim {
		acc2 += r.up[j-1]
		j--
	}
	r.slack += (acc + acc2) * (1 + float64(len(r.up))*u64)
	r.k0 += i
	r.up = r.up[i:j]
	r.lo = r.lo[i:j]
	return r
}

// normalise scales by a power of two (exact) so that max(up) is in [1, 2).
func normalise(r tmeas) tmeas {
	mx := 0.0
	for _, x := range r.up {
		mx = math.Max(mx, x)
	}
	if mx == 0 || math.IsInf(mx, 0) {
		return r
	}
	_, e := math.Frexp(mx)
	f := math.Ldexp(1, 1-e)
	for i := range r.up {
		r.up[i] *= f
		r.lo[i] *= f
	}
	r.slack *= f
	r.slackLo *= f
	r.logZ += float64(e-1) * math.Ln2
	return r
}

// power returns the n-fold composition by repeated squaring.
func power(s tmeas, n int) tmeas {
	var res *tmeas
	base := s
	for n > 0 {
		if n&1 == 1 {
			if res == nil {
				c := base
				res = &c
			} else {
				c := conv(res, &base)
				res = &c
			}
		}
		n >>= 1
		if n > 0 {
			base = conv(&base, nil)
		}
	}
	return *res
}

// composed is the result of a run in one direction.
type composed struct {
	m       tmeas
	h       float64
	lambda  float64
	inf     float64 // upper bound on the composed upper measure's mass at +Inf
	excess  float64 // sum over steps of their excess (see buildStep)
	scaleHi float64 // max(1, finite upper mass) product bound (for reporting)
	// prepared once (prepare): the untilted upper and lower masses
	// uU = up e^(logZ - lambda g), uL likewise, and eg = e^-g (where
	// gMax <= 600), the same at every eps.
	uU, uL, eg []float64
	gMax       float64
}

func (c *composed) prepare() {
	m := &c.m
	n := len(m.up)
	c.uU, c.uL, c.eg = make([]float64, n), make([]float64, n), make([]float64, n)
	c.gMax = float64(m.k0+n-1) * c.h
	for i := range m.up {
		g := float64(m.k0+i) * c.h
		f := math.Exp(m.logZ - c.lambda*g)
		c.uU[i] = m.up[i] * f
		c.uL[i] = m.lo[i] * f
		if c.gMax <= 600 {
			c.eg[i] = math.Exp(-g)
		}
	}
}

// delta returns certified bounds on this direction's delta(eps).
func (c *composed) delta(eps float64) Interval {
	if math.IsInf(eps, 1) {
		return Interval{0, math.Min(1, c.inf)}
	}
	m := &c.m
	if c.uU == nil {
		c.prepare()
	}
	var sHi, sLo float64
	i0 := 0
	if k := math.Floor(eps/c.h) - float64(m.k0); k > 0 {
		i0 = int(math.Min(k, float64(len(m.up))))
	}
	if eps >= 0 && eps <= 600 && c.gMax <= 600 {
		// w = 1 - e^eps e^-g: e^eps and e^-g within 4u each, their
		// product within 10u, so |w - (1 - e^(eps-g))| <= 10u e^(eps-g)
		// + u |w| <= 11u for g > eps; each term's error is at most 11u
		// times its U (or L), added below.
		E := math.Exp(eps)
		var sU, sL float64
		for i := i0; i < len(m.up); i++ {
			if !(float64(m.k0+i)*c.h > eps) {
				continue
			}
			w := 1 - E*c.eg[i]
			sHi += c.uU[i] * w
			sLo += c.uL[i] * w
			sU += c.uU[i]
			sL += c.uL[i]
		}
		sHi += 11 * u64 * sU
		sLo -= 11 * u64 * sL
	} else {
		for i := i0; i < len(m.up); i++ {
			g := float64(m.k0+i) * c.h
			if !(g > eps) {
				continue
			}
			w := -math.Expm1(eps - g)
			sHi += c.uU[i] * w
			sLo += c.uL[i] * w
		}
	}
	n := float64(len(m.up) + 40)
	sHi *= 1 + 16*n*u64
	sLo *= 1 - 16*n*u64
	// slack: sup_{l > eps} (1 - e^(eps-l)) e^(-lambda l)
	lam := c.lambda
	kap := 1.0
	if lam > 0 {
		kap = math.Exp(-math.Log1p(lam) + lam*(math.Log(lam)-math.Log1p(lam)))
	}
	sl := m.slack * math.Exp(m.logZ-lam*eps) * kap * (1 + 16*u64)
	hi := sHi + sl + c.inf
	slLo := m.slackLo * math.Exp(m.logZ-lam*eps) * kap * (1 + 16*u64)
	lo := sLo - slLo - c.excess*(sumUp(m.up)+m.slack)*math.Exp(m.logZ-lam*eps)*kap*(1+16*u64)
	if lo < 0 {
		lo = 0
	}
	if hi > 1 {
		hi = 1
	}
	return Interval{lo, hi * (1 + 4*u64)}
}
