package laws

import (
	"fmt"
	"math"
	"math/big"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck/reference"
)

// checkAgreement: the implementation is within its stated bound of the
// reference at TruthPrec bits and, if it promises to round up, never below
// it. Each check compares one function at one drawn point.
func (im *Impl) checkAgreement(t *rapid.T) {
	ref := reference.Context{Prec: im.TruthPrec}
	// the truth's own relative error, 2^(1-TruthPrec): "never below" allows it
	truthErr := math.Ldexp(1, 1-int(im.TruthPrec))
	agree := func(name string, got float64, want *big.Float, err error, rel float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("call failed: reference %s: %v", name, err)
		}
		val(t, got, nil, "%s", name)
		if want.IsInf() || want.Sign() == 0 {
			w, _ := want.Float64()
			if got != w && !(w == 0 && got >= 0 && got <= tiny) {
				lawf(t, "agreement", "%s = %v, want %v (reference)", name, got, w)
			}
			return
		}
		if math.IsInf(got, 0) {
			lawf(t, "agreement", "%s = %v, want %s (reference)", name, got, want.Text('g', 20))
		}
		d := new(big.Float).SetPrec(256).Sub(big.NewFloat(got), want)
		rd, _ := d.Quo(d, want).Float64()
		// Below 2^-1022 float64 has no relative precision to give (tiny).
		sub := tiny / math.Abs(w64(want))
		if im.Acc.RoundsUp && rd < -truthErr-sub {
			lawf(t, "agreement", "%s = %v, below the reference %s (relative %.3g)", name, got, want.Text('g', 25), rd)
		}
		if math.Abs(rd) > rel+sub {
			lawf(t, "agreement", "%s = %v, want %s (reference): relative error %.3g > %.3g", name, got, want.Text('g', 25), rd, rel)
		}
	}
	switch rapid.SampledFrom([]string{"SGM", "SGM", "SGM", "Divergence", "Gaussian", "GaussianDivergence", "Laplace", "RandomizedResponse", "Epsilon"}).Draw(t, "function") {
	case "SGM":
		p := im.Dom.drawSGM(t, im.Dom.OrderMax)
		name := fmt.Sprintf("SGM(q=%v, sigma=%v, alpha=%v)", p.q, p.sigma, p.alpha)
		got := must(t, "%s", name)(im.SGM(p.q, p.sigma, p.alpha))
		want, err := ref.SGM(p.q, p.sigma, p.alpha)
		agree(name, got, want, err, im.Acc.SGM)
	case "Divergence":
		P, Q := pairPQ(t, "", 8, 40, false)
		a := divOrder(100, true).Draw(t, "alpha")
		name := fmt.Sprintf("Divergence(%v, %v, alpha=%v)", P, Q, a)
		got := must(t, "%s", name)(im.Divergence(P, Q, a))
		want, err := ref.Divergence(P, Q, a)
		agree(name, got, want, err, im.Acc.Divergence)
	case "Gaussian":
		s := logUniform(0.01, 1000).Draw(t, "sigma")
		a := rapid.Float64Range(0, 1e4).Draw(t, "alpha")
		name := fmt.Sprintf("Gaussian(sigma=%v, alpha=%v)", s, a)
		want, err := ref.Gaussian(s, a)
		agree(name, must(t, "%s", name)(im.Gaussian(s, a)), want, err, im.Acc.Closed)
	case "GaussianDivergence":
		m1, m2 := rapid.Float64Range(-10, 10).Draw(t, "m1"), rapid.Float64Range(-10, 10).Draw(t, "m2")
		s1, s2 := logUniform(0.1, 10).Draw(t, "s1"), logUniform(0.1, 10).Draw(t, "s2")
		a := divOrder(100, true).Draw(t, "alpha")
		name := fmt.Sprintf("GaussianDivergence(%v, %v, %v, %v, alpha=%v)", m1, s1, m2, s2, a)
		want, err := ref.GaussianDivergence(m1, s1, m2, s2, a)
		agree(name, must(t, "%s", name)(im.GaussianDivergence(m1, s1, m2, s2, a)), want, err, im.Acc.Closed)
	case "Laplace":
		b := logUniform(0.01, 1000).Draw(t, "b")
		a := rapid.OneOf(rapid.Float64Range(1, 1000), rapid.SampledFrom([]float64{1, 1 + 1e-8, math.Inf(1)})).Draw(t, "alpha")
		name := fmt.Sprintf("Laplace(b=%v, alpha=%v)", b, a)
		want, err := ref.Laplace(b, a)
		agree(name, must(t, "%s", name)(im.Laplace(b, a)), want, err, im.Acc.Closed)
	case "RandomizedResponse":
		p := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0.5, 1 - 1e-9, 1e-9, 0.5 + 1e-12})).Draw(t, "p")
		a := rapid.OneOf(rapid.Float64Range(1, 1000), rapid.SampledFrom([]float64{1, 1 + 1e-8, math.Inf(1)})).Draw(t, "alpha")
		name := fmt.Sprintf("RandomizedResponse(p=%v, alpha=%v)", p, a)
		want, err := ref.RandomizedResponse(p, a)
		agree(name, must(t, "%s", name)(im.RandomizedResponse(p, a)), want, err, im.Acc.Closed)
	default: // Epsilon: an absolute bound, Acc.Conversion times the terms' magnitude
		n := rapid.IntRange(1, 5).Draw(t, "n")
		orders := rapid.SliceOfN(rapid.OneOf(logUniform(1.0001, 1e4), rapid.SampledFrom([]float64{1.01, 2, 64, math.Inf(1)})), n, n).Draw(t, "orders")
		rdp := rapid.SliceOfN(rapid.OneOf(logUniform(1e-8, 100), rapid.SampledFrom([]float64{0, math.Inf(1)})), n, n).Draw(t, "rdp")
		delta := rapid.OneOf(logUniform(1e-300, 0.9), rapid.SampledFrom([]float64{1e-300, 1e-5, 1 - 1e-9})).Draw(t, "delta")
		conv := rapid.SampledFrom([]Conversion{Classic, Improved}).Draw(t, "conv")
		name := fmt.Sprintf("Epsilon(%v, %v, delta=%v, %v)", orders, rdp, delta, conv)
		got, o, err := im.Epsilon(orders, rdp, delta, conv)
		val(t, got, err, "%s", name)
		rb, _ := bigs("Epsilon", rdp)
		want, _, err := ref.Epsilon(orders, rb, delta, conv)
		if err != nil {
			t.Fatalf("call failed: reference %s: %v", name, err)
		}
		if want.IsInf() {
			if !math.IsInf(got, 1) {
				lawf(t, "agreement", "%s = %v, want +Inf", name, got)
			}
			return
		}
		w, _ := want.Float64()
		i := 0
		for i < len(orders) && orders[i] != o {
			i++
		}
		if i == len(orders) {
			lawf(t, "agreement", "%s: order %v is not among the orders", name, o)
		}
		// the order returned may differ from the reference's on near-ties;
		// the bound is on the value.
		slack := im.Acc.Conversion*convMag(conv, o, rdp[i], delta) + truthErr*math.Abs(w)
		if im.Acc.RoundsUp && got < w-truthErr*math.Abs(w) {
			lawf(t, "agreement", "%s = %v, below the reference %v", name, got, w)
		}
		if math.Abs(got-w) > slack {
			lawf(t, "agreement", "%s = %v, want %v (reference): |error| %.3g > %.3g", name, got, w, math.Abs(got-w), slack)
		}
	}
}

func w64(x *big.Float) float64 {
	v, _ := x.Float64()
	return v
}
