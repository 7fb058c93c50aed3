package pld

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// Every input of the robustness list (crashes, NaN and false errors found
// before) gets a value or a typed error: no
// panic, no NaN, no false error.
func TestRobustInputs(t *testing.T) {
	ctx := context.Background()
	type call struct {
		name string
		f    func() (Interval, error)
		slow bool // seconds to minutes: the exhaustive tier's
		mid  bool // a second or two: the default tier's, not -short's
	}
	fast := func(name string, f func() (Interval, error)) call { return call{name, f, false, false} }
	slow := func(name string, f func() (Interval, error)) call { return call{name, f, true, false} }
	mid := func(name string, f func() (Interval, error)) call { return call{name, f, false, true} }
	sgm := func(q, s float64, n int) Composition {
		return Composition{Terms: []Term{{SampledGaussian{q, s}, int64(n)}}}
	}
	calls := []call{
		fast("GaussianDelta(0.83, 1, 3e9)", func() (Interval, error) { return GaussianDelta(0.83, 1, 3e9) }),
		fast("GaussianDelta(0.83, 1, MaxFloat)", func() (Interval, error) { return GaussianDelta(0.83, 1, math.MaxFloat64) }),
		mid("SGMEpsilon(q=1, 0.3, 1e6, 1e-5)", func() (Interval, error) { return SGMEpsilon([]Phase{{1, 0.3, 1e6}}, 1e-5) }),
		fast("SGMDelta(-Inf)", func() (Interval, error) { return SGMDelta([]Phase{{0.01, 1, 100}}, math.Inf(-1)) }),
		slow("RREpsilon(0.6, 1e7, 1e-5)", func() (Interval, error) { return RREpsilon(0.6, 1e7, 1e-5) }),
		mid("GaussianEpsilon(0.3, 1e5, 1e-5)", func() (Interval, error) { return GaussianEpsilon(0.3, 1e5, 1e-5) }),
		mid("SGMEpsilon(q=1, 2, 10, 1e-300)", func() (Interval, error) { return SGMEpsilon([]Phase{{1, 2, 10}}, 1e-300) }),
		fast("SGMEpsilon(q=0.999, 0.5, 2, 1e-5)", func() (Interval, error) { return SGMEpsilon([]Phase{{0.999, 0.5, 2}}, 1e-5) }),
		slow("SGMEpsilon(q=0.01, 0.05, 10, 1e-5)", func() (Interval, error) { return SGMEpsilon([]Phase{{0.01, 0.05, 10}}, 1e-5) }),
		fast("SGMEpsilon(q=0.01, 5000, 10, 1e-5)", func() (Interval, error) { return SGMEpsilon([]Phase{{0.01, 5000, 10}}, 1e-5) }),
		slow("Epsilon(SGM 0.01, 1, 1e9)", func() (Interval, error) { return Epsilon(ctx, sgm(0.01, 1, 1e9), 1e-5) }),
		slow("LaplaceDelta(1, 1e6, 1)", func() (Interval, error) { return LaplaceDelta(1, 1e6, 1) }),
		mid("Delta(SGM 0.01, 1, 1000, 700)", func() (Interval, error) { return Delta(ctx, sgm(0.01, 1, 1000), 700) }),
		mid("Delta(SGM 0.01, 1, 1000, MaxFloat)", func() (Interval, error) { return Delta(ctx, sgm(0.01, 1, 1000), math.MaxFloat64) }),
		fast("Epsilon(SGM 0.01, 1, 1000, 1)", func() (Interval, error) { return Epsilon(ctx, sgm(0.01, 1, 1000), 1) }),
		fast("Epsilon(SGM 0.01, 1, 1000, 0.999)", func() (Interval, error) { return Epsilon(ctx, sgm(0.01, 1, 1000), 0.999) }),
		fast("Epsilon(SGM 0.01, 1, 1000, 1e-300)", func() (Interval, error) { return Epsilon(ctx, sgm(0.01, 1, 1000), 1e-300) }),
		slow("Epsilon(SGM 0.01, 1, 2^40)", func() (Interval, error) { return Epsilon(ctx, sgm(0.01, 1, 1<<40), 1e-5) }),
		slow("Epsilon(EpsDelta x 2^40)", func() (Interval, error) {
			return Epsilon(ctx, Composition{Terms: []Term{{EpsilonDelta{1e-6, 0}, 1 << 40}}}, 1e-5)
		}),
	}
	runSlow := !testtier.Sampled(t, "the rows of 2^40 and 1e9 steps, 30 to 60 s each")
	runMid := !testtier.Short(t, "the rows of 1e5 and 1e6 steps, delta 1e-300, eps 700 and MaxFloat64, 1 to 2 s each")
	for _, c := range calls {
		if c.slow && !runSlow || c.mid && !runMid {
			continue
		}
		t0 := time.Now()
		iv, err := c.f()
		d := time.Since(t0)
		typed := err == nil || errors.Is(err, ErrInput) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrPrecision) || errors.Is(err, ErrUnsupported)
		t.Logf("%-40s %v %v (%.2fs)", c.name, iv, err, d.Seconds())
		if !typed || math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || iv.Lo > iv.Hi {
			t.Errorf("%s = %v, %v: want a value or a typed error", c.name, iv, err)
		}
	}
}

// TestDeltaDominatedDirection: the direction whose delta is the smaller
// is not refined past the point where it cannot change the answer, and
// its missing the width is not the answer's error. Before, this run
// (effective sigma 1/sqrt 2, the Poisson-sampled pair of Gaussians of
// dpevent) spent 79 s and returned "width not reached within
// Options.MaxGrid" with an interval 8.8e-6 wide.
func TestDeltaDominatedDirection(t *testing.T) {
	c := Composition{Relation: AddOrRemoveOne, Terms: []Term{{SampledGaussian{Q: 0.1, Sigma: 0.7071067811865476}, 10}}}
	iv, err := Delta(context.Background(), c, 1)
	if err != nil || iv.RelWidth() > 1e-3 {
		t.Fatalf("Delta = %v, %v; want width <= 1e-3 and no error", iv, err)
	}
}

// TestEpsilonHeavyTopAtom: randomized response puts more than delta on
// its largest loss, so the Chernoff estimate has no interior minimum;
// the tilt it chose (256) left the losses where eps lies under the
// transform's error, and Epsilon ran until its budget with the lower end
// at 0. The interval must now reach the width and agree with Delta's.
func TestEpsilonHeavyTopAtom(t *testing.T) {
	ctx := context.Background()
	c := Composition{Relation: ReplaceSpecial, Terms: []Term{{RandomizedResponse{0.5, 4}, 1}, {Laplace{2}, 1}}}
	const delta = 0.15
	iv, err := Epsilon(ctx, c, delta)
	if err != nil || iv.RelWidth() > 1e-3 {
		t.Fatalf("Epsilon(%g) = %v, %v; want width <= 1e-3 and no error", delta, iv, err)
	}
	lo, err1 := Delta(ctx, c, iv.Lo)
	hi, err2 := Delta(ctx, c, iv.Hi)
	if err1 != nil || err2 != nil || !(lo.Hi >= delta && hi.Lo <= delta) {
		t.Errorf("Delta at eps's ends: %v, %v (%v, %v); want the first to reach %g and the second to allow it", lo, hi, err1, err2, delta)
	}
}

// A Gaussian of noise below 0.45 beside another event is composed as a
// sampled Gaussian at q = 1, whose loss at the lower cut, log1p(expm1(y))
// with y < -37, was -Inf: the grid was sized from it and the call
// panicked (makeslice). The answer is held between two exact bounds:
// composing with Laplace(b) moves delta(eps) between the Gaussian's own
// delta at eps (dropping the Laplace output is post-processing) and at
// eps - 1/b (the Laplace step is 1/b-DP).
func TestSmallSigmaGaussianBesideAnEvent(t *testing.T) {
	const b = 1
	for _, sigma := range []float64{0.3, 0.2} {
		c := Composition{Terms: []Term{{Laplace{b}, 1}, {Gaussian{sigma}, 1}}}
		for _, eps := range []float64{0, 2} {
			got, err := Delta(context.Background(), c, eps, Options{H: 0x1p-8})
			lo, hi := gaussDelta64(sigma, 1, eps), gaussDelta64(sigma, 1, eps-1.0/b)
			if err != nil || !(got.Hi >= lo*(1-1e-9) && got.Lo <= hi*(1+1e-9)) {
				t.Errorf("Laplace(%g) + Gaussian(%g): Delta(%g) = %v, %v; want within [%.10g, %.10g]", float64(b), sigma, eps, got, err, lo, hi)
			}
		}
	}
}

// An upper end is a bound: the sampled Gaussian's loss is unbounded, so
// its delta is positive at every finite eps, and at eps = 1e300 the sum
// that bounds it underflows. It returned [0, 0], a claim that delta is 0;
// the upper end is now the least positive float64. Beyond a loss bound
// delta is exactly 0 and stays [0, 0].
func TestDeltaUpperEndNeverUnderflowsToZero(t *testing.T) {
	ctx := context.Background()
	sgm := Composition{Terms: []Term{{SampledGaussian{0.01, 1}, 100}}}
	got, err := Delta(ctx, sgm, 1e300)
	if err != nil || got.Lo != 0 || !(got.Hi > 0) {
		t.Errorf("Delta(SGM, 1e300) = %v, %v; want [0, h] with h > 0", got, err)
	}
	lap := Composition{Terms: []Term{{Laplace{1}, 3}}}
	if got, err := Delta(ctx, lap, 40); err != nil || got != (Interval{0, 0}) {
		t.Errorf("Delta(3 x Laplace(1), 40) = %v, %v; want [0, 0] (the losses are at most 3)", got, err)
	}
}

// Delta stops refining when the mass beyond the grid's cuts is the whole
// upper end: 100 DP-SGD steps at eps = 100 refined nine grids (67 s) to
// the same [0, 1.3e-100]. The error says why, with the interval.
func TestDeltaStopsWhenTheCutsHoldTheUpperEnd(t *testing.T) {
	c := Composition{Terms: []Term{{SampledGaussian{0.01, 1}, 1000}}}
	var grids int
	got, err := Delta(context.Background(), c, 100, Options{Progress: func(string) { grids++ }})
	if !errors.Is(err, ErrPrecision) || !strings.Contains(err.Error(), "beyond the grid's cuts") || got.Lo != 0 || !(got.Hi > 0 && got.Hi < 1e-90) {
		t.Errorf("Delta(100) = %v, %v; want [0, about 1e-100] and the cuts named", got, err)
	}
	if grids > 2 {
		t.Errorf("Delta(100) composed %d grids; the first two show the cuts hold the upper end", grids)
	}
}
