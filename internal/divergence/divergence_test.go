package divergence

import (
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"
)

const prec = 256

// tol is the relative error allowed above the exact value: the doc
// comments of fast.Divergence and fast.GaussianDivergence measure below
// 7e-15 for vectors summing to exactly 1; 1e-14 leaves room for other
// inputs of that kind and still catches a wrong term.
const tol = 1e-14

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

// oneMinus is 1 - alpha exactly (not rounded to float64 first).
func oneMinus(alpha float64) *big.Float {
	return new(big.Float).SetPrec(prec).Sub(bf(1), bf(alpha))
}

// exactDiscrete sums the definition of D_alpha(P || Q) at 256 bits (the
// forms of fast.Divergence's doc comment); inf reports +Inf.
func exactDiscrete(p, q []float64, alpha float64) (v *big.Float, inf bool) {
	switch {
	case alpha == 0:
		s := bf(0)
		for i := range p {
			if p[i] > 0 {
				s.Add(s, bf(q[i]))
			}
		}
		if s.Sign() == 0 {
			return nil, true
		}
		return bigfloat.Log(s).Neg(bigfloat.Log(s)), false
	case alpha == 1:
		s := bf(0)
		for i := range p {
			if p[i] == 0 {
				continue
			}
			if q[i] == 0 {
				return nil, true
			}
			l := bigfloat.Log(new(big.Float).SetPrec(prec).Quo(bf(p[i]), bf(q[i])))
			s.Add(s, l.Mul(l, bf(p[i])))
		}
		return s, false
	case math.IsInf(alpha, 1):
		var best *big.Float
		for i := range p {
			if p[i] == 0 {
				continue
			}
			if q[i] == 0 {
				return nil, true
			}
			r := new(big.Float).SetPrec(prec).Quo(bf(p[i]), bf(q[i]))
			if best == nil || r.Cmp(best) > 0 {
				best = r
			}
		}
		return bigfloat.Log(best), false
	}
	s := bf(0)
	for i := range p {
		if p[i] == 0 || (q[i] == 0 && alpha < 1) {
			continue
		}
		if q[i] == 0 {
			return nil, true
		}
		e := new(big.Float).SetPrec(prec).Mul(bf(alpha), bigfloat.Log(bf(p[i])))
		e.Add(e, new(big.Float).SetPrec(prec).Mul(oneMinus(alpha), bigfloat.Log(bf(q[i]))))
		s.Add(s, bigfloat.Exp(e))
	}
	if s.Sign() == 0 {
		return nil, true
	}
	l := bigfloat.Log(s)
	return l.Quo(l, oneMinus(alpha).Neg(oneMinus(alpha))), false
}

// checkUp reports whether got is at or above the exact value and within
// tol relative of it (an exact 0 must give 0 or a value below 1e-300).
func checkUp(t *testing.T, name string, got float64, want *big.Float, inf bool) {
	t.Helper()
	if inf {
		if !math.IsInf(got, 1) {
			t.Errorf("%s = %g, want +Inf", name, got)
		}
		return
	}
	if math.IsInf(got, 1) || math.IsNaN(got) {
		t.Errorf("%s = %g, exact %s", name, got, want.Text('g', 20))
		return
	}
	if want.Sign() == 0 || want.MantExp(nil) < -190 {
		// 0, to the 256-bit sums' own error (about 2^-250)
		if got > 1e-300 || got < 0 {
			t.Errorf("%s = %g, exact 0", name, got)
		}
		return
	}
	diff := new(big.Float).SetPrec(prec).Sub(bf(got), want)
	if diff.Sign() < 0 {
		t.Errorf("%s = %.17g below the exact %s", name, got, want.Text('g', 25))
		return
	}
	rel, _ := diff.Quo(diff, want).Float64()
	if rel > tol {
		t.Errorf("%s = %.17g, relative error %.3g against the exact %s", name, got, rel, want.Text('g', 25))
	}
}

var orders = []float64{0, 1e-3, 0.3, 0.5, 0.999, 1, 1.001, 2, 3.5, 17, 200, math.Inf(1)}

// TestDiscreteAgainstDefinition: Discrete against the definition summed
// at 256 bits, over vectors summing to exactly 1 (dyadic entries), with
// zeros on either side, nearly equal vectors (divergence near 2^-60) and
// disjoint supports, at orders from 0 to +Inf.
func TestDiscreteAgainstDefinition(t *testing.T) {
	d := 0x1p-30
	pairs := []struct{ p, q []float64 }{
		{[]float64{0.5, 0.25, 0.25}, []float64{0.375, 0.125, 0.5}},
		{[]float64{0.5 + d, 0.5 - d}, []float64{0.5, 0.5}},   // nearly equal: cancellation-prone
		{[]float64{0.5, 0.5, 0}, []float64{0.25, 0.25, 0.5}}, // p zero: finite
		{[]float64{0.5, 0.25, 0.25}, []float64{0.5, 0.5, 0}}, // q zero: +Inf from order 1
		{[]float64{1, 0}, []float64{0, 1}},                   // disjoint: +Inf
		{[]float64{0x1p-1000, 1 - 0x1p-1000}, []float64{1 - 0x1p-50, 0x1p-50}},
		{[]float64{0.0625, 0.0625, 0.125, 0.75}, []float64{0.25, 0.25, 0.25, 0.25}},
		{[]float64{0.25, 0.75}, []float64{0.25, 0.75}}, // equal: 0
	}
	for _, pq := range pairs {
		for _, a := range orders {
			want, inf := exactDiscrete(pq.p, pq.q, a)
			got := Discrete(pq.p, pq.q, a)
			checkUp(t, "Discrete("+fmtVec(pq.p)+", "+fmtVec(pq.q)+", "+big.NewFloat(a).Text('g', 6)+")", got, want, inf)
		}
	}
}

func fmtVec(x []float64) string {
	s := "["
	for i, v := range x {
		if i > 0 {
			s += " "
		}
		s += big.NewFloat(v).Text('g', 6)
	}
	return s + "]"
}

// TestDiscreteDefectCounted: vectors off 1 by a few ulps are taken as
// given, so the result is still at or above their exact divergence,
// also where the defect (2^-51) is twenty times the divergence itself
// (within 1e-12 relative: the doc comment loosens the bound by that
// cancellation factor).
func TestDiscreteDefectCounted(t *testing.T) {
	for _, pq := range []struct{ p, q []float64 }{
		{[]float64{0.1, 0.2, 0.7}, []float64{0.3, 0.3, 0.4 + 1e-16}},
		{[]float64{0.25, 0.75 + 0x1p-51}, []float64{0.25 + 0x1p-28, 0.75 - 0x1p-28}},
		{[]float64{0.25 + 0x1p-28, 0.75 - 0x1p-28}, []float64{0.25, 0.75 - 0x1p-51}},
	} {
		for _, a := range []float64{0.5, 1, 2, 10} {
			want, inf := exactDiscrete(pq.p, pq.q, a)
			got := Discrete(pq.p, pq.q, a)
			diff := new(big.Float).SetPrec(prec).Sub(bf(got), want)
			if inf || diff.Sign() < 0 {
				t.Errorf("Discrete(%v, %v, %g) = %.17g below the exact %s", pq.p, pq.q, a, got, want.Text('g', 25))
				continue
			}
			if want.Sign() < 0 {
				// the doc comment: a result negative through the defects is 0
				if got != 0 {
					t.Errorf("Discrete(%v, %v, %g) = %g, exact %s < 0: want 0", pq.p, pq.q, a, got, want.Text('g', 10))
				}
				continue
			}
			if rel, _ := diff.Quo(diff, want).Float64(); math.Abs(rel) > 1e-12 {
				t.Errorf("Discrete(%v, %v, %g) = %.17g, relative error %g against %s", pq.p, pq.q, a, got, rel, want.Text('g', 25))
			}
		}
	}
}

// TestSumDefect: sum(x) - 1 formed exactly (big.Float at 2200 bits holds
// every partial sum of float64s here), rounded once: V is the nearest
// float64 to the exact defect, V +- E encloses it, and a vector summing
// to exactly 1 gives exactly 0.
func TestSumDefect(t *testing.T) {
	for _, x := range [][]float64{
		{0.1, 0.2, 0.7},
		{0.5, 0.25, 0.25},
		{1, 0x1p-1074},
		{0.3, 0.3, 0.3, 0.1},
		{1e-300, 1 - 1e-300, 1e-300},
		{0.75, 0.25 - 0x1p-60, 0x1p-60}, // exactly 1, no two partial float64 sums of it exact
	} {
		s := new(big.Float).SetPrec(2200)
		for _, v := range x {
			s.Add(s, new(big.Float).SetFloat64(v))
		}
		s.Sub(s, big.NewFloat(1))
		near, _ := s.Float64()
		got := SumDefect(x)
		if got.V != near {
			t.Errorf("SumDefect(%v) = %g, the exact defect rounded is %g", x, got.V, near)
		}
		lo := new(big.Float).SetPrec(2200).SetFloat64(got.V - got.E)
		hi := new(big.Float).SetPrec(2200).SetFloat64(got.V + got.E)
		if lo.Cmp(s) > 0 || hi.Cmp(s) < 0 {
			t.Errorf("SumDefect(%v) = %g ± %g does not enclose %s", x, got.V, got.E, s.Text('g', 20))
		}
		if s.Sign() == 0 && (got.V != 0 || got.E != 0) {
			t.Errorf("SumDefect(%v) = %g ± %g, exactly 0", x, got.V, got.E)
		}
	}
}

// exactGaussian is Gil, Alajaji and Linder's (2013) closed form of
// D_alpha(N(m1, s1^2) || N(m2, s2^2)) at 256 bits, with the limits of
// fast.GaussianDivergence's special cases at 1 and +Inf.
func exactGaussian(m1, s1, m2, s2, alpha float64) (*big.Float, bool) {
	dm := new(big.Float).SetPrec(prec).Sub(bf(m1), bf(m2))
	dm2 := new(big.Float).SetPrec(prec).Mul(dm, dm)
	v1 := new(big.Float).SetPrec(prec).Mul(bf(s1), bf(s1))
	v2 := new(big.Float).SetPrec(prec).Mul(bf(s2), bf(s2))
	logRatio := bigfloat.Log(new(big.Float).SetPrec(prec).Quo(bf(s2), bf(s1)))
	switch {
	case alpha == 0:
		return bf(0), false
	case alpha == 1: // log(s2/s1) + (s1^2 + dm^2)/(2 s2^2) - 1/2
		x := new(big.Float).SetPrec(prec).Add(v1, dm2)
		x.Quo(x, v2)
		x.Sub(x, bf(1))
		x.Quo(x, bf(2))
		return x.Add(x, logRatio), false
	case math.IsInf(alpha, 1):
		if s1 > s2 || (s1 == s2 && m1 != m2) {
			return nil, true
		}
		if s1 == s2 {
			return bf(0), false
		}
		x := new(big.Float).SetPrec(prec).Sub(v2, v1)
		x.Quo(dm2, x.Mul(x, bf(2)))
		return x.Add(x, logRatio), false
	}
	sa := new(big.Float).SetPrec(prec).Mul(bf(alpha), v2)
	sa.Add(sa, new(big.Float).SetPrec(prec).Mul(oneMinus(alpha), v1))
	if sa.Sign() <= 0 {
		return nil, true
	}
	x := bigfloat.Log(new(big.Float).SetPrec(prec).Quo(v2, sa))
	x.Quo(x, oneMinus(alpha).Mul(oneMinus(alpha), bf(-2)))
	x.Add(x, logRatio)
	mp := new(big.Float).SetPrec(prec).Mul(bf(alpha), dm2)
	mp.Quo(mp, new(big.Float).SetPrec(prec).Mul(sa, bf(2)))
	return x.Add(x, mp), false
}

// TestGaussianAgainstClosedForm: Gaussian against the closed form at 256
// bits: never below, within tol, +Inf where sa^2 <= 0, and 0 for equal
// distributions.
func TestGaussianAgainstClosedForm(t *testing.T) {
	for _, c := range [][4]float64{
		{0, 1, 1, 1}, {0, 1, 0, 2}, {0, 2, 0, 1}, {-3, 0.5, 4, 0.7}, {0, 1, 1e-3, 1},
		{1, 1e-3, -1, 1e3}, {0, 1, 0, 1 + 0x1p-40}, {2, 3, 2, 3},
	} {
		for _, a := range orders {
			want, inf := exactGaussian(c[0], c[1], c[2], c[3], a)
			got := Gaussian(c[0], c[1], c[2], c[3], a)
			checkUp(t, "Gaussian("+fmtVec(c[:])+", "+big.NewFloat(a).Text('g', 6)+")", got, want, inf)
		}
	}
}
