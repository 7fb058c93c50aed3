package laws

import (
	"errors"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/vectorstest"
)

// u is the unit roundoff of float64.
const u = 0x1p-53

// tiny is 64 of float64's smallest steps (3e-322), added to every
// comparison: below 2^-1022 float64 has no relative precision to give, and
// a few roundings of a subnormal value, or an implementation's absolute
// rounding margin there, cost that much. It is far below any value a
// broken implementation gets wrong by.
const tiny = 64 * 0x1p-1074

// Conversion is the RDP to (eps, delta) conversion, rdpcheck.Conversion: one
// type for both implementations.
type Conversion = rdpcheck.Conversion

// The two conversions.
const (
	Classic  = rdpcheck.Classic
	Improved = rdpcheck.Improved
)

// Impl is an implementation under test: a set of functions with fast's
// signatures, what it promises about their accuracy, and the part of the
// domain the laws draw from (so that the arbitrary-precision reference stays
// affordable). A struct of funcs rather than an interface, so that a broken
// variant is one field assignment away (see the mutant tests).
type Impl struct {
	Name string

	// The functions: one table with vectorstest's (the vector files ask
	// for the same functions, with the same signatures), so a function
	// added there is here and Vectors hands every one over. The laws use
	// the functions of mechanisms and the conversions; DPSGDEpsilon (SGMCurve
	// then Epsilon), the profile functions (pld's certified intervals) and
	// Known and Timeout (vectorstest's grading) stay nil.
	Funcs

	// ZCDPEpsilon is Bun and Steinke's closed form rho + 2 sqrt(rho log(1/delta));
	// nil where the implementation has none (the reference).
	ZCDPEpsilon   func(rho, delta float64) (float64, error)
	NewAccountant func(orders []float64) Accountant

	// IsInputError reports whether err is the implementation's typed
	// bad-input error.
	IsInputError func(error) bool

	Acc Accuracy
	Dom Domain
	// TruthPrec is the precision of the reference the agreement law
	// compares with: 64 bits for fast (2^-63 relative, far below fast's
	// 1e-12), and twice the implementation's own for the reference.
	TruthPrec uint
}

// Funcs is the table of functions an Impl and a vectorstest.Impl share.
type Funcs = vectorstest.Impl

// Vectors returns m's functions as a vectorstest.Impl, to run the vector
// files on them.
func (m *Impl) Vectors() vectorstest.Impl { return m.Funcs }

// Accuracy is what an implementation promises: relative error bounds of
// its values (as float64 results), and whether every value is an upper
// bound on the exact one. The laws use these, and nothing looser, as their
// slack.
type Accuracy struct {
	SGM        float64 // SGM and SGMCurve, relative
	Closed     float64 // Gaussian, GaussianDivergence, Laplace, RandomizedResponse, relative
	Divergence float64 // discrete Divergence, relative
	// Conversion bounds the error of Epsilon (absolute, in units of the
	// magnitude of the terms of the conversion at the order used) and of
	// Delta (relative, per unit of (alpha-1) times that magnitude).
	Conversion float64
	RoundsUp   bool // values are never below the exact ones

	Sampled float64 // SampledLaplace, SampledDivergence, PoissonBound, relative
	// Events bounds the issue-12 events (KaryRandomizedResponse, PureDP,
	// ...), relative.
	Events float64
}

// Domain bounds the inputs the laws draw for SGM.
type Domain struct {
	QMin               float64
	SigmaMin, SigmaMax float64
	OrderMax           float64 // largest order (integer or fractional) drawn for SGM
	IntOrderMax        int     // largest integer order drawn for SGM
}

// Accountant composes events on fixed orders; both fast.Accountant and a
// big.Float sum of reference values satisfy it through adapters.
type Accountant interface {
	ComposeSGM(q, sigma float64, steps int) error
	ComposeGaussian(sigma float64, count int) error
	ComposeLaplace(b float64, count int) error
	ComposeRandomizedResponse(p float64, count int) error
	ComposeZCDP(rho float64, count int) error
	ComposePureDP(eps float64, count int) error
	Curve() []float64
	Epsilon(delta float64, conv Conversion) (eps, order float64, err error)
	ComposeKaryRandomizedResponse(noise, buckets float64, relation string, count int) error
	ComposeExponentialMechanism(eps float64, count int) error
	ComposeZCDPXi(rho, xi float64, count int) error
	ComposeEpsilonDelta(eps, delta float64, count int) error
	ComposeDiscreteGaussian(sigma, sensitivity float64, count int) error
	ComposeTreeAggregation(sigma float64, steps []int, restarts rdpcheck.TreeRestarts, count int) error
	ComposeTreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation, count int) error
	ComposeRepeatAndSelect(orders, rdp []float64, mean, shape float64, count int) error
}

// Fast returns package fast as an Impl, with the bounds its documentation
// states: SGM within 1e-12 relative for q in [1e-12, 1], sigma in
// [0.1, 1000], integer orders to 10,000 and fractional orders to 256 (the
// domain drawn is exactly that); closed forms "relative error below 1e-14";
// Divergence "relative error below about 1e-13"; conversions "8 ulps of the
// largest term" (16u; 32u here to cover the magnitude recomputed by the
// laws); all rounded up.
func Fast() *Impl {
	return &Impl{
		Name: "fast",
		Funcs: Funcs{
			SGM:                fast.SGM,
			SGMCurve:           fast.SGMCurve,
			Gaussian:           fast.Gaussian,
			GaussianDivergence: fast.GaussianDivergence,
			Laplace:            fast.Laplace,
			RandomizedResponse: fast.RandomizedResponse,
			Divergence:         fast.Divergence,
			Epsilon:            fast.Epsilon,
			Delta:              fast.Delta,
			SampledLaplace:     fast.SampledLaplace,
			SampledDivergence:  fast.SampledDivergence,
			PoissonBound:       fast.PoissonBound,
			WORGaussian:        fast.WORGaussian,
			WORBound:           fast.WORBound,

			KaryRandomizedResponse: fast.KaryRandomizedResponse,
			PureDP:                 fast.PureDP,
			ZCDP:                   fast.ZCDP,
			ExponentialMechanism:   fast.ExponentialMechanism,
			GroupPrivacy:           fast.GroupPrivacy,

			LaplaceZCDP:            fast.LaplaceZCDP,
			KaryRRZCDP:             fast.KaryRRZCDP,
			RAPPORZCDP:             fast.RAPPORZCDP,
			BoundedRangeZCDP:       fast.BoundedRangeZCDP,
			DiscreteGaussian:       fast.DiscreteGaussian,
			TreeAggregation:        fast.TreeAggregation,
			TreeMultiParticipation: fast.TreeMultiParticipation,
			RepeatAndSelect:        fast.RepeatAndSelect,
		},
		ZCDPEpsilon: fast.ZCDPEpsilon,
		NewAccountant: func(orders []float64) Accountant {
			return fastAccountant{&fast.Accountant{Orders: orders}}
		},
		IsInputError: func(err error) bool { return errors.Is(err, fast.ErrInput) },
		Acc:          Accuracy{SGM: 1e-12, Closed: 1e-14, Divergence: 1e-13, Conversion: 32 * u, RoundsUp: true, Sampled: 1e-12, Events: 1e-12},
		Dom:          Domain{QMin: 1e-12, SigmaMin: 0.1, SigmaMax: 1000, OrderMax: 256, IntOrderMax: 10000},
		TruthPrec:    64,
	}
}

// fastAccountant adapts fast.Accountant to Accountant: Curve returns the
// RDP values only.
type fastAccountant struct{ *fast.Accountant }

func (a fastAccountant) Curve() []float64 {
	_, rdp := a.Accountant.Curve()
	return rdp
}

// Reference returns package reference at prec bits as an Impl. Its values
// are correct to prec bits and then rounded to the nearest float64, so
// every bound is 2u + 2^(1-prec) (4u here); they are not upper bounds. The
// SGM domain is the affordable one: sigma >= 0.3, orders <= 64, q >= 1e-6
// (about 5-25 ms a call at 64 bits).
func Reference(prec uint) *Impl {
	c := reference.Context{Prec: prec}
	return &Impl{
		Name: "reference",
		Funcs: Funcs{
			SGM: func(q, s, a float64) (float64, error) { return f64(c.SGM(q, s, a)) },
			SGMCurve: func(q, sigma float64, steps int, orders, out []float64) error {
				if len(out) != len(orders) {
					return &reference.InputError{Pkg: "reference", Func: "SGMCurve", Arg: "out", Value: float64(len(out)), Msg: "must have len(orders) elements"}
				}
				v, err := c.SGMCurve(q, sigma, steps, orders)
				if err != nil {
					return err
				}
				copy(out, f64s(v))
				return nil
			},
			Gaussian: func(s, a float64) (float64, error) { return f64(c.Gaussian(s, a)) },
			GaussianDivergence: func(m1, s1, m2, s2, a float64) (float64, error) {
				return f64(c.GaussianDivergence(m1, s1, m2, s2, a))
			},
			Laplace:            func(b, a float64) (float64, error) { return f64(c.Laplace(b, a)) },
			RandomizedResponse: func(p, a float64) (float64, error) { return f64(c.RandomizedResponse(p, a)) },
			Divergence:         func(p, q []float64, a float64) (float64, error) { return f64(c.Divergence(p, q, a)) },
			SampledLaplace:     func(q, b, a float64) (float64, error) { return f64(c.SampledLaplace(q, b, a)) },
			PoissonBound:       func(q, a float64, base []float64) (float64, error) { return f64(c.PoissonBound(q, a, base)) },
			SampledDivergence: func(q float64, p, qd []float64, a float64) (float64, error) {
				return f64(c.SampledDivergence(q, p, qd, a))
			},
			Epsilon:     refConversion("Epsilon", c.Epsilon),
			Delta:       refConversion("Delta", c.Delta),
			WORGaussian: func(q, s, a float64) (float64, error) { return f64(c.WORGaussian(q, s, a)) },
			WORBound:    func(q, a float64, b rdpcheck.BaseCurve) (float64, error) { return f64(c.WORBound(q, a, b)) },

			KaryRandomizedResponse: func(n, k float64, rel string, a float64) (float64, error) {
				return f64(c.KaryRandomizedResponse(n, k, rel, a))
			},
			PureDP:               func(e, a float64) (float64, error) { return f64(c.PureDP(e, a)) },
			ZCDP:                 func(rho, xi, a float64) (float64, error) { return f64(c.ZCDP(rho, xi, a)) },
			ExponentialMechanism: func(e, a float64) (float64, error) { return f64(c.ExponentialMechanism(e, a)) },
			GroupPrivacy: func(orders, rdp []float64, k int, a float64) (float64, error) {
				r, err := bigs("GroupPrivacy", rdp)
				if err != nil {
					return 0, err
				}
				return f64(c.GroupPrivacy(orders, r, k, a))
			},

			LaplaceZCDP:      func(e float64) (float64, error) { return f64(c.LaplaceZCDP(e)) },
			KaryRRZCDP:       func(e, k float64) (float64, error) { return f64(c.KaryRRZCDP(e, k)) },
			RAPPORZCDP:       func(e float64) (float64, error) { return f64(c.RAPPORZCDP(e)) },
			BoundedRangeZCDP: func(e float64) (float64, error) { return f64(c.BoundedRangeZCDP(e)) },
			DiscreteGaussian: func(s, d, a float64) (float64, error) { return f64(c.DiscreteGaussian(s, d, a)) },
			TreeAggregation: func(s float64, steps []int, r rdpcheck.TreeRestarts, a float64) (float64, error) {
				return f64(c.TreeAggregation(s, steps, r, a))
			},
			TreeMultiParticipation: func(s float64, n, m, sep int, a float64) (float64, error) {
				return f64(c.TreeMultiParticipation(s, n, m, sep, a))
			},
			RepeatAndSelect: func(orders, rdp []float64, mean, shape, a float64) (float64, error) {
				r, err := bigs("RepeatAndSelect", rdp)
				if err != nil {
					return 0, err
				}
				return f64(c.RepeatAndSelect(orders, r, mean, shape, a))
			},
		},
		NewAccountant: func(orders []float64) Accountant { return newRefAccountant(c, orders) },
		IsInputError: func(err error) bool {
			var ie *reference.InputError
			return errors.As(err, &ie)
		},
		Acc:       Accuracy{SGM: 4 * u, Closed: 4 * u, Divergence: 4 * u, Conversion: 4 * u, Sampled: 4 * u, Events: 4 * u},
		Dom:       Domain{QMin: 1e-6, SigmaMin: 0.3, SigmaMax: 100, OrderMax: 64, IntOrderMax: 64},
		TruthPrec: 2 * max(prec, 64),
	}
}

// refConversion adapts the reference's Epsilon or Delta to float64 curves.
func refConversion(fn string, conv func([]float64, []*big.Float, float64, Conversion) (*big.Float, float64, error)) func([]float64, []float64, float64, Conversion) (float64, float64, error) {
	return func(orders, rdp []float64, x float64, c Conversion) (float64, float64, error) {
		r, err := bigs(fn, rdp)
		if err != nil {
			return 0, 0, err
		}
		e, o, err := conv(orders, r, x, c)
		v, err := f64(e, err)
		return v, o, err
	}
}

func f64(v *big.Float, err error) (float64, error) {
	if err != nil {
		return 0, err
	}
	x, _ := v.Float64()
	return x, nil
}

func f64s(v []*big.Float) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i], _ = x.Float64()
	}
	return out
}

// bigs converts an RDP curve for the reference. big.Float has no NaN, so a
// NaN is refused here with the reference's own error type, as the reference
// refuses every other invalid RDP value.
func bigs(fn string, rdp []float64) ([]*big.Float, error) {
	out := make([]*big.Float, len(rdp))
	for i, x := range rdp {
		if math.IsNaN(x) {
			return nil, &reference.InputError{Pkg: "reference", Func: fn, Arg: "rdp", Value: x, Msg: "RDP must not be NaN"}
		}
		out[i] = new(big.Float).SetFloat64(x)
	}
	return out, nil
}

// refAccountant is the reference's accountant: a sum, in big.Float, of the
// reference's curves (SGMCurve for the sampled Gaussian, the closed forms
// times count for the others), converted by reference.Epsilon.
type refAccountant struct {
	c      reference.Context
	orders []float64
	rdp    []*big.Float
	keep   *big.Float // prod (1 - delta_i)^count_i of ComposeEpsilonDelta; nil before one
}

// sumPrec keeps the running sums exact for the sums the laws build (values
// of 64 bits between 2^-200 and 2^200).
const sumPrec = 1024

func newRefAccountant(c reference.Context, orders []float64) *refAccountant {
	a := &refAccountant{c: c, orders: append([]float64(nil), orders...)}
	for range orders {
		a.rdp = append(a.rdp, new(big.Float).SetPrec(sumPrec))
	}
	return a
}

func (a *refAccountant) add(v []*big.Float) {
	for i := range a.rdp {
		a.rdp[i].Add(a.rdp[i], v[i])
	}
}

func countErr(fn string, n int) error {
	if n <= 0 {
		return &reference.InputError{Pkg: "reference", Func: fn, Arg: "count", Value: float64(n), Msg: "must be > 0"}
	}
	return nil
}

// each adds count times f(alpha) at every order, or nothing on error.
func (a *refAccountant) each(fn string, count int, f func(alpha float64) (*big.Float, error)) error {
	if err := countErr(fn, count); err != nil {
		return err
	}
	v := make([]*big.Float, len(a.orders))
	for i, x := range a.orders {
		y, err := f(x)
		if err != nil {
			return err
		}
		v[i] = new(big.Float).SetPrec(sumPrec).Mul(y, new(big.Float).SetInt64(int64(count)))
	}
	a.add(v)
	return nil
}

func (a *refAccountant) ComposeSGM(q, sigma float64, steps int) error {
	v, err := a.c.SGMCurve(q, sigma, steps, a.orders)
	if err != nil {
		return err
	}
	a.add(v)
	return nil
}

func (a *refAccountant) ComposeGaussian(sigma float64, count int) error {
	return a.each("ComposeGaussian", count, func(x float64) (*big.Float, error) { return a.c.Gaussian(sigma, x) })
}

func (a *refAccountant) ComposeLaplace(b float64, count int) error {
	return a.each("ComposeLaplace", count, func(x float64) (*big.Float, error) { return a.c.Laplace(b, x) })
}

func (a *refAccountant) ComposeRandomizedResponse(p float64, count int) error {
	return a.each("ComposeRandomizedResponse", count, func(x float64) (*big.Float, error) { return a.c.RandomizedResponse(p, x) })
}

func (a *refAccountant) ComposeZCDP(rho float64, count int) error {
	if math.IsNaN(rho) || rho < 0 || math.IsInf(rho, 0) {
		return &reference.InputError{Pkg: "reference", Func: "ComposeZCDP", Arg: "rho", Value: rho, Msg: "must be finite and >= 0"}
	}
	return a.each("ComposeZCDP", count, func(x float64) (*big.Float, error) { return zcdpLine(rho, x), nil })
}

func (a *refAccountant) ComposePureDP(eps float64, count int) error {
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 0) {
		return &reference.InputError{Pkg: "reference", Func: "ComposePureDP", Arg: "eps", Value: eps, Msg: "must be finite and >= 0"}
	}
	return a.each("ComposePureDP", count, func(x float64) (*big.Float, error) { return a.c.PureDP(eps, x) })
}

func (a *refAccountant) Curve() []float64 { return f64s(a.rdp) }

func (a *refAccountant) Epsilon(delta float64, conv Conversion) (float64, float64, error) {
	if a.keep != nil && delta > 0 && delta < 1 {
		d, ok := a.convDelta(delta)
		if !ok {
			return math.Inf(1), math.Inf(1), nil
		}
		delta = d
	}
	e, o, err := a.c.Epsilon(a.orders, a.rdp, delta, conv)
	v, err := f64(e, err)
	return v, o, err
}

// zcdpLine is rho*alpha exactly (rho-zCDP is the RDP line rho*alpha, Bun
// and Steinke 2016, Def 1.1); at alpha = +Inf it is +Inf, or 0 for rho = 0
// (the line is identically 0).
func zcdpLine(rho, alpha float64) *big.Float {
	if rho == 0 {
		return new(big.Float)
	}
	return new(big.Float).SetPrec(128).Mul(big.NewFloat(rho), big.NewFloat(alpha))
}

func (a *refAccountant) ComposeKaryRandomizedResponse(noise, buckets float64, relation string, count int) error {
	return a.each("ComposeKaryRandomizedResponse", count, func(x float64) (*big.Float, error) {
		return a.c.KaryRandomizedResponse(noise, buckets, relation, x)
	})
}

func (a *refAccountant) ComposeExponentialMechanism(eps float64, count int) error {
	return a.each("ComposeExponentialMechanism", count, func(x float64) (*big.Float, error) { return a.c.ExponentialMechanism(eps, x) })
}

func (a *refAccountant) ComposeZCDPXi(rho, xi float64, count int) error {
	return a.each("ComposeZCDPXi", count, func(x float64) (*big.Float, error) { return a.c.ZCDP(rho, xi, x) })
}

// ComposeEpsilonDelta composes the tight curve of eps and keeps prod (1 -
// delta)^count aside (see fast.Accountant.ComposeEpsilonDelta), at 512
// bits: far beyond what the laws compare.
func (a *refAccountant) ComposeEpsilonDelta(eps, delta float64, count int) error {
	if math.IsNaN(delta) || delta < 0 || delta > 1 {
		return &reference.InputError{Pkg: "reference", Func: "ComposeEpsilonDelta", Arg: "delta", Value: delta, Msg: "must be in [0, 1]"}
	}
	if err := a.each("ComposeEpsilonDelta", count, func(x float64) (*big.Float, error) { return a.c.PureDP(eps, x) }); err != nil {
		return err
	}
	if delta == 0 {
		return nil // nothing kept (as fast, which then converts as before)
	}
	f := new(big.Float).SetPrec(512).Sub(big.NewFloat(1), big.NewFloat(delta))
	p := new(big.Float).SetPrec(512).SetInt64(1)
	for n := count; n > 0; n >>= 1 { // f^count by squaring
		if n&1 == 1 {
			p.Mul(p, f)
		}
		f.Mul(f, f)
	}
	if a.keep == nil {
		a.keep = new(big.Float).SetPrec(512).SetInt64(1)
	}
	a.keep.Mul(a.keep, p)
	return nil
}

// convDelta returns the delta left to the conversion for a total delta,
// 1 - (1 - delta)/keep, rounded down to float64; false where it is not
// positive.
func (a *refAccountant) convDelta(delta float64) (float64, bool) {
	if a.keep.Sign() == 0 {
		return 0, false
	}
	r := new(big.Float).SetPrec(512).Sub(big.NewFloat(1), big.NewFloat(delta))
	r.Quo(r, a.keep)
	r.Sub(big.NewFloat(1), r)
	if r.Sign() <= 0 {
		return 0, false
	}
	d, _ := r.Float64()
	return math.Nextafter(d, 0), d > 0
}

func (a *refAccountant) ComposeDiscreteGaussian(sigma, sensitivity float64, count int) error {
	return a.each("ComposeDiscreteGaussian", count, func(x float64) (*big.Float, error) {
		return a.c.DiscreteGaussian(sigma, sensitivity, x)
	})
}

func (a *refAccountant) ComposeTreeAggregation(sigma float64, steps []int, restarts rdpcheck.TreeRestarts, count int) error {
	return a.each("ComposeTreeAggregation", count, func(x float64) (*big.Float, error) {
		return a.c.TreeAggregation(sigma, steps, restarts, x)
	})
}

func (a *refAccountant) ComposeTreeMultiParticipation(sigma float64, totalSteps, maxParticipation, minSeparation, count int) error {
	return a.each("ComposeTreeMultiParticipation", count, func(x float64) (*big.Float, error) {
		return a.c.TreeMultiParticipation(sigma, totalSteps, maxParticipation, minSeparation, x)
	})
}

// ComposeRepeatAndSelect evaluates reference.RepeatAndSelect at each
// accountant order from the base curve at its own orders (the smallest
// bound over base orders at or above it, as fast does).
func (a *refAccountant) ComposeRepeatAndSelect(orders, rdp []float64, mean, shape float64, count int) error {
	r, err := bigs("ComposeRepeatAndSelect", rdp)
	if err != nil {
		return err
	}
	return a.each("ComposeRepeatAndSelect", count, func(x float64) (*big.Float, error) {
		return a.c.RepeatAndSelect(orders, r, mean, shape, x)
	})
}
