// Package search holds fast's searches: the best order of
// fast.BestEpsilon and BestDelta (a bracket shrunk by batches of orders
// until a certificate bounds what the orders between can give), the
// least noise multiplier of the calibrations (a bisection in log sigma)
// and the most steps of MaxSteps (doubling, then bisection); and the least
// bound over the higher orders of a call, which the sampling events take.
// Each takes its values as functions or slices, so it holds no mechanism
// and no conversion.
//
// The callers check their arguments; the errors the searches make
// themselves wrap rdpcheck.ErrNotConverged, and those of the functions they
// are given are returned as they are.
package search
