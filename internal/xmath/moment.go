package xmath

import "math"

// MomentKind names the summand h of a Rényi moment written as
// 1 + sum w h(t) (t = ratio - 1): the same order in package fast and
// package reference, whose own kinds convert to it.
type MomentKind int

const (
	Pow        MomentKind = iota // (1+t)^g - 1 - g t
	KLForward                    // (1+t) log(1+t) - t
	KLBackward                   // t - log(1+t)
)

// The float64 planning bounds below are shared by fast and reference so
// that both plan the sampled-Laplace quadrature alike; one fix, one place.

// HLower is a lower bound on log h(t) (h of the given kind and exponent g;
// -Inf for t = 0), from h(0) = h'(0) = 0 and h” on [0, t]: (1+s)^(g-2) g
// (g-1), 1/(1+s) (KLForward) or 1/(1+s)^2 (KLBackward); and for Pow, where
// (1+t)^g dwarfs 1 + |g t|, from h >= (1+t)^g (1 - e^-2). It holds the
// parts that depend on t alone, for callers that need the bound at one t
// for many exponents.
type HLower struct {
	t, lt2, pos, lneg, lt float64 // t; 2 log|t| - log 2; log1p(max(t,0)), log1p(min(t,0)), log1p(t)
}

// NewHLower prepares the bound at t given lt = log(1+t), which the caller
// forms from 1 + t itself where t is near -1: there 1 + t formed from a
// rounded t loses its digits (1 + t = 1.3e-16 at q = 1 - 2^-53, b = 0.0261,
// whose rounded t gave 1.1e-16), and (1+t)^g amplifies that for large |g|.
func NewHLower(t, lt float64) HLower {
	return HLower{t: t, lt2: 2*math.Log(math.Abs(t)) - math.Ln2, pos: max(lt, 0), lneg: min(lt, 0), lt: lt}
}

// LaplaceTails prepares the bound at the sampled Laplace mechanism's two
// tails, t = q expm1(-c) (mass 1/2) and t = q expm1(c) (mass e^-c/2), c =
// 1/b, with log(1+t) from LogMix: the planning's lower bound on the sum.
func LaplaceTails(q, c float64) (left, right HLower) {
	return NewHLower(q*math.Expm1(-c), LogMix(q, -c)), NewHLower(q*math.Expm1(c), LogMix(q, c))
}

// LogMix returns log(1 - q + q e^x), the log of a sampled density ratio
// (q in [0, 1]), to within a few ulps: as log1p(q expm1(x)) where 1 - q +
// q e^x >= 1/2, and below that (q > 1/2, x < 0) as log((1-q) + q e^x), a
// sum of non-negative terms with 1-q exact (and >= 2^-53 for q < 1), where
// 1 + q expm1(x) would cancel.
func LogMix(q, x float64) float64 {
	if q == 1 {
		return x // e^x may underflow
	}
	if a := q * math.Expm1(x); a > -0.5 {
		return math.Log1p(a)
	}
	return math.Log((1 - q) + q*math.Exp(x))
}

// Log returns the bound for the prepared t.
func (h HLower) Log(kind MomentKind, g float64) float64 {
	if h.t == 0 {
		return math.Inf(-1)
	}
	var v float64
	switch kind {
	case KLForward:
		v = h.lt2 - h.pos
	case KLBackward:
		v = h.lt2 - 2*h.pos
	default:
		s := h.pos
		if g >= 2 {
			s = h.lneg
		}
		v = h.lt2 + math.Log(g*(g-1)) + (g-2)*s
		if big := g * h.lt; big >= 2 && big >= math.Log1p(math.Abs(g*h.t))+2 {
			v = math.Max(v, big-0.2)
		}
	}
	return v - 0.01 // float64 rounding of the above is far below 0.01 nats
}

// LogAddExp is log(e^a + e^b) without overflow; -Inf stands for a zero term.
func LogAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}
