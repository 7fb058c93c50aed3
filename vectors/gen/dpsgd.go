package gen

// vectors/dpsgd.json: DP-SGD scenarios (q, sigma, steps, delta) -> (eps, order).

import (
	"fmt"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// DPSGDTolerance: eps = min over orders of (steps * RDP + a conversion
// term); an RDP curve within 1e-12 relative (package fast) gives eps within
// about 1e-12 relative.
const DPSGDTolerance = 1e-12

// dpsgdScenarios are (q, sigma) pairs with step counts. The pairs are those
// of peers/tfprivacy/dpsgd_epsilon.json (MNIST and CIFAR-style runs,
// the TF Privacy tutorial, large-batch and tiny-rate settings), written as
// the same float64 literals, plus two extremes; the files share their
// curves.
var dpsgdScenarios = []struct {
	q, sigma float64
	steps    []int
	comment  string
}{
	{0.004266666666666667, 1.1, []int{14063, 3516, 235}, "MNIST, batch 256 of 60000 (TF Privacy tutorial), 60 / 15 / 1 epochs"},
	{0.004166666666666667, 1.3, []int{3600, 15}, "batch 250 of 60000"},
	{0.01, 4, []int{10000}, "q=0.01, much noise"},
	{0.01, 8, []int{10000}, "q=0.01, very much noise"},
	{0.01, 2, []int{10000}, "q=0.01"},
	{0.01, 2.5, []int{50}, "TF Privacy's compute_rdp test setting"},
	{0.01, 1, []int{10000, 500}, "q=0.01, sigma=1"},
	{0.01, 0.7, []int{500}, "little noise"},
	{0.01024, 1, []int{2930}, "batch 1024 of 100000"},
	{0.08192, 3, []int{1221}, "large batch, 8192 of 100000"},
	{0.001024, 0.8, []int{9766}, "batch 1024 of 1000000"},
	{0.1, 0.5, []int{20}, "large q, little noise: eps is large"},
	{0.1, 2, []int{10}, "q=0.1, few steps"},
	{0.00064, 1.5, []int{78125}, "many steps"},
	{0.001, 1, []int{100000}, "q=0.001, 100000 steps"},
	{1e-05, 0.6, []int{1000000}, "tiny q, a million steps"},
	{1, 4.530877117, []int{1}, "no sampling, one Gaussian release (TF Privacy's calibration test)"},
	{0.5, 0.8, []int{100}, "q=0.5"},
}

var dpsgdDeltas = []float64{1e-5, 1e-6, 1e-10}

func intOrders() []float64 {
	var o []float64
	for a := 2; a <= 64; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256)
}

func buildDPSGD(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("DP-SGD-epsilon", []string{
		"DP-SGD accounting: eps for a target delta after steps compositions of the Poisson-sampled Gaussian mechanism (sampling rate q, noise multiplier sigma, add/remove-one neighbours), RDP at the group's orders (steps * SGM RDP, exactly), converted by the test's conversion and minimised over the orders.",
		"Conversions as in conversions.json; expectedOrder is the order attaining the minimum (the first on ties), informative and not scored.",
	}, "RDP curve: the reference's SGM RDP at each order (see sgm_rdp.json), times steps; the conversion in big.Float at the working precision. The check at 320 bits recomputes the curve and the conversion.")
	groups := []struct {
		name    string
		conv    reference.Conversion
		orders  []float64
		comment string
	}{
		{"improved/default-orders", reference.Improved, DPAccountingOrders(), "improved conversion at dp_accounting's 156 default orders (1.1 to 10.9 by 0.1, 11 to 63, 128, 256, 512, 1024)"},
		{"classic/default-orders", reference.Classic, DPAccountingOrders(), "classic conversion at dp_accounting's 156 default orders"},
		{"improved/integer-orders", reference.Improved, intOrders(), "improved conversion at the integer orders 2 to 64, 128 and 256"},
	}
	for _, gs := range groups {
		g := b.Group(gs.name, schema.DPSGDEpsilon, gs.comment, DPSGDTolerance)
		g.Orders, g.OrdersHex = schema.Lists(gs.orders)
		for _, s := range dpsgdScenarios {
			e.Need(s.q, s.sigma, gs.orders...)
			for _, steps := range s.steps {
				for _, delta := range dpsgdDeltas {
					t := DPSGDTest(s.q, s.sigma, steps, delta, gs.conv)
					t.Comment = fmt.Sprintf("%s: q=%g sigma=%g steps=%d delta=%g", s.comment, s.q, s.sigma, steps, delta)
					if len(gs.orders) >= 100 {
						t.Flags = append(t.Flags, "ManyOrders")
					}
					b.Test(g, t, DPSGDJob(e, s.q, s.sigma, steps, delta, gs.orders, gs.conv), func(t *schema.Test, o verify.Out) error {
						return conversionValueFlags(t, schema.DPSGDEpsilon, gs.conv, o)
					})
				}
			}
		}
	}
	return b, nil
}

// DPSGDTest is a DP-SGD test without comment or flags.
func DPSGDTest(q, sigma float64, steps int, delta float64, conv reference.Conversion) *schema.Test {
	t := &schema.Test{Conversion: conv.String(), Steps: &steps}
	t.SetFloat("q", q)
	t.SetFloat("sigma", sigma)
	t.SetFloat("delta", delta)
	return t
}

// DPSGDJob is eps of steps * the SGM curve at orders. The curve's points
// come from phase 1; multiplying by steps rounds to the context's precision
// as reference.SGMCurve does.
func DPSGDJob(e *verify.Engine, q, sigma float64, steps int, delta float64, orders []float64, conv reference.Conversion) *verify.Job {
	e.Need(q, sigma, orders...)
	what := fmt.Sprintf("DPSGDEpsilon(q=%g, sigma=%g, steps=%d, delta=%g, %d orders, %s)", q, sigma, steps, delta, len(orders), conv)
	j := e.Add(what, func(c reference.Context, pts verify.Points) (verify.Out, error) {
		rdp := make([]*big.Float, len(orders))
		for i, a := range orders {
			v := pts(q, sigma, a)
			rdp[i] = new(big.Float).SetPrec(v.Prec()).Mul(v, new(big.Float).SetInt64(int64(steps)))
		}
		v, o, err := c.Epsilon(orders, rdp, delta, conv)
		return verify.Out{V: v, Order: o}, err
	})
	j.Reads(q, sigma)
	return j
}
