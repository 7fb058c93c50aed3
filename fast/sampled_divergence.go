package fast

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/sampled"
)

// SampledDivergence returns the Rényi differential privacy of order alpha of
// a Poisson-sampled mechanism with discrete outputs (add/remove
// neighbours): with Q the output distribution without the individual
// (distQ), P the output with it (distP) and mu = (1-q) Q + q P,
// max(D_alpha(mu || Q), D_alpha(Q || mu)), the exact value that
// reference.SampledDivergence computes. Each ratio is 1 + t_i, t_i = q (P_i
// - Q_i)/Q_i, never formed as a difference of near-equal numbers; the moment
// is sum_i Q_i h(t_i) plus the exact defect (sum Q - 1) + g q (sum_{Q>0} P -
// sum Q) (see sampled.go), with a carried error bound, rounded up: never
// below the exact value. Where the bound cannot be certified (the defect
// cancelling the sum) it returns max(Divergence(P, Q), Divergence(Q, P)),
// the unsampled value, which is never below the sampled one. A result that
// would be negative through the sums' defects is 0.
//
// Special cases are:
//
//	SampledDivergence(q=0, P, Q, alpha) = 0
//	SampledDivergence(q=1, P, Q, alpha) = max(Divergence(P, Q, alpha), Divergence(Q, P, alpha))
//	SampledDivergence(q>0, P, Q, alpha) = +Inf if some P_i > 0 has Q_i = 0
//	SampledDivergence(q, P, P, alpha) = 0
//	SampledDivergence(q, P, Q, alpha=+Inf) = max(log(1 + q max_i (P_i/Q_i - 1)), -log(1 + q min_i (P_i/Q_i - 1)))
//	SampledDivergence = error for q outside [0, 1], empty or mismatched vectors,
//	    negative, NaN or Inf entries, sums away from 1, alpha < 1 or NaN
//
// Slices: distP and distQ are only read (they may be one slice).
func SampledDivergence(q float64, distP, distQ []float64, alpha float64) (float64, error) {
	const fn = "SampledDivergence"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	if len(distP) == 0 || len(distP) != len(distQ) {
		return 0, inputErr(fn, "distP, distQ", math.NaN(),
			fmt.Sprintf("probability vectors must be non-empty and of equal length (have %d and %d)", len(distP), len(distQ)))
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"distP", distP}, {"distQ", distQ}} {
		sum := 0.0
		for i, x := range v.x {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return 0, inputErr(fn, fmt.Sprintf("%s[%d]", v.name, i), x, "probabilities must be finite and >= 0")
			}
			sum += x
		}
		if math.Abs(sum-1) > float64(len(v.x))*0x1p-52 {
			return 0, inputErr(fn, "sum("+v.name+")", sum, "probabilities must sum to 1")
		}
	}
	if err := checkAlpha(fn, alpha, 1); err != nil {
		return 0, err
	}
	if v, ok := sampled.Discrete(q, distP, distQ, alpha); ok {
		return v, nil
	}
	f, _ := Divergence(distP, distQ, alpha)
	b, _ := Divergence(distQ, distP, alpha)
	return math.Max(f, b), nil
}

// PoissonBound returns Zhu and Wang's general upper bound (ICML 2019)
// on the RDP of order alpha of a Poisson-sampled mechanism with
// rate q, given the mechanism's RDP at integer orders, base[i] = eps(i+2):
// the value that reference.PoissonBound computes (see there for the
// formula, the interpolation at fractional orders and why the sum has no
// cancellation), in float64 with terms summed in log scale and rounded up:
// never below the bound it evaluates.
//
// Special cases are:
//
//	PoissonBound(q=0, alpha, base) = 0
//	PoissonBound(q=1, alpha, base) = base's own curve (interpolated between integers)
//	PoissonBound(q, alpha=+Inf, base) = +Inf
//	PoissonBound(q, alpha, base) = +Inf if an entry it uses is +Inf
//	PoissonBound = error for q outside [0, 1], alpha < 1 or NaN, base
//	    shorter than ceil(alpha)-1 entries, negative or NaN entries
//
// Slices: base is only read.
func PoissonBound(q, alpha float64, base []float64) (float64, error) {
	const fn = "PoissonBound"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	if err := checkAlpha(fn, alpha, 1); err != nil {
		return 0, err
	}
	if math.IsInf(alpha, 1) {
		if q == 0 {
			return 0, nil
		}
		return math.Inf(1), nil
	}
	hiOrd := int(math.Max(2, math.Ceil(alpha)))
	if len(base) < hiOrd-1 {
		return 0, inputErr(fn, "base", float64(len(base)), fmt.Sprintf("the base curve must give orders 2..%d (%d entries)", hiOrd, hiOrd-1))
	}
	for i, v := range base {
		if math.IsNaN(v) || v < 0 {
			return 0, inputErr(fn, fmt.Sprintf("base[%d]", i), v, "RDP values must be >= 0 (or +Inf)")
		}
	}
	return sampled.PoissonBound(q, alpha, base), nil
}
