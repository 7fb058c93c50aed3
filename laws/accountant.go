package laws

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
)

// accountantMachine is the model of an accountant: a running sum, kept in
// big.Float (exact for these sums), of count times the implementation's
// own one-event RDP at each order, and a running bound on how far the
// accountant may be from it.
type accountantMachine struct {
	im     *Impl
	acc    Accountant
	orders []float64
	model  []*big.Float // sum of count * v(alpha)
	slack  []*big.Float // sum of count * v(alpha) * (relative bound of the event)
	events int
	log    []string // the events so far, for failure messages
	// keep is prod (1 - delta_i)^count_i of the (eps, delta) events (nil
	// before one), nKept how many there were
	keep  *big.Float
	nKept int
}

// accountantOrders are the orders the machine draws its list from: fast
// takes any (including +Inf, where every mechanism has a special case);
// the reference's list stays cheap (one fractional order).
func (im *Impl) accountantOrders() []float64 {
	if im.Dom.OrderMax >= 1024 || im.Dom.IntOrderMax >= 1024 {
		return []float64{1.01, 1.25, 1.5, 2, 2.5, 3, 4, 5.5, 8, 12, 16, 32, 64, 128, 256, 1024, math.Inf(1)}
	}
	return []float64{1.5, 2, 3, 4, 8, 16, 32, math.Inf(1)}
}

// checkAccountant: composing a random sequence of events in the
// accountant gives the sum of the events' RDP curves (composition, Mironov
// 2017, Prop 1), and its epsilon is the conversion of that sum; an invalid
// event is refused with a typed error and changes nothing.
func (im *Impl) checkAccountant(t *rapid.T) {
	orders := rapid.SliceOfNDistinct(rapid.SampledFrom(im.accountantOrders()), 1, 5, rapid.ID[float64]).Draw(t, "orders")
	slices.Sort(orders)
	m := &accountantMachine{im: im, acc: im.NewAccountant(orders), orders: orders}
	for range orders {
		m.model = append(m.model, new(big.Float).SetPrec(sumPrec))
		m.slack = append(m.slack, new(big.Float).SetPrec(64))
	}
	t.Repeat(map[string]func(*rapid.T){
		"SGM":                m.sgm,
		"Gaussian":           m.gaussian,
		"Laplace":            m.laplace,
		"RandomizedResponse": m.rr,
		"ZCDP":               m.zcdp,
		"PureDP":             m.pureDP,
		"invalid":            m.invalid,
		"Epsilon":            m.epsilon,
		"":                   m.check,

		// the events of dp_accounting's other classes
		"KaryRandomizedResponse": m.kary,
		"ExponentialMechanism":   m.expMech,
		"ZCDPXi":                 m.zcdpXi,
		"EpsilonDelta":           m.epsDelta,

		// the discrete Gaussian, tree aggregation, repeat-and-select
		"DiscreteGaussian":       m.dgauss,
		"TreeAggregation":        m.tree,
		"TreeMultiParticipation": m.treeMulti,
		"RepeatAndSelect":        m.repeat,
	})
}

func count(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(1, 10), rapid.IntRange(1, 100000)).Draw(t, "count")
}

// add composes one event into the model: v(alpha) per order, count times,
// with relative bound rel per value.
func (m *accountantMachine) add(t *rapid.T, name string, n int, rel float64, v func(alpha float64) *big.Float) {
	for i, a := range m.orders {
		x := new(big.Float).SetPrec(sumPrec).Mul(v(a), new(big.Float).SetInt64(int64(n)))
		m.model[i].Add(m.model[i], x)
		if !x.IsInf() {
			m.slack[i].Add(m.slack[i], new(big.Float).SetPrec(64).Mul(x, big.NewFloat(rel)))
		}
	}
	m.events++
	m.log = append(m.log, name)
}

// one returns the implementation's value as an exact big.Float.
func one(t *rapid.T, what string, v float64, err error) *big.Float {
	t.Helper()
	return new(big.Float).SetFloat64(val(t, v, err, "%s", what))
}

func (m *accountantMachine) compose(t *rapid.T, name string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("call failed: %s: unexpected error %v", name, err)
	}
}

func (m *accountantMachine) sgm(t *rapid.T) {
	p := m.im.Dom.drawSGM(t, 2)
	steps := count(t)
	name := fmt.Sprintf("ComposeSGM(q=%v, sigma=%v, steps=%d)", p.q, p.sigma, steps)
	m.compose(t, name, m.acc.ComposeSGM(p.q, p.sigma, steps))
	// The curve's values and SGM's are each within rel of the exact value.
	m.add(t, name, steps, m.im.Acc.SGM+4*u, func(a float64) *big.Float {
		v, err := m.im.SGM(p.q, p.sigma, a)
		return one(t, fmt.Sprintf("SGM(q=%v, sigma=%v, alpha=%v)", p.q, p.sigma, a), v, err)
	})
}

// closedEvent composes a closed-form mechanism: the accountant calls the
// same function, so only its rounding of count*v (2u) separates them.
func (m *accountantMachine) closedEvent(t *rapid.T, name string, n int, err error, f func(a float64) (float64, error)) {
	m.compose(t, name, err)
	m.add(t, name, n, 4*u, func(a float64) *big.Float {
		v, err := f(a)
		return one(t, fmt.Sprintf("%s at alpha=%v", name, a), v, err)
	})
}

func (m *accountantMachine) gaussian(t *rapid.T) {
	s := logUniform(0.1, 100).Draw(t, "sigma")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeGaussian(sigma=%v, count=%d)", s, n), n, m.acc.ComposeGaussian(s, n),
		func(a float64) (float64, error) { return m.im.Gaussian(s, a) })
}

func (m *accountantMachine) laplace(t *rapid.T) {
	b := logUniform(0.05, 100).Draw(t, "b")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeLaplace(b=%v, count=%d)", b, n), n, m.acc.ComposeLaplace(b, n),
		func(a float64) (float64, error) { return m.im.Laplace(b, a) })
}

func (m *accountantMachine) rr(t *rapid.T) {
	p := rapid.OneOf(rapid.Float64Range(0.5, 0.99), rapid.SampledFrom([]float64{0.5, 0.75})).Draw(t, "p")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeRandomizedResponse(p=%v, count=%d)", p, n), n, m.acc.ComposeRandomizedResponse(p, n),
		func(a float64) (float64, error) { return m.im.RandomizedResponse(p, a) })
}

// zcdp: the model is the exact line rho*alpha; the accountant rounds it up
// by 2u and count*v by 2u.
func (m *accountantMachine) zcdp(t *rapid.T) {
	rho := rapid.OneOf(logUniform(1e-8, 1), rapid.Just(0.0)).Draw(t, "rho")
	n := count(t)
	name := fmt.Sprintf("ComposeZCDP(rho=%v, count=%d)", rho, n)
	m.compose(t, name, m.acc.ComposeZCDP(rho, n))
	m.add(t, name, n, 8*u, func(a float64) *big.Float { return zcdpLine(rho, a) })
}

// pureDP: the accountant composes the implementation's own PureDP (the
// tight curve; fast's curve form performs the same operations), so only
// its rounding of count*v separates them.
func (m *accountantMachine) pureDP(t *rapid.T) {
	eps := rapid.OneOf(logUniform(1e-6, 10), rapid.Just(0.0)).Draw(t, "eps")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposePureDP(eps=%v, count=%d)", eps, n), n, m.acc.ComposePureDP(eps, n),
		func(a float64) (float64, error) { return m.im.PureDP(eps, a) })
}

// invalid composes an event with one bad argument: it must be refused
// with the implementation's typed input error and leave the curve as it was.
func (m *accountantMachine) invalid(t *rapid.T) {
	before := m.acc.Curve()
	var name string
	var err error
	nan := math.NaN()
	switch rapid.IntRange(0, 17).Draw(t, "invalid event") {
	case 0:
		name, err = "ComposeSGM(q=1.5)", m.acc.ComposeSGM(1.5, 1, 1)
	case 1:
		name, err = "ComposeSGM(sigma=-1)", m.acc.ComposeSGM(0.1, -1, 1)
	case 2:
		name, err = "ComposeSGM(steps=0)", m.acc.ComposeSGM(0.1, 1, 0)
	case 3:
		name, err = "ComposeSGM(q=NaN)", m.acc.ComposeSGM(nan, 1, 1)
	case 4:
		name, err = "ComposeGaussian(sigma=-1)", m.acc.ComposeGaussian(-1, 1)
	case 5:
		name, err = "ComposeLaplace(b=-1)", m.acc.ComposeLaplace(-1, 1)
	case 6:
		name, err = "ComposeRandomizedResponse(p=1.5)", m.acc.ComposeRandomizedResponse(1.5, 1)
	case 7:
		name, err = "ComposeZCDP(rho=NaN)", m.acc.ComposeZCDP(nan, 1)
	case 8:
		name, err = "ComposeZCDP(rho=-1)", m.acc.ComposeZCDP(-1, 1)
	case 9:
		name, err = "ComposePureDP(eps=-1)", m.acc.ComposePureDP(-1, 1)
	case 11:
		name, err = "ComposeDiscreteGaussian(sensitivity=0.5)", m.acc.ComposeDiscreteGaussian(1, 0.5, 1)
	case 12:
		name, err = "ComposeDiscreteGaussian(sigma=0)", m.acc.ComposeDiscreteGaussian(0, 1, 1)
	case 13:
		name, err = "ComposeTreeAggregation(steps empty)", m.acc.ComposeTreeAggregation(1, nil, rdpcheck.TreeOneTree, 1)
	case 14:
		name, err = "ComposeTreeAggregation(steps=-1)", m.acc.ComposeTreeAggregation(1, []int{-1}, rdpcheck.TreeEveryTree, 1)
	case 15:
		name, err = "ComposeTreeMultiParticipation(minSeparation=-1)", m.acc.ComposeTreeMultiParticipation(1, 8, 2, -1, 1)
	case 16:
		name, err = "ComposeRepeatAndSelect(mean=0.5)", m.acc.ComposeRepeatAndSelect([]float64{2, math.Inf(1)}, []float64{0.1, 0.2}, 0.5, 1, 1)
	case 17:
		// (a base curve whose orders stop below the accountant's is no
		// longer refused: fast gives +Inf there, as the one composition API does)
		name, err = "ComposeRepeatAndSelect(rdp=-0.1)", m.acc.ComposeRepeatAndSelect([]float64{2, math.Inf(1)}, []float64{-0.1, 0.2}, 2, 1, 1)
	default:
		name, err = "ComposeGaussian(count=0)", m.acc.ComposeGaussian(1, 0)
	}
	if err == nil || !m.im.IsInputError(err) {
		lawf(t, "accountant", "%s returned %v, want a typed input error", name, err)
	}
	after := m.acc.Curve()
	for i := range before {
		if math.Float64bits(before[i]) != math.Float64bits(after[i]) {
			lawf(t, "accountant", "the refused %s changed rdp[alpha=%v] from %v to %v", name, m.orders[i], before[i], after[i])
		}
	}
}

// tol is the bound on |curve[i] - model[i]|: the events' own bounds plus
// 2u per composition for the accountant's rounding of each running sum
// (and u for the final rounding to float64).
func (m *accountantMachine) tol(i int) float64 {
	s, _ := m.slack[i].Float64()
	v, _ := m.model[i].Float64()
	return s + float64(2*m.events+2)*2*u*v
}

func (m *accountantMachine) check(t *rapid.T) {
	curve := m.acc.Curve()
	if len(curve) != len(m.orders) {
		lawf(t, "accountant", "Curve() has %d values for %d orders", len(curve), len(m.orders))
	}
	for i, a := range m.orders {
		want, _ := m.model[i].Float64()
		got := curve[i]
		if math.IsInf(want, 1) {
			if !math.IsInf(got, 1) {
				lawf(t, "accountant", "rdp[alpha=%v] = %v after %v, want +Inf", a, got, m.log)
			}
			continue
		}
		if !(math.Abs(got-want) <= m.tol(i)) {
			lawf(t, "accountant", "rdp[alpha=%v] = %v after %v, want the running sum %s (|difference| %.3g > %.3g)",
				a, got, m.log, m.model[i].Text('g', 20), math.Abs(got-want), m.tol(i))
		}
	}
}

// epsilon: the accountant's eps(delta) is the conversion (Mironov 2017,
// Prop 3; Canonne, Kamath, Steinke 2020) of the model's curve, minimised
// over the orders; computed here in float64 from the formula. A change of
// at most e_i in each rdp_i changes the minimum by at most max e_i.
func (m *accountantMachine) epsilon(t *rapid.T) {
	delta := rapid.OneOf(logUniform(1e-300, 0.5), rapid.SampledFrom([]float64{1e-5, 1 - 1e-9})).Draw(t, "delta")
	conv := rapid.SampledFrom([]Conversion{Classic, Improved}).Draw(t, "conv")
	got, _, err := m.acc.Epsilon(delta, conv)
	val(t, got, err, "Epsilon(delta=%v, %v)", delta, conv)
	ld := math.Log(delta)
	ldTol := 0.0 // bound on the error of fast's log delta_conv, times 1/(alpha-1)
	if m.keep != nil {
		// the conversion gets 1 - (1 - delta)/keep (fast.Accountant.ComposeEpsilonDelta)
		d := new(big.Float).SetPrec(512).Sub(big.NewFloat(1), big.NewFloat(delta))
		d.Quo(d, m.keep)
		d.Sub(big.NewFloat(1), d)
		dc, _ := d.Float64()
		kept, _ := new(big.Float).Sub(big.NewFloat(1), m.keep).Float64()
		// fast's kept delta is within 64u per event above; its quotient
		// 8u below
		errD := kept*64*u*float64(m.nKept) + 8*u*math.Abs(dc)
		if dc <= 2*errD {
			return // at the boundary delta = kept: either answer may be right
		}
		ld, ldTol = math.Log(dc), 2*errD/dc
	}
	want, tol := math.Inf(1), 0.0
	for i, a := range m.orders {
		r, _ := m.model[i].Float64()
		var e float64
		switch {
		case math.IsInf(r, 1):
			e = r
		case math.IsInf(a, 1):
			e = r
		case conv == Classic:
			e = r - ld/(a-1)
		default:
			e = r + math.Log1p(-1/a) - (ld+math.Log(a))/(a-1)
		}
		want = math.Min(want, e)
		if !math.IsInf(r, 1) {
			t := m.tol(i) + (m.im.Acc.Conversion+8*u)*convMag(conv, a, r, delta)
			if !math.IsInf(a, 1) {
				t += ldTol / (a - 1)
			}
			tol = math.Max(tol, t)
		}
	}
	if conv == Improved {
		want = math.Max(want, 0)
	}
	if math.IsInf(want, 1) {
		if !math.IsInf(got, 1) {
			lawf(t, "accountant", "%v eps(delta=%v) = %v, want +Inf", conv, delta, got)
		}
		return
	}
	if !(math.Abs(got-want) <= tol) {
		lawf(t, "accountant", "%v eps(delta=%v) = %v after %v, want %v from the running sums (tolerance %.3g)", conv, delta, got, m.log, want, tol)
	}
}

// kary, expMech, zcdpXi: the accountant composes the implementation's own
// functions (fast's curve forms perform the same operations), so only its
// rounding of count*v separates them.
func (m *accountantMachine) kary(t *rapid.T) {
	noise := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{1e-9, 0.5, 1})).Draw(t, "noise")
	k := float64(rapid.SampledFrom([]int{2, 3, 10, 1000}).Draw(t, "buckets"))
	rel := rapid.SampledFrom([]string{"replace-one", "replace-special"}).Draw(t, "relation")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeKaryRandomizedResponse(noise=%v, buckets=%v, %s, count=%d)", noise, k, rel, n), n,
		m.acc.ComposeKaryRandomizedResponse(noise, k, rel, n),
		func(a float64) (float64, error) { return m.im.KaryRandomizedResponse(noise, k, rel, a) })
}

func (m *accountantMachine) expMech(t *rapid.T) {
	eps := rapid.OneOf(logUniform(1e-6, 50), rapid.Just(0.0)).Draw(t, "eps")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeExponentialMechanism(eps=%v, count=%d)", eps, n), n, m.acc.ComposeExponentialMechanism(eps, n),
		func(a float64) (float64, error) { return m.im.ExponentialMechanism(eps, a) })
}

func (m *accountantMachine) zcdpXi(t *rapid.T) {
	rho := rapid.OneOf(logUniform(1e-8, 1), rapid.Just(0.0)).Draw(t, "rho")
	xi := rapid.OneOf(logUniform(1e-8, 1), rapid.Just(0.0)).Draw(t, "xi")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeZCDPXi(rho=%v, xi=%v, count=%d)", rho, xi, n), n, m.acc.ComposeZCDPXi(rho, xi, n),
		func(a float64) (float64, error) { return m.im.ZCDP(rho, xi, a) })
}

// epsDelta composes (eps, delta)-DP mechanisms: the tight curve of eps,
// and delta kept aside, which epsilon takes out of the target delta.
func (m *accountantMachine) epsDelta(t *rapid.T) {
	eps := rapid.OneOf(logUniform(1e-6, 10), rapid.Just(0.0)).Draw(t, "eps")
	delta := rapid.OneOf(logUniform(1e-12, 1e-6), rapid.Just(0.0)).Draw(t, "delta")
	n := rapid.IntRange(1, 100).Draw(t, "count")
	m.closedEvent(t, fmt.Sprintf("ComposeEpsilonDelta(eps=%v, delta=%v, count=%d)", eps, delta, n), n, m.acc.ComposeEpsilonDelta(eps, delta, n),
		func(a float64) (float64, error) { return m.im.PureDP(eps, a) })
	if delta > 0 {
		f := new(big.Float).SetPrec(512).Sub(big.NewFloat(1), big.NewFloat(delta))
		p := new(big.Float).SetPrec(512).SetInt64(1)
		for i := 0; i < n; i++ {
			p.Mul(p, f)
		}
		if m.keep == nil {
			m.keep = new(big.Float).SetPrec(512).SetInt64(1)
		}
		m.keep.Mul(m.keep, p)
		m.nKept++
	}
}

// dgauss, tree, treeMulti, repeat: as kary, the accountant composes the
// implementation's own function at each order.
func (m *accountantMachine) dgauss(t *rapid.T) {
	sigma := logUniform(0.1, 20).Draw(t, "sigma")
	d := float64(rapid.IntRange(-3, 3).Draw(t, "sensitivity"))
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeDiscreteGaussian(sigma=%v, sensitivity=%v, count=%d)", sigma, d, n), n,
		m.acc.ComposeDiscreteGaussian(sigma, d, n),
		func(a float64) (float64, error) { return m.im.DiscreteGaussian(sigma, d, a) })
}

func (m *accountantMachine) tree(t *rapid.T) {
	sigma := logUniform(0.1, 100).Draw(t, "sigma")
	steps := rapid.SliceOfN(rapid.IntRange(0, 5000), 1, 4).Draw(t, "steps")
	r := rapid.SampledFrom([]rdpcheck.TreeRestarts{rdpcheck.TreeOneTree, rdpcheck.TreeEveryTree}).Draw(t, "restarts")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeTreeAggregation(sigma=%v, steps=%v, %v, count=%d)", sigma, steps, r, n), n,
		m.acc.ComposeTreeAggregation(sigma, steps, r, n),
		func(a float64) (float64, error) { return m.im.TreeAggregation(sigma, steps, r, a) })
}

func (m *accountantMachine) treeMulti(t *rapid.T) {
	sigma := logUniform(0.1, 100).Draw(t, "sigma")
	total := rapid.IntRange(0, 64).Draw(t, "totalSteps")
	mp := rapid.IntRange(0, 5).Draw(t, "maxParticipation")
	sep := rapid.IntRange(0, 5).Draw(t, "minSeparation")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeTreeMultiParticipation(sigma=%v, %d, %d, %d, count=%d)", sigma, total, mp, sep, n), n,
		m.acc.ComposeTreeMultiParticipation(sigma, total, mp, sep, n),
		func(a float64) (float64, error) { return m.im.TreeMultiParticipation(sigma, total, mp, sep, a) })
}

// repeat: the base curve is a Gaussian's or a pure-DP mechanism's (finite
// at +Inf) at every order the machine may use, so it covers the
// accountant's.
func (m *accountantMachine) repeat(t *rapid.T) {
	orders := m.im.accountantOrders()
	curve := make([]float64, len(orders))
	gauss := rapid.Bool().Draw(t, "gaussian")
	p := logUniform(0.3, 20).Draw(t, "sigma or eps")
	for i, a := range orders {
		var err error
		if gauss {
			curve[i], err = m.im.Gaussian(p, a)
		} else {
			curve[i], err = m.im.PureDP(p, a)
		}
		curve[i] = val(t, curve[i], err, "base curve at %v", a)
	}
	mean := rapid.OneOf(rapid.Float64Range(1, 100), rapid.Just(1.0)).Draw(t, "mean")
	shape := rapid.SampledFrom([]float64{0, 0.5, 1, 3, math.Inf(1)}).Draw(t, "shape")
	n := count(t)
	m.closedEvent(t, fmt.Sprintf("ComposeRepeatAndSelect(gaussian=%v, %v, mean=%v, shape=%v, count=%d)", gauss, p, mean, shape, n), n,
		m.acc.ComposeRepeatAndSelect(orders, curve, mean, shape, n),
		func(a float64) (float64, error) { return m.im.RepeatAndSelect(orders, curve, mean, shape, a) })
}
