package sgm

import (
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// The binomial terms far from their mean: Loader's
// bd0(x, M) = x log(x/M) + M - x was formed in float64 away from x = M,
// where its parts are as large as n and cancel, which put 1.6e-12 into the
// bound (and the rounded-up result) at n = 10,000, sigma = 1000 and
// 1.2e-12 at q = 1e-150.
//
// Exact log pmfs: mpmath at 40 digits, log(binomial(n,k)) + k log(q) +
// (n-k) log(1-q) with q the float64 (mpf(q)).
func TestLogBinomPMFFarFromMean(t *testing.T) {
	cases := []struct {
		n, k  int
		q     float64
		exact float64
	}{
		{10000, 1300, 0.1, -50.5644768483469172535753578038},
		{10000, 700, 0.1, -59.4312045258624982658150425678},
		{1024, 650, 0.5, -41.3133744226883742685151627925},
		{3, 2, 1e-150, -689.676915609545595501411474704},
		{4096, 40, 0.001, -58.1692783537966520827243989405},
		{100000, 52000, 0.5, -86.0028029481694224042981791853},
	}
	for _, c := range cases {
		p := newParams(c.q, 1)
		v, bound := p.logBinomPMF(c.n, c.k)
		err := math.Abs(v - c.exact)
		t.Logf("logBinomPMF(%d, %d, q=%v) = %v, error %.3g, bound %.3g", c.n, c.k, c.q, v, err, bound)
		// the bound must hold, and be tight enough for the 1e-12 target (the
		// float64 form had 4u (x + M + |x log(x/M)|): 2e-12 at n = 10,000)
		if err > bound || bound > 2e-13+2*errfloat.Unit*math.Abs(c.exact) {
			t.Errorf("logBinomPMF(%d, %d, q=%v) = %v, exact %v: error %.3g, bound %.3g", c.n, c.k, c.q, v, c.exact, err, bound)
		}
	}
}
