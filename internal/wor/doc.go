// Package wor is the engine behind fast's bounds for sampling without
// replacement (Wang, Balle and Kasiviswanathan 2019): WORGaussian and
// WORGaussianCurve (Theorem 27, the forward differences by a quadrature
// that does not cancel; the Method comment in gaussian.go) and WORBound
// (Theorem 9), every term formed in the log as an upper bound and the
// result rounded up by the collected error.
//
// It takes valid arguments only: fast checks the domain and owns the
// input errors; the engine's own errors wrap rdpcheck.ErrTooLarge.
package wor
