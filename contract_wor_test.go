package rdpcheck_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// The WORGaussian and WORBound rows of the domain table, appended to
// contractCases.
func init() { contractCases = append(contractCases, worCases...) }

func worGaussian(q, sigma, alpha float64, want answers) contractCase {
	return contractCase{fmt.Sprintf("WORGaussian(%v, %v, %v)", q, sigma, alpha),
		func() kind { return floatKind(fast.WORGaussian(q, sigma, alpha)) },
		func() kind { return bigKind(ref.WORGaussian(q, sigma, alpha)) },
		want}
}

func worBound(row string, q, alpha float64, base rdpcheck.BaseCurve, want answers) contractCase {
	return contractCase{row,
		func() kind { return floatKind(fast.WORBound(q, alpha, base)) },
		func() kind { return bigKind(ref.WORBound(q, alpha, base)) },
		want}
}

var (
	worBase  = rdpcheck.BaseCurve{Eps: []float64{0.25, 0.375, 0.5}, Inf: inf64} // Gaussian, sigma = 2
	worCases = []contractCase{
		worGaussian(0, 1, 2, both(zero)),
		worGaussian(0, 1, inf64, both(zero)),
		worGaussian(1, 2, 3, both(finite)),
		worGaussian(0.1, 2, 1, both(finite)),
		worGaussian(0.1, 2, 2.5, both(finite)),
		worGaussian(0.1, 2, inf64, both(inf)),
		worGaussian(0.1, 2, rdpcheck.MaxWOROrder+1, both(tooLarge)),
		worGaussian(0.5, 1e-3, 100, both(tooLarge)),
		worGaussian(1, 1e-3, 100, both(finite)),
		worGaussian(-0.1, 2, 2, both(badInput)),
		worGaussian(1.1, 2, 2, both(badInput)),
		worGaussian(nan, 2, 2, both(badInput)),
		worGaussian(0.1, 0, 2, both(badInput)),
		worGaussian(0.1, inf64, 2, both(badInput)),
		worGaussian(0.1, nan, 2, both(badInput)),
		worGaussian(0.1, 2, 0.5, both(badInput)),
		worGaussian(0.1, 2, nan, both(badInput)),

		worBound("WORBound(q=0) = 0", 0, 3, worBase, both(zero)),
		worBound("WORBound(q=1) = base", 1, 3, worBase, both(finite)),
		worBound("WORBound(q, alpha=3.5)", 0.1, 3.5, worBase, both(finite)),
		worBound("WORBound(alpha=+Inf) = +Inf", 0.1, inf64, worBase, both(inf)),
		worBound("WORBound(base.Inf = 0) = 0", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{0, 0}, Inf: 0}, both(zero)),
		worBound("WORBound(an infinite entry) = +Inf", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, inf64}, Inf: inf64}, both(inf)),
		worBound("WORBound(alpha > MaxWOROrder) = ErrTooLarge", 0.1, rdpcheck.MaxWOROrder+1, worBase, both(tooLarge)),
		worBound("WORBound(missing orders) = ErrInput", 0.1, 5, worBase, both(badInput)),
		worBound("WORBound(negative entry) = ErrInput", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, -1}, Inf: inf64}, both(badInput)),
		worBound("WORBound(NaN entry) = ErrInput", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{nan, 1}, Inf: inf64}, both(badInput)),
		worBound("WORBound(entry above Inf) = ErrInput", 0.1, 3, rdpcheck.BaseCurve{Eps: []float64{1, 3}, Inf: 2}, both(badInput)),
		worBound("WORBound(huge entries) = ErrTooLarge", 0.5, 3, rdpcheck.BaseCurve{Eps: []float64{1e300, 1e300}, Inf: inf64}, both(tooLarge)),
		worBound("WORBound(q NaN) = ErrInput", nan, 3, worBase, both(badInput)),
		worBound("WORBound(alpha < 1) = ErrInput", 0.1, 0.5, worBase, both(badInput)),
	}
)
