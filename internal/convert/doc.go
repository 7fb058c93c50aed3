// Package convert is fast's conversion of RDP to (eps, delta): eps and
// delta at one order, rounded up (fast.Epsilon's and fast.Delta's doc
// comments give the error analysis), their minima over a curve, the lower
// bounds over an interval of orders that certify the best-order search
// (package search), and the improved conversion of a zCDP line at its
// best real order (fast.ZCDPEpsilonRDP).
//
// It takes valid arguments only: fast checks the domain and owns the
// errors.
package convert
