package pld

import (
	"math"
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
)

// rrExact is delta(eps) of n compositions of randomized response by an
// exact big.Rat sum over k of C(n,k) (P^(n-k) Q^k - e^eps P^k Q^(n-k)) for
// the k with (P/Q)^(n-2k) > e^eps, P = max(p, 1-p) and Q = 1-P as exact
// rationals (a float64 p is a rational); only e^eps is a big.Float, at
// 400 bits, and the comparison and the last combination are made with it
// (a rounding of about 2^-390 relative). It shares no code with rrDelta.
func rrExact(p float64, n int, eps float64) *big.Float {
	const prec = 400
	rp := new(big.Rat).SetFloat64(p)
	one := big.NewRat(1, 1)
	rq := new(big.Rat).Sub(one, rp)
	if rp.Cmp(rq) < 0 {
		rp, rq = rq, rp
	}
	E := bigfloat.Exp(new(big.Float).SetPrec(prec).SetFloat64(eps))
	pow := func(x *big.Rat, k int) *big.Rat {
		r := big.NewRat(1, 1)
		for i := 0; i < k; i++ {
			r.Mul(r, x)
		}
		return r
	}
	sumA, sumB := new(big.Rat), new(big.Rat)
	for k := 0; k <= n; k++ {
		// include k when (P/Q)^(n-2k) > e^eps
		ratio := new(big.Rat)
		if d := n - 2*k; d >= 0 {
			ratio.Quo(pow(rp, d), pow(rq, d))
		} else {
			ratio.Quo(pow(rq, -d), pow(rp, -d))
		}
		if new(big.Float).SetPrec(prec).SetRat(ratio).Cmp(E) <= 0 {
			continue
		}
		c := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(k)))
		a := new(big.Rat).Mul(c, new(big.Rat).Mul(pow(rp, n-k), pow(rq, k)))
		b := new(big.Rat).Mul(c, new(big.Rat).Mul(pow(rp, k), pow(rq, n-k)))
		sumA.Add(sumA, a)
		sumB.Add(sumB, b)
	}
	r := new(big.Float).SetPrec(prec).SetRat(sumB)
	r.Mul(r, E)
	return r.Sub(new(big.Float).SetPrec(prec).SetRat(sumA), r)
}

func TestRRDeltaExact(t *testing.T) {
	for _, c := range []struct {
		p float64
		n int
	}{{0.75, 1}, {0.75, 7}, {0.3, 20}, {0.9, 40}, {0.5000001, 60}, {0.999, 15}, {1e-3, 30}} {
		for _, eps := range []float64{-0.5, 0, 0.1, 0.7, 1.5, 3, 8} {
			got, err := RRDelta(c.p, c.n, eps)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := rrExact(c.p, c.n, eps).Float64()
			if !got.Contains(want) || (want > 1e-300 && got.RelWidth() > 1e-11) {
				t.Errorf("RRDelta(p=%g, count=%d, eps=%g) = %v, want %.17g (exact big.Rat sum), width %.3g", c.p, c.n, eps, got, want, got.RelWidth())
			}
		}
	}
}

func TestRRSpecialCases(t *testing.T) {
	for _, c := range []struct {
		p    float64
		n    int
		eps  float64
		want Interval
	}{
		{0.5, 10, 0.3, Interval{0, 0}},            // identical outputs
		{0, 3, 5, Interval{1, 1}},                 // the outputs tell the bit
		{1, 3, 5, Interval{1, 1}},                 // the same
		{0.7, 3, math.Inf(1), Interval{0, 0}},     // eps = +Inf
		{0.7, 3, math.Inf(-1), Interval{1, 1}},    // eps = -Inf
		{0.7, 1, math.Log(0.7 / 0.3), Interval{}}, // one step at its own eps: 0 (checked below)
	} {
		got, err := RRDelta(c.p, c.n, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want && !(c.want == Interval{} && got.Lo == 0 && got.Hi < 1e-15) {
			t.Errorf("RRDelta(p=%g, count=%d, eps=%g) = %v, want %v", c.p, c.n, c.eps, got, c.want)
		}
	}
	for _, bad := range []struct {
		p float64
		n int
	}{{-0.1, 1}, {math.NaN(), 1}, {0.5, 0}} {
		if _, err := RRDelta(bad.p, bad.n, 1); err == nil {
			t.Errorf("RRDelta(p=%g, count=%d) accepted", bad.p, bad.n)
		}
	}
}

// One step of randomized response: eps(delta) = log(P/Q) for delta below
// P - e^eps Q at eps = 0, i.e. 2P - 1 (the closed form of its profile:
// delta(eps) = P - e^eps Q for 0 <= eps < r).
func TestRREpsilonOneStep(t *testing.T) {
	for _, p := range []float64{0.6, 0.75, 0.9} {
		iv, err := RREpsilon(p, 1, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		// delta(eps) = p - e^eps (1-p) crosses 1e-6 at log((p - 1e-6)/(1-p))
		want := math.Log((p - 1e-6) / (1 - p))
		if !(iv.Lo <= want*(1+1e-12) && want*(1-1e-12) <= iv.Hi) || iv.RelWidth() > 1e-8 {
			t.Errorf("RREpsilon(p=%g, 1, 1e-6) = %v, want %.15g (closed form)", p, iv, want)
		}
	}
}
