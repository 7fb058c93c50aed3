package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/testtier"
	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// The forward direction of the sampled Laplace mechanism at integer orders
// against Zhu and Wang's binomial sum (oracles.PoissonLaplaceZW: closed-form
// Laplace moments through bigfloat, no quadrature), both at 128 bits; the
// reference claims 38 digits there and must show at least 35.
func TestSampledLaplaceOracleZW(t *testing.T) {
	t.Parallel()
	qs := []float64{1e-10, 1e-4, 0.01, 0.3, 0.9}
	bs := []float64{0.05, 0.5, 1, 10, 1000}
	alphas := []int64{2, 3, 8, 64, 256}
	if testing.Short() {
		alphas = []int64{2, 8, 64}
	}
	oneOrder := testtier.Sampled(t, "the Zhu-Wang comparison's second order of each (q, b)")
	diagonal := testtier.Short(t, "the (q, b) pairs off the diagonal of the grid, and alpha 3 and 256")
	ctx := reference.Context{Prec: 128}
	for i, q := range qs {
		for j, b := range bs {
			a := alphas[(i+j)%len(alphas)]
			orders := []int64{a, alphas[(i+2*j+1)%len(alphas)]}
			if diagonal && i != j {
				continue // every q, b and order still
			}
			if oneOrder {
				orders = orders[:1]
			}
			for _, a := range orders {
				f, _, err := ctx.SampledLaplaceDirections(q, b, float64(a))
				if err != nil {
					t.Fatalf("q=%g b=%g alpha=%d: %v", q, b, a, err)
				}
				want, err := oracles.PoissonLaplaceZW(q, b, a, 128)
				if err != nil {
					t.Fatalf("oracle q=%g b=%g alpha=%d: %v", q, b, a, err)
				}
				if d := digits(f, want); d < 35 {
					t.Errorf("q=%g b=%g alpha=%d: forward %s, Zhu-Wang sum %s: %.1f digits", q, b, a, f.Text('g', 40), want.Text('g', 40), d)
				}
			}
		}
	}
}

// Both directions at fractional orders and at alpha = 1 against mpmath
// quadrature of the defining integrals, 40 digits working, compared to 24:
//
//	from mpmath import mp, mpf, quad, exp, log
//	mp.dps = 40
//	def dirs(q, b, a):
//	    q, b, a = mpf(q), mpf(b), mpf(a); c = 1/b
//	    m = lambda r: 1 + q*(r-1)
//	    def mom(g):
//	        f = lambda x: exp(-x/b)/(2*b) * m(exp((2*x-1)/b))**g
//	        return mpf(1)/2*m(exp(-c))**g + exp(-c)/2*m(exp(c))**g + quad(f, [0, mpf(1)/2, 1])
//	    return log(mom(a))/(a-1), log(mom(1-a))/(a-1)
//
// and for alpha = 1 the KL integrals E[m log m] and -E[log m] the same way.
func TestSampledLaplaceMpmath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q, b, alpha float64
		fwd, bwd    string
	}{
		{0.01, 1, 8.5, "0.0003721822963823128296587033", "0.0003526417224273052132568585"},
		{0.3, 0.05, 256.5, "18.78860971022926932037407", "0.3566732965533819891076523"},
		{1e-6, 2, 32, "3.548392690802188746821413e-12", "3.548374244701284759516641e-12"},
	} {
		f, b, err := reference.Context{Prec: 128}.SampledLaplaceDirections(c.q, c.b, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			name string
			got  *big.Float
			want string
		}{{"forward", f, c.fwd}, {"backward", b, c.bwd}} {
			w, _, _ := big.ParseFloat(p.want, 10, 128, big.ToNearestEven)
			if d := digits(p.got, w); d < 24 {
				t.Errorf("q=%g b=%g alpha=%g %s: %s, mpmath %s (%.1f digits)", c.q, c.b, c.alpha, p.name, p.got.Text('g', 30), p.want, d)
			}
		}
	}
}

// The sampled Gaussian's forward direction at integer orders against Zhu
// and Wang's binomial sum (oracles.PoissonGaussianZW): an independent check
// of SGM by the formula autodp evaluates in float64.
func TestSGMOracleZW(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q, sigma float64
		alpha    int64
	}{{1e-8, 1, 2}, {0.01, 1.1, 8}, {0.1, 4, 64}, {0.5, 0.5, 3}, {0.9, 10, 256}} {
		f, _, err := reference.Context{Prec: 128}.SGMDirections(c.q, c.sigma, float64(c.alpha))
		if err != nil {
			t.Fatal(err)
		}
		want, err := oracles.PoissonGaussianZW(c.q, c.sigma, c.alpha, 128)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(f, want); d < 35 {
			t.Errorf("%+v: SGM forward %s, Zhu-Wang %s (%.1f digits)", c, f.Text('g', 40), want.Text('g', 40), d)
		}
	}
}

func ratOf(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// SampledDivergence's two directions against exact rationals: the mixture
// (1-q) Q + q P formed in big.Rat and oracles.DiscreteRenyiRat on it.
func TestSampledDivergenceOracleRat(t *testing.T) {
	t.Parallel()
	pairs := []struct{ P, Q []float64 }{
		{[]float64{0.75, 0.25}, []float64{0.25, 0.75}}, // randomized response, p = 3/4
		{[]float64{0.5, 0.25, 0.125, 0.125}, []float64{0.125, 0.125, 0.25, 0.5}},
		{[]float64{0.5, 0.5, 0}, []float64{0.25, 0.25, 0.5}},
	}
	for _, pq := range pairs {
		for _, q := range []float64{1e-10, 1e-3, 0.25, 0.9} {
			for _, a := range []int64{2, 5, 32} {
				f, b, err := reference.Context{Prec: 128}.SampledDivergenceDirections(q, pq.P, pq.Q, float64(a))
				if err != nil {
					t.Fatal(err)
				}
				M := make([]*big.Rat, len(pq.P))
				Qr := make([]*big.Rat, len(pq.P))
				for i := range M {
					x := new(big.Rat).Mul(ratOf(q), ratOf(pq.P[i]))
					y := new(big.Rat).Mul(new(big.Rat).Sub(big.NewRat(1, 1), ratOf(q)), ratOf(pq.Q[i]))
					M[i], Qr[i] = x.Add(x, y), ratOf(pq.Q[i])
				}
				wf, err := oracles.DiscreteRenyiRat(M, Qr, a, 128)
				if err != nil {
					t.Fatal(err)
				}
				wb, err := oracles.DiscreteRenyiRat(Qr, M, a, 128)
				if err != nil {
					t.Fatal(err)
				}
				if d := digits(f, wf); d < 35 {
					t.Errorf("P=%v Q=%v q=%g alpha=%d forward %s, rationals %s (%.1f digits)", pq.P, pq.Q, q, a, f.Text('g', 30), wf.Text('g', 30), d)
				}
				if d := digits(b, wb); d < 35 {
					t.Errorf("P=%v Q=%v q=%g alpha=%d backward %s, rationals %s (%.1f digits)", pq.P, pq.Q, q, a, b.Text('g', 30), wb.Text('g', 30), d)
				}
			}
		}
	}
}

// PoissonBound against the same sum in exact rationals: with a base
// curve of zeros, k_2 = 0 and k_l = 2 (l >= 3), so the bound is
// log(1 + s)/(alpha-1) with s = 2 sum_{l>=3} C(alpha,l) q^l (1-q)^(alpha-l)
// rational; s is formed in big.Rat and only the final log1p is float64.
func TestPoissonBoundRational(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q float64
		a int64
	}{{0.25, 2}, {0.25, 3}, {1e-4, 10}, {0.5, 64}, {1e-10, 5}} {
		base := make([]float64, c.a)
		got, err := reference.Context{Prec: 128}.PoissonBound(c.q, float64(c.a), base)
		if err != nil {
			t.Fatal(err)
		}
		Q := ratOf(c.q)
		O := new(big.Rat).Sub(big.NewRat(1, 1), Q)
		s := new(big.Rat)
		for l := int64(3); l <= c.a; l++ {
			t1 := new(big.Rat).SetInt(new(big.Int).Binomial(c.a, l))
			t1.Mul(t1, ratPow(Q, l))
			t1.Mul(t1, ratPow(O, c.a-l))
			s.Add(s, t1)
		}
		s.Mul(s, big.NewRat(2, 1))
		sf, _ := s.Float64()
		want := math.Log1p(sf) / float64(c.a-1)
		gf, _ := got.Float64()
		if (want == 0) != (got.Sign() == 0) || math.Abs(gf-want) > 1e-14*want {
			t.Errorf("%+v: got %g, rational sum gives %g", c, gf, want)
		}
	}
}

func ratPow(x *big.Rat, n int64) *big.Rat {
	r := big.NewRat(1, 1)
	for range n {
		r.Mul(r, x)
	}
	return r
}

// The laws the sampled functions share with the list, on a grid:
// the exact SampledLaplace never exceeds PoissonBound with the Laplace
// curve as base, nor the unsampled Laplace curve.
func TestSampledLaplaceBelowBounds(t *testing.T) {
	t.Parallel()
	ctx := reference.Context{Prec: 64}
	for ib, b := range []float64{0.1, 1, 10} {
		base := make([]float64, 63)
		for i := range base {
			v, err := ctx.Laplace(b, float64(i+2))
			if err != nil {
				t.Fatal(err)
			}
			base[i], _ = v.Float64()
			base[i] = math.Nextafter(base[i], math.Inf(1)) // never below the true curve
		}
		for iq, q := range []float64{1e-6, 0.01, 0.5} {
			for ia, a := range []float64{2, 3, 7.5, 16, 64} {
				if testing.Short() && (ib+iq+ia)%3 != 0 {
					continue // -short: a third, every (b, q) and every order still
				}
				s, err := ctx.SampledLaplace(q, b, a)
				if err != nil {
					t.Fatal(err)
				}
				pb, err := ctx.PoissonBound(q, a, base)
				if err != nil {
					t.Fatal(err)
				}
				l, _ := ctx.Laplace(b, a)
				if s.Cmp(pb) > 0 || s.Cmp(l) > 0 {
					t.Errorf("q=%g b=%g alpha=%g: SampledLaplace %s, PoissonBound %s, Laplace %s", q, b, a, s.Text('g', 12), pb.Text('g', 12), l.Text('g', 12))
				}
			}
		}
	}
}

// TestSampledLaplaceQNearOne: at q = 1 - 2^-53 the sampled value is
// bracketed by the unsampled Laplace L (convexity of x^alpha, applied to
// both directions; the Laplace mechanism is symmetric) and, from
// (1 - q + q r)^alpha >= (q r)^alpha in the forward direction, L +
// alpha/(alpha-1) log q >= L - alpha/(alpha-1) 2^-52: an interval of
// 1.3e-16 around 38.3 at b = 0.0261. The planning bound once took 1 + t
// from a rounded t (2^-53 instead of 1.3e-16 on the left tail), so the sum
// fell below its "proven" lower bound at every precision and the Ziv loop
// ran to MaxWorkingPrec: minutes, then ErrPrecision (found through
// FuzzSampled).
func TestSampledLaplaceQNearOne(t *testing.T) {
	t.Parallel()
	ctx := reference.Context{Prec: 128}
	q := 1 - 0x1p-53
	for _, a := range []float64{10, 1228.4999999999998} {
		s, err := ctx.SampledLaplace(q, 0.0261, a)
		if err != nil {
			t.Fatalf("alpha=%g: %v", a, err)
		}
		hi, _ := ctx.Laplace(0.0261, a)
		lo := new(big.Float).SetPrec(128).SetFloat64(a / (a - 1) * 0x1p-52)
		lo.Sub(hi, lo)
		if s.Cmp(lo) < 0 || s.Cmp(hi) > 0 {
			t.Errorf("alpha=%g: SampledLaplace = %s, want in [%s, %s]", a, s.Text('g', 25), lo.Text('g', 25), hi.Text('g', 25))
		}
	}
}

// Which direction is larger for the sampled Laplace mechanism, measured
// (the doc comment of SampledLaplaceDirections reports it).
func TestSampledLaplaceDirections(t *testing.T) {
	t.Parallel()
	ctx := reference.Context{Prec: 64}
	qs := []float64{1e-6, 1e-3, 0.05, 0.3, 0.7, 0.99}
	bs := []float64{0.05, 0.2, 1, 5, 100}
	as := []float64{1, 1.5, 2, 4.5, 16, 100, 256}
	if testing.Short() {
		qs, bs, as = []float64{1e-3, 0.3, 0.99}, []float64{0.05, 1, 100}, []float64{1, 2, 16, 256}
	}
	half := testtier.Sampled(t, "the half of the directions grid with q, b and alpha's indices summing to an odd number")
	onePerPair := testtier.Short(t, "all but one order of each (q, b)")
	n, backward := 0, 0
	for iq, q := range qs {
		for ib, b := range bs {
			for ia, a := range as {
				if onePerPair && ia != (iq*len(bs)+ib)%len(as) {
					continue // every (q, b) and every order still
				}
				if !onePerPair && half && (iq+ib+ia)%2 != 0 {
					continue // half, every (q, b) and every order still
				}
				f, bk, err := ctx.SampledLaplaceDirections(q, b, a)
				if err != nil {
					t.Fatal(err)
				}
				n++
				if bk.Cmp(f) > 0 {
					backward++
					t.Logf("backward larger: q=%g b=%g alpha=%g: %s > %s", q, b, a, bk.Text('g', 10), f.Text('g', 10))
				}
			}
		}
	}
	t.Logf("%d points, backward larger at %d", n, backward)
	if backward > 0 {
		t.Errorf("the doc comment says forward >= backward on this grid; %d of %d points disagree", backward, n)
	}
}

func TestSampledSpecialCases(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	lap2, _ := reference.Laplace(0.5, 2)
	closedInf := func(q, b float64) string {
		f := math.Log(1 - q + q*math.Exp(1/b))
		return fmt.Sprintf("%.12g", f)
	}
	for _, c := range []struct {
		name string
		f    func() (*big.Float, error)
		want string // %.12g, or "err:<kind>"
	}{
		{"SL q=0", func() (*big.Float, error) { return reference.SampledLaplace(0, 1, 2) }, "0"},
		{"SL q=1", func() (*big.Float, error) { return reference.SampledLaplace(1, 0.5, 2) }, lap2.Text('g', 12)},
		{"SL alpha=inf", func() (*big.Float, error) { return reference.SampledLaplace(0.1, 2, inf) }, closedInf(0.1, 2)},
		{"SL b=0", func() (*big.Float, error) { return reference.SampledLaplace(0.1, 0, 2) }, "err:input"},
		{"SL b=inf", func() (*big.Float, error) { return reference.SampledLaplace(0.1, inf, 2) }, "err:input"},
		{"SL q>1", func() (*big.Float, error) { return reference.SampledLaplace(1.5, 1, 2) }, "err:input"},
		{"SL q NaN", func() (*big.Float, error) { return reference.SampledLaplace(math.NaN(), 1, 2) }, "err:input"},
		{"SL alpha<1", func() (*big.Float, error) { return reference.SampledLaplace(0.1, 1, 0.5) }, "err:input"},
		{"SL alpha huge", func() (*big.Float, error) { return reference.SampledLaplace(0.1, 1, 1e5) }, "err:toolarge"},
		{"SD q=0", func() (*big.Float, error) {
			return reference.SampledDivergence(0, []float64{1, 0}, []float64{0.5, 0.5}, 2)
		}, "0"},
		{"SD P=Q", func() (*big.Float, error) {
			return reference.SampledDivergence(0.3, []float64{0.5, 0.5}, []float64{0.5, 0.5}, 2)
		}, "0"},
		{"SD outside", func() (*big.Float, error) {
			return reference.SampledDivergence(0.3, []float64{0.5, 0.5}, []float64{1, 0}, 2)
		}, "+Inf"},
		{"SD alpha=inf", func() (*big.Float, error) {
			return reference.SampledDivergence(0.5, []float64{0.75, 0.25}, []float64{0.25, 0.75}, inf)
		}, fmt.Sprintf("%.12g", math.Log(1+0.5*2))}, // max(log(1+q(3-1)) = log 2, -log(1+q(1/3-1)) = log 1.5)
		{"SD q=1", func() (*big.Float, error) {
			return reference.SampledDivergence(1, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2)
		}, fmt.Sprintf("%.12g", math.Log(0.75*0.75/0.25+0.25*0.25/0.75))},
		{"SD sum", func() (*big.Float, error) {
			return reference.SampledDivergence(0.3, []float64{0.5, 0.6}, []float64{0.5, 0.5}, 2)
		}, "err:input"},
		{"SD len", func() (*big.Float, error) {
			return reference.SampledDivergence(0.3, []float64{1}, []float64{0.5, 0.5}, 2)
		}, "err:input"},
		{"SD neg", func() (*big.Float, error) {
			return reference.SampledDivergence(0.3, []float64{1.5, -0.5}, []float64{0.5, 0.5}, 2)
		}, "err:input"},
		{"PB q=0", func() (*big.Float, error) { return reference.PoissonBound(0, 3, []float64{1, 2}) }, "0"},
		{"PB q=1", func() (*big.Float, error) { return reference.PoissonBound(1, 3, []float64{1, 2}) }, "2"},
		{"PB q=1 frac", func() (*big.Float, error) { return reference.PoissonBound(1, 2.5, []float64{1, 2}) }, fmt.Sprintf("%.12g", (0.5*2*2+0.5*1)/1.5)},
		{"PB inf entry", func() (*big.Float, error) { return reference.PoissonBound(0.1, 3, []float64{1, inf}) }, "+Inf"},
		{"PB alpha inf", func() (*big.Float, error) { return reference.PoissonBound(0.1, inf, []float64{1, 2}) }, "+Inf"},
		{"PB short", func() (*big.Float, error) { return reference.PoissonBound(0.1, 4, []float64{1, 2}) }, "err:input"},
		{"PB negative", func() (*big.Float, error) { return reference.PoissonBound(0.1, 3, []float64{1, -2}) }, "err:input"},
		{"PB NaN", func() (*big.Float, error) { return reference.PoissonBound(0.1, 3, []float64{1, math.NaN()}) }, "err:input"},
	} {
		got, err := c.f()
		switch c.want {
		case "err:input":
			if !errors.Is(err, rdpcheck.ErrInput) {
				t.Errorf("%s: err %v, want an input error", c.name, err)
			}
			continue
		case "err:toolarge":
			if !errors.Is(err, rdpcheck.ErrTooLarge) {
				t.Errorf("%s: err %v, want ErrTooLarge", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if g := got.Text('g', 12); g != c.want {
			t.Errorf("%s: got %s, want %s", c.name, g, c.want)
		}
	}
}
