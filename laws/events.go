package laws

import (
	"fmt"
	"math"
	"math/big"

	"pgregory.net/rapid"
)

// checkEvents: the laws of the issue-12 events, one drawn per check.
//
//   - binary: k-ary randomized response over 2 buckets, replace-one, is
//     binary randomized response reporting the truth with probability
//     1 - noise/2 (noise dyadic, so that 1 - noise/2 is exact).
//   - noise: KaryRandomizedResponse is non-increasing in noise (more noise
//     is randomized response applied to the output: data processing, van
//     Erven and Harremoës 2014, Thm 9), for both relations.
//   - puredp: PureDP(eps) is the curve of binary randomized response with
//     log-likelihood ratio eps (Mironov 2017, Prop 5): it equals
//     KaryRandomizedResponse(noise, 2, replace-one) at eps = log((2 -
//     noise)/noise). That eps is rounded (4u |eps| + 2u); the curve moves
//     by at most alpha/(alpha-1) (in a rare case alpha) times that.
//   - zcdp: ZCDP(rho, xi, alpha) is the line xi + rho alpha.
//   - expmech: the bounded-range bound is at most eps, non-decreasing in
//     alpha, and, where below eps at both orders, has slope eps^2/8 in
//     alpha (dp_accounting's min(xi + eps^2 alpha/8, eps)).
//   - group: GroupPrivacy is 3^c times the smallest rdp at an order >=
//     2^c alpha, and 2^c rdp(+Inf) at alpha = +Inf (Mironov 2017, Prop 2),
//     on a curve of dyadic values (3^c rdp exact).
//
// Slack: the implementation's Events bound on each value, plus the
// rounding of the law's own arithmetic where it has any.
func (im *Impl) checkEvents(t *rapid.T) {
	rel := im.Acc.Events
	near := func(what string, got, want, slack float64) {
		t.Helper()
		if math.IsInf(want, 1) && got == want {
			return
		}
		if !(math.Abs(got-want) <= slack+tiny) {
			lawf(t, "events", "%s = %v, want %v (|difference| %.3g > %.3g)", what, got, want, math.Abs(got-want), slack)
		}
	}
	alpha := rapid.OneOf(order(onePlus, 1000, 1000), rapid.SampledFrom([]float64{1.5, 2, 16, math.Inf(1)})).Draw(t, "alpha")
	switch rapid.SampledFrom([]string{"binary", "noise", "puredp", "zcdp", "expmech", "group"}).Draw(t, "event") {
	case "binary":
		noise := math.Ldexp(float64(rapid.IntRange(1, 1<<20-1).Draw(t, "noise 2^-20")), -20)
		k := must(t, "KaryRandomizedResponse(%v, 2, replace-one, %v)", noise, alpha)(im.KaryRandomizedResponse(noise, 2, "replace-one", alpha))
		p := 1 - noise/2
		r := must(t, "RandomizedResponse(%v, %v)", p, alpha)(im.RandomizedResponse(p, alpha))
		near(fmt.Sprintf("KaryRandomizedResponse(noise=%v, 2, replace-one, alpha=%v) against RandomizedResponse(p=%v)", noise, alpha, p),
			k, r, rel*k+im.Acc.Closed*r)
	case "noise":
		rel2 := rapid.SampledFrom([]string{"replace-one", "replace-special"}).Draw(t, "relation")
		k := float64(rapid.SampledFrom([]int{2, 3, 10, 1000}).Draw(t, "buckets"))
		n1 := rapid.Float64Range(0, 1).Draw(t, "noise1")
		n2 := rapid.Float64Range(n1, 1).Draw(t, "noise2")
		v1 := must(t, "KaryRandomizedResponse(%v)", n1)(im.KaryRandomizedResponse(n1, k, rel2, alpha))
		v2 := must(t, "KaryRandomizedResponse(%v)", n2)(im.KaryRandomizedResponse(n2, k, rel2, alpha))
		if !(v2 <= v1+rel*v1+tiny) {
			lawf(t, "events", "KaryRandomizedResponse(noise=%v, %v, %s, alpha=%v) = %v > %v at the smaller noise %v", n2, k, rel2, alpha, v2, v1, n1)
		}
	case "puredp":
		noise := math.Ldexp(float64(rapid.IntRange(1, 1<<20-1).Draw(t, "noise 2^-20")), -20)
		eps := math.Log((2 - noise) / noise)
		k := must(t, "KaryRandomizedResponse(%v, 2, replace-one, %v)", noise, alpha)(im.KaryRandomizedResponse(noise, 2, "replace-one", alpha))
		p := must(t, "PureDP(%v, %v)", eps, alpha)(im.PureDP(eps, alpha))
		d := alpha / (alpha - 1)
		if math.IsInf(alpha, 1) {
			d = 1
		}
		near(fmt.Sprintf("PureDP(eps=%v, alpha=%v) against KaryRandomizedResponse(noise=%v, 2, replace-one)", eps, alpha, noise),
			p, k, rel*(p+k)+d*(4*u*math.Abs(eps)+2*u))
	case "zcdp":
		rho := rapid.OneOf(logUniform(1e-8, 10), rapid.Just(0.0)).Draw(t, "rho")
		xi := rapid.OneOf(logUniform(1e-8, 1), rapid.Just(0.0)).Draw(t, "xi")
		v := must(t, "ZCDP(%v, %v, %v)", rho, xi, alpha)(im.ZCDP(rho, xi, alpha))
		want := xi
		if rho > 0 {
			want, _ = new(big.Float).SetPrec(256).Add(big.NewFloat(xi), new(big.Float).SetPrec(256).Mul(big.NewFloat(rho), big.NewFloat(alpha))).Float64()
		}
		near(fmt.Sprintf("ZCDP(rho=%v, xi=%v, alpha=%v)", rho, xi, alpha), v, want, (rel+u)*want)
	case "expmech":
		eps := rapid.OneOf(logUniform(1e-6, 50), rapid.Just(0.0)).Draw(t, "eps")
		a2 := math.Inf(1)
		if !math.IsInf(alpha, 1) && alpha < 1000 {
			a2 = rapid.OneOf(order(alpha, 1000, 1000), rapid.Just(math.Inf(1))).Draw(t, "alpha2")
		}
		a2 = math.Max(a2, alpha)
		v1 := must(t, "ExponentialMechanism(%v, %v)", eps, alpha)(im.ExponentialMechanism(eps, alpha))
		v2 := must(t, "ExponentialMechanism(%v, %v)", eps, a2)(im.ExponentialMechanism(eps, a2))
		if !(v1 <= eps*(1+rel)+tiny) || !(v2 <= eps*(1+rel)+tiny) {
			lawf(t, "events", "ExponentialMechanism(eps=%v) = %v at alpha=%v, %v at %v: above eps", eps, v1, alpha, v2, a2)
		}
		if !(v1 <= v2+rel*v2+tiny) {
			lawf(t, "events", "ExponentialMechanism(eps=%v) = %v at alpha=%v > %v at %v", eps, v1, alpha, v2, a2)
		}
		if lim := eps * (1 - 1e-6); v2 < lim && !math.IsInf(a2, 1) && a2 > alpha {
			slope := eps * eps / 8 * (a2 - alpha)
			near(fmt.Sprintf("ExponentialMechanism(eps=%v) at alpha=%v minus at %v", eps, a2, alpha), v2-v1, slope, rel*(v1+v2)+4*u*(v2+slope))
		}
	default: // group
		orders := []float64{1.5, 2, 4, 8, 16, 32, 64, 128, 256, math.Inf(1)}
		rdp := make([]float64, len(orders))
		for i := range rdp {
			rdp[i] = math.Ldexp(float64(rapid.IntRange(0, 1<<10).Draw(t, "rdp 2^-8")), -8)
		}
		c := rapid.IntRange(0, 3).Draw(t, "c")
		a := rapid.SampledFrom([]float64{1.5, 2, 3, 8, 16, math.Inf(1)}).Filter(func(a float64) bool {
			return (c == 0 || a >= 2) && (math.IsInf(a, 1) || math.Ldexp(a, c) <= 256)
		}).Draw(t, "group alpha")
		v := must(t, "GroupPrivacy(c=%v, alpha=%v)", c, a)(im.GroupPrivacy(orders, rdp, c, a))
		want := math.Ldexp(rdp[len(rdp)-1], c) // exact
		if !math.IsInf(a, 1) {
			best := math.Inf(1)
			for i, o := range orders {
				if o >= math.Ldexp(a, c) {
					best = math.Min(best, rdp[i])
				}
			}
			want = math.Pow(3, float64(c)) * best // exact: at most 12 + 5 bits
		}
		near(fmt.Sprintf("GroupPrivacy(%v, %v, c=%v, alpha=%v)", orders, rdp, c, a), v, want, (rel+u)*want)
	}
}
