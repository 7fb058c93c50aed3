package gen

// vectors/dgauss_tree_repeat.json: the discrete Gaussian, tree aggregation
// (one tree, every tree, one tree with several participations) and
// repeat-and-select, by region, their invalid inputs, and conversions whose
// orders include +inf after ten of each.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// repeatOrders are the base curves' orders: they cover every order of the
// value groups (and +inf).
var repeatOrders = []float64{1.5, 2, 3, 4, 8, 16, 32, 64, inf}

// repeatBase is a base curve for repeat-and-select: the Gaussian (sigma)
// or the tight eps-DP curve at repeatOrders, each value the float64 just
// above the reference's at 128 bits (an upper bound, taken exactly).
func repeatBase(kind string, p float64) []float64 {
	ctx := reference.Context{Prec: 128}
	out := make([]float64, len(repeatOrders))
	for i, a := range repeatOrders {
		var v *big.Float
		var err error
		if kind == "gaussian" {
			v, err = ctx.Gaussian(p, a)
		} else {
			v, err = ctx.PureDP(p, a)
		}
		if err != nil {
			panic(fmt.Sprintf("repeat base %s(%g) at %g: %v", kind, p, a, err))
		}
		out[i] = upFloat(v)
	}
	return out
}

// upFloat is the smallest float64 >= v.
func upFloat(v *big.Float) float64 {
	x, acc := v.Float64()
	if acc == big.Below {
		x = math.Nextafter(x, inf)
	}
	return x
}

func buildDGTree(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("RDP-dgauss-tree-repeat", []string{
		"RDP curves of three more events of dp_accounting's RDP accountant and TF Privacy:",
		"DiscreteGaussian(sigma, sensitivity, alpha): the exact Renyi divergence between the discrete Gaussians N_Z(0, sigma^2) and N_Z(sensitivity, sigma^2) on the integers (Canonne, Kamath, Steinke 2020): alpha D^2/(2 sigma^2) + log(theta(f)/theta(0))/(alpha-1), f the distance of alpha D to the integers, theta(t) = sum_x exp(-(x-t)^2/(2 sigma^2)); equal to the zCDP line alpha D^2/(2 sigma^2) where (1-alpha) D is an integer, below it otherwise.",
		"TreeAggregation(sigma, trees, restarts, alpha) = k alpha/(2 sigma^2): DP-FTRL's tree aggregation (Kairouz et al. 2021, appendix D), trees[i] leaves in the i-th restarted tree, k = max_i (floor(log2 trees[i]) + 1) for one-tree (dp_accounting) and the sum for every-tree (TF Privacy's compute_rdp_tree_restart); a tree of 0 steps adds 0.",
		"TreeMultiParticipation(sigma, steps, maxParticipation, minSeparation, alpha) = k alpha/(2 sigma^2): one tree of steps leaves without restarts, k the largest sum over its nodes of the squared number of a record's leaves below the node, at most maxParticipation leaves any two at least minSeparation apart (TF Privacy's compute_rdp_single_tree).",
		"RepeatAndSelect(orders, rdp, mean, shape, alpha): Papernot and Steinke 2022 (arXiv 2110.03620), the best of a random number K of runs of a mechanism with RDP rdp at orders: Theorem 2 for a truncated negative binomial K (shape eta; 0 logarithmic, 1 geometric) with lambdahat chosen among the orders, Theorem 6 for Poisson K (shape inf) with deltahat from the improved conversion and the total-variation bound; the smallest bound over the orders >= alpha. An upper bound, evaluated exactly.",
		"Epsilon groups: after ten applications of each event (rdp = 10 times its curve, taken exactly as the float64 values written) with inf among the orders.",
	}, "Values in big.Float at the working precision of the Ziv loop: theta sums cut where the tail, bounded by a geometric series, is below the working precision; the truncated negative binomial's gamma by Newton's method to the working precision.")

	g := b.Group("discrete-gaussian", schema.DiscreteGaussian, "the discrete Gaussian's exact divergence, by sigma (direct sum to 1, Poisson summation above)", EventsTolerance)
	for _, s := range []float64{0.1, 0.3, 0.5, 0.7, 1, 2, 10} {
		for _, d := range []float64{1, 2, 3} {
			for _, a := range []float64{0, 0.5, 1, 1.01, 1.5, 2, 2.5, 3.3, 8, 64.25, 1024, 1e6 + 0.5, inf} {
				t := eventTest(fmt.Sprintf("sigma=%g sensitivity=%g alpha=%g", s, d, a), dgFlags(a, d), "sigma", s, "sensitivity", d, "alpha", a)
				b.Test(g, t, e.RefJob("DiscreteGaussian "+t.Comment, func(c reference.Context) (*big.Float, error) {
					return c.DiscreteGaussian(s, d, a)
				}), nil)
			}
		}
	}
	for _, a := range []float64{1.5, 2, inf} {
		t := eventTest(fmt.Sprintf("sigma=1 sensitivity=0 alpha=%g", a), orderFlags(a), "sigma", 1.0, "sensitivity", 0.0, "alpha", a)
		b.Test(g, t, e.RefJob("DiscreteGaussian "+t.Comment, func(c reference.Context) (*big.Float, error) { return c.DiscreteGaussian(1, 0, a) }), nil)
	}

	g = b.Group("tree-aggregation", schema.TreeAggregation, "DP-FTRL's restarted trees, a record in one tree or in every tree", EventsTolerance)
	for _, s := range []float64{0.5, 1, 4.5} {
		for _, trees := range [][]int{{1}, {100}, {1023}, {1024}, {0, 0}, {100, 100, 100}, {1, 2, 3, 4, 5}, {1 << 20}} {
			for _, r := range []rdpcheck.TreeRestarts{rdpcheck.TreeOneTree, rdpcheck.TreeEveryTree} {
				for _, a := range []float64{0, 1.5, 2, 8, 1024, inf} {
					b.treeTest(e, g, s, trees, r.String(), a, orderFlags(a), schema.Valid)
				}
			}
		}
	}
	g = b.Group("tree-multi-participation", schema.TreeMultiParticipation, "one tree without restarts, several participations", EventsTolerance)
	for _, s := range []float64{1, 3} {
		for _, c := range [][3]int{{1, 1, 0}, {16, 1, 0}, {16, 2, 3}, {16, 4, 1}, {100, 5, 10}, {1000, 10, 50}, {0, 2, 1}, {8, 0, 1}} {
			for _, a := range []float64{1.5, 2, 32, inf} {
				b.treeMultiTest(e, g, s, c[0], c[1], c[2], a, orderFlags(a), schema.Valid)
			}
		}
	}

	g = b.Group("repeat-and-select", schema.RepeatAndSelect, "Papernot and Steinke 2022: the best of a random number of runs", EventsTolerance)
	for _, base := range []struct {
		kind string
		p    float64
	}{{"gaussian", 2}, {"gaussian", 10}, {"puredp", 1}} {
		curve := repeatBase(base.kind, base.p)
		for _, mean := range []float64{1, 1.5, 10, 1000} {
			for _, shape := range []float64{0, 0.5, 1, 3, inf} {
				for _, a := range []float64{1.5, 2, 8, 64, inf} {
					b.repeatTest(e, g, fmt.Sprintf("%s(%g) mean=%g shape=%g alpha=%g", base.kind, base.p, mean, shape, a), repeatOrders, curve, mean, shape, a, orderFlags(a), schema.Valid)
				}
			}
		}
	}

	b.dgTreeInvalid(e)
	b.dgTreeConversions(e)
	return b, nil
}

// dgFlags adds ZCDPLine where (1-alpha) D is an integer.
func dgFlags(a, d float64) []string {
	f := append([]string{}, orderFlags(a)...)
	if p := a * d; !math.IsInf(a, 1) && p == math.Trunc(p) && math.FMA(a, d, -p) == 0 {
		f = append(f, "ZCDPLine")
	}
	return f
}

func (b *FileBuilder) treeTest(e *verify.Engine, g *schema.Group, s float64, trees []int, restarts string, a float64, flags []string, result string) {
	t := eventTest(fmt.Sprintf("sigma=%g trees=%v %s alpha=%g", s, trees, restarts, a), flags, "sigma", s, "alpha", a)
	t.Trees = append([]int{}, trees...)
	if trees == nil {
		t.Trees = []int{}
	}
	t.Restarts = restarts
	t.Result = result
	r := rdpcheck.ParseTreeRestarts(restarts)
	b.Test(g, t, e.RefJob("TreeAggregation "+t.Comment, func(c reference.Context) (*big.Float, error) {
		return c.TreeAggregation(s, trees, r, a)
	}), nil)
}

func (b *FileBuilder) treeMultiTest(e *verify.Engine, g *schema.Group, s float64, n, m, sep int, a float64, flags []string, result string) {
	t := eventTest(fmt.Sprintf("sigma=%g steps=%d maxParticipation=%d minSeparation=%d alpha=%g", s, n, m, sep, a), flags, "sigma", s, "alpha", a)
	t.Steps, t.MaxParticipation, t.MinSeparation = &n, &m, &sep
	t.Result = result
	b.Test(g, t, e.RefJob("TreeMultiParticipation "+t.Comment, func(c reference.Context) (*big.Float, error) {
		return c.TreeMultiParticipation(s, n, m, sep, a)
	}), nil)
}

func (b *FileBuilder) repeatTest(e *verify.Engine, g *schema.Group, comment string, orders, curve []float64, mean, shape, a float64, flags []string, result string) {
	t := eventTest(comment, flags, "mean", mean, "shape", shape, "alpha", a)
	t.Orders, t.OrdersHex = schema.Lists(orders)
	t.RDP, t.RDPHex = schema.Lists(curve)
	t.Result = result
	b.Test(g, t, e.RefJob("RepeatAndSelect "+comment, func(c reference.Context) (*big.Float, error) {
		r := make([]*big.Float, len(curve))
		for i, x := range curve {
			if math.IsNaN(x) {
				r[i] = nil // the reference's NaN
				continue
			}
			r[i] = BigList([]float64{x})[0]
		}
		return c.RepeatAndSelect(orders, r, mean, shape, a)
	}), nil)
}

// dgTreeInvalid: inputs each function must reject.
func (b *FileBuilder) dgTreeInvalid(e *verify.Engine) {
	nan := math.NaN()
	g := b.Group("discrete-gaussian/invalid", schema.DiscreteGaussian, "DiscreteGaussian: sigma finite and > 0, an integer sensitivity, alpha >= 0, none NaN", EventsTolerance)
	for _, c := range [][3]float64{{0, 1, 2}, {-1, 1, 2}, {inf, 1, 2}, {nan, 1, 2}, {1, 0.5, 2}, {1, inf, 2}, {1, nan, 2}, {1, 1, -1}, {1, 1, nan}} {
		t := eventTest(fmt.Sprintf("sigma=%g sensitivity=%g alpha=%g", c[0], c[1], c[2]), []string{badOf(c[0], c[1], c[2])}, "sigma", c[0], "sensitivity", c[1], "alpha", c[2])
		t.Result = schema.Invalid
		b.Test(g, t, e.RefJob("DiscreteGaussian "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.DiscreteGaussian(c[0], c[1], c[2])
		}), nil)
	}
	g = b.Group("tree-aggregation/invalid", schema.TreeAggregation, "TreeAggregation: sigma finite and > 0, a non-empty list of step counts >= 0, restarts one-tree or every-tree, alpha >= 0, none NaN", EventsTolerance)
	for _, c := range []struct {
		s     float64
		trees []int
		r     string
		a     float64
		flag  string
	}{
		{0, []int{100}, "one-tree", 2, "OutOfRange"}, {nan, []int{100}, "one-tree", 2, "NaNInput"},
		{inf, []int{100}, "every-tree", 2, "InfiniteInput"}, {1, []int{}, "one-tree", 2, "BadTrees"},
		{1, []int{100, -1}, "every-tree", 2, "BadTrees"}, {1, []int{100}, "all-trees", 2, "OutOfRange"},
		{1, []int{100}, "one-tree", -1, "OutOfRange"}, {1, []int{100}, "one-tree", nan, "NaNInput"},
	} {
		b.treeTest(e, g, c.s, c.trees, c.r, c.a, []string{c.flag}, schema.Invalid)
	}
	g = b.Group("tree-multi-participation/invalid", schema.TreeMultiParticipation, "TreeMultiParticipation: sigma finite and > 0, steps, maxParticipation and minSeparation >= 0, alpha >= 0, none NaN", EventsTolerance)
	for _, c := range []struct {
		s       float64
		n, m, d int
		a       float64
		flag    string
	}{
		{0, 8, 2, 1, 2, "OutOfRange"}, {nan, 8, 2, 1, 2, "NaNInput"}, {1, -1, 2, 1, 2, "BadSteps"},
		{1, 8, -1, 1, 2, "OutOfRange"}, {1, 8, 2, -1, 2, "OutOfRange"}, {1, 8, 2, 1, nan, "NaNInput"},
	} {
		b.treeMultiTest(e, g, c.s, c.n, c.m, c.d, c.a, []string{c.flag}, schema.Invalid)
	}
	g = b.Group("repeat-and-select/invalid", schema.RepeatAndSelect, "RepeatAndSelect: a non-empty curve of equal lengths, orders >= 0, rdp >= 0, mean finite and >= 1, shape >= 0, alpha >= 0, an order > 1 at or above alpha, and (shape finite) an order >= 1", EventsTolerance)
	o, r := []float64{2, 8, inf}, []float64{0.1, 0.4, 1}
	for _, c := range []struct {
		what           string
		orders, rdp    []float64
		mean, shape, a float64
		flag           string
	}{
		{"empty curve", []float64{}, []float64{}, 10, 1, 2, "BadCurve"},
		{"lengths differ", o, r[:2], 10, 1, 2, "BadCurve"},
		{"an order NaN", []float64{2, nan, inf}, r, 10, 1, 2, "BadCurve"},
		{"a negative rdp", o, []float64{0.1, -1, 1}, 10, 1, 2, "BadCurve"},
		{"mean 0", o, r, 0, 1, 2, "OutOfRange"},
		{"mean 0.5 (K >= 1; dp_accounting rejects it too)", o, r, 0.5, 1, 2, "OutOfRange"},
		{"mean inf", o, r, inf, 1, 2, "InfiniteInput"},
		{"mean NaN", o, r, nan, inf, 2, "NaNInput"},
		{"shape < 0", o, r, 10, -1, 2, "OutOfRange"},
		{"shape NaN", o, r, 10, nan, 2, "NaNInput"},
		{"alpha NaN", o, r, 10, 1, nan, "NaNInput"},
		{"no order at or above alpha", []float64{2, 8}, []float64{0.1, 0.4}, 10, 1, 16, "BadCurve"},
		{"no order >= 1 for lambdahat", []float64{0.5}, []float64{0.1}, 10, 1, 0.25, "BadCurve"},
	} {
		b.repeatTest(e, g, c.what, c.orders, c.rdp, c.mean, c.shape, c.a, []string{c.flag}, schema.Invalid)
	}
}

// dgTreeConversions: Epsilon after ten applications of each event, with
// inf among the orders (10 times the reference value at each order,
// rounded up to float64: an upper bound taken exactly).
func (b *FileBuilder) dgTreeConversions(e *verify.Engine) {
	orders := []float64{2, 4, 16, 64, inf}
	ctx := reference.Context{Prec: 128}
	pure := repeatBase("puredp", 1)
	gauss := repeatBase("gaussian", 4)
	rep := func(curve []float64, mean, shape float64) func(a float64) (*big.Float, error) {
		return func(a float64) (*big.Float, error) {
			return ctx.RepeatAndSelect(repeatOrders, BigList(curve), mean, shape, a)
		}
	}
	events := []tenfoldEvent{
		{"10 x DiscreteGaussian(sigma=2, sensitivity=1)", func(a float64) (*big.Float, error) { return ctx.DiscreteGaussian(2, 1, a) }},
		{"10 x DiscreteGaussian(sigma=0.4, sensitivity=1)", func(a float64) (*big.Float, error) { return ctx.DiscreteGaussian(0.4, 1, a) }},
		{"10 x TreeAggregation(sigma=5, trees=[100 100 100], every-tree)", func(a float64) (*big.Float, error) {
			return ctx.TreeAggregation(5, []int{100, 100, 100}, rdpcheck.TreeEveryTree, a)
		}},
		{"10 x TreeAggregation(sigma=5, trees=[1000], one-tree)", func(a float64) (*big.Float, error) {
			return ctx.TreeAggregation(5, []int{1000}, rdpcheck.TreeOneTree, a)
		}},
		{"10 x TreeMultiParticipation(sigma=5, 64, 4, 3)", func(a float64) (*big.Float, error) { return ctx.TreeMultiParticipation(5, 64, 4, 3, a) }},
		{"10 x RepeatAndSelect(PureDP(1), mean=10, geometric)", rep(pure, 10, 1)},
		{"10 x RepeatAndSelect(PureDP(1), mean=10, Poisson)", rep(pure, 10, inf)},
		{"10 x RepeatAndSelect(Gaussian(4), mean=10, logarithmic)", rep(gauss, 10, 0)},
	}
	b.epsilonAfterEvents(e, "dgauss_tree_repeat", orders, events)
}
