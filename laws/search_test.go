package laws

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/testtier"
)

// The law of fast's best-order search: it is never above an independent
// dense scan of the orders by more than fast.SearchTolerance. It lives
// here, not in fast, so that its 70 s run in a test binary of their own.

// integerOrders: above this order the search evaluates integers only
// (fast.BestEpsilon's doc), so the scan does too.
const integerOrders = 1024

// denseScanEpsilon is an independent minimum of eps over (1, 2^20] for
// steps steps of the SGM(q, sigma): every order of a geometric scan with
// ratio 1.01 from 1 + 2^-52 (1.02 over the integers above 1024, where
// the search works on integers and an order costs linear time), stopped once steps RDP(alpha) plus the least conversion
// term beyond alpha exceeds the minimum so far (RDP is non-decreasing in
// the order), then a second scan of 80 orders over the 5% around the
// first scan's best. It shares with the search only fast.SGMCurve and the
// conversion at one order.
func denseScanEpsilon(t *testing.T, q, sigma float64, steps int, delta float64, conv fast.Conversion) (eps, order float64) {
	t.Helper()
	eps, order = math.Inf(1), 0
	visit := func(orders []float64) bool {
		rdp := make([]float64, len(orders))
		if err := fast.SGMCurve(q, sigma, steps, orders, rdp); err != nil {
			t.Fatalf("fast.SGMCurve(%g, %g, %d): %v", q, sigma, steps, err)
		}
		for i, a := range orders {
			e, _, err := fast.Epsilon(orders[i:i+1], rdp[i:i+1], delta, conv)
			if err != nil {
				t.Fatal(err)
			}
			if e < eps {
				eps, order = e, a
			}
			// beyond a: eps >= rdp(a) + the least conversion term, which
			// is above -(1 + log a)/(a - 1) (improved) or 0 (classic)
			floor := rdp[i]
			if conv == fast.Improved {
				floor -= (1 + math.Log(a)) / (a - 1)
			}
			if floor > eps {
				return false
			}
		}
		return true
	}
	var orders []float64
	for a := 1 + 0x1p-52; a <= fast.MaxSearchOrder; a = math.Max(a*scanRatio(a), a+0x1p-50) {
		if a > integerOrders {
			a = math.Ceil(a)
		}
		orders = append(orders, a)
	}
	// in chunks, so that the stop rule saves the costly large orders
	for len(orders) > 0 {
		n := min(len(orders), 64)
		if !visit(orders[:n]) {
			break
		}
		orders = orders[n:]
	}
	lo, hi := order/1.025, order*1.025
	var fine []float64
	for j := 0; j <= 80; j++ {
		a := lo + (hi-lo)*float64(j)/80
		if a > integerOrders {
			a = math.Round(a)
		}
		if a > 1 && a <= fast.MaxSearchOrder {
			fine = append(fine, a)
		}
	}
	visit(fine)
	return eps, order
}

// TestBestSearchAgainstDenseScan: over random DP-SGD runs (2,000 in the
// exhaustive tier, the first 400 of them by default, 100 with -short), a
// fifth of them with sigma in [100, 1000], the search's eps is at most the
// dense scan's (denseScanEpsilon) times 1 + fast.SearchTolerance. Runs
// whose best order is above 2^15 cost seconds each (fast's SGM costs
// linear time in an integer order), so at most 3 of them (1 with -short)
// are checked and further ones are drawn again. With -v it prints the
// worst gap.
func TestBestSearchAgainstDenseScan(t *testing.T) {
	runs := 2000
	switch {
	case testtier.Short(t, "the dense scan's random runs after the first 25 of 400"):
		runs = 25
	case testtier.Sampled(t, "the dense scan's random runs after the first 400 of 2,000"):
		runs = 400
	}
	rng := rand.New(rand.NewPCG(20261127, 18))
	logU := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, rng.Float64()) }
	worst, worstRun := math.Inf(-1), ""
	large, maxLarge := 0, 3
	if testing.Short() {
		maxLarge = 1
	}
	for i := 0; i < runs; i++ {
		q, sigma, steps := logU(1e-5, 1), logU(0.3, 100), int(logU(1, 1e6))
		if i%5 == 0 {
			// noisy runs as trained: large batches and many steps
			q, sigma, steps = logU(1e-3, 1), 100+900*rng.Float64(), int(logU(100, 1e6))
		}
		delta := logU(1e-12, 1e-2)
		conv := fast.Improved
		if i%3 == 0 {
			conv = fast.Classic
		}
		var a fast.Accountant
		if err := a.Compose(fast.SGMEvent(q, sigma), steps); err != nil {
			t.Fatal(err)
		}
		got, at, err := a.BestEpsilon(delta, conv)
		if err != nil {
			t.Fatalf("q=%g sigma=%g steps=%d delta=%g: %v", q, sigma, steps, delta, err)
		}
		if at > 1<<15 && !math.IsInf(at, 1) {
			if large == maxLarge {
				i--
				continue
			}
			large++
		}
		want, wantAt := denseScanEpsilon(t, q, sigma, steps, delta, conv)
		gap := (got - want) / want
		if gap > fast.SearchTolerance {
			t.Errorf("q=%g sigma=%g steps=%d delta=%g %v: search %.15g at %g, dense scan %.15g at %g (gap %.2g)",
				q, sigma, steps, delta, conv, got, at, want, wantAt, gap)
		}
		if gap > worst {
			worst = gap
			worstRun = fmtRun(q, sigma, steps, delta, conv, at, wantAt)
		}
	}
	t.Logf("%d runs (%d with the best order above 2^15): worst (search - dense)/dense = %.3g (%s)", runs, large, worst, worstRun)
}

func fmtRun(q, sigma float64, steps int, delta float64, conv fast.Conversion, at, denseAt float64) string {
	return "q=" + ftoa(q) + " sigma=" + ftoa(sigma) + " steps=" + ftoa(float64(steps)) + " delta=" + ftoa(delta) + " " + conv.String() + " search order " + ftoa(at) + ", scan order " + ftoa(denseAt)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// scanRatio is denseScanEpsilon's geometric step at the order a.
func scanRatio(a float64) float64 {
	if a > integerOrders {
		return 1.02
	}
	return 1.01
}

// TestBestSearchRegressions: runs where the search once stopped short of
// the minimum, each against the dense scan (denseScanEpsilon).
func TestBestSearchRegressions(t *testing.T) {
	for _, c := range []struct {
		caught   string
		q, sigma float64
		steps    int
		delta    float64
	}{
		// a batch recomputed the best order one ulp lower; the copy became
		// the bracket's end and hid the side beyond it
		{"bracket end a rounding of the best order", 0.3101563178718817, 80.56186815860698, 3, 1.8279165937206788e-11},
		// the largest order of the old range (4096) was never evaluated
		{"range end 4096 skipped", 0.01, 300, 100, 1e-5},
	} {
		var a fast.Accountant
		if err := a.Compose(fast.SGMEvent(c.q, c.sigma), c.steps); err != nil {
			t.Fatal(err)
		}
		got, at, err := a.BestEpsilon(c.delta, fast.Improved)
		if err != nil {
			t.Fatal(err)
		}
		want, wantAt := denseScanEpsilon(t, c.q, c.sigma, c.steps, c.delta, fast.Improved)
		if (got-want)/want > fast.SearchTolerance {
			t.Errorf("%s: search %.15g at %g, dense scan %.15g at %g", c.caught, got, at, want, wantAt)
		}
	}
}
