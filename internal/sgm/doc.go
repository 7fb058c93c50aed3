// Package sgm is the engine behind fast.SGM and fast.SGMCurve: the Rényi
// divergence of the Poisson-subsampled Gaussian mechanism in float64,
// carried with an error bound (package errfloat) and rounded up by it. Integer
// orders are exact binomial sums; fractional orders a trapezoidal
// quadrature with proven discretisation and truncation bounds; a curve
// shares its grid and moments between orders. The Method comment in sgm.go
// gives the analysis, section by section.
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package sgm
