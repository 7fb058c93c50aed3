// Package discretegauss is the engine behind fast.DiscreteGaussian and
// DiscreteGaussianCurve: the Rényi divergence between discrete Gaussians
// at an integer distance (Canonne, Kamath, Steinke 2020), its theta
// ratio by direct sums for sigma <= 1/2 and by Poisson summation above,
// every step carried with its error bound (package errfloat) and rounded up.
// fast.DiscreteGaussian's doc comment gives the method.
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package discretegauss
