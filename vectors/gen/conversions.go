package gen

// vectors/conversions.json: RDP curve -> (eps, delta), both ways, classic
// and improved.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// ConversionTolerance: eps is a handful of logarithms per order; fast is
// within a few ulps of the largest term.
const ConversionTolerance = 1e-12

// DeltaTolerance: delta = exp(L) with L = (alpha-1)(rdp-eps) + ... up to
// about -700 within float64's range; an error of |L| u in L, which no
// float64 evaluation avoids, is a relative error of |L| u in delta (1.6e-13
// at |L| = 700), and fast's bound is 8 (|L| + 2) u.
const DeltaTolerance = 1e-11

// DPAccountingOrders are dp_accounting's DEFAULT_RDP_ORDERS, computed as
// dp_accounting computes them: [1 + x / 10.0 for x in range(1, 100)] +
// list(range(11, 64)) + [128, 256, 512, 1024].
func DPAccountingOrders() []float64 {
	var o []float64
	for x := 1; x < 100; x++ {
		o = append(o, 1+float64(x)/10)
	}
	for a := 11; a < 64; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256, 512, 1024)
}

// curve is an RDP curve given to a conversion: orders and float64 RDP
// values. Values from an SGM curve are the reference's values rounded to
// float64 and multiplied by steps in float64 (both precisions round to the
// same float64, which phase 1 confirmed, so the inputs do not depend on
// which evaluation reads them).
type curve struct {
	name   string
	orders []float64
	rdp    []float64 // fixed values, or nil for an SGM curve
	q      float64
	sigma  float64
	steps  int
}

func (c *curve) values(pts verify.Points) []float64 {
	if c.rdp != nil {
		return c.rdp
	}
	out := make([]float64, len(c.orders))
	for i, a := range c.orders {
		f, _ := pts(c.q, c.sigma, a).Float64()
		out[i] = f * float64(c.steps)
	}
	return out
}

// BigList is x as exact big.Float values (+Inf included).
func BigList(x []float64) []*big.Float {
	out := make([]*big.Float, len(x))
	for i, v := range x {
		if math.IsInf(v, 1) {
			out[i] = new(big.Float).SetInf(false)
		} else {
			out[i] = new(big.Float).SetFloat64(v)
		}
	}
	return out
}

func gaussianLine(sigma float64, steps float64, orders []float64) []float64 {
	out := make([]float64, len(orders))
	for i, a := range orders {
		// Only correctly rounded operations: the inputs are the same on
		// every machine.
		out[i] = steps * (a / (2 * (sigma * sigma)))
	}
	return out
}

func curveFlags(c *curve, rdp []float64) []string {
	var f []string
	for _, a := range c.orders {
		if math.IsInf(a, 1) {
			f = append(f, "PureDPOrder")
			break
		}
	}
	for _, v := range rdp {
		if math.IsInf(v, 1) {
			f = append(f, "InfiniteRDP")
			break
		}
	}
	if len(c.orders) >= 100 {
		f = append(f, "ManyOrders")
	}
	return f
}

// TFConstantCurve is the curve of TF Privacy's get_privacy_spent test:
// rdp 1.1 at the orders 2 to 32.
func TFConstantCurve() (orders, rdp []float64) {
	c := conversionCurves()[2]
	return c.orders, c.rdp
}

func conversionCurves() []*curve {
	ints := func(lo, hi int) []float64 {
		var o []float64
		for a := lo; a <= hi; a++ {
			o = append(o, float64(a))
		}
		return o
	}
	const1 := make([]float64, 31)
	for i := range const1 {
		const1[i] = 1.1
	}
	gaussOrders := []float64{1.5, 2, 3, 4, 8, 16, 32, 64, 128}
	return []*curve{
		{name: "gaussian sigma=1.1, 1 step", orders: gaussOrders, rdp: gaussianLine(1.1, 1, gaussOrders)},
		{name: "gaussian sigma=4.530877117, 1 step, default orders", orders: DPAccountingOrders(), rdp: gaussianLine(4.530877117, 1, DPAccountingOrders())},
		{name: "constant rdp 1.1 at orders 2..32 (TF Privacy's get_privacy_spent test)", orders: ints(2, 32), rdp: const1},
		{name: "SGM q=0.01 sigma=1.1 1000 steps, default orders", orders: DPAccountingOrders(), q: 0.01, sigma: 1.1, steps: 1000},
		{name: "SGM q=0.1 sigma=0.5 20 steps, default orders", orders: DPAccountingOrders(), q: 0.1, sigma: 0.5, steps: 20},
		{name: "pure DP order", orders: []float64{2, 4, 16, inf}, rdp: []float64{0.05, 0.1, 0.4, 0.5}},
		{name: "some infinite rdp", orders: []float64{1.5, 2, 4, 8}, rdp: []float64{0.5, 1, inf, inf}},
		{name: "all infinite rdp", orders: []float64{2, 4}, rdp: []float64{inf, inf}},
		{name: "zero rdp", orders: []float64{2, 8, 64}, rdp: []float64{0, 0, 0}},
		{name: "tiny rdp", orders: []float64{2, 100, 1000}, rdp: []float64{1e-9, 1e-9, 1e-9}},
		{name: "huge rdp", orders: []float64{1.25, 2, 10}, rdp: []float64{1e6, 5e6, 1e7}},
	}
}

func buildConversions(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("RDP-conversion", []string{
		"Conversion of an RDP curve (rdp[i] at orders[i], taken exactly as the float64 values given) to (eps, delta)-DP, minimised over the orders:",
		"Epsilon, classic: eps = min rdp + log(1/delta)/(alpha-1) (Mironov 2017, Prop 3); improved: eps = max(0, min rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1)) (Canonne, Kamath, Steinke 2020; Balle et al. 2020, Prop 12).",
		"Delta, classic: delta = min exp((alpha-1)(rdp - eps)); improved: delta = min exp((alpha-1)(rdp - eps + log1p(-1/alpha)) - log alpha); capped at 1.",
		"An order +inf converts as pure DP (eps = rdp; delta = 0 if rdp <= eps, else 1); an rdp +inf gives eps = +inf at that order. expectedOrder is the order attaining the minimum, the first on ties; it is informative, not scored.",
	}, "Conversions evaluated in big.Float at the working precision, minimum taken over the orders.")
	curves := conversionCurves()
	for _, c := range curves {
		if c.rdp == nil {
			e.NeedAlways(c.q, c.sigma, c.orders...)
		}
	}
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		g := b.Group("epsilon/"+conv.String(), schema.Epsilon, "RDP curve -> eps for a target delta, "+conv.String()+" conversion", ConversionTolerance)
		for _, c := range curves {
			for _, delta := range pick(c, []float64{0.5, 1e-5, 1e-10, 1e-300, 5e-324}, []float64{1e-5, 1e-10}) {
				b.conversionTest(e, g, c, conv, "delta", delta)
			}
		}
		g = b.Group("delta/"+conv.String(), schema.Delta, "RDP curve -> delta for a target eps, "+conv.String()+" conversion", DeltaTolerance)
		for _, c := range curves {
			for _, eps := range pick(c, []float64{0, 0.1, 1, 3, 10, 100}, []float64{1, 3}) {
				b.conversionTest(e, g, c, conv, "eps", eps)
			}
		}
	}
	return b, nil
}

// pick keeps the tests of long curves few: each test carries its curve.
func pick(c *curve, all, long []float64) []float64 {
	if len(c.orders) >= 100 {
		return long
	}
	return all
}

func (b *FileBuilder) conversionTest(e *verify.Engine, g *schema.Group, c *curve, conv reference.Conversion, name string, x float64) {
	t := &schema.Test{Comment: fmt.Sprintf("%s; %s=%g", c.name, name, x), Conversion: conv.String()}
	t.Orders, t.OrdersHex = schema.Lists(c.orders)
	t.SetFloat(name, x)
	if name == "delta" && x < 1e-100 {
		t.Flags = append(t.Flags, "TinyDelta")
	}
	what := fmt.Sprintf("%s(%s) %s", g.Function, t.Comment, conv)
	j := e.Add(what, func(ctx reference.Context, pts verify.Points) (verify.Out, error) {
		rdp := BigList(c.values(pts))
		var v *big.Float
		var o float64
		var err error
		if name == "delta" {
			v, o, err = ctx.Epsilon(c.orders, rdp, x, conv)
		} else {
			v, o, err = ctx.Delta(c.orders, rdp, x, conv)
		}
		return verify.Out{V: v, Order: o}, err
	})
	if c.rdp == nil {
		j.Reads(c.q, c.sigma)
	}
	b.Test(g, t, j, func(t *schema.Test, o verify.Out) error {
		rdp := c.values(func(q, sigma, alpha float64) *big.Float { return e.Value(q, sigma, alpha) })
		t.RDP, t.RDPHex = schema.Lists(rdp)
		t.Flags = append(t.Flags, curveFlags(c, rdp)...)
		return conversionValueFlags(t, g.Function, conv, o)
	})
}

// conversionValueFlags adds the flags that depend on the answer.
func conversionValueFlags(t *schema.Test, fn string, conv reference.Conversion, o verify.Out) error {
	if o.V == nil {
		return nil
	}
	switch {
	case fn != schema.Delta && conv == reference.Improved && o.V.Sign() == 0:
		t.Flags = append(t.Flags, "FlooredAtZero")
	case fn == schema.Delta && o.V.Cmp(big.NewFloat(1)) == 0:
		t.Flags = append(t.Flags, "DeltaCappedAtOne")
	case fn == schema.Delta && o.V.Sign() > 0 && o.V.Cmp(big.NewFloat(1e-100)) < 0:
		t.Flags = append(t.Flags, "TinyDelta")
	case fn != schema.Delta && o.V.Cmp(big.NewFloat(1e5)) > 0 && !o.V.IsInf():
		t.Flags = append(t.Flags, "HugeEpsilon")
	}
	return nil
}
