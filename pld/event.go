package pld

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// An Event is one mechanism whose privacy loss distribution pld knows: one
// of the types below, each named after dp_accounting's DpEvent class it
// stands for. Its parameters are plain numbers; Epsilon and Delta check
// them and refuse an event outside its domain with an *InputError that
// names the event.
//
// The set of Event types is closed: the interface has an unexported method.
type Event interface {
	fmt.Stringer
	// pair returns the event's dominating pair (one step) under rel: a
	// measure per direction (the second nil when the pair is symmetric),
	// or an error saying why rel is not supported.
	pair(rel Relation) (pairOf, error)
	// check returns "" for valid parameters, else what is wrong.
	check() error
}

// A Term is Count compositions of one Event.
type Term struct {
	Event Event
	Count int64
}

// A Composition is the run an accountant is asked about: its terms, in any
// order, composed under one neighbouring relation. The zero Relation is
// AddOrRemoveOne.
type Composition struct {
	Relation Relation
	Terms    []Term
}

// Relation is the neighbouring relation under which a composition is
// accounted, as dp_accounting's NeighboringRelation.
type Relation int

const (
	// AddOrRemoveOne: D' is D with one record added or removed. The
	// optimal delta(eps) is the larger of the two directions' (the same
	// record removed in every event, or added in every event).
	AddOrRemoveOne Relation = iota
	// ReplaceOne: D' is D with one record replaced by another.
	ReplaceOne
	// ReplaceSpecial: D' is D with one record replaced by a special
	// record that contributes nothing (dp_accounting's REPLACE_SPECIAL):
	// the same pairs as AddOrRemoveOne but for randomized response.
	ReplaceSpecial
)

func (r Relation) String() string {
	switch r {
	case AddOrRemoveOne:
		return "ADD_OR_REMOVE_ONE"
	case ReplaceOne:
		return "REPLACE_ONE"
	case ReplaceSpecial:
		return "REPLACE_SPECIAL"
	}
	return "Relation(" + strconv.Itoa(int(r)) + ")"
}

// MaxCount bounds a term's count and the total count of a composition
// (2^40): the cost grows with the logarithm of the count, but the counts
// are summed and multiplied in float64 with a bound that needs them small
// against 2^53.
const MaxCount = 1 << 40

// Gaussian is the Gaussian mechanism (dp_accounting's GaussianDpEvent):
// noise of standard deviation Sigma times the L2 sensitivity. Under
// AddOrRemoveOne and ReplaceSpecial its pair is N(0, Sigma^2) against
// N(1, Sigma^2); under ReplaceOne the sensitivity is 2 (N(-1, Sigma^2)
// against N(1, Sigma^2)), as in dp_accounting. Exact: the optimal profile
// of the composition is that of one Gaussian mechanism of
// mu = sqrt(sum count/Sigma^2) (Dong, Roth, Su 2019, Cor. 2.7), in closed
// form (Balle, Wang 2018, Thm. 8). Sigma = 0 is a non-private event.
type Gaussian struct{ Sigma float64 }

// SampledGaussian is Poisson sampling with probability Q followed by the
// Gaussian mechanism of noise multiplier Sigma (dp_accounting's
// PoissonSampledDpEvent of a GaussianDpEvent; DP-SGD's step). Under
// AddOrRemoveOne and ReplaceSpecial the dominating pair is
// (1-Q) N(0, Sigma^2) + Q N(1, Sigma^2) against N(0, Sigma^2) and the
// reverse (Zhu, Dong, Wang 2022, Thm. 11); under ReplaceOne it is
// (1-Q) N(0, Sigma^2) + Q N(-1, Sigma^2) against
// (1-Q) N(0, Sigma^2) + Q N(1, Sigma^2), as dp_accounting's REPLACE
// adjacency. Each pair is attained by a record whose clipped gradient has
// norm 1 while the others contribute 0, so the profile is the optimal one.
// Sigma = 0 leaves an atom: the record's presence is seen when it is
// sampled (delta = Q at every eps >= 0 in the remove direction).
type SampledGaussian struct{ Q, Sigma float64 }

// Laplace is the Laplace mechanism (dp_accounting's LaplaceDpEvent):
// noise of scale B times the L1 sensitivity; pair Lap(0, B) against
// Lap(1, B), symmetric. Supported under AddOrRemoveOne and ReplaceSpecial
// (dp_accounting refuses ReplaceOne). B = 0 is a non-private event.
type Laplace struct{ B float64 }

// SampledLaplace is Poisson sampling with probability Q followed by the
// Laplace mechanism of scale B (dp_accounting's PoissonSampledDpEvent of
// a LaplaceDpEvent): the pair (1-Q) Lap(0, B) + Q Lap(1, B) against
// Lap(0, B) and the reverse (Zhu, Dong, Wang 2022, Thm. 11), attained.
// AddOrRemoveOne and ReplaceSpecial.
type SampledLaplace struct{ Q, B float64 }

// DiscreteLaplace is the discrete Laplace mechanism (dp_accounting's
// DiscreteLaplaceDpEvent): integer noise with P(x) proportional to
// e^(-Param |x|), an integer query of sensitivity Sensitivity; pair
// DLap(0) against DLap(Sensitivity), symmetric, attained. AddOrRemoveOne
// and ReplaceSpecial.
type DiscreteLaplace struct {
	Param       float64
	Sensitivity int
}

// RandomizedResponse is k-ary randomized response (dp_accounting's
// RandomizedResponseDpEvent): with probability 1 - Noise it reports the
// true bucket of Buckets, else a uniformly random one. Under ReplaceOne
// the pair is the output law on bucket x against that on bucket x'
// (symmetric); under ReplaceSpecial, on bucket x against the uniform law
// of a special input (two directions), as dp_accounting. Both attained.
// AddOrRemoveOne is refused, as dp_accounting refuses it.
type RandomizedResponse struct {
	Noise   float64
	Buckets int
}

// EpsilonDelta is a mechanism known only to be (Epsilon, Delta)-DP
// (dp_accounting's EpsilonDeltaDpEvent). Its worst case is the pair that
// puts mass Delta where the other has none and splits the rest e^Epsilon
// to 1 (Kairouz, Oh, Viswanath 2015; Murtagh, Vadhan 2016): exact for the
// class, under every relation.
type EpsilonDelta struct{ Epsilon, Delta float64 }

// ExponentialMechanism is an Epsilon-DP exponential mechanism
// (dp_accounting's ExponentialMechanismDpEvent). Its exact worst-case
// privacy loss distribution is not established; the interval is one-sided
// in this sense: its upper end is that of any Epsilon-DP mechanism (as
// dp_accounting composes it), and its lower end is that of one exponential
// mechanism, two candidates whose utilities swap (losses +-Epsilon/2), so
// the optimal value for the class lies between. Every relation.
type ExponentialMechanism struct{ Epsilon float64 }

// PermuteAndFlip is the Epsilon-DP permute-and-flip mechanism (McKenna,
// Sheldon 2020; dp_accounting's PermuteAndFlipDpEvent). dp_accounting
// composes it as the Laplace mechanism of scale 1/Epsilon; that its
// privacy loss distribution is the Laplace one is not established in the
// literature this package cites, so its interval is one-sided like
// ExponentialMechanism's: the upper end is that of any Epsilon-DP
// mechanism, the lower end that of permute-and-flip on two candidates
// whose utilities swap (for two candidates it is the exponential
// mechanism's report-noisy-max with exponential noise: outputs the better
// one with probability 1 - e^(-Epsilon)/2). AddOrRemoveOne and
// ReplaceSpecial, as dp_accounting.
type PermuteAndFlip struct{ Epsilon float64 }

// MixtureOfGaussians is the mechanism that outputs N(0, Sigma^2) on D and
// sum_i Probs[i] N(Sensitivities[i], Sigma^2) on D' (dp_accounting's
// MixtureOfGaussiansDpEvent): its pair is given, so the profile is exact.
// The sensitivities must be >= 0 (the loss is then monotone) and the
// probabilities sum to 1 within 1e-12. AddOrRemoveOne and ReplaceSpecial.
// Epsilon and Delta copy the slices they are given.
type MixtureOfGaussians struct {
	Sigma         float64
	Sensitivities []float64
	Probs         []float64
}

// TruncatedSampledGaussian is Poisson sampling with probability Q from N
// records, the batch truncated to Batch records at random, then the
// Gaussian mechanism of noise multiplier Sigma (dp_accounting's
// TruncatedSubsampledGaussianDpEvent). Its exact privacy loss
// distribution is not established; the interval is one-sided: the upper
// end is dp_accounting's construction (a mixture, by the probability that
// truncation happens, of the sampled Gaussian and a sensitivity-2
// replace-one sampled Gaussian; Section 5.3 of dp_accounting's
// supplementary material), and the lower end is that of the instance in
// which the other records contribute 0, a sampled Gaussian whose rate is
// the probability that the record is in the truncated batch. The upper
// end is a bound, the lower end exact for that instance; without
// truncation the interval is the sampled Gaussian's, exact. As
// dp_accounting at commit b5b0286 of google/differential-privacy
// (dp_event.py and pld/pld_privacy_accountant.py, which composes it under
// ADD_OR_REMOVE_ONE and REPLACE_ONE); under ReplaceSpecial the pairs are
// AddOrRemoveOne's with N-1 others. Q = 0 or Batch = 0 is a no-op. The
// method is in tsg.go.
type TruncatedSampledGaussian struct {
	N     int64
	Q     float64
	Batch int64
	Sigma float64
}

// NonPrivate is an event with no guarantee (dp_accounting's
// NonPrivateDpEvent): delta(eps) = 1 at every eps, so eps(delta) = +Inf.
type NonPrivate struct{}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func (e Gaussian) String() string { return "Gaussian(sigma=" + fmtF(e.Sigma) + ")" }
func (e SampledGaussian) String() string {
	return "SampledGaussian(q=" + fmtF(e.Q) + ", sigma=" + fmtF(e.Sigma) + ")"
}
func (e Laplace) String() string { return "Laplace(b=" + fmtF(e.B) + ")" }
func (e SampledLaplace) String() string {
	return "SampledLaplace(q=" + fmtF(e.Q) + ", b=" + fmtF(e.B) + ")"
}
func (e DiscreteLaplace) String() string {
	return "DiscreteLaplace(param=" + fmtF(e.Param) + ", sensitivity=" + strconv.Itoa(e.Sensitivity) + ")"
}
func (e RandomizedResponse) String() string {
	return "RandomizedResponse(noise=" + fmtF(e.Noise) + ", buckets=" + strconv.Itoa(e.Buckets) + ")"
}
func (e EpsilonDelta) String() string {
	return "EpsilonDelta(epsilon=" + fmtF(e.Epsilon) + ", delta=" + fmtF(e.Delta) + ")"
}
func (e ExponentialMechanism) String() string {
	return "ExponentialMechanism(epsilon=" + fmtF(e.Epsilon) + ")"
}
func (e PermuteAndFlip) String() string { return "PermuteAndFlip(epsilon=" + fmtF(e.Epsilon) + ")" }
func (e MixtureOfGaussians) String() string {
	f := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmtF(x)
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	return "MixtureOfGaussians(sigma=" + fmtF(e.Sigma) + ", sensitivities=" + f(e.Sensitivities) + ", probs=" + f(e.Probs) + ")"
}
func (e TruncatedSampledGaussian) String() string {
	return "TruncatedSampledGaussian(n=" + strconv.FormatInt(e.N, 10) + ", q=" + fmtF(e.Q) +
		", batch=" + strconv.FormatInt(e.Batch, 10) + ", sigma=" + fmtF(e.Sigma) + ")"
}
func (NonPrivate) String() string { return "NonPrivate" }

// paramErr is an invalid parameter of an event.
func paramErr(e Event, arg string, v float64, msg string) error {
	return &InputError{Pkg: pkgName, Func: e.String(), Arg: arg, Value: v, Msg: msg}
}

// finiteNonNeg, prob: the parameter checks the events share.
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }
func prob(x float64) bool         { return x >= 0 && x <= 1 }

func (e Gaussian) check() error {
	if !finiteNonNeg(e.Sigma) {
		return paramErr(e, "sigma", e.Sigma, "must be finite and >= 0")
	}
	return nil
}

func (e SampledGaussian) check() error {
	if !prob(e.Q) {
		return paramErr(e, "q", e.Q, "must be in [0, 1]")
	}
	if !finiteNonNeg(e.Sigma) {
		return paramErr(e, "sigma", e.Sigma, "must be finite and >= 0")
	}
	return nil
}

func (e Laplace) check() error {
	if !finiteNonNeg(e.B) {
		return paramErr(e, "b", e.B, "must be finite and >= 0")
	}
	return nil
}

func (e SampledLaplace) check() error {
	if !prob(e.Q) {
		return paramErr(e, "q", e.Q, "must be in [0, 1]")
	}
	if !finiteNonNeg(e.B) {
		return paramErr(e, "b", e.B, "must be finite and >= 0")
	}
	return nil
}

func (e DiscreteLaplace) check() error {
	if !(e.Param > 0) || math.IsInf(e.Param, 1) {
		return paramErr(e, "param", e.Param, "must be finite and > 0")
	}
	if e.Sensitivity < 1 {
		return paramErr(e, "sensitivity", float64(e.Sensitivity), "must be >= 1")
	}
	return nil
}

func (e RandomizedResponse) check() error {
	if !prob(e.Noise) {
		return paramErr(e, "noise", e.Noise, "must be in [0, 1]")
	}
	if e.Buckets < 1 {
		return paramErr(e, "buckets", float64(e.Buckets), "must be >= 1")
	}
	return nil
}

func (e EpsilonDelta) check() error {
	if !finiteNonNeg(e.Epsilon) {
		return paramErr(e, "epsilon", e.Epsilon, "must be finite and >= 0")
	}
	if !(e.Delta >= 0 && e.Delta <= 1) {
		return paramErr(e, "delta", e.Delta, "must be in [0, 1]")
	}
	return nil
}

func (e ExponentialMechanism) check() error {
	if !finiteNonNeg(e.Epsilon) {
		return paramErr(e, "epsilon", e.Epsilon, "must be finite and >= 0")
	}
	return nil
}

func (e PermuteAndFlip) check() error {
	if !finiteNonNeg(e.Epsilon) {
		return paramErr(e, "epsilon", e.Epsilon, "must be finite and >= 0")
	}
	return nil
}

func (e MixtureOfGaussians) check() error {
	if !finiteNonNeg(e.Sigma) {
		return paramErr(e, "sigma", e.Sigma, "must be finite and >= 0")
	}
	if len(e.Sensitivities) == 0 || len(e.Sensitivities) != len(e.Probs) {
		return paramErr(e, "sensitivities", float64(len(e.Sensitivities)), "must be non-empty and as long as probs")
	}
	var sum float64
	for i, s := range e.Sensitivities {
		if !finiteNonNeg(s) {
			return paramErr(e, fmt.Sprintf("sensitivities[%d]", i), s, "must be finite and >= 0")
		}
		if !prob(e.Probs[i]) {
			return paramErr(e, fmt.Sprintf("probs[%d]", i), e.Probs[i], "must be in [0, 1]")
		}
		sum += e.Probs[i]
	}
	if math.Abs(sum-1) > 1e-12 {
		return paramErr(e, "probs", sum, "must sum to 1 (within 1e-12)")
	}
	return nil
}

func (e TruncatedSampledGaussian) check() error {
	if e.N < 1 {
		return paramErr(e, "n", float64(e.N), "must be >= 1")
	}
	if !prob(e.Q) {
		return paramErr(e, "q", e.Q, "must be in [0, 1]")
	}
	if e.Batch < 0 {
		return paramErr(e, "batch", float64(e.Batch), "must be >= 0")
	}
	if !finiteNonNeg(e.Sigma) {
		return paramErr(e, "sigma", e.Sigma, "must be finite and >= 0")
	}
	return nil
}

func (NonPrivate) check() error { return nil }

// relErr is an event that a relation does not support.
func relErr(e Event, rel Relation, supported string) error {
	return &UnsupportedError{Event: e.String(), Msg: fmt.Sprintf("not supported under %v (supported: %s, as dp_accounting's PLD accountant)", rel, supported)}
}
