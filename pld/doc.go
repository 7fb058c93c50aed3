// Package pld computes certified intervals [Lo, Hi] around the optimal
// (eps, delta) of a composition of privacy events: the floor under every
// accountant. Whatever its method (RDP, PLD, PRV, GDP), an accountant
// that reports an eps below Lo for a run is unsound for that run.
//
// # What to call
//
// Describe the run as a Composition: its Terms (an Event and how many
// times it runs, in any order) and the neighbouring Relation. Then
//
//	Epsilon(ctx, c, delta)  // the optimal eps(delta) = inf{eps >= 0 : delta(eps) <= delta}
//	Delta(ctx, c, eps)      // the optimal delta(eps) = sup H_(e^eps)(M(D) || M(D'))
//
// each return an Interval that contains the optimal value. The Events are
// the mechanisms dp_accounting's PLD accountant composes: Gaussian,
// SampledGaussian (DP-SGD's step), Laplace, SampledLaplace,
// DiscreteLaplace, RandomizedResponse, EpsilonDelta, ExponentialMechanism,
// PermuteAndFlip, MixtureOfGaussians, TruncatedSampledGaussian and
// NonPrivate, each documented with its dominating pair and the paper that
// establishes it. Where the exact privacy loss distribution of an event's
// class is not established (ExponentialMechanism, PermuteAndFlip,
// TruncatedSampledGaussian) the interval's ends come from different pairs
// and its doc says which.
//
// Shorter forms for the common runs: SGMEpsilon and SGMDelta (phases of
// DP-SGD), GaussianEpsilon, LaplaceEpsilon, RREpsilon and their Delta
// forms.
//
// # Precision, budget and errors
//
// The grid is refined until the interval is within Options.Width relative
// (default 1e-3). When the budget (Options.MaxGrid) or the finest grid
// stops it first, the wider interval is returned, still certified, with an
// error wrapping ErrPrecision; a run too large for the budget at all is
// ErrTooLarge; an invalid argument is an *InputError (errors.Is ErrInput)
// that names the event; an event or relation pld does not know is an
// *UnsupportedError (ErrUnsupported). A cancelled ctx stops the
// computation and its error is returned. Every function is safe for
// concurrent use; the Events are values, and a MixtureOfGaussians' slices
// are read, not kept.
//
// How the intervals are computed, and why they hold, is in method.go.
package pld
