package fast

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/testtier"
	"github.com/rdpcheck/rdpcheck/reference"
)

// refCtx is the reference at 64 bits: relative error at most 2^-63 ~ 1.1e-19
// (its Ziv guarantee), seven orders below the 1e-12 checked here, and about
// three times faster than 128 bits.
var refCtx = reference.Context{Prec: 64}

// nearOneSweep are orders just above 1 that every accuracy sweep in fast
// samples: there a form that takes the log of a number next to 1 and
// divides by alpha - 1 loses about 1e-16/(alpha-1) relative (it hid in
// SampledLaplace and SampledDivergence, whose sweeps started at 1.1: 2.4
// times the reference at 1 + 1.4e-14). nearOneDraw draws more between.
var nearOneSweep = []float64{1 + 0x1p-52, 1 + 1e-12, 1 + 1e-9, 1 + 1e-6, 1.001}

// nearOneDraw returns nearOneSweep[i] for the first len(nearOneSweep)
// draws of a region (i counts them), then 1 + d with d log-uniform in
// [2^-52, 1e-3].
func nearOneDraw(r *rand.Rand, i int) float64 {
	if i < len(nearOneSweep) {
		return nearOneSweep[i]
	}
	return 1 + logUniform(r, 0x1p-52, 1e-3)
}

type sweepPoint struct {
	region          string
	q, sigma, alpha float64
	curve           bool      // evaluated through SGMCurve on orders
	orders          []float64 // the curve's orders (DefaultOrders if nil)
}

func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
}

// sweepPoints draws the accuracy sweep: the whole promised range plus the
// regions where the peers fail (the TF Privacy lineage in vectors/tfprivacy).
func sweepPoints() []sweepPoint {
	r := rand.New(rand.NewPCG(2024, 11))
	var pts []sweepPoint
	add := func(region string, n int, f func() (q, s, a float64)) {
		for i := 0; i < n; i++ {
			q, s, a := f()
			pts = append(pts, sweepPoint{region: region, q: q, sigma: s, alpha: a})
		}
	}
	qAny := func() float64 { return logUniform(r, 1e-12, 1) }
	sAny := func() float64 { return logUniform(r, 0.1, 1000) }
	frac := func(lo, hi float64) float64 {
		for {
			a := lo + r.Float64()*(hi-lo)
			if a != math.Trunc(a) {
				return a
			}
		}
	}
	add("integer 2..64", 300, func() (float64, float64, float64) { return qAny(), sAny(), float64(2 + r.IntN(63)) })
	add("integer 65..1029", 120, func() (float64, float64, float64) { return qAny(), sAny(), float64(65 + r.IntN(965)) })
	add("integer 1030..10000 (Opacus NaN)", 40, func() (float64, float64, float64) {
		return qAny(), sAny(), float64(1030 + r.IntN(8971))
	})
	add("fractional (1, 11)", 400, func() (float64, float64, float64) { return qAny(), sAny(), frac(1.0001, 11) })
	add("fractional (11, 256)", 220, func() (float64, float64, float64) { return qAny(), sAny(), frac(11, 256) })
	add("q in [1e-12, 1e-10] (TF cancellation)", 200, func() (float64, float64, float64) {
		a := frac(1.01, 64)
		if r.IntN(2) == 0 {
			a = float64(2 + r.IntN(200))
		}
		return logUniform(r, 1e-12, 1e-10), sAny(), a
	})
	add("q = 1-1e-9", 120, func() (float64, float64, float64) {
		return 1 - 1e-9, logUniform(r, 0.3, 1000), frac(1.01, 100)
	})
	add("q=0.4 sigma=12 alpha 58.5..59.5 (TF negative)", 150, func() (float64, float64, float64) {
		return 0.4, 12, 58.5 + r.Float64()
	})
	add("q=0.1 sigma=1 alpha 1.1..1.5 (dp_accounting inf)", 150, func() (float64, float64, float64) {
		return 0.1, 1, 1.1 + 0.4*r.Float64()
	})
	add("sigma = 0.1", 120, func() (float64, float64, float64) {
		a := frac(1.01, 64)
		if r.IntN(2) == 0 {
			a = float64(2 + r.IntN(1000))
		}
		return qAny(), 0.1, a
	})
	// The transition band: for tiny q the tail Gaussian at alpha
	// (weight q^alpha e^(alpha(alpha-1)/(2 sigma^2))) crosses the bulk q^2
	// term just below alpha* = 1 + 2 sigma^2 log(1/q), with nodes far out
	// in z (subnormal prefactors, exponents of hundreds).
	band := func() (q, s, a float64) {
		for {
			q, s = logUniform(r, 1e-12, 1e-7), logUniform(r, 0.3, 3)
			if as := 1 + 2*s*s*math.Log(1/q); as <= 256 {
				return q, s, frac(math.Max(1.0001, as-4), math.Min(256, as+1))
			}
		}
	}
	add("transition band (q 1e-12..1e-7, a*-4..a*+1)", 240, band)
	nNear := 0
	add("alpha in [1+2^-52, 1.001]", 100, func() (float64, float64, float64) {
		nNear++
		return qAny(), sAny(), nearOneDraw(r, nNear-1)
	})
	for _, qs := range [][2]float64{{0.01, 1.1}, {0.001, 0.8}} {
		for _, a := range DefaultOrders() {
			pts = append(pts, sweepPoint{region: "SGMCurve, default orders", q: qs[0], sigma: qs[1], alpha: a, curve: true})
		}
	}
	// a curve from just above 1 (the shared grid at orders near 1)
	near := append(slices.Clone(nearOneSweep), 1.01, 1.1, 1.5, 2, 3)
	// ((q, sigma) unlike the other curves': the curves are cached by it)
	for _, qs := range [][2]float64{{0.02, 1.1}, {1e-6, 0.5}} {
		for _, a := range near {
			pts = append(pts, sweepPoint{region: "SGMCurve, orders from 1+2^-52", q: qs[0], sigma: qs[1], alpha: a, curve: true, orders: near})
		}
	}
	// curves through the band (shared grid, moments and chain)
	for _, qs := range [][2]float64{{1e-9, 1}, {1e-12, 2}, {3e-8, 0.5}, {1e-11, 0.7}} {
		q, s := qs[0], qs[1]
		as := 1 + 2*s*s*math.Log(1/q)
		var o []float64
		for a := math.Max(1.05, as-4); a < math.Min(256, as+1); a += 1.0 / 16 {
			if a != math.Trunc(a) {
				o = append(o, a)
			}
		}
		for _, a := range o {
			pts = append(pts, sweepPoint{region: "SGMCurve, transition band", q: q, sigma: s, alpha: a, curve: true, orders: o})
		}
	}
	return pts
}

// relErr returns (fast-ref)/ref computed in big arithmetic.
func relErr(fast float64, ref *big.Float) float64 {
	if ref.Sign() == 0 {
		if fast == 0 {
			return 0
		}
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(fast), ref)
	d.Quo(d, ref)
	v, _ := d.Float64()
	return v
}

// TestSGMAccuracySweep compares SGM and SGMCurve with the reference on
// more than 2,000 points and prints a per-region table in the style of
// Boost.Math's accuracy reports. It fails if any relative error exceeds
// 1e-12 or any value is below the reference.
//
// The table of docs/accuracy.md is the exhaustive tier's
// (RDPCHECK_EXHAUSTIVE=1); the default run checks the first and every 8th
// point of each region, -short every 50th.
func TestSGMAccuracySweep(t *testing.T) {
	t.Parallel()
	pts := sweepPoints()
	switch {
	case testing.Short():
		pts = everyNth(pts, 50) // the first of each region and every 50th
	case testtier.Sampled(t, "the SGM sweep's points other than each region's first and every 8th"):
		pts = everyNth(pts, 8)
	}
	// fast values first (cheap), curves once per (q, sigma)
	fastV := make([]float64, len(pts))
	curves := map[[2]float64][]float64{}
	for i, p := range pts {
		if p.curve {
			o := p.orders
			if o == nil {
				o = DefaultOrders()
			}
			key := [2]float64{p.q, p.sigma}
			c, ok := curves[key]
			if !ok {
				c = make([]float64, len(o))
				if err := SGMCurve(p.q, p.sigma, 1, o, c); err != nil {
					t.Fatal(err)
				}
				curves[key] = c
			}
			fastV[i] = c[sort.SearchFloat64s(o, p.alpha)]
			continue
		}
		v, err := SGM(p.q, p.sigma, p.alpha)
		if err != nil {
			t.Fatalf("SGM(%v, %v, %v): %v", p.q, p.sigma, p.alpha, err)
		}
		fastV[i] = v
	}
	refV := make([]*big.Float, len(pts))
	errs := make([]error, len(pts))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				refV[i], errs[i] = refCtx.SGM(pts[i].q, pts[i].sigma, pts[i].alpha)
			}
		}()
	}
	for i := range pts {
		next <- i
	}
	close(next)
	wg.Wait()

	type stat struct {
		n           int
		max, sumsq  float64
		worst       string
		below, over int
	}
	stats := map[string]*stat{}
	var order []string
	for i, p := range pts {
		if errs[i] != nil {
			t.Errorf("reference SGM(%v, %v, %v): %v", p.q, p.sigma, p.alpha, errs[i])
			continue
		}
		s, ok := stats[p.region]
		if !ok {
			s = &stat{}
			stats[p.region] = s
			order = append(order, p.region)
		}
		e := relErr(fastV[i], refV[i])
		s.n++
		s.sumsq += e * e
		if math.Abs(e) > math.Abs(s.max) || s.worst == "" {
			s.max = e
			s.worst = fmt.Sprintf("q=%.4g sigma=%.4g alpha=%.17g", p.q, p.sigma, p.alpha)
		}
		if e < 0 {
			s.below++
			t.Errorf("below the reference: SGM(%v, %v, %v) = %v, rel %.3g", p.q, p.sigma, p.alpha, fastV[i], e)
		}
		if math.Abs(e) > 1e-12 || math.IsNaN(fastV[i]) {
			s.over++
			t.Errorf("relative error %.3g > 1e-12: SGM(%v, %v, %v) = %v", e, p.q, p.sigma, p.alpha, fastV[i])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-50s %6s %11s %11s  %s\n", "region", "points", "max rel", "RMS rel", "worst input")
	total := 0
	for _, k := range order {
		s := stats[k]
		total += s.n
		fmt.Fprintf(&b, "%-50s %6d %11.3g %11.3g  %s\n", k, s.n, s.max, math.Sqrt(s.sumsq/float64(s.n)), s.worst)
	}
	fmt.Fprintf(&b, "%-50s %6d\n", "total", total)
	t.Log(b.String())
	if total < 2000 && testtier.Exhaustive(t) {
		t.Errorf("only %d points", total)
	}
}

func (p sweepPoint) regionName() string { return p.region }

// everyNth keeps the first of every n points of each region.
func everyNth[P interface{ regionName() string }](pts []P, n int) []P {
	seen := map[string]int{}
	var out []P
	for _, p := range pts {
		if seen[p.regionName()]%n == 0 {
			out = append(out, p)
		}
		seen[p.regionName()]++
	}
	return out
}
