package convert

import (
	"github.com/ALTree/bigfloat"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
)

const prec = 256

const u = 0x1p-53

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

// exactEps is the conversion's eps at the order a from the formulas
// themselves at 256 bits: improved (Balle et al. 2020, Theorem 21) rdp +
// log1p(-1/a) - (log delta + log a)/(a-1), classic rdp + log(1/delta)/(a-1).
func exactEps(conv rdpcheck.Conversion, a, r, ld float64) *big.Float {
	am1 := new(big.Float).SetPrec(prec).Sub(bf(a), bf(1))
	if conv == rdpcheck.Classic {
		t := new(big.Float).SetPrec(prec).Quo(bf(-ld), am1)
		return t.Add(t, bf(r))
	}
	l1 := bigfloat.Log(new(big.Float).SetPrec(prec).Quo(am1, bf(a)))
	t := new(big.Float).SetPrec(prec).Add(bf(ld), bigfloat.Log(bf(a)))
	t.Quo(t, am1)
	l1.Sub(l1, t)
	return l1.Add(l1, bf(r))
}

// mag is EpsAt's doc comment's scale of the error: r + |l1| + |t| + |log
// delta|/(a-1), in float64 (its own few roundings are negligible against
// the factor 20 below).
func mag(a, r, ld float64) float64 {
	l1 := math.Log1p(-1 / a)
	t := (ld + math.Log(a)) / (a - 1)
	return r + math.Abs(l1) + math.Abs(t) + math.Abs(ld)/(a-1)
}

var (
	orderGrid = []float64{1 + 0x1p-30, 1.0001, 1.5, 2, 3.7, 32, 1e4, 1 << 40, 1 << 53}
	rdpGrid   = []float64{0, 1e-9, 0.3, 5, 1e4}
	ldGrid    = []float64{math.Log(1e-5), math.Log(1e-10), -700, -1e-3}
)

// TestEpsAtRoundedUp: EpsAt is never below the exact conversion and at
// most 18u mag plus one ulp above it (the doc comment: 8u mag of error,
// 9u mag and one ulp added), for both conversions over a grid of orders
// from 1 + 2^-30 to 2^53, RDPs and deltas.
func TestEpsAtRoundedUp(t *testing.T) {
	for _, conv := range []rdpcheck.Conversion{rdpcheck.Classic, rdpcheck.Improved} {
		for _, a := range orderGrid {
			for _, r := range rdpGrid {
				for _, ld := range ldGrid {
					got := EpsAt(conv, a, r, ld)
					want := exactEps(conv, a, r, ld)
					diff, _ := new(big.Float).Sub(bf(got), want).Float64()
					if diff < 0 {
						t.Errorf("EpsAt(%v, %g, %g, %g) = %.17g below the exact %s", conv, a, r, ld, got, want.Text('g', 25))
					}
					if lim := 18*u*mag(a, r, ld) + 2*u*math.Abs(got); diff > lim {
						t.Errorf("EpsAt(%v, %g, %g, %g) = %.17g, %g above the exact %s (allowed %g)", conv, a, r, ld, got, diff, want.Text('g', 25), lim)
					}
				}
			}
		}
		if got := EpsAt(conv, math.Inf(1), 0.25, -10); got != 0.25 {
			t.Errorf("EpsAt(%v, +Inf, 0.25, -10) = %g, want the RDP 0.25 (the limit)", conv, got)
		}
		if got := EpsAt(conv, 3, math.Inf(1), -10); !math.IsInf(got, 1) {
			t.Errorf("EpsAt(%v, 3, +Inf, -10) = %g, want +Inf", conv, got)
		}
	}
}

// TestLog1mInv: within 6u of the exact log((a-1)/a) (its doc comment),
// near a = 1 as well.
func TestLog1mInv(t *testing.T) {
	for _, a := range []float64{1 + 0x1p-52, 1 + 0x1p-30, 1.1, 1.999999, 2, 2.5, 1e3, 1e17} {
		got := Log1mInv(a)
		am1 := new(big.Float).SetPrec(prec).Sub(bf(a), bf(1))
		want := bigfloat.Log(am1.Quo(am1, bf(a)))
		rel, _ := new(big.Float).Quo(new(big.Float).Sub(bf(got), want), want).Float64()
		if math.Abs(rel) > 6*u {
			t.Errorf("Log1mInv(%.17g) = %.17g, relative error %g against %s", a, got, rel, want.Text('g', 25))
		}
	}
}

// TestEpsilonIsLeastOverOrders: Epsilon is at or above the least exact
// eps over the curve (floored at 0), within the EpsAt margin, and the
// order returned attains it to that margin.
func TestEpsilonIsLeastOverOrders(t *testing.T) {
	orders := []float64{1.5, 2, 3, 5, 8, 16, 32, 64, 256, math.Inf(1)}
	for _, conv := range []rdpcheck.Conversion{rdpcheck.Classic, rdpcheck.Improved} {
		for _, c := range []struct {
			rho, ld float64
		}{{0.01, math.Log(1e-5)}, {1, math.Log(1e-10)}, {1e-4, -3}, {0.5, -1e-3}} {
			curve := make([]float64, len(orders))
			for i, a := range orders {
				curve[i] = c.rho * a // the Gaussian's line; +Inf at +Inf
			}
			eps, order := Epsilon(orders, curve, c.ld, conv)
			var least *big.Float
			var m float64
			for i, a := range orders {
				if math.IsInf(a, 1) {
					continue
				}
				e := exactEps(conv, a, curve[i], c.ld)
				if least == nil || e.Cmp(least) < 0 {
					least, m = e, mag(a, curve[i], c.ld)
				}
			}
			if least.Sign() < 0 {
				least = bf(0)
			}
			diff, _ := new(big.Float).Sub(bf(eps), least).Float64()
			if diff < 0 || diff > 18*u*m+2*u*eps {
				t.Errorf("Epsilon(rho %g, log delta %g, %v) = %.17g, exact least %s", c.rho, c.ld, conv, eps, least.Text('g', 20))
			}
			if math.IsInf(order, 1) {
				t.Errorf("Epsilon(rho %g, %v): order +Inf, where the RDP is +Inf", c.rho, conv)
			} else if least.Sign() > 0 {
				at := exactEps(conv, order, c.rho*order, c.ld)
				if d, _ := new(big.Float).Sub(at, least).Float64(); d > 18*u*m+2*u*eps {
					t.Errorf("Epsilon(rho %g, %v): order %g gives %s, not the least %s", c.rho, conv, order, at.Text('g', 20), least.Text('g', 20))
				}
			}
		}
	}
}

// exactLogDelta is log delta at the order a for the RDP r and eps, from
// the formulas: classic (a-1)(r - eps), improved (a-1)(r - eps +
// log1p(-1/a)) - log a.
func exactLogDelta(conv rdpcheck.Conversion, a, r, eps float64) *big.Float {
	am1 := new(big.Float).SetPrec(prec).Sub(bf(a), bf(1))
	d := new(big.Float).SetPrec(prec).Sub(bf(r), bf(eps))
	if conv == rdpcheck.Classic {
		return d.Mul(d, am1)
	}
	d.Add(d, bigfloat.Log(new(big.Float).SetPrec(prec).Quo(am1, bf(a))))
	d.Mul(d, am1)
	return d.Sub(d, bigfloat.Log(bf(a)))
}

// TestDeltaRoundedUp: Delta's log is at or above the least exact log
// delta over the orders and within 22u mag + 10u of it (the error
// analysis in Delta: as much error as margin, mag = (a-1)(|rdp - eps| +
// |log1p(-1/a)| + rdp + eps) + log a, and exp's rounding), capped at 1.
func TestDeltaRoundedUp(t *testing.T) {
	orders := []float64{1.25, 2, 3, 5, 10, 20, 50, 100, 1000}
	for _, conv := range []rdpcheck.Conversion{rdpcheck.Classic, rdpcheck.Improved} {
		for _, c := range []struct{ rho, eps float64 }{{0.01, 1}, {0.1, 2}, {1e-3, 0.05}, {0.5, 8}, {0.02, 5}} {
			curve := make([]float64, len(orders))
			for i, a := range orders {
				curve[i] = c.rho * a
			}
			delta, order := Delta(orders, curve, c.eps, conv)
			var least *big.Float
			var magD float64 // the doc comment's scale of log delta's error at the least
			for i, a := range orders {
				if l := exactLogDelta(conv, a, curve[i], c.eps); least == nil || l.Cmp(least) < 0 {
					least = l
					magD = (a-1)*(math.Abs(curve[i]-c.eps)+math.Abs(math.Log1p(-1/a))+curve[i]+c.eps) + math.Log(a)
				}
			}
			if least.Sign() >= 0 {
				if delta != 1 {
					t.Errorf("Delta(rho %g, eps %g, %v) = %g, exact log delta %s >= 0: want 1", c.rho, c.eps, conv, delta, least.Text('g', 10))
				}
				continue
			}
			lg := bigfloat.Log(bf(delta))
			diff, _ := new(big.Float).Sub(lg, least).Float64()
			lf, _ := least.Float64()
			// the margin 10u mag + 2u added, an error of as much, exp's 6u
			if diff < 0 || diff > 22*u*magD+10*u {
				t.Errorf("Delta(rho %g, eps %g, %v) = %.17g: log %s, exact least %s", c.rho, c.eps, conv, delta, lg.Text('g', 20), least.Text('g', 20))
			}
			at := exactLogDelta(conv, order, c.rho*order, c.eps)
			if d, _ := new(big.Float).Sub(at, least).Float64(); d > 1e-12*math.Abs(lf) {
				t.Errorf("Delta(rho %g, eps %g, %v): order %g does not attain the least", c.rho, c.eps, conv, order)
			}
		}
	}
	// An RDP of +Inf at every finite order and 0.5 <= eps at +Inf: delta 0.
	if d, _ := Delta([]float64{2, math.Inf(1)}, []float64{math.Inf(1), 0.5}, 1, rdpcheck.Improved); d != 0 {
		t.Errorf("Delta with rdp(+Inf) <= eps = %g, want 0", d)
	}
}

// TestSearchBounds: MinEpsTerm is at or below the conversion's term at
// every order of a grid over [a, b] and within 1e-9 of the grid's least;
// DeltaLower is at or below the exact delta at every grid order for the
// RDP rdpA (the least a non-decreasing RDP can have there).
func TestSearchBounds(t *testing.T) {
	for _, conv := range []rdpcheck.Conversion{rdpcheck.Classic, rdpcheck.Improved} {
		for _, c := range []struct{ a, b, ld float64 }{
			{1.5, 4, math.Log(1e-5)}, {2, 1e6, math.Log(1e-5)}, {1e6, 1e7, math.Log(1e-5)}, {1.01, 40, -2}, {3, 3.5, -50},
		} {
			m := MinEpsTerm(conv, c.a, c.b, c.ld)
			least := math.Inf(1)
			// a log-spaced grid, its ends, and 1/delta (the improved
			// term's least) where inside
			grid := []float64{c.b}
			n := 100
			if testing.Short() {
				n = 20
			}
			for i := 0; i < n; i++ {
				grid = append(grid, c.a*math.Pow(c.b/c.a, float64(i)/float64(n)))
			}
			if top := math.Exp(-c.ld); top > c.a && top < c.b {
				grid = append(grid, top)
			}
			for _, a := range grid {
				term := exactEps(conv, a, 0, c.ld)
				if bf(m).Cmp(term) > 0 {
					t.Errorf("MinEpsTerm(%v, %g, %g, %g) = %.17g above the term %s at %g", conv, c.a, c.b, c.ld, m, term.Text('g', 20), a)
					break
				}
				tf, _ := term.Float64()
				least = min(least, tf)
			}
			if least-m > 1e-9*math.Abs(least)+1e-12 {
				t.Errorf("MinEpsTerm(%v, %g, %g, %g) = %.17g, far below the grid's least %.17g", conv, c.a, c.b, c.ld, m, least)
			}
			for _, rdpA := range []float64{0.01, 0.5} {
				for _, eps := range []float64{0.5, 2} {
					dl := DeltaLower(conv, c.a, c.b, rdpA, eps)
					if dl == 0 {
						continue
					}
					ldl := bigfloat.Log(bf(dl))
					for i := 0; i <= 16; i++ {
						a := c.a + (c.b-c.a)*float64(i)/16
						ld := exactLogDelta(conv, a, rdpA, eps)
						if ldl.Cmp(ld) > 0 {
							t.Errorf("DeltaLower(%v, %g, %g, %g, %g) = %g above the exact delta at %g (log %s)", conv, c.a, c.b, rdpA, eps, dl, a, ld.Text('g', 15))
							break
						}
					}
				}
			}
		}
	}
}

// TestZCDPLine: the improved conversion of rho alpha has its least where
// rho (a-1)^2 + log delta + log a = 0 (the derivative, as MinEpsTerm's
// comment gives it), found here by bisection; ZCDPLine is at or above
// the exact eps there (less 1e-25 relative for the bisection's own
// quadratic error) and within 1e-12 relative of it.
func TestZCDPLine(t *testing.T) {
	for _, c := range []struct{ rho, ld float64 }{
		{1e-4, math.Log(1e-5)}, {0.01, math.Log(1e-5)}, {0.5, math.Log(1e-10)}, {3, math.Log(1e-6)}, {1e-8, -700},
	} {
		lo, hi := 1.0, 2.0
		for c.rho*(hi-1)*(hi-1)+c.ld+math.Log(hi) < 0 {
			hi *= 2
		}
		for i := 0; i < 200; i++ {
			mid := (lo + hi) / 2
			if c.rho*(mid-1)*(mid-1)+c.ld+math.Log(mid) < 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		want := exactEps(rdpcheck.Improved, lo, c.rho*lo, c.ld)
		wf, _ := want.Float64()
		eps, order := ZCDPLine(c.rho, c.ld)
		if d := eps - wf; d < -1e-25*wf || d > 1e-12*wf {
			t.Errorf("ZCDPLine(%g, %g) = %.17g at %g, exact least %.17g at %g", c.rho, c.ld, eps, order, wf, lo)
		}
	}
}
