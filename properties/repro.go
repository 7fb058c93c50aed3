package properties

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// knownBugs maps each bug of knownbugs.go (its constant describes it) to
// its reproduction: the inputs that found it, checked against what the
// documentation promises. A reproduction returns one message per input
// that shows the bug, none while it stays fixed.
// Expected values come from the reference at 128 bits (127 correct bits
// by its Ziv guarantee) or, for the reference's own bug, a closed form in
// 3000-bit arithmetic.
var knownBugs = map[string]func() []string{
	BugFastKLZeros: func() []string {
		return divRepro([]float64{0, 0.125, 0.875}, []float64{0.125, 0.125, 0.75}, 1)
	},
	BugFastAlphaBelowOne: func() []string {
		return join(
			divRepro([]float64{9.5367431640625e-07, 0.5179376602172852, 0.48206138610839844},
				[]float64{0.9046564102172852, 0.004558563232421875, 0.09078502655029297}, 0.09645037160767224),
			divRepro([]float64{0.125, 0.875}, []float64{0, 1}, 0x1p-20),
			divRepro([]float64{0.5, 0.5}, []float64{0.25, 0.75}, 1e-5))
	},
	BugFastOverflow: func() []string {
		return divRepro([]float64{0.8160602794142788, 0.18393972058572117}, []float64{1, 7.61985302416047e-24}, 14)
	},
	BugFastDInfNearOne: func() []string {
		return join(
			divRepro([]float64{0, 1}, []float64{6.103515625e-05, 0.99993896484375}, math.Inf(1)),
			divRepro([]float64{0, 1}, []float64{0.015625, 0.984375}, math.Inf(1)))
	},
	BugFastRRRoundedOneMinusP: func() []string {
		var out []string
		for _, c := range [][2]float64{{5.551115123125783e-17, 1}, {1e-10, 3}, {0.49990116404408597, 1.0000067190726365}} {
			v, err := fast.RandomizedResponse(c[0], c[1])
			w, werr := ref128.RandomizedResponse(c[0], c[1])
			out = append(out, above(fmt.Sprintf("fast.RandomizedResponse(%v, %v)", c[0], c[1]), v, err, w, werr, 1e-14)...)
		}
		return out
	},
	BugFastGaussianVariances: func() []string {
		var out []string
		for _, c := range [][5]float64{
			{2.7257564577450903, 0.10060039917227871, 2.7257564577450903, 9.753486982963615, 92.82587051069387},
			{-1.3895399975049045, 8.122347650063247, -8.053297343145012, 0.10453920029128787, 0.0020759604040094916},
			{1, 2.718281828459045, 1.03125, 0.10000000000000002, 2.61012178719941e-54},
		} {
			v, err := fast.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
			w := GaussianDivergence3000(c[0], c[1], c[2], c[3], c[4])
			out = append(out, above(fmt.Sprintf("fast.GaussianDivergence%v", c), v, err, w, nil, 1e-14)...)
		}
		return out
	},
	BugFastGaussianUnderflow: func() []string {
		var out []string
		for _, c := range [][5]float64{
			{2.407412430484045e-35, 0.05, 4.591774807899561e-41, 0.05, 7.615647883063751e-242},
			{3.7291703656001034e-155, 0.05, 1.8645854050759266e-155, 0.05, 0.5},
		} {
			v, err := fast.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
			w, werr := ref128.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
			out = append(out, above(fmt.Sprintf("fast.GaussianDivergence%v", c), v, err, w, werr, 1e-14)...)
		}
		return out
	},
	BugFastImprovedNearOne: func() []string {
		orders, rdp := []float64{1.0004884004786945}, []float64{20.08553692318766}
		e, _, err := fast.Epsilon(orders, rdp, 0.999999999, fast.Improved)
		w, _, werr := ref128.Epsilon(orders, []*big.Float{big.NewFloat(rdp[0])}, 0.999999999, reference.Improved)
		return above("fast.Epsilon([1.0004884004786945], [20.08553692318766], 0.999999999, improved)", e, err, w, werr, 1e-14)
	},
	BugFastZeroAtInf: func() []string {
		var out []string
		o := make([]float64, 2)
		if err := fast.PureDPCurve(0, []float64{2, math.Inf(1)}, o); err != nil || o[1] != 0 {
			out = append(out, fmt.Sprintf("fast.PureDPCurve(0, [2 +Inf]) = %v, %v, want [0 0]", o, err))
		}
		a := fast.Accountant{Orders: []float64{2, math.Inf(1)}}
		if err := a.ComposeZCDP(0, 1); err != nil {
			out = append(out, fmt.Sprintf("ComposeZCDP(rho=0): %v", err))
		} else if _, rdp := a.Curve(); rdp[1] != 0 {
			out = append(out, fmt.Sprintf("ComposeZCDP(rho=0) on orders [2 +Inf] gives rdp %v, want [0 0]", rdp))
		}
		return out
	},
	// The SGM values are reference.Context{Prec: 128}.SGM to 30 digits
	// (at 8ed0cd0), written out because the subnormal q costs the reference
	// 4 s.
	BugFastSGMTransition: func() []string {
		var out []string
		for _, c := range []struct {
			q, s, a float64
			want    string
		}{
			{1e-9, 1, 40.59375, "3.605183011859504504917995159e-17"},
			{1e-9, 1, 39.84375, "3.42314000811617696782713629169e-17"},
			{7.582560427911933e-10, 1, 39.99999999999999, "1.97586007968912404196252844368e-17"},
			{1.1756597373746562e-12, 0.6318041516766033, 21.187679586258803, "5.73849960323106219088627964369e-22"},
		} {
			v, err := fast.SGM(c.q, c.s, c.a)
			out = append(out, above(fmt.Sprintf("fast.SGM(%v, %v, %v)", c.q, c.s, c.a), v, err, dec(c.want), nil, 1e-12)...)
		}
		return out
	},
	BugFastSGMSubnormalQ: func() []string {
		v, err := fast.SGM(1e-310, 0.3333333333333333, 161)
		// outside the promised q: only "never below"
		return above("fast.SGM(1e-310, 0.3333333333333333, 161)", v, err, dec("6.23736255416995180313450467607"), nil, math.Inf(1))
	},
	BugFastSGMExtremeSigma: func() []string {
		var out []string
		for _, c := range [][3]float64{{0.3, 1e-300, 2}, {0.5, 1e300, 1.5}, {0.3960075827205882, 8.950283081143601e-154, 59}} {
			if v, err := fast.SGM(c[0], c[1], c[2]); err != nil || math.IsNaN(v) || v < 0 {
				out = append(out, fmt.Sprintf("fast.SGM(%v, %v, %v) = %v, %v, want a non-negative value (never NaN)", c[0], c[1], c[2], v, err))
			}
		}
		return out
	},
	BugFastGaussianHugeSigma: func() []string {
		if v, err := fast.Gaussian(1.422450685039393e+160, math.Inf(1)); err != nil || !math.IsInf(v, 1) {
			return []string{fmt.Sprintf("fast.Gaussian(1.422450685039393e+160, +Inf) = %v, %v, want +Inf", v, err)}
		}
		return nil
	},
	BugRefGaussianTinyAlpha: func() []string {
		m1, s1, m2, s2, a := 1.0, 2.718281828459045, 1.03125, 0.10000000000000002, 2.61012178719941e-54
		want := GaussianDivergence3000(m1, s1, m2, s2, a)
		v, err := ref128.GaussianDivergence(m1, s1, m2, s2, a)
		if err != nil {
			return []string{err.Error()}
		}
		d := new(big.Float).SetPrec(3000).Sub(v, want)
		if r, _ := d.Quo(d, want).Float64(); math.Abs(r) > 0x1p-126 {
			return []string{fmt.Sprintf("reference.Context{Prec: 128}.GaussianDivergence(%v, %v, %v, %v, %v) = %s, want %s (relative error %.3g)",
				m1, s1, m2, s2, a, v.Text('g', 20), want.Text('g', 20), r)}
		}
		return nil
	},
}

var ref128 = reference.Context{Prec: 128}

// dec parses a decimal expected value (never an input: inputs are float64).
func dec(x string) *big.Float {
	v, _, err := big.ParseFloat(x, 10, 128, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return v
}

// Repro runs the reproduction of bug: one message per input that shows
// it.
func Repro(bug string) []string {
	f, ok := knownBugs[bug]
	if !ok {
		return []string{"no reproduction for " + bug}
	}
	return f()
}

// KnownBugs lists the bugs with a reproduction.
func KnownBugs() []string {
	var out []string
	for k := range knownBugs {
		out = append(out, k)
	}
	return out
}

func join(x ...[]string) []string {
	var out []string
	for _, v := range x {
		out = append(out, v...)
	}
	return out
}

// divRepro: fast.Divergence never below the reference, within 1e-13.
func divRepro(p, q []float64, a float64) []string {
	v, err := fast.Divergence(p, q, a)
	w, werr := ref128.Divergence(p, q, a)
	return above(fmt.Sprintf("fast.Divergence(%v, %v, %v)", p, q, a), v, err, w, werr, 1e-13)
}

// above checks a fast value against the exact one: never below it, within
// rel of it (8 subnormal steps allowed).
func above(name string, got float64, err error, want *big.Float, werr error, rel float64) []string {
	if err != nil || werr != nil {
		return []string{fmt.Sprintf("%s: errors %v, %v", name, err, werr)}
	}
	if want.IsInf() {
		if !math.IsInf(got, 1) {
			return []string{fmt.Sprintf("%s = %v, want +Inf", name, got)}
		}
		return nil
	}
	if math.IsInf(got, 0) || math.IsNaN(got) {
		return []string{fmt.Sprintf("%s = %v, want %s", name, got, want.Text('g', 20))}
	}
	w, _ := want.Float64()
	d := new(big.Float).SetPrec(256).Sub(big.NewFloat(got), want)
	if want.Sign() != 0 {
		d.Quo(d, want)
	}
	r, _ := d.Float64()
	sub := 0.0
	if w != 0 {
		sub = tiny / math.Abs(w)
	}
	switch {
	case r < -sub:
		return []string{fmt.Sprintf("%s = %v, below the exact %s (relative %.3g)", name, got, want.Text('g', 20), r)}
	case r > rel+sub:
		return []string{fmt.Sprintf("%s = %v, want %s (relative error %.3g > %.3g)", name, got, want.Text('g', 20), r, rel)}
	}
	return nil
}

// GaussianDivergence3000 is log(s2/s1) + log(s2^2/sa^2)/(2(alpha-1)) +
// alpha (m1-m2)^2/(2 sa^2), sa^2 = alpha s2^2 + (1-alpha) s1^2 (Gil,
// Alajaji, Linder 2013), in 3000-bit big.Float with bigfloat.Log: far more
// bits than any cancellation in the inputs used here costs. For alpha in
// (0, 1) or alpha > 1 with sa^2 > 0.
func GaussianDivergence3000(m1, s1, m2, s2, a float64) *big.Float {
	const P = 3000
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(P).SetFloat64(x) }
	A, S1, S2 := f(a), f(s1), f(s2)
	s1s := new(big.Float).SetPrec(P).Mul(S1, S1)
	s2s := new(big.Float).SetPrec(P).Mul(S2, S2)
	sa := new(big.Float).SetPrec(P).Mul(A, s2s)
	sa.Add(sa, new(big.Float).SetPrec(P).Mul(new(big.Float).SetPrec(P).Sub(f(1), A), s1s))
	t1 := bigfloat.Log(new(big.Float).SetPrec(P).Quo(S2, S1))
	t2 := bigfloat.Log(new(big.Float).SetPrec(P).Quo(s2s, sa))
	t2.Quo(t2, new(big.Float).SetPrec(P).Mul(f(2), new(big.Float).SetPrec(P).Sub(A, f(1))))
	dm := new(big.Float).SetPrec(P).Sub(f(m1), f(m2))
	t3 := new(big.Float).SetPrec(P).Mul(dm, dm)
	t3.Mul(t3, A)
	t3.Quo(t3, new(big.Float).SetPrec(P).Mul(f(2), sa))
	return t1.Add(t1, t2).Add(t1, t3)
}
