package search

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck"
	"pgregory.net/rapid"
)

// Sigma's promise for any non-increasing epsOf: the sigma returned was
// evaluated and meets the target, and one tol below it does not (the
// least sigma to tol), whatever the shape: power laws with a kink (as a
// minimum over orders gives), +Inf below a threshold, flat steps.
func TestSigmaFindsLeastSigma(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := math.Exp(rapid.Float64Range(-10, 10).Draw(t, "log k"))
		p1 := rapid.Float64Range(0.05, 3).Draw(t, "p1")
		p2 := rapid.Float64Range(0.05, 3).Draw(t, "p2")
		kink := math.Exp(rapid.Float64Range(math.Log(0.01), math.Log(1e4)).Draw(t, "log kink"))
		infBelow := rapid.SampledFrom([]float64{0, 0.02, 0.5, 3}).Draw(t, "inf below")
		step := rapid.Bool().Draw(t, "steps")
		tol := rapid.SampledFrom([]float64{1e-12, 1e-9, 1e-6, 1e-3, 0.5}).Draw(t, "tol")
		f := func(s float64) float64 {
			if s < infBelow {
				return math.Inf(1)
			}
			if step {
				s = math.Exp(math.Floor(math.Log(s) * 4)) // flat on steps of e^(1/4)
			}
			if s < kink {
				return k * math.Pow(s/kink, -p1)
			}
			return k * math.Pow(s/kink, -p2)
		}
		eps := math.Exp(rapid.Float64Range(math.Log(f(1e4))-1, math.Log(f(0.01*(1+1e-9)))+1).Draw(t, "log eps"))
		seen := map[float64]float64{}
		sigma, achieved, err := Sigma("test", eps, tol, func(s float64) (float64, error) {
			if !(s >= calMinSigma && s <= calMaxSigma) {
				t.Fatalf("evaluated at %v, outside the bracket", s)
			}
			seen[s] = f(s)
			return f(s), nil
		})
		switch {
		case f(calMinSigma) <= eps:
			if !errors.Is(err, rdpcheck.ErrNotConverged) || !strings.Contains(err.Error(), "met already") {
				t.Fatalf("eps(0.01) = %v meets %v: got %v, %v, %v", f(calMinSigma), eps, sigma, achieved, err)
			}
		case f(calMaxSigma) > eps:
			if !errors.Is(err, rdpcheck.ErrNotConverged) || !strings.Contains(err.Error(), "no sigma up to") {
				t.Fatalf("eps(10^4) = %v misses %v: got %v, %v, %v", f(calMaxSigma), eps, sigma, achieved, err)
			}
		default:
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := seen[sigma]; !ok || e != achieved || !(achieved <= eps) {
				t.Fatalf("sigma %v: achieved %v (evaluated %v, %v), target %v", sigma, achieved, e, ok, eps)
			}
			if below := sigma / (1 + tol); below > calMinSigma && f(below) <= eps {
				t.Fatalf("sigma %v is not the least to tol %v: %v meets %v too", sigma, tol, below, eps)
			}
		}
	})
}

// On a power law (eps of the SGM goes nearly so) the interpolation
// converges in a few evaluations where bisection took 26 at tol 1e-6,
// and the ends are not evaluated: an SGM at sigma = 0.01 costs more than
// all the rest.
func TestSigmaEvaluations(t *testing.T) {
	for _, c := range []struct{ k, p, eps float64 }{{1, 1, 3}, {1, 2, 0.01}, {30, 0.5, 2}, {1, 1, 99.9}} {
		var at []float64
		_, _, err := Sigma("test", c.eps, 1e-6, func(s float64) (float64, error) {
			at = append(at, s)
			return c.k * math.Pow(s, -c.p), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(at) > 12 {
			t.Errorf("eps = %g sigma^-%g to %g: %d evaluations, want at most 12: %v", c.k, c.p, c.eps, len(at), at)
		}
		for _, s := range at {
			if s == calMinSigma && c.k*math.Pow(0.04, -c.p) > c.eps {
				t.Errorf("eps = %g sigma^-%g to %g: evaluated sigma = 0.01, with the root above 0.04", c.k, c.p, c.eps)
			}
		}
	}
}
