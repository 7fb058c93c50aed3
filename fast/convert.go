package fast

import (
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/convert"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
)

// Conversion selects an RDP to (eps, delta)-DP conversion; it is
// rdpcheck.Conversion, shared with package reference.
type Conversion = rdpcheck.Conversion

const (
	// Classic is Mironov 2017, Proposition 3: eps = rdp + log(1/delta)/(alpha-1).
	Classic = rdpcheck.Classic
	// Improved is Canonne, Kamath, Steinke 2020 (equivalently Balle et al.
	// 2020, Proposition 12):
	// eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1).
	Improved = rdpcheck.Improved
)

// checkCurve is rdpcheck.CheckCurve for a curve of float64 values.
func checkCurve(fn string, orders, curve []float64, conv Conversion) error {
	return rdpcheck.CheckCurve(pkgName, fn, orders, len(curve), conv, func(i int) (float64, bool) {
		return curve[i], !(math.IsNaN(curve[i]) || curve[i] < 0)
	})
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
//
// Slices: orders and rdp are only read (they may be one slice).
func Epsilon(orders, rdp []float64, delta float64, conv Conversion) (eps, order float64, err error) {
	if err := checkCurve("Epsilon", orders, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return 0, 0, inputErr("Epsilon", "delta", delta, "must be in (0, 1)")
	}
	eps, order = convert.Epsilon(orders, rdp, xmath.Log(delta), conv)
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
//
// Slices: orders and rdp are only read (they may be one slice).
func Delta(orders, rdp []float64, eps float64, conv Conversion) (delta, order float64, err error) {
	if err := checkCurve("Delta", orders, rdp, conv); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return 0, 0, inputErr("Delta", "eps", eps, "must be finite and >= 0")
	}
	delta, order = convert.Delta(orders, rdp, eps, conv)
	return delta, order, nil
}
