package fast

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/reference"
)

// The closed forms, the discrete divergence, the conversions and the
// bridges against the reference at 128 bits: tables of hard inputs, each
// row named after what it caught, then random draws like those that found
// them. A result must never be below the reference and must be within the
// documented relative bound.

var ref128 = reference.Context{Prec: 128}

// refStats tracks the worst relative error of a family of checks.
type refStats struct {
	name  string
	worst float64
	at    string
	n     int
}

func (s *refStats) report(t *testing.T) {
	t.Helper()
	t.Logf("%-34s %6d checks, worst relative error %.3g %s", s.name, s.n, s.worst, s.at)
}

// check compares v with the reference r: never below, relative error at
// most bound. A reference +Inf needs v = +Inf; a reference 0 needs v at
// most tiny (the reference returns 0 for some tiny positive values).
func (s *refStats) check(t *testing.T, what string, v float64, err error, r *big.Float, rerr error, bound, tiny float64) {
	t.Helper()
	s.n++
	if err != nil || rerr != nil {
		t.Errorf("%s: %v / ref %v", what, err, rerr)
		return
	}
	if math.IsNaN(v) || v < 0 {
		t.Errorf("%s: %v", what, v)
		return
	}
	if r.IsInf() {
		if !math.IsInf(v, 1) {
			t.Errorf("%s: want +Inf, got %v", what, v)
		}
		return
	}
	if r.Sign() <= 0 {
		if v > tiny {
			t.Errorf("%s: reference %s, got %v", what, r.Text('g', 10), v)
		}
		return
	}
	e := relErr(v, r)
	if e > s.worst && !math.IsInf(bound, 1) {
		s.worst, s.at = e, what
	}
	if e < 0 || e > bound {
		t.Errorf("%s: fast %v ref %s rel %.3g (bound %.3g)", what, v, r.Text('g', 20), e, bound)
	}
}

// draws is n random draws, or n/10 under -short (every table row of hard
// inputs still runs).
func draws(n int) int {
	if testing.Short() {
		return n / 30
	}
	return n
}

func fmtPQ(p, q []float64, a float64) string {
	return "D(" + fmtF(p) + " || " + fmtF(q) + ", " + big.NewFloat(a).Text('g', 17) + ")"
}

func fmtF(x []float64) string {
	s := "["
	for i, v := range x {
		if i > 0 {
			s += " "
		}
		s += big.NewFloat(v).Text('g', 17)
	}
	return s + "]"
}

// divBound is the documented bound for vectors that sum to exactly 1.
func divBound(n int) float64 { return float64(n+100) * errfloat.Unit }

// TestDivergenceHardInputs checks Divergence on the inputs that caught
// its errors (and those of the reference), against the reference at 128
// bits, or against a value stated beside the row.
func TestDivergenceHardInputs(t *testing.T) {
	t.Parallel()
	st := refStats{name: "Divergence hard inputs"}
	inf := math.Inf(1)
	for _, c := range []struct {
		p, q   []float64
		a      float64
		want   string // if set, the exact value (else the reference at 128 bits)
		caught string
	}{
		{p: []float64{0, 0.125, 0.875}, q: []float64{0.125, 0.125, 0.75}, a: 1,
			caught: "KL without the q-mass where p = 0"},
		{p: []float64{9.5367431640625e-07, 0.5179376602172852, 0.48206138610839844},
			q: []float64{0.9046564102172852, 0.004558563232421875, 0.09078502655029297}, a: 0.09645037160767224,
			caught: "order below 1: cancelling form of h(u)"},
		{p: []float64{0.125, 0.875}, q: []float64{0, 1}, a: 0x1p-20, caught: "tiny order, q = 0 entry"},
		{p: []float64{0.5, 0.5}, q: []float64{0.25, 0.75}, a: 1e-5, caught: "order below 1: cancelling form of h(u), small order"},
		{p: []float64{0.8160602794142788, 0.18393972058572117}, q: []float64{1, 7.61985302416047e-24}, a: 14,
			caught: "p^a q^(1-a) overflow"},
		{p: []float64{0, 1}, q: []float64{6.103515625e-05, 0.99993896484375}, a: inf, caught: "D_inf of a ratio near 1"},
		{p: []float64{0, 1}, q: []float64{0.015625, 0.984375}, a: inf, caught: "D_inf of a ratio near 1"},
		{p: []float64{1, 0}, q: []float64{1e-10, 1 - 1e-10}, a: 0, caught: "D_0 of a sum near 0"},
		{p: []float64{0.5, 0.5}, q: []float64{0.25, 0.75}, a: 1e-300, caught: "tiny order in the reference"},
		{p: []float64{0.5, 0.5}, q: []float64{1e-300, 1}, a: 1e6, caught: "sum overflow: log space"},
		{p: []float64{0.5, 0.5}, q: []float64{1e-300, 1}, a: 0.999999, caught: "order near 1 from below, tiny q"},
		{p: []float64{1e-300, 1}, q: []float64{0.5, 0.5}, a: 0.5, caught: "sum far below 1: log space"},
		{p: []float64{5e-324, 1}, q: []float64{1, 0}, a: 0.3, caught: "subnormal p, q = 0 entry"},
		{p: []float64{0.3, 0.7}, q: []float64{0.3 + 0x1p-53, 0.7 - 0x1p-53}, a: 1 + 1e-8, caught: "nearly equal vectors, order near 1"},
		{p: []float64{0.3, 0.7}, q: []float64{0.3 + 0x1p-53, 0.7 - 0x1p-53}, a: 1 - 1e-8, caught: "nearly equal vectors, order near 1"},
		{p: []float64{0.3, 0.7}, q: []float64{0.3 + 0x1p-53, 0.7 - 0x1p-53}, a: 1000, caught: "nearly equal vectors, large order"},
		// Both sums are 1 + 2^-52: a dp + (1-a) dq = (560 - 559) 2^-52 cancels,
		// and rounding its two products separately put the result 1.25e-13
		// above the exact value (found by FuzzDivergence). want:
		// reference.Context{Prec: 256}.Divergence(p, q, 560).Text('g', 40).
		{p: []float64{0.5000000000000002, 0.5}, q: []float64{0.5000000000000003, 0.4999999999999999}, a: 560,
			want: "3.972175401301400988160064222199257074313e-19", caught: "cancelling sum defects, rounded twice"},
	} {
		v, err := Divergence(c.p, c.q, c.a)
		var r *big.Float
		var rerr error
		if c.want != "" {
			r, _, rerr = big.ParseFloat(c.want, 10, 256, big.ToNearestEven)
		} else {
			r, rerr = ref128.Divergence(c.p, c.q, c.a)
		}
		st.check(t, fmtPQ(c.p, c.q, c.a)+" ("+c.caught+")", v, err, r, rerr, divBound(len(c.p)), 0)
	}
	// orders near MaxFloat64 (the reference cannot take them): D_alpha is
	// within log(2)/(alpha-1) below D_inf
	for _, a := range []float64{1e300, math.MaxFloat64} {
		p, q := []float64{0.5, 0.5}, []float64{0.25, 0.75}
		v, err := Divergence(p, q, a)
		r, rerr := ref128.Divergence(p, q, math.Inf(1))
		if err != nil || rerr != nil {
			t.Fatal(err, rerr)
		}
		if e := relErr(v, r); e < -1e-290 || e > divBound(2) {
			t.Errorf("%s = %v, D_inf %s", fmtPQ(p, q, a), v, r.Text('g', 20))
		}
	}
	st.report(t)
}

// dyadicVec draws n multiples of 2^-bits summing to exactly 1 (zeros
// allowed), like the laws' dyadic generator.
func dyadicVec(r *rand.Rand, n, bits int) []float64 {
	total := 1 << bits
	cuts := make([]int, n-1)
	for i := range cuts {
		cuts[i] = r.IntN(total + 1)
	}
	for i := 1; i < len(cuts); i++ { // insertion sort
		for j := i; j > 0 && cuts[j] < cuts[j-1]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	p := make([]float64, n)
	prev := 0
	for i, c := range append(cuts, total) {
		p[i] = math.Ldexp(float64(c-prev), -bits)
		prev = c
	}
	return p
}

// skewVec draws a vector with entries spread over many magnitudes
// (down to 1e-300), renormalised so that its compensated sum is 1 within
// the accepted tolerance.
func skewVec(r *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = math.Exp(-r.Float64() * 690)
		if r.IntN(4) == 0 {
			p[i] = r.Float64()
		}
	}
	p[r.IntN(n)] += 1
	var s float64
	for _, x := range p {
		s += x
	}
	for i := range p {
		p[i] /= s
	}
	// put the residue on the largest entry
	k := 0
	for i := range p {
		if p[i] > p[k] {
			k = i
		}
	}
	var rest float64
	for i := range p {
		if i != k {
			rest += p[i]
		}
	}
	p[k] = 1 - rest
	return p
}

func drawOrder(r *rand.Rand) float64 {
	switch r.IntN(7) {
	case 0:
		return r.Float64() * 103
	case 1:
		return r.Float64()
	case 2:
		return math.Exp(math.Log(1e-8) + r.Float64()*(math.Log(0.01)-math.Log(1e-8)))
	case 3:
		sp := []float64{0, 0.5, 1, 1 - 1e-8, 1 + 1e-8, 1.01, 2, math.Inf(1), 1 - 1e-12}
		return sp[r.IntN(len(sp))]
	case 4:
		return 3 + r.Float64()*100
	case 5:
		return 1 + (r.Float64()-0.5)*1e-3
	default:
		return math.Exp(r.Float64() * 9)
	}
}

// TestDivergenceRandomVsReference: random dyadic and skewed distributions at
// orders over [0, +Inf].
func TestDivergenceRandomVsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	st := refStats{name: "Divergence dyadic"}
	sk := refStats{name: "Divergence skewed"}
	for i := 0; i < draws(3000); i++ {
		n := 2 + r.IntN(5)
		bits := max(3, 3+r.IntN(22))
		p, q := dyadicVec(r, n, bits), dyadicVec(r, n, bits)
		a := drawOrder(r)
		v, err := Divergence(p, q, a)
		ref, rerr := ref128.Divergence(p, q, a)
		st.check(t, fmtPQ(p, q, a), v, err, ref, rerr, divBound(n), 0)
	}
	for i := 0; i < draws(1500); i++ {
		n := 2 + r.IntN(6)
		p, q := skewVec(r, n), skewVec(r, n)
		if r.IntN(3) == 0 {
			p[r.IntN(n)] = 0
			p = skewFix(p)
		}
		a := drawOrder(r)
		v, err := Divergence(p, q, a)
		if err != nil {
			continue // a sum off 1 by more than the tolerance after the zeroing
		}
		ref, rerr := ref128.Divergence(p, q, a)
		if rerr != nil {
			continue // the reference's plain sum may refuse what the compensated one accepts
		}
		// these sums are 1 only within ulps: the defects may dominate a
		// tiny divergence, so only "never below" and a loose bound apply
		// to results below 1e-12
		bound := divBound(n)
		if f, _ := ref.Float64(); f < 1e-12 {
			bound = math.Inf(1)
		}
		sk.check(t, fmtPQ(p, q, a), v, err, ref, rerr, bound, 1e-15)
	}
	st.report(t)
	sk.report(t)
}

func skewFix(p []float64) []float64 {
	k := 0
	for i := range p {
		if p[i] > p[k] {
			k = i
		}
	}
	var rest float64
	for i := range p {
		if i != k {
			rest += p[i]
		}
	}
	p[k] = 1 - rest
	return p
}

// TestRandomizedResponseVsReference: the inputs where 1-p was rounded, then
// random p (all of (0, 1), near 1/2, tiny) and orders.
func TestRandomizedResponseVsReference(t *testing.T) {
	t.Parallel()
	st := refStats{name: "RandomizedResponse"}
	const bound = 1e-14
	for _, c := range [][2]float64{
		{0.49990116404408597, 1.0000067190726365}, {1e-10, 3}, {5.551115123125783e-17, 1},
		{0.25 + 0x1p-55, 2}, {1 - 1e-9, 1000}, {1e-9, math.Inf(1)}, {0.3, 1}, {0.5 + 1e-15, 7},
		{1e-300, 1.5}, {1e-300, 1e6}, {1.1125369292536007e-308, 1}, {5e-324, 2}, {1e-310, math.Inf(1)},
	} {
		v, err := RandomizedResponse(c[0], c[1])
		ref, rerr := ref128.RandomizedResponse(c[0], c[1])
		st.check(t, "RR"+fmtF(c[:]), v, err, ref, rerr, bound, 0)
	}
	// an order near MaxFloat64 (the reference cannot take it): RR(p, alpha)
	// is within log(2)/(alpha-1) below RR(p, +Inf)
	for _, a := range []float64{1e300, math.MaxFloat64} {
		v, err := RandomizedResponse(0.7, a)
		ref, rerr := ref128.RandomizedResponse(0.7, math.Inf(1))
		if err != nil || rerr != nil {
			t.Fatal(err, rerr)
		}
		if e := relErr(v, ref); e < -1e-290 || e > bound {
			t.Errorf("RR(0.7, %v) = %v, RR(0.7, +Inf) %s", a, v, ref.Text('g', 20))
		}
	}
	r := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < draws(3000); i++ {
		var p float64
		switch r.IntN(4) {
		case 0:
			p = r.Float64()
		case 1:
			p = 0.5 + (r.Float64()-0.5)*math.Pow(10, -r.Float64()*12)
		case 2:
			p = math.Exp(-r.Float64() * 50)
		default:
			p = 1 - math.Exp(-r.Float64()*35)
		}
		a := 1 + math.Exp(r.Float64()*16-9)
		switch r.IntN(5) {
		case 0:
			a = 1
		case 1:
			a = math.Inf(1)
		case 2:
			a = 1 + r.Float64()*1000
		}
		v, err := RandomizedResponse(p, a)
		ref, rerr := ref128.RandomizedResponse(p, a)
		st.check(t, "RR"+fmtF([]float64{p, a}), v, err, ref, rerr, bound, 0)
	}
	st.report(t)
}

// TestGaussianDivergenceVsReference: unequal variances that cancelled,
// intermediates that underflowed, then random draws (means in [-5, 5], s in
// [0.1, 10] or over 1e-3..1e3, orders over (0, 100] and +Inf).
func TestGaussianDivergenceVsReference(t *testing.T) {
	st := refStats{name: "GaussianDivergence"}
	const bound = 1e-14
	inf := math.Inf(1)
	for _, c := range [][5]float64{
		{2.7257564577450903, 0.10060039917227871, 2.7257564577450903, 9.753486982963615, 92.82587051069387},
		{-1.3895399975049045, 8.122347650063247, -8.053297343145012, 0.10453920029128787, 0.0020759604040094916},
		{2.407412430484045e-35, 0.05, 4.591774807899561e-41, 0.05, 7.615647883063751e-242},
		{3.7291703656001034e-155, 0.05, 1.8645854050759266e-155, 0.05, 0.5},
		{0, 1, 1, 2, inf}, {0, 0.5, 1, 2, inf}, {0, 1, 0, 1.000001, inf}, {1, 1.2, 0, 1, 1},
		{0, 1, 0, 1e-3, 1e-8}, {0, 1e-3, 0, 1, 1e-8}, {0, 1, 0, 1e-3, 1 - 1e-8}, {0, 3, 1, 1, 1.125},
		{0, 3, 1, 1, 1.1}, {1e300, 1e300, -1e300, 1e300, 2}, {0, 1e-200, 1, 1e200, 0.5},
		{0, 1e200, 1, 1e-200, 0.5}, {0, 1, 1, 1, 1e300}, {0, 1, 1, 2, 1e300},
		// subnormal sigmas (double-double products need them scaled)
		{-6.45122e-318, 1.100889e-317, -8.996246069e-314, 1.1008884e-317, 173.13216858812999},
		{7.69365888313892e-170, 2.279487666e-315, 2.3492945e-317, 2.279487137e-315, 179.90324098810012},
		{1.665e-321, 2.50395503334e-312, 8.294071641281624e-183, 2.503955418236e-312, 66.53562147448677},
	} {
		v, err := GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
		ref, rerr := ref128.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
		st.check(t, "GD"+fmtF(c[:]), v, err, ref, rerr, bound, 0)
	}
	// a tiny order where the reference at 128 bits is wrong (its
	// alpha-dependent part lost), at 512 bits right
	{
		c := [5]float64{1, 2.718281828459045, 1.03125, 0.10000000000000002, 2.61012178719941e-54}
		v, err := GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
		ref, rerr := reference.Context{Prec: 512}.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
		st.check(t, "GD"+fmtF(c[:]), v, err, ref, rerr, bound, 0)
	}
	r := rand.New(rand.NewPCG(9, 1))
	lu := func(lo, hi float64) float64 { return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo))) }
	for i := 0; i < draws(3000); i++ {
		m1, m2 := r.Float64()*10-5, r.Float64()*10-5
		if r.IntN(4) == 0 {
			m2 = m1
		}
		s1 := lu(0.1, 10)
		s2 := lu(0.1, 10)
		switch r.IntN(5) {
		case 0:
			s2 = s1
		case 1:
			s1, s2 = lu(1e-3, 1e3), lu(1e-3, 1e3)
		case 2:
			s2 = s1 * (1 + (r.Float64()-0.5)*math.Pow(10, -r.Float64()*12))
		}
		var a float64
		switch r.IntN(6) {
		case 0:
			a = r.Float64()
		case 1:
			a = lu(1e-10, 1e-2)
		case 2:
			a = inf
		case 3:
			a = 1 + (r.Float64()-0.5)*1e-6
		case 4:
			a = 1
		default:
			a = r.Float64() * 100
		}
		v, err := GaussianDivergence(m1, s1, m2, s2, a)
		ref, rerr := ref128.GaussianDivergence(m1, s1, m2, s2, a)
		st.check(t, "GD"+fmtF([]float64{m1, s1, m2, s2, a}), v, err, ref, rerr, bound, 0)
	}
	st.report(t)
}

// TestGaussianExtremeSigma: the Gaussian where 2 sigma^2 overflows or is
// subnormal (Inf/Inf gave NaN at alpha = +Inf for sigma >= 9.5e153).
func TestGaussianExtremeSigma(t *testing.T) {
	st := refStats{name: "Gaussian"}
	for _, c := range [][2]float64{
		{1.422450685039393e+160, math.Inf(1)}, {1e160, 1}, {1e160, 2.5}, {1e-155, 1e-10},
		{1e-160, 1}, {1.1, 3}, {1e300, 1e-10}, {0.3, 5e-324},
	} {
		v, err := Gaussian(c[0], c[1])
		ref, rerr := ref128.Gaussian(c[0], c[1])
		bound := 5 * errfloat.Unit
		if f, _ := ref.Float64(); f < 0x1p-1022 {
			bound = (4*0x1p-1074 + 5*errfloat.Unit*f) / f // subnormal: 4 subnormal ulps
		}
		if ref.Cmp(new(big.Float).SetFloat64(math.MaxFloat64)) > 0 {
			ref = new(big.Float).SetInf(false) // overflows: +Inf
		}
		st.check(t, "Gaussian"+fmtF(c[:]), v, err, ref, rerr, bound, 0)
	}
	var acc Accountant
	acc.Orders = []float64{2, math.Inf(1)}
	if err := acc.ComposeGaussian(1.422450685039393e+160, 1); err != nil {
		t.Fatal(err)
	}
	if _, rdp := acc.Curve(); math.IsNaN(rdp[1]) || !math.IsInf(rdp[1], 1) || !(rdp[0] > 0) {
		t.Errorf("ComposeGaussian(1.4e160) on [2 +Inf]: %v", rdp)
	}
	st.report(t)
}

// TestZeroAtInfiniteOrder: a zero eps or rho stays zero at order +Inf
// (0 * Inf gave NaN).
func TestZeroAtInfiniteOrder(t *testing.T) {
	orders := []float64{2, math.Inf(1)}
	out := make([]float64, 2)
	if err := PureDPCurve(0, orders, out); err != nil || out[0] != 0 || out[1] != 0 {
		t.Errorf("PureDPCurve(0, [2 +Inf]) = %v, %v", out, err)
	}
	if err := PureDPCurve(0.5, orders, out); err != nil || out[1] < 0.5 || out[1] > 0.5*(1+1e-15) {
		t.Errorf("PureDPCurve(0.5, [2 +Inf]) = %v, %v", out, err)
	}
	for _, f := range []func(a *Accountant) error{
		func(a *Accountant) error { return a.ComposeZCDP(0, 3) },
		func(a *Accountant) error { return a.ComposePureDP(0, 3) },
	} {
		acc := Accountant{Orders: orders}
		if err := f(&acc); err != nil {
			t.Fatal(err)
		}
		if _, rdp := acc.Curve(); rdp[0] != 0 || rdp[1] != 0 {
			t.Errorf("zero mechanism on [2 +Inf]: %v", rdp)
		}
	}
	acc := Accountant{Orders: orders}
	_ = acc.ComposeZCDP(0.1, 1)
	if _, rdp := acc.Curve(); !math.IsInf(rdp[1], 1) {
		t.Errorf("ComposeZCDP(0.1) at +Inf: %v", rdp[1])
	}
}

// TestImprovedConversionNearOrderOne: log1p(-1/alpha) near alpha = 1, and random orders near 1
// with delta near 1 for Epsilon and Delta under both conversions.
func TestImprovedConversionNearOrderOne(t *testing.T) {
	st := refStats{name: "Epsilon/Delta near order 1"}
	// single orders: the documented bound is 18u mag, mag the sum of the
	// magnitudes of the terms
	chk := func(orders, rdp []float64, delta float64, conv Conversion) {
		e, _, err := Epsilon(orders, rdp, delta, conv)
		re, _, rerr := ref128.Epsilon(orders, bigs(rdp), delta, reference.Conversion(conv))
		a, ld := orders[0], math.Log(delta)
		mag := rdp[0] + math.Abs(ld)/(a-1)
		if conv == Improved {
			mag += math.Abs(math.Log1p(-1/a)) + math.Abs(ld+math.Log(a))/(a-1)
		}
		bound := (18*errfloat.Unit*mag + 0x1p-50*e) / e
		st.check(t, "Epsilon"+fmtF(orders)+fmtF(rdp)+fmtF([]float64{delta, float64(conv)}), e, err, re, rerr, bound, 0)
	}
	chk([]float64{1.0004884004786945}, []float64{20.08553692318766}, 0.999999999, Improved)
	// a subnormal delta (math.Log is wrong for subnormals on amd64)
	chk([]float64{2.5}, []float64{1}, 1e-310, Improved)
	chk([]float64{2.5}, []float64{1}, 5e-324, Classic)
	if e, _ := ZCDPEpsilon(0.5, 5e-324); e < 0.5+2*math.Sqrt(0.5*744.44) {
		t.Errorf("ZCDPEpsilon(0.5, 5e-324) = %v", e)
	}
	r := rand.New(rand.NewPCG(5, 8))
	for i := 0; i < draws(2000); i++ {
		a := 1 + math.Exp(-r.Float64()*30)
		if r.IntN(3) == 0 {
			a = 1 + r.Float64()*3
		}
		rdp := math.Exp(r.Float64()*12 - 6)
		delta := 1 - math.Exp(-r.Float64()*30)
		if r.IntN(3) == 0 {
			delta = math.Exp(-r.Float64() * 30)
		}
		conv := Conversion(r.IntN(2))
		chk([]float64{a}, []float64{rdp}, delta, conv)
		// Delta: log delta = min (a-1)(rdp - eps [+ log1p(-1/a)]) - log a
		eps := rdp * (1 + r.Float64()*3)
		d, _, err := Delta([]float64{a}, []float64{rdp}, eps, conv)
		rd, _, rerr := ref128.Delta([]float64{a}, bigs([]float64{rdp}), eps, reference.Conversion(conv))
		if err == nil && rerr == nil && rd.Sign() > 0 {
			bound := 1e-10
			if d < 0x1p-1000 {
				bound = math.Inf(1) // subnormal: only never below
			}
			if e := relErr(d, rd); e < 0 || e > bound {
				t.Errorf("Delta([%v], [%v], %v, %v) = %v, ref %s (rel %.3g)", a, rdp, eps, conv, d, rd.Text('g', 17), e)
			}
		}
	}
	st.report(t)
}
