// Package errfloat is the carried-error arithmetic of package fast: float64
// values with a bound on their absolute error (Val), whose operations
// return the rounded result with a bound covering the errors of their
// inputs and their own rounding; scaled values (Scaled) for products and
// quotients that may overflow or underflow; double-double helpers for
// the sums that would cancel in float64; and the rounding-up helpers by
// which a value becomes an upper bound on the exact quantity.
//
// It holds no privacy mechanism: the mechanisms that use it are in fast
// and in the engines fast hands valid arguments to (internal/sgm,
// internal/sampled, internal/wor and the others CONTRIBUTING.md lists).
package errfloat
