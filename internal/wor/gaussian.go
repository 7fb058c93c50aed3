package wor

// Subsampling without replacement: the bounds of Wang, Balle and
// Kasiviswanathan 2019 (arXiv 1808.00087; WBK19), in float64, rounded up
// by carried error bounds. reference/wor.go states the theorems.
//
// # Method (WORGaussian)
//
// Theorem 27 needs the forward differences D(j) = sum_i C(j,i) (-1)^(j-i)
// T(i), T(i) = e^(c i(i-1)), c = 1/(2 sigma^2), only at even j (odd j enter
// through sqrt(D(j-1) D(j+1))). As alternating sums they cancel (thousands
// of bits at sigma = 100); they are never summed that way here.
//
//  1. With W ~ N(-c, 2c), E[e^(iW)] = T(i), so D(j) = E[(e^W - 1)^j]: for
//     even j the integral over z of phi(z) (e^(v(z)) - 1)^j, v = z/sigma - c,
//     whose integrand is non-negative. It is taken by the trapezoidal rule
//     with a step h = 2^-m. By Poisson summation the rule over the whole
//     line errs by sum_{k != 0} F(2 pi k/h), and the Fourier transform F of
//     the integrand is e^(-w^2/2) E[(zeta e^W - 1)^j] with |zeta| = 1, so
//     |F(w)| <= e^(-w^2/2) E[(e^W + 1)^j] <= e^(-w^2/2) 2^j T(j): the
//     aliasing error is at most 2.01 e^(-2 pi^2/h^2) 2^j T(j). h is chosen
//     from a proven lower bound on D(j) (log-convexity of the moments
//     E|X|^j in j: ln D(j) >= 2 ln D(j-2) - ln D(j-4), and Lyapunov's
//     D(j) >= D(2)^(j/2)) so that this is below 2^-56 D(j), and checked
//     after the sum.
//  2. On each side of the zero z0 = 1/(2 sigma) of v the log-integrand
//     g = j ln|e^v - 1| - z^2/2 has g'' <= -1, so it is log-concave with
//     one mode, both modes lie in [min(0, z0) - sqrt(j) - 1, z0 + j/sigma +
//     sqrt(j) + 1] (signs of g' at the ends), and the tails beyond 9.5 more
//     are bounded by f(z_end)/|g'(z_end)| (a log-concave density beyond its
//     mode lies under its tangent exponential), as are the nodes omitted
//     there.
//  3. Each node's exponent is formed in double-double from
//     ln|e^v - 1| = v/2 + ln|v| + ln(sinh(|v|/2)/(|v|/2)) (|v| <= 1, the
//     last term a positive series) or v + log1p(-e^-v), log1p(-e^v)
//     (|v| > 1), so that the factor j multiplies an error of about u times
//     a term below 0.46, not u times ln|e^v - 1|. Each node's error bound
//     is summed with it; the sum is compensated.
//  4. Not every D(j) is needed: D(j) = T(j) P(no isolated vertex in the
//     random multigraph on j vertices with Poisson(2c) edges per pair)
//     (inclusion-exclusion over the isolated vertices gives the alternating
//     sum), and by the union bound that probability is at least
//     1 - j e^(-2c(j-1)). Where that exceeds 1/2, 4 D(j) > 2 T(j) and the
//     minimum in Theorem 27 is 2 T(j) without D(j). The orders where it
//     does not are an interval from 2 (j e^(-2c(j-1)) is unimodal), so
//     the quadrature runs for few orders at small sigma (j <= 6 at sigma
//     = 1.1, <= 88 at sigma = 4) and for all at sigma = 100.
//  5. Each term of A - 1 is formed in the log: j ln q (double-double),
//     ln C(alpha, j) (C carried exactly enough in double-double), the
//     minimum's upper bound. A - 1 is summed relative to its largest term
//     and ln A = log1p(A - 1) is rounded up by the collected relative
//     error (ln(1 + (A-1)(1+r)) <= ln A + r (A-1)/A <= (1+r) ln A).

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/search"
	"github.com/rdpcheck/rdpcheck/internal/sgm"
)

// worGauss holds, for one sigma, the constants and the forward differences
// up to an order.
type worGauss struct {
	ch, cl float64 // c = 1/(2 sigma^2), double-double
	sh, sl float64 // s = 1/sigma, double-double
	n      int     // largest even order filled
	jc     int     // ln D(j) known for even j <= jc; above, 4 D(j) > 2 T(j) is proven
	logD   [rdpcheck.MaxWOROrder + 2]float64
	errD   [rdpcheck.MaxWOROrder + 2]float64 // bound on |computed - exact| of logD
}

// lnInt[k] is ln k in double-double for k = 0..rdp.MaxWOROrder+1 (ln 0
// unused), for ln C(a, j) = sum of ln(a-i+1) - ln i without rounding
// the binomial.
var lnInt [rdpcheck.MaxWOROrder + 2][2]float64

// lnTab[k] is ln(1 + k/128) in double-double, for lnFast.
var lnTab [129][2]float64

func init() {
	for k := 1; k < len(lnInt); k++ {
		lnInt[k][0], lnInt[k][1] = errfloat.LogDD(float64(k))
	}
	for k := range lnTab {
		lnTab[k][0], lnTab[k][1] = errfloat.LogDD(1 + float64(k)/128)
	}
}

// lnFast returns ln x for x > 0 (normal) in double-double with absolute
// error below 2^-70 + 2^-100 |ln x|: x = m 2^e, m in [1, 2), m = t (1+r)
// with t = 1 + k/128 the nearest table point (m - t exact, |r| <= 2^-8),
// ln(1+r) = r - r^2/2 (double-double) + r^3 (1/3 - r/4 + ... - r^5/8)
// (float64: truncated after r^8, the rest below 2^-72/9, rounding below
// 2^-53 |r|^3/3 <= 2^-78).
func lnFast(x float64) (float64, float64) {
	m, e := math.Frexp(x)
	m, e = 2*m, e-1
	k := int((m-1)*128 + 0.5)
	t := 1 + float64(k)/128
	rh, rl := errfloat.DDDiv(m-t, 0, t, 0)
	r2h, r2l := errfloat.TwoProd(rh, rh)
	r2l += 2 * rh * rl
	tail := rh * r2h * (1.0/3 - rh*(1.0/4-rh*(1.0/5-rh*(1.0/6-rh*(1.0/7-rh/8)))))
	h, l := errfloat.DDAdd(rh, rl, -r2h/2, -r2l/2)
	h, l = errfloat.DDAdd(h, l, tail, 0)
	h, l = errfloat.DDAdd(h, l, lnTab[k][0], lnTab[k][1])
	eh, el := errfloat.DDMul(float64(e), 0, errfloat.Ln2Hi, errfloat.Ln2Lo)
	return errfloat.DDAdd(eh, el, h, l)
}

func newWORGauss(g *worGauss, sigma float64, n int) error {
	s2h, s2l := errfloat.TwoProd(sigma, sigma)
	g.ch, g.cl = errfloat.DDDiv(1, 0, 2*s2h, 2*s2l)
	g.sh, g.sl = errfloat.DDDiv(1, 0, sigma, 0)
	if math.IsInf(g.ch, 0) || math.IsNaN(g.ch) || g.ch > 1e300 {
		return errWORRange
	}
	g.n = n
	// D(2) = e^(2c) - 1: Expm1 within 1 ulp, 2c within 2^-104.
	d2 := math.Expm1(2 * g.ch)
	g.logD[0], g.errD[0] = 0, 0
	g.logD[2] = math.Log(d2)
	g.errD[2] = 4*errfloat.Unit + 2*g.ch*0x1p-100
	g.jc = 2
	for j := 4; j <= n; j += 2 {
		if !g.undecided(j - 2) {
			break // j-2 is the first decided even order
		}
		g.jc = j
		if err := g.quad(j); err != nil {
			return err
		}
	}
	return nil
}

var errWORRange = fmt.Errorf("%w: sigma too small for the float64 bound", rdpcheck.ErrTooLarge)

// undecided reports whether the union bound fails to prove 4 D(j) > 2 T(j):
// j e^(-2c(j-1)) > 0.49 (computed within a few ulps, so 0.49 leaves room).
func (g *worGauss) undecided(j int) bool {
	return float64(j)*math.Exp(-2*g.ch*float64(j-1)) > 0.49
}

// lnT returns ln T(j) = c j(j-1) in double-double.
func (g *worGauss) lnT(j int) (float64, float64) {
	return errfloat.DDMul(g.ch, g.cl, float64(j)*float64(j-1), 0)
}

// lnAbsExpm1 returns ln|e^v - 1| for v = vh+vl != 0 as double-double with
// a bound on its absolute error.
func lnAbsExpm1(vh, vl float64) (h, l, e float64) {
	av := math.Abs(vh)
	switch {
	case vh > 1:
		t := math.Exp(-vh)
		corr := math.Log1p(-t)
		// exp(-vh): 2 ulps; vl ignored (|vl| <= u vh); log1p: 1 ulp.
		e = 2*errfloat.Unit*math.Abs(corr) + (4*errfloat.Unit+math.Abs(vl))*t/(1-t) + 0x1p-100*vh
		h, l = errfloat.FastTwoSum(vh, vl+corr)
		return h, l, e
	case vh < -1:
		t := math.Exp(vh)
		corr := math.Log1p(-t)
		e = 2*errfloat.Unit*math.Abs(corr) + (4*errfloat.Unit*av+math.Abs(vl))*t/(1-t)
		return corr, 0, e
	}
	// |v| <= 1: v/2 + ln|v| + ln(sinh(x)/x), x = |v|/2.
	x := av / 2
	x2 := x * x
	// sinh(x)/x - 1 = sum_{k>=1} x^(2k)/(2k+1)!: all positive; to x^14
	// the tail is below 1e-19 relative at x = 1/2.
	s := x2 * (1.0/6 + x2*(1.0/120+x2*(1.0/5040+x2*(1.0/362880+x2*(1.0/39916800+x2*(1.0/6227020800+x2*(1.0/1307674368000)))))))
	corr := math.Log1p(s)
	lh, ll := lnFast(av)
	ll += vl / vh // ln|vh + vl| = ln|vh| + vl/vh, the rest below (vl/vh)^2 <= 2^-200
	h, l = errfloat.DDAdd(lh, ll, vh/2, vl/2)
	h, l = errfloat.DDAdd(h, l, corr, 0)
	e = 6*errfloat.Unit*corr + 1e-19 + 0x1p-70 + 0x1p-98*(math.Abs(lh)+1)
	return h, l, e
}

// quad computes ln D(j) for even j >= 4 (steps 1-3 of the Method).
func (g *worGauss) quad(j int) error {
	fj := float64(j)
	th, _ := g.lnT(j)
	lnS := fj*errfloat.Ln2 + th*(1+1e-15) + 1e-300 // ln of an upper bound on E[(e^W+1)^j]
	// Proven lower bound on ln D(j): Lyapunov and log-convexity.
	lb := fj / 2 * (g.logD[2] - g.errD[2])
	lb = max(lb, 2*(g.logD[j-2]-g.errD[j-2])-(g.logD[j-4]+g.errD[j-4]))
	lb -= 1e-12 * (math.Abs(lb) + 1) // the float64 arithmetic of the bound itself
	s := g.sh
	z0 := 0.5 * s
	sq := math.Sqrt(fj)
	mR := g.mode(j, z0, z0+fj*s+sq+1)
	mL := g.mode(j, min(0, z0)-sq-1, z0)
	gR, _, _, _ := g.nodeExp(j, mR)
	gL, _, _, _ := g.nodeExp(j, mL)
	// Where |e^v - 1| < 1 (z < z0) the integrand is below phi, so the left
	// lobe and its nodes hold at most 1 + h phi(0) < 2: skipped when D(j) >
	// e^50 is proven, that 2 counted in the error.
	skipLeft := lb > 50
	shift := gR
	if !skipLeft {
		shift = max(gL, gR)
	}
	width := 10.0
	for try := 0; try < 3; try++ {
		need := lnS - lb + 56*errfloat.Ln2 + 1
		h := math.Min(0.5, math.Pi*math.Sqrt(2/need))
		_, e := math.Frexp(h)
		h = math.Ldexp(1, e-1) // a power of two <= h: nodes k h exact
		var sum, comp, errSum, bounds float64
		nodes := func(k1, k2 int) {
			for k := k1; k <= k2; k++ {
				eh, el, ee, ok := g.nodeExp(j, float64(k)*h)
				if !ok {
					continue
				}
				arg := (eh - shift) + el
				f := math.Exp(arg)
				errSum += f * (ee + errfloat.Unit*math.Abs(arg) + 5*errfloat.Unit)
				sum, comp = errfloat.TwoSumAcc(sum, comp, f)
			}
		}
		rk1, rk2 := int(math.Ceil((mR-width)/h)), int(math.Floor((mR+width)/h))
		bounds += g.tail(j, float64(rk2)*h, shift, false)
		switch lk1, lk2 := int(math.Ceil((mL-width)/h)), int(math.Floor((mL+width)/h)); {
		case skipLeft:
			rk1 = max(rk1, int(math.Floor(z0/h))+1)
			nodes(rk1, rk2)
			bounds += g.tail(j, float64(rk1)*h, shift, true) + 2*math.Exp(-shift)
		case float64(lk2)*h >= z0 || float64(rk1)*h <= z0 || lk2 >= rk1-1:
			nodes(lk1, rk2)
			bounds += g.tail(j, float64(lk1)*h, shift, true)
		default:
			nodes(lk1, lk2)
			nodes(rk1, rk2)
			bounds += g.tail(j, float64(lk1)*h, shift, true) + g.tail(j, float64(lk2)*h, shift, false) +
				g.tail(j, float64(rk1)*h, shift, true)
		}
		total := sum + comp
		lnDapprox := shift + math.Log(total*h) - errfloat.LnSqrt2Pi
		alias := 2.02 * math.Exp(-2*math.Pi*math.Pi/(h*h)+lnS-lnDapprox) // relative to D
		rel := (errSum+bounds/h)/total + alias + 4*errfloat.Unit
		if !(alias <= 0x1p-50 && rel <= 1e-11) {
			width, lb = width+8, lb-20 // wider, finer, and check again
			continue
		}
		g.logD[j] = lnDapprox
		g.errD[j] = rel/(1-rel) + errfloat.Unit*(math.Abs(shift)+math.Abs(math.Log(total*h))+2) + 1e-16
		return nil
	}
	return fmt.Errorf("%w: WORGaussian quadrature did not reach its accuracy at j = %d", rdpcheck.ErrTooLarge, j)
}

// gPrime returns g'(z) = j s e^v/(e^v - 1) - z and g”(z) = -j s^2 e^v/(e^v-1)^2 - 1.
func (g *worGauss) gPrime(j int, z float64) (float64, float64) {
	v := z*g.sh - g.ch
	fj, s := float64(j), g.sh
	if v > 0 {
		r := 1 / (-math.Expm1(-v)) // e^v/(e^v-1)
		return fj*s*r - z, -fj*s*s*r*(r-1) - 1
	}
	r := math.Exp(v) / (-math.Expm1(v)) // e^v/(1-e^v)
	return -fj*s*r - z, -fj*s*s*r*(r+1) - 1
}

// mode returns an approximation of the maximum of g in (lo, hi), where g'
// changes sign, by safeguarded Newton steps (the tails are bounded a
// posteriori, so a rough mode only costs nodes).
func (g *worGauss) mode(j int, lo, hi float64) float64 {
	z := 0.5 * (lo + hi)
	for range 30 {
		d1, d2 := g.gPrime(j, z)
		if d1 > 0 {
			lo = z
		} else {
			hi = z
		}
		n := z - d1/d2
		if !(n > lo && n < hi) {
			n = 0.5 * (lo + hi)
		}
		if math.Abs(n-z) < 1e-3 {
			return n
		}
		z = n
	}
	return z
}

// nodeExp returns j ln|e^v - 1| - z^2/2 at z (double-double) and a bound on
// its absolute error; ok is false at v = 0 (the integrand is 0 there).
func (g *worGauss) nodeExp(j int, z float64) (h, l, e float64, ok bool) {
	ph, pl := errfloat.TwoProd(g.sh, z)
	pl += g.sl * z
	vh, vl := errfloat.DDAdd(ph, pl, -g.ch, -g.cl)
	if vh == 0 {
		return 0, 0, 0, false
	}
	Lh, Ll, Le := lnAbsExpm1(vh, vl)
	// error of v itself (2^-100 relative to |s z| + c) moved through ln|e^v - 1|,
	// whose derivative is at most 1 + 1/|v|
	Le += 0x1p-100 * (math.Abs(ph) + g.ch) * (1 + 1/math.Abs(vh))
	jh, jl := errfloat.DDMul(Lh, Ll, float64(j), 0)
	zh, zl := errfloat.TwoProd(z, z)
	h, l = errfloat.DDAdd(jh, jl, -zh/2, -zl/2)
	e = float64(j)*Le + 0x1p-100*(math.Abs(jh)+math.Abs(zh))
	return h, l, e, true
}

// tail returns f(z)/|g'(z)| e^-shift: with g' of the wanted sign at z
// (positive: z left of its piece's mode, bounding the integral from the
// piece's start to z; negative: right of it, to the piece's end) this
// bounds that integral and the nodes in it (log-concavity on each side of
// z0). The wrong sign gives +Inf, which the caller's check rejects.
func (g *worGauss) tail(j int, z, shift float64, positive bool) float64 {
	eh, el, _, ok := g.nodeExp(j, z)
	if !ok {
		return math.Inf(1)
	}
	gp, _ := g.gPrime(j, z)
	if (positive && !(gp > 0)) || (!positive && !(gp < 0)) {
		return math.Inf(1)
	}
	return 1.01 * math.Exp(eh-shift+el) / math.Abs(gp)
}

// logTerm returns an upper bound on ln m(j), the minimum of Theorem 27, and
// its error (for odd j from the neighbouring even differences).
func (g *worGauss) logTerm(j int) (float64, float64) {
	th, tl := g.lnT(j)
	tErr := 0x1p-100*math.Abs(th) + errfloat.Unit*math.Abs(th)
	tUp := errfloat.Ln2 + th + tl
	if j == 2 {
		// min(4 (e^(2c) - 1), 2 e^(2c)).
		d := 2*errfloat.Ln2 + g.logD[2]
		if d+g.errD[2] < tUp+tErr {
			return d + g.errD[2], g.errD[2]
		}
		return tUp + tErr, tErr
	}
	var bUp, bErr float64
	switch {
	case j%2 == 0 && j <= g.jc:
		bErr = g.errD[j]
		bUp = 2*errfloat.Ln2 + g.logD[j] + bErr
	case j%2 == 1 && j+1 <= g.jc:
		bErr = (g.errD[j-1] + g.errD[j+1]) / 2
		bUp = 2*errfloat.Ln2 + (g.logD[j-1]+g.logD[j+1])/2 + bErr
	default:
		return tUp + tErr, tErr
	}
	bUp += errfloat.Unit * math.Abs(bUp)
	if bUp < tUp+tErr {
		return bUp, bErr + errfloat.Unit*math.Abs(bUp)
	}
	return tUp + tErr, tErr
}

// logA returns an upper bound on ln A at integer order a in [2, g.n] and its
// relative error bound (step 5 of the Method).
func (g *worGauss) logA(q float64, a int, lqh, lql float64) (float64, float64) {
	// Terms x_j = j ln q + ln C(a, j) + ln m(j) (upper bounds), two passes.
	var xs [rdpcheck.MaxWOROrder + 1]float64
	var maxErr float64
	xmax := math.Inf(-1)
	cbh, cbl := lnInt[a][0], lnInt[a][1] // ln C(a, j), double-double, from j = 1
	for j := 2; j <= a; j++ {
		cbh, cbl = errfloat.DDAdd(cbh, cbl, lnInt[a-j+1][0], lnInt[a-j+1][1])
		cbh, cbl = errfloat.DDAdd(cbh, cbl, -lnInt[j][0], -lnInt[j][1])
		mh, me := g.logTerm(j)
		jqh, jql := errfloat.DDMul(lqh, lql, float64(j), 0)
		xh, xl := errfloat.DDAdd(jqh, jql, cbh, cbl)
		xh, xl = errfloat.DDAdd(xh, xl, mh, 0)
		x := xh + xl
		e := me + 0x1p-98*(math.Abs(jqh)+math.Abs(cbh)+math.Abs(mh)) + errfloat.Unit*math.Abs(x) + 1e-30*float64(j)
		xs[j] = x + e // upper bound
		maxErr = max(maxErr, e)
		xmax = max(xmax, xs[j])
	}
	_ = maxErr // the terms are upper bounds already: maxErr is accuracy, not safety
	return logOnePlusSum(xs[2:a+1], xmax)
}

// logOnePlusSum returns ln(1 + sum_j e^(x_j)) for the upper bounds xs (their
// largest xmax) and the relative error bound of its rounding (step 5).
func logOnePlusSum(xs []float64, xmax float64) (float64, float64) {
	var s float64
	for _, x := range xs {
		s += math.Exp(x - xmax)
	}
	// Each exp within 2 ulps plus u |x_j - xmax| e^(x_j - xmax) <= u/e for
	// its argument, the sum within n u; ln(A-1) within u (|xmax| + |ln s|).
	lnS := math.Log(s)
	absE := (float64(len(xs))+8)*errfloat.Unit + errfloat.Unit*(math.Abs(xmax)+math.Abs(lnS)+2) // on ln(A-1)
	lnAm1 := xmax + lnS
	if lnAm1 > 0 { // ln A >= ln(A-1): the absolute error is relative to ln A
		la := lnAm1 + math.Log1p(math.Exp(-lnAm1))
		return la, absE/la + 6*errfloat.Unit
	}
	// ln A = log1p(A-1): A-1 within absE relative, so is ln A.
	return math.Log1p(math.Exp(lnAm1)), absE + 6*errfloat.Unit
}

// BeyondExponent reports whether the order a <= rdpcheck.MaxWOROrder needs
// moments beyond rdpcheck.MaxWORExponent at q in (0, 1): the reference's limit,
// in the same float64 expression, so that both accept the same inputs.
func BeyondExponent(q, sigma, a float64) bool {
	n := 2 * math.Ceil(max(a, 2)/2)
	return n*(n-1)/(2*sigma*sigma) > rdpcheck.MaxWORExponent && q > 0 && q < 1
}

// GaussianCurve is fast.WORGaussianCurve for valid arguments: steps > 0,
// len(out) >= len(orders), q in [0, 1], sigma > 0 finite, orders >= 1 (or
// +Inf) within rdpcheck.MaxWOROrder and, for 0 < q < 1, rdpcheck.MaxWORExponent.
// The error wraps rdpcheck.ErrTooLarge where the float64 bound cannot be had
// (c = 1/(2 sigma^2) beyond 1e300, a quadrature short of its accuracy).
func GaussianCurve(q, sigma float64, steps int, orders, out []float64) error {
	top := 2.0 // the largest finite order, at least 2
	for _, a := range orders {
		if !math.IsInf(a, 1) {
			top = max(top, a)
		}
	}
	fs := float64(steps)
	if q == 0 || q == 1 {
		for i, a := range orders {
			v := 0.0
			if q == 1 {
				v = sgm.Gaussian(sigma, a)
			}
			out[i] = errfloat.ScaleUp(v, fs)
		}
		return nil
	}
	n := int(math.Ceil(top))
	n += n % 2
	var g worGauss
	if err := newWORGauss(&g, sigma, n); err != nil {
		return err
	}
	lqh, lql := errfloat.LogDD(q)
	// ln A at each integer order, computed once.
	var la, lr [rdpcheck.MaxWOROrder + 1]float64
	var have [rdpcheck.MaxWOROrder + 1]bool
	get := func(a int) (float64, float64) {
		if !have[a] {
			la[a], lr[a] = g.logA(q, a, lqh, lql)
			have[a] = true
		}
		return la[a], lr[a]
	}
	for i, a := range orders {
		var v, rel float64
		switch lo := math.Floor(a); {
		case math.IsInf(a, 1):
			out[i] = math.Inf(1)
			continue
		case a <= 2:
			v, rel = get(2)
		case lo == a:
			v, rel = get(int(lo))
			v /= a - 1
			rel += errfloat.Unit
		default:
			t := a - lo
			x, rx := get(int(lo))
			y, ry := get(int(lo) + 1)
			v = ((1-t)*x + t*y) / (a - 1)
			rel = max(rx, ry) + 6*errfloat.Unit
		}
		out[i] = errfloat.ScaleUp(errfloat.RoundUp(v, rel), fs)
	}
	return nil
}

// GaussianEvent writes fast.WORGaussianEvent's value at each order (q in
// [0, 1], sigma > 0 finite, orders >= 1 or +Inf): the least of Theorem
// 27's bound there, that bound at every higher order of the call, and the
// unsampled Gaussian. Orders the bound does not reach (above
// rdpcheck.MaxWOROrder, beyond rdpcheck.MaxWORExponent, or where GaussianCurve
// reports rdpcheck.ErrTooLarge) get the other two only.
func GaussianEvent(q, sigma float64, orders, out []float64) {
	var idx []int // the orders the bound supports
	var sub []float64
	for i, a := range orders {
		if a <= rdpcheck.MaxWOROrder {
			idx, sub = append(idx, i), append(sub, a)
		}
	}
	b := make([]float64, len(orders))
	for i := range b {
		b[i] = math.Inf(1)
	}
	if len(sub) > 0 {
		vals := make([]float64, len(sub))
		if !curveInRange(q, sigma, sub, vals) {
			// one order out of reach: each alone
			for k, a := range sub {
				if !curveInRange(q, sigma, []float64{a}, vals[k:k+1]) {
					vals[k] = math.Inf(1)
				}
			}
		}
		for k, i := range idx {
			b[i] = vals[k]
		}
	}
	search.MinOverHigher(orders, b)
	for i, a := range orders {
		u := 0.0 // the unsampled Gaussian (nothing released at q = 0)
		if q > 0 {
			u = sgm.Gaussian(sigma, a)
		}
		out[i] = math.Min(u, b[i])
	}
}

// curveInRange is GaussianCurve at one step where every order is within
// rdpcheck.MaxWORExponent, reporting false, with out unwritten, where an order
// is beyond it or the bound cannot be had (the errors of
// fast.WORGaussianCurve that wrap rdpcheck.ErrTooLarge).
func curveInRange(q, sigma float64, orders, out []float64) bool {
	for _, a := range orders {
		if BeyondExponent(q, sigma, a) {
			return false
		}
	}
	return GaussianCurve(q, sigma, 1, orders, out) == nil
}
