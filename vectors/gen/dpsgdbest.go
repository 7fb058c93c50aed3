package gen

// vectors/dpsgd_best.json: DP-SGD eps at the best order, not the best grid
// order.

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// dpsgdBestOrders are, for dpsgd.json's scenarios, deltas and both
// conversions, the orders fast.Accountant.BestEpsilon returned (the least
// eps over (1, 4096] and +Inf, searched from dp_accounting's 156 orders),
// as shortest round-trip float64 literals. They are inputs: the file does
// not change when the search does. fast's TestBestOrderVectors checks that
// its search still finds an eps no larger than each.
var dpsgdBestOrders = []struct {
	q, sigma float64
	steps    int
	delta    float64
	conv     string
	order    float64
}{
	{0.004266666666666667, 1.1, 14063, 1e-05, "improved", 8.121617873710182},
	{0.004266666666666667, 1.1, 14063, 1e-05, "classic", 8.818636640655697},
	{0.004266666666666667, 1.1, 14063, 1e-06, "improved", 8.856655816903672},
	{0.004266666666666667, 1.1, 14063, 1e-06, "classic", 9.502123285245705},
	{0.004266666666666667, 1.1, 14063, 1e-10, "improved", 11.07787232286123},
	{0.004266666666666667, 1.1, 14063, 1e-10, "classic", 11.393465001665092},
	{0.004266666666666667, 1.1, 3516, 1e-05, "improved", 11.94688870370904},
	{0.004266666666666667, 1.1, 3516, 1e-05, "classic", 12.086466988715825},
	{0.004266666666666667, 1.1, 3516, 1e-06, "improved", 12.078148293728871},
	{0.004266666666666667, 1.1, 3516, 1e-06, "classic", 12.16865183712296},
	{0.004266666666666667, 1.1, 3516, 1e-10, "improved", 12.313496623838937},
	{0.004266666666666667, 1.1, 3516, 1e-10, "classic", 12.350088787577382},
	{0.004266666666666667, 1.1, 235, 1e-05, "improved", 12.790791797629051},
	{0.004266666666666667, 1.1, 235, 1e-05, "classic", 12.844738144492544},
	{0.004266666666666667, 1.1, 235, 1e-06, "improved", 12.84005957082842},
	{0.004266666666666667, 1.1, 235, 1e-06, "classic", 12.883451122858615},
	{0.004266666666666667, 1.1, 235, 1e-10, "improved", 12.965008220552916},
	{0.004266666666666667, 1.1, 235, 1e-10, "classic", 12.989212961131459},
	{0.004166666666666667, 1.3, 3600, 1e-05, "improved", 17.027283170601912},
	{0.004166666666666667, 1.3, 3600, 1e-05, "classic", 17.294392489692974},
	{0.004166666666666667, 1.3, 3600, 1e-06, "improved", 17.26100249802036},
	{0.004166666666666667, 1.3, 3600, 1e-06, "classic", 17.396809149094338},
	{0.004166666666666667, 1.3, 3600, 1e-10, "improved", 17.552001056781048},
	{0.004166666666666667, 1.3, 3600, 1e-10, "classic", 17.59675614273912},
	{0.004166666666666667, 1.3, 15, 1e-05, "improved", 18.580514871926624},
	{0.004166666666666667, 1.3, 15, 1e-05, "classic", 18.636045477811177},
	{0.004166666666666667, 1.3, 15, 1e-06, "improved", 18.625580740352287},
	{0.004166666666666667, 1.3, 15, 1e-06, "classic", 18.67029170216728},
	{0.004166666666666667, 1.3, 15, 1e-10, "improved", 18.740759788362336},
	{0.004166666666666667, 1.3, 15, 1e-10, "classic", 18.766245731928215},
	{0.01, 4, 10000, 1e-05, "improved", 17.21990175225936},
	{0.01, 4, 10000, 1e-05, "classic", 19.663893042896227},
	{0.01, 4, 10000, 1e-06, "improved", 19.136580607355},
	{0.01, 4, 10000, 1e-06, "classic", 21.421252984141184},
	{0.01, 4, 10000, 1e-10, "improved", 25.37754005540852},
	{0.01, 4, 10000, 1e-10, "classic", 27.2604222916384},
	{0.01, 8, 10000, 1e-05, "improved", 32.763470772100305},
	{0.01, 8, 10000, 1e-05, "classic", 39.010498721734805},
	{0.01, 8, 10000, 1e-06, "improved", 36.807382104310264},
	{0.01, 8, 10000, 1e-06, "classic", 42.614515640643724},
	{0.01, 8, 10000, 1e-10, "improved", 49.893745757819694},
	{0.01, 8, 10000, 1e-10, "classic", 54.62136241729223},
	{0.01, 2, 10000, 1e-05, "improved", 8.905174576018368},
	{0.01, 2, 10000, 1e-05, "classic", 9.758840448592158},
	{0.01, 2, 10000, 1e-06, "improved", 9.767526782158667},
	{0.01, 2, 10000, 1e-06, "classic", 10.569443979101779},
	{0.01, 2, 10000, 1e-10, "improved", 12.578059846296558},
	{0.01, 2, 10000, 1e-10, "classic", 13.245158591663364},
	{0.01, 2.5, 50, 1e-05, "improved", 56.70429261289153},
	{0.01, 2.5, 50, 1e-05, "classic", 56.833439178313505},
	{0.01, 2.5, 50, 1e-06, "improved", 56.78875051120997},
	{0.01, 2.5, 50, 1e-06, "classic", 56.89248264720639},
	{0.01, 2.5, 50, 1e-10, "improved", 56.96689284308601},
	{0.01, 2.5, 50, 1e-10, "classic", 57.01022375955513},
	{0.01, 1, 10000, 1e-05, "improved", 4.135112099628949},
	{0.01, 1, 10000, 1e-05, "classic", 4.3257933156712705},
	{0.01, 1, 10000, 1e-06, "improved", 4.4285833971018125},
	{0.01, 1, 10000, 1e-06, "classic", 4.605724891982883},
	{0.01, 1, 10000, 1e-10, "improved", 5.346717365538451},
	{0.01, 1, 10000, 1e-10, "classic", 5.485106037177632},
	{0.01, 1, 500, 1e-05, "improved", 8.234688305107838},
	{0.01, 1, 500, 1e-05, "classic", 8.33032839664294},
	{0.01, 1, 500, 1e-06, "improved", 8.337179853922654},
	{0.01, 1, 500, 1e-06, "classic", 8.408231409936677},
	{0.01, 1, 500, 1e-10, "improved", 8.564323173873358},
	{0.01, 1, 500, 1e-10, "classic", 8.59819595104345},
	{0.01, 0.7, 500, 1e-05, "improved", 3.9194093085978916},
	{0.01, 0.7, 500, 1e-05, "classic", 3.965187346840584},
	{0.01, 0.7, 500, 1e-06, "improved", 3.9923223084510453},
	{0.01, 0.7, 500, 1e-06, "classic", 4.028820355599002},
	{0.01, 0.7, 500, 1e-10, "improved", 4.173664660371023},
	{0.01, 0.7, 500, 1e-10, "classic", 4.193321087058704},
	{0.01024, 1, 2930, 1e-05, "improved", 6.066141478607606},
	{0.01024, 1, 2930, 1e-05, "classic", 6.391808340417724},
	{0.01024, 1, 2930, 1e-06, "improved", 6.46229541129837},
	{0.01024, 1, 2930, 1e-06, "classic", 6.730739232349075},
	{0.01024, 1, 2930, 1e-10, "improved", 7.388067561430968},
	{0.01024, 1, 2930, 1e-10, "classic", 7.498858226210365},
	{0.08192, 3, 1221, 1e-05, "improved", 5.341610906907318},
	{0.08192, 3, 1221, 1e-05, "classic", 5.681258274243435},
	{0.08192, 3, 1221, 1e-06, "improved", 5.78625308416061},
	{0.08192, 3, 1221, 1e-06, "classic", 6.106629037441552},
	{0.08192, 3, 1221, 1e-10, "improved", 7.232503079088454},
	{0.08192, 3, 1221, 1e-10, "classic", 7.501159795417056},
	{0.001024, 0.8, 9766, 1e-05, "improved", 8.122289179201658},
	{0.001024, 0.8, 9766, 1e-05, "classic", 8.163966567406309},
	{0.001024, 0.8, 9766, 1e-06, "improved", 8.167624438475299},
	{0.001024, 0.8, 9766, 1e-06, "classic", 8.200591744156194},
	{0.001024, 0.8, 9766, 1e-10, "improved", 8.280694771878625},
	{0.001024, 0.8, 9766, 1e-10, "classic", 8.298760104911192},
	{0.1, 0.5, 20, 1e-05, "improved", 1.8697337083881376},
	{0.1, 0.5, 20, 1e-05, "classic", 1.8811576515873571},
	{0.1, 0.5, 20, 1e-06, "improved", 1.9089536618272243},
	{0.1, 0.5, 20, 1e-06, "classic", 1.9189837835018013},
	{0.1, 0.5, 20, 1e-10, "improved", 2.023409440519346},
	{0.1, 0.5, 20, 1e-10, "classic", 2.0304747719984433},
	{0.1, 2, 10, 1e-05, "improved", 14.243157682796253},
	{0.1, 2, 10, 1e-05, "classic", 14.906082309925852},
	{0.1, 2, 10, 1e-06, "improved", 14.822286898816166},
	{0.1, 2, 10, 1e-06, "classic", 15.32422513732368},
	{0.1, 2, 10, 1e-10, "improved", 16.089253694181874},
	{0.1, 2, 10, 1e-10, "classic", 16.315686843259005},
	{0.00064, 1.5, 78125, 1e-05, "improved", 30.673015269126747},
	{0.00064, 1.5, 78125, 1e-05, "classic", 31.889123425218095},
	{0.00064, 1.5, 78125, 1e-06, "improved", 31.819990748292824},
	{0.00064, 1.5, 78125, 1e-06, "classic", 31.966012187457668},
	{0.00064, 1.5, 78125, 1e-10, "improved", 32.091397403011285},
	{0.00064, 1.5, 78125, 1e-10, "classic", 32.135837978094514},
	{0.001, 1, 100000, 1e-05, "improved", 11.01},
	{0.001, 1, 100000, 1e-05, "classic", 12.045809369792396},
	{0.001, 1, 100000, 1e-06, "improved", 11.994225008197635},
	{0.001, 1, 100000, 1e-06, "classic", 12.391864484643726},
	{0.001, 1, 100000, 1e-10, "improved", 12.662042320295212},
	{0.001, 1, 100000, 1e-10, "classic", 12.710847074020347},
	{1e-05, 0.6, 1000000, 1e-05, "improved", 7.852038310233268},
	{1e-05, 0.6, 1000000, 1e-05, "classic", 7.873027915847623},
	{1e-05, 0.6, 1000000, 1e-06, "improved", 7.875100310515014},
	{1e-05, 0.6, 1000000, 1e-06, "classic", 7.892414648737912},
	{1e-05, 0.6, 1000000, 1e-10, "improved", 7.935998616527591},
	{1e-05, 0.6, 1000000, 1e-10, "classic", 7.945937581194466},
	{1, 4.530877117, 1, 1e-05, "improved", 19.715887211829084},
	{1, 4.530877117, 1, 1e-05, "classic", 22.741545592233123},
	{1, 4.530877117, 1, 1e-06, "improved", 21.98455256622485},
	{1, 4.530877117, 1, 1e-06, "classic", 24.81666728060238},
	{1, 4.530877117, 1, 1e-10, "improved", 29.400226186670373},
	{1, 4.530877117, 1, 1e-10, "classic", 31.747683700055653},
	{0.5, 0.8, 100, 1e-05, "improved", 1.5057593544657066},
	{0.5, 0.8, 100, 1e-05, "classic", 1.5136510454751686},
	{0.5, 0.8, 100, 1e-06, "improved", 1.547552821299944},
	{0.5, 0.8, 100, 1e-06, "classic", 1.5550485383789237},
	{0.5, 0.8, 100, 1e-10, "improved", 1.680372740681178},
	{0.5, 0.8, 100, 1e-10, "classic", 1.6867807051670511},
}

func buildDPSGDBest(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("DP-SGD-epsilon-best-order", []string{
		"DP-SGD accounting at the best order rather than the best grid order: as dpsgd.json, each test with one order of its own, the order that minimises the conversion over every real order in (1, 4096] and +Inf (found by rdpcheck's fast.Accountant.BestEpsilon, a search from dp_accounting's 156 orders). Every order gives a valid (eps, delta) guarantee, so eps at any order is a valid answer; an accountant that minimises over a grid gives at least this eps (dpsgd.json's default-orders groups give the grid's).",
		"expectedOrder is the test's order. An answer below expected is below the exact eps at that order; an implementation that searches on its own may find another order and a smaller eps, which is valid when it is the exact conversion at its order.",
	}, "RDP curve: the reference's SGM RDP at the test's order, times steps; the conversion in big.Float at the working precision. The check at 320 bits recomputes both.")
	for _, conv := range []reference.Conversion{reference.Improved, reference.Classic} {
		g := b.Group(conv.String()+"/best-order", schema.DPSGDEpsilon,
			conv.String()+" conversion at the best order of each test (its orders list)", DPSGDTolerance)
		for _, s := range dpsgdBestOrders {
			if s.conv != conv.String() {
				continue
			}
			comment := ""
			for _, sc := range dpsgdScenarios {
				if sc.q == s.q && sc.sigma == s.sigma {
					comment = sc.comment
				}
			}
			o := []float64{s.order}
			t := DPSGDTest(s.q, s.sigma, s.steps, s.delta, conv)
			t.Comment = fmt.Sprintf("%s: q=%g sigma=%g steps=%d delta=%g, best order %.6g", comment, s.q, s.sigma, s.steps, s.delta, s.order)
			t.Orders, t.OrdersHex = schema.Lists(o)
			b.Test(g, t, DPSGDJob(e, s.q, s.sigma, s.steps, s.delta, o, conv), func(t *schema.Test, out verify.Out) error {
				return conversionValueFlags(t, schema.DPSGDEpsilon, conv, out)
			})
		}
	}
	return b, nil
}
