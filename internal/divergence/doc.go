// Package divergence is the engine behind fast.Divergence and
// fast.GaussianDivergence: the Rényi divergence of two discrete
// distributions given as probability vectors, and of two Gaussians, in
// float64 carried with an error bound (package errfloat) and rounded up by
// it. Their methods are the doc comments of the fast functions.
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package divergence
