package puredp

import (
	"fmt"
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"
)

// prec is the working precision: 256 bits, raised by TestZCDP where its
// closed forms cancel at tiny eps (tests here do not run in parallel).
var prec uint = 256

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

func add(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Add(x, y) }
func sub(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Sub(x, y) }
func mul(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Mul(x, y) }
func quo(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Quo(x, y) }

// renyi is D_alpha(P || Q) of discrete distributions given at 256 bits,
// summed from the definition: 1/(alpha-1) log sum p^alpha q^(1-alpha).
func renyi(p, q []*big.Float, alpha float64) *big.Float {
	return renyiLog(logs(p), logs(q), alpha)
}

func logs(p []*big.Float) []*big.Float {
	l := make([]*big.Float, len(p))
	for i, x := range p {
		l[i] = bigfloat.Log(x)
	}
	return l
}

// renyiLog is renyi from the logs of the entries: each term e^(alpha lp +
// (1-alpha) lq).
func renyiLog(lp, lq []*big.Float, alpha float64) *big.Float {
	A := bf(alpha)
	B := sub(bf(1), A)
	s := bf(0)
	for i := range lp {
		s = add(s, bigfloat.Exp(add(mul(A, lp[i]), mul(B, lq[i]))))
	}
	return quo(bigfloat.Log(s), sub(A, bf(1)))
}

// check fails unless got is at or above want and within rel of it.
func check(t *testing.T, name string, got float64, want *big.Float, rel float64) {
	t.Helper()
	if math.IsInf(got, 0) || math.IsNaN(got) {
		t.Errorf("%s = %g, exact %s", name, got, want.Text('g', 20))
		return
	}
	diff := sub(bf(got), want)
	if diff.Sign() < 0 {
		t.Errorf("%s = %.17g below the exact %s", name, got, want.Text('g', 25))
		return
	}
	if want.Sign() == 0 {
		if got != 0 {
			t.Errorf("%s = %g, exact 0", name, got)
		}
		return
	}
	if want.Cmp(bf(0x1p-1022)) < 0 {
		// below the normals: within 2^-1070 absolute (fast/zcdptight.go)
		if d, _ := diff.Float64(); d > 0x1p-1070 {
			t.Errorf("%s = %g, %g above the exact %s", name, got, d, want.Text('g', 20))
		}
		return
	}
	if r, _ := quo(diff, want).Float64(); r > rel {
		t.Errorf("%s = %.17g, relative error %.3g against the exact %s", name, got, r, want.Text('g', 25))
	}
}

// eventOrders and eventTol: fast/events.go's stated region (orders 1 +
// 1e-8 to 1.05, the default orders, +Inf) and accuracy (1e-12 relative).
var eventOrders = []float64{1 + 1e-8, 1.001, 1.05, 1.5, 2, 3, 10, 64, 256, 1e4}

const eventTol = 1e-12

// TestTight: binary randomized response's curve 1/(alpha-1) log(
// (e^(alpha eps) + e^((1-alpha) eps))/(1 + e^eps) ), by the definition on
// the two outputs P = (e^eps, 1)/(1+e^eps), Q = (1, e^eps)/(1+e^eps);
// eps at +Inf; 0 at eps = 0. Tight and TightCurve both.
func TestTight(t *testing.T) {
	for _, eps := range []float64{1e-8, 1e-3, 0.5, 1, 5, 50} {
		e := bigfloat.Exp(bf(eps))
		den := add(bf(1), e)
		P := []*big.Float{quo(e, den), quo(bf(1), den)}
		Q := []*big.Float{P[1], P[0]}
		out := make([]float64, len(eventOrders)+1)
		TightCurve(eps, append(append([]float64{}, eventOrders...), math.Inf(1)), out)
		for i, a := range eventOrders {
			want := renyi(P, Q, a)
			check(t, fmt.Sprintf("Tight(%g, %g)", eps, a), Tight(eps, a), want, eventTol)
			check(t, fmt.Sprintf("TightCurve(%g)[%g]", eps, a), out[i], want, eventTol)
		}
		if out[len(eventOrders)] != eps || Tight(eps, math.Inf(1)) != eps {
			t.Errorf("Tight(%g, +Inf) = %g, curve %g, want eps", eps, Tight(eps, math.Inf(1)), out[len(eventOrders)])
		}
	}
	if Tight(0, 2) != 0 {
		t.Errorf("Tight(0, 2) = %g, want 0", Tight(0, 2))
	}
}

// TestKaryRR: k-ary randomized response summed from its output
// distributions: the true bucket b = 1 - noise + noise/k, any other a =
// noise/k. Replace-one: P = (b, a, a...), Q = (a, b, a...); replace-special:
// the larger of D(P || U) and D(U || P), U uniform. At +Inf the largest
// log ratio; noise 1 gives 0, noise 0 +Inf.
func TestKaryRR(t *testing.T) {
	for _, noise := range []float64{1e-12, 0.1, 0.99, 1 - 1e-12} {
		for _, k := range []float64{2, 3, 1e6} {
			N := bf(noise)
			a := quo(N, bf(k))
			b := add(sub(bf(1), N), a)
			// k - 2 equal buckets merge into one of weight (k-2) a on
			// either side (their terms sum to (k-2) a at every order).
			P := []*big.Float{b, a, mul(bf(k-2), a)}
			Q := []*big.Float{a, b, mul(bf(k-2), a)}
			if k == 2 {
				P, Q = P[:2], Q[:2]
			}
			U := quo(bf(1), bf(k))
			PS := []*big.Float{b, mul(bf(k-1), a)} // the other k-1 buckets merged
			US := []*big.Float{U, mul(bf(k-1), U)}
			lP, lQ, lPS, lUS := logs(P), logs(Q), logs(PS), logs(US)
			one := NewKaryRR(noise, k, false)
			spec := NewKaryRR(noise, k, true)
			for _, alpha := range eventOrders {
				check(t, fmt.Sprintf("KaryRR(%g, %g, one).At(%g)", noise, k, alpha), one.At(alpha), renyiLog(lP, lQ, alpha), eventTol)
				w1, w2 := renyiLog(lPS, lUS, alpha), renyiLog(lUS, lPS, alpha)
				if w2.Cmp(w1) > 0 {
					w1 = w2
				}
				check(t, fmt.Sprintf("KaryRR(%g, %g, special).At(%g)", noise, k, alpha), spec.At(alpha), w1, eventTol)
			}
			check(t, fmt.Sprintf("KaryRR(%g, %g, one).At(+Inf)", noise, k), one.At(math.Inf(1)), bigfloat.Log(quo(b, a)), eventTol)
			ls, ln := bigfloat.Log(mul(b, bf(k))), bigfloat.Log(N)
			if ln.Neg(ln).Cmp(ls) > 0 {
				ls = ln
			}
			check(t, fmt.Sprintf("KaryRR(%g, %g, special).At(+Inf)", noise, k), spec.At(math.Inf(1)), ls, eventTol)
		}
	}
	z, inf := NewKaryRR(1, 5, false), NewKaryRR(0, 5, true)
	if z.At(3) != 0 || !math.IsInf(inf.At(3), 1) {
		t.Errorf("noise 1 gives %g, noise 0 gives %g: want 0 and +Inf", z.At(3), inf.At(3))
	}
}

// TestExponentialMechanism: min(K + eps^2 (alpha-1)/8, eps) with K = v - 1
// - log v, v = eps/expm1(eps) (Cesar and Rogers 2021), at 256 bits; eps
// at +Inf. Below eps = 2^-30 the engine takes K's bound eps^2/8
// (Hoeffding), so there the check is the inequality value >= exact and
// within eps^2/12 relative (its doc comment).
func TestExponentialMechanism(t *testing.T) {
	for _, eps := range []float64{1e-12, 1e-8, 1e-3, 0.5, 1, 5, 50} {
		E := bf(eps)
		v := quo(E, sub(bigfloat.Exp(E), bf(1)))
		K := sub(sub(v, bf(1)), bigfloat.Log(v))
		out := make([]float64, len(eventOrders))
		ExponentialMechanismCurve(eps, eventOrders, out)
		tol := eventTol
		if eps < 0x1p-30 {
			tol = eps*eps/12 + 1e-15 // and the carried rounding
		}
		for i, a := range eventOrders {
			want := add(K, quo(mul(mul(E, E), sub(bf(a), bf(1))), bf(8)))
			if want.Cmp(E) > 0 {
				want = E
			}
			name := fmt.Sprintf("ExponentialMechanism(%g, %g)", eps, a)
			check(t, name, ExponentialMechanism(eps, a), want, tol)
			check(t, "curve "+name, out[i], want, tol)
		}
		if ExponentialMechanism(eps, math.Inf(1)) != eps {
			t.Errorf("ExponentialMechanism(%g, +Inf) = %g, want eps", eps, ExponentialMechanism(eps, math.Inf(1)))
		}
	}
}

// TestRandomizedResponse: Mironov's (2017, Proposition 5) 1/(alpha-1) log(
// p^alpha (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha) ), with 1-p formed
// exactly, KL (2p-1) log(p/(1-p)) at 1 and |log(p/(1-p))| at +Inf; within
// 1e-14 (fast.RandomizedResponse: measured below 4e-15).
func TestRandomizedResponse(t *testing.T) {
	for _, p := range []float64{1e-300, 1e-9, 0.1, 0.4999999, 0.5, 0.75, 1 - 1e-12} {
		P := bf(p)
		Q := sub(bf(1), P)
		for _, a := range append([]float64{1}, eventOrders...) {
			var want *big.Float
			if a == 1 {
				want = mul(sub(mul(bf(2), P), bf(1)), bigfloat.Log(quo(P, Q)))
			} else {
				want = renyi([]*big.Float{P, Q}, []*big.Float{Q, P}, a)
			}
			if p == 0.5 {
				want = bf(0)
			}
			check(t, fmt.Sprintf("RandomizedResponse(%g, %g)", p, a), RandomizedResponse(p, a), want, 1e-14)
		}
		want := bigfloat.Log(quo(P, Q))
		check(t, fmt.Sprintf("RandomizedResponse(%g, +Inf)", p), RandomizedResponse(p, math.Inf(1)), want.Abs(want), 1e-14)
	}
}

// TestZCDP: Harrison and Manurangsi's (2025) tight zCDP parameters at 256
// bits: Laplace eps + e^-eps - 1, k-ary RR eps (e^eps - 1)/(e^eps + k - 1),
// RAPPOR eps tanh(eps/4), bounded range c - 1 - log c with c = eps/(1 -
// e^-eps); never below, within 1e-14 (fast/zcdptight.go: measured below
// 3.9e-15; below 2^-1022 within 2^-1070 absolute), and 0 at eps = 0.
func TestZCDP(t *testing.T) {
	// 1 - e^-eps and its kin cancel 2 log2(1/eps) bits: 2300 bits for
	// eps = 1e-300.
	defer func(p uint) { prec = p }(prec)
	prec = 2300
	for _, eps := range []float64{1e-300, 1e-160, 1e-20, 1e-8, 1e-3, 0.5, 1, 2, 5, 50, 800} {
		E := bf(eps)
		em := bigfloat.Exp(E)
		ep := bigfloat.Exp(new(big.Float).Neg(E))
		check(t, fmt.Sprintf("LaplaceZCDP(%g)", eps), LaplaceZCDP(eps), sub(add(E, ep), bf(1)), 1e-14)
		for _, k := range []float64{2, 3, 6} {
			want := quo(mul(E, sub(em, bf(1))), add(em, bf(k-1)))
			check(t, fmt.Sprintf("KaryRRZCDP(%g, %g)", eps, k), KaryRRZCDP(eps, k), want, 1e-14)
		}
		// tanh(x) = (1 - e^-2x)/(1 + e^-2x), x = eps/4
		e2 := bigfloat.Exp(quo(new(big.Float).Neg(E), bf(2)))
		check(t, fmt.Sprintf("RAPPORZCDP(%g)", eps), RAPPORZCDP(eps), mul(E, quo(sub(bf(1), e2), add(bf(1), e2))), 1e-14)
		c := quo(E, sub(bf(1), ep))
		check(t, fmt.Sprintf("BoundedRangeZCDP(%g)", eps), BoundedRangeZCDP(eps), sub(sub(c, bf(1)), bigfloat.Log(c)), 1e-14)
	}
	if LaplaceZCDP(0) != 0 || KaryRRZCDP(0, 3) != 0 || RAPPORZCDP(0) != 0 || BoundedRangeZCDP(0) != 0 {
		t.Errorf("eps = 0: %g %g %g %g, want 0", LaplaceZCDP(0), KaryRRZCDP(0, 3), RAPPORZCDP(0), BoundedRangeZCDP(0))
	}
}
