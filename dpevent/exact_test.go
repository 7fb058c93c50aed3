package dpevent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/pld"
)

func exactOf(t *testing.T, js string, rel Relation) (*Exact, error) {
	t.Helper()
	f, err := Decode([]byte(js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return NewExact(f.Event, rel)
}

// Events of the tests, by the values written in them.
func gaussJS(s string) string {
	return `{"class_name": "GaussianDpEvent", "noise_multiplier": ` + s + `}`
}
func laplaceJS(b string) string {
	return `{"class_name": "LaplaceDpEvent", "noise_multiplier": ` + b + `}`
}
func selfJS(ev string, n string) string {
	return `{"class_name": "SelfComposedDpEvent", "count": ` + n + `, "event": ` + ev + `}`
}
func composedJS(evs ...string) string {
	return `{"class_name": "ComposedDpEvent", "events": [` + strings.Join(evs, ", ") + `]}`
}
func poissonJS(q, ev string) string {
	return `{"class_name": "PoissonSampledDpEvent", "sampling_probability": ` + q + `, "event": ` + ev + `}`
}

const (
	rrJS   = `{"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 4}`
	dlapJS = `{"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": 0.5, "sensitivity": 2}`
	mogJS  = `{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 2, "sensitivities": [0, -3, 1], "sampling_probs": [0.25, 0, 0.75]}`
	tsgJS  = `{"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1000, "sampling_probability": 0.01, "truncated_batch_size": 12, "noise_multiplier": 1}`
	expJS  = `{"class_name": "ExponentialMechanismDpEvent", "epsilon": 0.5}`
	pafJS  = `{"class_name": "PermuteAndFlipDpEvent", "epsilon": 0.5}`
	epsJS  = `{"class_name": "EpsilonDeltaDpEvent", "epsilon": 0.5, "delta": 1e-7}`
)

// TestExactMapping: each class becomes the pld event of the same
// mechanism with its parameters (dp_accounting's _maybe_compose in
// pld_privacy_accountant.py at b5b0286 for which, and how counts
// multiply), one term per distinct event with its places.
func TestExactMapping(t *testing.T) {
	type term struct {
		event  string
		count  int64
		places int
		path   string
	}
	for _, c := range []struct {
		name string
		in   string
		rel  Relation
		want []term
	}{
		{"Gaussian", gaussJS("2"), AddOrRemoveOne, []term{{"Gaussian(sigma=2)", 1, 1, "event"}}},
		{"Gaussian noise 0: non-private in pld's Gaussian", gaussJS("0"), ReplaceOne, []term{{"Gaussian(sigma=0)", 1, 1, "event"}}},
		// counts multiply down SelfComposed, add over places
		{"counts", composedJS(selfJS(selfJS(laplaceJS("3"), "4"), "6"), gaussJS("1"), selfJS(laplaceJS("3"), "7")), AddOrRemoveOne,
			[]term{{"Laplace(b=3)", 31, 2, "event.events[0].event.event"}, {"Gaussian(sigma=1)", 1, 1, "event.events[1]"}}},
		{"count 0", selfJS(gaussJS("1"), "0"), AddOrRemoveOne, []term{{"Gaussian(sigma=1)", 0, 1, "event.event"}}},
		{"NoOp", `{"class_name": "NoOpDpEvent"}`, AddOrRemoveOne, nil},
		{"NonPrivate", selfJS(`{"class_name": "NonPrivateDpEvent"}`, "3"), ReplaceSpecial, []term{{"NonPrivate", 3, 1, "event.event"}}},
		{"EpsilonDelta", epsJS, ReplaceOne, []term{{"EpsilonDelta(epsilon=0.5, delta=1e-07)", 1, 1, "event"}}},
		{"RR replace-one", rrJS, ReplaceOne, []term{{"RandomizedResponse(noise=0.5, buckets=4)", 1, 1, "event"}}},
		{"RR replace-special", selfJS(rrJS, "10"), ReplaceSpecial, []term{{"RandomizedResponse(noise=0.5, buckets=4)", 10, 1, "event.event"}}},
		{"RR one bucket", `{"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0, "num_buckets": 1}`, ReplaceOne,
			[]term{{"RandomizedResponse(noise=0, buckets=1)", 1, 1, "event"}}},
		{"Laplace", laplaceJS("10"), ReplaceSpecial, []term{{"Laplace(b=10)", 1, 1, "event"}}},
		{"DiscreteLaplace", dlapJS, AddOrRemoveOne, []term{{"DiscreteLaplace(param=0.5, sensitivity=2)", 1, 1, "event"}}},
		// the entry of probability 0 is dropped first, as dp_accounting does
		{"MixtureOfGaussians", mogJS, ReplaceSpecial, []term{{"MixtureOfGaussians(sigma=2, sensitivities=[0 1], probs=[0.25 0.75])", 1, 1, "event"}}},
		{"ExponentialMechanism", expJS, ReplaceOne, []term{{"ExponentialMechanism(epsilon=0.5)", 1, 1, "event"}}},
		{"PermuteAndFlip", pafJS, AddOrRemoveOne, []term{{"PermuteAndFlip(epsilon=0.5)", 1, 1, "event"}}},
		{"Poisson Gaussian", selfJS(poissonJS("0.01", gaussJS("1")), "100"), ReplaceOne, []term{{"SampledGaussian(q=0.01, sigma=1)", 100, 1, "event.event"}}},
		{"Poisson Laplace", poissonJS("0.1", laplaceJS("2")), AddOrRemoveOne, []term{{"SampledLaplace(q=0.1, b=2)", 1, 1, "event"}}},
		// 4 Gaussians of noise 2 on one coin: (4/4)^(-1/2) = 1, exactly
		{"Poisson of a Gaussian structure", poissonJS("0.01", selfJS(gaussJS("2"), "4")), AddOrRemoveOne, []term{{"SampledGaussian(q=0.01, sigma=1)", 1, 1, "event"}}},
		{"Poisson of a Gaussian structure with noise 0", poissonJS("0.01", composedJS(gaussJS("2"), gaussJS("0"))), AddOrRemoveOne, []term{{"SampledGaussian(q=0.01, sigma=0)", 1, 1, "event"}}},
		{"TruncatedSubsampledGaussian", tsgJS, ReplaceOne, []term{{"TruncatedSampledGaussian(n=1000, q=0.01, batch=12, sigma=1)", 1, 1, "event"}}},
		{"TruncatedSubsampledGaussian never sampled", `{"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1000, "sampling_probability": 0, "truncated_batch_size": 12, "noise_multiplier": 1}`, AddOrRemoveOne, nil},
		{"TruncatedSubsampledGaussian batch 0", `{"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1000, "sampling_probability": 0.5, "truncated_batch_size": 0, "noise_multiplier": 1}`, AddOrRemoveOne, nil},
		{"TruncatedSubsampledGaussian no records", `{"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 0, "sampling_probability": 0.5, "truncated_batch_size": 3, "noise_multiplier": 1}`, AddOrRemoveOne, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := exactOf(t, c.in, c.rel)
			if err != nil {
				t.Fatal(err)
			}
			var got []term
			for _, tm := range x.Terms() {
				if tm.Lower != nil {
					t.Errorf("%s: a lower event %v", tm.Path, tm.Lower)
				}
				got = append(got, term{tm.Event.String(), tm.Count, tm.Places, tm.Path})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("terms\n got %v\nwant %v", got, c.want)
			}
			comp := x.Composition()
			if want := map[Relation]pld.Relation{AddOrRemoveOne: pld.AddOrRemoveOne, ReplaceOne: pld.ReplaceOne, ReplaceSpecial: pld.ReplaceSpecial}[c.rel]; comp.Relation != want || x.Relation() != want {
				t.Errorf("relation %v, want %v", comp.Relation, want)
			}
			if len(comp.Terms) != len(c.want) || x.Split() || !reflect.DeepEqual(x.LowerComposition(), comp) {
				t.Errorf("composition %v (lower %v)", comp, x.LowerComposition())
			}
			for i, tm := range comp.Terms {
				if tm.Event.String() != c.want[i].event || tm.Count != c.want[i].count {
					t.Errorf("composition term %d: %v x%d", i, tm.Event, tm.Count)
				}
			}
		})
	}
}

// TestExactNotes: the one-sided classes, the events of noise 0 that
// dp_accounting takes as non-private, and the effective noise between two
// float64 values each get a note naming the first place.
func TestExactNotes(t *testing.T) {
	for _, c := range []struct {
		in   string
		rel  Relation
		want []string
	}{
		{composedJS(expJS, expJS), ReplaceOne, []string{"event.events[0]: ExponentialMechanismDpEvent: its exact privacy loss distribution is not established: the interval's upper end is that of any epsilon-DP mechanism"}},
		{pafJS, ReplaceSpecial, []string{"event: PermuteAndFlipDpEvent: its exact privacy loss distribution is not established (dp_accounting composes the Laplace mechanism of scale 1/epsilon"}},
		{tsgJS, AddOrRemoveOne, []string{"event: TruncatedSubsampledGaussianDpEvent: its exact privacy loss distribution is not established: the interval's upper end is dp_accounting's construction"}},
		{poissonJS("0.5", gaussJS("0")), AddOrRemoveOne, []string{"event: PoissonSampledDpEvent has no noise: dp_accounting's PLD accountant takes it as non-private"}},
		{poissonJS("0.5", laplaceJS("0")), ReplaceSpecial, []string{"event: PoissonSampledDpEvent has no noise"}},
		{`{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 0, "sensitivities": [0, 1], "sampling_probs": [0.5, 0.5]}`, AddOrRemoveOne,
			[]string{"event: MixtureOfGaussiansDpEvent has no noise"}},
		{poissonJS("0.5", composedJS(gaussJS("1"), gaussJS("1"))), AddOrRemoveOne,
			[]string{"event: PoissonSampledDpEvent: the effective noise multiplier of its Gaussians, (sum count/sigma^2)^(-1/2), lies between the float64 values 0.7071067811865475 and 0.7071067811865476"}},
		// q = 1: seen every time, so non-private in pld as in dp_accounting
		{poissonJS("1", gaussJS("0")), AddOrRemoveOne, nil},
		{gaussJS("0"), AddOrRemoveOne, nil},
		{gaussJS("1"), AddOrRemoveOne, nil},
	} {
		x, err := exactOf(t, c.in, c.rel)
		if err != nil {
			t.Fatal(err)
		}
		notes := x.Notes()
		ok := len(notes) == len(c.want)
		for i := 0; ok && i < len(notes); i++ {
			ok = strings.HasPrefix(notes[i], c.want[i])
		}
		if !ok {
			t.Errorf("%s: notes\n%q\nwant prefixes\n%q", c.in, notes, c.want)
		}
	}
}

// TestExactRefusals: what dp_accounting's PLD accountant does not compose
// is refused naming the event's path and class and why, with ErrNoPLD
// (errors.Is pld.ErrUnsupported and rdpcheck.ErrInput); parameters outside
// pld's domain as rdpcheck.ErrInput naming the field; counts above 2^40 as
// rdpcheck.ErrTooLarge. The relation refusals follow _maybe_compose: under a
// SelfComposedDpEvent of count 0 too.
func TestExactRefusals(t *testing.T) {
	noPLD := []error{ErrNoPLD, pld.ErrUnsupported, rdpcheck.ErrInput}
	input := []error{rdpcheck.ErrInput}
	tooLarge := []error{rdpcheck.ErrTooLarge}
	for _, c := range []struct {
		in   string
		rel  Relation
		want string
		is   []error
	}{
		// relations
		{composedJS(gaussJS("1"), rrJS), AddOrRemoveOne,
			"event.events[1]: RandomizedResponseDpEvent: no privacy loss distribution under ADD_OR_REMOVE_ONE: dp_accounting's PLD accountant takes it under REPLACE_ONE or REPLACE_SPECIAL only", noPLD},
		{selfJS(`{"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 1}`, "0"), AddOrRemoveOne,
			"event.event: RandomizedResponseDpEvent: no privacy loss distribution under ADD_OR_REMOVE_ONE", noPLD},
		{laplaceJS("1"), ReplaceOne,
			"event: LaplaceDpEvent: no privacy loss distribution under REPLACE_ONE: dp_accounting's PLD accountant takes it under ADD_OR_REMOVE_ONE or REPLACE_SPECIAL only", noPLD},
		{dlapJS, ReplaceOne, "event: DiscreteLaplaceDpEvent: no privacy loss distribution under REPLACE_ONE", noPLD},
		{mogJS, ReplaceOne, "event: MixtureOfGaussiansDpEvent: no privacy loss distribution under REPLACE_ONE", noPLD},
		{pafJS, ReplaceOne, "event: PermuteAndFlipDpEvent: no privacy loss distribution under REPLACE_ONE", noPLD},
		{poissonJS("0", laplaceJS("1")), ReplaceOne,
			"event: PoissonSampledDpEvent of a LaplaceDpEvent: no privacy loss distribution under REPLACE_ONE: dp_accounting's PLD accountant takes it under ADD_OR_REMOVE_ONE or REPLACE_SPECIAL only", noPLD},
		// classes
		{composedJS(gaussJS("1"), `{"class_name": "ZCDpEvent", "rho": 0.1}`), AddOrRemoveOne,
			`event.events[1]: ZCDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): a zCDP guarantee bounds Rényi divergences, which do not determine a privacy loss distribution`, noPLD},
		{`{"class_name": "DiscreteGaussianDpEvent", "sigma": 1}`, AddOrRemoveOne,
			`event: DiscreteGaussianDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): package pld has no discrete Gaussian`, noPLD},
		{`{"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 100, "sample_size": 10, "event": ` + gaussJS("1") + `}`, ReplaceOne,
			`event: SampledWithoutReplacementDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): package pld has no dominating pair for sampling without replacement`, noPLD},
		{`{"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 1, "step_counts": [10]}`, ReplaceSpecial,
			`event: SingleEpochTreeAggregationDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): package pld has no tree aggregation`, noPLD},
		{`{"class_name": "RepeatAndSelectDpEvent", "event": ` + gaussJS("1") + `, "mean": 2, "shape": 1}`, AddOrRemoveOne,
			`event: RepeatAndSelectDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): the privacy loss distribution of repeat-and-select is not established`, noPLD},
		{`{"class_name": "UnsupportedDpEvent"}`, AddOrRemoveOne,
			`event: UnsupportedDpEvent: no privacy loss distribution (dp_accounting's PLD accountant refuses it: "Unsupported event."): no guarantee is known for it to account`, noPLD},
		// what Poisson sampling holds
		{poissonJS("0.1", `{"class_name": "ZCDpEvent", "rho": 0.1}`), AddOrRemoveOne,
			"event.event: ZCDpEvent under PoissonSampledDpEvent: no privacy loss distribution: dp_accounting's PLD accountant samples a GaussianDpEvent or a LaplaceDpEvent only (and rdpcheck also Composed and SelfComposed structures of Gaussians, one Gaussian of noise (sum count/sigma^2)^(-1/2))", noPLD},
		{poissonJS("0.1", poissonJS("0.5", gaussJS("1"))), AddOrRemoveOne, "event.event: PoissonSampledDpEvent under PoissonSampledDpEvent: no privacy loss distribution", noPLD},
		{poissonJS("0.1", composedJS(gaussJS("1"), selfJS(laplaceJS("1"), "2"))), ReplaceSpecial, "event.event.events[1].event: LaplaceDpEvent under PoissonSampledDpEvent: no privacy loss distribution", noPLD},
		{poissonJS("0.1", composedJS(gaussJS("1"), `{"class_name": "NoOpDpEvent"}`)), ReplaceSpecial, "event.event.events[1]: NoOpDpEvent under PoissonSampledDpEvent: no privacy loss distribution", noPLD},
		{poissonJS("0.1", selfJS(gaussJS("1"), "0")), AddOrRemoveOne, "event.event.count: a SelfComposedDpEvent of count 0 under PoissonSampledDpEvent has no noise multiplier", input},
		{poissonJS("0.1", composedJS()), AddOrRemoveOne, "event.event.events: an empty ComposedDpEvent under PoissonSampledDpEvent has no noise multiplier", input},
		// parameters
		{`{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1, "sensitivities": [1, 2], "sampling_probs": [1]}`, AddOrRemoveOne,
			"event.sampling_probs: must be as long as sensitivities (2 entries), as in dp_accounting (has 1)", input},
		{`{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1, "sensitivities": [1, -2], "sampling_probs": [0.5, 0.5]}`, AddOrRemoveOne,
			"event.sensitivities[1]: must be >= 0 where its probability is not 0, as in dp_accounting (is -2)", input},
		{`{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1, "sensitivities": [1, 2], "sampling_probs": [0, 0]}`, AddOrRemoveOne,
			"event.sampling_probs: must have an entry above 0", input},
		{`{"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1, "sensitivities": [1, 2], "sampling_probs": [0.5, 0.5000000001]}`, AddOrRemoveOne,
			"event.sampling_probs: must sum to 1 within 1e-12, package pld's tolerance (they sum to 1.0000000001; dp_accounting takes 1e-9 relative)", input},
		{`{"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 0}`, ReplaceOne, "event.num_buckets: must be >= 1 (is 0)", input},
		// counts: 2^40 in all
		{selfJS(gaussJS("1"), "1099511627777"), AddOrRemoveOne,
			"event.event: GaussianDpEvent: the file composes more than 2^40 events (this one 1099511627777 times, 0 before it): package pld composes at most 2^40", tooLarge},
		{composedJS(selfJS(gaussJS("1"), "1099511627776"), laplaceJS("1")), AddOrRemoveOne,
			"event.events[1]: LaplaceDpEvent: the file composes more than 2^40 events (this one 1 times, 1099511627776 before it)", tooLarge},
		{selfJS(selfJS(gaussJS("1"), "4096"), "4503599627370496"), AddOrRemoveOne,
			"event.event.count: the count 4096 times the 4503599627370496 above it is more than 2^53 = 9007199254740992", input},
	} {
		x, err := exactOf(t, c.in, c.rel)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s (%v):\n err = %v\nwant %s...", c.in, c.rel, err, c.want)
			continue
		}
		if x != nil {
			t.Errorf("%s: an Exact with the error", c.in)
		}
		for _, k := range c.is {
			if !errors.Is(err, k) {
				t.Errorf("%s: %v is not %v", c.in, err, k)
			}
		}
		if errors.Is(err, ErrNoPLD) != (len(c.is) == 3) {
			t.Errorf("%s: errors.Is(ErrNoPLD) = %v", c.in, errors.Is(err, ErrNoPLD))
		}
	}
}

// TestExactEverySupportedClass: every class the table reads is either
// mapped by NewExact or refused with ErrNoPLD (no class falls through).
func TestExactEverySupportedClass(t *testing.T) {
	mapped := map[string]string{
		"NoOpDpEvent": `{"class_name": "NoOpDpEvent"}`, "NonPrivateDpEvent": `{"class_name": "NonPrivateDpEvent"}`,
		"SelfComposedDpEvent": selfJS(gaussJS("1"), "2"), "ComposedDpEvent": composedJS(gaussJS("1")),
		"EpsilonDeltaDpEvent": epsJS, "RandomizedResponseDpEvent": rrJS, "GaussianDpEvent": gaussJS("1"),
		"LaplaceDpEvent": laplaceJS("1"), "DiscreteLaplaceDpEvent": dlapJS, "MixtureOfGaussiansDpEvent": mogJS,
		"ExponentialMechanismDpEvent": expJS, "PermuteAndFlipDpEvent": pafJS, "PoissonSampledDpEvent": poissonJS("0.1", gaussJS("1")),
		"TruncatedSubsampledGaussianDpEvent": tsgJS,
	}
	for _, c := range ClassNames() {
		if js, ok := mapped[c]; ok {
			if _, err := exactOf(t, js, ReplaceSpecial); err != nil {
				t.Errorf("%s: %v", c, err)
			}
			continue
		}
		if _, ok := noPLDWhy[c]; !ok {
			t.Errorf("%s: neither mapped nor given a reason to refuse", c)
		}
	}
}

// exactS is S = sum count/sigma^2 of a structure of Gaussians, exactly.
type gaussLeaf struct {
	sigma float64
	count int64
}

func exactS(leaves []gaussLeaf) *big.Rat {
	s := new(big.Rat)
	for _, l := range leaves {
		r := new(big.Rat).SetFloat64(l.sigma)
		r.Mul(r, r)
		s.Add(s, new(big.Rat).Quo(new(big.Rat).SetInt64(l.count), r))
	}
	return s
}

// TestEffectiveSigma: a Poisson-sampled structure of Gaussians is one
// Gaussian of noise sigma = S^(-1/2), S = sum count/sigma_i^2 (Dong, Roth,
// Su 2019, Sec. 3). Its error bound, checked in exact rational arithmetic
// (independent of the big.Float bounds NewExact takes): the upper end's
// sigma is at or below the true one, the lower end's at or above it, and
// they are one float64 apart (or the same, when sigma is a float64 and S
// exact).
func TestEffectiveSigma(t *testing.T) {
	for _, c := range []struct {
		js     string
		leaves []gaussLeaf
		exact  bool
	}{
		{selfJS(gaussJS("2"), "4"), []gaussLeaf{{2, 4}}, true},
		{composedJS(gaussJS("1"), gaussJS("1")), []gaussLeaf{{1, 1}, {1, 1}}, false},
		{selfJS(gaussJS("1.1"), "3"), []gaussLeaf{{1.1, 3}}, false},
		{composedJS(gaussJS("0.3"), selfJS(composedJS(gaussJS("7"), gaussJS("1e-3")), "1000"), gaussJS("1e200")),
			[]gaussLeaf{{0.3, 1}, {7, 1000}, {1e-3, 1000}, {1e200, 1}}, false},
		{selfJS(gaussJS("1e-300"), "9007199254740992"), []gaussLeaf{{1e-300, 1 << 53}}, false},
		{composedJS(gaussJS("1.7976931348623157e308"), gaussJS("1.7976931348623157e308")), []gaussLeaf{{math.MaxFloat64, 2}}, false},
		{selfJS(gaussJS("0.5"), "16"), []gaussLeaf{{0.5, 16}}, true},
	} {
		x, err := exactOf(t, poissonJS("0.01", c.js), AddOrRemoveOne)
		if err != nil {
			t.Fatal(err)
		}
		tm := x.Terms()[0]
		down := tm.Event.(pld.SampledGaussian).Sigma
		up := down
		if tm.Lower != nil {
			up = tm.Lower.(pld.SampledGaussian).Sigma
		}
		S := exactS(c.leaves)
		sq := func(v float64) *big.Rat { r := new(big.Rat).SetFloat64(v); return r.Mul(r, r) }
		one := big.NewRat(1, 1)
		// down <= sigma <=> down^2 S <= 1; up >= sigma <=> up^2 S >= 1
		if new(big.Rat).Mul(sq(down), S).Cmp(one) > 0 || new(big.Rat).Mul(sq(up), S).Cmp(one) < 0 {
			t.Errorf("%s: sigma in [%v, %v] is not around S^(-1/2), S = %s", c.js, down, up, S.FloatString(20))
		}
		if c.exact != (down == up) || c.exact != !x.Split() {
			t.Errorf("%s: down %v, up %v, split %v; exact %v", c.js, down, up, x.Split(), c.exact)
		}
		if down != up && math.Nextafter(down, math.Inf(1)) != up {
			t.Errorf("%s: sigma in [%v, %v]: more than one float64 apart", c.js, down, up)
		}
	}
}

// TestExactSplit: with an effective noise between two float64 values, the
// interval's lower end is LowerComposition's and its upper end
// Composition's, each computed by pld; progress names the side.
func TestExactSplit(t *testing.T) {
	// 10 steps at q = 0.1: one pld run is a fraction of a second (100
	// steps at q = 0.01 took 219 s for the four runs below, delta at eps 1
	// reaching the grid budget)
	x, err := exactOf(t, selfJS(poissonJS("0.1", composedJS(gaussJS("1"), gaussJS("1"))), "10"), AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	if !x.Split() {
		t.Fatal("not split")
	}
	ctx := context.Background()
	var mu sync.Mutex
	sides := map[string]bool{}
	// a fixed grid: the plumbing is tested, not pld's refinement
	o := pld.Options{H: 0x1p-8}
	got, err := x.Epsilon(ctx, 1e-5, pld.Options{H: o.H, Progress: func(m string) {
		mu.Lock()
		sides[m[:strings.Index(m, ":")]] = true
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	up, err := pld.Epsilon(ctx, x.Composition(), 1e-5, o)
	if err != nil {
		t.Fatal(err)
	}
	low, err := pld.Epsilon(ctx, x.LowerComposition(), 1e-5, o)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lo != low.Lo || got.Hi != up.Hi || !(got.Lo <= got.Hi) {
		t.Errorf("interval %v, want [%v, %v]", got, low.Lo, up.Hi)
	}
	if !sides["upper end"] || !sides["lower end"] {
		t.Errorf("progress sides %v", sides)
	}
	// delta likewise
	d, err := x.Delta(ctx, 1, o)
	dUp, err2 := pld.Delta(ctx, x.Composition(), 1, o)
	dLow, err3 := pld.Delta(ctx, x.LowerComposition(), 1, o)
	if err != nil || err2 != nil || err3 != nil || d.Lo != dLow.Lo || d.Hi != dUp.Hi {
		t.Errorf("delta %v (%v), want [%v, %v] (%v, %v)", d, err, dLow.Lo, dUp.Hi, err2, err3)
	}
}

// TestExactErrorsNamed: an error of package pld about one event is told
// with that event's path and class; a cancelled context's error is kept.
func TestExactErrorsNamed(t *testing.T) {
	x, err := exactOf(t, composedJS(gaussJS("1"), `{"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": 1, "sensitivity": 2000000}`), AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	_, err = x.Epsilon(context.Background(), 1e-5)
	want := "event.events[1]: DiscreteLaplaceDpEvent: DiscreteLaplace(param=1, sensitivity=2000000): "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, pld.ErrTooLarge) {
		t.Errorf("err = %v\nwant %s... (pld.ErrTooLarge)", err, want)
	}
	x, err = exactOf(t, poissonJS("0.01", gaussJS("1")), AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Delta(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestExactAliasing: an Exact keeps nothing of the caller's and gives out
// copies: changing what Terms or Composition returned changes nothing.
func TestExactAliasing(t *testing.T) {
	x, err := exactOf(t, mogJS, AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(x.Composition())
	x.Terms()[0].Event.(pld.MixtureOfGaussians).Probs[0] = 7
	x.Composition().Terms[0].Event.(pld.MixtureOfGaussians).Sensitivities[1] = 9
	x.Composition().Terms[0].Count = 5
	x.Notes()
	if after := fmt.Sprint(x.Composition()); after != before {
		t.Errorf("changed: %s, was %s", after, before)
	}
}

// phi is the standard normal CDF.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// gaussDelta is the optimal delta(eps) of the Gaussian mechanism of
// mu = sensitivity/sigma (Balle, Wang 2018, Thm. 8), for every real eps.
func gaussDelta(mu, eps float64) float64 {
	return phi(-eps/mu+mu/2) - math.Exp(eps)*phi(-eps/mu-mu/2)
}

// laplaceDelta is the optimal delta(eps) of Lap(0, b) against Lap(1, b),
// for every real eps: 1 - e^((eps - 1/b)/2) for |eps| < 1/b (the loss
// (|x-1| - |x|)/b exceeds eps for x < (1 - eps b)/2), 0 above, 1 - e^eps
// below.
func laplaceDelta(b, eps float64) float64 {
	switch {
	case eps >= 1/b:
		return 0
	case eps <= -1/b:
		return -math.Expm1(eps)
	}
	return -math.Expm1((eps - 1/b) / 2)
}

// productDelta is the hockey-stick divergence at e^eps of P x M against
// Q x M' for a finite pair (P, Q) = (a, b) and a mechanism whose pair has
// the profile m: sum over the outcomes o of a_o m(eps - log(a_o/b_o))
// (a_o where b_o = 0).
func productDelta(a, b []float64, m func(float64) float64, eps float64) float64 {
	var d float64
	for o := range a {
		switch {
		case a[o] == 0:
		case b[o] == 0:
			d += a[o]
		default:
			d += a[o] * m(eps-math.Log(a[o]/b[o]))
		}
	}
	return d
}

// checkDeltaInterval checks a certified delta interval at eps against the
// closed form want: Lo <= want <= Hi (1e-12 relative for the float64
// evaluation of want), and the width pld is asked for (1e-3).
func checkDeltaInterval(t *testing.T, name string, iv pld.Interval, want float64) {
	t.Helper()
	if !(iv.Lo <= want*(1+1e-12) && want*(1-1e-12) <= iv.Hi) || iv.RelWidth() > 1e-3 {
		t.Errorf("%s: delta %v, closed form %.17g", name, iv, want)
	}
}

// checkEpsInterval checks a certified eps interval at delta against the
// closed form profile m (decreasing): m(Hi) <= delta <= m(Lo), 1e-9
// relative, and width 1e-3.
func checkEpsInterval(t *testing.T, name string, iv pld.Interval, delta float64, m func(float64) float64) {
	t.Helper()
	if !(m(iv.Hi) <= delta*(1+1e-9) && delta*(1-1e-9) <= m(iv.Lo)) || iv.RelWidth() > 1e-3 {
		t.Errorf("%s: eps %v at delta %g: the closed form gives delta %.6g at Lo, %.6g at Hi", name, iv, delta, m(iv.Lo), m(iv.Hi))
	}
}

// TestExactClosedForms: the certified intervals of event files whose
// optimal profile has a closed form contain it. The forms, each from its
// source above: Gaussian structures (mu^2 = sum count/sigma^2, doubled
// sensitivity under REPLACE_ONE), one Laplace, one randomized response
// (REPLACE_ONE: the true bucket's 1-p+p/k against p/k), and an
// (epsilon, delta) event with a Gaussian or a Laplace with a randomized
// response (productDelta over the finite pair; under REPLACE_SPECIAL the
// larger of the two directions).
func TestExactClosedForms(t *testing.T) {
	ctx := context.Background()
	edPair := func(e0, d0 float64) (a, b []float64) {
		w := (1 - d0) / (1 + math.Exp(e0))
		return []float64{d0, w * math.Exp(e0), w, 0}, []float64{0, w, w * math.Exp(e0), d0}
	}
	// randomized response, noise 0.5, 4 buckets, under REPLACE_SPECIAL:
	// the law on the true bucket against the uniform one
	rrP, rrU := []float64{0.625, 0.125, 0.125, 0.125}, []float64{0.25, 0.25, 0.25, 0.25}
	lap2 := func(e float64) float64 { return laplaceDelta(2, e) }
	for _, c := range []struct {
		name string
		js   string
		rel  Relation
		m    func(eps float64) float64
	}{
		// counts multiply: 4 x 4 Gaussians of noise 2, mu = sqrt(16)/2 = 2
		{"SelfComposed Gaussians", selfJS(selfJS(gaussJS("2"), "4"), "4"), AddOrRemoveOne, func(e float64) float64 { return gaussDelta(2, e) }},
		{"SelfComposed Gaussians, REPLACE_ONE", selfJS(selfJS(gaussJS("2"), "4"), "4"), ReplaceOne, func(e float64) float64 { return gaussDelta(4, e) }},
		// 12/4 + 1 = 4: mu = 2 again, from two places
		{"Composed Gaussians", composedJS(selfJS(gaussJS("2"), "12"), gaussJS("1")), ReplaceSpecial, func(e float64) float64 { return gaussDelta(2, e) }},
		{"Laplace", laplaceJS("2"), AddOrRemoveOne, lap2},
		{"RandomizedResponse", rrJS, ReplaceOne, func(e float64) float64 { return math.Max(0.625-0.125*math.Exp(e), 0) }},
		{"EpsilonDelta and Gaussians", composedJS(`{"class_name": "EpsilonDeltaDpEvent", "epsilon": 0.5, "delta": 1e-3}`, selfJS(gaussJS("3"), "9")), AddOrRemoveOne,
			func(e float64) float64 {
				a, b := edPair(0.5, 1e-3)
				return productDelta(a, b, func(x float64) float64 { return gaussDelta(1, x) }, e)
			}},
		{"Laplace and RandomizedResponse", composedJS(rrJS, laplaceJS("2")), ReplaceSpecial,
			func(e float64) float64 {
				return math.Max(productDelta(rrP, rrU, lap2, e), productDelta(rrU, rrP, lap2, e))
			}},
	} {
		x, err := exactOf(t, c.js, c.rel)
		if err != nil {
			t.Fatal(c.name, err)
		}
		for _, eps := range []float64{0.25, 1} {
			iv, err := x.Delta(ctx, eps)
			if err != nil {
				t.Fatal(c.name, eps, iv, err)
			}
			checkDeltaInterval(t, fmt.Sprintf("%s at eps %g", c.name, eps), iv, c.m(eps))
		}
		iv, err := x.Epsilon(ctx, 0.15)
		if err != nil {
			t.Fatal(c.name, iv, err)
		}
		checkEpsInterval(t, c.name, iv, 0.15, c.m)
	}
}

// TestExactGaussianFile: a file of Gaussians gets pld.GaussianEpsilon's
// interval for the one Gaussian of the same mu (Dong, Roth, Su 2019,
// Cor. 2.7): 100 x 4 Gaussians of noise 20 in two places are one of
// noise 1 (400/400 = 1).
func TestExactGaussianFile(t *testing.T) {
	x, err := exactOf(t, composedJS(selfJS(selfJS(gaussJS("20"), "100"), "3"), selfJS(gaussJS("20"), "100")), AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	if got := x.Terms(); len(got) != 1 || got[0].Count != 400 || got[0].Places != 2 {
		t.Fatalf("terms %v", got)
	}
	got, err := x.Epsilon(context.Background(), 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pld.GaussianEpsilon(1, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	// both contain the optimal eps: they overlap, and each is within 1e-3
	if !(got.Lo <= want.Hi && want.Lo <= got.Hi) || got.RelWidth() > 1e-3 || want.RelWidth() > 1e-3 {
		t.Errorf("file: %v, GaussianEpsilon(1, 1, 1e-5): %v", got, want)
	}
	checkEpsInterval(t, "file", got, 1e-5, func(e float64) float64 { return gaussDelta(1, e) })
}

// TestExactPassesPLDRefusal: what package pld refuses for an event it
// knows (a TruncatedSampledGaussian, not certified on every branch) comes
// back naming the event's path and class, still ErrUnsupported; once pld
// certifies it, the interval is checked for sanity only (no value here
// depends on it).
func TestExactPassesPLDRefusal(t *testing.T) {
	x, err := exactOf(t, composedJS(gaussJS("1"), selfJS(tsgJS, "3")), AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := x.Epsilon(context.Background(), 1e-5)
	switch {
	case err == nil:
		if !(iv.Lo > 0 && iv.Lo <= iv.Hi) {
			t.Errorf("interval %v", iv)
		}
	case !strings.HasPrefix(err.Error(), "event.events[1].event: TruncatedSubsampledGaussianDpEvent: TruncatedSampledGaussian(n=1000, q=0.01, batch=12, sigma=1): ") ||
		!errors.Is(err, pld.ErrUnsupported) || strings.Contains(err.Error(), "pld"):
		t.Errorf("err = %v", err)
	default:
		t.Log(err)
	}
}

// An Exact is safe for concurrent use: its methods on several goroutines
// give one goroutine's answers (CI runs this under the race detector).
func TestExactConcurrent(t *testing.T) {
	ctx := context.Background()
	x, err := exactOf(t, composedJS(rrJS, laplaceJS("2")), ReplaceSpecial)
	if err != nil {
		t.Fatal(err)
	}
	answers := func() string {
		e, err := x.Epsilon(ctx, 0.15)
		d, err2 := x.Delta(ctx, 1)
		return fmt.Sprint(e, err, d, err2)
	}
	want := answers()
	got := make([]string, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = answers() })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d: %s, want %s", i, g, want)
		}
	}
}
