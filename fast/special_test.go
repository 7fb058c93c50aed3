package fast_test

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// specialFloats are the inputs rapid's finite floats miss: NaN, the
// infinities, both zeros, subnormals, the extremes, and values next to
// the usual domain edges.
var specialFloats = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	5e-324, 2.2250738585072014e-308, 1e-300, 1e-100, 1e-12, 1e-5, 0.5, 1 - 0x1p-53, 1, 1 + 0x1p-52,
	2, 10, 1024, 1 << 20, 1<<20 + 1, 1e100, 1e300, math.MaxFloat64, -1, -math.MaxFloat64,
}

// specialInts: counts and sizes at and around their edges.
var specialInts = []int{math.MinInt, -1, 0, 1, 2, 1 << 20, 1 << 40, 1 << 53, math.MaxInt}

func drawFloat(t *rapid.T, label string) float64 {
	return rapid.OneOf(rapid.SampledFrom(specialFloats), rapid.Float64(), rapid.Float64Range(-2, 10)).Draw(t, label)
}

func drawInt(t *rapid.T, label string) int {
	return rapid.OneOf(rapid.SampledFrom(specialInts), rapid.IntRange(-2, 100)).Draw(t, label)
}

// drawFloats draws a slice of 0 to 4 such floats.
func drawFloats(t *rapid.T, label string) []float64 {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) float64 { return drawFloat(t, "x") }), 0, 4).Draw(t, label)
}

// kinds are the error kinds of package rdpcheck: every error must wrap one.
func kindOf(err error) bool {
	return errors.Is(err, rdpcheck.ErrInput) || errors.Is(err, rdpcheck.ErrTooLarge) || errors.Is(err, rdpcheck.ErrNotConverged) || errors.Is(err, rdpcheck.ErrPrecision)
}

// A specialCall is one exported function or method: draw draws its
// arguments and returns the call on them, which answers its numbers (the
// first nonNeg of them must be >= 0: an RDP, eps, delta or rho) and its
// error.
type specialCall struct {
	name   string
	nonNeg int
	draw   func(t *rapid.T) func() ([]float64, error)
}

// callLimit bounds one call: a call still running then is a hang.
const callLimit = 60 * time.Second

// checkSpecial draws c's arguments and calls it, failing on a panic, a
// hang, an error without one of rdp's kinds, NaN or -Inf with a nil
// error, or a negative RDP.
func checkSpecial(t *rapid.T, c specialCall) {
	call := c.draw(t)
	type result struct {
		v     []float64
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
		v, err := call()
		done <- result{v: v, err: err}
	}()
	select {
	case r := <-done:
		switch {
		case r.panic != nil:
			t.Fatalf("%s panicked: %v", c.name, r.panic)
		case r.err != nil:
			if !kindOf(r.err) {
				t.Fatalf("%s: error without an rdp kind: %v", c.name, r.err)
			}
		default:
			for i, v := range r.v {
				if math.IsNaN(v) || math.IsInf(v, -1) {
					t.Fatalf("%s: value %d is %v with a nil error", c.name, i, v)
				}
				if i < c.nonNeg && v < 0 {
					t.Fatalf("%s: value %d is %v < 0", c.name, i, v)
				}
			}
		}
	case <-time.After(callLimit):
		t.Fatalf("%s: no answer within %v", c.name, callLimit)
	}
}

func one(v float64, err error) ([]float64, error)    { return []float64{v}, err }
func two(v, w float64, err error) ([]float64, error) { return []float64{v, w}, err }
func withOut(out []float64, err error) ([]float64, error) {
	if err != nil {
		return nil, err
	}
	return out, nil
}

func drawConvAny(t *rapid.T) fast.Conversion {
	return rapid.SampledFrom([]fast.Conversion{fast.Classic, fast.Improved, fast.Conversion(7)}).Draw(t, "conv")
}

func drawRelation(t *rapid.T) string {
	return rapid.SampledFrom([]string{fast.ReplaceOne, fast.ReplaceSpecial, "", "add-remove"}).Draw(t, "relation")
}

func drawRestarts(t *rapid.T) fast.TreeRestarts {
	return rapid.SampledFrom([]fast.TreeRestarts{fast.TreeOneTree, fast.TreeEveryTree, fast.TreeRestarts(5)}).Draw(t, "restarts")
}

func drawIntSlice(t *rapid.T, label string) []int {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) int { return drawInt(t, "n") }), 0, 3).Draw(t, label)
}

// drawSpecialEvent draws any Event of the package with special arguments.
func drawSpecialEvent(t *rapid.T) fast.Event {
	f := func(l string) float64 { return drawFloat(t, l) }
	switch rapid.IntRange(0, 22).Draw(t, "event") {
	case 0:
		return fast.SGMEvent(f("q"), f("sigma"))
	case 1:
		return fast.GaussianEvent(f("sigma"))
	case 2:
		return fast.LaplaceEvent(f("b"))
	case 3:
		return fast.RandomizedResponseEvent(f("p"))
	case 4:
		return fast.ZCDPEvent(f("rho"), f("xi"))
	case 5:
		return fast.PureDPEvent(f("eps"))
	case 6:
		return fast.BoundedRangeEvent(f("eps"))
	case 7:
		return fast.ExponentialMechanismEvent(f("eps"))
	case 8:
		return fast.InfiniteEvent()
	case 9:
		return fast.SampledDivergenceEvent(f("q"), drawFloats(t, "P"), drawFloats(t, "Q"))
	case 10:
		return fast.BaseCurveEvent(rdpcheck.BaseCurve{Eps: drawFloats(t, "base"), Inf: f("inf")})
	case 11:
		return fast.WORGaussianEvent(f("q"), f("sigma"))
	case 12:
		return fast.WORBoundEvent(f("q"), fast.GaussianEvent(f("sigma")))
	case 13:
		return fast.KaryRandomizedResponseEvent(f("noise"), f("buckets"), drawRelation(t))
	case 14:
		return fast.DiscreteGaussianEvent(f("sigma"), f("sensitivity"))
	case 15:
		return fast.TreeAggregationEvent(f("sigma"), drawIntSlice(t, "steps"), drawRestarts(t))
	case 16:
		return fast.TreeMultiParticipationEvent(f("sigma"), drawInt(t, "total"), drawInt(t, "maxPart"), drawInt(t, "minSep"))
	case 17:
		return fast.SampledLaplaceEvent(f("q"), f("b"))
	case 18:
		return fast.RepeatAndSelectEvent(fast.GaussianEvent(f("sigma")), f("mean"), f("shape"))
	case 19:
		return fast.RepeatAndSelectCurveEvent(drawFloats(t, "orders"), drawFloats(t, "rdp"), f("mean"), f("shape"))
	case 20:
		return fast.PoissonBoundEvent(f("q"), fast.GaussianEvent(f("sigma")))
	case 21:
		return fast.OrderFunc(func(a float64) (float64, error) { return fast.Laplace(1, a) })
	}
	return nil // Compose and the searches refuse it
}

// specialCalls lists every exported function of fast, every Event (by its
// RDP) and the Accountant's methods.
func specialCalls() []specialCall {
	f := drawFloat
	type fn = func() ([]float64, error)
	c := func(name string, nonNeg int, draw func(t *rapid.T) fn) specialCall {
		return specialCall{name, nonNeg, draw}
	}
	return []specialCall{
		c("SGM", 1, func(t *rapid.T) fn {
			q, s, a := f(t, "q"), f(t, "sigma"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.SGM(q, s, a)) }
		}),
		c("SGMCurve", 1<<30, func(t *rapid.T) fn {
			q, s, n, o := f(t, "q"), f(t, "sigma"), drawInt(t, "steps"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.SGMCurve(q, s, n, o, out))
			}
		}),
		c("WORGaussian", 1, func(t *rapid.T) fn {
			q, s, a := f(t, "q"), f(t, "sigma"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.WORGaussian(q, s, a)) }
		}),
		c("WORGaussianCurve", 1<<30, func(t *rapid.T) fn {
			q, s, n, o := f(t, "q"), f(t, "sigma"), drawInt(t, "steps"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.WORGaussianCurve(q, s, n, o, out))
			}
		}),
		c("WORBound", 1, func(t *rapid.T) fn {
			q, a, b := f(t, "q"), f(t, "alpha"), rdpcheck.BaseCurve{Eps: drawFloats(t, "base"), Inf: f(t, "inf")}
			return func() ([]float64, error) { return one(fast.WORBound(q, a, b)) }
		}),
		c("Gaussian", 1, func(t *rapid.T) fn {
			s, a := f(t, "sigma"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.Gaussian(s, a)) }
		}),
		c("GaussianDivergence", 1, func(t *rapid.T) fn {
			m1, s1, m2, s2, a := f(t, "m1"), f(t, "s1"), f(t, "m2"), f(t, "s2"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.GaussianDivergence(m1, s1, m2, s2, a)) }
		}),
		c("Laplace", 1, func(t *rapid.T) fn {
			b, a := f(t, "b"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.Laplace(b, a)) }
		}),
		c("RandomizedResponse", 1, func(t *rapid.T) fn {
			p, a := f(t, "p"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.RandomizedResponse(p, a)) }
		}),
		c("Divergence", 1, func(t *rapid.T) fn {
			p, q, a := drawFloats(t, "p"), drawFloats(t, "q"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.Divergence(p, q, a)) }
		}),
		c("SampledDivergence", 1, func(t *rapid.T) fn {
			q, p, qq, a := f(t, "q"), drawFloats(t, "P"), drawFloats(t, "Q"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.SampledDivergence(q, p, qq, a)) }
		}),
		c("SampledLaplace", 1, func(t *rapid.T) fn {
			q, b, a := f(t, "q"), f(t, "b"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.SampledLaplace(q, b, a)) }
		}),
		c("SampledLaplaceCurve", 1<<30, func(t *rapid.T) fn {
			q, b, o := f(t, "q"), f(t, "b"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.SampledLaplaceCurve(q, b, o, out))
			}
		}),
		c("PoissonBound", 1, func(t *rapid.T) fn {
			q, a, b := f(t, "q"), f(t, "alpha"), drawFloats(t, "base")
			return func() ([]float64, error) { return one(fast.PoissonBound(q, a, b)) }
		}),
		c("KaryRandomizedResponse", 1, func(t *rapid.T) fn {
			n, k, r, a := f(t, "noise"), f(t, "buckets"), drawRelation(t), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.KaryRandomizedResponse(n, k, r, a)) }
		}),
		c("KaryRandomizedResponseCurve", 1<<30, func(t *rapid.T) fn {
			n, k, r, o := f(t, "noise"), f(t, "buckets"), drawRelation(t), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.KaryRandomizedResponseCurve(n, k, r, o, out))
			}
		}),
		c("PureDP", 1, func(t *rapid.T) fn {
			e, a := f(t, "eps"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.PureDP(e, a)) }
		}),
		c("PureDPCurve", 1<<30, func(t *rapid.T) fn {
			e, o := f(t, "eps"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.PureDPCurve(e, o, out))
			}
		}),
		c("ZCDP", 1, func(t *rapid.T) fn {
			r, x, a := f(t, "rho"), f(t, "xi"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.ZCDP(r, x, a)) }
		}),
		c("ExponentialMechanism", 1, func(t *rapid.T) fn {
			e, a := f(t, "eps"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.ExponentialMechanism(e, a)) }
		}),
		c("ExponentialMechanismCurve", 1<<30, func(t *rapid.T) fn {
			e, o := f(t, "eps"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.ExponentialMechanismCurve(e, o, out))
			}
		}),
		c("GroupPrivacy", 1, func(t *rapid.T) fn {
			o, r, k, a := drawFloats(t, "orders"), drawFloats(t, "rdp"), drawInt(t, "c"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.GroupPrivacy(o, r, k, a)) }
		}),
		c("LaplaceZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]float64, error) { return one(fast.LaplaceZCDP(e)) }
		}),
		c("KaryRRZCDP", 1, func(t *rapid.T) fn {
			e, k := f(t, "eps"), f(t, "buckets")
			return func() ([]float64, error) { return one(fast.KaryRRZCDP(e, k)) }
		}),
		c("RAPPORZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]float64, error) { return one(fast.RAPPORZCDP(e)) }
		}),
		c("BoundedRangeZCDP", 1, func(t *rapid.T) fn {
			e := f(t, "eps")
			return func() ([]float64, error) { return one(fast.BoundedRangeZCDP(e)) }
		}),
		c("ZCDPEpsilon", 1, func(t *rapid.T) fn {
			r, d := f(t, "rho"), f(t, "delta")
			return func() ([]float64, error) { return one(fast.ZCDPEpsilon(r, d)) }
		}),
		c("ZCDPEpsilonRDP", 1, func(t *rapid.T) fn {
			r, d := f(t, "rho"), f(t, "delta")
			return func() ([]float64, error) { return two(fast.ZCDPEpsilonRDP(r, d)) }
		}),
		c("AdvancedComposition", 1, func(t *rapid.T) fn {
			e, k, d := f(t, "eps"), drawInt(t, "k"), f(t, "deltaPrime")
			return func() ([]float64, error) { return one(fast.AdvancedComposition(e, k, d)) }
		}),
		c("DiscreteGaussian", 1, func(t *rapid.T) fn {
			s, d, a := f(t, "sigma"), f(t, "sensitivity"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.DiscreteGaussian(s, d, a)) }
		}),
		c("DiscreteGaussianCurve", 1<<30, func(t *rapid.T) fn {
			s, d, o := f(t, "sigma"), f(t, "sensitivity"), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.DiscreteGaussianCurve(s, d, o, out))
			}
		}),
		c("TreeAggregation", 1, func(t *rapid.T) fn {
			s, st, a, r := f(t, "sigma"), drawIntSlice(t, "steps"), f(t, "alpha"), drawRestarts(t)
			return func() ([]float64, error) { return one(fast.TreeAggregation(s, st, r, a)) }
		}),
		c("TreeAggregationCurve", 1<<30, func(t *rapid.T) fn {
			s, st, r, o := f(t, "sigma"), drawIntSlice(t, "steps"), drawRestarts(t), drawFloats(t, "orders")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.TreeAggregationCurve(s, st, r, o, out))
			}
		}),
		c("TreeMultiParticipation", 1, func(t *rapid.T) fn {
			s, n, m, k, a := f(t, "sigma"), drawInt(t, "total"), drawInt(t, "maxPart"), drawInt(t, "minSep"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.TreeMultiParticipation(s, n, m, k, a)) }
		}),
		c("TreeSensitivitySquareSum", 1, func(t *rapid.T) fn {
			n, m, s := drawInt(t, "n"), drawInt(t, "m"), drawInt(t, "s")
			return func() ([]float64, error) {
				v, err := fast.TreeSensitivitySquareSum(n, m, s)
				return []float64{float64(v)}, err
			}
		}),
		c("RepeatAndSelect", 1, func(t *rapid.T) fn {
			o, r, m, s, a := drawFloats(t, "orders"), drawFloats(t, "rdp"), f(t, "mean"), f(t, "shape"), f(t, "alpha")
			return func() ([]float64, error) { return one(fast.RepeatAndSelect(o, r, m, s, a)) }
		}),
		c("RepeatAndSelectCurve", 1<<30, func(t *rapid.T) fn {
			o, r, m, s := drawFloats(t, "orders"), drawFloats(t, "rdp"), f(t, "mean"), f(t, "shape")
			return func() ([]float64, error) {
				out := make([]float64, len(o))
				return withOut(out, fast.RepeatAndSelectCurve(o, r, m, s, out))
			}
		}),
		c("Epsilon", 1, func(t *rapid.T) fn {
			o, r, d, cv := drawFloats(t, "orders"), drawFloats(t, "rdp"), f(t, "delta"), drawConvAny(t)
			return func() ([]float64, error) { return two(fast.Epsilon(o, r, d, cv)) }
		}),
		c("Delta", 1, func(t *rapid.T) fn {
			o, r, e, cv := drawFloats(t, "orders"), drawFloats(t, "rdp"), f(t, "eps"), drawConvAny(t)
			return func() ([]float64, error) { return two(fast.Delta(o, r, e, cv)) }
		}),
		c("BestEpsilon", 1, func(t *rapid.T) fn {
			e, g, d, cv := drawSpecialEvent(t), drawFloats(t, "grid"), f(t, "delta"), drawConvAny(t)
			if rapid.Bool().Draw(t, "nil grid") {
				g = nil
			}
			return func() ([]float64, error) { return two(fast.BestEpsilon(e, g, d, cv)) }
		}),
		c("BestDelta", 1, func(t *rapid.T) fn {
			e, g, eps, cv := drawSpecialEvent(t), drawFloats(t, "grid"), f(t, "eps"), drawConvAny(t)
			if rapid.Bool().Draw(t, "nil grid") {
				g = nil
			}
			return func() ([]float64, error) { return two(fast.BestDelta(e, g, eps, cv)) }
		}),
		c("CalibrateSigma", 2, func(t *rapid.T) fn {
			q, n, e, d, cv, o, tol := f(t, "q"), drawInt(t, "steps"), f(t, "eps"), f(t, "delta"), drawConvAny(t), drawFloats(t, "orders"), f(t, "tol")
			return func() ([]float64, error) { return two(fast.CalibrateSigma(q, n, e, d, cv, o, tol)) }
		}),
		c("CalibrateSigmaBest", 2, func(t *rapid.T) fn {
			q, n, e, d, cv, tol := f(t, "q"), drawInt(t, "steps"), f(t, "eps"), f(t, "delta"), drawConvAny(t), f(t, "tol")
			return func() ([]float64, error) { return two(fast.CalibrateSigmaBest(q, n, e, d, cv, tol)) }
		}),
		c("CalibrateSigmaFunc", 2, func(t *rapid.T) fn {
			e, tol, v := f(t, "eps"), f(t, "tol"), f(t, "epsOf's value")
			return func() ([]float64, error) {
				return two(fast.CalibrateSigmaFunc(e, tol, func(s float64) (float64, error) { return v / s, nil }))
			}
		}),
		c("MaxSteps", 2, func(t *rapid.T) fn {
			q, s, e, d, cv, o := f(t, "q"), f(t, "sigma"), f(t, "eps"), f(t, "delta"), drawConvAny(t), drawFloats(t, "orders")
			return func() ([]float64, error) {
				n, v, err := fast.MaxSteps(q, s, e, d, cv, o)
				return []float64{float64(n), v}, err
			}
		}),
		c("MaxStepsBest", 2, func(t *rapid.T) fn {
			q, s, e, d, cv := f(t, "q"), f(t, "sigma"), f(t, "eps"), f(t, "delta"), drawConvAny(t)
			return func() ([]float64, error) {
				n, v, err := fast.MaxStepsBest(q, s, e, d, cv)
				return []float64{float64(n), v}, err
			}
		}),
		c("MaxStepsFunc", 2, func(t *rapid.T) fn {
			e, v := f(t, "eps"), f(t, "epsOf's slope")
			return func() ([]float64, error) {
				n, a, err := fast.MaxStepsFunc(e, func(n int) (float64, error) { return v * float64(n), nil })
				return []float64{float64(n), a}, err
			}
		}),
		c("Event.RDP", 1<<30, func(t *rapid.T) fn {
			e, o := drawSpecialEvent(t), drawFloats(t, "orders")
			return func() ([]float64, error) {
				if e == nil {
					return nil, nil
				}
				out := make([]float64, len(o))
				return withOut(out, e.RDP(o, out))
			}
		}),
		c("Accountant", 1<<30, func(t *rapid.T) fn {
			var a fast.Accountant
			if !rapid.Bool().Draw(t, "default orders") {
				a.Orders = drawFloats(t, "orders")
			}
			type step func() error
			var steps []step
			for i := range rapid.IntRange(0, 3).Draw(t, "events") {
				n := drawInt(t, fmt.Sprint("count ", i))
				switch rapid.IntRange(0, 4).Draw(t, "compose") {
				case 0:
					e := drawSpecialEvent(t)
					steps = append(steps, func() error { return a.Compose(e, n) })
				case 1:
					q, s := f(t, "q"), f(t, "sigma")
					steps = append(steps, func() error { return a.ComposeSGM(q, s, n) })
				case 2:
					e, d := f(t, "eps"), f(t, "delta")
					steps = append(steps, func() error { return a.ComposeEpsilonDelta(e, d, n) })
				case 3:
					q, b := f(t, "q"), drawFloats(t, "base")
					steps = append(steps, func() error { return a.ComposePoissonBound(q, b, n) })
				case 4:
					r, x := f(t, "rho"), f(t, "xi")
					steps = append(steps, func() error { return a.ComposeZCDPXi(r, x, n) })
				}
			}
			d, e, alpha, o := f(t, "delta"), f(t, "eps"), f(t, "alpha"), drawFloats(t, "query orders")
			cv := drawConvAny(t)
			return func() ([]float64, error) {
				for _, s := range steps {
					if err := s(); err != nil && !kindOf(err) {
						return nil, err
					}
				}
				var vs []float64
				var errs []error
				for _, q := range []func() ([]float64, error){
					func() ([]float64, error) { return two(a.Epsilon(d, cv)) },
					func() ([]float64, error) { return two(a.Delta(e, cv)) },
					func() ([]float64, error) { return two(a.BestEpsilon(d, cv)) },
					func() ([]float64, error) { return two(a.BestDelta(e, cv)) },
					func() ([]float64, error) { return one(a.RDPAt(alpha)) },
					func() ([]float64, error) { out := make([]float64, len(o)); return withOut(out, a.RDP(o, out)) },
					func() ([]float64, error) { _, r := a.Curve(); return r, nil },
					func() ([]float64, error) { return []float64{a.KeptDelta()}, nil },
				} {
					v, err := q()
					if err != nil {
						errs = append(errs, err)
						continue
					}
					vs = append(vs, v...) // eps, delta, RDP, kept delta, orders: >= 0
				}
				if err := errors.Join(errs...); err != nil && !kindOfAll(errs) {
					return nil, err
				}
				return vs, nil
			}
		}),
	}
}

// kindOfAll says whether every error has one of rdp's kinds.
func kindOfAll(errs []error) bool {
	for _, e := range errs {
		if !kindOf(e) {
			return false
		}
	}
	return true
}

// TestContractSpecialInputs: every exported function and method of fast,
// given NaN, the infinities, both zeros, subnormals, huge values and
// counts (and its usual inputs), returns a value or an error of one of
// package rdpcheck's kinds (errors.Is with ErrInput, ErrTooLarge,
// ErrNotConverged): never a panic or a hang, never NaN or -Inf with a nil
// error, never a negative RDP, eps, delta or rho.
func TestContractSpecialInputs(t *testing.T) {
	t.Parallel()
	for _, c := range specialCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rapid.Check(t, func(t *rapid.T) { checkSpecial(t, c) })
		})
	}
}

// The inputs TestContractSpecialInputs caught, each row with the bounds
// its value must meet (the tree's row is in tree_test.go).
func TestSpecialInputRegressions(t *testing.T) {
	for _, c := range []struct {
		caught string
		f      func() (float64, error)
		lo, hi float64
	}{
		// below the classic bound rho + 2 sqrt(rho log 2) = 5.3e-155
		{"ZCDPEpsilonRDP: log(1/delta)/rho overflowed, NaN eps", func() (float64, error) {
			e, _, err := fast.ZCDPEpsilonRDP(1e-310, 0.5)
			return e, err
		}, 0, 5.3e-155},
		{"ZCDPEpsilonRDP: the bracket collapsed onto order 1, 0/0", func() (float64, error) {
			e, o, err := fast.ZCDPEpsilonRDP(2.2416947521616445e+33, 1e-12)
			if !(o > 1) {
				return math.NaN(), err
			}
			return e, err
		}, 2.2416947521616445e+33, 2.2416947521616445e+33 * (1 + 3e-15)}, // rho, and the conversion's 9u of rounding up
		// alpha/(2 alpha - 1) was Inf/Inf above MaxFloat64/2; the exact
		// value is 1/b - log(2 - 1/alpha)/(alpha - 1), 1 to 17 digits
		{"Laplace: 2 alpha - 1 overflowed, -Inf", func() (float64, error) { return fast.Laplace(1, math.MaxFloat64) }, 1, 1 + 1e-14},
		// at most its value at +Inf, log(1 + q (e - 1)), 8.5e-324 rounded up
		{"SampledLaplace: the unsampled fallback was -Inf", func() (float64, error) { return fast.SampledLaplace(5e-324, 1, math.MaxFloat64) }, 0, 1e-322},
		{"SampledLaplace at q = 0.5: the fallback was -Inf", func() (float64, error) { return fast.SampledLaplace(0.5, 1, math.MaxFloat64) }, 0.37, 0.63},
	} {
		v, err := c.f()
		if err != nil || !(v >= c.lo && v <= c.hi) {
			t.Errorf("%s: %v, %v; want a value in [%g, %g]", c.caught, v, err, c.lo, c.hi)
		}
	}
}

// TestPoissonBoundHugeBase: a base curve near MaxFloat64, whose
// cgf (k-1) base overflows, gives +Inf, a valid bound, and a huge finite
// one a finite bound (both caught by TestContractSpecialInputs: q 0.5,
// alpha 2.5, base {0, MaxFloat64}, and q 5e-324, alpha 1, base {1e100},
// were NaN with a nil error).
func TestPoissonBoundHugeBase(t *testing.T) {
	for _, c := range []struct {
		q, alpha float64
		base     []float64
	}{
		{0.5, 2.5, []float64{0, math.MaxFloat64}},
		{0.5, 3, []float64{0, 1e308}},
		{1, 3, []float64{1, math.MaxFloat64}},
	} {
		v, err := fast.PoissonBound(c.q, c.alpha, c.base)
		if err != nil || !math.IsInf(v, 1) {
			t.Errorf("PoissonBound(%g, %g, %v) = %v, %v; want +Inf", c.q, c.alpha, c.base, v, err)
		}
	}
	// A huge but finite cgf: the sum's largest term, q^2 (e^x - 1) with
	// x = 1e100, has a log whose low part (2 log q = -1489) is beyond exp's
	// range, and the term was dropped (NaN). The bound is at least that
	// term's log, 1e100 - 1489.8, whose nearest float64 is 1e100.
	if v, err := fast.PoissonBound(5e-324, 1, []float64{1e100}); err != nil || !(v >= 1e100 && v < math.Inf(1)) {
		t.Errorf("PoissonBound(5e-324, 1, [1e100]) = %v, %v; want at least 1e100, finite", v, err)
	}
}
