package pld

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// Independent checks of every event kind: one step from the mechanism's
// output laws (exact sums for the discrete ones; the threshold form
// P(L > eps) - e^eps Q(L > eps) from the CDFs for the continuous ones, with
// the threshold found by bisection on the loss written out here), and two
// steps by exact double sums or quadrature, E_P[delta_1(eps - L)]. None of
// it calls the package's measures.

// dirRef is one direction of an event's pair, written from its definition:
// delta1 is H_(e^eps)(P||Q) of one step; expect returns E_P[f(L)] over the
// finite losses (exact sum or quadrature) and inf the P-mass at +Inf.
type dirRef struct {
	delta1 func(eps float64) float64
	expect func(f func(l float64) float64) float64
	inf    float64
}

// two is the two-step profile of the direction: E_P[delta_1(eps - L)] plus
// the mass at +Inf.
func (d dirRef) two(eps float64) float64 {
	return d.expect(func(l float64) float64 { return d.delta1(eps - l) }) + d.inf
}

// discreteRef is the direction P against Q of finite output laws (Q may
// be 0 where P is not: that P-mass is at +Inf).
func discreteRef(P, Q []float64) dirRef {
	var inf float64
	for i := range P {
		if Q[i] == 0 {
			inf += P[i]
		}
	}
	return dirRef{
		delta1: func(eps float64) float64 {
			var s float64
			for i := range P {
				s += math.Max(0, P[i]-math.Exp(eps)*Q[i])
			}
			return s
		},
		expect: func(f func(float64) float64) float64 {
			var s float64
			for i := range P {
				if P[i] > 0 && Q[i] > 0 {
					s += P[i] * f(math.Log(P[i]/Q[i]))
				}
			}
			return s
		},
		inf: inf,
	}
}

// densRef is the direction of densities p, q on [a, b] (plus point laws
// outside given by discrete parts), with loss monotone in x; delta1 by
// the threshold form with CDFs Pc, Qc (P(X > x) for increasing losses),
// expect by the midpoint rule on n nodes plus the atoms.
type densRef struct {
	p, q     func(x float64) float64
	a, b     float64
	inc      bool
	Pgt, Qgt func(x float64) float64 // P(X > x), Q(X > x)
	atomsP   []float64               // P-masses of the point laws of the loss (outside (a, b))
	atomsL   []float64               // their losses
	n        int
}

func (r densRef) loss(x float64) float64 { return math.Log(r.p(x) / r.q(x)) }

func (r densRef) dir() dirRef {
	return dirRef{
		delta1: func(eps float64) float64 {
			// the atoms whose loss exceeds eps, and the continuous part
			// beyond the crossing x_e (bisection on the loss)
			var s float64
			for i, l := range r.atomsL {
				if l > eps {
					s += r.atomsP[i] * -math.Expm1(eps-l)
				}
			}
			lo, hi := r.a, r.b
			f := func(x float64) bool { return (r.loss(x) > eps) == r.inc }
			for i := 0; i < 100; i++ {
				m := lo + (hi-lo)/2
				if f(m) {
					hi = m
				} else {
					lo = m
				}
			}
			x := lo + (hi-lo)/2
			if r.inc {
				return s + (r.Pgt(x) - r.Pgt(r.b)) - math.Exp(eps)*(r.Qgt(x)-r.Qgt(r.b))
			}
			return s + (r.Pgt(r.a) - r.Pgt(x)) - math.Exp(eps)*(r.Qgt(r.a)-r.Qgt(x))
		},
		expect: func(f func(float64) float64) float64 {
			var s float64
			for i, l := range r.atomsL {
				s += r.atomsP[i] * f(l)
			}
			dx := (r.b - r.a) / float64(r.n)
			for i := 0; i < r.n; i++ {
				x := r.a + (float64(i)+0.5)*dx
				if px := r.p(x); px > 0 {
					s += px * f(r.loss(x)) * dx
				}
			}
			return s
		},
	}
}

func phiN(x, m, s float64) float64 {
	z := (x - m) / s
	return math.Exp(-z*z/2) / (s * math.Sqrt(2*math.Pi))
}
func qN(x, m, s float64) float64 { return math.Erfc((x-m)/(s*math.Sqrt2)) / 2 }

// gaussMixRef is the direction P = sum w_i N(m_i, s^2) against Q = sum v_j
// N(n_j, s^2), its loss monotone (inc), integrated over +-(14 s) beyond
// the means.
func gaussMixRef(s float64, w, m, v, n []float64, inc bool) dirRef {
	mix := func(w, m []float64, f func(x, m, s float64) float64) func(float64) float64 {
		return func(x float64) float64 {
			var t float64
			for i := range w {
				t += w[i] * f(x, m[i], s)
			}
			return t
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range append(append([]float64{}, m...), n...) {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return densRef{
		p: mix(w, m, phiN), q: mix(v, n, phiN), a: lo - 14*s, b: hi + 14*s, inc: inc,
		Pgt: mix(w, m, qN), Qgt: mix(v, n, qN), n: 40000,
	}.dir()
}

// lapGt is P(X > x) of Lap(m, b).
func lapGt(x, m, b float64) float64 {
	if x < m {
		return 1 - math.Exp((x-m)/b)/2
	}
	return math.Exp(-(x-m)/b) / 2
}
func lapD(x, m, b float64) float64 { return math.Exp(-math.Abs(x-m)/b) / (2 * b) }

// sampledLaplaceRef: remove, P = (1-q) Lap(0) + q Lap(1) against Lap(0);
// add, the reverse. The loss is constant for x <= 0 and x >= 1: those are
// the atoms; the continuous part is (0, 1).
func sampledLaplaceRef(q, b float64, add bool) dirRef {
	p := func(x float64) float64 { return (1-q)*lapD(x, 0, b) + q*lapD(x, 1, b) }
	Pg := func(x float64) float64 { return (1-q)*lapGt(x, 0, b) + q*lapGt(x, 1, b) }
	q0 := func(x float64) float64 { return lapD(x, 0, b) }
	Q0g := func(x float64) float64 { return lapGt(x, 0, b) }
	r := densRef{p: p, q: q0, a: 0, b: 1, inc: true, Pgt: Pg, Qgt: Q0g, n: 40000}
	lm, lp := math.Log((1-q)+q*math.Exp(-1/b)), math.Log((1-q)+q*math.Exp(1/b))
	r.atomsP = []float64{1 - Pg(0), Pg(1)}
	r.atomsL = []float64{lm, lp}
	if add {
		r = densRef{p: q0, q: p, a: 0, b: 1, inc: false, Pgt: Q0g, Qgt: Pg, n: 40000,
			atomsP: []float64{1 - Q0g(0), Q0g(1)}, atomsL: []float64{-lm, -lp}}
	}
	return r.dir()
}

// eventRef is an event's pair under a relation: its directions (one when
// symmetric).
type eventRef struct {
	name string
	c    Composition // one step
	dirs []dirRef
}

func dLaplaceLaw(a float64, K, M int) (P, Q []float64) {
	c := (1 - math.Exp(-a)) / (1 + math.Exp(-a))
	for x := -M; x <= M+K; x++ {
		P = append(P, c*math.Exp(-a*math.Abs(float64(x))))
		Q = append(Q, c*math.Exp(-a*math.Abs(float64(x-K))))
	}
	return P, Q
}

func rrLaws(p float64, k int, special bool) (P, Q []float64) {
	for o := 0; o < k; o++ {
		P = append(P, p/float64(k))
		Q = append(Q, p/float64(k))
	}
	P[0] += 1 - p
	if special {
		for o := range Q {
			Q[o] = 1 / float64(k)
		}
	} else {
		Q[1] += 1 - p
	}
	return P, Q
}

func epsDeltaLaws(eps, d float64) (P, Q []float64) {
	a := math.Exp(eps) / (1 + math.Exp(eps))
	return []float64{d, (1 - d) * a, (1 - d) * (1 - a), 0}, []float64{0, (1 - d) * (1 - a), (1 - d) * a, d}
}

func one(e Event, rel Relation) Composition {
	return Composition{Relation: rel, Terms: []Term{{e, 1}}}
}

// exactRefs are the events whose interval must contain the reference.
func exactRefs() []eventRef {
	var refs []eventRef
	add := func(name string, c Composition, dirs ...dirRef) {
		refs = append(refs, eventRef{name, c, dirs})
	}
	for _, k := range []int{2, 3, 10} {
		for _, p := range []float64{0.1, 0.5, 0.9} {
			P, Q := rrLaws(p, k, false)
			add(fmt.Sprintf("RR(%g, %d) replace-one", p, k), one(RandomizedResponse{p, k}, ReplaceOne), discreteRef(P, Q))
			P, Q = rrLaws(p, k, true)
			add(fmt.Sprintf("RR(%g, %d) replace-special", p, k), one(RandomizedResponse{p, k}, ReplaceSpecial), discreteRef(P, Q), discreteRef(Q, P))
		}
	}
	for _, c := range []struct{ eps, d float64 }{{1, 0}, {0.5, 1e-3}, {0.3, 0.1}, {3, 1e-6}} {
		P, Q := epsDeltaLaws(c.eps, c.d)
		for _, rel := range []Relation{AddOrRemoveOne, ReplaceOne} {
			add(fmt.Sprintf("EpsilonDelta(%g, %g) %v", c.eps, c.d, rel), one(EpsilonDelta{c.eps, c.d}, rel), discreteRef(P, Q))
		}
	}
	for _, c := range []struct {
		a float64
		K int
	}{{1, 1}, {0.3, 3}, {2, 5}} {
		P, Q := dLaplaceLaw(c.a, c.K, int(60/c.a)+10)
		add(fmt.Sprintf("DiscreteLaplace(%g, %d)", c.a, c.K), one(DiscreteLaplace{c.a, c.K}, AddOrRemoveOne), discreteRef(P, Q))
	}
	for _, q := range []float64{0.1, 0.6} {
		add(fmt.Sprintf("SampledGaussian(%g, 0)", q), one(SampledGaussian{q, 0}, AddOrRemoveOne),
			discreteRef([]float64{1 - q, q}, []float64{1, 0}), discreteRef([]float64{1, 0}, []float64{1 - q, q}))
		add(fmt.Sprintf("SampledGaussian(%g, 0) replace-one", q), one(SampledGaussian{q, 0}, ReplaceOne),
			discreteRef([]float64{1 - q, q, 0}, []float64{1 - q, 0, q}))
	}
	for _, c := range []struct{ q, s float64 }{{0.1, 1}, {0.5, 0.8}, {0.02, 2}} {
		add(fmt.Sprintf("SampledGaussian(%g, %g) replace-one", c.q, c.s), one(SampledGaussian{c.q, c.s}, ReplaceOne),
			gaussMixRef(c.s, []float64{1 - c.q, c.q}, []float64{0, -1}, []float64{1 - c.q, c.q}, []float64{0, 1}, false))
	}
	for _, c := range []struct {
		s    float64
		c, p []float64
	}{{1, []float64{1}, []float64{1}}, {0.8, []float64{0, 1}, []float64{0.7, 0.3}}, {1.5, []float64{0.5, 1, 2}, []float64{0.2, 0.5, 0.3}}} {
		add(fmt.Sprintf("MixtureOfGaussians(%g, %v, %v)", c.s, c.c, c.p), one(MixtureOfGaussians{c.s, c.c, c.p}, AddOrRemoveOne),
			gaussMixRef(c.s, c.p, c.c, []float64{1}, []float64{0}, true),
			gaussMixRef(c.s, []float64{1}, []float64{0}, c.p, c.c, false))
	}
	for _, c := range []struct{ q, b float64 }{{0.1, 1}, {0.5, 0.5}, {0.05, 3}} {
		add(fmt.Sprintf("SampledLaplace(%g, %g)", c.q, c.b), one(SampledLaplace{c.q, c.b}, AddOrRemoveOne),
			sampledLaplaceRef(c.q, c.b, false), sampledLaplaceRef(c.q, c.b, true))
	}
	return refs
}

// maxOf is the profile of several directions.
func maxOf(dirs []dirRef, f func(d dirRef) float64) float64 {
	v := 0.0
	for _, d := range dirs {
		v = math.Max(v, f(d))
	}
	return v
}

// contains reports whether iv holds want within rel relative (the
// reference's own error) and abs.
func contains(iv Interval, want, rel, abs float64) bool {
	return iv.Lo <= want*(1+rel)+abs && want*(1-rel)-abs <= iv.Hi
}

func TestEventsOneStep(t *testing.T) {
	ctx := context.Background()
	for _, r := range shortRefs(t, exactRefs()) {
		for _, eps := range shortSample([]float64{0, 0.1, 0.7, 2}) {
			want := maxOf(r.dirs, func(d dirRef) float64 { return d.delta1(eps) })
			got, err := Delta(ctx, r.c, eps)
			if err != nil {
				t.Errorf("%s: Delta(%g): %v", r.name, eps, err)
				continue
			}
			if !contains(got, want, 1e-9, 1e-15) {
				t.Errorf("%s: Delta(%g) = %v, want %.12g (one step from the output laws)", r.name, eps, got, want)
			}
			if want > 1e-6 && got.RelWidth() > 2e-3 {
				t.Errorf("%s: Delta(%g) = %v, width %.2g above 2e-3", r.name, eps, got, got.RelWidth())
			}
		}
	}
}

func TestEventsTwoSteps(t *testing.T) {
	ctx := context.Background()
	for _, r := range shortRefs(t, exactRefs()) {
		c := r.c
		c.Terms = []Term{{c.Terms[0].Event, 2}}
		for _, eps := range shortSample([]float64{0.05, 0.5, 1.5}) {
			want := maxOf(r.dirs, func(d dirRef) float64 { return d.two(eps) })
			got, err := Delta(ctx, c, eps)
			if err != nil {
				t.Errorf("%s x 2: Delta(%g): %v", r.name, eps, err)
				continue
			}
			if !contains(got, want, 1e-6, 1e-12) {
				t.Errorf("%s x 2: Delta(%g) = %v, want %.10g (two steps: E_P[delta_1(eps - L)])", r.name, eps, got, want)
			}
		}
	}
}

// Heterogeneous: a Gaussian then a sampled Laplace step, against
// E over the Laplace step's loss of the Gaussian's closed form (both
// directions: the Gaussian's pair is the same in each).
func TestEventsHeterogeneous(t *testing.T) {
	ctx := context.Background()
	const s, q, b = 1.3, 0.2, 0.7
	c := Composition{Terms: []Term{{Gaussian{s}, 1}, {SampledLaplace{q, b}, 1}, {NoOp(), 5}}}
	g := gaussMixRef(s, []float64{1}, []float64{1}, []float64{1}, []float64{0}, true)
	for _, eps := range shortSample([]float64{0.1, 0.8, 2}) {
		var want float64
		for _, add := range []bool{false, true} {
			d := sampledLaplaceRef(q, b, add)
			want = math.Max(want, d.expect(func(l float64) float64 { return g.delta1(eps - l) }))
		}
		got, err := Delta(ctx, c, eps)
		if err != nil || !contains(got, want, 1e-6, 1e-12) {
			t.Errorf("Gaussian(%g) + SampledLaplace(%g, %g): Delta(%g) = %v, %v; want %.10g (quadrature)", s, q, b, eps, got, err, want)
		}
	}
}

// NoOp is a no-op event for the tests: randomized response over one bucket.
func NoOp() Event { return RandomizedResponse{0.5, 1} }

// The one-sided events: the lower end is the instance's profile, the
// upper end the eps-DP pair's, each within the width.
func TestEventsOneSided(t *testing.T) {
	ctx := context.Background()
	for _, eps := range []float64{0.5, 2} {
		dp := discreteRef(epsDeltaLaws(eps, 0))
		em := discreteRef(epsDeltaLaws(eps/2, 0))
		w := math.Exp(-eps/2) / 2
		pf := discreteRef([]float64{1 - w, w}, []float64{w, 1 - w})
		for _, c := range []struct {
			e     Event
			lower dirRef
		}{{ExponentialMechanism{eps}, em}, {PermuteAndFlip{eps}, pf}} {
			for _, x := range []float64{0, 0.2, eps / 2} {
				got, err := Delta(ctx, one(c.e, AddOrRemoveOne), x)
				lo, hi := c.lower.delta1(x), dp.delta1(x)
				if err != nil || !contains(Interval{got.Lo, got.Lo}, lo, 1e-3, 1e-15) || !contains(Interval{got.Hi, got.Hi}, hi, 1e-3, 1e-15) || got.Lo > lo*(1+1e-9)+1e-15 || got.Hi < hi*(1-1e-9) {
					t.Errorf("%v: Delta(%g) = %v, %v; want [%.10g, %.10g] (the instance, the eps-DP pair)", c.e, x, got, err, lo, hi)
				}
			}
		}
	}
}

// Every event's errors: parameters outside the domain are *InputError
// naming the event; relations dp_accounting refuses are ErrUnsupported.
func TestEventsRefused(t *testing.T) {
	ctx := context.Background()
	nan := math.NaN()
	for _, c := range []struct {
		c    Composition
		want error
	}{
		{one(Gaussian{-1}, AddOrRemoveOne), ErrInput},
		{one(Gaussian{nan}, AddOrRemoveOne), ErrInput},
		{one(SampledGaussian{1.5, 1}, AddOrRemoveOne), ErrInput},
		{one(Laplace{math.Inf(1)}, AddOrRemoveOne), ErrInput},
		{one(DiscreteLaplace{1, 0}, AddOrRemoveOne), ErrInput},
		{one(RandomizedResponse{-0.1, 2}, ReplaceOne), ErrInput},
		{one(EpsilonDelta{1, 1.5}, ReplaceOne), ErrInput},
		{one(MixtureOfGaussians{1, []float64{1, -1}, []float64{0.5, 0.5}}, AddOrRemoveOne), ErrInput},
		{one(MixtureOfGaussians{1, []float64{1}, []float64{0.5}}, AddOrRemoveOne), ErrInput},
		{one(nil, AddOrRemoveOne), ErrInput},
		{Composition{Relation: 7, Terms: []Term{{Gaussian{1}, 1}}}, ErrInput},
		{Composition{Terms: []Term{{Gaussian{1}, -1}}}, ErrInput},
		{Composition{Terms: []Term{{Gaussian{1}, MaxCount}, {Gaussian{2}, 1}}}, ErrTooLarge},
		{one(RandomizedResponse{0.5, 2}, AddOrRemoveOne), ErrUnsupported},
		{one(Laplace{1}, ReplaceOne), ErrUnsupported},
		{one(SampledLaplace{0.1, 1}, ReplaceOne), ErrUnsupported},
		{one(MixtureOfGaussians{1, []float64{1}, []float64{1}}, ReplaceOne), ErrUnsupported},
		{one(PermuteAndFlip{1}, ReplaceOne), ErrUnsupported},
	} {
		_, err := Delta(ctx, c.c, 1)
		if !errors.Is(err, c.want) {
			t.Errorf("Delta(%v, 1): %v, want %v", c.c, err, c.want)
		}
	}
}

// shortSample is xs, or with -short its middle value alone (each event
// and relation is still checked; the other values are the default run's).
// shortRefs is refs, or under -short the first of each kind: the event
// with its relation, and whether a parameter is 0 (SampledGaussian's
// sigma = 0 and EpsilonDelta's delta = 0 are regions of their own).
func shortRefs(t *testing.T, refs []eventRef) []eventRef {
	t.Helper()
	if !testtier.Short(t, "every event's other parameters (the first of each kind and relation is checked)") {
		return refs
	}
	num := regexp.MustCompile(`\[[^]]*\]|[0-9][0-9.e+-]*`)
	seen := map[string]bool{}
	var out []eventRef
	for _, r := range refs {
		kind := num.ReplaceAllStringFunc(r.name, func(n string) string {
			if n == "0" {
				return n
			}
			return "#"
		})
		if !seen[kind] {
			seen[kind] = true
			out = append(out, r)
		}
	}
	return out
}

func shortSample(xs []float64) []float64 {
	if testing.Short() {
		return xs[len(xs)/2 : len(xs)/2+1]
	}
	return xs
}
