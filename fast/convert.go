package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/carry"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
	"github.com/rdpcheck/rdpcheck/rdp"
)

// Conversion selects an RDP to (eps, delta)-DP conversion; it is
// rdp.Conversion, shared with package reference.
type Conversion = rdp.Conversion

const (
	// Classic is Mironov 2017, Proposition 3: eps = rdp + log(1/delta)/(alpha-1).
	Classic = rdp.Classic
	// Improved is Canonne, Kamath, Steinke 2020 (equivalently Balle et al.
	// 2020, Proposition 12):
	// eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1).
	Improved = rdp.Improved
)

func checkCurve(fn string, orders, rdp []float64, conv Conversion) error {
	if len(orders) == 0 || len(orders) != len(rdp) {
		return &InputError{Pkg: pkgName, Func: fn, Arg: "orders, rdp", Value: math.NaN(),
			Msg: fmt.Sprintf("must be non-empty and of equal length (have %d and %d)", len(orders), len(rdp))}
	}
	if !conv.Valid() {
		return inputErr(fn, "conv", float64(conv), "unknown conversion")
	}
	for i, a := range orders {
		if math.IsNaN(a) || a <= 1 {
			return inputErr(fn, fmt.Sprintf("orders[%d]", i), a, "order must be > 1 (or +Inf)")
		}
		if math.IsNaN(rdp[i]) || rdp[i] < 0 {
			return inputErr(fn, fmt.Sprintf("rdp[%d]", i), rdp[i], "RDP must be >= 0 (or +Inf)")
		}
	}
	return nil
}

// epsAt returns an upper bound on the conversion's eps at one order.
// With each library log within 2 ulps (4u relative), log(1-1/alpha) within
// 6u of itself (log1mInv) and a-1 exact (a <= 2^53), the float64
// evaluation is within 2u rdp + 8u|l1| + 4u|t| + 4u(|log delta| +
// log alpha)/(alpha-1) of the exact value for these inputs (classic:
// u rdp + 7u|t|); since log alpha/(alpha-1) <= |t| + |log delta|/(alpha-1),
// both are below 8u mag, mag = rdp + |l1| + |t| + |log delta|/(alpha-1).
// Adding 9u mag (one u for a-1 rounded above 2^53) and one ulp makes it an
// upper bound.
func epsAt(conv Conversion, a, rdp, logDelta float64) float64 {
	if math.IsInf(rdp, 1) {
		return rdp
	}
	if math.IsInf(a, 1) {
		return rdp // log(1/delta)/(alpha-1) -> 0, log1p(-1/alpha) -> 0
	}
	am1 := a - 1 // exact for a in (1, 2^53] by Sterbenz / integer spacing within 1 ulp
	var e, mag float64
	if conv == Classic {
		t := -logDelta / am1
		e = rdp + t
		mag = rdp + t
	} else {
		l1 := log1mInv(a)
		t := -(logDelta + math.Log(a)) / am1
		e = rdp + l1 + t
		mag = rdp + math.Abs(l1) + math.Abs(t) + math.Abs(logDelta)/am1
	}
	return math.Nextafter(e+9*carry.Unit*mag, math.Inf(1))
}

// log1mInv returns log1p(-1/a) = log((a-1)/a) for a > 1, within 6u of
// itself. Below 2 it is formed as log((a-1)/a) with a-1 exact (Sterbenz):
// the rounded 1/a would lose u/(a-1) absolute, unbounded relative to the
// result near a = 1; the quotient rounds once (u absolute after the log,
// below 1.5u|result| as |result| >= log 2) and the log adds 2 ulps. From 2
// on, log1p(-1/a): the rounding of 1/a moves it by u/(a-1) <= 2u|result|.
func log1mInv(a float64) float64 {
	if a < 2 {
		return math.Log((a - 1) / a)
	}
	return math.Log1p(-1 / a)
}

// Epsilon converts an RDP curve (rdp[i] at orders[i]) to eps for the given
// delta, minimising over the orders, and returns the order attaining the
// minimum (the first on ties).
//
//	Classic:  eps = min_alpha rdp + log(1/delta)/(alpha-1)                         (Mironov 2017, Prop 3)
//	Improved: eps = max(0, min_alpha rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1))  (CKS 2020)
//
// Special cases are:
//
//	Epsilon(orders, rdp all +Inf, delta, conv) = +Inf, order = orders[0]
//	Epsilon at alpha = +Inf is rdp(+Inf)
//	Epsilon(...) = error for empty or mismatched lists, orders <= 1 or NaN,
//	    rdp < 0 or NaN, delta outside (0,1), unknown conv
//
// Accuracy: the result is an upper bound on the exact conversion of the
// given float64 values, above it by at most 18 u times the largest term
// (relative 2e-15 except where the terms cancel).
func Epsilon(orders, rdp []float64, delta float64, conv Conversion) (eps, order float64, err error) {
	if err := checkCurve("Epsilon", orders, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return 0, 0, inputErr("Epsilon", "delta", delta, "must be in (0, 1)")
	}
	ld := xmath.Log(delta)
	eps, order = math.Inf(1), orders[0]
	for i, a := range orders {
		if e := epsAt(conv, a, rdp[i], ld); e < eps {
			eps, order = e, a
		}
	}
	if eps < 0 {
		eps = 0
	}
	return eps, order, nil
}

// Delta converts an RDP curve to the smallest delta for the target eps,
// minimising over the orders, and returns the order attaining it.
//
//	Classic:  delta = min_alpha exp((alpha-1)(rdp - eps))                                  (Mironov 2017)
//	Improved: log delta = min_alpha (alpha-1)(rdp - eps + log1p(-1/alpha)) - log(alpha)   (CKS 2020)
//
// capped at 1.
//
// Special cases are:
//
//	Delta(orders, rdp, eps, conv) = 1 when no order gives less
//	Delta at alpha = +Inf is 0 if rdp(+Inf) <= eps, else 1
//	Delta(...) = 2^-1074 (the smallest positive float64) where the exact
//	    delta is positive but below it
//	Delta(...) = error for empty or mismatched lists, orders <= 1 or NaN,
//	    rdp < 0 or NaN, eps < 0, NaN or +Inf, unknown conv
//
// Accuracy: an upper bound on the exact conversion of the given values,
// above it by a relative error of at most about 20u mag + 8u, where mag is
// the magnitude of the terms of log delta at the order used: |alpha-1|
// |rdp-eps| (classic), |alpha-1| (|rdp-eps| + |log1p(-1/alpha)| + rdp +
// eps) + log alpha (improved). (log delta is computed within 10u mag and
// raised by 10u mag + 2u; exp adds 2 ulps.)
func Delta(orders, rdp []float64, eps float64, conv Conversion) (delta, order float64, err error) {
	if err := checkCurve("Delta", orders, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return 0, 0, inputErr("Delta", "eps", eps, "must be finite and >= 0")
	}
	best, order := 0.0, orders[0] // log delta, capped at 0
	for i, a := range orders {
		r := rdp[i]
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
			if conv == Classic {
				ld = am1 * d
				mag = math.Abs(ld)
			} else {
				l1 := log1mInv(a)
				la := math.Log(a)
				ld = am1*(d+l1) - la
				mag = am1*(math.Abs(d)+math.Abs(l1)+math.Abs(r)+eps) + la
			}
			// within am1 (4u|d| + 9u|l1|) + 5u log a (improved; classic
			// 2u|ld|), the library logs at 2 ulps
			ld += 10*carry.Unit*mag + 2*carry.Unit
		}
		if ld < best {
			best, order = ld, a
		}
	}
	if best == 0 {
		return 1, order, nil
	}
	if math.IsInf(best, -1) {
		return 0, order, nil // rdp(+Inf) <= eps: delta = 0 exactly
	}
	// exp is within 2 ulps, and within half a subnormal ulp more where the
	// result is subnormal; a delta below 2^-1074 is rounded up to it, not
	// to 0
	delta = math.Nextafter(math.Exp(best)*(1+4*carry.Unit), math.Inf(1))
	return math.Min(delta, 1), order, nil
}
