package pld

import "math"

// Float64 normal integrals with a relative error bound, for the bucket
// masses of grid.go.
//
// Assumption (the accuracy of Go's math package, as package fast assumes
// for Exp, Expm1, Log and Log1p): math.Exp, Expm1, Log, Log1p and Erfc
// return values within 2 ulps (4u relative, u = 2^-53) of the exact
// function at their float64 argument. TestNormalIntegrals checks the
// results against bigNormTail.

// sc is a scaled value m e^ls with |value - exact| <= err e^ls.
type sc struct{ m, ls, err float64 }

// hi returns (m + err) e^ls rounded up: Exp within 4u of its value at
// its argument, which is exact.
func (a sc) hi() float64 { return math.Exp(a.ls) * (a.m + a.err) * (1 + 8*u64) }

// at returns (m + err) e^(ls - ref) rounded up and (m - err) e^(ls-ref)
// rounded down (clamped at 0). The difference ls - ref is within u of its
// magnitude, which moves the exponential by that much relative; Exp adds
// 4u and the products 2u.
func (a sc) at(ref float64) (hi, lo float64) {
	d := a.ls - ref
	e := math.Exp(d)
	r := (12 + 1.01*math.Abs(d)) * u64
	hi = (a.m + a.err) * e * (1 + r)
	lo = (a.m - a.err) * e * (1 - r)
	if lo < 0 {
		lo = 0
	}
	return hi, lo
}

// sub returns a - f b for f >= 0 (on the larger scale).
func (a sc) sub(b sc, f float64) sc { return a.add(b, -f) }

// add returns a + f b. Each scale difference (a.ls - ls, b.ls - ls) is
// within u of its magnitude, which moves its exponential by that much
// relative; Exp adds 4u, the products and the sum a few u more.
func (a sc) add(b sc, f float64) sc {
	ls := math.Max(a.ls, b.ls)
	if math.IsInf(ls, -1) {
		return sc{0, ls, 0}
	}
	term := func(v sc, f float64) (m, err float64) {
		if f == 0 {
			return 0, 0
		}
		d := v.ls - ls
		e := math.Exp(d) * f
		if e == 0 {
			// e^d < 2^-1075 relative to the other: all error
			if v.m == 0 && v.err == 0 {
				return 0, 0
			}
			return 0, (math.Abs(v.m)+v.err)*math.SmallestNonzeroFloat64 + math.SmallestNonzeroFloat64
		}
		r := (12 + 1.01*math.Abs(d)) * u64
		return v.m * e, v.err*e*(1+r) + r*math.Abs(v.m)*e
	}
	ma, ea := term(a, 1)
	mb, eb := term(b, math.Abs(f))
	if f < 0 {
		mb = -mb
	}
	m := ma + mb
	return sc{m, ls, (ea + eb + u64*math.Abs(m)) * (1 + 2*u64)}
}

func (a sc) scale(f float64) sc { // f > 0, within 1u
	return sc{a.m * f, a.ls, (a.err*f + 2*u64*math.Abs(a.m*f)) * (1 + 2*u64)}
}

var logSqrt2Pi = 0.5 * math.Log(2*math.Pi)

func logPhi(z float64) float64 { return -z*z/2 - logSqrt2Pi }

// mills returns R(x) = Qn(x)/phi(x) for x >= 0 and its relative error bound.
func mills(x float64) (float64, float64) {
	if x < 37 {
		y := x / math.Sqrt2
		e := math.Erfc(y)
		phi := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
		r := 0.5 * e / phi
		// erfc 4u, argument y within 2u relative: |dlog erfc/dy| <= 2(y+1);
		// phi: exponent within u x^2, exp 4u, sqrt(2 pi) 2u; 3 roundings.
		rel := (4+4*(y+1)*y+x*x+4+2+3)*u64 + 2*u64
		return r, rel
	}
	// asymptotic series, enveloping: error below the first omitted term.
	x2 := x * x
	sum, term := 1.0, 1.0
	k := 1
	for ; k <= 12; k++ {
		term *= -float64(2*k-1) / x2
		sum += term
	}
	next := math.Abs(term) * float64(2*k-1) / x2
	return sum / x, next + 40*u64
}

// normInt returns N0(z, w) = integral_z^(z+w) phi, w > 0 (w may be +Inf; z
// may be -Inf), as a scaled value.
func normInt(z, w float64) sc {
	if math.IsInf(z, -1) {
		// Phi(b), b = z+w is given as w's end: caller passes b via normUpTo
		panic("normInt: z = -Inf")
	}
	b := z + w
	if !math.IsInf(w, 1) && w <= 0.5 && math.Abs(z)*w <= 0.5 {
		m, rel := jSeries(z, w)
		return sc{m, logPhi(z), rel * m}
	}
	if z >= 0 {
		r1, e1 := mills(z)
		if math.IsInf(w, 1) {
			return sc{r1, logPhi(z), e1 * r1}
		}
		r2, e2 := mills(b)
		E := math.Exp(-z*w - w*w/2)
		eE := (3*(z*w+w*w)+6)*u64 + 4*u64
		m := r1 - E*r2
		err := e1*r1 + E*r2*(e2+eE+2*u64) + 2*u64*math.Abs(m)
		return sc{m, logPhi(z), err}
	}
	if b <= 0 && !math.IsInf(w, 1) {
		return normInt(-b, w)
	}
	// z < 0 < b: 1 - Qn(b) - Qn(-z)
	m, err := 1.0, 0.0
	if !math.IsInf(w, 1) {
		r, e := mills(b)
		t := math.Exp(logPhi(b)) * r
		m -= t
		err += t * (e + (b*b+8)*u64)
	}
	r, e := mills(-z)
	t := math.Exp(logPhi(z)) * r
	m -= t
	err += t*(e+(z*z+8)*u64) + 3*u64
	return sc{m, 0, err}
}

// normUpTo returns Phi(b) = integral_-Inf^b phi.
func normUpTo(b float64) sc {
	if b <= 0 {
		r, e := mills(-b)
		return sc{r, logPhi(b), r * (e + 2*u64)}
	}
	r, e := mills(b)
	t := math.Exp(logPhi(b)) * r
	return sc{1 - t, 0, t*(e+(b*b+8)*u64) + 2*u64}
}

// jSeries returns J(z,w) = integral_0^w e^(-z t - t^2/2) dt for w <= 1/2,
// |z| w <= 1/2, from the Taylor series of the integrand: G_k = g_k w^k,
// (k+1) G_(k+1) = -z w G_k - w^2 G_(k-1), J = w sum G_k/(k+1). The
// coefficients are majorised by those of e^(x t), x = |z|w + w^2/2 <= 5/8,
// so 40 terms leave less than x^21/21! e^x < 1e-25 of J/w >= e^-x; the
// rounding of the recurrence and sum is below 3k u of the majorant's sum
// (relative bound 130 u e^(2x)).
func jSeries(z, w float64) (float64, float64) {
	zw, w2 := z*w, w*w
	gPrev, g := 0.0, 1.0
	sum := 1.0
	for k := 0; k < 40; k++ {
		gNext := (-zw*g - w2*gPrev) / float64(k+1)
		gPrev, g = g, gNext
		sum += g / float64(k+2)
	}
	x := math.Abs(zw) + w2/2
	return w * sum, (130*math.Exp(2*x) + 4) * u64
}

// sSeries returns S(a, c, w) = integral_0^w e^(-a t - t^2/2) (e^(c t) - 1) dt
// for w <= 1/2, |a| w <= 1/2, |c| w <= 1/2 (c of either sign), from the
// Taylor coefficients d_k of the integrand, the difference of those of
// e^(-(a-c)t - t^2/2) (G) and e^(-a t - t^2/2): (k+1) d_(k+1) = -a d_k +
// c G_k - d_(k-1), d_0 = 0, d_1 = c, with no cancellation at the start.
// The integrand is majorised by |c| t e^(x t), x = (|a|+|c|) w + w^2/2 <=
// 9/8; 50 terms leave below 1e-24 relative, and the rounding is below
// 170 u e^(2x) relative (|S| >= |c| w^2 e^-x / 2 (1 - |c|w/2)).
func sSeries(a, c, w float64) (float64, float64) {
	aw, cw, w2 := a*w, c*w, w*w
	ap := (a - c) * w
	// scaled: G_k w^k, D_k = d_k w^k
	gPrev, g := 0.0, 1.0
	dPrev, d := 0.0, cw
	// sum D_k/(k+1), k >= 1
	sum := d / 2
	for k := 1; k < 50; k++ {
		// advance G to k (G currently at k-1 -> compute G_k)
		gNext := (-ap*g - w2*gPrev) / float64(k)
		gPrev, g = g, gNext
		dNext := (-aw*d + cw*g - w2*dPrev) / float64(k+1)
		dPrev, d = d, dNext
		sum += d / float64(k+2)
	}
	x := (math.Abs(a)+math.Abs(c))*w + w2/2
	return w * sum, (170*math.Exp(2*x)/(1-math.Abs(cw)/2) + 4) * u64
}
