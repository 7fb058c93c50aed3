package gen

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// tenfoldEvent is an event of the epsilon-after-events groups: its name
// and its exact RDP at an order.
type tenfoldEvent struct {
	name string
	f    func(a float64) (*big.Float, error)
}

// epsilonAfterEvents adds, for each conversion, the group
// "epsilon-after-events/<conversion>": Epsilon at delta 1e-5 and 1e-10
// after ten applications of each event, over orders that include +inf
// (the conversions' rules: the value at +inf is the RDP there, and an
// undefined per-order value is never chosen). The curve is ten times the
// reference value at each order rounded up to float64, an upper bound
// taken exactly. file names the vector file in the panic of an event that
// fails at an order (a generator bug).
func (b *FileBuilder) epsilonAfterEvents(e *verify.Engine, file string, orders []float64, events []tenfoldEvent) {
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		g := b.Group("epsilon-after-events/"+conv.String(), schema.Epsilon, "eps after ten applications of each event, orders including +inf, "+conv.String()+" conversion", ConversionTolerance)
		for _, ev := range events {
			rdpv := make([]float64, len(orders))
			for i, a := range orders {
				v, err := ev.f(a)
				if err != nil {
					panic(fmt.Sprintf("%s: %s at %g: %v", file, ev.name, a, err))
				}
				rdpv[i] = upFloat(new(big.Float).SetPrec(128).Mul(v, big.NewFloat(10)))
			}
			for _, delta := range []float64{1e-5, 1e-10} {
				t := &schema.Test{Comment: fmt.Sprintf("%s; delta=%g", ev.name, delta), Conversion: conv.String(), Flags: []string{"PureDPOrder"}}
				if math.IsInf(rdpv[len(rdpv)-1], 1) {
					t.Flags = append(t.Flags, "InfiniteRDP")
				}
				t.Orders, t.OrdersHex = schema.Lists(orders)
				t.RDP, t.RDPHex = schema.Lists(rdpv)
				t.SetFloat("delta", delta)
				j := e.Add(fmt.Sprintf("Epsilon(%s) %s", t.Comment, conv), func(c reference.Context, _ verify.Points) (verify.Out, error) {
					v, o, err := c.Epsilon(orders, BigList(rdpv), delta, conv)
					return verify.Out{V: v, Order: o}, err
				})
				b.Test(g, t, j, nil)
			}
		}
	}
}
