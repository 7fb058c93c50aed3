package dpevent

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck"
)

// The classes that only dp_accounting's PLDAccountant composes (its
// RdpAccountant answers "Unsupported event" for them): they are read with
// their fields as in dp_event.py of dp_accounting 0.6.0, accounted by
// NewExact, and refused by NewPlan with ErrNoRDP.

// ErrNoRDP is the error (wrapped, with the event's path and class) for an
// event that has no RDP accounting in rdpcheck, as in dp_accounting's
// RdpAccountant: NewExact accounts its privacy loss distribution.
// errors.Is(err, rdpcheck.ErrInput) holds for it too.
var ErrNoRDP error = &kindError{"no RDP accounting for this event", rdpcheck.ErrInput}

// noRDP is NewPlan's refusal of e.
func noRDP(e *Event, n int64, p *Plan) error {
	return &pathError{path: e.Path(), err: ErrNoRDP, msg: fmt.Sprintf(
		"%s: no RDP accounting (dp_accounting's RdpAccountant has none either); its privacy loss distribution is accounted by rdpcheck account -exact", e.Class)}
}

// dlaplaceParam is a discrete Laplace's noise_parameter: its mass
// e^(-a|x|) tanh(a/2) is a distribution only for a > 0 (dp_accounting's
// PLD accountant reads 0 as a non-private event; as a -> 0 the noise
// grows without bound).
func dlaplaceParam(v float64) string {
	if !(v > 0) || math.IsInf(v, 1) {
		return "must be finite and > 0 (the noise's mass e^(-a|x|) tanh(a/2) is no distribution at 0)"
	}
	return ""
}

func atLeastOne(v float64) string {
	if !(v >= 1) {
		return "must be >= 1"
	}
	return ""
}

func finite(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "must be finite"
	}
	return ""
}

func init() {
	for k, c := range map[string]class{
		// Integer noise of mass e^(-a|x|) tanh(a/2) (a: noise_parameter)
		// added to an integer query of l1-sensitivity sensitivity.
		"DiscreteLaplaceDpEvent": {
			fields:  []field{{name: "noise_parameter", check: dlaplaceParam}, {name: "sensitivity", kind: kindCount, check: atLeastOne}},
			account: noRDP,
		},
		// N(0, standard_deviation^2) on D against sum_i sampling_probs[i]
		// N(sensitivities[i], standard_deviation^2) on D'.
		"MixtureOfGaussiansDpEvent": {
			fields: []field{{name: "standard_deviation", check: nonNegative},
				{name: "sensitivities", kind: kindNumbers, check: finite},
				{name: "sampling_probs", kind: kindNumbers, check: probability}},
			account: noRDP,
		},
		// Poisson sampling with probability sampling_probability from
		// dataset_size records, the batch cut to truncated_batch_size at
		// random, then Gaussian noise of noise_multiplier.
		"TruncatedSubsampledGaussianDpEvent": {
			fields: []field{{name: "dataset_size", kind: kindCount}, {name: "sampling_probability", check: probability},
				{name: "truncated_batch_size", kind: kindCount}, {name: "noise_multiplier", check: nonNegative}},
			account: noRDP,
		},
	} {
		c.name = k
		classes[k] = c
	}
}
