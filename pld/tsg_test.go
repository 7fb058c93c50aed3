package pld

import (
	"context"
	"errors"
	"math"
	"testing"
)

// The expected values here are computed from the definitions, sharing no
// code with tsg.go: binomial probabilities term by term through
// math.Lgamma (about 1e-13 relative at these n), the rates as the
// expectations that define them (not the tail identities tsg.go uses),
// and the hockey-stick divergences in closed form through math.Erfc at
// the point where the privacy loss crosses eps.

// refPMF is P(Binomial(n, p) = k).
func refPMF(n, k int, p float64) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(a - b - c + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// refTruncation returns t = P(K >= B) and q2 = Q E[B/(K+1) | K >= B],
// K ~ Binomial(N-1, Q): dp_accounting's mixture weight and rate.
func refTruncation(N, B int, Q float64) (t, q2 float64) {
	var e float64
	for k := B; k <= N-1; k++ {
		f := refPMF(N-1, k, Q)
		t += f
		e += f * float64(B) / float64(k+1)
	}
	return t, Q * e / t
}

// refRate is q' = Q E[min(1, B/(K+1))], K ~ Binomial(m, Q): the rate at
// which the record is in the truncated batch with m others.
func refRate(m, B int, Q float64) float64 {
	var e float64
	for k := 0; k <= m; k++ {
		e += refPMF(m, k, Q) * math.Min(1, float64(B)/float64(k+1))
	}
	return Q * e
}

// normSF is P(N(0, 1) > z).
func normSF(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

// hsRemove is H_(e^eps)(P || R), P = (1-q) N(0, s^2) + q N(1, s^2), R =
// N(0, s^2): the loss log(1-q + q e^((2x-1)/(2s^2))) increases in x and
// crosses eps at x*.
func hsRemove(q, s, eps float64) float64 {
	r := (math.Exp(eps) - (1 - q)) / q
	x := 0.5 + s*s*math.Log(r)
	return (1-q)*normSF(x/s) + q*normSF((x-1)/s) - math.Exp(eps)*normSF(x/s)
}

// hsAdd is H_(e^eps)(R || P), the reverse: the loss decreases in x and
// is above eps where e^((2x-1)/(2s^2)) < (e^-eps - (1-q))/q.
func hsAdd(q, s, eps float64) float64 {
	r := (math.Exp(-eps) - (1 - q)) / q
	if !(r > 0) {
		return 0
	}
	x := 0.5 + s*s*math.Log(r)
	cdf := func(z float64) float64 { return normSF(-z) }
	return cdf(x/s) - math.Exp(eps)*((1-q)*cdf(x/s)+q*cdf((x-1)/s))
}

// hsReplace is H_(e^eps)(P || R), P = (1-q) N(0, s^2) + q N(-1, s^2), R =
// (1-q) N(0, s^2) + q N(1, s^2): the loss decreases in x; x* by
// bisection.
func hsReplace(q, s, eps float64) float64 {
	phi := func(x, m float64) float64 { d := (x - m) / s; return math.Exp(-d * d / 2) }
	loss := func(x float64) float64 {
		return math.Log(((1-q)*phi(x, 0) + q*phi(x, -1)) / ((1-q)*phi(x, 0) + q*phi(x, 1)))
	}
	lo, hi := -1-40*s, 1+40*s
	for range 200 {
		mid := (lo + hi) / 2
		if loss(mid) > eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	x := (lo + hi) / 2
	cdf := func(z float64) float64 { return normSF(-z) }
	pc := (1-q)*cdf(x/s) + q*cdf((x+1)/s)
	rc := (1-q)*cdf(x/s) + q*cdf((x-1)/s)
	return pc - math.Exp(eps)*rc
}

// tsgTol is the slack for the reference's own rounding (Lgamma, Erfc,
// the cancellation in the divergences); widthTol is Delta's default
// width 1e-3 with room.
const (
	tsgTol   = 1e-9
	widthTol = 2e-3
)

// checkAround checks that iv's end holds ref (lo at or below it when
// lower, else hi at or above it) and is within widthTol of it.
func checkAround(t *testing.T, what string, iv Interval, lower bool, ref float64) {
	t.Helper()
	if lower {
		if !(iv.Lo <= ref*(1+tsgTol)) || iv.Lo < ref*(1-widthTol) {
			t.Errorf("%s: Lo = %.10g, want at most and within %g of %.10g", what, iv.Lo, widthTol, ref)
		}
		return
	}
	if !(iv.Hi >= ref*(1-tsgTol)) || iv.Hi > ref*(1+widthTol) {
		t.Errorf("%s: Hi = %.10g, want at least and within %g of %.10g", what, iv.Hi, widthTol, ref)
	}
}

// TestTSGOneStepAgainstDivergence checks one step's interval against the
// hockey-stick divergences written out above: the upper end against
// dp_accounting's mixture t H(replace-one SGM of rate q2, sigma/2) + (1-t)
// H(the SGM of rate Q) (the larger direction under AddOrRemoveOne), the
// lower end against the instance, an SGM of rate q' (N others under
// AddOrRemoveOne, N-1 under ReplaceOne and ReplaceSpecial, whose upper
// pair is AddOrRemoveOne's).
func TestTSGOneStepAgainstDivergence(t *testing.T) {
	type tc struct {
		N, B      int
		Q, S, eps float64
		rel       Relation
		short     bool
	}
	cases := []tc{
		{1000, 40, 0.05, 1, 1, ReplaceOne, true},
		{1000, 40, 0.05, 1, 1, AddOrRemoveOne, false},
		{200, 12, 0.05, 2, 0.5, AddOrRemoveOne, false},
		{200, 12, 0.05, 2, 0.5, ReplaceOne, false},
		{200, 12, 0.05, 2, 0.5, ReplaceSpecial, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue // the full run adds the other relation, a looser batch and a second sigma
		}
		e := TruncatedSampledGaussian{int64(c.N), c.Q, int64(c.B), c.S}
		iv, err := Delta(context.Background(), Composition{Relation: c.rel, Terms: []Term{{e, 1}}}, c.eps)
		if err != nil {
			t.Fatalf("%v %v: %v", e, c.rel, err)
		}
		tr, q2 := refTruncation(c.N, c.B, c.Q)
		m := c.N - 1
		var up, lo float64
		if c.rel == ReplaceOne {
			up = tr*hsReplace(q2, c.S/2, c.eps) + (1-tr)*hsReplace(c.Q, c.S, c.eps)
			lo = hsReplace(refRate(m, c.B, c.Q), c.S, c.eps)
		} else {
			if c.rel == AddOrRemoveOne {
				m = c.N // the N+1 reading: the smaller rate
			}
			repl := tr * hsReplace(q2, c.S/2, c.eps)
			up = math.Max(repl+(1-tr)*hsRemove(c.Q, c.S, c.eps), repl+(1-tr)*hsAdd(c.Q, c.S, c.eps))
			qi := refRate(m, c.B, c.Q)
			lo = math.Max(hsRemove(qi, c.S, c.eps), hsAdd(qi, c.S, c.eps))
		}
		t.Logf("%v %v eps %g: t = %.12g, q2 = %.12g, q' = %.12g; [%.10g, %.10g] against [%.10g, %.10g]",
			e, c.rel, c.eps, tr, q2, refRate(m, c.B, c.Q), iv.Lo, iv.Hi, lo, up)
		checkAround(t, e.String()+" "+c.rel.String(), iv, false, up)
		checkAround(t, e.String()+" "+c.rel.String(), iv, true, lo)
	}
}

// TestTSGNoTruncationIsSGM: a batch that is never truncated (Batch >= N
// under ReplaceOne, whose datasets have N records; Batch > N under
// AddOrRemoveOne, where the larger dataset may have N+1) leaves the
// sampled Gaussian, exactly: the same interval, in one step and in a
// composition with other events.
func TestTSGNoTruncationIsSGM(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		rel   Relation
		batch int64
	}{{ReplaceOne, 50}, {AddOrRemoveOne, 51}} {
		if testing.Short() && c.rel != ReplaceOne {
			continue // the full run adds AddOrRemoveOne and the step alone
		}
		tsg := TruncatedSampledGaussian{50, 0.1, c.batch, 1.2}
		sgm := SampledGaussian{0.1, 1.2}
		for _, terms := range [][]Term{
			{{tsg, 1}},
			{{tsg, 3}, {Gaussian{4}, 2}},
		} {
			if testing.Short() && len(terms) == 1 {
				continue // the full run adds the step alone
			}
			other := append([]Term{{sgm, terms[0].Count}}, terms[1:]...)
			a, errA := Delta(ctx, Composition{Relation: c.rel, Terms: terms}, 0.5)
			b, errB := Delta(ctx, Composition{Relation: c.rel, Terms: other}, 0.5)
			same := a == b
			if len(terms) == 1 {
				// one SGM step alone has a closed form, which TSG's plan
				// does not use: its exact value must lie in TSG's interval
				same = a.Lo <= b.Lo && b.Hi <= a.Hi && a.RelWidth() <= 1e-3
			}
			if errA != nil || errB != nil || !same {
				t.Errorf("%v %v batch %d, %d terms: %v (%v), SGM %v (%v)", tsg, c.rel, c.batch, len(terms), a, errA, b, errB)
			}
		}
	}
}

// TestTSGBatchNUnderAddRemove: Batch = N under AddOrRemoveOne truncates
// only in the N+1 reading: the upper end is the SGM's, the lower the SGM
// at q' = Q - Q^(N+1)/(N+1) (E[min(1, N/(K+1))] = 1 - P(K = N)/(N+1),
// K ~ Binomial(N, Q)).
func TestTSGBatchNUnderAddRemove(t *testing.T) {
	ctx := context.Background()
	const N, Q, S, eps = 3, 0.5, 1.0, 0.5
	qi := Q - math.Pow(Q, N+1)/(N+1) // 0.484375
	iv, err := Delta(ctx, Composition{Terms: []Term{{TruncatedSampledGaussian{N, Q, N, S}, 1}}}, eps)
	if err != nil {
		t.Fatal(err)
	}
	checkAround(t, "upper", iv, false, math.Max(hsRemove(Q, S, eps), hsAdd(Q, S, eps)))
	checkAround(t, "lower", iv, true, math.Max(hsRemove(qi, S, eps), hsAdd(qi, S, eps)))
}

// TestTSGFullSampling: Q = 1 with truncation under ReplaceOne: t = 1 and
// q2 = q' = Batch/N (every record sampled, Batch kept of N), so the
// upper end is the replace-one SGM of rate Batch/N at sigma/2 and the
// lower end that at sigma.
func TestTSGFullSampling(t *testing.T) {
	const N, B, S, eps = 10, 3, 2.0, 1.0
	iv, err := Delta(context.Background(), Composition{Relation: ReplaceOne, Terms: []Term{{TruncatedSampledGaussian{N, 1, B, S}, 1}}}, eps)
	if err != nil {
		t.Fatal(err)
	}
	checkAround(t, "upper", iv, false, hsReplace(0.3, S/2, eps))
	checkAround(t, "lower", iv, true, hsReplace(0.3, S, eps))
}

// TestTSGNoNoise: at Sigma = 0 the upper pair is EpsilonDelta(0, m), m =
// t q2 + (1-t) Q = q' with N-1 others, and the lower the instance, whose
// delta is q' at every eps >= 0: under ReplaceOne both ends are q'
// (within the binomials' certified 2^-48), under AddOrRemoveOne the lower
// is q' with N others.
func TestTSGNoNoise(t *testing.T) {
	const N, B, Q = 1000, 40, 0.05
	tr, q2 := refTruncation(N, B, Q)
	m := tr*q2 + (1-tr)*Q
	if q := refRate(N-1, B, Q); math.Abs(m/q-1) > tsgTol {
		t.Fatalf("reference: t q2 + (1-t) Q = %.15g, q' = %.15g", m, q)
	}
	e := TruncatedSampledGaussian{N, Q, B, 0}
	for _, c := range []struct {
		rel    Relation
		lo, hi float64
	}{{ReplaceOne, m, m}, {AddOrRemoveOne, refRate(N, B, Q), m}} {
		for _, eps := range []float64{0, 0.7} {
			iv, err := Delta(context.Background(), Composition{Relation: c.rel, Terms: []Term{{e, 1}}}, eps)
			if err != nil {
				t.Fatalf("%v: %v", c.rel, err)
			}
			if !(iv.Lo <= c.lo*(1+tsgTol) && iv.Lo >= c.lo*(1-1e-12) && iv.Hi >= c.hi*(1-tsgTol) && iv.Hi <= c.hi*(1+1e-12)) {
				t.Errorf("%v eps %g: %v, want [%.15g, %.15g]", c.rel, eps, iv, c.lo, c.hi)
			}
		}
		// below its delta no eps will do, at both ends
		if iv, err := Epsilon(context.Background(), Composition{Relation: c.rel, Terms: []Term{{e, 2}}}, 1e-3); err != nil || iv.Lo != inf {
			t.Errorf("%v: Epsilon(1e-3) = %v, %v; want +Inf", c.rel, iv, err)
		}
	}
}

// TestTSGComposition: TSG composed with other events and with itself,
// under both relations: the interval holds the instance's composition
// (the same run with TSG replaced by an SGM of rate q', a lower bound on
// the class) from above, Epsilon answers too, and more steps cost more.
func TestTSGComposition(t *testing.T) {
	ctx := context.Background()
	const N, B, Q, S = 1000, 40, 0.05, 1.5
	e := TruncatedSampledGaussian{N, Q, B, S}
	for _, rel := range []Relation{ReplaceOne, AddOrRemoveOne} {
		if testing.Short() && rel == AddOrRemoveOne {
			continue // the full run has both relations
		}
		m := N - 1
		if rel == AddOrRemoveOne {
			m = N
		}
		inst := SampledGaussian{refRate(m, B, Q) * (1 - tsgTol), S}
		counts := []int64{1, 2}
		if testing.Short() {
			counts = counts[:1] // the full run adds a second count
		}
		prev := 0.0
		for _, n := range counts {
			run := Composition{Relation: rel, Terms: []Term{{e, n}, {Gaussian{8}, 2}}}
			iv, err := Delta(ctx, run, 1)
			if err != nil {
				t.Fatalf("%v x%d: %v", rel, n, err)
			}
			low, err := Delta(ctx, Composition{Relation: rel, Terms: []Term{{inst, n}, {Gaussian{8}, 2}}}, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !(iv.Hi >= low.Lo && iv.Lo >= low.Lo*(1-widthTol) && iv.Lo <= iv.Hi && iv.Lo > prev) {
				t.Errorf("%v x%d: %v, the instance %v, the previous count's Lo %g", rel, n, iv, low, prev)
			}
			prev = iv.Lo
			if testing.Short() || n > 1 || rel != AddOrRemoveOne {
				continue // the full run inverts one count in both directions
			}
			ep, err := Epsilon(ctx, run, 1e-5)
			if err != nil || !(ep.Lo > 0 && ep.Lo <= ep.Hi && ep.Hi < inf) {
				t.Errorf("%v x%d: Epsilon(1e-5) = %v, %v", rel, n, ep, err)
			}
		}
	}
}

// TestTSGBadParameters: every bad parameter is an *InputError naming the
// event (never a panic, a NaN or a value), and ReplaceSpecial and the
// no-op cases answer as dp_accounting does.
func TestTSGBadParameters(t *testing.T) {
	ctx := context.Background()
	for _, e := range []TruncatedSampledGaussian{
		{0, 0.1, 10, 1}, {-5, 0.1, 10, 1}, {math.MaxInt64, 0.1, 10, 1}, {1 << 62, 0.1, 10, 1},
		{100, math.NaN(), 10, 1}, {100, -0.1, 10, 1}, {100, 1.5, 10, 1}, {100, math.Inf(1), 10, 1},
		{100, 0.1, -1, 1},
		{100, 0.1, 10, math.NaN()}, {100, 0.1, 10, -1}, {100, 0.1, 10, math.Inf(1)},
	} {
		for _, rel := range []Relation{AddOrRemoveOne, ReplaceOne} {
			c := Composition{Relation: rel, Terms: []Term{{e, 1}}}
			iv, err := Delta(ctx, c, 1)
			var ie *InputError
			if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Func != e.String() {
				t.Errorf("Delta(%v, %v) = %v, %v; want an *InputError naming the event", e, rel, iv, err)
			}
			if _, err := Epsilon(ctx, c, 1e-5); !errors.Is(err, ErrInput) {
				t.Errorf("Epsilon(%v, %v): %v; want ErrInput", e, rel, err)
			}
		}
	}
	// no-ops: Q = 0 or Batch = 0
	for _, e := range []TruncatedSampledGaussian{{100, 0, 10, 1}, {100, 0.1, 0, 1}, {100, 0, 0, 0}} {
		if iv, err := Delta(ctx, Composition{Terms: []Term{{e, 7}}}, 0); err != nil || iv != (Interval{0, 0}) {
			t.Errorf("%v: %v, %v; want [0, 0]", e, iv, err)
		}
	}
}

// TestInfMassAllAtInf: a step whose upper measure has all its mass at
// +Inf (TSG at Sigma = 0, Q = 1, Batch = N under AddOrRemoveOne, whose
// upper pair is non-private) makes the upper plan's mass at +Inf exactly
// 1 from below too, so that Epsilon answers +Inf for delta within 4u of
// 1 at once instead of refining grids that cannot narrow.
func TestInfMassAllAtInf(t *testing.T) {
	c := Composition{Terms: []Term{{TruncatedSampledGaussian{100, 1, 100, 0}, 1}, {Gaussian{3}, 5}}}
	p, err := makePlan("Epsilon", c)
	if err != nil {
		t.Fatal(err)
	}
	up, _, ok := p.sides()
	if !ok {
		t.Fatal("the plan is not one-sided")
	}
	if m := up.infMass(0); m != (Interval{1, 1}) {
		t.Errorf("upper plan's mass at +Inf = [%.17g, %.17g], want [1, 1]", m.Lo, m.Hi)
	}
}
