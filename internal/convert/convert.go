package convert

import (
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// EpsAt returns an upper bound on the conversion's eps at one order a
// (> 1 or +Inf), given the RDP r >= 0 there and logDelta = log delta.
// With each library log within 2 ulps (4u relative), log(1-1/alpha) within
// 6u of itself (Log1mInv) and a-1 exact (a <= 2^53), the float64
// evaluation is within 2u r + 8u|l1| + 4u|t| + 4u(|log delta| +
// log alpha)/(alpha-1) of the exact value for these inputs (classic:
// u r + 7u|t|); since log alpha/(alpha-1) <= |t| + |log delta|/(alpha-1),
// both are below 8u mag, mag = r + |l1| + |t| + |log delta|/(alpha-1).
// Adding 9u mag (one u for a-1 rounded above 2^53) and one ulp makes it an
// upper bound.
func EpsAt(conv rdpcheck.Conversion, a, r, logDelta float64) float64 {
	if math.IsInf(r, 1) {
		return r
	}
	if math.IsInf(a, 1) {
		return r // log(1/delta)/(alpha-1) -> 0, log1p(-1/alpha) -> 0
	}
	am1 := a - 1 // exact for a in (1, 2^53] by Sterbenz / integer spacing within 1 ulp
	var e, mag float64
	if conv == rdpcheck.Classic {
		t := -logDelta / am1
		e = r + t
		mag = r + t
	} else {
		l1 := Log1mInv(a)
		t := -(logDelta + math.Log(a)) / am1
		e = r + l1 + t
		mag = r + math.Abs(l1) + math.Abs(t) + math.Abs(logDelta)/am1
	}
	return math.Nextafter(e+9*errfloat.Unit*mag, math.Inf(1))
}

// Log1mInv returns log1p(-1/a) = log((a-1)/a) for a > 1, within 6u of
// itself. Below 2 it is formed as log((a-1)/a) with a-1 exact (Sterbenz):
// the rounded 1/a would lose u/(a-1) absolute, unbounded relative to the
// result near a = 1; the quotient rounds once (u absolute after the log,
// below 1.5u|result| as |result| >= log 2) and the log adds 2 ulps. From 2
// on, log1p(-1/a): the rounding of 1/a moves it by u/(a-1) <= 2u|result|.
func Log1mInv(a float64) float64 {
	if a < 2 {
		return math.Log((a - 1) / a)
	}
	return math.Log1p(-1 / a)
}

// Epsilon is fast.Epsilon for a valid curve (orders > 1 or +Inf, values
// >= 0 or +Inf, of one non-zero length) and logDelta = log delta, delta
// in (0, 1): the least EpsAt over the orders, floored at 0, and the first
// order attaining it.
func Epsilon(orders, curve []float64, logDelta float64, conv rdpcheck.Conversion) (eps, order float64) {
	eps, order = math.Inf(1), orders[0]
	for i, a := range orders {
		if e := EpsAt(conv, a, curve[i], logDelta); e < eps {
			eps, order = e, a
		}
	}
	if eps < 0 {
		eps = 0
	}
	return eps, order
}

// Delta is fast.Delta for a valid curve and eps >= 0 finite: the least
// delta over the orders, rounded up, capped at 1, and the order attaining
// it (fast.Delta's doc comment gives the error analysis).
func Delta(orders, curve []float64, eps float64, conv rdpcheck.Conversion) (delta, order float64) {
	best, order := 0.0, orders[0] // log delta, capped at 0
	for i, a := range orders {
		r := curve[i]
		if math.IsInf(r, 1) {
			continue
		}
		var ld float64
		if math.IsInf(a, 1) {
			if r <= eps {
				ld = math.Inf(-1)
			} else {
				continue
			}
		} else {
			am1 := a - 1
			d := r - eps
			var mag float64
			if conv == rdpcheck.Classic {
				ld = am1 * d
				mag = math.Abs(ld)
			} else {
				l1 := Log1mInv(a)
				la := math.Log(a)
				ld = am1*(d+l1) - la
				mag = am1*(math.Abs(d)+math.Abs(l1)+math.Abs(r)+eps) + la
			}
			// within am1 (4u|d| + 9u|l1|) + 5u log a (improved; classic
			// 2u|ld|), the library logs at 2 ulps
			ld += 10*errfloat.Unit*mag + 2*errfloat.Unit
		}
		if ld < best {
			best, order = ld, a
		}
	}
	if best == 0 {
		return 1, order
	}
	if math.IsInf(best, -1) {
		return 0, order // rdp(+Inf) <= eps: delta = 0 exactly
	}
	// exp is within 2 ulps, and within half a subnormal ulp more where the
	// result is subnormal; a delta below 2^-1074 is rounded up to it, not
	// to 0
	delta = math.Nextafter(math.Exp(best)*(1+4*errfloat.Unit), math.Inf(1))
	return math.Min(delta, 1), order
}

// epsTerm is the conversion's term of eps at the order a: eps = rdp +
// epsTerm (unrounded; for the best-order search's certificate only).
func epsTerm(conv rdpcheck.Conversion, a, logDelta float64) float64 {
	if conv == rdpcheck.Classic {
		return -logDelta / (a - 1)
	}
	return Log1mInv(a) - (logDelta+math.Log(a))/(a-1)
}

// MinEpsTerm is the least of epsTerm over [a, b]: the classic term
// decreases; the improved one has derivative log(delta alpha)/(alpha-1)^2,
// so it decreases up to 1/delta and increases after, where its value is
// log1p(-delta). A margin of 1e-12 relative covers the roundings.
func MinEpsTerm(conv rdpcheck.Conversion, a, b, logDelta float64) float64 {
	var m float64
	switch top := math.Exp(-logDelta); {
	case conv == rdpcheck.Classic || b <= top:
		m = epsTerm(conv, b, logDelta)
	case a >= top:
		m = epsTerm(conv, a, logDelta)
	default:
		m = math.Log1p(-math.Exp(logDelta))
	}
	return m - 1e-12*math.Abs(m)
}

// DeltaLower bounds from below the delta at every order in [a, b] given
// the RDP rdpA at a, for an RDP non-decreasing in the order (the
// best-order search's certificate).
func DeltaLower(conv rdpcheck.Conversion, a, b, rdpA, eps float64) float64 {
	// log delta = (alpha-1)(rdp - eps) + h(alpha), with h = (alpha-1)
	// log1p(-1/alpha) - log alpha (improved; 0 classic) decreasing:
	// h'(alpha) = log1p(-1/alpha) < 0
	d := rdpA - eps
	l := min((a-1)*d, (b-1)*d)
	if conv == rdpcheck.Improved {
		l += (b-1)*Log1mInv(b) - math.Log(b)
	}
	return math.Exp(l - 1e-12*math.Abs(l))
}

// ZCDPLine is fast.ZCDPEpsilonRDP for rho > 0 finite and ld = log delta,
// delta in (0, 1): the improved conversion of the line rho alpha, least by
// golden-section search over a bracket around the classic optimum, at
// the order returned.
func ZCDPLine(rho, ld float64) (eps, order float64) {
	f := func(a float64) float64 { return EpsAt(rdpcheck.Improved, a, rho*a, ld) }
	// bracket around the classic optimum; -ld/rho overflows for rho
	// below about 1e-307 (eps was NaN), the quotient of its roots does not
	a0 := 1 + math.Sqrt(-ld/rho)
	if math.IsInf(a0, 1) {
		a0 = 1 + math.Sqrt(-ld)/math.Sqrt(rho)
	}
	lo, hi := 1+(a0-1)/64, 1+(a0-1)*4
	if !(lo > 1) {
		// rho above about 2e28 log(1/delta): the bracket is closer to 1
		// than float64 holds (lo = hi = 1 gave 0/0 = NaN); the least
		// order above 1 gives a valid eps, within a few ulps of rho
		// (rho 2^-52 + log(1/delta) 2^52 added), and eps >= rho
		lo = 1 + 0x1p-52
		hi = max(hi, lo)
	}
	const gr = 0.6180339887498949
	x1, x2 := hi-gr*(hi-lo), lo+gr*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < 200 && hi-lo > 1e-9*hi; i++ {
		if f1 < f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - gr*(hi-lo)
			f1 = f(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + gr*(hi-lo)
			f2 = f(x2)
		}
	}
	order = x1
	eps = f1
	if f2 < f1 {
		order, eps = x2, f2
	}
	return math.Max(eps, 0), order
}
