package rdpcheck_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// A kind is what an answer is, as the domain table in the package
// documentation states it: a value class or an error kind.
type kind string

const (
	zero     kind = "0"
	finite   kind = "finite > 0"
	inf      kind = "+Inf"
	badInput kind = "ErrInput"
	tooLarge kind = "ErrTooLarge"
)

// answers are the kinds the two packages give for one input.
type answers struct{ Fast, Reference kind }

func both(k kind) answers { return answers{k, k} }

// floatKind classifies fast's answer; anything the table has no kind for
// (a negative value, NaN, an untyped error) is spelled out so that the
// test fails on it.
func floatKind(v float64, err error) kind {
	if err != nil {
		return errKind(err)
	}
	switch {
	case v == 0:
		return zero
	case math.IsInf(v, 1):
		return inf
	case v > 0 && !math.IsInf(v, 0):
		return finite
	}
	return kind(fmt.Sprintf("value %v", v))
}

func bigKind(v *big.Float, err error) kind {
	if err != nil {
		return errKind(err)
	}
	switch {
	case v == nil:
		return "nil value"
	case v.Sign() == 0:
		return zero
	case v.IsInf() && v.Sign() > 0:
		return inf
	case v.Sign() > 0 && !v.IsInf():
		return finite
	}
	return kind(fmt.Sprintf("value %v", v))
}

// errKind names the rdp kind an error wraps. An *InputError must also name
// its package, as its text did before the type was shared.
func errKind(err error) kind {
	var ie *rdpcheck.InputError
	switch {
	case errors.As(err, &ie):
		if ie.Pkg != "fast" && ie.Pkg != "reference" {
			return kind(fmt.Sprintf("InputError without its package: %v", err))
		}
		if !errors.Is(err, rdpcheck.ErrInput) || !errors.Is(err, fast.ErrInput) || !errors.Is(err, reference.ErrInput) {
			return kind(fmt.Sprintf("InputError not matching ErrInput: %v", err))
		}
		return badInput
	case errors.Is(err, rdpcheck.ErrTooLarge):
		return tooLarge
	}
	return kind(fmt.Sprintf("untyped error %q", err))
}

// curveKind is the kind of a whole curve: an error's, or that of its
// values when they all share one.
func curveKind(vs []float64, err error) kind {
	if err != nil {
		return errKind(err)
	}
	k := floatKind(vs[0], nil)
	for _, v := range vs[1:] {
		if floatKind(v, nil) != k {
			return "mixed"
		}
	}
	return k
}

func bigCurveKind(vs []*big.Float, err error) kind {
	if err != nil {
		return errKind(err)
	}
	k := bigKind(vs[0], nil)
	for _, v := range vs[1:] {
		if bigKind(v, nil) != k {
			return "mixed"
		}
	}
	return k
}

// bigs converts an RDP curve for reference; NaN, which a big.Float cannot
// hold, becomes nil, reference's "no value".
func bigs(xs []float64) []*big.Float {
	out := make([]*big.Float, len(xs))
	for i, x := range xs {
		if !math.IsNaN(x) {
			out[i] = new(big.Float).SetFloat64(x)
		}
	}
	return out
}

// ref is reference at 64 bits: the kinds do not depend on the precision,
// and the special cases are cheap there.
var ref = reference.Context{Prec: 64}

// contractCase is one row of the domain table: an input, and the kinds
// fast and reference must give for it.
type contractCase struct {
	row  string // the row as the table writes it
	fast func() kind
	ref  func() kind
	want answers
}

func sgm(row string, q, sigma, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.SGM(q, sigma, alpha)) },
		func() kind { return bigKind(ref.SGM(q, sigma, alpha)) },
		want}
}

func sgmCurve(row string, q, sigma float64, steps int, orders []float64, want answers) contractCase {
	return contractCase{row,
		func() kind {
			out := make([]float64, len(orders))
			return curveKind(out, fast.SGMCurve(q, sigma, steps, orders, out))
		},
		func() kind { return bigCurveKind(ref.SGMCurve(q, sigma, steps, orders)) },
		want}
}

func closed(fn string, args []float64, want answers) contractCase {
	f := map[string]func(a []float64) (float64, error){
		"Gaussian":           func(a []float64) (float64, error) { return fast.Gaussian(a[0], a[1]) },
		"Laplace":            func(a []float64) (float64, error) { return fast.Laplace(a[0], a[1]) },
		"RandomizedResponse": func(a []float64) (float64, error) { return fast.RandomizedResponse(a[0], a[1]) },
		"GaussianDivergence": func(a []float64) (float64, error) {
			return fast.GaussianDivergence(a[0], a[1], a[2], a[3], a[4])
		},
	}[fn]
	r := map[string]func(a []float64) (*big.Float, error){
		"Gaussian":           func(a []float64) (*big.Float, error) { return ref.Gaussian(a[0], a[1]) },
		"Laplace":            func(a []float64) (*big.Float, error) { return ref.Laplace(a[0], a[1]) },
		"RandomizedResponse": func(a []float64) (*big.Float, error) { return ref.RandomizedResponse(a[0], a[1]) },
		"GaussianDivergence": func(a []float64) (*big.Float, error) {
			return ref.GaussianDivergence(a[0], a[1], a[2], a[3], a[4])
		},
	}[fn]
	strs := make([]string, len(args))
	for i, a := range args {
		strs[i] = fmt.Sprint(a)
	}
	return contractCase{fmt.Sprintf("%s(%s)", fn, strings.Join(strs, ", ")),
		func() kind { return floatKind(f(args)) },
		func() kind { return bigKind(r(args)) },
		want}
}

func divergence(row string, p, q []float64, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.Divergence(p, q, alpha)) },
		func() kind { return bigKind(ref.Divergence(p, q, alpha)) },
		want}
}

func epsilon(row string, orders, curve []float64, delta float64, conv rdpcheck.Conversion, want answers) contractCase {
	return contractCase{row,
		func() kind {
			e, _, err := fast.Epsilon(orders, curve, delta, conv)
			return floatKind(e, err)
		},
		func() kind {
			e, _, err := ref.Epsilon(orders, bigs(curve), delta, conv)
			return bigKind(e, err)
		},
		want}
}

func delta(row string, orders, curve []float64, eps float64, conv rdpcheck.Conversion, want answers) contractCase {
	return contractCase{row,
		func() kind {
			d, _, err := fast.Delta(orders, curve, eps, conv)
			return floatKind(d, err)
		},
		func() kind {
			d, _, err := ref.Delta(orders, bigs(curve), eps, conv)
			return bigKind(d, err)
		},
		want}
}

var (
	inf64 = math.Inf(1)
	nan   = math.NaN()
)

// contractCases are the rows of the domain table in doc.go, in its order.
// Where the two packages differ the row says so in both columns, and the
// table says why.
var contractCases = []contractCase{
	sgm("SGM(q=0, sigma, alpha) = 0", 0, 1, 2, both(zero)),
	sgm("SGM(q=0, sigma, alpha=+Inf) = 0", 0, 1, inf64, both(zero)),
	sgm("SGM(q=1, sigma, alpha) = alpha/(2 sigma^2)", 1, 2, 3, both(finite)),
	sgm("SGM(q>0, sigma, alpha=+Inf) = +Inf", 0.5, 1, inf64, both(inf)),
	sgm("SGM(q, sigma=0, alpha): fast ErrInput, reference +Inf", 0.5, 0, 2, answers{badInput, inf}),
	sgm("SGM(q=0, sigma=0, alpha): fast ErrInput, reference 0", 0, 0, 2, answers{badInput, zero}),
	sgm("SGM(q<0) = ErrInput", -0.1, 1, 2, both(badInput)),
	sgm("SGM(q>1) = ErrInput", 1.5, 1, 2, both(badInput)),
	sgm("SGM(q=NaN) = ErrInput", nan, 1, 2, both(badInput)),
	sgm("SGM(sigma<0) = ErrInput", 0.5, -1, 2, both(badInput)),
	sgm("SGM(sigma=+Inf) = ErrInput", 0.5, inf64, 2, both(badInput)),
	sgm("SGM(sigma=NaN) = ErrInput", 0.5, nan, 2, both(badInput)),
	sgm("SGM(alpha=1) = ErrInput", 0.5, 1, 1, both(badInput)),
	sgm("SGM(alpha<1) = ErrInput", 0.5, 1, 0.5, both(badInput)),
	sgm("SGM(alpha=NaN) = ErrInput", 0.5, 1, nan, both(badInput)),
	sgm("SGM(alpha=MaxIntegerOrder) is computed", 0.5, 1, rdpcheck.MaxIntegerOrder, both(finite)),
	sgm("SGM(alpha=MaxIntegerOrder+1) = ErrTooLarge", 0.5, 1, rdpcheck.MaxIntegerOrder+1, both(tooLarge)),
	sgm("SGM(alpha=MaxIntegerOrder+0.5) = ErrTooLarge", 0.5, 1, rdpcheck.MaxIntegerOrder+0.5, both(tooLarge)),
	sgm("SGM(alpha=MaxFractionalOrder+0.5): fast a bound, reference ErrTooLarge", 0.5, 1, rdpcheck.MaxFractionalOrder+0.5, answers{finite, tooLarge}),
	sgm("SGM(sigma=1e7): fast a value, reference ErrTooLarge", 0.5, 1e7, 2, answers{finite, tooLarge}),

	sgmCurve("SGMCurve(q=0, ...) = 0 at every order", 0, 1, 3, []float64{2, 2.5, inf64}, both(zero)),
	sgmCurve("SGMCurve(steps=0) = ErrInput", 0.5, 1, 0, []float64{2}, both(badInput)),
	sgmCurve("SGMCurve(orders empty) = ErrInput", 0.5, 1, 1, nil, both(badInput)),
	sgmCurve("SGMCurve(an order <= 1) = ErrInput", 0.5, 1, 1, []float64{2, 1}, both(badInput)),
	sgmCurve("SGMCurve(an order > MaxIntegerOrder) = ErrTooLarge", 0.5, 1, 1, []float64{2, rdpcheck.MaxIntegerOrder + 1}, both(tooLarge)),

	closed("Gaussian", []float64{1, 0}, both(zero)),
	closed("Gaussian", []float64{1, inf64}, both(inf)),
	closed("Gaussian", []float64{1, 0.5}, both(finite)),
	closed("Gaussian", []float64{0, 2}, answers{badInput, inf}),
	closed("Gaussian", []float64{1e-200, 2}, answers{inf, finite}),
	closed("Gaussian", []float64{-1, 2}, both(badInput)),
	closed("Gaussian", []float64{inf64, 2}, both(badInput)),
	closed("Gaussian", []float64{nan, 2}, both(badInput)),
	closed("Gaussian", []float64{1, -1}, both(badInput)),
	closed("Gaussian", []float64{1, nan}, both(badInput)),

	closed("Laplace", []float64{1, 1}, both(finite)),
	closed("Laplace", []float64{1, inf64}, both(finite)),
	closed("Laplace", []float64{0, 2}, answers{badInput, inf}),
	closed("Laplace", []float64{1, 0.5}, both(badInput)),
	closed("Laplace", []float64{-1, 2}, both(badInput)),
	closed("Laplace", []float64{inf64, 2}, both(badInput)),
	closed("Laplace", []float64{nan, 2}, both(badInput)),
	closed("Laplace", []float64{1, nan}, both(badInput)),

	closed("RandomizedResponse", []float64{0.5, 2}, both(zero)),
	closed("RandomizedResponse", []float64{0, 2}, both(inf)),
	closed("RandomizedResponse", []float64{1, 2}, both(inf)),
	closed("RandomizedResponse", []float64{0.75, 1}, both(finite)),
	closed("RandomizedResponse", []float64{0.75, inf64}, both(finite)),
	closed("RandomizedResponse", []float64{0.75, 0.5}, answers{badInput, finite}),
	closed("RandomizedResponse", []float64{0.75, 0}, answers{badInput, zero}),
	closed("RandomizedResponse", []float64{-0.1, 2}, both(badInput)),
	closed("RandomizedResponse", []float64{1.1, 2}, both(badInput)),
	closed("RandomizedResponse", []float64{nan, 2}, both(badInput)),
	closed("RandomizedResponse", []float64{0.75, -1}, both(badInput)),
	closed("RandomizedResponse", []float64{0.75, nan}, both(badInput)),

	closed("GaussianDivergence", []float64{0, 1, 1, 2, 0}, both(zero)),
	closed("GaussianDivergence", []float64{1, 2, 1, 2, 5}, both(zero)),
	closed("GaussianDivergence", []float64{0, 1, 1, 2, 1}, both(finite)),
	closed("GaussianDivergence", []float64{0, 2, 0, 1, 3}, both(inf)),
	closed("GaussianDivergence", []float64{0, 1, 1, 1, inf64}, both(inf)),
	closed("GaussianDivergence", []float64{0, 2, 0, 1, inf64}, both(inf)),
	closed("GaussianDivergence", []float64{0, 1, 1, 2, inf64}, both(finite)),
	closed("GaussianDivergence", []float64{0, 0, 0, 1, 2}, both(badInput)),
	closed("GaussianDivergence", []float64{0, 1, 0, -1, 2}, both(badInput)),
	closed("GaussianDivergence", []float64{inf64, 1, 0, 1, 2}, both(badInput)),
	closed("GaussianDivergence", []float64{0, inf64, 0, 1, 2}, both(badInput)),
	closed("GaussianDivergence", []float64{nan, 1, 0, 1, 2}, both(badInput)),
	closed("GaussianDivergence", []float64{0, 1, 0, 1, -1}, both(badInput)),
	closed("GaussianDivergence", []float64{0, 1, 0, 1, nan}, both(badInput)),

	divergence("Divergence(P, P, alpha) = 0", []float64{0.25, 0.75}, []float64{0.25, 0.75}, 2, both(zero)),
	divergence("Divergence(alpha>=1, p_i>0 where q_i=0) = +Inf", []float64{0.5, 0.5}, []float64{1, 0}, 2, both(inf)),
	divergence("Divergence(alpha<1, p_i>0 where q_i=0) is finite", []float64{0.5, 0.5}, []float64{1, 0}, 0.5, both(finite)),
	divergence("Divergence(alpha<1, disjoint supports) = +Inf", []float64{0, 1}, []float64{1, 0}, 0.5, both(inf)),
	divergence("Divergence(alpha=0) = -log q(supp P)", []float64{0, 1}, []float64{0.5, 0.5}, 0, both(finite)),
	divergence("Divergence(empty) = ErrInput", nil, nil, 2, both(badInput)),
	divergence("Divergence(lengths differ) = ErrInput", []float64{1}, []float64{0.5, 0.5}, 2, both(badInput)),
	divergence("Divergence(negative entry) = ErrInput", []float64{1.5, -0.5}, []float64{0.5, 0.5}, 2, both(badInput)),
	divergence("Divergence(sum away from 1) = ErrInput", []float64{0.5, 0.4}, []float64{0.5, 0.5}, 2, both(badInput)),
	divergence("Divergence(Inf entry) = ErrInput", []float64{inf64, 0}, []float64{0.5, 0.5}, 2, both(badInput)),
	divergence("Divergence(NaN entry) = ErrInput", []float64{nan, 1}, []float64{0.5, 0.5}, 2, both(badInput)),
	divergence("Divergence(alpha<0) = ErrInput", []float64{0.5, 0.5}, []float64{0.5, 0.5}, -1, both(badInput)),
	divergence("Divergence(alpha=NaN) = ErrInput", []float64{0.5, 0.5}, []float64{0.5, 0.5}, nan, both(badInput)),

	epsilon("Epsilon(every rdp +Inf) = +Inf", []float64{2, 3}, []float64{inf64, inf64}, 1e-5, rdpcheck.Classic, both(inf)),
	epsilon("Epsilon(order +Inf) = rdp(+Inf)", []float64{inf64}, []float64{0.5}, 1e-5, rdpcheck.Classic, both(finite)),
	epsilon("Epsilon(improved, below 0) = 0", []float64{2}, []float64{0}, 0.9, rdpcheck.Improved, both(zero)),
	epsilon("Epsilon(empty) = ErrInput", nil, nil, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(lengths differ) = ErrInput", []float64{2}, []float64{1, 2}, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(order <= 1) = ErrInput", []float64{1}, []float64{1}, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(order NaN) = ErrInput", []float64{nan}, []float64{1}, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(rdp < 0) = ErrInput", []float64{2}, []float64{-1}, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(rdp NaN; nil in reference) = ErrInput", []float64{2}, []float64{nan}, 1e-5, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(delta=0) = ErrInput", []float64{2}, []float64{1}, 0, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(delta=1) = ErrInput", []float64{2}, []float64{1}, 1, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(delta=NaN) = ErrInput", []float64{2}, []float64{1}, nan, rdpcheck.Classic, both(badInput)),
	epsilon("Epsilon(unknown conv) = ErrInput", []float64{2}, []float64{1}, 1e-5, rdpcheck.Conversion(2), both(badInput)),

	delta("Delta(no order gives less than 1) = 1", []float64{2}, []float64{5}, 1, rdpcheck.Classic, both(finite)),
	delta("Delta(order +Inf, rdp <= eps) = 0", []float64{inf64}, []float64{0.5}, 1, rdpcheck.Classic, both(zero)),
	delta("Delta(below e^-1.48e9): fast 2^-1074, reference ErrTooLarge", []float64{rdpcheck.MaxIntegerOrder}, []float64{0}, 2000, rdpcheck.Classic, answers{finite, tooLarge}),
	delta("Delta(eps<0) = ErrInput", []float64{2}, []float64{1}, -1, rdpcheck.Classic, both(badInput)),
	delta("Delta(eps=+Inf) = ErrInput", []float64{2}, []float64{1}, inf64, rdpcheck.Classic, both(badInput)),
	delta("Delta(eps=NaN) = ErrInput", []float64{2}, []float64{1}, nan, rdpcheck.Classic, both(badInput)),
	delta("Delta(lengths differ) = ErrInput", []float64{2, 3}, []float64{1}, 1, rdpcheck.Classic, both(badInput)),
	delta("Delta(rdp NaN; nil in reference) = ErrInput", []float64{2}, []float64{nan}, 1, rdpcheck.Classic, both(badInput)),
	delta("Delta(order <= 1) = ErrInput", []float64{0.5}, []float64{1}, 1, rdpcheck.Improved, both(badInput)),
	delta("Delta(unknown conv) = ErrInput", []float64{2}, []float64{1}, 1, rdpcheck.Conversion(-1), both(badInput)),

	sampledLaplace("SampledLaplace(q=0) = 0", 0, 1, 2, both(zero)),
	sampledLaplace("SampledLaplace(q=1) = Laplace", 1, 1, 2, both(finite)),
	sampledLaplace("SampledLaplace(alpha=1) finite", 0.1, 1, 1, both(finite)),
	sampledLaplace("SampledLaplace(alpha=+Inf) finite", 0.1, 1, inf64, both(finite)),
	sampledLaplace("SampledLaplace(alpha > MaxFractionalOrder): reference ErrTooLarge; fast a bound", 0.1, 1, 2e4, answers{finite, tooLarge}),
	sampledLaplace("SampledLaplace(b < 1e-3): reference ErrTooLarge; fast a bound", 0.1, 1e-4, 2, answers{finite, tooLarge}),
	sampledLaplace("SampledLaplace(0 < q < 1e-100): reference ErrTooLarge; fast a bound", 1e-200, 1, 2, answers{finite, tooLarge}),
	sampledLaplace("SampledLaplace(b=0) = ErrInput", 0.1, 0, 2, both(badInput)),
	sampledLaplace("SampledLaplace(b=+Inf) = ErrInput", 0.1, inf64, 2, both(badInput)),
	sampledLaplace("SampledLaplace(q>1) = ErrInput", 1.5, 1, 2, both(badInput)),
	sampledLaplace("SampledLaplace(q=NaN) = ErrInput", nan, 1, 2, both(badInput)),
	sampledLaplace("SampledLaplace(alpha<1) = ErrInput", 0.1, 1, 0.5, both(badInput)),
	sampledLaplace("SampledLaplace(alpha=NaN) = ErrInput", 0.1, 1, nan, both(badInput)),

	sampledDivergence("SampledDivergence(q=0) = 0", 0, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2, both(zero)),
	sampledDivergence("SampledDivergence(P=Q) = 0", 0.3, []float64{0.5, 0.5}, []float64{0.5, 0.5}, 2, both(zero)),
	sampledDivergence("SampledDivergence(P outside Q) = +Inf", 0.3, []float64{0.5, 0.5}, []float64{1, 0}, 2, both(inf)),
	sampledDivergence("SampledDivergence(q=1) = plain", 1, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2, both(finite)),
	sampledDivergence("SampledDivergence(alpha=+Inf) finite", 0.3, []float64{0.75, 0.25}, []float64{0.25, 0.75}, inf64, both(finite)),
	sampledDivergence("SampledDivergence(alpha=1) finite", 0.3, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 1, both(finite)),
	sampledDivergence("SampledDivergence(q<0) = ErrInput", -0.1, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 2, both(badInput)),
	sampledDivergence("SampledDivergence(sum 0.9) = ErrInput", 0.3, []float64{0.4, 0.5}, []float64{0.5, 0.5}, 2, both(badInput)),
	sampledDivergence("SampledDivergence(lengths differ) = ErrInput", 0.3, []float64{1}, []float64{0.5, 0.5}, 2, both(badInput)),
	sampledDivergence("SampledDivergence(alpha<1) = ErrInput", 0.3, []float64{0.75, 0.25}, []float64{0.25, 0.75}, 0.5, both(badInput)),
	// the events of dp_accounting's other classes
	event("KaryRandomizedResponse(noise=1) = 0", func() (float64, error) { return fast.KaryRandomizedResponse(1, 4, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(1, 4, reference.ReplaceOne, 2) }, both(zero)),
	event("KaryRandomizedResponse(noise=0) = +Inf", func() (float64, error) { return fast.KaryRandomizedResponse(0, 4, fast.ReplaceSpecial, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0, 4, reference.ReplaceSpecial, 2) }, both(inf)),
	event("KaryRandomizedResponse(alpha=+Inf) is finite", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 4, fast.ReplaceOne, inf64) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 4, reference.ReplaceOne, inf64) }, both(finite)),
	event("KaryRandomizedResponse(noise>1) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(1.5, 4, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(1.5, 4, reference.ReplaceOne, 2) }, both(badInput)),
	event("KaryRandomizedResponse(noise=NaN) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(nan, 4, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(nan, 4, reference.ReplaceOne, 2) }, both(badInput)),
	event("KaryRandomizedResponse(buckets=1) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 1, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 1, reference.ReplaceOne, 2) }, both(badInput)),
	event("KaryRandomizedResponse(buckets=2.5) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 2.5, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 2.5, reference.ReplaceOne, 2) }, both(badInput)),
	event("KaryRandomizedResponse(buckets>2^53) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 1e300, fast.ReplaceOne, 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 1e300, reference.ReplaceOne, 2) }, both(badInput)),
	event("KaryRandomizedResponse(relation unknown) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 4, "add-one", 2) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 4, "add-one", 2) }, both(badInput)),
	event("KaryRandomizedResponse(alpha=1) = ErrInput", func() (float64, error) { return fast.KaryRandomizedResponse(0.5, 4, fast.ReplaceOne, 1) },
		func() (*big.Float, error) { return ref.KaryRandomizedResponse(0.5, 4, reference.ReplaceOne, 1) }, both(badInput)),
	event("KaryRandomizedResponse(alpha>MaxIntegerOrder): fast ErrTooLarge, reference a value",
		func() (float64, error) {
			return fast.KaryRandomizedResponse(0.5, 4, fast.ReplaceOne, 2*rdpcheck.MaxIntegerOrder)
		},
		func() (*big.Float, error) {
			return ref.KaryRandomizedResponse(0.5, 4, reference.ReplaceOne, 2*rdpcheck.MaxIntegerOrder)
		}, answers{tooLarge, finite}),
	event("PureDP(eps=0) = 0", func() (float64, error) { return fast.PureDP(0, 2) },
		func() (*big.Float, error) { return ref.PureDP(0, 2) }, both(zero)),
	event("PureDP(eps=0, alpha=+Inf) = 0", func() (float64, error) { return fast.PureDP(0, inf64) },
		func() (*big.Float, error) { return ref.PureDP(0, inf64) }, both(zero)),
	event("PureDP(alpha=+Inf) = eps", func() (float64, error) { return fast.PureDP(0.5, inf64) },
		func() (*big.Float, error) { return ref.PureDP(0.5, inf64) }, both(finite)),
	event("PureDP(eps<0) = ErrInput", func() (float64, error) { return fast.PureDP(-1, 2) },
		func() (*big.Float, error) { return ref.PureDP(-1, 2) }, both(badInput)),
	event("PureDP(eps=+Inf) = ErrInput", func() (float64, error) { return fast.PureDP(inf64, 2) },
		func() (*big.Float, error) { return ref.PureDP(inf64, 2) }, both(badInput)),
	event("PureDP(alpha=NaN) = ErrInput", func() (float64, error) { return fast.PureDP(1, nan) },
		func() (*big.Float, error) { return ref.PureDP(1, nan) }, both(badInput)),
	event("PureDP(alpha>MaxIntegerOrder): fast ErrTooLarge, reference a value", func() (float64, error) { return fast.PureDP(1, 2*rdpcheck.MaxIntegerOrder) },
		func() (*big.Float, error) { return ref.PureDP(1, 2*rdpcheck.MaxIntegerOrder) }, answers{tooLarge, finite}),
	event("ZCDP(rho=0, xi, alpha=+Inf) = xi", func() (float64, error) { return fast.ZCDP(0, 0.1, inf64) },
		func() (*big.Float, error) { return ref.ZCDP(0, 0.1, inf64) }, both(finite)),
	event("ZCDP(rho=0, xi=0) = 0", func() (float64, error) { return fast.ZCDP(0, 0, 2) },
		func() (*big.Float, error) { return ref.ZCDP(0, 0, 2) }, both(zero)),
	event("ZCDP(rho>0, alpha=+Inf) = +Inf", func() (float64, error) { return fast.ZCDP(0.1, 0, inf64) },
		func() (*big.Float, error) { return ref.ZCDP(0.1, 0, inf64) }, both(inf)),
	event("ZCDP(rho<0) = ErrInput", func() (float64, error) { return fast.ZCDP(-1, 0, 2) },
		func() (*big.Float, error) { return ref.ZCDP(-1, 0, 2) }, both(badInput)),
	event("ZCDP(xi=+Inf) = ErrInput", func() (float64, error) { return fast.ZCDP(1, inf64, 2) },
		func() (*big.Float, error) { return ref.ZCDP(1, inf64, 2) }, both(badInput)),
	event("ZCDP(xi=NaN) = ErrInput", func() (float64, error) { return fast.ZCDP(1, nan, 2) },
		func() (*big.Float, error) { return ref.ZCDP(1, nan, 2) }, both(badInput)),
	event("ZCDP(alpha=1) = ErrInput", func() (float64, error) { return fast.ZCDP(1, 0, 1) },
		func() (*big.Float, error) { return ref.ZCDP(1, 0, 1) }, both(badInput)),
	event("ExponentialMechanism(eps=0) = 0", func() (float64, error) { return fast.ExponentialMechanism(0, 2) },
		func() (*big.Float, error) { return ref.ExponentialMechanism(0, 2) }, both(zero)),
	event("ExponentialMechanism(alpha=+Inf) = eps", func() (float64, error) { return fast.ExponentialMechanism(1, inf64) },
		func() (*big.Float, error) { return ref.ExponentialMechanism(1, inf64) }, both(finite)),
	event("ExponentialMechanism(eps<0) = ErrInput", func() (float64, error) { return fast.ExponentialMechanism(-1, 2) },
		func() (*big.Float, error) { return ref.ExponentialMechanism(-1, 2) }, both(badInput)),
	event("ExponentialMechanism(eps=NaN) = ErrInput", func() (float64, error) { return fast.ExponentialMechanism(nan, 2) },
		func() (*big.Float, error) { return ref.ExponentialMechanism(nan, 2) }, both(badInput)),
	event("ExponentialMechanism(alpha=0.5) = ErrInput", func() (float64, error) { return fast.ExponentialMechanism(1, 0.5) },
		func() (*big.Float, error) { return ref.ExponentialMechanism(1, 0.5) }, both(badInput)),
	group("GroupPrivacy(chosen rdp +Inf) = +Inf", []float64{2, 8}, []float64{0.1, inf64}, 2, 2, both(inf)),
	group("GroupPrivacy(alpha=+Inf) = 2^c rdp(+Inf)", []float64{2, inf64}, []float64{0.1, 0.5}, 2, inf64, both(finite)),
	group("GroupPrivacy(c=0) = rdp", []float64{2, 8}, []float64{0, 0.5}, 0, 2, both(zero)),
	group("GroupPrivacy(empty) = ErrInput", nil, nil, 1, 2, both(badInput)),
	group("GroupPrivacy(lengths differ) = ErrInput", []float64{2, 8}, []float64{0.1}, 1, 2, both(badInput)),
	group("GroupPrivacy(order <= 1) = ErrInput", []float64{1, 8}, []float64{0.1, 0.2}, 1, 2, both(badInput)),
	group("GroupPrivacy(rdp NaN; nil in reference) = ErrInput", []float64{2, 8}, []float64{0.1, nan}, 1, 2, both(badInput)),
	group("GroupPrivacy(rdp < 0) = ErrInput", []float64{2, 8}, []float64{0.1, -1}, 1, 2, both(badInput)),
	group("GroupPrivacy(c<0) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, -1, 2, both(badInput)),
	group("GroupPrivacy(c>30) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 31, 2, both(badInput)),
	group("GroupPrivacy(alpha<2, c>0) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 1, 1.5, both(badInput)),
	group("GroupPrivacy(alpha NaN) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 0, nan, both(badInput)),
	group("GroupPrivacy(no order >= 2^c alpha) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 2, 4, both(badInput)),
	event("LaplaceZCDP(eps=0) = 0", func() (float64, error) { return fast.LaplaceZCDP(0) },
		func() (*big.Float, error) { return ref.LaplaceZCDP(0) }, both(zero)),
	event("KaryRRZCDP(eps=0) = 0", func() (float64, error) { return fast.KaryRRZCDP(0, 3) },
		func() (*big.Float, error) { return ref.KaryRRZCDP(0, 3) }, both(zero)),
	event("RAPPORZCDP(eps=0) = 0", func() (float64, error) { return fast.RAPPORZCDP(0) },
		func() (*big.Float, error) { return ref.RAPPORZCDP(0) }, both(zero)),
	event("BoundedRangeZCDP(eps=0) = 0", func() (float64, error) { return fast.BoundedRangeZCDP(0) },
		func() (*big.Float, error) { return ref.BoundedRangeZCDP(0) }, both(zero)),
	event("LaplaceZCDP(eps<0) = ErrInput", func() (float64, error) { return fast.LaplaceZCDP(-1) },
		func() (*big.Float, error) { return ref.LaplaceZCDP(-1) }, both(badInput)),
	event("RAPPORZCDP(eps=+Inf) = ErrInput", func() (float64, error) { return fast.RAPPORZCDP(inf64) },
		func() (*big.Float, error) { return ref.RAPPORZCDP(inf64) }, both(badInput)),
	event("BoundedRangeZCDP(eps=NaN) = ErrInput", func() (float64, error) { return fast.BoundedRangeZCDP(nan) },
		func() (*big.Float, error) { return ref.BoundedRangeZCDP(nan) }, both(badInput)),
	event("KaryRRZCDP(buckets=7) = ErrInput", func() (float64, error) { return fast.KaryRRZCDP(1, 7) },
		func() (*big.Float, error) { return ref.KaryRRZCDP(1, 7) }, both(badInput)),
	event("KaryRRZCDP(buckets=2.5) = ErrInput", func() (float64, error) { return fast.KaryRRZCDP(1, 2.5) },
		func() (*big.Float, error) { return ref.KaryRRZCDP(1, 2.5) }, both(badInput)),
	event("KaryRRZCDP(eps=NaN) = ErrInput", func() (float64, error) { return fast.KaryRRZCDP(nan, 3) },
		func() (*big.Float, error) { return ref.KaryRRZCDP(nan, 3) }, both(badInput)),

	// The discrete Gaussian, tree aggregation and repeat-and-select.
	event("DiscreteGaussian(sensitivity=0) = 0", func() (float64, error) { return fast.DiscreteGaussian(0.5, 0, 2.5) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0.5, 0, 2.5) }, both(zero)),
	event("DiscreteGaussian(alpha=0) = 0", func() (float64, error) { return fast.DiscreteGaussian(0.5, 1, 0) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0.5, 1, 0) }, both(zero)),
	event("DiscreteGaussian((1-alpha) D integer) = the zCDP line", func() (float64, error) { return fast.DiscreteGaussian(0.5, 2, 2.5) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0.5, 2, 2.5) }, both(finite)),
	event("DiscreteGaussian(alpha=+Inf) = +Inf", func() (float64, error) { return fast.DiscreteGaussian(0.5, 1, inf64) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0.5, 1, inf64) }, both(inf)),
	event("DiscreteGaussian(sigma=0) = ErrInput", func() (float64, error) { return fast.DiscreteGaussian(0, 1, 2) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0, 1, 2) }, both(badInput)),
	event("DiscreteGaussian(sigma=+Inf) = ErrInput", func() (float64, error) { return fast.DiscreteGaussian(inf64, 1, 2) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(inf64, 1, 2) }, both(badInput)),
	event("DiscreteGaussian(sensitivity=1.5) = ErrInput", func() (float64, error) { return fast.DiscreteGaussian(1, 1.5, 2) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(1, 1.5, 2) }, both(badInput)),
	event("DiscreteGaussian(sensitivity=NaN) = ErrInput", func() (float64, error) { return fast.DiscreteGaussian(1, nan, 2) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(1, nan, 2) }, both(badInput)),
	event("DiscreteGaussian(alpha<0) = ErrInput", func() (float64, error) { return fast.DiscreteGaussian(1, 1, -1) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(1, 1, -1) }, both(badInput)),
	event("DiscreteGaussian(alpha >= 2^50): fast the line, reference the value", func() (float64, error) { return fast.DiscreteGaussian(0.3, 1, 0x1p50+0.5) },
		func() (*big.Float, error) { return ref.DiscreteGaussian(0.3, 1, 0x1p50+0.5) }, both(finite)),
	event("TreeAggregation(steps all 0) = 0", func() (float64, error) { return fast.TreeAggregation(1, []int{0, 0}, fast.TreeEveryTree, 2) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, []int{0, 0}, reference.TreeEveryTree, 2) }, both(zero)),
	event("TreeAggregation(alpha=+Inf) = +Inf", func() (float64, error) { return fast.TreeAggregation(1, []int{5}, fast.TreeOneTree, inf64) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, []int{5}, reference.TreeOneTree, inf64) }, both(inf)),
	event("TreeAggregation(sigma=0) = ErrInput", func() (float64, error) { return fast.TreeAggregation(0, []int{5}, fast.TreeOneTree, 2) },
		func() (*big.Float, error) { return ref.TreeAggregation(0, []int{5}, reference.TreeOneTree, 2) }, both(badInput)),
	event("TreeAggregation(empty steps) = ErrInput", func() (float64, error) { return fast.TreeAggregation(1, nil, fast.TreeOneTree, 2) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, nil, reference.TreeOneTree, 2) }, both(badInput)),
	event("TreeAggregation(negative step) = ErrInput", func() (float64, error) { return fast.TreeAggregation(1, []int{4, -1}, fast.TreeEveryTree, 2) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, []int{4, -1}, reference.TreeEveryTree, 2) }, both(badInput)),
	event("TreeAggregation(unknown reading) = ErrInput", func() (float64, error) { return fast.TreeAggregation(1, []int{4}, 7, 2) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, []int{4}, 7, 2) }, both(badInput)),
	event("TreeAggregation(alpha=NaN) = ErrInput", func() (float64, error) { return fast.TreeAggregation(1, []int{4}, fast.TreeOneTree, nan) },
		func() (*big.Float, error) { return ref.TreeAggregation(1, []int{4}, reference.TreeOneTree, nan) }, both(badInput)),
	event("TreeMultiParticipation(n=0) = 0", func() (float64, error) { return fast.TreeMultiParticipation(1, 0, 2, 1, 2) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(1, 0, 2, 1, 2) }, both(zero)),
	event("TreeMultiParticipation(m=0) = 0", func() (float64, error) { return fast.TreeMultiParticipation(1, 8, 0, 1, 2) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(1, 8, 0, 1, 2) }, both(zero)),
	event("TreeMultiParticipation(alpha=+Inf) = +Inf", func() (float64, error) { return fast.TreeMultiParticipation(1, 8, 2, 1, inf64) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(1, 8, 2, 1, inf64) }, both(inf)),
	event("TreeMultiParticipation(s<0) = ErrInput", func() (float64, error) { return fast.TreeMultiParticipation(1, 8, 2, -1, 2) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(1, 8, 2, -1, 2) }, both(badInput)),
	event("TreeMultiParticipation(sigma=NaN) = ErrInput", func() (float64, error) { return fast.TreeMultiParticipation(nan, 8, 2, 1, 2) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(nan, 8, 2, 1, 2) }, both(badInput)),
	event("TreeMultiParticipation(too costly) = ErrTooLarge", func() (float64, error) { return fast.TreeMultiParticipation(1, 1<<40, 1<<20, 1<<10, 2) },
		func() (*big.Float, error) { return ref.TreeMultiParticipation(1, 1<<40, 1<<20, 1<<10, 2) }, both(tooLarge)),
	repeat("RepeatAndSelect(every usable rdp +Inf) = +Inf", []float64{2, 8}, []float64{inf64, inf64}, 3, 1, 2, both(inf)),
	repeat("RepeatAndSelect(Poisson) > 0", []float64{2, 8, inf64}, []float64{0.1, 0.4, 1}, 3, inf64, 2, both(finite)),
	repeat("RepeatAndSelect(empty) = ErrInput", nil, nil, 3, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(lengths differ) = ErrInput", []float64{2, 8}, []float64{0.1}, 3, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(order NaN) = ErrInput", []float64{2, nan}, []float64{0.1, 0.2}, 3, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(rdp NaN; nil in reference) = ErrInput", []float64{2, 8}, []float64{0.1, nan}, 3, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(rdp < 0) = ErrInput", []float64{2, 8}, []float64{0.1, -1}, 3, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(mean < 1) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 0.5, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(mean=+Inf) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, inf64, 1, 2, both(badInput)),
	repeat("RepeatAndSelect(shape < 0) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 3, -1, 2, both(badInput)),
	repeat("RepeatAndSelect(alpha NaN) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 3, 1, nan, both(badInput)),
	repeat("RepeatAndSelect(no order >= alpha) = ErrInput", []float64{2, 8}, []float64{0.1, 0.2}, 3, 1, 16, both(badInput)),
	repeat("RepeatAndSelect(shape finite, no order >= 1) = ErrInput", []float64{0.5}, []float64{0.1}, 3, 1, 0.25, both(badInput)),
}

// event is a row of an issue-12 event: fast's and reference's calls.
func event(row string, f func() (float64, error), r func() (*big.Float, error), want answers) contractCase {
	return contractCase{row, func() kind { return floatKind(f()) }, func() kind { return bigKind(r()) }, want}
}

func group(row string, orders, curve []float64, c int, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.GroupPrivacy(orders, curve, c, alpha)) },
		func() kind { return bigKind(ref.GroupPrivacy(orders, bigs(curve), c, alpha)) },
		want}
}

func repeat(row string, orders, curve []float64, mean, shape, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.RepeatAndSelect(orders, curve, mean, shape, alpha)) },
		func() kind { return bigKind(ref.RepeatAndSelect(orders, bigs(curve), mean, shape, alpha)) },
		want}
}

// TestContract runs every row of the domain table through fast and
// reference and checks that each gives the kind the table states: the same
// kind where the table says they agree, the stated pair where it says they
// differ. A change of either package's contract fails here until the table
// (and this list) is changed with it.
func TestContract(t *testing.T) {
	for _, c := range contractCases {
		got := answers{c.fast(), c.ref()}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: (-table +got)\n%s", c.row, diff)
		}
	}
}

// TestErrorKindsShared checks that fast's and reference's names for each
// error kind are the rdp object itself, so errors.Is cannot depend on which
// package's name a caller uses.
func TestErrorKindsShared(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want error
	}{
		{"fast.ErrInput", fast.ErrInput, rdpcheck.ErrInput},
		{"reference.ErrInput", reference.ErrInput, rdpcheck.ErrInput},
		{"fast.ErrTooLarge", fast.ErrTooLarge, rdpcheck.ErrTooLarge},
		{"reference.ErrTooLarge", reference.ErrTooLarge, rdpcheck.ErrTooLarge},
		{"fast.ErrNotConverged", fast.ErrNotConverged, rdpcheck.ErrNotConverged},
		{"reference.ErrPrecision", reference.ErrPrecision, rdpcheck.ErrPrecision},
	} {
		if c.got != c.want {
			t.Errorf("%s is not the rdp kind (%v)", c.name, c.got)
		}
	}
}

// TestInputErrorText checks that sharing the type kept each package's
// error text: callers and logs saw "fast.SGM: ..." and "reference.SGM: ..."
// before, and see them still.
func TestInputErrorText(t *testing.T) {
	_, ferr := fast.SGM(nan, 1, 2)
	_, rerr := reference.SGM(nan, 1, 2)
	got := []string{fmt.Sprint(ferr), fmt.Sprint(rerr)}
	want := []string{
		"fast.SGM: q = NaN: must be in [0, 1]",
		"reference.SGM: q = NaN: sampling rate must be in [0, 1]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error texts (-want +got)\n%s", diff)
	}
}

// TestDefaultOrdersShared checks that both packages hand out rdp's list.
func TestDefaultOrdersShared(t *testing.T) {
	want := rdpcheck.DefaultOrders()
	if diff := cmp.Diff(want, fast.DefaultOrders()); diff != "" {
		t.Errorf("fast.DefaultOrders (-rdp +fast)\n%s", diff)
	}
	if diff := cmp.Diff(want, reference.DefaultOrders()); diff != "" {
		t.Errorf("reference.DefaultOrders (-rdp +reference)\n%s", diff)
	}
	if fast.MaxIntegerOrder != reference.MaxIntegerOrder {
		t.Errorf("MaxIntegerOrder: fast %d, reference %d", fast.MaxIntegerOrder, reference.MaxIntegerOrder)
	}
}

func sampledLaplace(row string, q, b, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.SampledLaplace(q, b, alpha)) },
		func() kind { return bigKind(ref.SampledLaplace(q, b, alpha)) },
		want}
}

func sampledDivergence(row string, q float64, p, qd []float64, alpha float64, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.SampledDivergence(q, p, qd, alpha)) },
		func() kind { return bigKind(ref.SampledDivergence(q, p, qd, alpha)) },
		want}
}
