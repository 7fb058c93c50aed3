package pld

import (
	"context"
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// Independent check of mix.go: randomized response once beside n
// Gaussian steps, against the sum over the response's outputs y, from
// its definition, of P(y) times the Gaussians' float64 closed form at eps
// minus the response's loss at y (the composition conditioned on y).
// Under REPLACE_ONE the pair is the true bucket x against x', symmetric,
// and the Gaussians' sensitivity is 2 (dp_accounting's convention), so
// their closed form is at sigma/2. Delta and Epsilon (read back through the same sum)
// must hold the truth and reach the width.
func TestMixedAtomsAgainstConditioning(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		noise   float64
		buckets int
		sigma   float64
		n       int
	}{
		{0.5, 4, 3, 3}, {0.2, 2, 1, 1}, {0.9, 10, 4, 5},
	}
	if testtier.Short(t, "the runs after the first") {
		cases = cases[:1]
	}
	for _, c := range cases {
		k := float64(c.buckets)
		pa, pb := 1-c.noise+c.noise/k, c.noise/k
		r := math.Log(pa / pb)
		// outputs: x (P pa, loss r), x' (P pb, loss -r), the k-2 others (loss 0)
		g := func(eps float64) float64 { return gaussDelta64(c.sigma/2, c.n, eps) }
		truth := func(eps float64) float64 {
			return pa*g(eps-r) + pb*g(eps+r) + (k-2)*pb*g(eps)
		}
		comp := Composition{Relation: ReplaceOne, Terms: []Term{
			{RandomizedResponse{Noise: c.noise, Buckets: c.buckets}, 1},
			{Gaussian{c.sigma}, int64(c.n)},
		}}
		if _, _, ok := mustPlan(t, comp).splitMixed(0); !ok {
			t.Fatalf("%v: the response is not mixed in", comp)
		}
		for _, eps := range []float64{0, 0.5, 2} {
			want := truth(eps)
			got, err := Delta(ctx, comp, eps)
			if err != nil || !contains(got, want, 1e-9, 1e-15) || got.RelWidth() > 1e-3 {
				t.Errorf("%v: Delta(%g) = %v, %v; want %.12g (conditioned on the response), width <= 1e-3", comp, eps, got, err, want)
			}
		}
		const delta = 1e-5
		got, err := Epsilon(ctx, comp, delta)
		if err != nil || got.RelWidth() > 1e-3 {
			t.Errorf("%v: Epsilon(%g) = %v, %v", comp, delta, got, err)
			continue
		}
		if lo, hi := truth(got.Lo), truth(got.Hi); !(lo >= delta*(1-1e-9) && hi <= delta*(1+1e-9)) {
			t.Errorf("%v: Epsilon(%g) = %v, but the truth at its ends is %.12g and %.12g", comp, delta, got, lo, hi)
		}
	}
}

// The mixed atoms narrow the interval at a fixed grid: randomized
// response once beside three Gaussians at h = 2^-10 was 5.1e-4 wide on
// the grid, and is below 1e-5 mixed in. A regression that dropped the
// mixing would still be sound, so the width is what shows it.
func TestMixedAtomsNarrowAFixedGrid(t *testing.T) {
	comp := Composition{Relation: ReplaceSpecial, Terms: []Term{{RandomizedResponse{Noise: 0.5, Buckets: 4}, 1}, {Gaussian{3}, 3}}}
	got, err := Delta(context.Background(), comp, 1, Options{H: 0x1p-10})
	if err != nil || got.RelWidth() > 1e-5 {
		t.Errorf("Delta(1) at h = 2^-10 = %v (width %.2g), %v; want width <= 1e-5", got, got.RelWidth(), err)
	}
}

func mustPlan(t *testing.T, c Composition) *plan {
	t.Helper()
	p, err := makePlan("test", c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
