// Package fast is rdpcheck's float64 privacy accountant: Rényi
// differential privacy (RDP) of the Poisson-subsampled Gaussian mechanism
// and of the classic mechanisms, composition, conversion to (eps, delta),
// and calibration, at float64 speed with a proven error bound on every
// value.
//
// The functions it shares with the high-precision package reference have
// the same names and argument order, with float64 results; the vocabulary
// (Conversion, InputError, the error kinds, MaxIntegerOrder, DefaultOrders)
// is package rdpcheck's, aliased here, so a value or error of one package is one
// of the other. The domains and special cases of both packages are one
// table in package rdpcheck's documentation, which also states where the two
// answer differently and why (sigma = 0 and b = 0 are an error here, +Inf
// there; fractional orders above rdpcheck.MaxFractionalOrder get an upper bound
// here, ErrTooLarge there; a delta below e^-1.48e9 is 2^-1074 here,
// ErrTooLarge there). Not everything is mirrored: Accountant,
// CalibrateSigma, MaxSteps, PureDPCurve, ZCDPEpsilon, ZCDPEpsilonRDP and
// AdvancedComposition exist only here (composition and calibration are
// float64 work; the bridges are closed forms), and reference alone has
// SGMDirections, Context and its precision limits.
//
// The contract differs from the peers' (TF Privacy, dp_accounting, Opacus)
// in three ways:
//
//   - Safe rounding. Each value carries an error bound computed alongside it
//     and is rounded up by it, so an RDP, an epsilon or a delta is never
//     below the exact value: an accountant errs towards more privacy loss.
//     RDP is never negative and never NaN.
//   - Accuracy. SGM is within 1e-12 relative of the exact RDP (typically
//     1e-14) for q in [1e-12, 1], sigma in [0.1, 1000] (5e-12 down to
//     sigma = 0.005), integer orders up to
//     10,000 and fractional orders up to 256, including the regions where the
//     peers fail: tiny q (no cancellation in I-1), fractional orders with
//     large sigma (no series stopped early), large integer orders (log
//     space), small fractional orders at moderate q (no divergent series).
//     TestSGMAccuracySweep checks this against the reference.
//   - Errors, not guesses. Bad input gives an *InputError (errors.Is
//     ErrInput); inputs beyond the supported range give ErrTooLarge; a
//     calibration that cannot meet its target gives ErrNotConverged. These
//     are rdp's kinds: errors.Is(err, reference.ErrInput) holds as well.
//
// The method for the sampled Gaussian (exact binomial sums with a
// cancellation-free I-1 for integer orders; trapezoidal quadrature of a
// cancellation-free integrand with a proven discretisation and truncation
// bound for fractional orders) is described in the Method comment of the
// engine, internal/sgm/sgm.go; its section 15 (internal/sgm/fracorders.go)
// describes how SGMCurve shares work.
//
// Slices, state and concurrency. A function or method that fills an out
// slice (SGMCurve and the other ...Curve functions, Accountant.RDP, the
// RDP of every Event of this package) allows out to be the same slice as
// an input, or to overlap it: the inputs are read as they were at the call
// (as math/big allows a receiver to alias an operand); on error out holds
// nothing in particular. Input slices are only read, never changed, and
// never kept: an Event or a Compose method that needs them later keeps a
// copy, and an Accountant copies its Orders at its first use, so nothing
// the caller does to its slices afterwards changes a result. Slices
// returned (DefaultOrders, RepeatAndSelectOrders, Accountant.Curve) are
// new: the caller owns them. Each doc comment says which applies
// ("Slices: ..."); TestSliceAliasing checks every one.
// Functions and the Events of this package are safe for concurrent use;
// an Accountant is not (use one per goroutine).
//
// Speed: one RDP curve over the 156 default orders (DefaultOrders) takes
// about 30 µs and does not allocate when the output slice is supplied
// (BenchmarkCurveDefaultOrders).
//
// Shape: a function of one order takes its parameters, then alpha; its
// ...Curve form takes the same parameters, then orders and out, and returns
// an error. Changes to the API: SampledLaplaceCurve(q, b, orders, out)
// error replaced SampledLaplaceCurve(q, b, orders) ([]float64, error), and
// TreeAggregation(sigma, steps, restarts, alpha) replaced (sigma, steps,
// alpha, restarts), in fast and reference alike.
package fast
