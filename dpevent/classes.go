package dpevent

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// notYetSupported lists, in one place, dp_accounting's event classes that
// rdpcheck does not read yet, with why; reading one is the error
// "<path>: <class>: not yet supported: <why>". A class leaves this list
// when its entry joins classes.
var notYetSupported = map[string]string{
	"SampledWithReplacementDpEvent": "sampling with replacement; neither of dp_accounting's accountants (RDP, PLD) accounts it either",
}

// NotYetSupported returns the dp_accounting event classes rdpcheck does not
// read yet, sorted.
//
// Slices: the slice returned is new.
func NotYetSupported() []string {
	var out []string
	for k := range notYetSupported {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ClassNames returns the event classes rdpcheck reads, sorted.
//
// Slices: the slice returned is new.
func ClassNames() []string {
	var out []string
	for k := range classes {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// class is one event class: its fields and how it is accounted.
type class struct {
	name   string // the class name (set from the table's key)
	fields []field
	// account adds count compositions of e to the plan.
	account func(e *Event, count int64, p *Plan) error
}

// keyNames lists the keys an object of the class accepts.
func (c class) keyNames() string {
	s := []string{"class_name", "module_name"}
	for _, f := range c.fields {
		s = append(s, f.name)
	}
	return strings.Join(s, ", ")
}

type kind int

const (
	kindNumber   kind = iota // a float (Num)
	kindCount                // an integer >= 0 (Num)
	kindEvent                // an event (Sub)
	kindEvents               // a list of events (List)
	kindCounts               // an integer or a list of integers (Ints)
	kindOptCount             // null or an integer (Num; NaN for null)
	kindNumbers              // a list of floats (Nums), each checked
)

// field is one field of a class. check returns "" for a valid value, else
// what is wrong ("must be > 0").
type field struct {
	name     string
	kind     kind
	check    func(v float64) string
	optional bool    // dp_accounting gives it a default
	def      float64 // the default
}

// decode reads node i of t as the field's value into v, for the event e.
func (f field) decode(t *tape, e *Event, v *value, i int32) error {
	// the path, for messages: built only for one (it costs the depth)
	path := func() string { return e.Path() + "." + f.name }
	switch f.kind {
	case kindNumber, kindCount, kindOptCount:
		if f.kind == kindOptCount && t.nodes[i].kind == 'n' {
			v.num = math.NaN()
			return nil
		}
		var x float64
		if f.kind == kindNumber {
			var err error
			if x, err = number(t, path, i); err != nil {
				return err
			}
		} else {
			n, err := integer(t, path, i)
			if err != nil {
				return err
			}
			x = float64(n)
		}
		if f.check != nil {
			if msg := f.check(x); msg != "" {
				return errAt(path(), "%s (is %v)", msg, x)
			}
		}
		v.num = x
	case kindEvent:
		s, err := decodeEvent(t, i, e, f.name, -1)
		if err != nil {
			return err
		}
		v.sub = s
	case kindEvents:
		n := &t.nodes[i]
		if n.kind != '[' {
			return errAt(path(), "must be a list of events, not %s", t.describe(i))
		}
		v.list = make([]*Event, n.n)
		for j := range n.n {
			s, err := decodeEvent(t, t.kids[n.first+j], e, f.name, j)
			if err != nil {
				return err
			}
			v.list[j] = s
		}
	case kindNumbers:
		n := &t.nodes[i]
		if n.kind != '[' {
			return errAt(path(), "must be a list of numbers, not %s", t.describe(i))
		}
		v.nums = make([]float64, n.n)
		for j := range n.n {
			at := func() string { return fmt.Sprintf("%s[%d]", path(), j) }
			x, err := number(t, at, t.kids[n.first+j])
			if err != nil {
				return err
			}
			if f.check != nil {
				if msg := f.check(x); msg != "" {
					return errAt(at(), "%s (is %v)", msg, x)
				}
			}
			v.nums[j] = x
		}
	case kindCounts:
		n := &t.nodes[i]
		if n.kind != '[' {
			k, err := integer(t, path, i)
			if err != nil {
				return err
			}
			v.ints = []int64{k}
			return nil
		}
		v.ints = make([]int64, n.n)
		for j := range n.n {
			k, err := integer(t, func() string { return fmt.Sprintf("%s[%d]", path(), j) }, t.kids[n.first+j])
			if err != nil {
				return err
			}
			v.ints[j] = k
		}
	}
	return nil
}

// Checks of field values.
func positive(v float64) string {
	if !(v > 0) || math.IsInf(v, 1) {
		return "must be finite and > 0"
	}
	return ""
}

func nonNegative(v float64) string {
	if !(v >= 0) || math.IsInf(v, 1) {
		return "must be finite and >= 0"
	}
	return ""
}

func probability(v float64) string {
	if !(v >= 0 && v <= 1) {
		return "must be in [0, 1]"
	}
	return ""
}

func deltaRange(v float64) string {
	if !(v >= 0 && v < 1) {
		return "must be in [0, 1)"
	}
	return ""
}

// oneNumber is the class of a mechanism given by one number, name: its
// check, the label of the plan's row (a format of the number), its fast
// event and its reference curve.
func oneNumber(name string, check func(float64) string, label string, event func(float64) fast.Event,
	ref func(c reference.Context, x, alpha float64) (*big.Float, error)) class {
	return class{
		fields: []field{{name: name, check: check}},
		account: func(e *Event, n int64, p *Plan) error {
			x := e.Num(name)
			return p.add(e, n, fmt.Sprintf(label, x), event(x),
				func(c reference.Context, a float64) (*big.Float, error) { return ref(c, x, a) })
		}}
}

// classes is the table of the event classes rdpcheck reads: one entry
// per class, with dp_accounting's field names and the meaning its
// RdpAccountant._maybe_compose gives the class (cited per entry).
var classes map[string]class

func init() {
	classes = map[string]class{
		// No privacy cost.
		"NoOpDpEvent": {account: func(e *Event, n int64, p *Plan) error { return nil }},
		// No guarantee: dp_accounting adds +Inf at every order.
		"NonPrivateDpEvent": {account: func(e *Event, n int64, p *Plan) error {
			return p.infinite(e, "a non-private event: no privacy guarantee, so epsilon is +Inf")
		}},
		// dp_accounting's accountants refuse it ("Unsupported event");
		// rdpcheck accounts it as having no guarantee, and says so.
		"UnsupportedDpEvent": {account: func(e *Event, n int64, p *Plan) error {
			return p.infinite(e, "an event no accountant can account (dp_accounting refuses it): no privacy guarantee is known, so epsilon is +Inf")
		}},
		// Gaussian noise of standard deviation noise_multiplier times the
		// l2-sensitivity: alpha/(2 sigma^2) (dp_accounting: the sampled
		// Gaussian at q = 1).
		// noise_multiplier 0 is no noise: +Inf at every order, as
		// dp_accounting's _compute_rdp_poisson_subsampled_gaussian gives.
		"GaussianDpEvent": {
			fields: []field{{name: "noise_multiplier", check: nonNegative}},
			account: func(e *Event, n int64, p *Plan) error {
				s := e.Num("noise_multiplier")
				if s == 0 {
					return p.infinite(e, noNoise)
				}
				what := fmt.Sprintf("Gaussian sigma=%v", s)
				if err := p.add(e, n, what, fast.GaussianEvent(s),
					func(c reference.Context, a float64) (*big.Float, error) { return c.Gaussian(s, a) }); err != nil {
					return err
				}
				p.setSGM(what, 1, s)
				return nil
			}},
		// Laplace noise of scale noise_multiplier times the l1-sensitivity
		// (dp_accounting: _laplace_rdp(1/noise_multiplier, order));
		// noise_multiplier 0 is no noise (dp_accounting divides by it).
		"LaplaceDpEvent": {
			fields: []field{{name: "noise_multiplier", check: nonNegative}},
			account: func(e *Event, n int64, p *Plan) error {
				b := e.Num("noise_multiplier")
				if b == 0 {
					return p.infinite(e, noNoise)
				}
				return p.add(e, n, fmt.Sprintf("Laplace b=%v", b), fast.LaplaceEvent(b),
					func(c reference.Context, a float64) (*big.Float, error) { return c.Laplace(b, a) })
			}},
		// (xi, rho)-zCDP: xi + rho alpha at every order.
		"ZCDpEvent": {
			fields: []field{{name: "rho", check: nonNegative}, {name: "xi", check: nonNegative, optional: true}},
			account: func(e *Event, n int64, p *Plan) error {
				rho, xi := e.Num("rho"), e.Num("xi")
				return p.add(e, n, fmt.Sprintf("zCDP rho=%v xi=%v", rho, xi), fast.ZCDPEvent(rho, xi),
					func(c reference.Context, a float64) (*big.Float, error) { return zcdpRef(c, rho, xi, a), nil })
			}},
		// (epsilon, delta)-DP: dp_accounting composes the RDP of pure
		// epsilon-DP (that of randomized response) and the deltas as
		// 1 - prod (1 - delta_i), which the conversion then removes from
		// the target delta.
		"EpsilonDeltaDpEvent": {
			fields: []field{{name: "epsilon", check: nonNegative}, {name: "delta", check: deltaRange}},
			account: func(e *Event, n int64, p *Plan) error {
				eps, d := e.Num("epsilon"), e.Num("delta")
				return p.addEpsilonDelta(e, n, eps, d)
			}},
		// count compositions of event.
		"SelfComposedDpEvent": {
			fields: []field{{name: "event", kind: kindEvent}, {name: "count", kind: kindCount}},
			account: func(e *Event, n int64, p *Plan) error {
				k := int64(e.Num("count"))
				if k == 0 {
					return nil // dp_accounting adds 0 times the event
				}
				if n > MaxCount/k {
					return errAt(e.Path()+".count", "the count %d times the %d above it is more than 2^53 = %d", k, n, int64(MaxCount))
				}
				return p.account(e.Sub("event"), n*k)
			}},
		// each of events, in turn.
		"ComposedDpEvent": {
			fields: []field{{name: "events", kind: kindEvents}},
			account: func(e *Event, n int64, p *Plan) error {
				for _, s := range e.List("events") {
					if err := p.account(s, n); err != nil {
						return err
					}
				}
				return nil
			}},
		// Poisson sampling with probability sampling_probability of a
		// Gaussian, or of a structure dp_accounting reduces to one
		// (_effective_gaussian_noise_multiplier with accept_zcdp: Composed
		// and SelfComposed of Gaussians, zCDP with xi = 0), or of a Laplace
		// (its exact sampled RDP; dp_accounting refuses it), under
		// add/remove-one or replace-special neighbours; under add/remove,
		// any other event by Zhu and Wang's general bound (dp_accounting
		// refuses it; see accountPoissonBound).
		"PoissonSampledDpEvent": {
			fields: []field{{name: "sampling_probability", check: probability}, {name: "event", kind: kindEvent}},
			account: func(e *Event, n int64, p *Plan) error {
				if p.Relation != AddOrRemoveOne && p.Relation != ReplaceSpecial {
					return errAt(e.Path(), "PoissonSampledDpEvent needs the relation ADD_OR_REMOVE_ONE or REPLACE_SPECIAL (as in dp_accounting), not %v", p.Relation)
				}
				q := e.Num("sampling_probability")
				if l := e.Sub("event"); l.Class == "LaplaceDpEvent" {
					// dp_accounting refuses it; rdpcheck has its exact RDP
					b := l.Num("noise_multiplier")
					if b == 0 {
						return p.sampledNoNoise(e, q)
					}
					return p.add(e, n, fmt.Sprintf("Poisson-sampled Laplace q=%v b=%v", q, b), fast.SampledLaplaceEvent(q, b),
						func(c reference.Context, a float64) (*big.Float, error) { return c.SampledLaplace(q, b, a) })
				}
				s, ops, err := effectiveSigma(e.Sub("event"))
				if err != nil {
					if p.Relation != AddOrRemoveOne {
						return err
					}
					return accountPoissonBound(e, n, p, q)
				}
				if s == 0 {
					return p.sampledNoNoise(e, q)
				}
				// each float64 operation of the reduction errs by at most 2
				// ulps: rounding sigma down only raises the RDP
				if ops > 0 {
					s = math.Nextafter(s*(1-float64(2*ops+2)*0x1p-53), 0)
				}
				what := fmt.Sprintf("Poisson-sampled Gaussian q=%v sigma=%v", q, s)
				if err := p.add(e, n, what, fast.SGMEvent(q, s),
					func(c reference.Context, a float64) (*big.Float, error) { return c.SGM(q, s, a) }); err != nil {
					return err
				}
				p.setSGM(what, q, s)
				return nil
			}},
	}
	for k, c := range classes {
		c.name = k
		classes[k] = c
	}
}

// noNoise is the note of a Gaussian or Laplace event of noise_multiplier 0.
const noNoise = "an event of noise_multiplier 0: no noise, no privacy guarantee, so epsilon is +Inf"

// sampledNoNoise accounts a sampling event (e) with sampling ratio q of
// an event of noise 0: nothing when q = 0 (the sub-event never runs; RDP 0
// at every order in dp_accounting), else +Inf at every order (a record
// that is sampled is seen).
func (p *Plan) sampledNoNoise(e *Event, q float64) error {
	if q == 0 {
		return nil
	}
	return p.infinite(e, "a sampling event of an event of noise_multiplier 0: a sampled record is seen exactly, so the RDP is +Inf at every order and epsilon is +Inf")
}

// effectiveSigma is dp_accounting's _effective_gaussian_noise_multiplier
// with accept_zcdp (Dong, Roth, Su 2019, Sec 3: Gaussian queries on the
// same data compose into one with noise (sum sigma_i^-2)^-1/2), and the
// number of float64 operations it rounded. A sub-event that is not such a
// structure is an error naming it.
func effectiveSigma(e *Event) (sigma float64, ops int, err error) {
	switch e.Class {
	case "GaussianDpEvent":
		return e.Num("noise_multiplier"), 0, nil
	case "ZCDpEvent":
		if e.Num("xi") != 0 || !(e.Num("rho") > 0) {
			return 0, 0, errAt(e.Path(), "a ZCDpEvent under PoissonSampledDpEvent must have xi = 0 and rho > 0 (it then is a Gaussian, noise 1/sqrt(2 rho), as in dp_accounting)")
		}
		return 1 / math.Sqrt(2*e.Num("rho")), 3, nil
	case "SelfComposedDpEvent":
		s, k, err := effectiveSigma(e.Sub("event"))
		if err != nil {
			return 0, 0, err
		}
		c := e.Num("count")
		if c == 0 {
			return 0, 0, errAt(e.Path()+".count", "a SelfComposedDpEvent of count 0 under PoissonSampledDpEvent has no noise multiplier")
		}
		return s / math.Sqrt(c), k + 2, nil
	case "ComposedDpEvent":
		list := e.List("events")
		if len(list) == 0 {
			return 0, 0, errAt(e.Path()+".events", "an empty ComposedDpEvent under PoissonSampledDpEvent has no noise multiplier")
		}
		sum, ops := 0.0, 0
		for _, s := range list {
			si, k, err := effectiveSigma(s)
			if err != nil {
				return 0, 0, err
			}
			// sum of si^-2 in one pass: the relative errors of the terms
			// (k + 3 ulps each) and of the running sum add
			sum += 1 / (si * si)
			ops = max(ops, k+3) + 1
		}
		return 1 / math.Sqrt(sum), ops + 2, nil
	}
	return 0, 0, errAt(e.Path(), "%s under a sampling event: not supported (a GaussianDpEvent, Composed/SelfComposed structures of them, zCDP with xi = 0, as dp_accounting; under PoissonSampledDpEvent also a LaplaceDpEvent, and any event under ADD_OR_REMOVE_ONE; under SampledWithoutReplacementDpEvent any event)", e.Class)
}

// zcdpRef is xi + rho alpha, exactly (a float64 product and sum fit in
// 2200 bits), rounded to c's precision; +Inf at alpha = +Inf for rho > 0.
func zcdpRef(c reference.Context, rho, xi, alpha float64) *big.Float {
	if math.IsInf(alpha, 1) {
		if rho > 0 {
			return new(big.Float).SetInf(false)
		}
		return new(big.Float).SetFloat64(xi)
	}
	v := new(big.Float).SetPrec(2200).SetFloat64(rho)
	v.Mul(v, new(big.Float).SetFloat64(alpha))
	v.Add(v, new(big.Float).SetFloat64(xi))
	return new(big.Float).SetPrec(refPrec(c)).Set(v)
}

func refPrec(c reference.Context) uint {
	if c.Prec == 0 {
		return reference.DefaultPrec
	}
	return max(c.Prec, 64)
}
