package sgm

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck"
)

// rawPoint is a fractional order evaluated before rounding up: the value
// and the relative error bound the method carries for it.
type rawPoint struct {
	q, sigma, alpha float64
	rdp, rel        float64
	ok              bool
	curve           bool
}

// singleRaw mirrors SGM for a fractional order (empty grid).
func singleRaw(q, sigma, a float64) rawPoint {
	ws := new(workspace)
	ws.reset(q, sigma)
	r, e, ok := ws.fo.rdp(a, ws.fo.lref(a), nil)
	return rawPoint{q: q, sigma: sigma, alpha: a, rdp: r, rel: e, ok: ok}
}

// curveRaw mirrors SGMCurve for the fractional orders of orders (shared
// grid, moments and chain).
func curveRaw(q, sigma float64, orders []float64) []rawPoint {
	ws := new(workspace)
	ws.reset(q, sigma)
	wins := make([]window, len(orders))
	lrefs := make([]float64, len(orders))
	hullLo, hullHi := math.MaxInt, math.MinInt
	amin, amax := math.Inf(1), 0.0
	frac := func(a float64) bool { return a != math.Trunc(a) && a <= maxFracOrder }
	for i, a := range orders {
		if !frac(a) {
			continue
		}
		amax, amin = max(amax, a), min(amin, a)
		lrefs[i] = ws.fo.lref(a)
		w := ws.fo.windows(a, lrefs[i], nil)
		wins[i] = w
		if w.n > 0 {
			hullLo, hullHi = min(hullLo, w.lo[0]), max(hullHi, w.hi[w.n-1])
		}
	}
	if hullLo <= hullHi {
		ws.fo.cover(hullLo, hullHi, amin, amax)
	}
	var out []rawPoint
	for i, a := range orders {
		if !frac(a) {
			continue
		}
		r, e, ok := ws.fo.rdp(a, lrefs[i], &wins[i])
		out = append(out, rawPoint{q: q, sigma: sigma, alpha: a, rdp: r, rel: e, ok: ok, curve: true})
	}
	return out
}

// TestFracErrorBoundHolds checks the claim the rounding rests on: the
// carried bound rel covers the actual relative error of the unrounded
// fractional-order value (|rdp/exact - 1| <= rel), on single calls and on
// curves, in the whole promised range and densely in the transition band
// around alpha* = 1 + 2 sigma^2 log(1/q), where the tail Gaussian at alpha
// meets the bulk.
func TestFracErrorBoundHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2025))
	var pts []rawPoint
	frac := func(lo, hi float64) float64 {
		for {
			if a := lo + r.Float64()*(hi-lo); a != math.Trunc(a) && a > 1 {
				return a
			}
		}
	}
	band := func() (q, s, a float64) {
		for {
			q, s = logUniform(r, 1e-12, 1e-7), logUniform(r, 0.3, 3)
			as := 1 + 2*s*s*math.Log(1/q)
			if as <= 256 && as > 5 {
				return q, s, frac(math.Max(1.001, as-4), math.Min(256, as+1))
			}
		}
	}
	n := 120
	if testing.Short() {
		n = 8
	}
	for i := 0; i < n; i++ {
		q, s, a := band()
		pts = append(pts, singleRaw(q, s, a))
		pts = append(pts, singleRaw(logUniform(r, 1e-12, 1), logUniform(r, 0.1, 1000), frac(1.0001, 256)))
	}
	// curves: the default orders, and orders through the band
	curves, step := [][2]float64{{0.01, 1.1}, {1e-9, 1}, {1e-12, 2}, {3e-8, 0.5}}, 0.173
	if testing.Short() {
		curves, step = curves[1:2], 0.173*5
	}
	for _, qs := range curves {
		q, s := qs[0], qs[1]
		as := 1 + 2*s*s*math.Log(1/q)
		orders := rdpcheck.DefaultOrders()
		for a := math.Max(1.05, as-4); a < math.Min(256, as+1); a += step {
			orders = append(orders, a)
		}
		pts = append(pts, curveRaw(q, s, orders)...)
	}
	errs := make([]float64, len(pts))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := pts[i]
				ref, err := refCtx.SGM(p.q, p.sigma, p.alpha)
				if err != nil {
					errs[i] = math.NaN()
					continue
				}
				errs[i] = relErr(p.rdp, ref)
			}
		}()
	}
	for i := range pts {
		next <- i
	}
	close(next)
	wg.Wait()
	worst, wi := 0.0, -1
	for i, p := range pts {
		if !p.ok {
			continue // the caller falls back to the integer bound
		}
		e := errs[i]
		// the reference is within 2^-63 relative
		if math.IsNaN(e) || math.Abs(e) > p.rel+2e-19 {
			t.Errorf("bound broken (curve %v): SGM(%v, %v, %v) raw %v, error %.3g > bound %.3g",
				p.curve, p.q, p.sigma, p.alpha, p.rdp, e, p.rel)
		}
		if p.rel > 1e-12 {
			t.Errorf("bound %.3g > 1e-12 (curve %v): SGM(%v, %v, %v)", p.rel, p.curve, p.q, p.sigma, p.alpha)
		}
		if f := math.Abs(e) / p.rel; f > worst {
			worst, wi = f, i
		}
	}
	if wi >= 0 {
		p := pts[wi]
		t.Logf("%d points; largest error/bound %.3f at SGM(%v, %v, %v) (curve %v, bound %.3g)", len(pts), worst, p.q, p.sigma, p.alpha, p.curve, p.rel)
	}
}
