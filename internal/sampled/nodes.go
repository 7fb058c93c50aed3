package sampled

import (
	"math"
	"sync"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// glRule64 is an n-point Gauss-Legendre rule: positive nodes and weights.
type glRule64 struct{ x, w, lw []float64 } // lw: log w

var glRules sync.Map // int -> *glRule64

// glSizes are the rule sizes used; a needed n is rounded up to one.
var glSizes = []int{8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512}

func glRule(n int) *glRule64 {
	if r, ok := glRules.Load(n); ok {
		return r.(*glRule64)
	}
	r := &glRule64{}
	for i := 1; i <= n/2; i++ {
		x := math.Cos(math.Pi * (float64(i) - 0.25) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, x
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*x*p1-float64(k-1)*p0)/float64(k)
			}
			dp = float64(n) * (x*p1 - p0) / (x*x - 1)
			dx := p1 / dp
			x -= dx
			if math.Abs(dx) < 1e-17 {
				break
			}
		}
		r.x = append(r.x, x)
		w := 2 / ((1 - x*x) * dp * dp)
		r.w = append(r.w, w)
		r.lw = append(r.lw, math.Log(w))
	}
	glRules.Store(n, r)
	return r
}

// roundRule returns the index in glSizes of the smallest size >= n.
func roundRule(n float64) (int, bool) {
	for i, s := range glSizes {
		if float64(s) >= n {
			return i, true
		}
	}
	return 0, false
}

// lapNodes holds, for one piece and rule, what every order shares: each
// node's log weight lw (and w = e^lw), t, t's relative error dt, L =
// log1p(t), l1 = L - t and L's relative error dL.
type lapNodes struct {
	lw, w, t, dt, L, l1, dL, dl1 []float64
	// sumPow's: per-node error factors, their sum, max |L| (prepSum), and
	// the powers for g > 0 and g < 0.
	wLdL, wr     []float64
	sumWl1, maxL float64
	pow          [2]powState
	// lwErr bounds lw's rounding beyond 4u |lw|: lw is a sum of terms
	// larger than itself (up to c/2 each, cancelling at the left end).
	lwErr float64
}

// appendNode adds a node's order-independent data (setNode's).
func (p *lapNodes) appendNode(lw, t, dt, m, dm float64) {
	for _, s := range []*[]float64{&p.lw, &p.w, &p.t, &p.dt, &p.L, &p.l1, &p.dL, &p.dl1} {
		*s = append(*s, 0)
	}
	p.setNode(len(p.t)-1, lw, t, dt, m, dm)
}

// setNode writes node j's order-independent data. m, if > 0, is 1 + t
// formed directly with relative error dm (for t < -1/2, where 1 + t
// formed from t would cancel: q near 1 and a ratio near 0).
func (p *lapNodes) setNode(j int, lw, t, dt, m, dm float64) {
	var L, dL float64
	if m > 0 && t < -0.5 {
		L = math.Log(m)
		dL = 2*errfloat.Unit + dm/math.Abs(L)
	} else {
		L = math.Log1p(t)
		dL = 4 * errfloat.Unit
		if t != 0 {
			dL += dt * math.Abs(t) / ((1 + t) * math.Abs(L))
		}
	}
	l1 := L - t
	// l1's relative error: log1pmx's 6 ulps and t's, which |l1| >=
	// t^2/2 (1 - 2t/3) amplifies by t^2/((1+t)|l1|) <= 2/(1 + min(t, 0));
	// or the difference's propagated errors.
	var dl1 float64
	if math.Abs(t) < 0.5 {
		l1 = log1pmx(t)
		dl1 = 6*errfloat.Unit + 2*dt/(1+math.Min(t, 0))
	} else if l1 != 0 {
		dl1 = (math.Abs(L)*dL+math.Abs(t)*dt)/math.Abs(l1) + errfloat.Unit
	}
	p.lw[j], p.w[j], p.t[j], p.dt[j] = lw, math.Exp(lw), t, dt
	p.L[j], p.l1[j], p.dL[j], p.dl1[j] = L, l1, dL, dl1
}

// sumPow returns the sum of w h_g(t) over the nodes and a bound on its
// error, as hLin's kindPow case term by term (the same bound, written out
// here because this loop runs for every node and order); ok is false where
// hLin's would be. Where y = g L > 1 and usePowers is set (the caller
// sets it where some node has y > 1), em(y) = e^y - 1 - y takes e^y from
// powers (a product per node instead of an exponential), whose relative
// error rel is added.
func (p *lapNodes) sumPow(g float64, usePowers bool) (S, E float64, ok bool) {
	p.prepSum()
	var ey []float64
	var rel float64
	if usePowers {
		ey, rel = p.powers(g)
		ey = ey[:len(p.t)]
	}
	// E = sum of w (em's error + h's rounding and w's error) + |g| sum of
	// |em + y| w |L| dL (y's error) + |g| sum of w |l1| (2u + dl1) (g l1's).
	var Eem, Ey float64
	n := len(p.t)
	Ls, l1s, ws, wrs, wLdLs := p.L[:n], p.l1[:n], p.w[:n], p.wr[:n], p.wLdL[:n] // one bounds check each
	for j, t := range p.t {
		if t == 0 {
			continue
		}
		y := g * Ls[j]
		if y > linMax {
			return 0, 0, false
		}
		var emv, e float64
		if y > 1 && usePowers && ey[j] > 2.7 && ey[j] < 0x1p1000 { // else not a usable power (see powers)
			// e^y - 1 - y > e^y/3.8 for y > 1: the two roundings cost 2 ulps of it.
			e1 := ey[j]
			emv = e1 - 1 - y
			e = (rel+2*errfloat.Unit)*e1 + 2*errfloat.Unit*emv
		} else {
			emv = emSampled(y)
			e = 8 * errfloat.Unit * emv
		}
		h := emv + g*l1s[j]
		if !(h >= 0x1p-1000) {
			return 0, 0, false
		}
		w := ws[j]
		S += w * h
		Eem += w*e + h*wrs[j]
		Ey += math.Abs(emv+y) * wLdLs[j]
	}
	return S, Eem + math.Abs(g)*(Ey+p.sumWl1), true
}

// prepSum computes sumPow's per-node error factors once: w |L| dL, w (17u
// + 4u |lw|) (h's rounding, and w's error: a Gauss-Legendre weight,
// computed by Newton to within 4u, times two exponentials, 16u, and lw's
// own rounding) and the sum of w |l1| (2u + dl1); and max |L|.
func (p *lapNodes) prepSum() {
	if len(p.wr) == len(p.t) && p.wr != nil {
		return
	}
	n := len(p.t)
	block := make([]float64, 2*n)
	p.wLdL, p.wr = block[:n], block[n:]
	p.sumWl1, p.maxL = 0, 0
	for j, t := range p.t {
		w, L := p.w[j], math.Abs(p.L[j])
		p.wLdL[j] = w * L * p.dL[j]
		p.wr[j] = w * (17*errfloat.Unit + 4*errfloat.Unit*math.Abs(p.lw[j]) + p.lwErr)
		if t != 0 {
			p.sumWl1 += w * math.Abs(p.l1[j]) * (2*errfloat.Unit + p.dl1[j])
		}
		if L > p.maxL {
			p.maxL = L
		}
	}
	p.sumWl1 *= 1 + float64(n+2)*errfloat.Unit // the sum's own rounding
}

// powState holds e^(g L_j) for every node at one exponent g, so that the
// next order's powers are a product per node: a curve's orders step by
// 0.1 or 1, and an exponential per node and order was most of a curve's
// time.
type powState struct {
	g     float64   // ey[j] = e^(g L_j) (1 + d_j), |d_j| <= rel
	rel   float64   //
	steps int       // products since ey was last computed by exponentials
	ey    []float64 //
	step  float64   // mul[j] = e^(step L_j) (1 + d_j), |d_j| <= mrel
	mrel  float64   //
	mul   []float64 //
}

// maxPowSteps bounds the products between two fresh evaluations: rel grows
// by mrel + 3u and a little per product, so it stays near 40u (sumPow
// takes em(y) = e^y - 1 - y from the powers for y > 1, where em may be
// 3.8 times smaller than e^y).
const maxPowSteps = 8

// powers returns e^(g L_j) for every node and a bound on its relative
// error, where e^(g L_j) is a normal float64. Elsewhere a value may be 0,
// +Inf or NaN (an overflow at an earlier order stays one), and sumPow
// takes its exponential itself.
func (p *lapNodes) powers(g float64) ([]float64, float64) {
	s := &p.pow[0]
	if g < 0 {
		s = &p.pow[1]
	}
	n := len(p.L)
	if s.ey == nil {
		block := make([]float64, 2*n)
		s.ey, s.mul = block[:n], block[n:]
	} else if s.g == g {
		return s.ey, s.rel
	}
	// g and s.g of one sign within a factor 2: d = g - s.g is exact
	// (Sterbenz), and no node's power passes from below 2^-1000 to above
	// e in one step (|y| at most doubles), so a used product is formed
	// from normal numbers.
	near := s.rel > 0 && s.steps < maxPowSteps && math.Abs(g) <= 2*math.Abs(s.g) && math.Abs(s.g) <= 2*math.Abs(g)
	if near {
		d := g - s.g
		if s.step == 0 || math.Abs(d-s.step) > 0x1p-44*math.Abs(s.step) {
			// A new step: its factors by exponentials, each within 2 ulps
			// and the rounding of d L_j (u |d L_j|).
			for j, L := range p.L {
				s.mul[j] = math.Exp(d * L)
			}
			s.step, s.mrel = d, 2*errfloat.Unit+errfloat.Unit*math.Abs(d)*p.maxL*(1+2*errfloat.Unit)
		}
		// e^(d L) = e^(step L) e^(c), c = (d - step) L (exact difference,
		// |c| <= 2^-44 |step L|, a few ulps of g): e^c = 1 + c within c^2.
		c := d - s.step
		if c == 0 {
			for j := range s.ey {
				s.ey[j] *= s.mul[j]
			}
		} else {
			for j, L := range p.L {
				v := s.ey[j] * s.mul[j]
				s.ey[j] = v + v*(c*L)
			}
		}
		m := math.Abs(c) * p.maxL * (1 + 2*errfloat.Unit) // max |c L_j|
		s.rel += s.mrel + 3*errfloat.Unit + 2*m*m + errfloat.Unit*m
		s.g = g
		s.steps++
		return s.ey, s.rel
	}
	for j, L := range p.L {
		s.ey[j] = math.Exp(g * L)
	}
	s.g, s.rel, s.steps = g, 2*errfloat.Unit+errfloat.Unit*math.Abs(g)*p.maxL*(1+2*errfloat.Unit), 0
	return s.ey, s.rel
}
