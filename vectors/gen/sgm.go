package gen

// vectors/sgm_rdp.json: RDP of the sampled Gaussian mechanism by region.

import (
	"fmt"
	"math"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// SGMTolerance is what a float64 implementation can reach on every SGM group
// (package fast promises it for q in [1e-12, 1], sigma in [0.1, 1000],
// integer orders to 10,000 and fractional orders to 256, and meets it on
// every test here, which the vectors package's tests enforce).
const SGMTolerance = 1e-12

// sgmRegion is one region of (q, sigma, alpha) space.
type sgmRegion struct {
	name, comment string
	q, sigma      []float64
	integer, frac []float64
}

// largestBelowOne is 1 - 2^-53, the float64 just below 1.
var largestBelowOne = math.Nextafter(1, 0)

var sgmRegions = []sgmRegion{
	{
		name:    "typical",
		comment: "typical DP-SGD: q from 1e-3 to 0.1 (batch / dataset size, e.g. 256/60000), sigma from 0.8 to 4",
		q:       []float64{1e-3, 256.0 / 60000, 0.01, 0.05, 0.1},
		sigma:   []float64{0.8, 1, 1.1, 1.5, 2, 4},
		integer: []float64{2, 3, 4, 5, 8, 10, 12, 16, 20, 32, 64, 128, 256},
		frac:    []float64{1.5, 2.5, 3.5, 5.5, 8.1, 10.5, 16.5, 32.5},
	},
	{
		name:    "tiny-q",
		comment: "tiny sampling rates, 1e-150 to 1e-6: the RDP is of order q^2 and 1 + O(q^2) cannot be formed in float64",
		q:       []float64{1e-150, 1e-100, 1e-30, 1e-15, 1e-12, 1e-10, 1e-8, 1e-6},
		sigma:   []float64{0.5, 1, 2, 10},
		integer: []float64{2, 3, 8, 32, 256},
		frac:    []float64{1.1, 1.5, 3.5, 10.5, 32.5},
	},
	{
		name:    "q-near-1",
		comment: "sampling rates near 1, up to 1 - 2^-53 and 1 itself (the Gaussian mechanism)",
		q:       []float64{0.9, 0.99, 0.999, 0.999999, 0.999999999, largestBelowOne, 1},
		sigma:   []float64{0.5, 1, 2, 10},
		integer: []float64{2, 4, 16, 64, 256},
		frac:    []float64{1.5, 2.5, 10.5, 64.5},
	},
	{
		name:    "small-sigma",
		comment: "little noise, sigma from 0.1 to 0.4: the moments grow like exp(alpha^2 / (2 sigma^2))",
		q:       []float64{1e-4, 0.01, 0.1, 0.5},
		sigma:   []float64{0.1, 0.15, 0.2, 0.3, 0.4},
		integer: []float64{2, 4, 16, 64, 256, 1000},
		frac:    []float64{1.5, 2.5, 10.5, 64.5},
	},
	{
		name:    "large-sigma",
		comment: "much noise, sigma from 10 to 1000: the RDP is tiny and the moment is 1 + O(q^2 / sigma^2)",
		q:       []float64{1e-4, 0.01, 0.1, 0.5, 0.9},
		sigma:   []float64{10, 20, 50, 100, 1000},
		integer: []float64{2, 8, 64, 1024, 10000},
		frac:    []float64{1.5, 10.5, 100.5, 255.5},
	},
	{
		name:    "large-orders",
		comment: "large orders, 128.5 to 10000: binomial coefficients overflow float64 and series need many terms",
		q:       []float64{1e-6, 1e-3, 0.01, 0.1},
		sigma:   []float64{1, 2, 5, 20},
		integer: []float64{1000, 1024, 2048, 4096, 10000},
		frac:    []float64{128.5, 255.5, 500.5, 1000.5},
	},
	{
		name:    "orders-near-1",
		comment: "orders just above 1, 1 + 1e-9 to 1.2: the divergence tends to the KL divergence and 1/(alpha - 1) is large",
		q:       []float64{1e-4, 0.01, 0.1, 0.5, 0.99},
		sigma:   []float64{0.5, 1, 2, 10},
		frac:    []float64{1.000000001, 1.000001, 1.0001, 1.001, 1.01, 1.05, 1.1, 1.2},
	},
}

// SGMFlags returns the input flags of an SGM point.
func SGMFlags(q, sigma, alpha float64) []string {
	var f []string
	if !math.IsInf(alpha, 0) && alpha != math.Trunc(alpha) {
		f = append(f, "FractionalOrder")
	}
	if math.IsInf(alpha, 1) {
		f = append(f, "InfiniteOrder")
	}
	if q == 1 {
		f = append(f, "GaussianLine")
	}
	if q == 0 {
		f = append(f, "ZeroRate")
	}
	if q > 0 && q < 1e-9 {
		f = append(f, "TinyRate")
	}
	if q < 1 && 1-q < 1e-6 {
		f = append(f, "RateNearOne")
	}
	if alpha-1 < 1e-3 {
		f = append(f, "OrderNearOne")
	}
	if alpha > 1000 && !math.IsInf(alpha, 0) {
		f = append(f, "LargeOrder")
	}
	if sigma == 0 {
		f = append(f, "ZeroNoise")
	}
	return f
}

// SGMTest is a test of SGM at (q, sigma, alpha) with its input flags.
func SGMTest(q, sigma, alpha float64) *schema.Test {
	t := &schema.Test{Comment: fmt.Sprintf("q=%g sigma=%g alpha=%g", q, sigma, alpha), Flags: SGMFlags(q, sigma, alpha)}
	t.SetFloat("q", q)
	t.SetFloat("sigma", sigma)
	t.SetFloat("alpha", alpha)
	return t
}

func buildSGM(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("SGM-RDP", []string{
		"Renyi DP eps(alpha) of one step of the Poisson-sampled Gaussian mechanism: sampling rate q, noise multiplier sigma, l2-sensitivity 1, add/remove-one neighbours.",
		"The value is the larger of D_alpha(mu || mu0) and D_alpha(mu0 || mu), mu0 = N(0, sigma^2), mu = (1 - q) mu0 + q N(1, sigma^2); the first is the larger in every test here (Mironov, Talwar, Zhang 2019).",
		"Groups are regions of (q, sigma, alpha); each region has a group of integer orders and a group of fractional orders, and a last group holds the special cases.",
	}, "SGM: integer orders by the exact binomial sum of non-negative terms; other orders by the convergent series of Mironov, Talwar and Zhang 2019 (arXiv 1908.10530) with a Gauss-Legendre strip around the split point; both directions computed.")
	for _, r := range sgmRegions {
		for _, kind := range []struct {
			name   string
			orders []float64
		}{{"integer", r.integer}, {"fractional", r.frac}} {
			if len(kind.orders) == 0 {
				continue
			}
			g := b.Group(r.name+"/"+kind.name, schema.SGM, r.comment+"; "+kind.name+" orders", SGMTolerance)
			for _, q := range r.q {
				for _, s := range r.sigma {
					for _, a := range kind.orders {
						b.Test(g, SGMTest(q, s, a), e.SGMJobChecked(q, s, a), nil)
					}
				}
			}
		}
	}
	g := b.Group("special", schema.SGM, "special cases: q = 0, q = 1, alpha = +inf, sigma = 0, q = -0", SGMTolerance)
	special := []struct {
		q, sigma, alpha float64
		result          string
	}{
		{0, 1, 2, schema.Valid},
		{0, 1, 10.5, schema.Valid},
		{0, 0.5, math.Inf(1), schema.Valid},
		{math.Copysign(0, -1), 1, 2, schema.Valid},
		{0.01, 1, math.Inf(1), schema.Valid},
		{1, 1, math.Inf(1), schema.Valid},
		{1, 1.1, 2, schema.Valid},
		{1, 0.3, 1.5, schema.Valid},
		{1, 1000, 10000, schema.Valid},
		{0.01, 0, 2, schema.Acceptable},
		{0.5, 0, 10.5, schema.Acceptable},
		{1, 0, 2, schema.Acceptable},
	}
	for _, c := range special {
		t := SGMTest(c.q, c.sigma, c.alpha)
		t.Result = c.result
		if math.Signbit(c.q) {
			t.Comment += " (negative zero: inside [0, 1])"
		}
		b.Test(g, t, e.SGMJob(c.q, c.sigma, c.alpha), nil)
	}
	return b, nil
}
