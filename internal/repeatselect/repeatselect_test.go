package repeatselect

import (
	"fmt"
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"
)

const prec = 256

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

func add(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Add(x, y) }
func sub(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Sub(x, y) }
func mul(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Mul(x, y) }
func quo(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Quo(x, y) }

// logInvGamma is log(1/gamma) of the truncated negative binomial of shape
// eta with the given mean, where mean = eta (1-gamma)/(gamma (1 -
// gamma^eta)) has a closed-form root: eta = 1, gamma = 1/mean; eta = 2,
// mean = 2/(gamma (1+gamma)), gamma = (sqrt(1 + 8/mean) - 1)/2.
func logInvGamma(mean, eta float64) *big.Float {
	M := bf(mean)
	switch eta {
	case 1:
		return bigfloat.Log(M)
	case 2:
		s := add(bf(1), quo(bf(8), M))
		s.Sqrt(s)
		g := quo(sub(s, bf(1)), bf(2))
		l := bigfloat.Log(g)
		return l.Neg(l)
	}
	panic("no closed form")
}

// theorems evaluates Papernot and Steinke's (2022) bounds for one
// curve, mean and shape at 256 bits, from their statements (the
// reference's doc comment gives them): Theorem 2 for shape eta
// (lambdahat over the curve's orders >= 1), Theorem 6 for Poisson
// (epshat = log1p(1/(lambda-1)), deltahat the least over the orders of
// the improved conversion's delta and sqrt(1 - e^-rdp), capped at 1).
type theorems struct {
	orders, rdp  []float64
	mean, shape  float64
	logMean, br  *big.Float         // log mean; Theorem 2's least bracket
	tv           *big.Float         // the least log sqrt(1 - e^-rdp) (it grows with rdp)
	A            map[int]*big.Float // (a-1)(rdp + log1p(-1/a)) - log a, when needed
	zero, infPos int                // an order >= 1 with rdp 0 (-1: none); the order +Inf (-1: none)
}

func newTheorems(orders, rdp []float64, mean, shape float64) *theorems {
	th := &theorems{orders: orders, rdp: rdp, mean: mean, shape: shape, logMean: bigfloat.Log(bf(mean)), A: map[int]*big.Float{}, zero: -1, infPos: -1}
	least := math.Inf(1)
	for j, a := range orders {
		if a < 1 || math.IsInf(rdp[j], 1) {
			continue
		}
		if math.IsInf(a, 1) {
			th.infPos = j
		}
		if rdp[j] == 0 {
			th.zero = j
		}
		least = min(least, rdp[j])
	}
	if !math.IsInf(shape, 1) {
		u := logInvGamma(mean, shape)
		for j, a := range orders {
			if a < 1 || math.IsInf(rdp[j], 1) {
				continue
			}
			t := bf(rdp[j]) // lambdahat = +Inf: the limit eps(+Inf)
			if !math.IsInf(a, 1) {
				t = quo(add(mul(bf(a-1), bf(rdp[j])), u), bf(a)) // (1-1/a) eps(a) + u/a
			}
			if th.br == nil || t.Cmp(th.br) < 0 {
				th.br = t
			}
		}
	} else if least > 0 && !math.IsInf(least, 1) {
		tv := bigfloat.Log(sub(bf(1), bigfloat.Exp(bf(-least))))
		th.tv = tv.Quo(tv, bf(2))
	}
	return th
}

// at is the bound at orders[i] > 1 (nil for +Inf).
func (th *theorems) at(i int) *big.Float {
	o, r := th.orders, th.rdp
	lam := o[i]
	if math.IsInf(r[i], 1) {
		return nil
	}
	v := bf(r[i])
	if !math.IsInf(lam, 1) {
		v = add(v, quo(th.logMean, bf(lam-1)))
	}
	if !math.IsInf(th.shape, 1) {
		return add(v, mul(bf(th.shape+1), th.br))
	}
	epsHat := bf(0)
	epsF := 0.0
	if !math.IsInf(lam, 1) {
		epsHat = bigfloat.Log(quo(bf(lam), bf(lam-1)))
		epsF = math.Log1p(1 / (lam - 1))
	}
	if th.zero >= 0 || (th.infPos >= 0 && bf(r[th.infPos]).Cmp(epsHat) <= 0) {
		return v // deltahat = 0
	}
	logDelta := th.tv
	// The improved conversion's log delta, in float64 first: only the
	// orders within 1e-9 of the least are evaluated at 256 bits.
	fl := make([]float64, len(o))
	fmin := math.Inf(1)
	for j, a := range o {
		fl[j] = math.Inf(1)
		if a > 1 && !math.IsInf(a, 1) && !math.IsInf(r[j], 1) {
			fl[j] = (a-1)*(r[j]-epsF+math.Log1p(-1/a)) - math.Log(a)
			fmin = min(fmin, fl[j])
		}
	}
	for j, a := range o {
		if fl[j] > fmin+1e-9*math.Abs(fmin)+1e-12 {
			continue
		}
		A, ok := th.A[j]
		if !ok {
			A = sub(mul(add(bf(r[j]), bigfloat.Log(quo(bf(a-1), bf(a)))), bf(a-1)), bigfloat.Log(bf(a)))
			th.A[j] = A
		}
		c := sub(A, mul(bf(a-1), epsHat))
		if logDelta == nil || c.Cmp(logDelta) < 0 {
			logDelta = c
		}
	}
	dh := bf(1)
	if logDelta != nil && logDelta.Sign() < 0 {
		dh = bigfloat.Exp(logDelta)
	}
	return add(v, mul(bf(th.mean), dh))
}

// checkUp fails unless got is at or above want and within 1e-12 relative
// (fast.RepeatAndSelect's stated accuracy); want nil means +Inf.
func checkUp(t *testing.T, name string, got float64, want *big.Float) {
	t.Helper()
	if want == nil {
		if !math.IsInf(got, 1) {
			t.Errorf("%s = %g, want +Inf", name, got)
		}
		return
	}
	diff := sub(bf(got), want)
	if math.IsInf(got, 0) || diff.Sign() < 0 {
		t.Errorf("%s = %.17g below the exact %s", name, got, want.Text('g', 25))
		return
	}
	if want.Sign() == 0 {
		if got != 0 {
			t.Errorf("%s = %g, exact 0", name, got)
		}
		return
	}
	if r, _ := quo(diff, want).Float64(); r > 1e-12 {
		t.Errorf("%s = %.17g, relative error %.3g against %s", name, got, r, want.Text('g', 25))
	}
}

// curves: a Gaussian's line rho alpha (+Inf at +Inf), and an
// eps0-DP mechanism's min(rho alpha, eps0), finite at +Inf; order 1
// carries the KL (the line at 1).
func curves() (orders [][]float64, rdps [][]float64) {
	base := []float64{1, 1.25, 1.5, 2, 3, 5, 8, 16, 32, 64, 256, math.Inf(1)}
	for _, rho := range []float64{1e-4, 0.01, 0.3} {
		g := make([]float64, len(base))
		d := make([]float64, len(base))
		for i, a := range base {
			g[i] = rho * a
			d[i] = min(rho*a, 2)
		}
		orders = append(orders, base, base)
		rdps = append(rdps, g, d)
	}
	return orders, rdps
}

// TestBoundsAgainstTheorems: At, Min and Curve against the theorems'
// bounds at 256 bits (theorems), for Poisson and the truncated negative
// binomial at shapes 1 and 2 (log(1/gamma) in closed form), means 1 to
// 1e4: every per-order bound, the least over orders >= alpha, and the
// curve.
func TestBoundsAgainstTheorems(t *testing.T) {
	orders, rdps := curves()
	means := []float64{1, 1.5, 10, 1e4}
	if testing.Short() {
		means = []float64{1.5, 1e4}
	}
	for c := range orders {
		o, r := orders[c], rdps[c]
		for _, shape := range []float64{math.Inf(1), 1, 2} {
			for _, mean := range means {
				var b Bounds
				if err := b.Init(o, r, mean, shape); err != nil {
					t.Fatalf("Init(curve %d, mean %g, shape %g): %v", c, mean, shape, err)
				}
				out := make([]float64, len(o))
				b.Curve(o, r, out)
				th := newTheorems(o, r, mean, shape)
				var least *big.Float // over orders >= o[i], filled from the top
				for i := len(o) - 1; i >= 0; i-- {
					name := fmt.Sprintf("curve %d, mean %g, shape %g, order %g", c, mean, shape, o[i])
					if o[i] > 1 {
						w := th.at(i)
						checkUp(t, "At: "+name, b.At(o, r, i), w)
						if w != nil && (least == nil || w.Cmp(least) < 0) {
							least = w
						}
					}
					checkUp(t, "Curve: "+name, out[i], least)
					v, ok := b.Min(o, r, o[i])
					if !ok {
						t.Errorf("Min: %s: no order, want one", name)
					}
					checkUp(t, "Min: "+name, v, least)
				}
			}
		}
	}
}

// TestManyOrders: past rsMaxConst orders Init keeps no table and At
// forms each order's log delta anew; the bound at a few orders of a
// 1100-order Gaussian curve still meets Theorem 6's.
func TestManyOrders(t *testing.T) {
	n := 1100
	o := make([]float64, n)
	r := make([]float64, n)
	for i := range o {
		o[i] = 1 + float64(i+1)/8
		r[i] = 0.05 * o[i]
	}
	var b Bounds
	if err := b.Init(o, r, 3, math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	th := newTheorems(o, r, 3, math.Inf(1))
	for _, i := range []int{0, 7, 80, 1099} {
		checkUp(t, fmt.Sprintf("1100 orders: At(%g)", o[i]), b.At(o, r, i), th.at(i))
	}
}
