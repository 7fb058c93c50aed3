package gen

// vectors/events.json: the events of dp_accounting's other classes (k-ary randomized response,
// the tight curve of pure DP, zCDP lines, the exponential mechanism's
// bounded-range bound, group privacy), their invalid inputs, and
// conversions whose orders include +inf after each event.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// EventsTolerance: package fast is within 1e-12 relative of each event's
// reference value over its documented ranges (fast/events.go; the sweep's
// largest error is 1.9e-13).
const EventsTolerance = 1e-12

// eventOrders are the orders of the value groups: near 1, fractional,
// integer, large and +inf.
var eventOrders = []float64{1.01, 1.5, 2, 3.5, 8, 64, 1024, inf}

func buildEvents(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("RDP-events", []string{
		"RDP curves of the privacy events of dp_accounting's RDP accountant beyond the sampled Gaussian:",
		"KaryRandomizedResponse(noise, buckets, relation, alpha): k-ary randomized response keeping the true bucket with probability 1 - noise, else a uniform one of buckets; relation replace-one (neighbour: another true bucket) or replace-special (neighbour: a special value with uniform output; the larger divergence of both directions). Exact divergences of finite distributions.",
		"PureDP(eps, alpha) = 1/(alpha-1) log((e^(alpha eps) + e^((1-alpha) eps))/(1 + e^eps)), alpha = inf: eps: binary randomized response's curve, the tight RDP of any eps-DP mechanism (Mironov 2017, Prop 5; dp_accounting's EpsilonDeltaDpEvent).",
		"ZCDP(rho, xi, alpha) = xi + rho alpha (Bun and Steinke 2016, Def 1.1).",
		"ExponentialMechanism(eps, alpha) = min(xi + eps^2 alpha/8, eps), xi = eps/expm1(eps) - 1 - log(eps/expm1(eps)) - eps^2/8: dp_accounting's bound for an eps-bounded-range mechanism (Cesar and Rogers 2021, section 3); an upper bound, not the exact RDP.",
		"GroupPrivacy(orders, rdp, c, alpha): Mironov 2017, Prop 2 for groups of 2^c records: 3^c times the smallest rdp at an order >= 2^c alpha (alpha >= 2 for c > 0), 2^c rdp(inf) at alpha = inf.",
		"Epsilon groups: after ten applications of each event (rdp = 10 times its curve, taken exactly as the float64 values written) with inf among the orders: eps is never 0 and never chosen at an undefined value (dp_accounting 0.6.0 returns eps 0 when inf is among its orders).",
	}, "Closed forms evaluated in big.Float at the working precision of the Ziv loop, sums of non-negative terms with the cancellation bits proven.")

	g := b.Group("kary-randomized-response", schema.KaryRandomizedResponse, "k-ary randomized response", EventsTolerance)
	for _, rel := range []string{reference.ReplaceOne, reference.ReplaceSpecial} {
		for _, n := range []float64{1e-12, 0.01, 0.3, 0.5, 0.9, 1 - 1e-12, 0, 1} {
			for _, k := range []float64{2, 3, 100, 1e6} {
				for _, a := range []float64{1.01, 2, 8, 1024, inf} {
					t := eventTest(fmt.Sprintf("%s noise=%g buckets=%g alpha=%g", rel, n, k, a), orderFlags(a), "noise", n, "buckets", k, "alpha", a)
					t.Relation = rel
					if n == 0 {
						// +inf: no noise (fast also answers +inf)
						t.Flags = append(t.Flags, "ZeroNoise")
						t.Result = schema.Acceptable
					}
					b.Test(g, t, e.RefJob("KaryRandomizedResponse "+t.Comment, func(c reference.Context) (*big.Float, error) {
						return c.KaryRandomizedResponse(n, k, rel, a)
					}), nil)
				}
			}
		}
	}
	g = b.Group("pure-dp", schema.PureDP, "the tight RDP curve of pure eps-DP", EventsTolerance)
	for _, eps := range []float64{0, 1e-8, 1e-3, 0.1, 1, 3, 10, 50} {
		for _, a := range eventOrders {
			t := eventTest(fmt.Sprintf("eps=%g alpha=%g", eps, a), orderFlags(a), "eps", eps, "alpha", a)
			b.Test(g, t, e.RefJob("PureDP "+t.Comment, func(c reference.Context) (*big.Float, error) { return c.PureDP(eps, a) }), nil)
		}
	}
	g = b.Group("zcdp", schema.ZCDP, "the RDP line of (xi, rho)-zCDP", EventsTolerance)
	for _, c := range [][2]float64{{0, 0}, {0, 0.1}, {1e-8, 0}, {0.5, 0}, {0.1, 0.01}, {100, 2}} {
		for _, a := range eventOrders {
			t := eventTest(fmt.Sprintf("rho=%g xi=%g alpha=%g", c[0], c[1], a), orderFlags(a), "rho", c[0], "xi", c[1], "alpha", a)
			b.Test(g, t, e.RefJob("ZCDP "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.ZCDP(c[0], c[1], a) }), nil)
		}
	}
	g = b.Group("exponential-mechanism", schema.ExponentialMechanism, "dp_accounting's bounded-range bound for the exponential mechanism", EventsTolerance)
	for _, eps := range []float64{0, 1e-8, 1e-3, 0.1, 1, 3, 10, 50} {
		for _, a := range eventOrders {
			t := eventTest(fmt.Sprintf("eps=%g alpha=%g", eps, a), orderFlags(a), "eps", eps, "alpha", a)
			if eps > 0 && eps <= 1e-3 {
				t.Flags = append(t.Flags, "CancellingInputs")
			}
			b.Test(g, t, e.RefJob("ExponentialMechanism "+t.Comment, func(c reference.Context) (*big.Float, error) { return c.ExponentialMechanism(eps, a) }), nil)
		}
	}
	g = b.Group("group-privacy", schema.GroupPrivacy, "Mironov 2017, Prop 2: groups of 2^c records", EventsTolerance)
	gpOrders := []float64{2, 4, 8, 16, 32, 64, 128, inf}
	// dyadic values: 3^c rdp is exact, never a tie between two float64s
	// (which a 50-digit decimal cannot resolve)
	gpRDP := []float64{0.0625, 0.125, 0.25, 0.375, 0.75, 1.5, 3, 5}
	for _, c := range []int{0, 1, 2, 3} {
		for _, a := range []float64{1.5, 2, 4, 8, 16, inf} {
			if c > 0 && a < 2 || math.Ldexp(a, c) > 128 && !math.IsInf(a, 1) {
				continue
			}
			b.groupTest(e, g, fmt.Sprintf("c=%d alpha=%g", c, a), gpOrders, gpRDP, c, a, orderFlags(a), schema.Valid)
		}
	}
	b.groupTest(e, g, "c=1 alpha=2, the chosen rdp +inf", []float64{2, 4, 8}, []float64{0.1, inf, 0.3}, 1, 2, nil, schema.Valid)

	b.eventsInvalid(e)
	b.eventsConversions(e)
	return b, nil
}

// eventTest builds a test with scalar inputs given as name, value pairs.
func eventTest(comment string, flags []string, kv ...any) *schema.Test {
	return closedTest(comment, append([]string{}, flags...), kv...)
}

func (b *FileBuilder) groupTest(e *verify.Engine, g *schema.Group, comment string, orders, rdp []float64, c int, a float64, flags []string, result string) {
	t := &schema.Test{Comment: comment, Flags: append([]string{}, flags...), Result: result}
	t.Orders, t.OrdersHex = schema.Lists(orders)
	t.RDP, t.RDPHex = schema.Lists(rdp)
	cc := c
	t.C = &cc
	t.SetFloat("alpha", a)
	b.Test(g, t, e.RefJob("GroupPrivacy "+comment, func(ctx reference.Context) (*big.Float, error) {
		return ctx.GroupPrivacy(orders, BigList(rdp), c, a)
	}), nil)
}

// eventsInvalid: inputs each event must reject.
func (b *FileBuilder) eventsInvalid(e *verify.Engine) {
	nan := math.NaN()
	invalid := func(t *schema.Test) *schema.Test { t.Result = schema.Invalid; return t }
	g := b.Group("kary-randomized-response/invalid", schema.KaryRandomizedResponse, "KaryRandomizedResponse: noise in [0, 1], buckets an integer in [2, 2^53], relation replace-one or replace-special, alpha > 1, none NaN", EventsTolerance)
	for _, c := range []struct {
		n, k float64
		rel  string
		a    float64
		flag string
	}{
		{-0.1, 4, reference.ReplaceOne, 2, "OutOfRange"}, {1.1, 4, reference.ReplaceOne, 2, "OutOfRange"},
		{nan, 4, reference.ReplaceOne, 2, "NaNInput"}, {0.5, 1, reference.ReplaceOne, 2, "OutOfRange"},
		{0.5, 2.5, reference.ReplaceOne, 2, "OutOfRange"}, {0.5, inf, reference.ReplaceSpecial, 2, "InfiniteInput"},
		{0.5, nan, reference.ReplaceOne, 2, "NaNInput"}, {0.5, 4, "add-remove", 2, "OutOfRange"},
		{0.5, 4, "", 2, "OutOfRange"}, {0.5, 4, reference.ReplaceOne, 1, "OutOfRange"},
		{0.5, 4, reference.ReplaceSpecial, nan, "NaNInput"},
	} {
		t := invalid(eventTest(fmt.Sprintf("noise=%g buckets=%g relation=%q alpha=%g", c.n, c.k, c.rel, c.a), []string{c.flag}, "noise", c.n, "buckets", c.k, "alpha", c.a))
		t.Relation = c.rel
		if c.rel == "" {
			t.Relation = "none"
		}
		rel := t.Relation
		b.Test(g, t, e.RefJob("KaryRandomizedResponse "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.KaryRandomizedResponse(c.n, c.k, rel, c.a)
		}), nil)
	}
	g = b.Group("pure-dp/invalid", schema.PureDP, "PureDP: eps finite and >= 0, alpha > 1, none NaN", EventsTolerance)
	for _, c := range [][2]float64{{-1, 2}, {inf, 2}, {nan, 2}, {1, 1}, {1, 0.5}, {1, nan}} {
		t := invalid(eventTest(fmt.Sprintf("eps=%g alpha=%g", c[0], c[1]), []string{badOf(c[0], c[1])}, "eps", c[0], "alpha", c[1]))
		b.Test(g, t, e.RefJob("PureDP "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.PureDP(c[0], c[1]) }), nil)
	}
	g = b.Group("zcdp/invalid", schema.ZCDP, "ZCDP: rho and xi finite and >= 0, alpha > 1, none NaN", EventsTolerance)
	for _, c := range [][3]float64{{-1, 0, 2}, {inf, 0, 2}, {nan, 0, 2}, {1, -1, 2}, {1, inf, 2}, {1, nan, 2}, {1, 0, 1}, {1, 0, nan}} {
		t := invalid(eventTest(fmt.Sprintf("rho=%g xi=%g alpha=%g", c[0], c[1], c[2]), []string{badOf(c[0], c[1], c[2])}, "rho", c[0], "xi", c[1], "alpha", c[2]))
		b.Test(g, t, e.RefJob("ZCDP "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.ZCDP(c[0], c[1], c[2]) }), nil)
	}
	g = b.Group("exponential-mechanism/invalid", schema.ExponentialMechanism, "ExponentialMechanism: eps finite and >= 0, alpha > 1, none NaN", EventsTolerance)
	for _, c := range [][2]float64{{-1, 2}, {inf, 2}, {nan, 2}, {1, 1}, {1, nan}} {
		t := invalid(eventTest(fmt.Sprintf("eps=%g alpha=%g", c[0], c[1]), []string{badOf(c[0], c[1])}, "eps", c[0], "alpha", c[1]))
		b.Test(g, t, e.RefJob("ExponentialMechanism "+t.Comment, func(ctx reference.Context) (*big.Float, error) { return ctx.ExponentialMechanism(c[0], c[1]) }), nil)
	}
	g = b.Group("group-privacy/invalid", schema.GroupPrivacy, "GroupPrivacy: a valid curve, c in [0, 30], alpha >= 2 for c > 0, an order >= 2^c alpha", EventsTolerance)
	o, r := []float64{2, 8}, []float64{0.1, 0.2}
	for _, c := range []struct {
		what   string
		orders []float64
		rdp    []float64
		c      int
		a      float64
		flag   string
	}{
		{"empty curve", []float64{}, []float64{}, 1, 2, "BadCurve"},
		{"lengths differ", o, []float64{0.1}, 1, 2, "BadCurve"},
		{"an order <= 1", []float64{1, 8}, r, 1, 2, "BadCurve"},
		{"a negative rdp", o, []float64{0.1, -1}, 1, 2, "BadCurve"},
		{"c < 0", o, r, -1, 2, "OutOfRange"},
		{"c > 30", o, r, 31, 2, "OutOfRange"},
		{"alpha < 2 with c > 0", o, r, 1, 1.5, "OutOfRange"},
		{"alpha NaN", o, r, 0, nan, "NaNInput"},
		{"no order >= 2^c alpha", o, r, 2, 4, "OutOfRange"},
	} {
		b.groupTest(e, g, c.what, c.orders, c.rdp, c.c, c.a, []string{c.flag}, schema.Invalid)
	}
}

// badOf is the flag of the first bad value among xs (all but one valid).
func badOf(xs ...float64) string {
	for _, x := range xs {
		if math.IsNaN(x) {
			return "NaNInput"
		}
	}
	for _, x := range xs {
		if math.IsInf(x, 0) {
			return "InfiniteInput"
		}
	}
	return "OutOfRange"
}

// eventsConversions: Epsilon after ten applications of each event, with
// inf among the orders (the curve is 10 times the reference value at each
// order rounded up to float64, an upper bound taken exactly).
func (b *FileBuilder) eventsConversions(e *verify.Engine) {
	orders := []float64{2, 4, 16, 64, inf}
	ctx := reference.Context{Prec: 128}
	events := []tenfoldEvent{
		{"10 x KaryRandomizedResponse(0.5, 2, replace-one)", func(a float64) (*big.Float, error) {
			return ctx.KaryRandomizedResponse(0.5, 2, reference.ReplaceOne, a)
		}},
		{"10 x KaryRandomizedResponse(0.3, 10, replace-special)", func(a float64) (*big.Float, error) {
			return ctx.KaryRandomizedResponse(0.3, 10, reference.ReplaceSpecial, a)
		}},
		{"10 x PureDP(1)", func(a float64) (*big.Float, error) { return ctx.PureDP(1, a) }},
		{"10 x ZCDP(0.01, 0.001)", func(a float64) (*big.Float, error) { return ctx.ZCDP(0.01, 0.001, a) }},
		{"10 x ExponentialMechanism(1)", func(a float64) (*big.Float, error) { return ctx.ExponentialMechanism(1, a) }},
		{"10 x GroupPrivacy(c=1) of PureDP(0.5) on 2..256, inf", func(a float64) (*big.Float, error) {
			po := []float64{2, 4, 8, 16, 32, 64, 128, 256, inf}
			pr := make([]*big.Float, len(po))
			for i, x := range po {
				v, err := ctx.PureDP(0.5, x)
				if err != nil {
					return nil, err
				}
				pr[i] = v
			}
			if !math.IsInf(a, 1) && 2*a > 256 {
				return nil, fmt.Errorf("order %g beyond the base curve", a)
			}
			return ctx.GroupPrivacy(po, pr, 1, a)
		}},
	}
	b.epsilonAfterEvents(e, "events", orders, events)
}
