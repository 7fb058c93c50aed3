package reference

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
)

// Conversion selects an RDP to (eps, delta)-DP conversion; it is
// rdpcheck.Conversion, shared with package fast.
type Conversion = rdpcheck.Conversion

const (
	// Classic is Mironov 2017, Proposition 3: eps = rdp + log(1/delta)/(alpha-1).
	Classic = rdpcheck.Classic
	// Improved is Canonne, Kamath, Steinke 2020 (Proposition 12 of Balle et
	// al. 2020, arXiv 2004.00010, is equivalent):
	// eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1).
	Improved = rdpcheck.Improved
)

// checkCurve is rdpcheck.CheckCurve for a curve of big.Float values (nil is
// no value).
func checkCurve(fn string, orders []float64, curve []*big.Float, conv Conversion) error {
	return rdpcheck.CheckCurve(pkgName, fn, orders, len(curve), conv, func(i int) (float64, bool) {
		if curve[i] == nil {
			return math.NaN(), false
		}
		v, _ := curve[i].Float64()
		return v, curve[i].Sign() >= 0
	})
}

// epsAt returns the conversion's eps at one order, at precision wp, for
// finite rdp and finite alpha.
func epsAt(conv Conversion, alpha float64, rdp *big.Float, logDelta *big.Float, wp uint) *big.Float {
	A := fl(alpha, wp)
	am1 := newF(wp).Sub(A, intF(1, wp))
	e := newF(wp).Set(rdp)
	if conv == Classic {
		t := newF(wp).Quo(logDelta, am1)
		return e.Sub(e, t)
	}
	t := newF(wp).Add(logDelta, logF(A, wp))
	t.Quo(t, am1)
	e.Sub(e, t)
	r := newF(wp).Quo(intF(-1, wp), A) // log1p(-1/alpha)
	return e.Add(e, log1pF(r, wp))
}

// Epsilon converts an RDP curve (rdp[i] at orders[i]) to the smallest eps
// such that the mechanism is (eps, delta)-DP, minimised over the orders, and
// returns the order that attains it (the first, on ties). The improved
// conversion's eps is floored at 0.
//
// Accuracy: eps is correct to c.Prec bits relative to the rdp values given
// (Ziv-checked), except where flooring at 0 applies.
//
// Special cases are:
//
//	an order +Inf contributes eps = rdp (pure DP)
//	an rdp +Inf contributes eps = +Inf; if all are +Inf, eps = +Inf at orders[0]
//	Epsilon = error for empty or mismatched lists, orders <= 1 or NaN,
//	    negative or nil rdp, delta outside (0, 1) or NaN, unknown conv
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func (c Context) Epsilon(orders []float64, rdp []*big.Float, delta float64, conv Conversion) (eps *big.Float, order float64, err error) {
	const fn = "Epsilon"
	if err := checkCurve(fn, orders, rdp, conv); err != nil {
		return nil, 0, err
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return nil, 0, inputErr(fn, "delta", delta, "must be in (0, 1)")
	}
	prec := c.prec()
	// Orders +Inf and rdp +Inf give exact candidates (eps = rdp, or +Inf);
	// the finite ones go through the Ziv loop, whose result is never an
	// exact 0 (see agree), so the floor at 0 is applied afterwards.
	var best *big.Float
	for i, a := range orders {
		var e *big.Float
		switch {
		case rdp[i].IsInf():
			e = newF(prec).SetInf(false)
		case math.IsInf(a, 1):
			e = newF(prec).Set(rdp[i])
		default:
			continue
		}
		if best == nil || e.Cmp(best) < 0 {
			best, order = e, a
		}
	}
	var finiteOrder float64
	hasFinite := false
	for i, a := range orders {
		if !math.IsInf(a, 1) && !rdp[i].IsInf() {
			hasFinite = true
		}
	}
	if hasFinite {
		v, err := ziv(prec, func(wp uint) (*big.Float, error) {
			logDelta := logF(fl(delta, wp), wp)
			var m *big.Float
			for i, a := range orders {
				if math.IsInf(a, 1) || rdp[i].IsInf() {
					continue
				}
				e := epsAt(conv, a, rdp[i], logDelta, wp)
				if m == nil || e.Cmp(m) < 0 {
					m, finiteOrder = e, a
				}
			}
			return m, nil
		})
		if err != nil {
			return nil, 0, err
		}
		if best == nil || v.Cmp(best) < 0 || (v.Cmp(best) == 0 && firstIndex(orders, finiteOrder) < firstIndex(orders, order)) {
			best, order = v, finiteOrder
		}
	}
	if conv == Improved && best.Sign() < 0 {
		best.SetInt64(0)
	}
	return best, order, nil
}

func firstIndex(orders []float64, a float64) int {
	for i, o := range orders {
		if o == a {
			return i
		}
	}
	return len(orders)
}

// Delta returns the smallest delta such that the mechanism with RDP curve
// rdp at orders is (eps, delta)-DP, minimised over the orders, with the order
// attaining it, capped at 1:
//
//	classic:  delta = exp((alpha-1)(rdp - eps))
//	improved: delta = exp((alpha-1)(rdp - eps + log1p(-1/alpha)) - log alpha)
//
// Special cases are:
//
//	an order +Inf contributes delta = 0 if rdp <= eps, else 1
//	Delta = error as for Epsilon, and for eps < 0, NaN or +Inf
//	Delta = error wrapping ErrTooLarge when delta is positive but below
//	    big.Float's range (below e^-1.48e9)
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func (c Context) Delta(orders []float64, rdp []*big.Float, eps float64, conv Conversion) (delta *big.Float, order float64, err error) {
	const fn = "Delta"
	if err := checkCurve(fn, orders, rdp, conv); err != nil {
		return nil, 0, err
	}
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 0) {
		return nil, 0, inputErr(fn, "eps", eps, "must be finite and >= 0")
	}
	prec := c.prec()
	// Exact candidates first: rdp +Inf gives delta 1; the order +Inf gives
	// 0 if rdp <= eps, else 1. The finite orders go through the Ziv loop as
	// exp(min log delta), capped at 1 (an exact value, decided in the loop
	// only from a sign).
	var best *big.Float
	for i, a := range orders {
		var d *big.Float
		switch {
		case rdp[i].IsInf():
			d = intF(1, prec)
		case math.IsInf(a, 1):
			d = intF(1, prec)
			if rdp[i].Cmp(fl(eps, 64)) <= 0 {
				d = newF(prec)
			}
		default:
			continue
		}
		if best == nil || d.Cmp(best) < 0 {
			best, order = d, a
		}
	}
	if best != nil && best.Sign() == 0 {
		return best, order, nil
	}
	var finiteOrder float64
	hasFinite := false
	for i, a := range orders {
		if !math.IsInf(a, 1) && !rdp[i].IsInf() {
			hasFinite = true
		}
	}
	if hasFinite {
		v, err := ziv(prec, func(wp uint) (*big.Float, error) {
			E := fl(eps, wp)
			var m *big.Float // min log delta
			for i, a := range orders {
				if math.IsInf(a, 1) || rdp[i].IsInf() {
					continue
				}
				A := fl(a, wp)
				am1 := newF(wp).Sub(A, intF(1, wp))
				l := newF(wp).Sub(rdp[i], E)
				if conv == Improved {
					l.Add(l, log1pF(newF(wp).Quo(intF(-1, wp), A), wp))
					l.Mul(l, am1)
					l.Sub(l, logF(A, wp))
				} else {
					l.Mul(l, am1)
				}
				if m == nil || l.Cmp(m) < 0 {
					m, finiteOrder = l, a
				}
			}
			if m.Sign() >= 0 {
				return intF(1, wp), nil
			}
			if mf, _ := m.Float64(); mf < -1.48e9 {
				// e^m is positive but below big.Float's exponent range:
				// no value of this package can hold it.
				return nil, fmt.Errorf("reference.Delta: delta = exp(%.6g) is below big.Float's range: %w", mf, ErrTooLarge)
			}
			return expF(m, wp), nil
		})
		if err != nil {
			return nil, 0, err
		}
		if best == nil || v.Cmp(best) < 0 {
			best, order = v, finiteOrder
		}
	}
	return best, order, nil
}

// Epsilon is Context{}.Epsilon at DefaultPrec.
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func Epsilon(orders []float64, rdp []*big.Float, delta float64, conv Conversion) (*big.Float, float64, error) {
	return Context{}.Epsilon(orders, rdp, delta, conv)
}

// Delta is Context{}.Delta at DefaultPrec.
//
// Slices: orders and rdp are only read; the result is a new big.Float.
func Delta(orders []float64, rdp []*big.Float, eps float64, conv Conversion) (*big.Float, float64, error) {
	return Context{}.Delta(orders, rdp, eps, conv)
}
