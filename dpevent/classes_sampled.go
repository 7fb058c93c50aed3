package dpevent

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// The classes of the sampled (without replacement, Poisson with any base),
// k-ary randomized response, exponential, zCDP, discrete Gaussian, tree and
// repeat-and-select mechanisms, with the neighbouring
// relations dp_accounting 0.6.0's RdpAccountant._maybe_compose accepts for
// each (rdp/rdp_privacy_accountant.py of google/differential-privacy,
// python/dp_accounting).

func init() {
	for k, c := range map[string]class{
		// Sampling of a fixed-size batch without replacement, replace-one
		// neighbours only (as dp_accounting). A Gaussian structure (as
		// under PoissonSampledDpEvent) is the Gaussian bound of WBK19,
		// Theorem 27 (dp_accounting's _compute_rdp_sample_wor_gaussian);
		// any other base, which dp_accounting refuses, is the general
		// bound of WBK19, Theorem 9, from the base's own curve.
		"SampledWithoutReplacementDpEvent": {
			fields:  []field{{name: "source_dataset_size", kind: kindCount}, {name: "sample_size", kind: kindCount}, {name: "event", kind: kindEvent}},
			account: accountWOR,
		},
		// k-ary randomized response (noise_parameter: the probability of
		// answering uniformly at random), replace-one or replace-special
		// neighbours (dp_accounting's _compute_randomized_response_rdp).
		"RandomizedResponseDpEvent": {
			fields: []field{{name: "noise_parameter", check: probability}, {name: "num_buckets", kind: kindCount}},
			account: func(e *Event, n int64, p *Plan) error {
				rel := fast.ReplaceOne
				switch p.Relation {
				case ReplaceOne:
				case ReplaceSpecial:
					rel = fast.ReplaceSpecial
				default:
					return errAt(e.Path(), "RandomizedResponseDpEvent needs the relation REPLACE_ONE or REPLACE_SPECIAL (as in dp_accounting), not %v", p.Relation)
				}
				noise, k := e.Num("noise_parameter"), e.Num("num_buckets")
				if k < 2 {
					return errAt(e.Path()+".num_buckets", "must be >= 2 (is %v)", k)
				}
				return p.add(e, n, fmt.Sprintf("%v-ary randomized response noise=%v (%s)", k, noise, rel),
					fast.KaryRandomizedResponseEvent(noise, k, rel),
					func(c reference.Context, a float64) (*big.Float, error) {
						return c.KaryRandomizedResponse(noise, k, rel, a)
					})
			}},
		// The discrete Gaussian. dimension 1: its exact RDP (Canonne,
		// Kamath, Steinke 2020, arXiv 2004.00010); dimension null
		// (unknown): dp_accounting's rho-zCDP line alpha D^2/(2 sigma^2),
		// the univariate bound (their Prop 5); dimension > 1 is refused.
		"DiscreteGaussianDpEvent": {
			fields: []field{{name: "sigma", check: positive}, {name: "sensitivity", check: nonNegative, optional: true, def: 1},
				{name: "dimension", kind: kindOptCount, optional: true, def: math.NaN()}},
			account: func(e *Event, n int64, p *Plan) error {
				s, d, dim := e.Num("sigma"), e.Num("sensitivity"), e.Num("dimension")
				switch {
				case dim == 1:
					if d != math.Trunc(d) {
						return errAt(e.Path()+".sensitivity", "the discrete Gaussian of dimension 1 needs an integer sensitivity (is %v)", d)
					}
					if err := p.add(e, n, fmt.Sprintf("discrete Gaussian sigma=%v sensitivity=%v", s, d), fast.DiscreteGaussianEvent(s, d),
						func(c reference.Context, a float64) (*big.Float, error) { return c.DiscreteGaussian(s, d, a) }); err != nil {
						return err
					}
				case math.IsNaN(dim):
					rho := d * d / (2 * s * s)
					rho = math.Nextafter(rho*(1+4*0x1p-53), math.Inf(1)) // 3 roundings, each half an ulp
					if err := p.add(e, n, fmt.Sprintf("discrete Gaussian sigma=%v sensitivity=%v (dimension unknown: the zCDP line rho=%v)", s, d, rho),
						fast.ZCDPEvent(rho, 0),
						func(c reference.Context, a float64) (*big.Float, error) {
							// alpha d^2/(2 s^2) from the exact inputs (fast's rho is rounded up)
							if math.IsInf(a, 1) {
								return zcdpRef(c, rho, 0, a), nil
							}
							prec := refPrec(c) + 64
							num := new(big.Float).SetPrec(prec).SetFloat64(d)
							num.Mul(num, num).Mul(num, new(big.Float).SetFloat64(a))
							den := new(big.Float).SetPrec(prec).SetFloat64(s)
							den.Mul(den, den).Mul(den, big.NewFloat(2))
							return new(big.Float).SetPrec(refPrec(c)).Quo(num, den), nil
						}); err != nil {
						return err
					}
				default:
					return errAt(e.Path()+".dimension", "the multivariate discrete Gaussian (dimension %v) is not yet supported: its zCDP bound (Canonne, Kamath, Steinke 2020, Thm 14) carries a term in sigma and the dimension that dp_accounting omits", dim)
				}
				return nil
			}},
		// The exponential mechanism at dp_accounting's bounded-range bound,
		// composed count times (dp_accounting 0.6.0 adds it once whatever
		// the count: see FINDINGS.md).
		"ExponentialMechanismDpEvent": oneNumber("epsilon", nonNegative, "exponential mechanism eps=%v", fast.ExponentialMechanismEvent, reference.Context.ExponentialMechanism),
		// Permute-and-flip is epsilon-DP (McKenna and Sheldon 2020, Thm 1):
		// rdpcheck composes the RDP every eps-DP mechanism meets (that of
		// randomized response, PureDP); dp_accounting's Laplace curve
		// rests on a claim about its loss distribution not checked here.
		"PermuteAndFlipDpEvent": oneNumber("epsilon", nonNegative, "permute-and-flip eps=%v (as eps-DP)", fast.PureDPEvent, reference.Context.PureDP),
		// DP-FTRL's tree aggregation in dp_accounting's one-tree reading,
		// replace-special neighbours only (as dp_accounting).
		"SingleEpochTreeAggregationDpEvent": {
			fields: []field{{name: "noise_multiplier", check: positive}, {name: "step_counts", kind: kindCounts}},
			account: func(e *Event, n int64, p *Plan) error {
				if p.Relation != ReplaceSpecial {
					return errAt(e.Path(), "SingleEpochTreeAggregationDpEvent needs the relation REPLACE_SPECIAL (as in dp_accounting), not %v", p.Relation)
				}
				s := e.Num("noise_multiplier")
				var steps []int
				for i, k := range e.Ints("step_counts") {
					if k < 0 || k > math.MaxInt32 {
						return errAt(fmt.Sprintf("%s.step_counts[%d]", e.Path(), i), "must be in [0, 2^31) (is %d)", k)
					}
					steps = append(steps, int(k))
				}
				if len(steps) == 0 {
					return errAt(e.Path()+".step_counts", "must be a non-empty list or an integer")
				}
				return p.add(e, n, fmt.Sprintf("tree aggregation sigma=%v steps=%v (one tree)", s, steps),
					fast.TreeAggregationEvent(s, steps, fast.TreeOneTree),
					func(c reference.Context, a float64) (*big.Float, error) {
						return c.TreeAggregation(s, steps, rdpcheck.TreeOneTree, a)
					})
			}},
		// Repeat-and-select (Papernot and Steinke 2022): the inner event's
		// curve composed once, then Theorem 2 (finite shape) or 6
		// (Poisson, shape inf), count times (as dp_accounting).
		"RepeatAndSelectDpEvent": {
			fields: []field{{name: "event", kind: kindEvent}, {name: "mean"}, {name: "shape"}},
			account: func(e *Event, n int64, p *Plan) error {
				mean, shape := e.Num("mean"), e.Num("shape")
				if !(mean >= 1) || math.IsInf(mean, 1) {
					return errAt(e.Path()+".mean", "must be finite and >= 1 (is %v)", mean)
				}
				if !(shape >= 0) {
					return errAt(e.Path()+".shape", "must be >= 0, or \"inf\" for Poisson (is %v)", shape)
				}
				sub, err := p.inner(e, "event", "RepeatAndSelectDpEvent")
				if err != nil {
					return err
				}
				base := sub.fastEvent()
				if err := p.add(e, n, fmt.Sprintf("repeat-and-select mean=%v shape=%v of [%s]", mean, shape, sub.what()),
					fast.RepeatAndSelectEvent(base, mean, shape),
					func(c reference.Context, a float64) (*big.Float, error) {
						co := fast.RepeatAndSelectOrders()
						rv := make([]*big.Float, len(co))
						for i, o := range co {
							v, err := sub.refRDP(c, o)
							if err != nil {
								return nil, err
							}
							rv[i] = v
						}
						return c.RepeatAndSelect(co, rv, mean, shape, a)
					}); err != nil {
					return err
				}
				return nil
			}},
	} {
		c.name = k
		classes[k] = c
	}
}

// inner flattens e's sub-event field under p's relation for a mechanism
// (cls) that needs its curve alone: an (epsilon, delta) event inside is
// an error, as its delta would not pass through the mechanism's theorem;
// so is nesting such mechanisms more than MaxNested deep.
func (p *Plan) inner(e *Event, field, cls string) (*Plan, error) {
	if p.nest+1 > MaxNested {
		return nil, &pathError{path: e.Path(), err: ErrNested, msg: fmt.Sprintf(
			"%s is bound %d of a nest of theorems on an inner event's curve; rdpcheck accounts at most %d nested (Poisson sampling of an event that is not a Gaussian structure or a Laplace, sampling without replacement of one that is not a Gaussian structure, and repeat-and-select each take the curve of the event inside at up to 1,024 orders: about a second per level)",
			cls, p.nest+1, MaxNested)}
	}
	sub, err := newPlan(e.Sub(field), p.Relation, p.nest+1)
	if err != nil {
		return nil, err
	}
	if sub.hasDelta() {
		return nil, errAt(e.Path()+"."+field, "an (epsilon, delta) event inside %s is not supported: the theorem takes an RDP curve, and the event's delta has no place in it", cls)
	}
	for _, n := range sub.notes {
		p.note(n)
	}
	return sub, nil
}

// fastEvent is the plan's composed curve: the sum over its terms of count
// times each term's bound, rounded up. Values are kept by order: the
// theorems that take the curve ask for the same orders again and again
// (PoissonBoundEvent asks for the orders it is given and for 2, 3, ...,
// ceil(alpha); nested, each level would otherwise double the work of the
// one below).
func (p *Plan) fastEvent() fast.Event {
	p.own()
	if len(p.terms) == 0 {
		return fast.ZCDPEvent(0, 0)
	}
	return fast.CurveFunc(func(orders, out []float64) error {
		p.fastMu.Lock()
		defer p.fastMu.Unlock()
		if p.fastMemo == nil {
			p.fastMemo = map[float64]float64{}
		}
		var todo []float64 // (an order given twice is computed twice)
		for _, a := range orders {
			if _, ok := p.fastMemo[a]; !ok {
				todo = append(todo, a)
			}
		}
		if len(todo) > 0 {
			sum := make([]float64, len(todo))
			tmp := make([]float64, len(todo))
			for _, t := range p.terms {
				if err := t.Fast.RDP(todo, tmp); err != nil {
					return &eventError{t.Path(), err}
				}
				for i, v := range tmp {
					if s := sum[i] + v*float64(t.Count); s != 0 && !math.IsInf(s, 0) {
						sum[i] = math.Nextafter(math.Nextafter(s, math.Inf(1)), math.Inf(1))
					} else {
						sum[i] = s
					}
				}
			}
			for i, a := range todo {
				p.fastMemo[a] = sum[i]
			}
		}
		for i, a := range orders {
			out[i] = p.fastMemo[a]
		}
		return nil
	})
}

// refRDP is ReferenceRDP's sum, kept by precision and order for the
// theorems that take the plan's curve (as fastEvent); a copy.
func (p *Plan) refRDP(c reference.Context, order float64) (*big.Float, error) {
	k := refKey{refPrec(c), order}
	p.refMu.Lock()
	v, ok := p.refMemo[k]
	p.refMu.Unlock()
	if !ok {
		var err error
		if v, _, err = p.ReferenceRDP(c, order, nil); err != nil {
			return nil, err
		}
		p.refMu.Lock()
		if p.refMemo == nil {
			p.refMemo = map[refKey]*big.Float{}
		}
		p.refMemo[k] = v
		p.refMu.Unlock()
	}
	return new(big.Float).Copy(v), nil
}

func (p *Plan) what() string {
	p.own()
	s := ""
	for i, t := range p.terms {
		if i > 0 {
			s += "; "
		}
		s += t.What
		if t.Count != 1 {
			s += fmt.Sprintf(" x%d", t.Count)
		}
	}
	return s
}

// WORSamplingRatio is the ratio at which a sample of m records drawn
// without replacement from n (m <= n, n >= 1) is accounted: m/n rounded up
// to a float64, the least float64 at or above it (the bounds of Theorems 9
// and 27 of WBK19 grow with the ratio). rdpcheck epsilon's -sampling wor
// takes its ratio from here too. Whether the quotient rounded down is
// decided exactly, by the sign of q n - m with one rounding (q*n == m
// once took 2/3, one ulp low, for exact, as q*3 rounds to 2).
func WORSamplingRatio(n, m float64) float64 {
	q := m / n
	if math.FMA(q, n, -m) < 0 {
		q = math.Min(1, math.Nextafter(q, 2))
	}
	return q
}

// accountWOR is SampledWithoutReplacementDpEvent's entry.
func accountWOR(e *Event, n int64, p *Plan) error {
	if p.Relation != ReplaceOne {
		return errAt(e.Path(), "SampledWithoutReplacementDpEvent needs the relation REPLACE_ONE (as in dp_accounting), not %v", p.Relation)
	}
	size, m := e.Num("source_dataset_size"), e.Num("sample_size")
	if size < 1 {
		return errAt(e.Path()+".source_dataset_size", "must be >= 1 (is %v)", size)
	}
	if m > size {
		return errAt(e.Path()+".sample_size", "must be at most source_dataset_size %v (is %v)", size, m)
	}
	q := WORSamplingRatio(size, m)
	if s, ops, err := effectiveSigma(e.Sub("event")); err == nil {
		if s == 0 {
			return p.sampledNoNoise(e, q)
		}
		if ops > 0 {
			s = math.Nextafter(s*(1-float64(2*ops+2)*0x1p-53), 0)
		}
		// the reference at one order: the least of Theorem 27's bound and
		// the unsampled Gaussian, as fast.WORGaussianEvent takes at a
		// single order (it may go lower with higher orders in one call)
		if err := p.add(e, n, fmt.Sprintf("WOR-sampled Gaussian q=%v sigma=%v", q, s), fast.WORGaussianEvent(q, s),
			func(c reference.Context, a float64) (*big.Float, error) {
				if q == 0 {
					return c.WORGaussian(q, s, a)
				}
				u, err := c.Gaussian(s, a)
				if err != nil {
					return nil, err
				}
				w, err := c.WORGaussian(q, s, a)
				if errors.Is(err, reference.ErrTooLarge) {
					return u, nil
				}
				if err != nil {
					return nil, err
				}
				return minBig(w, u), nil
			}); err != nil {
			return err
		}
		return nil
	}
	sub, err := p.inner(e, "event", "SampledWithoutReplacementDpEvent")
	if err != nil {
		return err
	}
	if err := p.add(e, n, fmt.Sprintf("WOR-sampled q=%v of [%s] (WBK19 Thm 9)", q, sub.what()), fast.WORBoundEvent(q, sub.fastEvent()),
		func(c reference.Context, a float64) (*big.Float, error) {
			if q > 0 && !math.IsInf(a, 1) && a > rdpcheck.MaxWOROrder {
				// beyond Theorem 9's range: the base's own RDP, as fast.WORBoundEvent
				own, _, err := sub.ReferenceRDP(c, a, nil)
				return own, err
			}
			top := 2
			if !math.IsInf(a, 1) {
				top = max(2, int(math.Ceil(a)))
			}
			var bc rdpcheck.BaseCurve
			for k := 2; k <= top+1; k++ {
				o := float64(k)
				if k == top+1 {
					o = math.Inf(1)
				}
				v, err := sub.refRDP(c, o)
				if err != nil {
					return nil, err
				}
				// rounded up to float64: Theorem 9 grows with each entry
				f, _ := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).Set(v).Float64()
				if k == top+1 {
					bc.Inf = f
				} else {
					bc.Eps = append(bc.Eps, f)
				}
			}
			if len(bc.Eps) > 0 && maxOf(bc.Eps) > bc.Inf {
				bc.Inf = math.Inf(1)
			}
			// the least of Theorem 9's bound and the base's own curve (its
			// integer values interpolated; bc.Inf at +Inf), as
			// fast.WORBoundEvent takes at a single order
			if q == 0 {
				return c.WORBound(q, a, bc)
			}
			var u *big.Float
			if math.IsInf(a, 1) {
				u = new(big.Float).SetFloat64(bc.Inf)
			} else {
				var err error
				if u, err = c.WORBound(1, a, bc); err != nil {
					return nil, err
				}
			}
			w, err := c.WORBound(q, a, bc)
			if err != nil {
				return nil, err
			}
			return minBig(w, u), nil
		}); err != nil {
		return err
	}
	return nil
}

// minBig returns the smaller of x and y.
func minBig(x, y *big.Float) *big.Float {
	if x.Cmp(y) <= 0 {
		return x
	}
	return y
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	return m
}

// accountPoissonBound is PoissonSampledDpEvent of an event that is neither
// a Gaussian structure nor a Laplace, add/remove neighbours: Zhu and
// Wang's general bound (ICML 2019; see reference.PoissonBound), or the event's own RDP
// where smaller (fast.PoissonBoundEvent).
func accountPoissonBound(e *Event, n int64, p *Plan, q float64) error {
	sub, err := p.inner(e, "event", "PoissonSampledDpEvent")
	if err != nil {
		return err
	}
	if err := p.add(e, n, fmt.Sprintf("Poisson-sampled q=%v of [%s] (Zhu-Wang general bound)", q, sub.what()), fast.PoissonBoundEvent(q, sub.fastEvent()),
		func(c reference.Context, a float64) (*big.Float, error) {
			own, err := sub.refRDP(c, a)
			if err != nil || math.IsInf(a, 1) || a > 1024 {
				return own, err
			}
			top := max(2, int(math.Ceil(a)))
			var bc []float64
			for k := 2; k <= top; k++ {
				v, err := sub.refRDP(c, float64(k))
				if err != nil {
					return nil, err
				}
				// rounded up to float64: the bound grows with each entry
				f, _ := new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf).Set(v).Float64()
				bc = append(bc, f)
			}
			zw, err := c.PoissonBound(q, a, bc)
			if err != nil {
				return nil, err
			}
			// and PoissonBound at q = 1 (the base's integer values
			// interpolated), as fast.PoissonBoundEvent takes
			one, err := c.PoissonBound(1, a, bc)
			if err != nil {
				return nil, err
			}
			return minBig(minBig(zw, one), own), nil
		}); err != nil {
		return err
	}
	return nil
}
