package pld

import (
	"math"
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// laplaceOneStepCDF is one step's delta(eps) from the Laplace CDFs at 200
// bits, by a route that shares nothing with laplaceOneStep's simplified
// form: L > eps iff x < x_e = (1 - b eps)/2, so delta = F_0(x_e) - e^eps
// F_1(x_e) with F_m(x) = e^((x-m)/b)/2 for x <= m and 1 - e^(-(x-m)/b)/2
// above (eps in (-1/b, 1/b)).
func laplaceOneStepCDF(b, eps float64) *big.Float {
	const prec = 200
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	one, half := f(1), f(0.5)
	bb, e := f(b), f(eps)
	xe := new(big.Float).Mul(bb, e)
	xe.Sub(one, xe)
	xe.Quo(xe, f(2))
	F := func(m *big.Float) *big.Float {
		d := new(big.Float).Sub(xe, m)
		d.Quo(d, bb)
		if d.Sign() <= 0 {
			return new(big.Float).Mul(half, bigfloat.Exp(d))
		}
		t := new(big.Float).Mul(half, bigfloat.Exp(d.Neg(d)))
		return t.Sub(one, t)
	}
	r := new(big.Float).Mul(bigfloat.Exp(e), F(one))
	return r.Sub(F(f(0)), r)
}

func TestLaplaceOneStepClosedForm(t *testing.T) {
	for _, b := range []float64{0.1, 0.5, 1, 3, 10} {
		for _, eps := range []float64{-0.5, 0, 0.05, 0.3, 1, 2.5, 9.9} {
			if math.Abs(eps) >= 1/b {
				continue
			}
			got, err := LaplaceDelta(b, 1, eps)
			if err != nil {
				t.Fatal(err)
			}
			want := laplaceOneStepCDF(b, eps)
			lo, hi := new(big.Float).SetFloat64(got.Lo), new(big.Float).SetFloat64(got.Hi)
			w, _ := want.Float64()
			// the interval is the value rounded outward (2 ulps wide);
			// the closed form and the CDFs agree to >= 30 digits (below)
			if lo.Cmp(want) > 0 || hi.Cmp(want) < 0 || got.RelWidth() > 5e-16 {
				t.Errorf("LaplaceDelta(b=%g, 1, eps=%g) = %v, want %.20g (CDFs at 200 bits)", b, eps, got, w)
			}
			d := new(big.Float).SetPrec(200).Sub(laplaceOneStepBig(b, eps, 200), want)
			if d.Sign() != 0 {
				rel, _ := new(big.Float).Quo(d, want).Float64()
				if math.Abs(rel) > 1e-30 {
					t.Errorf("closed form 1 - e^((eps - 1/b)/2) at b=%g, eps=%g differs from the CDFs by %g relative", b, eps, rel)
				}
			}
		}
	}
	for _, c := range []struct {
		b, eps float64
		want   Interval
	}{
		{0.5, 2, Interval{0, 0}},          // eps = 1/b: delta = 0
		{0.5, 7, Interval{0, 0}},          // eps > 1/b
		{1, math.Inf(1), Interval{0, 0}},  // +Inf
		{1, math.Inf(-1), Interval{1, 1}}, // -Inf
	} {
		if got, _ := LaplaceDelta(c.b, 1, c.eps); got != c.want {
			t.Errorf("LaplaceDelta(b=%g, 1, eps=%g) = %v, want %v", c.b, c.eps, got, c.want)
		}
	}
}

// laplaceOneStepBig is the closed form at prec bits.
func laplaceOneStepBig(b, eps float64, prec uint) *big.Float {
	x := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), new(big.Float).SetPrec(prec).SetFloat64(b))
	x.Sub(new(big.Float).SetPrec(prec).SetFloat64(eps), x)
	x.Quo(x, new(big.Float).SetPrec(prec).SetInt64(2))
	return x.Sub(new(big.Float).SetPrec(prec).SetInt64(1), bigfloat.Exp(x))
}

// laplaceDelta1 is one step's delta(eps) in float64, all eps.
func laplaceDelta1(b, eps float64) float64 {
	B := 1 / b
	switch {
	case eps >= B:
		return 0
	case eps <= -B:
		return -math.Expm1(eps)
	}
	return -math.Expm1((eps - B) / 2)
}

// The engine on one and two steps: one step against the closed form, two
// steps against delta_2(eps) = E_P delta_1(eps - L) by the midpoint rule
// on 4e5 nodes over the continuous part plus the two atoms. The upper end
// must be within 1e-4 relative (it is within 2e-8 but at a kink of the
// quadrature's integrand, 1.2e-5), the lower within 1e-2 (it is the
// rounded-down measure, first order in h); negative eps reach the atom at
// -1/b.
func TestLaplaceEngine(t *testing.T) {
	for _, b := range []float64{0.7, 2} {
		B := 1 / b
		for _, n := range []int{1, 2} {
			lam := 1.0
			c, err := laplaceRun(b, n, 0x1p-12, lam)
			if err != nil {
				t.Fatal(err)
			}
			for _, eps := range []float64{-0.8, -0.2, 0, 0.2, 0.6, 1} {
				var want float64
				if n == 1 {
					want = laplaceDelta1(b, eps)
				} else {
					want = 0.5*laplaceDelta1(b, eps-B) + 0.5*math.Exp(-B)*laplaceDelta1(b, eps+B)
					const m = 400000
					dl := 2 * B / m
					for i := 0; i < m; i++ {
						l := -B + (float64(i)+0.5)*dl
						want += 0.25 * math.Exp(-B/2) * math.Exp(l/2) * laplaceDelta1(b, eps-l) * dl
					}
				}
				got := c.delta(eps)
				if !(got.Lo <= want*(1+1e-8)+1e-12 && want*(1-1e-8)-1e-12 <= got.Hi) || got.Hi-got.Lo > 1e-2*want+1e-9 || got.Hi > want*(1+1e-4)+1e-11 {
					t.Errorf("laplace engine(b=%g, %d steps) delta(%g) = %v, want %.10g (closed form or quadrature)", b, n, eps, got, want)
				}
			}
		}
	}
}

// Law: the certified lower end is at most the RDP eps of the composition
// (fast.Laplace at the default orders, Improved conversion).
func TestLaplaceEpsilonBelowRDP(t *testing.T) {
	orders := rdpcheck.DefaultOrders()
	for _, c := range []struct {
		b float64
		n int
	}{{1, 10}, {5, 100}, {0.5, 3}} {
		rd := make([]float64, len(orders))
		for i, a := range orders {
			v, err := fast.Laplace(c.b, a)
			if err != nil {
				t.Fatal(err)
			}
			rd[i] = v * float64(c.n)
		}
		er, _, err := fast.Epsilon(orders, rd, 1e-5, rdpcheck.Improved)
		if err != nil {
			t.Fatal(err)
		}
		iv, err := LaplaceEpsilon(c.b, c.n, 1e-5)
		if err != nil || iv.RelWidth() > 1e-3 {
			t.Errorf("LaplaceEpsilon(b=%g, %d, 1e-5) = %v, %v; want width <= 1e-3", c.b, c.n, iv, err)
		}
		if iv.Lo > er {
			t.Errorf("LaplaceEpsilon(b=%g, %d, 1e-5) = %v above RDP eps %g", c.b, c.n, iv, er)
		}
	}
}
