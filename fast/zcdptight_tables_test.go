package fast_test

// The tables of docs/bounds.md and docs/group-privacy.md, generated here:
//
//	go test ./fast -run 'TestBoundComparisonTable|TestGroupPrivacyTable' -v
//
// prints them as markdown. Each test also asserts the relations those pages
// state, so a change that breaks them fails.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// ck turns (value, error) into the value, failing the test on an error.
type ck struct{ t *testing.T }

func (c ck) v(v float64, err error) float64 {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
	return v
}

func printTable(t *testing.T, s string) {
	if testing.Verbose() {
		fmt.Print(s)
	}
}

// TestBoundComparisonTable: for an eps-bounded-range mechanism (the
// exponential mechanism), dp_accounting's bound min(K + (alpha-1) eps^2/8,
// eps) (K = BoundedRangeZCDP(eps), the largest KL divergence), the HM25
// tight zCDP line K alpha and the tight pure-DP curve (an eps-BR mechanism
// is eps-DP); for Laplace and binary randomized response at eps-DP their
// exact RDP beside their HM25 zCDP lines.
//
// Asserted: K alpha <= K + (alpha-1) eps^2/8 at every order (K <= eps^2/8),
// so the HM25 line never loses to dp_accounting's bound below its cap eps;
// each zCDP line is at or above the exact RDP it replaces.
func TestBoundComparisonTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| eps | alpha | BR bound (dp_accounting) | HM25 BR line | pure-DP curve | best for EM | Laplace exact | Laplace line | RR exact | RR line |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, eps := range []float64{0.1, 1, 3, 10} {
		for _, a := range []float64{1.5, 2, 8, 32, 128} {
			em := ck{t}.v(fast.ExponentialMechanism(eps, a))
			k := ck{t}.v(fast.BoundedRangeZCDP(eps))
			brLine := k * a
			pure := ck{t}.v(fast.PureDP(eps, a))
			lapExact := ck{t}.v(fast.Laplace(1/eps, a))
			lapLine := ck{t}.v(fast.LaplaceZCDP(eps)) * a
			rrLine := ck{t}.v(fast.KaryRRZCDP(eps, 2)) * a
			// K alpha <= K + (alpha-1) eps^2/8, up to the roundings of both
			if brLine > (k+(a-1)*eps*eps/8)*(1+1e-14) {
				t.Errorf("eps=%g alpha=%g: HM25 line %g above dp_accounting's uncapped bound", eps, a, brLine)
			}
			if lapLine < lapExact*(1-1e-14) || rrLine < pure*(1-1e-14) {
				t.Errorf("eps=%g alpha=%g: a zCDP line below the exact RDP (Laplace %g < %g or RR %g < %g)", eps, a, lapLine, lapExact, rrLine, pure)
			}
			best := "BR bound"
			switch m := math.Min(em, math.Min(brLine, pure)); m {
			case brLine:
				best = "HM25 line"
			case pure:
				best = "pure-DP curve"
			}
			if em == eps && math.Min(brLine, pure) >= eps {
				best = "eps (cap)"
			}
			fmt.Fprintf(&b, "| %g | %g | %.4g | %.4g | %.4g | %s | %.4g | %.4g | %.4g | %.4g |\n", eps, a, em, brLine, pure, best, lapExact, lapLine, pure, rrLine)
		}
	}
	printTable(t, b.String())
}

// groupEpsilonRDP is route A: the RDP curve of groups of 2^c records by
// Mironov 2017 Prop 2 (3^c rdp(2^c alpha), alpha >= 2 for c > 0), then
// converted at delta.
func groupEpsilonRDP(t *testing.T, orders, rdp []float64, c int, delta float64) float64 {
	var o, r []float64
	for _, a := range orders {
		if (c > 0 && a < 2) || (!math.IsInf(a, 1) && math.Ldexp(a, c) > orders[len(orders)-1]) {
			continue
		}
		v, err := fast.GroupPrivacy(orders, rdp, c, a)
		if err != nil {
			t.Fatal(err)
		}
		o, r = append(o, a), append(r, v)
	}
	eps, _, err := fast.Epsilon(o, r, delta, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	return eps
}

// groupEpsilonDP is route B: convert the single-record curve to (eps1,
// delta1), then the (eps, delta) group lemma for k records: (k eps1, k
// e^((k-1) eps1) delta1). delta1 is found by bisection on log delta1 so
// that the group's delta is delta (it increases with delta1).
func groupEpsilonDP(t *testing.T, orders, rdp []float64, k int, delta float64) float64 {
	eps1 := func(ld float64) float64 {
		e, _, err := fast.Epsilon(orders, rdp, math.Exp(ld), fast.Improved)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	logGroupDelta := func(ld float64) float64 {
		return math.Log(float64(k)) + float64(k-1)*eps1(ld) + ld
	}
	lo, hi := -700.0, math.Log(delta)
	for range 100 {
		mid := (lo + hi) / 2
		if logGroupDelta(mid) > math.Log(delta) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return float64(k) * eps1(lo) // lo: the group's delta is at most delta
}

// TestGroupPrivacyTable compares, for groups of k = 2, 4, 8 records at
// delta = 1e-5 (improved conversion), route A (group privacy in RDP, then
// convert) with route B ((eps, delta) first, then the group lemma), for
// the Gaussian mechanism (sigma = 5, one release; the truth is the
// Gaussian at sensitivity k, k^2 alpha/(2 sigma^2)) and DP-SGD (q = 0.01,
// sigma = 1.1, 10000 steps).
//
// Asserted: for the Gaussian, both routes are at or above the truth.
func TestGroupPrivacyTable(t *testing.T) {
	orders := fast.DefaultOrders()
	const delta = 1e-5
	var b strings.Builder
	b.WriteString("| setting | k | single record eps | A: RDP group (Mironov Prop. 2) | B: (eps, delta) group lemma | truth (Gaussian at sensitivity k) |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	type setting struct {
		name  string
		curve func(scale float64) []float64 // scale^2 multiplies the Gaussian's rdp (sensitivity scale)
	}
	gauss := func(sigma float64) func(float64) []float64 {
		return func(s float64) []float64 {
			r := make([]float64, len(orders))
			for i, a := range orders {
				r[i] = ck{t}.v(fast.Gaussian(sigma/s, a))
			}
			return r
		}
	}
	sgm := func(q, sigma float64, steps int) func(float64) []float64 {
		return func(float64) []float64 {
			r := make([]float64, len(orders))
			if err := fast.SGMCurve(q, sigma, steps, orders, r); err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	for _, s := range []setting{{"Gaussian sigma=5", gauss(5)}, {"DP-SGD q=0.01 sigma=1.1 T=10000", sgm(0.01, 1.1, 10000)}} {
		rdp1 := s.curve(1)
		single, _, err := fast.Epsilon(orders, rdp1, delta, fast.Improved)
		if err != nil {
			t.Fatal(err)
		}
		for c, k := range []int{2, 4, 8} {
			a := groupEpsilonRDP(t, orders, rdp1, c+1, delta)
			bb := groupEpsilonDP(t, orders, rdp1, k, delta)
			truth := "-"
			if strings.HasPrefix(s.name, "Gaussian") {
				tv, _, err := fast.Epsilon(orders, s.curve(float64(k)), delta, fast.Improved)
				if err != nil {
					t.Fatal(err)
				}
				if a < tv*(1-1e-12) || bb < tv*(1-1e-12) {
					t.Errorf("%s k=%d: a route below the truth (A %g, B %g, truth %g)", s.name, k, a, bb, tv)
				}
				truth = fmt.Sprintf("%.4g", tv)
			}
			fmt.Fprintf(&b, "| %s | %d | %.4g | %.4g | %.4g | %s |\n", s.name, k, single, a, bb, truth)
		}
	}
	printTable(t, b.String())
}
