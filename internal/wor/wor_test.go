package wor

import (
	"fmt"
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
)

// prec is the working precision: the forward differences D(j) cancel
// about j + 1.44 j(j-1)/(2 sigma^2) bits (reference.WORGaussian's
// comment), under 200 for the orders and sigmas below.
const prec = 640

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
func bi(n int64) *big.Float   { return new(big.Float).SetPrec(prec).SetInt64(n) }

func add(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Add(x, y) }
func sub(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Sub(x, y) }
func mul(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Mul(x, y) }
func quo(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Quo(x, y) }

func binom(a, j int) *big.Float {
	return new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(a), int64(j)))
}

func powInt(x *big.Float, n int) *big.Float {
	r := bi(1)
	for range n {
		r = mul(r, x)
	}
	return r
}

func minF(x, y *big.Float) *big.Float {
	if x.Cmp(y) < 0 {
		return x
	}
	return y
}

// interpolate is Corollary 10 of Wang, Balle and Kasiviswanathan (2019):
// log A linear between floor(alpha) and ceil(alpha), divided by alpha -
// 1; log A(a)/(a-1) at integers; on [1, 2] the value at 2.
func interpolate(alpha float64, logA func(a int) *big.Float) *big.Float {
	lo := math.Floor(alpha)
	switch {
	case alpha <= 2:
		return logA(2)
	case lo == alpha:
		return quo(logA(int(lo)), bf(alpha-1))
	}
	t := bf(alpha - lo)
	x, y := logA(int(lo)), logA(int(lo)+1)
	v := add(mul(sub(bi(1), t), x), mul(t, y))
	return quo(v, bf(alpha-1))
}

// theorem9LogA is log A of WBK19's Theorem 9 at integer a >= 2 for the
// base curve eps(j), P = e^(eps(+Inf)) - 1:
//
//	A = 1 + q^2 C(a,2) min(4 (e^eps(2) - 1), e^eps(2) min(2, P^2))
//	      + sum_{j=3..a} q^j C(a,j) e^((j-1) eps(j)) min(2, P^j).
func theorem9LogA(q float64, base rdpcheck.BaseCurve, a int) *big.Float {
	if q == 1 {
		return mul(bi(int64(a-1)), bf(base.Eps[a-2]))
	}
	Q := bf(q)
	var P *big.Float
	if !math.IsInf(base.Inf, 1) {
		P = sub(bigfloat.Exp(bf(base.Inf)), bi(1))
	}
	minP := func(j int) *big.Float {
		if P == nil {
			return bi(2)
		}
		return minF(bi(2), powInt(P, j))
	}
	e2 := bigfloat.Exp(bf(base.Eps[0]))
	A := add(bi(1), mul(mul(powInt(Q, 2), binom(a, 2)), minF(mul(bi(4), sub(e2, bi(1))), mul(e2, minP(2)))))
	for j := 3; j <= a; j++ {
		t := bigfloat.Exp(mul(bi(int64(j-1)), bf(base.Eps[j-2])))
		A = add(A, mul(mul(powInt(Q, j), binom(a, j)), mul(t, minP(j))))
	}
	return bigfloat.Log(A)
}

// checkUp fails unless got is at or above want and within rel of it.
func checkUp(t *testing.T, name string, got float64, want *big.Float, rel float64) {
	t.Helper()
	diff := sub(bf(got), want)
	if math.IsInf(got, 0) || math.IsNaN(got) || diff.Sign() < 0 {
		t.Errorf("%s = %.17g below the exact %s", name, got, want.Text('g', 25))
		return
	}
	if want.Sign() == 0 {
		if got != 0 {
			t.Errorf("%s = %g, exact 0", name, got)
		}
		return
	}
	if r, _ := quo(diff, want).Float64(); r > rel {
		t.Errorf("%s = %.17g, relative error %.3g against %s", name, got, r, want.Text('g', 25))
	}
}

var alphas = []float64{1, 1.5, 2, 2.5, 3, 7, 10.3, 16, 31.9}

// TestBoundTheorem9: Bound against Theorem 9 and Corollary 10 summed at
// 640 bits, for a Gaussian base (eps(j) = j/(2 sigma^2), eps(+Inf) =
// +Inf) and capped bases (min(rho j, cap), eps(+Inf) = cap, 1 and 0.3,
// where min(2, P^j) bites), q from 1e-6 to 1: never below, within 1e-12 relative
// (fast.WORBound is reference.WORBound in float64, as WORGaussian, whose
// stated accuracy this is).
func TestBoundTheorem9(t *testing.T) {
	gauss := rdpcheck.BaseCurve{Inf: math.Inf(1)}
	capped := rdpcheck.BaseCurve{Inf: 1}
	pure := rdpcheck.BaseCurve{Inf: 0.3} // P = e^0.3 - 1 < 1: P^j < 2 from j = 2
	for j := 2; j <= 32; j++ {
		gauss.Eps = append(gauss.Eps, float64(j)/(2*1.5*1.5))
		capped.Eps = append(capped.Eps, min(0.2*float64(j), 1))
		pure.Eps = append(pure.Eps, min(0.05*float64(j), 0.3))
	}
	for _, c := range []struct {
		name string
		base rdpcheck.BaseCurve
	}{{"gaussian 1.5", gauss}, {"capped at 1", capped}, {"capped at 0.3", pure}} {
		qs := []float64{1e-6, 0.01, 0.2, 0.7, 1}
		if testing.Short() {
			qs = []float64{0.01, 0.7, 1}
		}
		for _, q := range qs {
			logA := func(a int) *big.Float { return theorem9LogA(q, c.base, a) }
			for _, a := range alphas {
				checkUp(t, fmt.Sprintf("Bound(%g, %g, %s)", q, a, c.name), Bound(q, a, c.base), interpolate(a, logA), 1e-12)
			}
		}
	}
}

// theorem27LogA is log A of WBK19's Theorem 27 for the Gaussian at
// integer a >= 2 (reference.WORGaussian's comment gives it): eps(j) =
// j/(2 sigma^2),
//
//	A = 1 + q^2 C(a,2) min(4 (e^eps(2) - 1), 2 e^eps(2))
//	      + sum_{j=3..a} q^j C(a,j) min(4 B(j), 2 e^((j-1) eps(j))),
//	B(j) = D(j) (even j), sqrt(D(j-1) D(j+1)) (odd j),
//	D(j) = sum_{i=0..j} C(j,i) (-1)^(j-i) e^((i-1) eps(i)),
//
// each D(j) by its alternating sum at 640 bits.
func theorem27LogA(q, sigma float64, a int) *big.Float {
	c := quo(bi(1), mul(bi(2), mul(bf(sigma), bf(sigma))))
	ex := make([]*big.Float, a+2) // e^((i-1) eps(i)) = e^(i(i-1) c)
	for i := range ex {
		ex[i] = bigfloat.Exp(mul(bi(int64(i*(i-1))), c))
	}
	D := func(j int) *big.Float {
		s := bi(0)
		for i := 0; i <= j; i++ {
			t := mul(binom(j, i), ex[i])
			if (j-i)%2 == 1 {
				t.Neg(t)
			}
			s = add(s, t)
		}
		return s
	}
	Q := bf(q)
	A := add(bi(1), mul(mul(powInt(Q, 2), binom(a, 2)), minF(mul(bi(4), sub(ex[2], bi(1))), mul(bi(2), ex[2]))))
	for j := 3; j <= a; j++ {
		var B *big.Float
		if j%2 == 0 {
			B = D(j)
		} else {
			B = mul(D(j-1), D(j+1))
			B.Sqrt(B)
		}
		A = add(A, mul(mul(powInt(Q, j), binom(a, j)), minF(mul(bi(4), B), mul(bi(2), ex[j]))))
	}
	return bigfloat.Log(A)
}

// gaussLine is alpha/(2 sigma^2), the unsampled Gaussian.
func gaussLine(sigma, alpha float64) *big.Float {
	return quo(bf(alpha), mul(bi(2), mul(bf(sigma), bf(sigma))))
}

// TestGaussianCurveTheorem27: GaussianCurve against steps times Theorem 27
// (with Corollary 10 between integers) summed at 640 bits, sigma 0.8 to
// 10, q 1e-4 to 0.5: never below, within 1e-12 relative
// (fast.WORGaussian's stated accuracy); q = 0 gives 0, q = 1 the
// Gaussian line, +Inf orders +Inf.
func TestGaussianCurveTheorem27(t *testing.T) {
	sigmas := []float64{0.8, 2, 10}
	if testing.Short() {
		sigmas = []float64{2}
	}
	for _, sigma := range sigmas {
		for _, q := range []float64{1e-4, 0.05, 0.5} {
			cache := map[int]*big.Float{}
			logA := func(a int) *big.Float {
				if v, ok := cache[a]; ok {
					return v
				}
				cache[a] = theorem27LogA(q, sigma, a)
				return cache[a]
			}
			out := make([]float64, len(alphas)+1)
			orders := append(append([]float64{}, alphas...), math.Inf(1))
			if err := GaussianCurve(q, sigma, 3, orders, out); err != nil {
				t.Fatalf("GaussianCurve(%g, %g): %v", q, sigma, err)
			}
			for i, a := range alphas {
				want := mul(bi(3), interpolate(a, logA))
				checkUp(t, fmt.Sprintf("GaussianCurve(%g, %g, 3 steps)[%g]", q, sigma, a), out[i], want, 1e-12)
			}
			if !math.IsInf(out[len(alphas)], 1) {
				t.Errorf("GaussianCurve(%g, %g)[+Inf] = %g, want +Inf", q, sigma, out[len(alphas)])
			}
		}
	}
	out := make([]float64, 3)
	orders := []float64{2, 7.5, 30}
	if err := GaussianCurve(0, 1.3, 5, orders, out); err != nil || out[0] != 0 || out[1] != 0 || out[2] != 0 {
		t.Errorf("GaussianCurve(q = 0) = %v, %v, want zeros", out, err)
	}
	if err := GaussianCurve(1, 1.3, 5, orders, out); err != nil {
		t.Fatal(err)
	}
	for i, a := range orders {
		checkUp(t, fmt.Sprintf("GaussianCurve(q = 1, 1.3, 5 steps)[%g]", a), out[i], mul(bi(5), gaussLine(1.3, a)), 1e-15)
	}
}

// TestGaussianEvent: at each order the least of Theorem 27 there, at every
// higher order of the call, and the unsampled Gaussian alpha/(2 sigma^2)
// (GaussianEvent's doc comment), each exact at 640 bits; within 1e-12.
func TestGaussianEvent(t *testing.T) {
	cases := []struct{ q, sigma float64 }{{0.9, 0.7}, {0.3, 2}, {0.01, 5}}
	if testing.Short() {
		cases = cases[1:2]
	}
	for _, c := range cases {
		orders := []float64{40, 2, 3.5, 12, 8, 60}
		out := make([]float64, len(orders))
		GaussianEvent(c.q, c.sigma, orders, out)
		logA := func(a int) *big.Float { return theorem27LogA(c.q, c.sigma, a) }
		th := make([]*big.Float, len(orders))
		for i, a := range orders {
			th[i] = interpolate(a, logA)
		}
		for i, a := range orders {
			want := gaussLine(c.sigma, a)
			for k, b := range orders {
				if b >= a {
					want = minF(want, th[k])
				}
			}
			checkUp(t, fmt.Sprintf("GaussianEvent(%g, %g)[%g]", c.q, c.sigma, a), out[i], want, 1e-12)
		}
	}
}

// TestGaussianEventOutOfReach: an order above rdpcheck.MaxWOROrder, or one
// whose moments pass rdpcheck.MaxWORExponent, gets the unsampled Gaussian only
// (the least of the three, the bound being out of reach), the others
// still the bound.
func TestGaussianEventOutOfReach(t *testing.T) {
	orders := []float64{rdpcheck.MaxWOROrder + 500, 3}
	out := make([]float64, 2)
	GaussianEvent(0.2, 3, orders, out)
	checkUp(t, "GaussianEvent(0.2, 3)[1524]", out[0], gaussLine(3, orders[0]), 1e-15)
	logA := func(a int) *big.Float { return theorem27LogA(0.2, 3, a) }
	checkUp(t, "GaussianEvent(0.2, 3)[3]", out[1], minF(interpolate(3, logA), gaussLine(3, 3)), 1e-12)
	// beyond MaxWORExponent at order 3 (n = 4: 12/(2 sigma^2) > 1e9): the
	// line alone
	tiny := math.Sqrt(6/rdpcheck.MaxWORExponent) * 0.99
	GaussianEvent(0.5, tiny, []float64{3}, out[:1])
	checkUp(t, "GaussianEvent(0.5, tiny)[3]", out[0], gaussLine(tiny, 3), 1e-15)
}

// TestBeyondExponent: the documented limit n(n-1)/(2 sigma^2) >
// rdpcheck.MaxWORExponent, n = 2 ceil(alpha/2), for 0 < q < 1 only: at alpha =
// 3 (n = 4) the edge is sigma^2 = 6/MaxWORExponent.
func TestBeyondExponent(t *testing.T) {
	edge := math.Sqrt(6 / rdpcheck.MaxWORExponent)
	for _, c := range []struct {
		q, sigma, a float64
		want        bool
	}{
		{0.5, edge * 0.999, 3, true}, {0.5, edge * 1.001, 3, false},
		{0.5, edge * 0.999, 2, false}, // n = 2: 1/sigma^2, far inside
		{1, edge * 0.5, 3, false}, {0, edge * 0.5, 3, false},
		{0.5, edge * 0.999, 4, true}, {0.5, edge * 1.001 * math.Sqrt(30.0/12), 5, false}, // n = 6: 30/(2 sigma^2)
	} {
		if got := BeyondExponent(c.q, c.sigma, c.a); got != c.want {
			t.Errorf("BeyondExponent(%g, %g, %g) = %v, want %v", c.q, c.sigma, c.a, got, c.want)
		}
	}
}
