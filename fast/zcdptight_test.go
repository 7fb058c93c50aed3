package fast_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// tightZCDPEps is the sweep's eps grid by region: below 1e-3 (where
// Laplace's and the bounded range's sums cancel in the naive form), the
// middle, and above 10 (where e^eps overflows from 710 on); subnormal and
// huge values included.
func tightZCDPEps(short bool) map[string][]float64 {
	var small, mid, large []float64
	step := 0.25
	if short {
		step = 2
	}
	for l := -300.0; l < -3; l += step * 10 {
		small = append(small, math.Pow(10, l))
	}
	small = append(small, 5e-324, 0x1p-1022, 1e-8, 1.234e-5)
	for l := -3.0; l <= 1; l += step / 4 {
		mid = append(mid, math.Pow(10, l), 1.5*math.Pow(10, l))
	}
	mid = append(mid, 2, math.Nextafter(2, 3)) // BoundedRangeZCDP's switch
	for l := 1.0; l <= 300; l += step * 5 {
		large = append(large, math.Pow(10, l))
	}
	large = append(large, 50, 709, 710, 745, 1e6)
	return map[string][]float64{"eps < 1e-3": small, "1e-3 <= eps <= 10": mid, "eps > 10": large}
}

// TestTightZCDPAccuracySweep compares each fast parameter with the
// reference at 64 bits per eps region: never below, within 1e-12
// relative. -v prints the max and RMS relative error per function and
// region (the table of fast/zcdptight.go).
func TestTightZCDPAccuracySweep(t *testing.T) {
	ref := reference.Context{Prec: 64}
	type fn struct {
		name string
		f    func(e float64) (float64, error)
		r    func(e float64) (*big.Float, error)
	}
	fns := []fn{
		{"LaplaceZCDP", fast.LaplaceZCDP, ref.LaplaceZCDP},
		{"RAPPORZCDP", fast.RAPPORZCDP, ref.RAPPORZCDP},
		{"BoundedRangeZCDP", fast.BoundedRangeZCDP, ref.BoundedRangeZCDP},
	}
	for _, k := range []float64{2, 3, 4, 5, 6} {
		fns = append(fns, fn{fmt.Sprintf("KaryRRZCDP k=%g", k),
			func(e float64) (float64, error) { return fast.KaryRRZCDP(e, k) },
			func(e float64) (*big.Float, error) { return ref.KaryRRZCDP(e, k) }})
	}
	grid := tightZCDPEps(testing.Short())
	for _, f := range fns {
		for _, region := range []string{"eps < 1e-3", "1e-3 <= eps <= 10", "eps > 10"} {
			var n int
			var mx, sum float64
			for _, e := range grid[region] {
				fv, err := f.f(e)
				if err != nil {
					t.Fatalf("%s(%g): %v", f.name, e, err)
				}
				rv, err := f.r(e)
				if err != nil {
					t.Fatalf("%s(%g): reference %v", f.name, e, err)
				}
				if rv.Sign() == 0 {
					t.Fatalf("%s(%g): reference 0", f.name, e)
				}
				d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(fv), rv)
				rel, _ := d.Quo(d, rv).Float64()
				if rel < 0 {
					t.Errorf("%s(%g): fast %.17g below reference %s", f.name, e, fv, rv.Text('g', 20))
				}
				rf, _ := rv.Float64()
				if rf < 0x1p-1022 { // subnormal results: judged in absolute terms
					if fv-rf > 0x1p-1070 {
						t.Errorf("%s(%g): fast %g, reference %g", f.name, e, fv, rf)
					}
					continue
				}
				if rel > 1e-12 {
					t.Errorf("%s(%g): fast %.17g, reference %s: rel %.3g > 1e-12", f.name, e, fv, rv.Text('g', 20), rel)
				}
				n++
				mx = math.Max(mx, rel)
				sum += rel * rel
			}
			t.Logf("%-18s %-18s %4d points  max rel %.2e  rms %.2e", f.name, region, n, mx, math.Sqrt(sum/float64(max(n, 1))))
		}
	}
}

func TestTightZCDPSpecialCasesFast(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, f := range []func() (float64, error){
		func() (float64, error) { return fast.LaplaceZCDP(0) },
		func() (float64, error) { return fast.RAPPORZCDP(0) },
		func() (float64, error) { return fast.BoundedRangeZCDP(0) },
		func() (float64, error) { return fast.KaryRRZCDP(0, 2) },
	} {
		if v, err := f(); v != 0 || err != nil {
			t.Errorf("at eps = 0: %g, %v; want exactly 0", v, err)
		}
	}
	for name, f := range map[string]func() (float64, error){
		"LaplaceZCDP(-1)":        func() (float64, error) { return fast.LaplaceZCDP(-1) },
		"LaplaceZCDP(Inf)":       func() (float64, error) { return fast.LaplaceZCDP(inf) },
		"RAPPORZCDP(NaN)":        func() (float64, error) { return fast.RAPPORZCDP(nan) },
		"BoundedRangeZCDP(-0.5)": func() (float64, error) { return fast.BoundedRangeZCDP(-0.5) },
		"KaryRRZCDP(1, 7)":       func() (float64, error) { return fast.KaryRRZCDP(1, 7) },
		"KaryRRZCDP(1, 1)":       func() (float64, error) { return fast.KaryRRZCDP(1, 1) },
		"KaryRRZCDP(1, 3.5)":     func() (float64, error) { return fast.KaryRRZCDP(1, 3.5) },
		"KaryRRZCDP(1, NaN)":     func() (float64, error) { return fast.KaryRRZCDP(1, nan) },
	} {
		if _, err := f(); !errors.Is(err, rdpcheck.ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", name, err)
		}
	}
}

func BenchmarkTightZCDP(b *testing.B) {
	eps := []float64{1e-6, 0.3, 1, 5, 50}
	b.Run("Laplace", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_, _ = fast.LaplaceZCDP(eps[i%len(eps)])
		}
	})
	b.Run("KaryRR", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_, _ = fast.KaryRRZCDP(eps[i%len(eps)], 4)
		}
	})
	b.Run("RAPPOR", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_, _ = fast.RAPPORZCDP(eps[i%len(eps)])
		}
	})
	b.Run("BoundedRange", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_, _ = fast.BoundedRangeZCDP(eps[i%len(eps)])
		}
	})
}

// The tight zCDP parameters of four 1-DP mechanisms, against the eps^2/2 of
// Bun and Steinke's pure-DP conversion (0.5): the worst-case bounded-range
// mechanism (an exponential mechanism) is the smallest.
func ExampleLaplaceZCDP() {
	lap, _ := fast.LaplaceZCDP(1)
	rr, _ := fast.KaryRRZCDP(1, 2)
	rappor, _ := fast.RAPPORZCDP(1)
	br, _ := fast.BoundedRangeZCDP(1)
	fmt.Printf("Laplace %.6f, binary RR %.6f, RAPPOR %.6f, bounded range %.6f\n", lap, rr, rappor, br)
	// Output: Laplace 0.367879, binary RR 0.462117, RAPPOR 0.244919, bounded range 0.123302
}

// k-ary randomized response at eps = 1: more buckets, less leakage per
// release (eps (e - 1)/(e + k - 1)).
func ExampleKaryRRZCDP() {
	for _, k := range []float64{2, 3, 6} {
		rho, _ := fast.KaryRRZCDP(1, k)
		fmt.Printf("k=%g rho=%.6f\n", k, rho)
	}
	_, err := fast.KaryRRZCDP(1, 7)
	fmt.Println(err != nil)
	// Output:
	// k=2 rho=0.462117
	// k=3 rho=0.364175
	// k=6 rho=0.222625
	// true
}

// RAPPOR at eps = 2 leaks as two binary randomized responses at eps/2:
// 2 tanh(1/2) = 0.924234.
func ExampleRAPPORZCDP() {
	rho, _ := fast.RAPPORZCDP(2)
	fmt.Printf("%.6f\n", rho)
	// Output: 0.924234
}

// The worst-case bounded-range mechanism at eps = 1 against the eps^2/8 =
// 0.125 of Cesar and Rogers' zCDP statement.
func ExampleBoundedRangeZCDP() {
	rho, _ := fast.BoundedRangeZCDP(1)
	fmt.Printf("%.6f\n", rho)
	// Output: 0.123302
}

// TestComposeBoundedRange: ten bounded-range mechanisms at eps = 1 are
// charged at most ComposeExponentialMechanism's curve at every default
// order, strictly less at alpha = 2 (ten times the HM25 line 0.2466 <
// 0.2483) and at most ten times the pure-DP curve; and the reference's
// min(BoundedRangeZCDP alpha, PureDP) times ten is at or below it.
func TestComposeBoundedRange(t *testing.T) {
	var br, em fast.Accountant
	if err := br.ComposeBoundedRange(1, 10); err != nil {
		t.Fatal(err)
	}
	if err := em.ComposeExponentialMechanism(1, 10); err != nil {
		t.Fatal(err)
	}
	orders, cb := br.Curve()
	_, ce := em.Curve()
	rho, _ := reference.BoundedRangeZCDP(1)
	for i, a := range orders {
		if cb[i] > ce[i] {
			t.Errorf("alpha=%g: ComposeBoundedRange %g above ComposeExponentialMechanism %g", a, cb[i], ce[i])
		}
		if a == 2 && !(cb[i] < ce[i]) {
			t.Errorf("alpha=2: %g not below %g", cb[i], ce[i])
		}
		p, err := reference.PureDP(1, a)
		if err != nil {
			t.Fatal(err)
		}
		line := new(big.Float).Mul(rho, big.NewFloat(a))
		if line.Cmp(p) > 0 {
			line = p
		}
		line.Mul(line, big.NewFloat(10))
		if new(big.Float).SetFloat64(cb[i]).Cmp(line) < 0 {
			t.Errorf("alpha=%g: %g below the reference's 10 min(rho alpha, PureDP) = %s", a, cb[i], line.Text('g', 17))
		}
	}
	if err := br.ComposeBoundedRange(-1, 1); !errors.Is(err, rdpcheck.ErrInput) {
		t.Errorf("eps = -1: %v, want ErrInput", err)
	}
}
