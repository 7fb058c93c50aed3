package peerstudy

// A second way to the floor, sharing no code with package pld: any event S
// gives delta(eps) >= P(S) - e^eps Q(S) (the hockey-stick divergence is a
// supremum over events). For a run of the Poisson-subsampled Gaussian the
// events "some step's noisy output exceeds c" (remove direction: P the
// mixtures, Q the pure noise) and "some output is below -c" (add direction)
// have closed forms in normal tails. An unsound answer of a peer that such
// an event already exceeds is confirmed without the PLD.

import (
	"math"
)

// tail is P(N(0,1) > x), erfc(x/sqrt2)/2.
func tail(x float64) float64 { return math.Erfc(x/math.Sqrt2) / 2 }

// eventSlack is the relative error allowed each event probability: math.Erfc
// is within a few ulps, and the log1p, products by counts, the sum over
// phases and expm1 add a few more each (below 1e-14 in all), so 1e-12 is a
// hundredfold margin. The bound subtracts it in the unfavourable direction.
const eventSlack = 1e-12

// maxEventDelta returns the largest lower bound on delta(eps) that the
// events {max_i x_i > c} (remove) and {min_i x_i < -c} (add) give over
// c = 0, 0.05, ..., 20 (the grid only chooses c: each bound holds), and
// the event that gives it; it is 0 (nothing) where none is positive.
func maxEventDelta(run [][3]float64, eps float64) (float64, string) {
	return maxEvent(run, func(p, q float64) float64 {
		return p*(1-eventSlack) - math.Exp(eps)*q*(1+eventSlack)
	})
}

// maxEventEpsilon is the same for eps(delta): an event with P(S) > delta
// shows eps(delta) >= log((P(S) - delta)/Q(S)).
func maxEventEpsilon(run [][3]float64, delta float64) (float64, string) {
	return maxEvent(run, func(p, q float64) float64 {
		p, q = p*(1-eventSlack), q*(1+eventSlack)
		if !(p > delta) || q == 0 {
			return 0
		}
		return math.Log((p - delta) / q)
	})
}

// maxEvent returns the largest bound(P(S), Q(S)) over the events, and the
// event.
func maxEvent(run [][3]float64, bound func(p, q float64) float64) (float64, string) {
	best, what := 0.0, ""
	// 1 - prod_j (1 - t_j)^n_j, t_j the one-step probability of the event.
	atLeastOnce := func(t func(q, s float64) float64) float64 {
		sum := 0.0
		for _, p := range run {
			sum += p[2] * math.Log1p(-t(p[0], p[1]))
		}
		return -math.Expm1(sum)
	}
	for k := 0; k <= 400; k++ {
		c := float64(k) / 20
		// remove: an output above c; add: an output below -c (the same
		// tails with the roles of P and Q exchanged).
		pure := atLeastOnce(func(q, s float64) float64 { return tail(c / s) })
		mixed := atLeastOnce(func(q, s float64) float64 { return (1-q)*tail(c/s) + q*tail((c-1)/s) })
		mixedLow := atLeastOnce(func(q, s float64) float64 { return (1-q)*tail(c/s) + q*tail((c+1)/s) })
		for _, d := range []struct {
			p, q float64
			what string
		}{
			{mixed, pure, "remove: some step's output above " + g4(c)},
			{pure, mixedLow, "add: some step's output below -" + g4(c)},
		} {
			if lb := bound(d.p, d.q); lb > best {
				best, what = lb, d.what
			}
		}
	}
	return best, what
}
