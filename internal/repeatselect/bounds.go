package repeatselect

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// Bounds holds the order-independent parts of the bounds of Theorems 2
// and 6 for one curve, mean and shape, as upper bounds. Its zero value is
// made ready by Init; it is large (a table of constants for curves of up
// to rsMaxConst orders) and meant to live on the caller's stack.
type Bounds struct {
	poisson bool
	logMean errfloat.Val
	mean    float64
	c       float64 // TNB: (1+eta) min bracket, rounded up
	bhLog   float64 // Poisson: min over orders of log sqrt(1 - e^-rdp), rounded up
	zeroD   bool    // Poisson: some rdp is 0 (deltahat = 0)
	// Poisson, curves of at most rsMaxConst orders: log delta_j(eps) =
	// A_j - (a_j - 1) eps, A_j = (a_j-1)(rdp_j + log1p(-1/a_j)) - log a_j
	// (NaN where order j does not enter), formed once.
	nA int
	A  [rsMaxConst]errfloat.Val
}

const rsMaxConst = 1024

// Init prepares b for fast.RepeatAndSelect's valid arguments (see its
// checks). Its error wraps rdpcheck.ErrNotConverged where log(1/gamma) cannot
// be found or verified for the mean.
func (b *Bounds) Init(orders, rdp []float64, mean, shape float64) error {
	b.mean = mean
	b.logMean = errfloat.Log(errfloat.Exact(mean))
	if math.IsInf(shape, 1) {
		b.poisson = true
		b.bhLog = 0
		for j, a := range orders {
			if a < 1 || math.IsInf(rdp[j], 1) {
				continue
			}
			if rdp[j] == 0 {
				b.zeroD = true
				continue
			}
			l := errfloat.Log(errfloat.Neg(errfloat.Expm1(errfloat.Exact(-rdp[j]))))
			b.bhLog = math.Min(b.bhLog, errfloat.Half(l.V).V+l.E/2+errfloat.Unit*math.Abs(l.V))
		}
		if len(orders) <= rsMaxConst {
			b.nA = len(orders)
			for j, a := range orders {
				b.A[j] = errfloat.Val{V: math.NaN(), E: 0}
				if a > 1 && !math.IsInf(a, 1) && !math.IsInf(rdp[j], 1) {
					A := errfloat.Exact(a)
					l := errfloat.Add(errfloat.Exact(rdp[j]), errfloat.Log1p(errfloat.Neg(errfloat.Div(errfloat.Exact(1), A))))
					b.A[j] = errfloat.Sub(errfloat.Mul(l, errfloat.Sub(A, errfloat.Exact(1))), errfloat.Log(A))
				}
			}
		}
		return nil
	}
	u, err := tnbLogInvGammaUp(mean, shape)
	if err != nil {
		return err
	}
	br := math.Inf(1)
	for j, a := range orders {
		if a < 1 || math.IsInf(rdp[j], 1) {
			continue
		}
		var t errfloat.Val
		if math.IsInf(a, 1) {
			t = errfloat.Exact(rdp[j])
		} else {
			A := errfloat.Exact(a)
			t = errfloat.Div(errfloat.Add(errfloat.Mul(errfloat.Exact(rdp[j]), errfloat.Sub(A, errfloat.Exact(1))), u), A)
		}
		br = math.Min(br, t.Up())
	}
	b.c = errfloat.Mul(errfloat.Add(errfloat.Exact(shape), errfloat.Exact(1)), errfloat.Exact(br)).Up()
	return nil
}

// At is the bound at orders[i] > 1, rounded up.
func (b *Bounds) At(orders, rdp []float64, i int) float64 {
	if math.IsInf(rdp[i], 1) {
		return math.Inf(1)
	}
	lam := orders[i]
	v := errfloat.Exact(rdp[i])
	var am1 errfloat.Val
	if !math.IsInf(lam, 1) {
		am1 = errfloat.Sub(errfloat.Exact(lam), errfloat.Exact(1))
		v = errfloat.Add(v, errfloat.Div(b.logMean, am1))
	}
	if !b.poisson {
		return errfloat.Add(v, errfloat.Exact(b.c)).Up()
	}
	// Poisson: epshat from below, deltahat from above.
	epsLo := 0.0
	if !math.IsInf(lam, 1) {
		e := errfloat.Log1p(errfloat.Div(errfloat.Exact(1), am1))
		epsLo = math.Max(0, e.V-e.E*(1+0x1p-20))
	}
	dh := b.deltaHatUp(orders, rdp, epsLo)
	return errfloat.Add(v, errfloat.Mul(errfloat.Exact(b.mean), errfloat.Exact(dh))).Up()
}

// deltaHatUp is an upper bound on min over orders of delta at eps (see
// reference's deltaHat), capped at 1.
func (b *Bounds) deltaHatUp(orders, rdp []float64, eps float64) float64 {
	if b.zeroD {
		return 0
	}
	m := b.bhLog
	for j, a := range orders {
		if a < 1 || math.IsInf(rdp[j], 1) {
			continue
		}
		if math.IsInf(a, 1) {
			if rdp[j] <= eps {
				return 0
			}
			continue
		}
		if a <= 1 {
			continue
		}
		if b.nA > 0 {
			if aj := b.A[j]; !math.IsNaN(aj.V) {
				// eps >= 0 is exact; a-1 is formed with its bound.
				m = math.Min(m, errfloat.Sub(aj, errfloat.Mul(errfloat.Sub(errfloat.Exact(a), errfloat.Exact(1)), errfloat.Exact(eps))).Up())
			}
			continue
		}
		A := errfloat.Exact(a)
		l := errfloat.Sub(errfloat.Exact(rdp[j]), errfloat.Exact(eps))
		l = errfloat.Add(l, errfloat.Log1p(errfloat.Neg(errfloat.Div(errfloat.Exact(1), A))))
		l = errfloat.Sub(errfloat.Mul(l, errfloat.Sub(A, errfloat.Exact(1))), errfloat.Log(A))
		m = math.Min(m, l.Up())
	}
	if m >= 0 {
		return 1
	}
	return errfloat.Exp(errfloat.Exact(m)).Up()
}

// Min is the smallest bound over orders >= alpha (and > 1); ok is false
// where there is no such order.
func (b *Bounds) Min(orders, rdp []float64, alpha float64) (v float64, ok bool) {
	v, ok = math.Inf(1), false
	for i, a := range orders {
		if a > 1 && a >= alpha {
			ok = true
			v = math.Min(v, b.At(orders, rdp, i))
		}
	}
	return v, ok
}

// tnbMean returns the truncated negative binomial's mean at u = log(1/gamma)
// with its error bound.
func tnbMean(u, eta float64) errfloat.Val {
	U := errfloat.Exact(u)
	switch {
	case eta == 0:
		return errfloat.Div(errfloat.Expm1(U), U)
	case eta == 1:
		return errfloat.Exp(U)
	}
	E := errfloat.Exact(eta)
	return errfloat.Div(errfloat.Mul(E, errfloat.Expm1(U)), errfloat.Neg(errfloat.Expm1(errfloat.Neg(errfloat.Mul(E, U)))))
}

// tnbLogMean returns the log of the truncated negative binomial's mean at
// u = log(1/gamma) > 0 with its error bound, where tnbMean's e^u may
// overflow: log expm1(u), as u + log1p(-e^-u) for u > 700, and
//
//	eta = 0: log mean = log expm1(u) - log u
//	eta > 0: log mean = log eta + log expm1(u) - log(-expm1(-eta u))
func tnbLogMean(u, eta float64) errfloat.Val {
	U := errfloat.Exact(u)
	lem := errfloat.Log(errfloat.Expm1(U))
	if u > 700 {
		lem = errfloat.Add(U, errfloat.Log1p(errfloat.Neg(errfloat.Exp(errfloat.Neg(U)))))
	}
	switch {
	case eta == 0:
		return errfloat.Sub(lem, errfloat.Log(U))
	case eta == 1:
		return U
	}
	E := errfloat.Exact(eta)
	return errfloat.Sub(errfloat.Add(errfloat.Log(E), lem), errfloat.Log(errfloat.Neg(errfloat.Expm1(errfloat.Neg(errfloat.Mul(E, U))))))
}

// tnbLogInvGammaUp returns an upper bound on u = log(1/gamma) with mean(u) =
// mean: a float64 bisection, then raised until the computed mean minus its
// bound reaches the target (mean increases with u). Above mean = 1e300
// the same is done on log mean (tnbLogMean): the mean at u overflows
// float64 before it reaches the largest means (at mean 2.65e305, shape 0,
// e^u/u needs u = 710 > log(MaxFloat64); found by FuzzAccountant, which
// got an untyped "not verified" error where the reference has a value).
func tnbLogInvGammaUp(mean, eta float64) (errfloat.Val, error) {
	if mean == 1 {
		return errfloat.Exact(0), nil
	}
	if mean > 1e300 {
		return tnbLogInvGammaUpLog(mean, eta)
	}
	lo, hi := 0.0, 1.0
	for tnbMean(hi, eta).V < mean {
		hi *= 2
		if hi > 1e300 {
			return errfloat.Val{}, fmt.Errorf("no gamma for mean %g: %w", mean, rdpcheck.ErrNotConverged)
		}
	}
	return invertVerified(lo, hi, mean, func(u float64) errfloat.Val { return tnbMean(u, eta) }, mean)
}

// invertVerified returns the least u in [lo, hi] (to the verification's
// step) whose f(u) minus its error bound reaches target, for f increasing
// in u: a bisection on f's value, then u raised until the bound verifies.
// The step doubles from 4 ulps of u: near mean = 1 (u small) the error
// bound of the mean (ulps of the mean, not of u) needs a step far above
// u's ulps; doubling overshoots the smallest verified u by at most the
// last step, below twice the bound's width in u.
func invertVerified(lo, hi, target float64, f func(float64) errfloat.Val, mean float64) (errfloat.Val, error) {
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid).V < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	u, step := hi, 4*errfloat.Unit*hi
	for range 200 {
		m := f(u)
		if m.V-m.E*(1+0x1p-20) >= target {
			return errfloat.Exact(u), nil
		}
		u = math.Nextafter(u+step, math.Inf(1))
		step *= 2
	}
	return errfloat.Val{}, fmt.Errorf("gamma for mean %g not verified: %w", mean, rdpcheck.ErrNotConverged)
}

// tnbLogInvGammaUpLog is tnbLogInvGammaUp on log mean, for mean > 1e300
// (log mean is increasing in u). u is raised until the computed log mean
// minus its bound reaches log mean's upper bound.
func tnbLogInvGammaUpLog(mean, eta float64) (errfloat.Val, error) {
	tl := errfloat.Log(errfloat.Exact(mean))
	target := tl.V + tl.E*(1+0x1p-20)
	// mean(u) >= expm1(u)/u: mean(1024) > e^1024/1024 > MaxFloat64.
	return invertVerified(0, 1024, target, func(u float64) errfloat.Val { return tnbLogMean(u, eta) }, mean)
}

// Curve writes into out (len(orders)) the smallest bound over the curve's
// orders at or above each of its own orders (+Inf where none is > 1).
func (b *Bounds) Curve(orders, rdp, out []float64) {
	// Per-order bounds first (in out), then the smallest over larger orders.
	for i, a := range orders {
		out[i] = math.Inf(1)
		if a > 1 {
			out[i] = b.At(orders, rdp, i)
		}
	}
	// Overwriting in place is safe in any order: out[j] is replaced by the
	// smallest bound over a subset of every set it belongs to.
	for i, a := range orders {
		m := math.Inf(1)
		for j, o := range orders {
			if o >= a && o > 1 && out[j] < m {
				m = out[j]
			}
		}
		out[i] = m
	}
}
