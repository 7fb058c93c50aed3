// Package dpsgd computes the (eps, delta)-DP guarantee of a DP-SGD run at
// a user's point, by the reference and by fast: the one place where both
// commands compute it (gen-vectors -cases, kinds DPSGDEpsilon and epsilon,
// and rdpcheck epsilon -reference).
package dpsgd

import (
	"math/big"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// ReferenceEpsilon is the (eps, delta)-DP guarantee of DP-SGD at a user's
// point, by package reference at c's precision: steps compositions of the
// Poisson-sampled Gaussian mechanism (rate q, noise multiplier sigma), RDP
// at orders (reference.SGMCurve, which computes the orders in parallel and
// shares work between them), converted by conv for delta and minimised over
// the orders. It returns eps and the order attaining it.
//
// progress, if not nil, is called with the number of orders done after
// each tenth of them: the curve is then computed a tenth at a time. That
// gives the same values (what SGMCurve shares between orders is computed
// the same way whichever orders ask for it) and costs a few percent of
// sharing; a run with small sigma or large orders takes minutes, and
// rdpcheck epsilon -reference says how far it is.
//
// It is the one place where the commands compute this: gen-vectors -cases
// (kinds DPSGDEpsilon and epsilon, as JSON lines or as a vector file) and
// rdpcheck epsilon -reference.
func ReferenceEpsilon(c reference.Context, q, sigma float64, steps int, orders []float64, delta float64, conv reference.Conversion, progress func(done, total int)) (*big.Float, float64, error) {
	chunk := max(1, len(orders))
	if progress != nil {
		chunk = max(1, (len(orders)+9)/10)
	}
	var rdp []*big.Float
	for start := 0; ; start += chunk {
		end := min(start+chunk, len(orders))
		part, err := c.SGMCurve(q, sigma, steps, orders[start:end]) // empty orders: SGMCurve's error
		if err != nil {
			return nil, 0, err
		}
		rdp = append(rdp, part...)
		if progress != nil {
			progress(end, len(orders))
		}
		if end == len(orders) {
			return c.Epsilon(orders, rdp, delta, conv)
		}
	}
}

// FastEpsilon is ReferenceEpsilon by package fast, in float64.
func FastEpsilon(q, sigma float64, steps int, orders []float64, delta float64, conv fast.Conversion) (eps, order float64, err error) {
	curve := make([]float64, len(orders))
	if err := fast.SGMCurve(q, sigma, steps, orders, curve); err != nil {
		return 0, 0, err
	}
	return fast.Epsilon(orders, curve, delta, conv)
}
