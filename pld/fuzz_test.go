package pld

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// FuzzEntryPoints: Delta and Epsilon on one term of any event kind, under
// any relation, with parameters and a query drawn across the whole float
// range: a value or a typed error (ErrInput, ErrUnsupported, ErrTooLarge,
// ErrPrecision, or the context's deadline), never a panic or NaN, and an
// interval with 0 <= Lo <= Hi (Hi <= 1 for delta). A small grid budget
// and a deadline keep each input to a few seconds.
func FuzzEntryPoints(f *testing.F) {
	f.Add(uint8(1), 0.01, 1.1, int64(1000), 1e-5, false)   // DP-SGD
	f.Add(uint8(0), 0.83, 0.0, int64(1), 3e9, true)        // GaussianDelta at a huge eps (panicked)
	f.Add(uint8(1), 1.0, 0.3, int64(1000000), 1e-5, false) // q = 1, sigma 0.3 (grid before the size check)
	f.Add(uint8(1), 0.01, 1.0, int64(100), math.Inf(-1), true)
	f.Add(uint8(4), 0.6, 2.0, int64(10000000), 1e-5, false) // randomized response's false "no eps"
	f.Add(uint8(2), 1.0, 0.0, int64(1000), 1.0, true)       // Laplace, a thousand steps
	f.Add(uint8(3), 0.2, 0.7, int64(5), 1e-300, false)
	f.Add(uint8(6), 0.5, 1.0, int64(30), 1e-6, false)
	f.Fuzz(func(t *testing.T, kind uint8, a, b float64, count int64, x float64, delta bool) {
		c := Composition{
			Relation: relationOf(kind),
			Terms:    []Term{{fuzzEvent(kind, a, b), count}},
		}
		checkEntryPoint(t, c, x, delta)
	})
}

// FuzzCompositions: Delta and Epsilon on two terms of any two event
// kinds, as FuzzEntryPoints on one: heterogeneous runs take paths one
// kind does not (a Gaussian folded into a sampled one at q = 1, a
// discrete step mixed into the rest's profile). A Gaussian of noise 0.2
// beside a Laplace step panicked before the second seed was added.
func FuzzCompositions(f *testing.F) {
	f.Add(uint8(1), uint8(4), 0.01, 1.1, 0.5, 4.0, int64(100), int64(1), 1e-5, false)  // DP-SGD and randomized response
	f.Add(uint8(2), uint8(0), 1.0, 0.0, 0.2, 0.0, int64(1), int64(1), 0.0, true)       // Laplace and Gaussian(0.2) (panicked)
	f.Add(uint8(15), uint8(10), 0.3, 1e-6, 2.0, 0.0, int64(1), int64(20), 1e-5, false) // (eps, delta) and Gaussians, REPLACE_ONE
	f.Add(uint8(6), uint8(3), 1.0, 1.0, 0.1, 1.0, int64(5), int64(10), 1.0, true)      // discrete and sampled Laplace
	f.Fuzz(func(t *testing.T, k1, k2 uint8, a1, b1, a2, b2 float64, n1, n2 int64, x float64, delta bool) {
		c := Composition{
			Relation: relationOf(k1),
			Terms:    []Term{{fuzzEvent(k1, a1, b1), n1}, {fuzzEvent(k2, a2, b2), n2}},
		}
		checkEntryPoint(t, c, x, delta)
	})
}

// fuzzEvents is the number of kinds fuzzEvent draws from.
const fuzzEvents = 10

// fuzzEvent is event kind k%fuzzEvents with parameters a and b.
func fuzzEvent(k uint8, a, b float64) Event {
	n := int(math.Min(math.Abs(b), 1e6))
	return []Event{
		Gaussian{a}, SampledGaussian{a, b}, Laplace{a}, SampledLaplace{a, b},
		RandomizedResponse{a, n}, EpsilonDelta{a, b}, DiscreteLaplace{a, n},
		ExponentialMechanism{a}, PermuteAndFlip{a}, NonPrivate{},
	}[int(k)%fuzzEvents]
}

func relationOf(k uint8) Relation {
	return []Relation{AddOrRemoveOne, ReplaceOne, ReplaceSpecial}[int(k)/fuzzEvents%3]
}

// checkEntryPoint asks c for delta(x) or eps(x) under a small grid budget
// and a deadline: a value or a typed error (ErrInput, ErrUnsupported,
// ErrTooLarge, ErrPrecision, or the deadline), never a panic or NaN, and
// 0 <= Lo <= Hi (Hi <= 1 for delta).
func checkEntryPoint(t *testing.T, c Composition, x float64, delta bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o := Options{MaxGrid: 1 << 14}
	var iv Interval
	var err error
	if delta {
		iv, err = Delta(ctx, c, x, o)
	} else {
		iv, err = Epsilon(ctx, c, x, o)
	}
	typed := err == nil || errors.Is(err, ErrInput) || errors.Is(err, ErrUnsupported) ||
		errors.Is(err, ErrTooLarge) || errors.Is(err, ErrPrecision) || errors.Is(err, context.DeadlineExceeded)
	if !typed {
		t.Fatalf("%v at %g: untyped error %v", c, x, err)
	}
	if err != nil && !errors.Is(err, ErrPrecision) && !errors.Is(err, context.DeadlineExceeded) {
		return
	}
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || iv.Lo < 0 || iv.Lo > iv.Hi || (delta && iv.Hi > 1) {
		t.Fatalf("%v at %g: %v, %v", c, x, iv, err)
	}
}
