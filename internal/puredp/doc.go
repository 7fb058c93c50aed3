// Package puredp is the engine behind fast's pure-DP mechanisms: binary
// and k-ary randomized response, the tight RDP curve of any eps-DP
// mechanism (PureDP), the exponential mechanism's bounded-range bound and
// the tight zCDP parameters of eps-DP mechanisms. Each is the divergence
// of a few likelihood-ratio classes, or a short closed form, carried with
// its error bound (package errfloat) and rounded up by it.
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package puredp
