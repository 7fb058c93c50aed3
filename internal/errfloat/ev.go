package errfloat

import (
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// Val is a float64 value V with a bound E on its absolute error: the
// exact quantity it stands for lies in [V-E, V+E]. Each operation below
// returns the rounded result with a bound that covers the propagated
// errors of its inputs and its own rounding:
//
//   - + and - : u|v| (round to nearest; exact when the result is subnormal);
//   - * and / : u|v| + 2^-1074 (the result may underflow); the propagated
//     part is |x|e_y + |y|e_x + e_x e_y for a product and
//     (e_x + |v| e_y)/(|y|-e_y) for a quotient;
//   - the library's Log, Log1p, Expm1: 1 ulp, 2u|v| (the error analyses of
//     the FreeBSD algorithms Go uses bound them below 1 ulp; the amd64
//     assembly Log measures below 0.72 ulp over 2e5 random arguments); Exp:
//     2 ulps, 4u|v| (the amd64 assembly Exp measures up to 1.6 ulps). The
//     propagated part is the largest |f'| over [x-e, x+e] times e (every f'
//     used here is monotone or |f'| is, so the largest is at an end);
//   - the series em, log1pmx below: their roundings are tracked by the same
//     rules term by term, and the truncated tail is bounded and added.
//
// The bound is itself computed in float64; its relative error is at most
// a few u per operation (and the derivative bounds evaluated in float64 are
// within a few u), far below the factor 1+2^-20 by which Up inflates it
// before it is used, for any chain of fewer than 2^30 operations.
type Val struct{ V, E float64 }

const (
	TinyErr = 0x1p-1074 // error of a product or quotient that underflows
	LibErr  = 2 * Unit  // 1 ulp: one call of Expm1, Log or Log1p
	ExpErr  = 4 * Unit  // 2 ulps: one call of Exp
)

func Exact(x float64) Val { return Val{x, 0} }

func Add(x, y Val) Val {
	v := x.V + y.V
	return Val{v, x.E + y.E + Unit*math.Abs(v)}
}

func Sub(x, y Val) Val {
	v := x.V - y.V
	return Val{v, x.E + y.E + Unit*math.Abs(v)}
}

func Neg(x Val) Val { return Val{-x.V, x.E} }

func Mul(x, y Val) Val {
	v := x.V * y.V
	e := math.Abs(x.V)*y.E + math.Abs(y.V)*x.E + x.E*y.E + Unit*math.Abs(v)
	if math.Abs(v) < 0x1p-1022 && x.V != 0 && y.V != 0 {
		e += TinyErr // may have underflowed
	}
	return Val{v, e + errUnderflow(e, x.E, y.E)}
}

// errUnderflow returns TinyErr where a carried error e, formed from the
// nonzero input errors ex or ey, is below the normal range: there its own
// rounding is no longer relative (a subnormal error times 1/16 rounds to
// 0), so one unit of the last place is added to keep it an upper bound.
// (Found by the tight-zCDP tests: ExponentialMechanism(1e-170, 1.5)
// returned 0, below the true 1.9e-341, whose upward rounding is 5e-324.)
func errUnderflow(e, ex, ey float64) float64 {
	if e < 0x1p-1022 && (ex != 0 || ey != 0) {
		return TinyErr
	}
	return 0
}

// Mul2 is 2x (exact, or infinite on overflow, which OK reports).
func Mul2(x Val) Val { return Val{2 * x.V, 2 * x.E} }

// Half returns x/2 with its rounding error (0 unless x/2 is subnormal).
func Half(x float64) Val {
	h := x / 2
	if 2*h == x {
		return Val{h, 0}
	}
	return Val{h, TinyErr}
}

// SubnormalErr is the error of a rounding into the subnormals: 2^-1074 for a
// nonzero result below 2^-1022, else 0.
func SubnormalErr(v float64) float64 {
	if v != 0 && math.Abs(v) < 0x1p-1022 {
		return TinyErr
	}
	return 0
}

func Div(x, y Val) Val {
	v := x.V / y.V
	d := math.Abs(y.V) - y.E
	if !(d > 0) {
		return Val{v, math.Inf(1)}
	}
	e := (x.E+math.Abs(v)*y.E)/d + Unit*math.Abs(v)
	if math.Abs(v) < 0x1p-1022 && x.V != 0 {
		e += TinyErr // may have underflowed
	}
	return Val{v, e + errUnderflow(e, x.E, y.E)}
}

// OK reports whether x is finite with a finite bound.
func (x Val) OK() bool {
	return !math.IsNaN(x.V) && !math.IsInf(x.V, 0) && !math.IsNaN(x.E) && !math.IsInf(x.E, 0)
}

// Rel is the relative error bound e/|v| (+Inf when v = 0 and e > 0).
func (x Val) Rel() float64 {
	if x.E == 0 {
		return 0
	}
	return x.E / math.Abs(x.V)
}

// Up returns an upper bound on the exact quantity: v + e, with e inflated
// to cover its own rounding, rounded up (v itself when e = 0: no rounding
// happened). A NaN never comes out: a NaN value or bound gives +Inf.
func (x Val) Up() float64 {
	if math.IsNaN(x.V) || math.IsNaN(x.E) {
		return math.Inf(1)
	}
	if x.E == 0 {
		return x.V
	}
	s := x.V + x.E*(1+0x1p-20)
	if math.IsInf(s, 0) {
		return s
	}
	return math.Nextafter(s, math.Inf(1))
}

// UpNonNeg is Up floored at 0, for quantities known to be >= 0 when
// exact: max(0, v + e) is still an upper bound.
func (x Val) UpNonNeg() float64 {
	v := x.Up()
	if v < 0 {
		return 0
	}
	return v
}

func Log(x Val) Val {
	v := xmath.Log(x.V)
	d := x.V - x.E
	if !(d > 0) {
		return Val{v, math.Inf(1)}
	}
	return Val{v, x.E/d + LibErr*math.Abs(v)}
}

func Log1p(x Val) Val {
	v := math.Log1p(x.V)
	d := (1 + x.V) - x.E
	if !(d > 0) {
		return Val{v, math.Inf(1)}
	}
	return Val{v, x.E/d + LibErr*math.Abs(v) + SubnormalErr(v)}
}

func Exp(x Val) Val {
	v := math.Exp(x.V)
	e := math.Exp(x.V+x.E)*x.E + ExpErr*v
	if v < 0x1p-1022 {
		e += TinyErr
	}
	return Val{v, e}
}

func Expm1(x Val) Val {
	v := math.Expm1(x.V)
	return Val{v, math.Exp(x.V+x.E)*x.E + LibErr*math.Abs(v) + SubnormalErr(v)}
}

// Series coefficients, correctly rounded: invFact[k] = 1/k!, invOdd[k] =
// 1/(2k+3). Each carries an error of at most u times itself.
var InvFact [40]float64
var invOdd [64]float64

func init() {
	f := new(big.Float).SetPrec(200).SetInt64(1)
	for k := 0; k < len(InvFact); k++ {
		if k > 0 {
			f.Mul(f, new(big.Float).SetInt64(int64(k)))
		}
		InvFact[k], _ = new(big.Float).Quo(big.NewFloat(1), f).Float64()
	}
	for k := range invOdd {
		invOdd[k] = 1 / float64(2*k+3) // one rounding
	}
}

// EmExact returns em(y) = expm1(y) - y for an exact y, with its rounding
// and truncation error.
func EmExact(y float64) Val {
	ay := math.Abs(y)
	if y < -1 || y > 2 || math.IsNaN(y) {
		return Sub(Expm1(Exact(y)), Exact(y))
	}
	// em(y) = y^2 P(y), P(y) = sum_{k>=2} y^(k-2)/k!, by Horner from the
	// first k = N whose tail bound |y|^(N-1)/(N+1)! / (1-|y|/(N+2)) is
	// below 2^-64 (P >= e^-1 - 0 > 0.36 on [-1, 2], so that is < 2^-62 P).
	// The power is a running product (no math.Pow: this loop dominated the
	// event curves' cost) and 1/(1-|y|/(N+2)) <= 2 for |y| <= 2, N >= 2;
	// the product's roundings (< 2 ulps a step, < 40 steps) are covered
	// by the factor 1+2^-40.
	n := 2
	pw := ay // |y|^(n-1)
	t := 1.0 // the tail bound after stopping at n
	for {
		t = 2 * pw * InvFact[n+1] * (1 + 0x1p-40)
		if t < 0x1p-64 || n == len(InvFact)-2 {
			break
		}
		n++
		pw *= ay
	}
	yy := Exact(y)
	p := Val{InvFact[n], Unit * InvFact[n]}
	for k := n - 1; k >= 2; k-- {
		p = Add(Val{InvFact[k], Unit * InvFact[k]}, Mul(yy, p))
	}
	p.E += t
	return Mul(Mul(yy, yy), p)
}

// Em returns em(y) = expm1(y) - y (>= 0) for y given with an error.
func Em(y Val) Val {
	r := EmExact(y.V)
	if y.E > 0 {
		// em'(y) = expm1(y), increasing
		r.E += math.Max(math.Abs(math.Expm1(y.V-y.E)), math.Abs(math.Expm1(y.V+y.E))) * (1 + 4*Unit) * y.E
	}
	return r
}

// EmDD returns em(yh + yl) for a double-double argument whose sum has
// an error of at most ye: em(yh) + expm1(yh) yl, with the second-order
// remainder yl^2/2 e^(yh+|yl|) bounded.
func EmDD(yh, yl, ye float64) Val {
	r := EmExact(yh)
	d := Mul(Expm1(Exact(yh)), Exact(yl))
	r = Add(r, d)
	r.E += yl * yl * math.Exp(yh+math.Abs(yl))
	if ye > 0 {
		w := math.Abs(yl) + ye
		r.E += math.Max(math.Abs(math.Expm1(yh-w)), math.Abs(math.Expm1(yh+w))) * (1 + 4*Unit) * ye
	}
	return r
}

// Log1pmxExact returns log1p(x) - x (<= 0) for an exact x > -1.
func Log1pmxExact(x float64) Val {
	if x < -0.7 || x > 2 || math.IsNaN(x) {
		// cancellation at most 3.5 (at x = -0.7)
		return Sub(Log1p(Exact(x)), Exact(x))
	}
	// log1p(x) = 2 atanh(y), y = x/(2+x) in [-0.54, 1/2]; x - 2y = x y, so
	// log1p(x) - x = -y (x - 2 y^2 B(y^2)), B(z) = sum_k z^k/(2k+3).
	xx := Exact(x)
	y := Div(xx, Add(Exact(2), xx))
	z := Mul(y, y)
	b, tail := SeriesOdd(z)
	b.E += tail
	return Neg(Mul(y, Sub(xx, Mul2(Mul(z, b)))))
}

// SeriesOdd returns B(z) = sum_{k>=0} z^k/(2k+3) for 0 <= z <= 0.3 by
// Horner, and the bound of the truncated tail.
func SeriesOdd(z Val) (Val, float64) {
	zz := z.V + z.E
	n := 0
	tail := 0.0
	// z^(n+1) as a running product, 1/(1-z) once; the roundings (< 4
	// ulps a step, < 64 steps) are covered by the factor 1+2^-40
	pw := zz
	inv := 1 / (1 - zz)
	for {
		// tail after stopping at n: z^(n+1)/(2n+5) / (1-z)
		tail = inv * pw * invOdd[n+1] * (1 + 0x1p-40)
		if tail < 0x1p-66 || n == len(invOdd)-2 {
			break
		}
		n++
		pw *= zz
	}
	b := Val{invOdd[n], Unit * invOdd[n]}
	for k := n - 1; k >= 0; k-- {
		b = Add(Val{invOdd[k], Unit * invOdd[k]}, Mul(z, b))
	}
	return b, tail
}

// Log1pmx returns log1p(x) - x for x given with an error (x - e > -1).
func Log1pmx(x Val) Val {
	r := Log1pmxExact(x.V)
	if x.E > 0 {
		lo, hi := x.V-x.E, x.V+x.E
		if !(1+lo > 0) {
			return Val{r.V, math.Inf(1)}
		}
		// |d/dx| = |x|/(1+x), |.| of a monotone function: largest at an end
		r.E += math.Max(math.Abs(lo)/(1+lo), math.Abs(hi)/(1+hi)) * (1 + 4*Unit) * x.E
	}
	return r
}

// Double-double logarithms. LogDD(x) is within 2^-100 |log x| (its
// series and reductions are carried to about 2^-104); a difference of two
// is within 2^-100 (|log x| + |log y|) plus the double-double sum's 2^-104
// of the same.
func logDDErr(lx float64) float64 { return 0x1p-99 * math.Abs(lx) }

// DDLogRatio returns log(p/q) for p, q > 0 as a double-double with its
// error bound.
func DDLogRatio(p, q float64) (h, l, e float64) {
	ph, pl := LogDD(p)
	qh, ql := LogDD(q)
	h, l = DDAdd(ph, pl, -qh, -ql)
	return h, l, logDDErr(ph) + logDDErr(qh)
}

// Scaled is a scaled Val, (M.V ± M.E) 2^X, for products and quotients whose
// factors or result may overflow or underflow.
type Scaled struct {
	M Val
	X int
}

func ToScaled(a Val) Scaled {
	f, x := math.Frexp(a.V)
	return Scaled{Val{f, scaleErr(a.E, -x)}, x}
}

// scaleErr is e 2^k rounded up (Ldexp rounds only into the subnormals).
func scaleErr(e float64, k int) float64 {
	r := math.Ldexp(e, k)
	if e == 0 || r >= 0x1p-1022 {
		return r
	}
	return math.Nextafter(r, math.Inf(1))
}

func ScaledMul(a, b Scaled) Scaled {
	r := ToScaled(Mul(a.M, b.M))
	r.X += a.X + b.X
	return r
}

func ScaledDiv(a, b Scaled) Scaled {
	r := ToScaled(Div(a.M, b.M))
	r.X += a.X - b.X
	return r
}

// sevAdd adds two non-negative scaled values.
func ScaledAdd(a, b Scaled) Scaled {
	if a.M.V == 0 {
		return b
	}
	if b.M.V == 0 {
		return a
	}
	if a.X < b.X {
		a, b = b, a
	}
	d := b.X - a.X // <= 0
	bv := math.Ldexp(b.M.V, d)
	bm := Val{bv, scaleErr(b.M.E, d) + SubnormalErr(bv)}
	if bv == 0 {
		bm.E += TinyErr // underflowed to 0
	}
	r := ToScaled(Add(a.M, bm))
	r.X += a.X
	return r
}

// Float returns the scaled value as a Val (+Inf on overflow, with one
// rounding into the subnormals on underflow).
func (s Scaled) Float() Val {
	v := math.Ldexp(s.M.V, s.X)
	if math.IsInf(v, 0) {
		return Val{v, 0}
	}
	e := scaleErr(s.M.E, s.X)
	if s.M.V != 0 && math.Abs(v) < 0x1p-1022 {
		e += TinyErr // rounded into the subnormals, or to 0
	}
	return Val{v, e}
}

// RoundUp returns v(1+rel) rounded up, so that an exact value within a
// relative distance rel of v is never above the result.
func RoundUp(v, rel float64) float64 {
	if v <= 0 || math.IsInf(v, 1) {
		return v
	}
	return math.Nextafter(v*(1+rel), math.Inf(1))
}

// RoundUpTiny is RoundUp for v >= 0, also below the normal range where
// float64 has no relative precision left: there four steps of the smallest
// subnormal are added, which cover the half-step roundings of a tiny result
// and of its product by 1+rel.
func RoundUpTiny(v, rel float64) float64 {
	if v >= 0 && v < 0x1p-1000 {
		return v*(1+rel) + 4*0x1p-1074
	}
	return RoundUp(v, rel)
}

// ScaleUp returns v*f rounded up.
func ScaleUp(v, f float64) float64 {
	if f == 1 || v == 0 || math.IsInf(v, 0) {
		return v
	}
	return math.Nextafter(v*f, math.Inf(1))
}

// LogRatio returns log(p/q) for p, q > 0.
func LogRatio(p, q float64) Val {
	if NearRatio(p, q) {
		return Log1p(Div(Exact(p-q), Exact(q)))
	}
	if r := p / q; r >= 0x1p-1000 && r <= 0x1p1000 {
		return Log(Div(Exact(p), Exact(q)))
	}
	return Sub(Log(Exact(p)), Log(Exact(q)))
}

// NearRatio reports whether p is within a factor 2 of q (then p-q is exact).
func NearRatio(p, q float64) bool { return 2*p >= q && p <= 2*q }
