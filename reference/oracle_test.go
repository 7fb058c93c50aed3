package reference_test

// The reference against package oracles, which shares no code with it:
// tanh-sinh quadrature of the defining integrals in big.Float, exact
// rationals, closed forms through github.com/ALTree/bigfloat, gonum's
// float64 quadrature and Monte Carlo. At 256 bits every comparison must
// agree to at least 40 significant digits (the oracles aim at 48 at that
// precision; the reference claims 76); -short runs the quadrature sample
// at 128 bits (quadraturePrec).

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// digits returns the number of agreeing significant digits, -log10 |a-b|/|b|
// (100 when equal).
func digits(a, b *big.Float) float64 {
	d := relDiff(a, b)
	if d == 0 {
		return 100
	}
	return -math.Log10(d)
}

// The table of the reference issue: every value of each appears; the
// integer and fractional orders are dealt to the (q, sigma) pairs in turn.
var (
	tableQ     = []float64{0, 1e-12, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99, 1 - 1e-9, 1}
	tableSigma = []float64{0.1, 0.5, 1, 2, 10, 100, 1000}
	tableAlpha = []float64{2, 1.001, 3, 1.01, 8, 1.5, 32, 2.5, 256, 10.7, 1024, 59.3, 4096, 200.5, 1000.25}
)

func region(q, sigma, alpha float64) string {
	switch {
	case q == 0 || q == 1:
		return "q in {0, 1} (exact cases)"
	case q <= 1e-6:
		return "tiny q (1e-12, 1e-6)"
	case q >= 0.99:
		return "q near 1 (0.99, 1-1e-9)"
	case sigma <= 0.5:
		return "small sigma (0.1, 0.5)"
	case sigma >= 100:
		return "large sigma (100, 1000)"
	case alpha >= 256:
		return "large orders (>= 256)"
	case alpha < 2:
		return "orders near 1 (< 2)"
	}
	return "typical (q 1e-3..0.5, sigma 1..10)"
}

// shortQuadraturePoints are the points of the table that -short runs: 18
// of 70, chosen (greedily, by measured cost) so that every q, and at
// 0 < q < 1 every sigma and every order, appears at least once, in about
// 4 s instead of 45 (point 42, q = 0.5, sigma = 0.1, alpha = 4096, alone
// takes 14 s).
var shortQuadraturePoints = []int{0, 13, 18, 26, 27, 29, 33, 34, 35, 45, 51, 52, 53, 54, 55, 61, 62, 64}

// quadraturePrec is the precision of both sides and quadratureDigits the
// agreement demanded: 40 of 77 digits at 256 bits in the exhaustive tier;
// the default run and -short run at 128 bits and demand 20 of 38, the same
// share of the precision (measured there: 29 to 37 digits, against 55 to
// 61 at 256). Any wrong formula is off in the first few digits, so 20
// still catches one; the point is 2.5 times cheaper.
func quadraturePrec(t *testing.T) (prec uint, digits float64) {
	if testtier.Sampled(t, "the quadrature comparison at 256 bits (40 digits); this run is at 128 (20 digits)") {
		return 128, 20
	}
	return 256, 40
}

func TestReferenceAgainstQuadrature(t *testing.T) {
	t.Parallel()
	type point struct{ q, sigma, alpha float64 }
	var pts []point
	n := 0
	for _, q := range tableQ {
		for _, s := range tableSigma {
			pts = append(pts, point{q, s, tableAlpha[n%len(tableAlpha)]})
			n++
		}
	}
	if testing.Short() {
		var short []point
		for _, i := range shortQuadraturePoints {
			short = append(short, pts[i])
		}
		pts = short
	}
	type result struct {
		p        point
		fwd, bwd float64 // agreeing digits
		err      error
	}
	prec, minDigits := quadraturePrec(t)
	res := make([]result, len(pts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, p := range pts {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			rf, rb, err := reference.Context{Prec: prec}.SGMDirections(p.q, p.sigma, p.alpha)
			if err != nil {
				res[i] = result{p: p, err: fmt.Errorf("reference: %w", err)}
				return
			}
			of, ob, err := oracles.SGMQuad(p.q, p.sigma, p.alpha, prec)
			if err != nil {
				res[i] = result{p: p, err: fmt.Errorf("oracle: %w", err)}
				return
			}
			res[i] = result{p: p, fwd: digits(rf, of), bwd: digits(rb, ob)}
		})
	}
	wg.Wait()
	worst := map[string]result{}
	seenAlpha := map[float64]bool{}
	for _, r := range res {
		name := fmt.Sprintf("q=%g sigma=%g alpha=%g", r.p.q, r.p.sigma, r.p.alpha)
		if r.err != nil {
			t.Errorf("%s: %v", name, r.err)
			continue
		}
		seenAlpha[r.p.alpha] = true
		if r.fwd < minDigits || r.bwd < minDigits {
			t.Errorf("%s: reference and quadrature agree to %.1f (forward) and %.1f (backward) digits at %d bits, want >= %g", name, r.fwd, r.bwd, prec, minDigits)
		}
		reg := region(r.p.q, r.p.sigma, r.p.alpha)
		if w, ok := worst[reg]; !ok || math.Min(r.fwd, r.bwd) < math.Min(w.fwd, w.bwd) {
			worst[reg] = r
		}
	}
	if len(seenAlpha) != len(tableAlpha) {
		t.Errorf("only %d of %d orders covered", len(seenAlpha), len(tableAlpha))
	}
	regs := make([]string, 0, len(worst))
	for r := range worst {
		regs = append(regs, r)
	}
	sort.Strings(regs)
	t.Logf("%-36s %s", "region", "worst agreement in digits (forward, backward) and where")
	for _, reg := range regs {
		w := worst[reg]
		t.Logf("%-36s %5.1f %5.1f  q=%g sigma=%g alpha=%g", reg, w.fwd, w.bwd, w.p.q, w.p.sigma, w.p.alpha)
	}
}

// gonum's float64 Gauss-Legendre quadrature (oracles.SGMQuadFloat64) is a
// coarse second opinion; its own n-vs-2n error estimate is ~1e-10 on these
// points, so agreement to 1e-8 relative catches any wrong formula.
func TestReferenceAgainstFloat64Quadrature(t *testing.T) {
	for _, c := range [][3]float64{{0.01, 1.1, 2.5}, {0.1, 1, 1.5}, {0.5, 2, 10.7}, {0.001, 0.8, 32}, {0.4, 12, 59.3}} {
		want, err := oracles.SGMQuadFloat64(c[0], c[1], c[2])
		if err != nil {
			t.Fatal(err)
		}
		got, err := reference.Context{Prec: 64}.SGM(c[0], c[1], c[2])
		if err != nil {
			t.Fatal(err)
		}
		g, _ := got.Float64()
		if r := math.Abs(g-want) / want; r > 1e-8 {
			t.Errorf("SGM%v = %v, gonum quadrature %v (rel %.2g)", c, g, want, r)
		}
	}
}

// Seeded Monte Carlo (oracles.SGMMonteCarlo, 99.9% CLT interval): the
// reference must fall inside. Cheap points only, where the sample variance
// is moderate. Seeds fixed, so the test is deterministic.
func TestReferenceInsideMonteCarloInterval(t *testing.T) {
	for _, c := range [][3]float64{{0.1, 1, 2}, {0.05, 2, 4}, {0.2, 3, 1.5}} {
		_, lo, hi, err := oracles.SGMMonteCarlo(c[0], c[1], c[2], 200000, 7)
		if err != nil {
			t.Fatal(err)
		}
		v, err := reference.Context{Prec: 64}.SGM(c[0], c[1], c[2])
		if err != nil {
			t.Fatal(err)
		}
		f, _ := v.Float64()
		if f < lo || f > hi {
			t.Errorf("SGM%v = %v outside the Monte Carlo interval [%v, %v]", c, f, lo, hi)
		}
	}
}

// Closed forms, evaluated by the oracles with bigfloat's Exp/Log, and
// Gaussian/Laplace by quadrature: 40 digits.
func TestReferenceClosedFormsAgainstOracles(t *testing.T) {
	for _, c := range [][5]float64{{0, 1, 1, 2, 3}, {0.5, 1.5, -1, 1, 0.5}, {0, 1, 1, 2, 1}, {1, 2, 0, 3, 7.5}, {0, 1, 1, 2, inf}} {
		got, err := reference.GaussianDivergence(c[0], c[1], c[2], c[3], c[4])
		if err != nil {
			t.Fatal(err)
		}
		want, err := oracles.GaussianClosed(c[0], c[1], c[2], c[3], c[4], 256)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, want); d < 40 {
			t.Errorf("GaussianDivergence%v: %.1f digits against the oracle", c, d)
		}
		if math.IsInf(c[4], 1) || c[4] == 1 {
			continue
		}
		quad, err := oracles.GaussianQuad(c[0], c[1], c[2], c[3], c[4], 256)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, quad); d < 40 {
			t.Errorf("GaussianDivergence%v: %.1f digits against quadrature", c, d)
		}
	}
	for _, c := range [][2]float64{{1, 2}, {0.5, 1.5}, {10, 1}, {2, 100}, {1000, 2.5}} {
		got, err := reference.Laplace(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]func(b, a float64, prec uint) (*big.Float, error){"closed": oracles.LaplaceClosed, "quadrature": oracles.LaplaceQuad} {
			if name == "quadrature" && c[1] == 1 {
				continue
			}
			want, err := f(c[0], c[1], 256)
			if err != nil {
				t.Fatalf("Laplace%v %s: %v", c, name, err)
			}
			if d := digits(got, want); d < 40 {
				t.Errorf("Laplace%v: %.1f digits against the %s oracle", c, d, name)
			}
		}
	}
	for _, c := range [][2]float64{{0.75, 2}, {0.9, 1.5}, {0.6, 1}, {0.51, 64}, {0.99, 0.5}} {
		got, err := reference.RandomizedResponse(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		want, err := oracles.RandomizedResponseClosed(c[0], c[1], 256)
		if err != nil {
			t.Fatal(err)
		}
		if d := digits(got, want); d < 40 {
			t.Errorf("RandomizedResponse%v: %.1f digits", c, d)
		}
	}
}

// Discrete divergences with dyadic probabilities (exact in float64 and as
// rationals) against oracles.DiscreteRenyiRat, which sums exactly in big.Rat.
func TestReferenceDiscreteAgainstRationals(t *testing.T) {
	cases := []struct{ p, q []int64 }{ // numerators over 1024
		{[]int64{512, 256, 256, 0}, []int64{256, 256, 256, 256}},
		{[]int64{1, 1023}, []int64{1023, 1}},
		{[]int64{300, 300, 424}, []int64{301, 299, 424}}, // nearly equal: log1p territory
		{[]int64{1024}, []int64{1024}},
	}
	for _, c := range cases {
		p, q := make([]float64, len(c.p)), make([]float64, len(c.q))
		pr, qr := make([]*big.Rat, len(c.p)), make([]*big.Rat, len(c.q))
		for i := range c.p {
			p[i], q[i] = float64(c.p[i])/1024, float64(c.q[i])/1024
			pr[i], qr[i] = big.NewRat(c.p[i], 1024), big.NewRat(c.q[i], 1024)
		}
		for _, a := range []int64{2, 3, 7, 50} {
			got, err := reference.Divergence(p, q, float64(a))
			if err != nil {
				t.Fatal(err)
			}
			want, err := oracles.DiscreteRenyiRat(pr, qr, a, 256)
			if err != nil {
				t.Fatal(err)
			}
			if d := digits(got, want); d < 40 {
				t.Errorf("Divergence(%v, %v, %d) = %s, exact %s: %.1f digits", c.p, c.q, a, got.Text('g', 30), want.Text('g', 30), d)
			}
		}
	}
}
