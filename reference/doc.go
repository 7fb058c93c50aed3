// Package reference computes Rényi divergences and the Rényi differential
// privacy (RDP) of the sampled Gaussian mechanism in arbitrary precision,
// with a stated, checked guarantee on every digit it returns. It is the truth
// that the rest of rdpcheck is measured against: package fast (the float64
// accountant) is tested against it, package oracles checks it by independent
// methods, and cmd/gen-vectors writes its values into the golden vectors.
//
// # Inputs and results
//
// Inputs are float64 values, taken exactly (big.Float.SetFloat64): the
// reference answers for the binary number the caller holds, never for a
// decimal it might have meant (0.01 is 0.01000000000000000020816...).
// Results are *big.Float rounded to Context.Prec bits (DefaultPrec = 256).
//
// # The guarantee
//
// Every finite non-zero result has relative error at most 2^(1-Prec): at the
// default 256 bits, at least 76 correct significant decimal digits. Results
// that are exactly 0 or +Inf are exact (they come from the special cases each
// function documents, decided in exact arithmetic).
//
// How it is ensured (Ziv's strategy, as in MPFR and Arb): each quantity is
// evaluated twice, at working precisions Prec+16 and Prec+48 bits. Every
// approximation inside an evaluation is tied to its working precision: series
// are cut where a proven tail bound falls below 2^-wp of the sum, quadrature
// node counts grow with wp, elementary functions carry their own guard bits.
// The result is accepted only when the two evaluations agree to Prec+2 bits;
// otherwise both precisions are raised by half and the evaluation repeated, up
// to MaxWorkingPrec. If agreement is never reached the function returns an
// error wrapping ErrPrecision and no value: a reference that is unsure says
// so. Agreement of two evaluations does not by itself exclude an error common
// to both (a wrong formula); that is what the independent checks are for: the
// tests compare against package oracles (double-exponential quadrature in
// big.Float, exact rationals, closed forms, Monte Carlo), which share no code
// with this package, to at least 40 significant digits, and against the same
// quantity at twice the precision.
//
// # The sampled Gaussian mechanism
//
// With mu0 = N(0, s^2), mu1 = N(1, s^2) and mu = (1-q) mu0 + q mu1, SGM
// returns max(D_alpha(mu||mu0), D_alpha(mu0||mu)): both directions are
// computed (SGMDirections returns them); the forward one dominates in every
// case the tests cover, as Mironov, Talwar and Zhang 2019 prove, but the code
// checks rather than assumes it. Integer orders use the finite binomial sum,
// written as a sum of non-negative terms with expm1 so that tiny q loses
// nothing; other orders use the series of Mironov, Talwar and Zhang (arXiv
// 1908.10530, section 3.3) made to converge geometrically by keeping a strip
// around the split point for Gauss-Legendre quadrature (see moment.go).
//
// For tiny sigma the general method's exponents, alpha^2/(2 sigma^2), leave
// big.Float's range. There the divergences are pinned between proven bounds
// (Minkowski's inequality forward: log I(alpha) lies in [X, X + G] with
// X = alpha log q + alpha (alpha-1)/(2 sigma^2) and G <= alpha (1-q)/q
// exp(-(alpha-1)/(2 sigma^2)); backward within a Gaussian tail of
// -log1p(-q)), and where the gap is provably below 2^-(Prec+64) relative the
// bound's value is returned; elsewhere the general method runs
// (tinysigma.go).
//
// Supported: every q in [0, 1], sigma in [0, about 2e6], integer orders up
// to MaxIntegerOrder (2^20, the same as package fast), other orders in
// (1, MaxFractionalOrder]. The cost grows with the order and with 1/sigma;
// orders near 1000 with sigma near 0.05 take seconds, and integer orders
// near MaxIntegerOrder up to about a minute at tiny q (50 s at q = 1e-12,
// sigma = 100, alpha = 2^20; milliseconds at q = 0.01, sigma = 1). Above sigma ~ 2e6 the quadrature strip would need more
// than 2,000,000 pieces (about one per unit of sigma) and SGM returns an
// error wrapping ErrTooLarge instead (package fast covers any sigma; the
// RDP there is alpha q^2/(2 sigma^2) to within about alpha^2/sigma^2).
//
// # Errors
//
// Bad input returns *InputError naming the function, the argument and what it
// must be; inputs beyond the supported range return an error wrapping
// ErrTooLarge. Nothing panics on any float64 input. The error type and
// kinds, like Conversion and the order limits, are package rdpcheck's, shared
// with package fast: errors.Is(err, fast.ErrInput) holds for this
// package's errors too. The domains and special cases of both packages,
// and where and why they answer differently, are one table in package
// rdp's documentation.
//
// # Slices, values and concurrency
//
// Every slice argument is only read, never changed or kept, and two
// arguments of equal contents may be one slice; each result is a new
// big.Float (a slice returned is new, and so are its values), never one of
// the caller's, so changing a result changes no later one. Each doc
// comment that takes slices says so ("Slices: ..."); TestSliceContract
// checks it. Context is a value and every function is safe for concurrent
// use.
package reference
