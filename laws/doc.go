// Package laws states the laws of Rényi divergence and RDP
// accounting as rapid properties and checks them on package fast and on
// package reference.
//
// Each law is written once, as a method checkX(t *rapid.T) of Impl, the set
// of functions under test together with the accuracy they promise (used as
// the law's only slack) and the part of the domain drawn (modest for the
// reference, whose SGM costs 5-25 ms a call at 64 bits). Fast() and
// Reference(prec) are the two implementations; Laws lists the properties
// for the fuzz package (rapid.MakeFuzz) and the tests:
//
//	monotone-alpha      D_alpha non-decreasing in alpha (all mechanisms)
//	log-moment-convex   (alpha-1) D_alpha convex in alpha
//	product-additive    D(P1 x P2 || Q1 x Q2) = D(P1||Q1) + D(P2||Q2), explicit product
//	sgm-steps-additive  SGMCurve over T steps = T * SGM
//	accountant          a state machine (t.Repeat): the accountant equals a big.Float running sum
//	data-processing     D(PK || QK) <= D(P || Q) for a random stochastic matrix K
//	binned-sgm          the SGM's output binned with normal-CDF intervals never exceeds the SGM
//	gaussian-line       SGM(q=1) = Gaussian = alpha/(2 sigma^2); equal-variance Gaussians
//	monotone-q-sigma    up in q, down in sigma, 0 <= SGM <= alpha/(2 sigma^2)
//	bad-outcomes        P(S) <= (e^D Q(S))^((alpha-1)/alpha) for every event S
//	limits              alpha -> 1 (KL), alpha -> inf (D_inf), skew symmetry for alpha in (0,1)
//	conversions         eps(delta) >= 0, non-increasing; improved <= classic; delta(eps(delta)) <= delta; zCDP line
//	agreement           within the stated bound of the reference, never below it when rounding up
//	events              k-ary RR over 2 buckets = binary RR; RR down in noise; PureDP = RR's curve;
//	                    ZCDP = xi + rho alpha; exponential mechanism <= eps, slope eps^2/8; group privacy 3^c
//	dgauss-tree-repeat  discrete Gaussian <= its zCDP line, equal where (1-alpha) D is an integer;
//	                    tree = k alpha/(2 sigma^2), k by brute force; repeat-and-select up in the mean, >= base
//
// The tests also show that every law can fail: TestMutantsCaught runs each
// law on a deliberately broken implementation and requires rapid to find
// a counterexample to that law (not an error or a panic). Rapid's saved
// failures, for the real and the broken implementations, are kept under
// testdata/rapid/.
//
// A bug the laws find is fixed in the package it concerns, and its input
// becomes a regression row there, named for what it caught, in that
// package's tests (fast, reference): this package holds only the laws and
// what is needed to run them against an implementation. While a bug is
// open, fix it first, or skip the draws it affects in the law itself, as
// narrowly as possible and with a note saying why.
//
// Run longer with, for example, go test ./laws -run TestLaws/fast
// -rapid.checks=30000 (the flag replaces every per-law default).
package laws
