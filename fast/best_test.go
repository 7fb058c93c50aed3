package fast

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
	"github.com/rdpcheck/rdpcheck/internal/search"
	"github.com/rdpcheck/rdpcheck/reference"
)

// gaussComposed is k Gaussian mechanisms (noise multiplier sigma) as one
// order function, for the closed forms below.
func gaussComposed(t testing.TB, sigma float64, k int) *Accountant {
	var a Accountant
	if err := a.Compose(GaussianEvent(sigma), k); err != nil {
		t.Fatal(err)
	}
	return &a
}

// TestBestEpsilonGaussianClosedForm: k Gaussians with the classic
// conversion have eps(alpha) = k alpha/(2 sigma^2) + log(1/delta)/(alpha-1),
// minimised at alpha* = 1 + sqrt(2 sigma^2 log(1/delta)/k) with value
// eps* = k/(2 sigma^2) + 2 sqrt(k log(1/delta)/(2 sigma^2)) (calculus).
// The settings put alpha* between grid orders (11.47, 96.97, 2500), where
// the grid's eps is strictly larger.
func TestBestEpsilonGaussianClosedForm(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		k     int
	}{{10, 21}, {100, 25}, {1000, 4}} {
		const delta = 1e-5
		L := -math.Log(delta)
		s2 := 2 * c.sigma * c.sigma
		k := float64(c.k)
		wantOrder := 1 + math.Sqrt(s2*L/k)
		want := k/s2 + 2*math.Sqrt(k*L/s2)
		a := gaussComposed(t, c.sigma, c.k)
		grid, _, err := a.Epsilon(delta, Classic)
		if err != nil {
			t.Fatal(err)
		}
		got, order, err := a.BestEpsilon(delta, Classic)
		if err != nil {
			t.Fatal(err)
		}
		// the float64 closed form is within a few ulps; the search's eps is
		// within (searchTol)^2 relative of the minimum
		if rel := (got - want) / want; rel < -1e-14 || rel > 1e-8 {
			t.Errorf("sigma=%g k=%d: best eps %.17g, closed form %.17g (rel %.2g)", c.sigma, c.k, got, want, rel)
		}
		if math.Abs(order-wantOrder) > 1e-2*wantOrder { // eps is flat there: the order is loosely determined
			t.Errorf("sigma=%g k=%d: order %.10g, closed form %.10g", c.sigma, c.k, order, wantOrder)
		}
		if !(got < grid) {
			t.Errorf("sigma=%g k=%d: best eps %.17g not below the grid's %.17g", c.sigma, c.k, got, grid)
		}
	}
}

// TestBestDeltaGaussianClosedForm: k Gaussians, classic conversion:
// log delta(alpha) = (alpha-1)(k alpha/(2 sigma^2) - eps), minimised at
// alpha* = (2 sigma^2 eps/k + 1)/2 (calculus).
func TestBestDeltaGaussianClosedForm(t *testing.T) {
	const sigma, k, eps = 20.0, 30, 3.0
	s2 := 2 * sigma * sigma
	as := (s2*eps/k + 1) / 2
	want := math.Exp((as - 1) * (k*as/s2 - eps))
	a := gaussComposed(t, sigma, k)
	got, order, err := a.BestDelta(eps, Classic)
	if err != nil {
		t.Fatal(err)
	}
	if rel := (got - want) / want; rel < -1e-13 || rel > 1e-8 {
		t.Errorf("best delta %.17g, closed form %.17g (rel %.2g) at order %g (closed form %g)", got, want, rel, order, as)
	}
	grid, _, _ := a.Delta(eps, Classic)
	if !(got < grid) {
		t.Errorf("best delta %g not below the grid's %g", got, grid)
	}
}

// TestBestSearchRange: the search evaluates only orders in
// (1, MaxSearchOrder] and +Inf, and at most its batches beyond the grid.
func TestBestSearchRange(t *testing.T) {
	for _, sigma := range []float64{0.5, 3, 1e4} {
		var seen []float64
		f := func(a float64) (float64, error) {
			seen = append(seen, a)
			return SGM(0.01, sigma, a)
		}
		e := OrderFunc(func(a float64) (float64, error) {
			v, err := f(a)
			return errfloat.ScaleUp(v, 1000), err
		})
		if _, _, err := BestEpsilon(e, nil, 1e-5, Improved); err != nil {
			t.Fatal(err)
		}
		extra := len(seen) - len(defaultOrders)
		if max := 1 + 10 + search.Rounds*search.Points; extra > max {
			t.Errorf("sigma=%g: %d evaluations beyond the grid, at most %d allowed", sigma, extra, max)
		}
		for _, a := range seen {
			if !(a > 1 && a <= MaxSearchOrder) && !math.IsInf(a, 1) {
				t.Errorf("sigma=%g: evaluated order %g outside (1, %d] and +Inf", sigma, a, MaxSearchOrder)
			}
		}
	}
}

// TestBestAfterComposeName: ComposeSGM remembers its event (it
// used to keep only the curve, and BestEpsilon refused), so RDPAt and
// BestEpsilon give what they give after Compose(SGMEvent); a repeated
// event is merged into one remembered entry, whose value off the grid is
// at most the sum of the parts; and Compose refuses what it must.
func TestBestAfterComposeName(t *testing.T) {
	var a, e Accountant
	if err := a.ComposeSGM(0.01, 1.1, 100); err != nil {
		t.Fatal(err)
	}
	if err := e.Compose(SGMEvent(0.01, 1.1), 100); err != nil {
		t.Fatal(err)
	}
	ga, oa, err := a.BestEpsilon(1e-5, Improved)
	ge, oe, _ := e.BestEpsilon(1e-5, Improved)
	if err != nil || ga != ge || oa != oe {
		t.Errorf("BestEpsilon after ComposeSGM: %v at %v (%v), after Compose(SGMEvent): %v at %v", ga, oa, err, ge, oe)
	}
	ra, err := a.RDPAt(3.5)
	re, _ := e.RDPAt(3.5)
	if err != nil || ra != re || !(ra > 0) {
		t.Errorf("RDPAt(3.5) after ComposeSGM: %v (%v), after Compose(SGMEvent): %v", ra, err, re)
	}
	// 100 steps one at a time: one remembered entry, Events() counts 100
	var s Accountant
	for range 100 {
		if err := s.ComposeSGM(0.01, 1.1, 1); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.log) != 1 || s.log[0].count != 100 || s.Events() != 100 {
		t.Errorf("100 single steps: %d entries (count %d), %d events; want 1 entry of 100, 100 events", len(s.log), s.log[0].count, s.Events())
	}
	if rs, _ := s.RDPAt(3.5); rs != re {
		t.Errorf("RDPAt(3.5) after 100 single steps: %v, want %v (one entry of count 100)", rs, re)
	}
	var b Accountant
	if err := b.Compose(nil, 1); !errors.Is(err, ErrInput) {
		t.Errorf("Compose(nil): err = %v", err)
	}
	if err := b.Compose(GaussianEvent(1), 0); !errors.Is(err, ErrInput) {
		t.Errorf("Compose count 0: err = %v", err)
	}
	if err := b.Compose(OrderFunc(func(float64) (float64, error) { return -1, nil }), 1); !errors.Is(err, ErrInput) {
		t.Errorf("Compose of a negative RDP: err = %v", err)
	}
	if b.Events() != 0 {
		t.Errorf("failed Compose calls counted: %d events", b.Events())
	}
}

// dpsgdSettings reads the DP-SGD settings of the golden vectors
// (vectors/dpsgd.json, first group: improved conversion).
func dpsgdSettings(t testing.TB) []struct {
	Q, Sigma, Delta float64
	Steps           int
} {
	raw, err := os.ReadFile("../vectors/dpsgd.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TestGroups []struct {
			Tests []struct {
				Q, Sigma, Delta string
				Steps           int
			}
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	var out []struct {
		Q, Sigma, Delta float64
		Steps           int
	}
	for _, tc := range f.TestGroups[0].Tests {
		q, err1 := strconv.ParseFloat(tc.Q, 64)
		s, err2 := strconv.ParseFloat(tc.Sigma, 64)
		d, err3 := strconv.ParseFloat(tc.Delta, 64)
		if err1 != nil || err2 != nil || err3 != nil || tc.Steps <= 0 {
			continue // the invalid-input tests
		}
		out = append(out, struct {
			Q, Sigma, Delta float64
			Steps           int
		}{q, s, d, tc.Steps})
	}
	return out
}

// checkBest composes steps of e (one SGM step with q, sigma) and checks
// the best-order eps: not above the grid's, and not below the reference's
// eps at the order it returns (reference.SGM at 64 bits, times steps,
// converted by reference.Epsilon at that one order).
func checkBest(e Event, q, sigma float64, steps int, delta float64) error {
	var a Accountant
	if err := a.Compose(e, steps); err != nil {
		return err
	}
	grid, _, err := a.Epsilon(delta, Improved)
	if err != nil {
		return err
	}
	best, order, err := a.BestEpsilon(delta, Improved)
	if err != nil {
		return err
	}
	if best > grid {
		return fmt.Errorf("best eps %.17g above the grid's %.17g", best, grid)
	}
	ctx := reference.Context{Prec: 64}
	r, err := ctx.SGM(q, sigma, order)
	if err != nil {
		return err
	}
	r.Mul(r, new(big.Float).SetInt64(int64(steps)))
	ref, _, err := ctx.Epsilon([]float64{order}, []*big.Float{r}, delta, Improved)
	if err != nil {
		return err
	}
	if ref.Cmp(big.NewFloat(best)) > 0 {
		return fmt.Errorf("best eps %.17g at order %g below the reference's %s", best, order, ref.Text('g', 20))
	}
	return nil
}

// TestBestEpsilonDPSGD: over the DP-SGD vector settings (-short: three of
// them), checkBest holds.
func TestBestEpsilonDPSGD(t *testing.T) {
	settings := dpsgdSettings(t)
	if testing.Short() {
		settings = append(settings[:1], settings[len(settings)/2], settings[len(settings)-1])
	}
	for _, s := range settings {
		if err := checkBest(SGMEvent(s.Q, s.Sigma), s.Q, s.Sigma, s.Steps, s.Delta); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

// TestBestCatchesMutant: checkBest fails for an event that is an upper
// bound on dp_accounting's grid but 1e-9 relative too low elsewhere (a
// search that trusted an unsafe evaluation off the grid).
func TestBestCatchesMutant(t *testing.T) {
	const q, sigma, steps, delta = 256.0 / 60000, 1.1, 14063, 1e-5
	mutant := CurveFunc(func(orders, out []float64) error {
		if err := SGMCurve(q, sigma, 1, orders, out); err != nil {
			return err
		}
		for i, a := range orders {
			if !slices.Contains(defaultOrders, a) {
				out[i] *= 1 - 1e-9
			}
		}
		return nil
	})
	if err := checkBest(SGMEvent(q, sigma), q, sigma, steps, delta); err != nil {
		t.Fatalf("the right event fails: %v", err)
	}
	if err := checkBest(mutant, q, sigma, steps, delta); err == nil {
		t.Error("checkBest passed an event 1e-9 too low off the grid")
	}
}

// BenchmarkBestEpsilonDPSGD compares the best order with the grid alone
// for the TF Privacy MNIST tutorial's DP-SGD run (q = 256/60000,
// sigma = 1.1, 14063 steps, delta = 1e-5): composing the event on the
// 156 default orders and converting, then the same plus the search.
func BenchmarkBestEpsilonDPSGD(b *testing.B) {
	const q, sigma, steps, delta = 256.0 / 60000, 1.1, 14063, 1e-5
	for _, best := range []bool{false, true} {
		name := "grid"
		if best {
			name = "best"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var a Accountant
				if err := a.Compose(SGMEvent(q, sigma), steps); err != nil {
					b.Fatal(err)
				}
				var err error
				if best {
					_, _, err = a.BestEpsilon(delta, Improved)
				} else {
					_, _, err = a.Epsilon(delta, Improved)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// opacusOrders is Opacus's RDPAccountant.DEFAULT_ALPHAS
// (opacus/accountants/rdp.py of pytorch/opacus): 1.1 to 10.9 by 0.1, then
// 12 to 63.
func opacusOrders() []float64 {
	var o []float64
	for x := 1; x < 100; x++ {
		o = append(o, 1+float64(x)/10)
	}
	for a := 12; a < 64; a++ {
		o = append(o, float64(a))
	}
	return o
}

// TestBestGainTable: over the DP-SGD vector settings at delta = 1e-5 and
// a high-noise setting where Opacus's largest order (63) binds, the
// best-order eps is at most that of both grids. With -v it prints the
// table of docs/best-order.md (go test ./fast -run TestBestGainTable -v).
func TestBestGainTable(t *testing.T) {
	type setting struct {
		Q, Sigma, Delta float64
		Steps           int
	}
	var rows []setting
	for _, s := range dpsgdSettings(t) {
		if s.Delta == 1e-5 {
			rows = append(rows, setting(s))
		}
	}
	rows = append(rows, setting{0.01, 20, 1e-5, 10000}, setting{0.001, 50, 1e-5, 10000})
	t.Log("| q | sigma | steps | eps, dp_accounting's 156 orders | eps, Opacus's 151 orders | eps, best order (order) | best / dp_accounting | best / Opacus |")
	t.Log("|---|---|---|---|---|---|---|---|")
	for _, s := range rows {
		var a Accountant
		if err := a.Compose(SGMEvent(s.Q, s.Sigma), s.Steps); err != nil {
			t.Fatal(err)
		}
		dp, _, err := a.Epsilon(s.Delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		// Opacus's grid: the accountant evaluated there (its own orders
		// are dp_accounting's)
		curve := make([]float64, len(opacusOrders()))
		if err := a.RDP(opacusOrders(), curve); err != nil {
			t.Fatal(err)
		}
		op, _, err := Epsilon(opacusOrders(), curve, s.Delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		best, order, err := a.BestEpsilon(s.Delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		if best > dp || best > op {
			t.Errorf("%+v: best %g above a grid's (%g, %g)", s, best, dp, op)
		}
		t.Logf("| %g | %g | %d | %.6g | %.6g | %.6g (%.4g) | %.6f | %.6f |", s.Q, s.Sigma, s.Steps, dp, op, best, order, best/dp, best/op)
	}
}

// TestBestOrderVectors: for every test of vectors/dpsgd_best.json (the
// reference's eps at 256 bits at an order the search once returned), fast
// at that order is at or above the expected value and within 1e-12 of it,
// and the search today finds an eps no larger (to that accuracy).
func TestBestOrderVectors(t *testing.T) {
	raw, err := os.ReadFile("../vectors/dpsgd_best.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TestGroups []struct {
			Tests []struct {
				TcID                                 int `json:"tcId"`
				QHex, SigmaHex, DeltaHex, Conversion string
				Steps                                int
				OrdersHex                            []string
				Expected                             string
			}
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	hex := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	n, maxRel, sumSq, checked := 0, 0.0, 0.0, 0
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			n++
			if testing.Short() && n%8 != 1 {
				continue
			}
			checked++
			q, sigma, delta, order := hex(tc.QHex), hex(tc.SigmaHex), hex(tc.DeltaHex), hex(tc.OrdersHex[0])
			conv := Improved
			if tc.Conversion == "classic" {
				conv = Classic
			}
			want, _, err := big.ParseFloat(tc.Expected, 10, 256, big.ToNearestEven)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := want.Float64()
			var a Accountant
			if err := a.Compose(SGMEvent(q, sigma), tc.Steps); err != nil {
				t.Fatal(err)
			}
			r, err := a.RDPAt(order)
			if err != nil {
				t.Fatal(err)
			}
			at, _, err := Epsilon([]float64{order}, []float64{r}, delta, conv)
			if err != nil {
				t.Fatal(err)
			}
			rel := (at - w) / w
			maxRel, sumSq = max(maxRel, rel), sumSq+rel*rel
			if big.NewFloat(at).Cmp(want) < 0 || rel > 1e-12 {
				t.Errorf("tcId %d: fast at order %g: %.17g, expected %s", tc.TcID, order, at, tc.Expected)
			}
			best, _, err := a.BestEpsilon(delta, conv)
			if err != nil {
				t.Fatal(err)
			}
			if (best-w)/w > 1e-12 {
				t.Errorf("tcId %d: the search finds %.17g, more than the vector's %s", tc.TcID, best, tc.Expected)
			}
		}
	}
	if n == 0 {
		t.Fatal("no tests read")
	}
	t.Logf("%d tests: fast above the reference by at most %.2g relative (RMS %.2g)", checked, maxRel, math.Sqrt(sumSq/float64(checked)))
}

// TestSearchConstants: the exported constants that document the search
// are the ones its engine (internal/search) uses.
func TestSearchConstants(t *testing.T) {
	if MaxSearchOrder != search.MaxOrder || SearchTolerance != search.Tolerance {
		t.Errorf("MaxSearchOrder, SearchTolerance = %v, %v; the engine searches to %v at %v", MaxSearchOrder, SearchTolerance, search.MaxOrder, search.Tolerance)
	}
}
