// Package repeatselect is the engine behind fast.RepeatAndSelect and
// RepeatAndSelectCurve: Papernot and Steinke's bounds (2022, Theorems 2
// and 6) on running a mechanism a random number of times and releasing
// the best run, every term carried with its error bound (package errfloat)
// and rounded up, log(1/gamma) verified from above.
//
// It takes valid arguments only: fast checks the domain and owns the
// input errors.
package repeatselect
