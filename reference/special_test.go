package reference_test

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/reference"
)

// refSpecials are the special inputs of fast's contract test, less the
// valid ones that cost the reference minutes by design (orders near
// MaxIntegerOrder, sigma in the millions; see the package documentation).
var refSpecials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	5e-324, 2.2250738585072014e-308, 1e-300, 1e-12, 1e-5, 0.5, 1 - 0x1p-53, 1, 1 + 0x1p-52,
	2, 10, 1<<20 + 1, 1e100, 1e300, math.MaxFloat64, -1, -math.MaxFloat64,
}

var refInts = []int{math.MinInt, -1, 0, 1, 2, 1 << 40, 1 << 53, math.MaxInt}

func refFloat(t *rapid.T, label string) float64 {
	return rapid.OneOf(rapid.SampledFrom(refSpecials), rapid.Float64Range(-2, 10)).Draw(t, label)
}

func refInt(t *rapid.T, label string) int {
	return rapid.OneOf(rapid.SampledFrom(refInts), rapid.IntRange(-2, 40)).Draw(t, label)
}

func refFloats(t *rapid.T, label string) []float64 {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) float64 { return refFloat(t, "x") }), 0, 3).Draw(t, label)
}

func refBigs(t *rapid.T, n int, label string) []*big.Float {
	out := make([]*big.Float, n)
	for i := range out {
		x := refFloat(t, label)
		if math.IsNaN(x) {
			continue // nil: reference's "no value"
		}
		out[i] = new(big.Float).SetFloat64(x)
	}
	return out
}

func refKind(err error) bool {
	return errors.Is(err, rdpcheck.ErrInput) || errors.Is(err, rdpcheck.ErrTooLarge) || errors.Is(err, rdpcheck.ErrPrecision) || errors.Is(err, rdpcheck.ErrNotConverged)
}

// A refSpecial is one exported function: draw draws its arguments and
// returns the call, which answers its values (the first nonNeg must be
// >= 0) and any float64 results (orders).
type refSpecial struct {
	name   string
	nonNeg int
	draw   func(t *rapid.T) func() ([]*big.Float, []float64, error)
}

func checkRefSpecial(t *rapid.T, c refSpecial) {
	call := c.draw(t)
	type result struct {
		v     []*big.Float
		f     []float64
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		v, f, err := call()
		done <- result{v: v, f: f, err: err}
	}()
	select {
	case r := <-done:
		switch {
		case r.panic != nil:
			t.Fatalf("%s panicked: %v", c.name, r.panic)
		case r.err != nil:
			if !refKind(r.err) {
				t.Fatalf("%s: error without an rdp kind: %v", c.name, r.err)
			}
		default:
			for i, v := range r.v {
				if v == nil {
					t.Fatalf("%s: value %d is nil with a nil error", c.name, i)
				}
				if i < c.nonNeg && v.Sign() < 0 {
					t.Fatalf("%s: value %d is %v < 0", c.name, i, v)
				}
			}
			for i, f := range r.f {
				if math.IsNaN(f) {
					t.Fatalf("%s: result %d is NaN with a nil error", c.name, i)
				}
			}
		}
	case <-time.After(callLimit):
		t.Fatalf("%s: no answer within %v", c.name, callLimit)
	}
}

// callLimit bounds one call: a call still running then is a hang.
const callLimit = 60 * time.Second

func refSpecials2() []refSpecial {
	ctx := reference.Context{Prec: 64}
	f := refFloat
	type fn = func() ([]*big.Float, []float64, error)
	one := func(v *big.Float, err error) ([]*big.Float, []float64, error) { return []*big.Float{v}, nil, err }
	two := func(v, w *big.Float, err error) ([]*big.Float, []float64, error) { return []*big.Float{v, w}, nil, err }
	withOrder := func(v *big.Float, o float64, err error) ([]*big.Float, []float64, error) {
		return []*big.Float{v}, []float64{o}, err
	}
	conv := func(t *rapid.T) reference.Conversion {
		return rapid.SampledFrom([]reference.Conversion{reference.Classic, reference.Improved, reference.Conversion(7)}).Draw(t, "conv")
	}
	restarts := func(t *rapid.T) reference.TreeRestarts {
		return rapid.SampledFrom([]reference.TreeRestarts{reference.TreeOneTree, reference.TreeEveryTree, reference.TreeRestarts(5)}).Draw(t, "restarts")
	}
	ints := func(t *rapid.T, label string) []int {
		return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) int { return refInt(t, "n") }), 0, 3).Draw(t, label)
	}
	c := func(name string, nonNeg int, draw func(t *rapid.T) fn) refSpecial {
		return refSpecial{name, nonNeg, draw}
	}
	return []refSpecial{
		c("SGM", 1, func(t *rapid.T) fn {
			q, s, a := f(t, "q"), f(t, "sigma"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.SGM(q, s, a)) }
		}),
		c("SGMDirections", 2, func(t *rapid.T) fn {
			q, s, a := f(t, "q"), f(t, "sigma"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return two(ctx.SGMDirections(q, s, a)) }
		}),
		c("SGMCurve", 1<<30, func(t *rapid.T) fn {
			q, s, n, o := f(t, "q"), f(t, "sigma"), refInt(t, "steps"), refFloats(t, "orders")
			return func() ([]*big.Float, []float64, error) { v, err := ctx.SGMCurve(q, s, n, o); return v, nil, err }
		}),
		c("WORGaussian", 1, func(t *rapid.T) fn {
			q, s, a := f(t, "q"), f(t, "sigma"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.WORGaussian(q, s, a)) }
		}),
		c("WORGaussianCurve", 1<<30, func(t *rapid.T) fn {
			q, s, n, o := f(t, "q"), f(t, "sigma"), refInt(t, "steps"), refFloats(t, "orders")
			return func() ([]*big.Float, []float64, error) {
				v, err := ctx.WORGaussianCurve(q, s, n, o)
				return v, nil, err
			}
		}),
		c("WORBound", 1, func(t *rapid.T) fn {
			q, a, b := f(t, "q"), f(t, "alpha"), rdpcheck.BaseCurve{Eps: refFloats(t, "base"), Inf: f(t, "inf")}
			return func() ([]*big.Float, []float64, error) { return one(ctx.WORBound(q, a, b)) }
		}),
		c("Gaussian", 1, func(t *rapid.T) fn {
			s, a := f(t, "sigma"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.Gaussian(s, a)) }
		}),
		c("GaussianDivergence", 1, func(t *rapid.T) fn {
			m1, s1, m2, s2, a := f(t, "m1"), f(t, "s1"), f(t, "m2"), f(t, "s2"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.GaussianDivergence(m1, s1, m2, s2, a)) }
		}),
		c("Laplace", 1, func(t *rapid.T) fn {
			b, a := f(t, "b"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.Laplace(b, a)) }
		}),
		c("RandomizedResponse", 1, func(t *rapid.T) fn {
			p, a := f(t, "p"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.RandomizedResponse(p, a)) }
		}),
		c("Divergence", 1, func(t *rapid.T) fn {
			p, q, a := refFloats(t, "p"), refFloats(t, "q"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.Divergence(p, q, a)) }
		}),
		c("SampledDivergence", 1, func(t *rapid.T) fn {
			q, p, qq, a := f(t, "q"), refFloats(t, "P"), refFloats(t, "Q"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.SampledDivergence(q, p, qq, a)) }
		}),
		c("SampledDivergenceDirections", 2, func(t *rapid.T) fn {
			q, p, qq, a := f(t, "q"), refFloats(t, "P"), refFloats(t, "Q"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return two(ctx.SampledDivergenceDirections(q, p, qq, a)) }
		}),
		c("SampledLaplace", 1, func(t *rapid.T) fn {
			q, b, a := f(t, "q"), f(t, "b"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.SampledLaplace(q, b, a)) }
		}),
		c("SampledLaplaceDirections", 2, func(t *rapid.T) fn {
			q, b, a := f(t, "q"), f(t, "b"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return two(ctx.SampledLaplaceDirections(q, b, a)) }
		}),
		c("PoissonBound", 1, func(t *rapid.T) fn {
			q, a, b := f(t, "q"), f(t, "alpha"), refFloats(t, "base")
			return func() ([]*big.Float, []float64, error) { return one(ctx.PoissonBound(q, a, b)) }
		}),
		c("KaryRandomizedResponse", 1, func(t *rapid.T) fn {
			n, k, a := f(t, "noise"), f(t, "buckets"), f(t, "alpha")
			r := rapid.SampledFrom([]string{"replace-one", "replace-special", "", "x"}).Draw(t, "relation")
			return func() ([]*big.Float, []float64, error) { return one(ctx.KaryRandomizedResponse(n, k, r, a)) }
		}),
		c("PureDP", 1, func(t *rapid.T) fn {
			e, a := f(t, "eps"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.PureDP(e, a)) }
		}),
		c("ZCDP", 1, func(t *rapid.T) fn {
			r, x, a := f(t, "rho"), f(t, "xi"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.ZCDP(r, x, a)) }
		}),
		c("ExponentialMechanism", 1, func(t *rapid.T) fn {
			e, a := f(t, "eps"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.ExponentialMechanism(e, a)) }
		}),
		c("GroupPrivacy", 1, func(t *rapid.T) fn {
			o := refFloats(t, "orders")
			r, g, a := refBigs(t, len(o), "rdp"), refInt(t, "groupLog2"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.GroupPrivacy(o, r, g, a)) }
		}),
		c("RepeatAndSelect", 1, func(t *rapid.T) fn {
			o := refFloats(t, "orders")
			r, m, s, a := refBigs(t, len(o), "rdp"), f(t, "mean"), f(t, "shape"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.RepeatAndSelect(o, r, m, s, a)) }
		}),
		c("Epsilon", 1, func(t *rapid.T) fn {
			o := refFloats(t, "orders")
			r, d, cv := refBigs(t, len(o), "rdp"), f(t, "delta"), conv(t)
			return func() ([]*big.Float, []float64, error) { return withOrder(ctx.Epsilon(o, r, d, cv)) }
		}),
		c("Delta", 1, func(t *rapid.T) fn {
			o := refFloats(t, "orders")
			r, e, cv := refBigs(t, len(o), "rdp"), f(t, "eps"), conv(t)
			return func() ([]*big.Float, []float64, error) { return withOrder(ctx.Delta(o, r, e, cv)) }
		}),
		c("LaplaceZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]*big.Float, []float64, error) { return one(ctx.LaplaceZCDP(e)) }
		}),
		c("KaryRRZCDP", 1, func(t *rapid.T) fn {
			e, k := f(t, "eps"), f(t, "buckets")
			return func() ([]*big.Float, []float64, error) { return one(ctx.KaryRRZCDP(e, k)) }
		}),
		c("RAPPORZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]*big.Float, []float64, error) { return one(ctx.RAPPORZCDP(e)) }
		}),
		c("BoundedRangeZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]*big.Float, []float64, error) { return one(ctx.BoundedRangeZCDP(e)) }
		}),
		c("DiscreteGaussian", 1, func(t *rapid.T) fn {
			s, d, a := f(t, "sigma"), f(t, "sensitivity"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.DiscreteGaussian(s, d, a)) }
		}),
		c("TreeAggregation", 1, func(t *rapid.T) fn {
			s, st, a, r := f(t, "sigma"), ints(t, "steps"), f(t, "alpha"), restarts(t)
			return func() ([]*big.Float, []float64, error) { return one(ctx.TreeAggregation(s, st, r, a)) }
		}),
		c("TreeMultiParticipation", 1, func(t *rapid.T) fn {
			s, n, m, k, a := f(t, "sigma"), refInt(t, "total"), refInt(t, "maxPart"), refInt(t, "minSep"), f(t, "alpha")
			return func() ([]*big.Float, []float64, error) { return one(ctx.TreeMultiParticipation(s, n, m, k, a)) }
		}),
		c("TreeSensitivitySquareSum", 0, func(t *rapid.T) fn {
			n, m, s := refInt(t, "n"), refInt(t, "m"), refInt(t, "s")
			return func() ([]*big.Float, []float64, error) {
				v, err := reference.TreeSensitivitySquareSum(n, m, s)
				return nil, []float64{float64(v)}, err
			}
		}),
	}
}

// TestContractSpecialInputs: every exported function of reference, given
// NaN, the infinities, both zeros, subnormals, huge values and counts,
// returns a value or an error of one of package rdpcheck's kinds: never a
// panic or a hang, never a nil value with a nil error, never a negative
// RDP. (The inputs that are valid but cost minutes by design are left
// out: see refSpecials.)
func TestContractSpecialInputs(t *testing.T) {
	t.Parallel()
	for _, c := range refSpecials2() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rapid.Check(t, func(t *rapid.T) { checkRefSpecial(t, c) })
		})
	}
}

// The inputs TestContractSpecialInputs caught. Expected values: mpmath
// at 60 digits (mp.dps = 60) of the closed form named, 30 shown.
func TestSpecialInputRegressions(t *testing.T) {
	ctx := reference.Context{Prec: 64}
	for _, c := range []struct {
		caught string
		f      func() (*big.Float, error)
		want   string
	}{
		// log(a/(2a-1) e^((a-1)/b) + (a-1)/(2a-1) e^(-a/b))/(a-1)
		{"Laplace: e^((alpha-1)/b) beyond big.Float, log +Inf panicked",
			func() (*big.Float, error) { return ctx.Laplace(4.656612873077393e-10, 1.75) }, "2147483647.52443340808169016145"},
		{"SampledLaplace at q = 1 is Laplace's",
			func() (*big.Float, error) { return ctx.SampledLaplace(1, 4.656612873077393e-10, 1.75) }, "2147483647.52443340808169016145"},
		// -log r - (1 - r) + eps^2 (alpha-1)/8, log r = log eps - eps -
		// log1p(-e^-eps), below eps
		{"ExponentialMechanism: 1 - u was 0, log 0 panicked",
			func() (*big.Float, error) { return ctx.ExponentialMechanism(1048577, 1+0x1p-52) }, "1048562.13708595276356484113617"},
		// the same form is above eps: eps itself (the float64 1e100)
		{"ExponentialMechanism: e^eps beyond big.Float", func() (*big.Float, error) { return ctx.ExponentialMechanism(1e100, 1.5) }, "1.00000000000000001590289110976e+100"},
		// log((e^(a eps) + e^((1-a) eps))/(1 + e^eps))/(a-1): 1 - 6.9e-101
		{"PureDP: e^(alpha eps) beyond big.Float, log +Inf panicked", func() (*big.Float, error) { return ctx.PureDP(1, 1e100) }, "1"},
		// eps + (log1p(e^(-(2a-1) eps)) - log1p(e^-eps))/(a-1)
		{"PureDP: the weight e^eps/(1+e^eps) was Inf/Inf", func() (*big.Float, error) { return ctx.PureDP(1e100, 1+0x1p-52) }, "1.00000000000000001590289110976e+100"},
	} {
		v, err := c.f()
		want, _ := new(big.Float).SetPrec(200).SetString(c.want)
		if err != nil {
			t.Errorf("%s: %v", c.caught, err)
			continue
		}
		d := new(big.Float).SetPrec(200).Sub(v, want)
		d.Quo(d, want)
		if rel, _ := d.Float64(); math.Abs(rel) > 0x1p-60 {
			t.Errorf("%s: %s, want %s (relative %g)", c.caught, v.Text('g', 25), c.want, rel)
		}
	}
	// 13 minutes and counting at q = 2.2e-308: refused, as documented
	if v, err := ctx.SampledLaplace(2.2250738585072014e-308, 1, 2); !errors.Is(err, rdpcheck.ErrTooLarge) {
		t.Errorf("SampledLaplace(2.2e-308, 1, 2) = %v, %v: want ErrTooLarge", v, err)
	}
}
