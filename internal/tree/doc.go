// Package tree is the engine behind fast's tree aggregation (DP-FTRL):
// the line alpha k/(2 sigma^2), rounded up, and the worst-case sum of
// squared leaf counts of one tree without restarts
// (fast.TreeSensitivitySquareSum), a dynamic programme in int64.
//
// It takes valid arguments only: fast checks the domain, the cost limit,
// and owns the errors.
package tree
