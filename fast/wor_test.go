package fast

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// worSweepOrders are the orders of every WOR sweep curve: integers up to
// 1024 and fractional orders up to 256 (the promised range), from 1 + 2^-52
// (nearOneSweep).
var worSweepOrders = []float64{1, 1 + 0x1p-52, 1 + 1e-12, 1 + 1e-9, 1 + 1e-6, 1.001, 1.5, 2, 2.5, 3, 4, 5.5, 7, 10.3, 16, 33, 64, 100.5, 128, 255.75, 256, 511, 512, 1023, 1024}

// TestWORAccuracySweep measures WORGaussian against the reference at 64
// bits (relative error at most 2^-63) per region, on curves over
// worSweepOrders: every value must be at or above the reference and
// within 1e-12 relative of it. Run with -v for the table.
func TestWORAccuracySweep(t *testing.T) {
	t.Parallel()
	sigmas := []float64{0.3, 0.7, 1.1, 2, 4, 9.5, 30, 100}
	qs := []float64{1e-10, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.9, 1 - 1e-9}
	var points [][2]float64 // (sigma, q)
	for _, sigma := range sigmas {
		for _, q := range qs {
			points = append(points, [2]float64{sigma, q})
		}
	}
	orders := worSweepOrders
	switch {
	case testing.Short():
		points = [][2]float64{{0.3, 0.5}, {9.5, 1e-10}, {100, 0.5}} // one sigma per region
		// The reference's cost is in orders 511..1024 (95%); 128 and 256
		// keep the integer region above 64.
		orders = slices.DeleteFunc(slices.Clone(worSweepOrders), func(a float64) bool { return a > 256 })
	case testtier.Sampled(t, "the WOR sweep's (sigma, q) points other than every 5th"):
		// 13 of 64: 5 is prime to the 8 q's, so every sigma and every q
		// is still drawn, each point at every order.
		var some [][2]float64
		for i := 0; i < len(points); i += 5 {
			some = append(some, points[i])
		}
		points = some
	}
	type stat struct {
		n         int
		max, sum2 float64
		worst     string
	}
	stats := map[string]*stat{}
	region := func(q, sigma, alpha float64) string {
		var s, a string
		switch {
		case sigma < 1:
			s = "sigma [0.3, 1)"
		case sigma < 10:
			s = "sigma [1, 10)"
		default:
			s = "sigma [10, 100]"
		}
		switch {
		case alpha > 1 && alpha <= 1.001:
			a = "alpha in [1+2^-52, 1.001]"
		case alpha != math.Trunc(alpha):
			a = "fractional <= 256"
		case alpha <= 64:
			a = "integer <= 64"
		default:
			a = "integer 65..1024"
		}
		return s + ", " + a
	}
	out := make([]float64, len(orders))
	for _, p := range points {
		sigma, q := p[0], p[1]
		want, err := refCtx.WORGaussianCurve(q, sigma, 1, orders)
		if err != nil {
			t.Fatal(err)
		}
		if err := WORGaussianCurve(q, sigma, 1, orders, out); err != nil {
			t.Fatal(err)
		}
		for i, a := range orders {
			d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(out[i]), want[i])
			d.Quo(d, want[i])
			rel, _ := d.Float64()
			if rel < 0 {
				t.Errorf("WORGaussian(%v, %v, %v) = %.17g below the reference %s (%.3g)", q, sigma, a, out[i], want[i].Text('g', 20), rel)
			}
			if rel > 1e-12 {
				t.Errorf("WORGaussian(%v, %v, %v) = %.17g, reference %s: relative error %.3g > 1e-12", q, sigma, a, out[i], want[i].Text('g', 20), rel)
			}
			r := region(q, sigma, a)
			s := stats[r]
			if s == nil {
				s = &stat{}
				stats[r] = s
			}
			s.n++
			s.sum2 += rel * rel
			if math.Abs(rel) >= s.max {
				s.max, s.worst = math.Abs(rel), fmt.Sprintf("q=%g sigma=%g alpha=%g", q, sigma, a)
			}
		}
	}
	var names []string
	for r := range stats {
		names = append(names, r)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-40s %5s %10s %10s  %s\n", "region", "n", "max rel", "RMS rel", "worst")
	for _, r := range names {
		s := stats[r]
		fmt.Fprintf(&b, "%-40s %5d %10.3g %10.3g  %s\n", r, s.n, s.max, math.Sqrt(s.sum2/float64(s.n)), s.worst)
	}
	t.Log(b.String())
}

func TestWORGaussianSpecialCases(t *testing.T) {
	g7, _ := Gaussian(1.1, 7)
	at2, _ := WORGaussian(0.01, 1.1, 2)
	for _, c := range []struct {
		name            string
		q, sigma, alpha float64
		want            float64
	}{
		{"q = 0", 0, 1.1, 7, 0},
		{"q = 0, alpha = +Inf", 0, 1.1, math.Inf(1), 0},
		{"q = 1 is the Gaussian", 1, 1.1, 7, g7},
		{"alpha = +Inf", 0.01, 1.1, math.Inf(1), math.Inf(1)},
		{"alpha = 1 is the value at 2", 0.01, 1.1, 1, at2},
		{"constant on [1, 2]", 0.01, 1.1, 1.37, at2},
	} {
		got, err := WORGaussian(c.q, c.sigma, c.alpha)
		if err != nil || got != c.want {
			t.Errorf("%s: WORGaussian(%v, %v, %v) = %v, %v; want %v", c.name, c.q, c.sigma, c.alpha, got, err, c.want)
		}
	}
	nan := math.NaN()
	for _, c := range []struct {
		q, sigma, alpha float64
		arg             string
	}{
		{nan, 1, 2, "q"}, {-1, 1, 2, "q"}, {2, 1, 2, "q"}, {0.1, 0, 2, "sigma"}, {0.1, nan, 2, "sigma"},
		{0.1, math.Inf(1), 2, "sigma"}, {0.1, 1, 0.9, "alpha"}, {0.1, 1, nan, "alpha"},
	} {
		_, err := WORGaussian(c.q, c.sigma, c.alpha)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("WORGaussian(%v, %v, %v): %v, want an InputError on %s", c.q, c.sigma, c.alpha, err, c.arg)
		}
	}
	if _, err := WORGaussian(0.1, 1, rdpcheck.MaxWOROrder+0.5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("order above MaxWOROrder: %v, want ErrTooLarge", err)
	}
}

// TestWORBoundAccuracy compares WORBound with the reference at 64 bits for
// three kinds of base curve (Gaussian: no pure-DP bound; Laplace: eps(Inf)
// = 1/b; pure DP: flat) over q and the sweep's orders up to 256: at or
// above, within 1e-12.
func TestWORBoundAccuracy(t *testing.T) {
	bases := map[string]rdpcheck.BaseCurve{}
	for _, sigma := range []float64{0.5, 2, 30} {
		b := rdpcheck.BaseCurve{Inf: math.Inf(1)}
		for j := 2; j <= 256; j++ {
			b.Eps = append(b.Eps, float64(j)/(2*sigma*sigma))
		}
		bases[fmt.Sprintf("Gaussian sigma=%g", sigma)] = b
	}
	for _, lb := range []float64{0.3, 5} {
		b := rdpcheck.BaseCurve{Inf: 1 / lb}
		for j := 2; j <= 256; j++ {
			v, _ := Laplace(lb, float64(j))
			b.Eps = append(b.Eps, math.Min(v, 1/lb))
		}
		bases[fmt.Sprintf("Laplace b=%g", lb)] = b
	}
	flat := rdpcheck.BaseCurve{Inf: 0.7}
	for j := 2; j <= 256; j++ {
		flat.Eps = append(flat.Eps, 0.7)
	}
	bases["pure DP eps=0.7"] = flat
	worst := 0.0
	for name, b := range bases {
		for _, q := range []float64{1e-10, 1e-3, 0.1, 0.7, 1} {
			for _, a := range worSweepOrders {
				if a > 256 {
					continue
				}
				got, err := WORBound(q, a, b)
				if err != nil {
					t.Fatal(err)
				}
				want, err := refCtx.WORBound(q, a, b)
				if err != nil {
					t.Fatal(err)
				}
				d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(got), want)
				if want.Sign() != 0 {
					d.Quo(d, want)
				}
				rel, _ := d.Float64()
				if rel < 0 || rel > 1e-12 {
					t.Errorf("%s: WORBound(%v, %v) = %.17g, reference %s (relative %.3g)", name, q, a, got, want.Text('g', 20), rel)
				}
				worst = max(worst, rel)
			}
		}
	}
	t.Logf("worst relative error above the reference: %.3g", worst)
}

// The accountant's WOR events: at every order the composed value is at
// most the bare bound, at most the unsampled Gaussian, at most the bound
// at every higher order, and equal to the least of them (count times).
func TestComposeWORGaussian(t *testing.T) {
	orders := []float64{1.5, 2, 3, 8, 64, 256, 1024, 2000}
	for _, c := range []struct{ q, sigma float64 }{{0.01, 1.1}, {0.99, 0.3}, {0.5, 0.7}, {1, 2}, {0, 2}} {
		acc := Accountant{Orders: orders}
		if err := acc.ComposeWORGaussian(c.q, c.sigma, 3); err != nil {
			t.Fatal(err)
		}
		_, got := acc.Curve()
		for i, x := range orders {
			want, _ := Gaussian(c.sigma, x)
			if c.q == 0 {
				want = 0
			}
			for _, y := range orders {
				if y >= x && y <= rdpcheck.MaxWOROrder {
					b, err := WORGaussian(c.q, c.sigma, y)
					if err != nil {
						t.Fatal(err)
					}
					want = math.Min(want, b)
				}
			}
			want = addUp(0, errfloat.ScaleUp(want, 3)) // as the accountant rounds
			if got[i] != want {
				t.Errorf("q=%v sigma=%v order %v: composed %v, want min(bound, suffix, unsampled) x 3 = %v", c.q, c.sigma, x, got[i], want)
			}
		}
	}
	var acc Accountant
	if err := acc.ComposeWORGaussian(0.1, -1, 1); err == nil || acc.Events() != 0 {
		t.Errorf("bad sigma: err %v, %d events", err, acc.Events())
	}
}
