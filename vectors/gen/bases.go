package gen

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// The general subsampling bounds, PoissonBound (sampled.json) and WORBound
// (wor.json), take a base mechanism's RDP curve at the integer orders 2,
// 3, ...: these are the bases of their vector groups, each the reference's
// value at 128 bits rounded up to float64 (a valid base curve, taken
// exactly as written).

// baseCurve is a named base mechanism: its RDP at orders 2..top and at +inf.
type baseCurve struct {
	name string
	slug string // the group name's part
	eps  []float64
	inf  float64
}

// baseOrderTop is the largest order of the base curves (the groups' orders
// go up to it).
const baseOrderTop = 32

func baseCurves() []baseCurve {
	ctx := reference.Context{Prec: 128}
	mk := func(name, slug string, inf float64, f func(a float64) (*big.Float, error)) baseCurve {
		c := baseCurve{name: name, slug: slug, inf: inf}
		for a := 2; a <= baseOrderTop; a++ {
			v, err := f(float64(a))
			if err != nil {
				panic(fmt.Sprintf("base %s at %d: %v", name, a, err))
			}
			c.eps = append(c.eps, upFloat(v))
		}
		return c
	}
	lap := func(b float64) baseCurve {
		return mk(fmt.Sprintf("Laplace(b=%g)", b), fmt.Sprintf("laplace-b%g", b), math.Nextafter(1/b, inf), func(a float64) (*big.Float, error) { return ctx.Laplace(b, a) })
	}
	gauss := func(s float64) baseCurve {
		return mk(fmt.Sprintf("Gaussian(sigma=%g)", s), fmt.Sprintf("gaussian-sigma%g", s), inf, func(a float64) (*big.Float, error) { return ctx.Gaussian(s, a) })
	}
	rr := mk("RandomizedResponse(p=0.75)", "rr-p0.75", math.Nextafter(math.Log(3), inf), func(a float64) (*big.Float, error) { return ctx.RandomizedResponse(0.75, a) })
	return []baseCurve{lap(0.5), lap(1), lap(10), gauss(1), gauss(4), rr}
}

// baseTest is one test of a general bound: q, the base curve (and, for
// WORBound, its +inf value), alpha.
func baseTest(comment string, flags []string, q float64, c baseCurve, withInf bool, a float64) *schema.Test {
	t := &schema.Test{Comment: comment, Flags: flags}
	t.SetFloat("q", q)
	t.Base, t.BaseHex = schema.Lists(c.eps)
	if withInf {
		t.SetFloat("baseInf", c.inf)
	}
	t.SetFloat("alpha", a)
	return t
}

// poissonBoundGroups appends PoissonBound's groups to sampled.json: Zhu and
// Wang's general bound for Laplace, Gaussian and randomized-response bases,
// and its invalid inputs.
func (b *FileBuilder) poissonBoundGroups(e *verify.Engine) {
	for _, c := range baseCurves() {
		g := b.Group("poisson-bound/"+c.slug, schema.PoissonBound, "Zhu and Wang 2019's general bound (as reference.PoissonBound states it) for the base "+c.name+" at orders 2..32", SampledTolerance)
		for _, q := range []float64{1e-6, 0.01, 0.5, 1} {
			for _, a := range []float64{2, 3.5, 8, 32} {
				t := baseTest(fmt.Sprintf("base %s: q=%g alpha=%g", c.name, q, a), sampledFlags(q, a), q, c, false, a)
				b.Test(g, t, e.RefJob("PoissonBound "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
					return ctx.PoissonBound(q, a, c.eps)
				}), nil)
			}
		}
	}
	lap := baseCurves()[1]
	nan := math.NaN()
	g := b.Group("invalid/poisson-bound", schema.PoissonBound, "PoissonBound: q in [0, 1], alpha >= 1 (not NaN), a base holding orders 2..ceil(alpha), entries >= 0 and not NaN", SampledTolerance)
	for _, c := range []struct {
		what  string
		q     float64
		eps   []float64
		a     float64
		flags []string
	}{
		{"base too short for alpha", 0.01, lap.eps[:3], 8, []string{"BadCurve"}},
		{"NaN entry", 0.01, append([]float64{nan}, lap.eps[1:]...), 8, []string{"BadCurve"}},
		{"negative entry", 0.01, append([]float64{-0.5}, lap.eps[1:]...), 8, []string{"BadCurve"}},
		{"q > 1", 1.5, lap.eps, 8, []string{BadFlag(1.5)}},
		{"q NaN", nan, lap.eps, 8, []string{BadFlag(nan)}},
		{"alpha < 1", 0.01, lap.eps, 0.5, []string{BadFlag(0.5)}},
	} {
		t := baseTest(fmt.Sprintf("%s: q=%g alpha=%g", c.what, c.q, c.a), c.flags, c.q, baseCurve{eps: c.eps}, false, c.a)
		t.Result = schema.Invalid
		b.Test(g, t, e.RefJob("PoissonBound "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.PoissonBound(c.q, c.a, c.eps)
		}), nil)
	}
}

// worBoundGroups appends WORBound's groups to wor.json: WBK19's Theorem 9
// for the same bases (the Gaussian's comparable with WORGaussian's
// Theorem 27 groups), and its invalid inputs.
func (b *FileBuilder) worBoundGroups(e *verify.Engine) {
	for _, c := range baseCurves() {
		g := b.Group("wor-bound/"+c.slug, schema.WORBound, "WBK19's general bound (Theorem 9) for the base "+c.name+" at orders 2..32 and +inf", WORTolerance)
		for _, q := range []float64{1e-6, 0.01, 0.5, 1} {
			for _, a := range []float64{2, 3.5, 8, 32} {
				t := baseTest(fmt.Sprintf("base %s: q=%g alpha=%g", c.name, q, a), sampledFlags(q, a), q, c, true, a)
				b.Test(g, t, e.RefJob("WORBound "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
					return ctx.WORBound(q, a, rdpcheck.BaseCurve{Eps: c.eps, Inf: c.inf})
				}), nil)
			}
		}
	}
	lap := baseCurves()[1]
	nan := math.NaN()
	g := b.Group("invalid/wor-bound", schema.WORBound, "WORBound: q in [0, 1], alpha >= 1 (not NaN), a base holding orders 2..ceil(alpha), entries >= 0 and not NaN, baseInf >= every entry (or inf)", WORTolerance)
	for _, c := range []struct {
		what  string
		q     float64
		eps   []float64
		inf   float64
		a     float64
		flags []string
	}{
		{"base too short for alpha", 0.01, lap.eps[:3], lap.inf, 8, []string{"BadCurve"}},
		{"NaN entry", 0.01, append([]float64{nan}, lap.eps[1:]...), lap.inf, 8, []string{"BadCurve"}},
		{"negative entry", 0.01, append([]float64{-0.5}, lap.eps[1:]...), lap.inf, 8, []string{"BadCurve"}},
		{"baseInf below an entry", 0.01, lap.eps, lap.eps[0] / 2, 8, []string{"BadCurve"}},
		{"q > 1", 1.5, lap.eps, lap.inf, 8, []string{BadFlag(1.5)}},
		{"alpha NaN", 0.01, lap.eps, lap.inf, nan, []string{BadFlag(nan)}},
	} {
		t := baseTest(fmt.Sprintf("%s: q=%g alpha=%g", c.what, c.q, c.a), c.flags, c.q, baseCurve{eps: c.eps, inf: c.inf}, true, c.a)
		t.Result = schema.Invalid
		b.Test(g, t, e.RefJob("WORBound "+t.Comment, func(ctx reference.Context) (*big.Float, error) {
			return ctx.WORBound(c.q, c.a, rdpcheck.BaseCurve{Eps: c.eps, Inf: c.inf})
		}), nil)
	}
}
