package pld

import (
	"context"
	"math/big"
)

// phaseTerms are the terms of phases in one direction (the SGM's own
// measures, not folded), for the tests that drive the engine directly.
func phaseTerms(phases []Phase, add bool) []runTerm {
	var terms []runTerm
	for _, p := range phases {
		if p.Steps == 0 || p.Q == 0 {
			continue
		}
		var m measure = sgmMeasure{p.Q, p.Sigma, add}
		if p.Q == 1 {
			m = gaussMeasure{p.Sigma}
		}
		terms = append(terms, runTerm{m, m, int64(p.Steps)})
	}
	return terms
}

// runDir composes the phases in one direction at spacing h and tilt lambda
// (tail: composeRun's budget).
func runDir(phases []Phase, h, lambda, tail float64, add bool, maxGrid int) (*composed, error) {
	return composeRun(context.Background(), phaseTerms(phases, add), h, lambda, tail, maxGrid)
}

// tiltForEps is the tilt Delta uses for the phases in one direction.
func tiltForEps(phases []Phase, eps float64, add bool) float64 {
	terms := phaseTerms(phases, add)
	return tiltEps(func(l float64) float64 { return totalK(terms, l) }, eps)
}

// tiltForDelta is the tilt Epsilon uses for the phases in one direction.
func tiltForDelta(phases []Phase, delta float64, add bool) float64 {
	terms := phaseTerms(phases, add)
	return tiltDelta(func(l float64) float64 { return totalK(terms, l) }, delta)
}

// laplaceRun composes count Laplace steps at spacing h and tilt lambda.
func laplaceRun(b float64, count int, h, lambda float64) (*composed, error) {
	m := laplaceMeasure{b}
	return composeRun(context.Background(), []runTerm{{m, m, int64(count)}}, h, lambda, 0, 1<<23)
}

// gaussDelta is the closed form of count Gaussian steps of noise sigma.
func gaussDelta(sigma float64, count int, eps float64) Interval {
	m2 := new(big.Float).SetPrec(2200).SetInt64(int64(count))
	s := new(big.Float).SetPrec(2200).SetFloat64(sigma)
	m2.Quo(m2, s.Mul(s, s))
	return gaussDeltaMu2(m2, eps)
}
