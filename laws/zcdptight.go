package laws

import (
	"fmt"
	"math"

	"pgregory.net/rapid"
)

// checkZCDPTight: the tight zCDP parameters of Harrison and Manurangsi 2025
// against the exact RDP curves of the same mechanisms, one drawn per check
// (eps log-uniform in [1e-3, 20]).
//
//   - dominance: rho alpha >= D_alpha at the drawn order (rho-zCDP holds):
//     Laplace at scale 1/eps, k-ary randomized response (k in 2..6,
//     replace-one, noise k/(e^eps + k - 1)), RAPPOR as twice PureDP(eps/2).
//   - tightness: D_alpha/alpha at alpha = 1 + 2^-27 is within 1e-6
//     relative of rho (the supremum is the limit alpha -> 1; D_alpha/alpha
//     moves by O(alpha - 1) eps there).
//   - bounded range: rho = ExponentialMechanism(eps, alpha) - (alpha-1)
//     eps^2/8 wherever the bound is below its cap eps.
//
// Slack: the Events bound on each value, and for k-ary RR the rounding of
// the noise, which moves the mechanism's eps by about 1e-16/eps relative.
func (im *Impl) checkZCDPTight(t *rapid.T) {
	rel := im.Acc.Events
	eps := math.Pow(10, rapid.Float64Range(-3, math.Log10(20)).Draw(t, "log10 eps"))
	alpha := rapid.OneOf(order(onePlus, 1000, 1000), rapid.SampledFrom([]float64{1.5, 2, 16, 256})).Draw(t, "alpha")
	const a1 = 1 + 0x1p-27
	var rho float64
	var curve func(a float64) float64
	var slack float64
	switch mech := rapid.SampledFrom([]string{"laplace", "kary-rr", "rappor", "bounded-range"}).Draw(t, "mechanism"); mech {
	case "laplace":
		rho = must(t, "LaplaceZCDP(%v)", eps)(im.LaplaceZCDP(eps))
		curve = func(a float64) float64 { return must(t, "Laplace(%v, %v)", 1/eps, a)(im.Laplace(1/eps, a)) }
		slack = rel + 4*u
	case "kary-rr":
		k := float64(rapid.IntRange(2, 6).Draw(t, "buckets"))
		rho = must(t, "KaryRRZCDP(%v, %v)", eps, k)(im.KaryRRZCDP(eps, k))
		noise := k / (math.Exp(eps) + k - 1)
		curve = func(a float64) float64 {
			return must(t, "KaryRandomizedResponse(%v, %v, replace-one, %v)", noise, k, a)(im.KaryRandomizedResponse(noise, k, "replace-one", a))
		}
		slack = rel + 1e-13/eps
	case "rappor":
		rho = must(t, "RAPPORZCDP(%v)", eps)(im.RAPPORZCDP(eps))
		curve = func(a float64) float64 { return 2 * must(t, "PureDP(%v, %v)", eps/2, a)(im.PureDP(eps/2, a)) }
		slack = rel + 4*u
	case "bounded-range":
		rho = must(t, "BoundedRangeZCDP(%v)", eps)(im.BoundedRangeZCDP(eps))
		em := must(t, "ExponentialMechanism(%v, %v)", eps, alpha)(im.ExponentialMechanism(eps, alpha))
		if em >= eps {
			return // the cap: no information on rho
		}
		h := (alpha - 1) * eps * eps / 8
		if d := math.Abs(rho - (em - h)); !(d <= rel*(rho+em)+4*u*(em+h)+tiny) {
			lawf(t, "zcdp-tight", "BoundedRangeZCDP(%v) = %v, ExponentialMechanism(eps, %v) - (alpha-1) eps^2/8 = %v", eps, rho, alpha, em-h)
		}
		return
	}
	if d := curve(alpha); rho*alpha < d*(1-slack) {
		lawf(t, "zcdp-tight", "rho alpha = %v below D_alpha = %v at eps=%v alpha=%v: not a zCDP bound", rho*alpha, d, eps, alpha)
	}
	if r := curve(a1) / a1; math.Abs(r-rho) > 1e-6*rho+slack*rho {
		lawf(t, "zcdp-tight", "%s", fmt.Sprintf("D_alpha/alpha at alpha = 1 + 2^-27 is %v, rho %v at eps=%v: not the alpha -> 1 limit", r, rho, eps))
	}
}
