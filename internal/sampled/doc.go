// Package sampled is the engine behind fast's Poisson-sampled mechanisms:
// SampledLaplace and SampledLaplaceCurve (Gauss-Legendre quadrature of the
// moments with a proven truncation bound), SampledDivergence (the same
// moments with the outputs as nodes), PoissonBound (Zhu and Wang's general
// bound) and the Laplace mechanism itself, the sampled one's q = 1 case.
// Values are carried with an error bound (package errfloat) and rounded up
// by it; the file comment of terms.go gives the method.
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package sampled
