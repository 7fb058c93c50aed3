package fast

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/discretegauss"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/puredp"
	"github.com/rdpcheck/rdpcheck/internal/repeatselect"
	"github.com/rdpcheck/rdpcheck/internal/sampled"
)

// One composition API: every Compose<Name> method is
// Compose(<Name>Event(...), count). The old paths below are the bodies the
// Compose<Name> methods had at commit c94e5c4 (fast/accountant.go,
// dgauss.go, tree.go, repeat.go, zcdptight.go), before the accountant
// remembered their events, rewritten as functions of the orders: the
// values on the accountant's orders must not have moved.

// oldEach is c94e5c4's composeEach: count times f at each order.
func oldEach(o []float64, count int, f func(alpha float64) (float64, error)) ([]float64, error) {
	out := make([]float64, len(o))
	for i, x := range o {
		v, err := f(x)
		if err != nil {
			return nil, err
		}
		out[i] = errfloat.ScaleUp(v, float64(count))
	}
	return out, nil
}

// oldCurve is c94e5c4's composeCurve: count times the curve f writes.
func oldCurve(o []float64, count int, f func(orders, out []float64) error) ([]float64, error) {
	out := make([]float64, len(o))
	if err := f(o, out); err != nil {
		return nil, err
	}
	if count > 1 {
		for i := range out {
			out[i] = errfloat.ScaleUp(out[i], float64(count))
		}
	}
	return out, nil
}

// oldWOR is c94e5c4's composeWOR: the bound, its minimum over higher
// orders and the unsampled curve.
func oldWOR(o []float64, count int, bounds func(orders, out []float64) error, unsampled func(alpha float64) (float64, error)) ([]float64, error) {
	var idx []int
	var sub []float64
	for i, x := range o {
		if x <= rdpcheck.MaxWOROrder {
			idx, sub = append(idx, i), append(sub, x)
		}
	}
	vals := make([]float64, len(sub))
	if len(sub) > 0 {
		if err := bounds(sub, vals); err != nil {
			return nil, err
		}
	}
	out := make([]float64, len(o))
	for i, x := range o {
		best, err := unsampled(x)
		if err != nil {
			return nil, err
		}
		for k, j := range idx {
			if o[j] >= x && vals[k] < best {
				best = vals[k]
			}
		}
		out[i] = errfloat.ScaleUp(best, float64(count))
	}
	return out, nil
}

// oldPoissonBound is c94e5c4's ComposePoissonBound.
func oldPoissonBound(o []float64, q float64, base []float64, count int) ([]float64, error) {
	vals := make([]float64, len(o))
	for i, x := range o {
		v, err := PoissonBound(q, x, base)
		if err != nil {
			return nil, err
		}
		u, err := PoissonBound(1, x, base)
		if err != nil {
			return nil, err
		}
		vals[i] = math.Min(v, u)
	}
	best := make([]float64, len(o))
	for i, x := range o {
		best[i] = vals[i]
		for j, y := range o {
			if y >= x {
				best[i] = math.Min(best[i], vals[j])
			}
		}
	}
	return oldEach(o, count, func(x float64) (float64, error) {
		for i, y := range o {
			if y == x {
				return best[i], nil
			}
		}
		return 0, errors.New("unreachable")
	})
}

// oldRepeatAndSelect is c94e5c4's ComposeRepeatAndSelect.
func oldRepeatAndSelect(o, orders, curve []float64, mean, shape float64, count int) ([]float64, error) {
	const fn = "ComposeRepeatAndSelect"
	return oldCurve(o, count, func(o, out []float64) error {
		if err := checkRepeat(fn, orders, curve, mean, shape); err != nil {
			return err
		}
		var b repeatselect.Bounds
		if err := b.Init(orders, curve, mean, shape); err != nil {
			return err
		}
		per := make([]float64, len(orders))
		for j, l := range orders {
			if l > 1 {
				per[j] = b.At(orders, curve, j)
			}
		}
		for i, x := range o {
			m, ok := math.Inf(1), false
			for j, l := range orders {
				if l > 1 && l >= x {
					ok = true
					m = math.Min(m, per[j])
				}
			}
			if !ok {
				return inputErr(fn, "orders", x, "the base curve has no order > 1 at or above this accountant order")
			}
			out[i] = m
		}
		return nil
	})
}

// composeCase is one Compose<Name> call, its event and its old path.
type composeCase struct {
	name    string
	compose func(a *Accountant) error
	event   Event
	count   int
	old     func(o []float64) ([]float64, error)
	// ulps: where the old path rounded the same value differently (0:
	// the values must be identical)
	ulps int
}

func composeCases() []composeCase {
	lap := make([]float64, 1023) // Laplace(1) at 2..1024
	for j := range lap {
		lap[j], _ = Laplace(1, float64(j+2))
	}
	gauss := rdpcheck.BaseCurve{Eps: make([]float64, 1023), Inf: math.Inf(1)} // Gaussian(2)
	for j := range gauss.Eps {
		gauss.Eps[j], _ = Gaussian(2, float64(j+2))
	}
	rsOrders := append(DefaultOrders(), math.Inf(1))
	rsCurve := make([]float64, len(rsOrders))
	for i, a := range rsOrders {
		rsCurve[i] = puredp.Tight(1, a)
	}
	var cs []composeCase
	for _, c := range []struct {
		q, sigma float64
		steps    int
	}{{0.01, 1.1, 1000}, {256.0 / 60000, 1.1, 14063}, {0.1, 2, 1}, {1, 0.8, 3}, {0, 1, 5}, {1e-4, 0.5, 7}} {
		cs = append(cs, composeCase{fmt.Sprintf("SGM(q=%g, sigma=%g)", c.q, c.sigma),
			func(a *Accountant) error { return a.ComposeSGM(c.q, c.sigma, c.steps) }, SGMEvent(c.q, c.sigma), c.steps,
			func(o []float64) ([]float64, error) {
				out := make([]float64, len(o))
				return out, SGMCurve(c.q, c.sigma, c.steps, o, out)
			}, 0})
	}
	for _, sigma := range []float64{0.3, 1.1, 50} {
		cs = append(cs, composeCase{fmt.Sprintf("Gaussian(%g)", sigma),
			func(a *Accountant) error { return a.ComposeGaussian(sigma, 4) }, GaussianEvent(sigma), 4,
			func(o []float64) ([]float64, error) {
				return oldEach(o, 4, func(x float64) (float64, error) { return Gaussian(sigma, x) })
			}, 0})
	}
	for _, b := range []float64{0.1, 1, 20} {
		cs = append(cs, composeCase{fmt.Sprintf("Laplace(%g)", b),
			func(a *Accountant) error { return a.ComposeLaplace(b, 3) }, LaplaceEvent(b), 3,
			func(o []float64) ([]float64, error) {
				return oldEach(o, 3, func(x float64) (float64, error) { return Laplace(b, x) })
			}, 0})
	}
	for _, p := range []float64{0.5, 0.6, 0.99, 1e-6} {
		cs = append(cs, composeCase{fmt.Sprintf("RandomizedResponse(%g)", p),
			func(a *Accountant) error { return a.ComposeRandomizedResponse(p, 2) }, RandomizedResponseEvent(p), 2,
			func(o []float64) ([]float64, error) {
				return oldEach(o, 2, func(x float64) (float64, error) { return RandomizedResponse(p, x) })
			}, 0})
	}
	for _, rho := range []float64{0, 1e-3, 0.1, 3} {
		// c94e5c4 rounded rho alpha up by 2u and one ulp; ZCDP (the one
		// implementation, which ComposeZCDPXi used) by one ulp: the new
		// value is at or below the old by at most 2 ulps, still above
		// the exact product.
		cs = append(cs, composeCase{fmt.Sprintf("ZCDP(%g)", rho),
			func(a *Accountant) error { return a.ComposeZCDP(rho, 2) }, ZCDPEvent(rho, 0), 2,
			func(o []float64) ([]float64, error) {
				return oldEach(o, 2, func(x float64) (float64, error) {
					if rho == 0 {
						return 0, nil
					}
					return errfloat.RoundUp(rho*x, 2*errfloat.Unit), nil
				})
			}, 3})
	}
	for _, c := range [][2]float64{{0.1, 0.01}, {0, 0.5}, {2, 0}} {
		cs = append(cs, composeCase{fmt.Sprintf("ZCDPXi(%g, %g)", c[0], c[1]),
			func(a *Accountant) error { return a.ComposeZCDPXi(c[0], c[1], 3) }, ZCDPEvent(c[0], c[1]), 3,
			func(o []float64) ([]float64, error) {
				return oldEach(o, 3, func(x float64) (float64, error) { return ZCDP(c[0], c[1], x) })
			}, 0})
	}
	for _, eps := range []float64{0, 0.5, 50} {
		cs = append(cs, composeCase{fmt.Sprintf("PureDP(%g)", eps),
			func(a *Accountant) error { return a.ComposePureDP(eps, 2) }, PureDPEvent(eps), 2,
			func(o []float64) ([]float64, error) {
				out := make([]float64, len(o))
				if err := PureDPCurve(eps, o, out); err != nil {
					return nil, err
				}
				for i := range out {
					out[i] = errfloat.ScaleUp(out[i], 2)
				}
				return out, nil
			}, 0})
		cs = append(cs, composeCase{fmt.Sprintf("EpsilonDelta(%g, 1e-7)", eps),
			func(a *Accountant) error { return a.ComposeEpsilonDelta(eps, 1e-7, 3) }, PureDPEvent(eps), 3,
			func(o []float64) ([]float64, error) {
				return oldCurve(o, 3, func(o, out []float64) error { puredp.TightCurve(eps, o, out); return nil })
			}, 0})
		cs = append(cs, composeCase{fmt.Sprintf("ExponentialMechanism(%g)", eps),
			func(a *Accountant) error { return a.ComposeExponentialMechanism(eps, 2) }, ExponentialMechanismEvent(eps), 2,
			func(o []float64) ([]float64, error) {
				return oldCurve(o, 2, func(o, out []float64) error { return ExponentialMechanismCurve(eps, o, out) })
			}, 0})
		cs = append(cs, composeCase{fmt.Sprintf("BoundedRange(%g)", eps),
			func(a *Accountant) error { return a.ComposeBoundedRange(eps, 2) }, BoundedRangeEvent(eps), 2,
			func(o []float64) ([]float64, error) {
				return oldCurve(o, 2, func(o, out []float64) error {
					rho, err := BoundedRangeZCDP(eps)
					if err != nil {
						return err
					}
					if err := PureDPCurve(eps, o, out); err != nil {
						return err
					}
					for i, alpha := range o {
						out[i] = math.Min(out[i], errfloat.ScaleUp(rho, alpha))
					}
					return nil
				})
			}, 0})
	}
	for _, c := range [][2]float64{{0.01, 1.1}, {0.1, 4}, {0, 1}, {1, 2}, {0.5, 0.3}} {
		q, sigma := c[0], c[1]
		cs = append(cs, composeCase{fmt.Sprintf("WORGaussian(%g, %g)", q, sigma),
			func(a *Accountant) error { return a.ComposeWORGaussian(q, sigma, 2) }, WORGaussianEvent(q, sigma), 2,
			func(o []float64) ([]float64, error) {
				return oldWOR(o, 2, func(orders, out []float64) error {
					return WORGaussianCurve(q, sigma, 1, orders, out)
				}, func(alpha float64) (float64, error) {
					if q == 0 {
						return 0, nil
					}
					return Gaussian(sigma, alpha)
				})
			}, 0})
	}
	for _, q := range []float64{0.01, 0.3, 1, 0} {
		cs = append(cs, composeCase{fmt.Sprintf("WORBound(%g, Gaussian(2))", q),
			func(a *Accountant) error { return a.ComposeWORBound(q, gauss, 2) }, WORBoundEvent(q, BaseCurveEvent(gauss)), 2,
			func(o []float64) ([]float64, error) {
				return oldWOR(o, 2, func(orders, out []float64) error {
					for i, x := range orders {
						v, err := WORBound(q, x, gauss)
						if err != nil {
							return err
						}
						out[i] = v
					}
					return nil
				}, func(alpha float64) (float64, error) {
					if q == 0 {
						return 0, nil
					}
					if math.IsInf(alpha, 1) {
						return gauss.Inf, nil
					}
					return WORBound(1, alpha, gauss)
				})
			}, 0})
	}
	for _, c := range [][2]float64{{0.01, 1}, {0.1, 0.1}, {1e-4, 10}, {1, 1}, {0, 1}} {
		q, b := c[0], c[1]
		cs = append(cs, composeCase{fmt.Sprintf("SampledLaplace(%g, %g)", q, b),
			func(a *Accountant) error { return a.ComposeSampledLaplace(q, b, 3) }, SampledLaplaceEvent(q, b), 3,
			func(o []float64) ([]float64, error) {
				if err := checkSampledLaplace(q, b, 2); err != nil {
					return nil, err
				}
				lc := sampled.NewLaplaceCurve(q, b)
				return oldEach(o, 3, func(x float64) (float64, error) { return lc.At(x), nil })
			}, 0})
	}
	P, Q := []float64{0.5, 0.3, 0.2}, []float64{0.2, 0.3, 0.5}
	cs = append(cs, composeCase{"SampledDivergence",
		func(a *Accountant) error { return a.ComposeSampledDivergence(0.05, P, Q, 4) }, SampledDivergenceEvent(0.05, P, Q), 4,
		func(o []float64) ([]float64, error) {
			return oldEach(o, 4, func(x float64) (float64, error) { return SampledDivergence(0.05, P, Q, x) })
		}, 0})
	for _, q := range []float64{0.01, 0.2, 0} {
		cs = append(cs, composeCase{fmt.Sprintf("PoissonBound(%g, Laplace(1))", q),
			func(a *Accountant) error { return a.ComposePoissonBound(q, lap, 1) },
			PoissonBoundEvent(q, BaseCurveEvent(rdpcheck.BaseCurve{Eps: lap, Inf: math.Inf(1)})), 1,
			func(o []float64) ([]float64, error) { return oldPoissonBound(o, q, lap, 1) }, 0})
	}
	for _, c := range []struct {
		noise, k float64
		rel      string
	}{{0.3, 100, ReplaceOne}, {0.3, 100, ReplaceSpecial}, {1e-12, 1e6, ReplaceSpecial}} {
		cs = append(cs, composeCase{fmt.Sprintf("KaryRR(%g, %g, %s)", c.noise, c.k, c.rel),
			func(a *Accountant) error { return a.ComposeKaryRandomizedResponse(c.noise, c.k, c.rel, 2) },
			KaryRandomizedResponseEvent(c.noise, c.k, c.rel), 2,
			func(o []float64) ([]float64, error) {
				return oldCurve(o, 2, func(o, out []float64) error {
					return KaryRandomizedResponseCurve(c.noise, c.k, c.rel, o, out)
				})
			}, 0})
	}
	for _, c := range [][2]float64{{0.8, 1}, {5, 3}, {0.1, -2}} {
		sigma, sens := c[0], c[1]
		cs = append(cs, composeCase{fmt.Sprintf("DiscreteGaussian(%g, %g)", sigma, sens),
			func(a *Accountant) error { return a.ComposeDiscreteGaussian(sigma, sens, 10) },
			DiscreteGaussianEvent(sigma, sens), 10,
			func(o []float64) ([]float64, error) {
				p := discretegauss.NewCurve(sigma, math.Abs(sens))
				return oldEach(o, 10, func(x float64) (float64, error) { return p.At(x), nil })
			}, 0})
	}
	for _, c := range []struct {
		sigma    float64
		steps    []int
		restarts TreeRestarts
	}{{1.1, []int{1000, 1000, 17}, TreeEveryTree}, {0.1, []int{5, 7, 1 << 20}, TreeOneTree}, {3.7, []int{0}, TreeEveryTree}} {
		cs = append(cs, composeCase{fmt.Sprintf("TreeAggregation(%g, %v, %v)", c.sigma, c.steps, c.restarts),
			func(a *Accountant) error { return a.ComposeTreeAggregation(c.sigma, c.steps, c.restarts, 10) },
			TreeAggregationEvent(c.sigma, c.steps, c.restarts), 10,
			func(o []float64) ([]float64, error) {
				k, err := treeDepths("old", c.sigma, c.steps, c.restarts)
				if err != nil {
					return nil, err
				}
				return oldEach(o, 10, func(x float64) (float64, error) { return treeValue("old", c.sigma, k, x) })
			}, 0})
	}
	for _, c := range [][4]int{{1000, 10, 50, 1}, {64, 4, 3, 10}, {0, 1, 1, 2}} {
		cs = append(cs, composeCase{fmt.Sprintf("TreeMultiParticipation(1.1, %v)", c[:3]),
			func(a *Accountant) error { return a.ComposeTreeMultiParticipation(1.1, c[0], c[1], c[2], c[3]) },
			TreeMultiParticipationEvent(1.1, c[0], c[1], c[2]), c[3],
			func(o []float64) ([]float64, error) {
				k, err := treeSquareSum("old", c[0], c[1], c[2])
				if err != nil {
					return nil, err
				}
				return oldEach(o, c[3], func(x float64) (float64, error) { return treeValue("old", 1.1, k, x) })
			}, 0})
	}
	for _, shape := range []float64{0, 1, math.Inf(1)} {
		cs = append(cs, composeCase{fmt.Sprintf("RepeatAndSelect(10, %g)", shape),
			func(a *Accountant) error { return a.ComposeRepeatAndSelect(rsOrders, rsCurve, 10, shape, 3) },
			RepeatAndSelectCurveEvent(rsOrders, rsCurve, 10, shape), 3,
			func(o []float64) ([]float64, error) { return oldRepeatAndSelect(o, rsOrders, rsCurve, 10, shape, 3) }, 0})
	}
	return cs
}

// TestComposeIsComposeEvent: on the default orders (and a list with
// fractional orders and +Inf), each Compose<Name>
// gives bit for bit what Compose(<Name>Event) gives and what the method's
// body at commit c94e5c4 gave (within the case's ulps where it rounded
// differently); RDP at the accountant's own orders gives its Curve; and
// RDPAt, BestEpsilon and BestDelta answer after every one of them.
func TestComposeIsComposeEvent(t *testing.T) {
	t.Parallel()
	grids := [][]float64{{1.5, 2, 2.5, 3.7, 11, 64, 300.5, 1024, math.Inf(1)}, DefaultOrders()}
	if testing.Short() {
		grids = grids[:1] // fractional, integer, large and infinite orders
	}
	for _, orders := range grids {
		for _, c := range composeCases() {
			testComposeCase(t, c, orders)
		}
	}
}

func testComposeCase(t *testing.T, c composeCase, orders []float64) {
	t.Helper()
	viaName, viaEvent := Accountant{Orders: orders}, Accountant{Orders: orders}
	if err := c.compose(&viaName); err != nil {
		t.Errorf("%s: %v", c.name, err)
		return
	}
	if err := viaEvent.Compose(c.event, c.count); err != nil {
		t.Errorf("%s: Compose(event): %v", c.name, err)
		return
	}
	_, got := viaName.Curve()
	_, ev := viaEvent.Curve()
	old, err := c.old(orders)
	if err != nil {
		t.Errorf("%s: old path: %v", c.name, err)
		return
	}
	for i := range old {
		old[i] = addUp(0, old[i]) // the accountant's sum, as Curve holds it
	}
	for i, a := range orders {
		if math.Float64bits(got[i]) != math.Float64bits(ev[i]) {
			t.Errorf("%s at order %g: Compose<Name> %.17g, Compose(<Name>Event) %.17g", c.name, a, got[i], ev[i])
		}
		if !withinUlps(got[i], old[i], c.ulps) {
			t.Errorf("%s at order %g: %.17g, at c94e5c4 %.17g (%d ulps allowed)", c.name, a, got[i], old[i], c.ulps)
		}
		if c.ulps > 0 && got[i] > old[i] {
			t.Errorf("%s at order %g: %.17g above the old %.17g", c.name, a, got[i], old[i])
		}
	}
	if viaName.Events() != 1 {
		t.Errorf("%s: Events() = %d, want 1", c.name, viaName.Events())
	}
	r := make([]float64, len(orders))
	if err := viaName.RDP(orders, r); err != nil {
		t.Errorf("%s: RDP: %v", c.name, err)
	} else {
		for i, a := range orders {
			if math.Float64bits(r[i]) != math.Float64bits(got[i]) {
				t.Errorf("%s: RDP at order %g = %.17g, Curve %.17g", c.name, a, r[i], got[i])
			}
		}
	}
	if _, err := viaName.RDPAt(3.5); err != nil {
		t.Errorf("%s: RDPAt(3.5): %v", c.name, err)
	}
	eps, _, err := viaName.BestEpsilon(1e-5, Improved)
	if err != nil {
		t.Errorf("%s: BestEpsilon: %v", c.name, err)
	}
	if grid, _, _ := viaName.Epsilon(1e-5, Improved); eps > grid {
		t.Errorf("%s: BestEpsilon %g above the grid's %g", c.name, eps, grid)
	}
	if _, _, err := viaName.BestDelta(1, Improved); err != nil {
		t.Errorf("%s: BestDelta: %v", c.name, err)
	}
}

// withinUlps reports whether x and y are equal or, both finite and of one
// sign, at most n ulps apart.
func withinUlps(x, y float64, n int) bool {
	if math.Float64bits(x) == math.Float64bits(y) {
		return true
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) || (x < 0) != (y < 0) {
		return false
	}
	d := int64(math.Float64bits(x)) - int64(math.Float64bits(y))
	return d <= int64(n) && -d <= int64(n)
}
