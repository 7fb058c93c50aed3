package pld

import (
	"errors"
	"math"
	"math/cmplx"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// A check of long runs that shares nothing with the grid and the FFT: delta
// of n Poisson-subsampled Gaussian steps by Laplace (Bromwich) inversion of
// the moment generating function of the privacy loss. With L the n-fold
// loss under P and M(z) = E_Q[(P/Q)^(1+z)] one step's moment,
//
//	delta(eps) = E[(1 - e^(eps-L))_+]
//	           = (1/pi) int_0^inf Re[ M(c+it)^n e^(-(c+it) eps) / ((c+it)(c+it+1)) ] dt
//
// for any c > 0, since (1 - e^(-u))_+ has the two-sided Laplace transform
// 1/(z(z+1)) for Re z > 0 and M is finite at every real order.
//
// Both integrals are trapezoidal sums, whose error falls exponentially with
// the step for integrands analytic in a strip:
//   - over x, the integrand phi(x) r(x)^(1+z) with r = 1 - q + q e^((2x-1)/(2 s^2))
//     is analytic for |Im x| < pi s^2 (r's first zero), but at t it
//     oscillates with wavenumber up to t/s^2, and t runs to about 200:
//     hx = s^2/40 is where halving it moved delta by 1e-12 (hx = s^2/16
//     was 2.4e-8 off at q = 1e-4, s = 0.5, 1e4 steps);
//   - over t, a step ht adds the aliases delta(eps -+ 2 pi k/ht) e^(-+c 2 pi k/ht),
//     k >= 1: ht = 2 pi c/100 makes those below eps (delta <= 1) weigh at
//     most e^(-100), and those above fall faster than e^(c 2 pi k/ht) grows
//     where log delta is concave, as for the Gaussian-tailed losses here.
//
// c is the saddle point, where the integrand does not cancel; the tests
// require the value to move by less than invTol when both steps are halved
// and when c moves by 3%. Rounding sets the floor: n log M(c) carries the
// rounding of exponents near (1+c) |log(P/Q)|, which moved delta by 2e-8
// at c = 12 (q = 0.001, sigma = 1, 1e4 steps, eps = 1); at q = 1e-4,
// sigma = 0.5 (c = 3.6) the moves were 7e-11.
const invTol = 1e-7

type inversion struct {
	q, s float64
	n    int
	add  bool // the add direction: P = N(0, s^2), Q = the mixture
}

// logMoment returns log M(c) for real c and the trapezoid's nodes: the log
// loss b_j = log(P/Q)(x_j) and the weights w_j = phi(x_j) hx (P/Q)^(1+c) / M(c),
// keeping the nodes that carry more than 1e-30 of M(c).
func (v inversion) logMoment(c, hx float64) (logM float64, b, w []float64) {
	s2 := v.s * v.s
	lo, hi := -2-c-40*v.s, 2+c+40*v.s
	var a []float64
	for x := lo; x <= hi; x += hx {
		y := (2*x - 1) / (2 * s2)
		lr := y // log r = log(mixture/N(0)) at x
		if v.q < 1 {
			lr = logAdd(math.Log1p(-v.q), math.Log(v.q)+y)
		}
		e := -x*x/(2*s2) + (1+c)*lr
		lb := lr
		if v.add {
			e, lb = -x*x/(2*s2)-c*lr, -lr
		}
		a = append(a, e)
		b = append(b, lb)
	}
	m := math.Inf(-1)
	for _, e := range a {
		m = math.Max(m, e)
	}
	var sum float64
	w = make([]float64, len(a))
	for j, e := range a {
		w[j] = math.Exp(e - m)
		sum += w[j]
	}
	var kb, kw []float64
	for j := range w {
		if w[j] > 1e-30*sum {
			kb, kw = append(kb, b[j]), append(kw, w[j]/sum)
		}
	}
	if a[0]-m > -80 || a[len(a)-1]-m > -80 {
		panic("inversion: the x range cuts the integrand")
	}
	return m + math.Log(sum*hx/(v.s*math.Sqrt(2*math.Pi))), kb, kw
}

// saddle minimises n log M(c) - c eps - log(c(c+1)) over c in (0, 60) by
// golden section; the integrand's modulus at t = 0 is its exponential.
func (v inversion) saddle(eps, hx float64) float64 {
	f := func(c float64) float64 {
		l, _, _ := v.logMoment(c, hx)
		return float64(v.n)*l - c*eps - math.Log(c*(c+1))
	}
	a, b := goldenMin(f, 1e-3, 60, 60) // 60 steps leave 60 * 0.618^60, 1e-11
	return (a + b) / 2
}

// delta returns delta(eps) in this direction at tilt c with steps hx and ht.
func (v inversion) delta(eps, c, hx, ht float64) float64 {
	logM, b, w := v.logMoment(c, hx)
	n := float64(v.n)
	term := func(t float64) float64 {
		var sum complex128
		for j := range b {
			sn, cs := math.Sincos(t * b[j])
			sum += complex(w[j]*cs, w[j]*sn)
		}
		z := complex(c, t)
		lg := complex(n*logM, 0) + complex(n, 0)*cmplx.Log(sum) - z*complex(eps, 0)
		return real(cmplx.Exp(lg)/(z*(z+1))) / math.Pi
	}
	peak := math.Abs(term(0))
	total := term(0) / 2
	quiet := 0
	for k := 1; ; k++ {
		f := term(float64(k) * ht)
		total += f
		if math.Abs(f) < 1e-17*peak {
			quiet++
		} else {
			quiet = 0
		}
		if quiet > int(5/ht) {
			break
		}
		if float64(k)*ht > 1e4 {
			panic("inversion: the t integral does not settle")
		}
	}
	return total * ht
}

// invDelta returns delta(eps) of the n-fold SGM, the larger direction's, and
// the largest change seen when the steps halve and the tilt moves by 3%.
func invDelta(q, s float64, n int, eps float64) (delta, change float64) {
	hx := s * s / 40
	for _, add := range []bool{false, true} {
		v := inversion{q, s, n, add}
		if add && v.q < 1 && eps >= -float64(n)*math.Log1p(-q) {
			continue // the add direction's loss is at most -log(1-q) a step
		}
		c := v.saddle(eps, hx)
		ht := math.Min(0.05, 2*math.Pi*c/100)
		d := v.delta(eps, c, hx, ht)
		for _, alt := range []float64{v.delta(eps, c, hx/2, ht/2), v.delta(eps, 0.97*c, hx, ht), v.delta(eps, 1.03*c, hx, ht)} {
			change = math.Max(change, math.Abs(alt-d)/d)
		}
		delta = math.Max(delta, d)
	}
	return delta, change
}

// The inversion itself against the Gaussian's closed form (q = 1), at deltas
// from 0.42 to 3.3e-9.
func TestInversionMatchesGaussianClosedForm(t *testing.T) {
	for _, c := range []struct {
		s   float64
		n   int
		eps float64
	}{{2, 10, 1}, {2, 10, 10}, {1, 4, 12}, {0.5, 4, 20}, {5, 100, 1.5}} {
		want := gaussDelta64(c.s, c.n, c.eps)
		got, change := invDelta(1, c.s, c.n, c.eps)
		if math.Abs(got-want) > 1e-9*want || change > invTol {
			t.Errorf("inversion of %d Gaussians of noise %g at eps %g = %.15g (change %.2g), want %.15g (closed form)", c.n, c.s, c.eps, got, change, want)
		}
	}
}

// Long runs against the inversion: pld's delta interval must hold the
// inverted delta (up to the inversion's own invTol). The rows at q = 1e-4,
// sigma 0.5 and q = 0.01, sigma 0.3, 0.5 and 1 are docs/pld_region.md's
// rows where dp_accounting's pessimistic eps falls below rdpcheck's lower
// end. At the 1e4-step ones the inversion brackets eps(1e-10):
// delta(5.08436) = 1.00001195e-10 and delta(5.08437) = 9.9997978e-11;
// delta(379.7089) = 1.00001517e-10 and delta(379.7091) = 9.9998363e-11
// (each moving by less than 6e-11 under the checks above), while
// dp_accounting prints 5.080555 and 379.6920.
func TestLongRunsAgainstInversion(t *testing.T) {
	type row struct {
		q, s float64
		n    int
		eps  float64
		opt  Options
		tier int // 0 -short, 1 default, 2 exhaustive
	}
	rows := []row{
		{0.001, 1, 10000, 1, Options{Width: 0.05}, 0},
		{0.1, 2, 10000, 10, Options{Width: 0.05}, 0},
		{0.5, 10, 10000, 20, Options{Width: 0.05}, 0},
		{1e-4, 0.5, 10000, 5.084, Options{H: 0x1p-12}, 1},
		{0.01, 1, 1000000, 166.7595105, Options{Width: 0.05}, 1},
		{1e-4, 0.5, 10000, 5.0844, Options{}, 2},
		{0.01, 0.3, 10000, 379.7071, Options{H: 0x1p-12}, 2},
		{0.01, 0.3, 10000, 379.7109, Options{}, 2},
	}
	tier := 2
	if testtier.Sampled(t, "the region rows at default options, 10 to 40 s each") {
		tier = 1
	}
	if testtier.Short(t, "the rows at q = 1e-4, sigma 0.5 and the 1e6-step rows (8 s)") {
		tier = 0
	}
	for _, r := range rows {
		if r.tier > tier {
			continue
		}
		want, change := invDelta(r.q, r.s, r.n, r.eps)
		if change > invTol {
			t.Fatalf("inversion at q %g, sigma %g, %d steps, eps %g moved by %.2g when its steps halved or its tilt moved", r.q, r.s, r.n, r.eps, change)
		}
		iv, err := SGMDelta([]Phase{{r.q, r.s, r.n}}, r.eps, r.opt)
		if err != nil && !errors.Is(err, ErrPrecision) {
			t.Fatalf("SGMDelta(q %g, sigma %g, %d steps, eps %g): %v", r.q, r.s, r.n, r.eps, err)
		}
		if iv.Lo > want*(1+invTol) || iv.Hi < want*(1-invTol) {
			t.Errorf("SGMDelta(q %g, sigma %g, %d steps, eps %g, %+v) = %v, outside the inversion's %.10g", r.q, r.s, r.n, r.eps, r.opt, iv, want)
		}
	}
	// The brackets docs/findings.md cites: eps(1e-10) between lo and hi,
	// each side clear of the inversion's own change. The 1e6-step rows'
	// lo is dp_accounting's answer, hi rdpcheck's upper end.
	for _, b := range []struct {
		q, s   float64
		n      int
		lo, hi float64
		tier   int
	}{
		{0.01, 1, 1000000, 166.5707767, 166.849609375, 1},
		{0.01, 0.5, 1000000, 1751.2178, 1753.03125, 1},
		{1e-4, 0.5, 10000, 5.08436, 5.08437, 2},
		{0.01, 0.3, 10000, 379.7089, 379.7091, 2},
	} {
		if b.tier > tier {
			continue
		}
		dlo, clo := invDelta(b.q, b.s, b.n, b.lo)
		dhi, chi := invDelta(b.q, b.s, b.n, b.hi)
		if dlo <= 1e-10*(1+2*clo) || dhi >= 1e-10*(1-2*chi) {
			t.Errorf("q %g, sigma %g, %d steps: delta(%g) = %.10g (change %.2g), delta(%g) = %.10g (change %.2g): eps(1e-10) is not between them", b.q, b.s, b.n, b.lo, dlo, clo, b.hi, dhi, chi)
		}
	}
}
