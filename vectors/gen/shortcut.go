package gen

// Valid shortcuts of the conversions: bounds below the formula's value that
// an accountant may return instead, flagged on the tests where they apply
// so that a scorer counts such answers as tighter, not as below the truth.
//
// Bretagnolle and Huber (1979): TV(P, Q) <= sqrt(1 - e^{-KL(P||Q)}), and
// KL = D_1 <= D_alpha for every alpha >= 1 (the Renyi divergence is
// nondecreasing in its order; van Erven and Harremoes 2014, Theorem 3), so
// an RDP bound r at any order gives TV <= sqrt(1 - e^{-r}). A mechanism
// with TV <= delta is (0, delta)-DP, and (eps, delta)-DP for every eps >= 0.
// Hence:
//
//   - Epsilon: eps = 0 is valid for a target delta where some order has
//     delta^2 >= 1 - e^{-r}. dp_accounting 0.6.0 returns 0 there
//     (rdp_privacy_accountant.py, compute_epsilon: the test
//     delta**2 + math.expm1(-r) > 0, strict).
//   - Delta: delta = min over the orders of sqrt(1 - e^{-r}) is valid for
//     any eps; 0 for an all-zero curve. dp_accounting's compute_delta takes
//     the smaller of this and the improved formula at each order.
//
// Pinsker's TV <= sqrt(KL/2) is also valid and smaller for small KL; it is
// not flagged, as no peer is known to use it.
//
// And of the WOR Gaussian bound (WORGaussian, Wang, Balle and
// Kasiviswanathan 2019, Thm 27): the unsampled Gaussian's alpha/(2 sigma^2)
// bounds the RDP too. Draw both batches by the same index set: where it
// misses the replaced record the batches are equal, else they are
// neighbours, so the two output laws are mixtures, with the same weights,
// of pairs each within alpha/(2 sigma^2); the Renyi divergence is jointly
// quasi-convex (van Erven and Harremoes 2014, Theorem 13). Where that is
// below the theorem's value (at fractional orders, by its interpolation)
// it is a valid, tighter answer: autodp returns it.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// shortcutPrec is the working precision of the shortcut tests: far beyond
// the 50 digits written, and decisions closer than 2^-shortcutMargin
// relative are not taken (no flag: the scorer is then only stricter).
const (
	shortcutPrec   = 320
	shortcutMargin = 250
)

// oneMinusExpNeg is 1 - e^{-r} for r >= 0 (r = +Inf gives 1), relative
// error below 2^-(shortcutPrec-20): the series where r < 1/2, so that the
// subtraction does not cancel; else 1 - e^{-r} >= 0.39 directly.
func oneMinusExpNeg(r float64) *big.Float {
	one := new(big.Float).SetPrec(shortcutPrec).SetInt64(1)
	if math.IsInf(r, 1) {
		return one
	}
	x := new(big.Float).SetPrec(shortcutPrec).SetFloat64(r)
	if r >= 0.5 {
		e := bigfloat.Exp(new(big.Float).SetPrec(shortcutPrec).Neg(x))
		return one.Sub(one, e)
	}
	// sum_{k>=1} (-1)^{k+1} r^k / k!: alternating, terms decreasing (r <
	// 1), so the error is below the first term left out.
	sum := new(big.Float).SetPrec(shortcutPrec)
	term := new(big.Float).SetPrec(shortcutPrec).Set(x)
	tiny := new(big.Float).SetPrec(shortcutPrec).SetMantExp(x, -(shortcutPrec + 10))
	for k := 1; term.Sign() != 0 && new(big.Float).Abs(term).Cmp(tiny) > 0; k++ {
		if k%2 == 1 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		term.Mul(term, x)
		term.Quo(term, new(big.Float).SetInt64(int64(k+1)))
	}
	return sum
}

// addShortcuts flags every valid conversion test of f whose shortcut
// applies.
func addShortcuts(f *schema.File) error {
	for _, g := range f.TestGroups {
		if g.Function == schema.WORGaussian {
			for _, t := range g.Tests {
				if t.Result == schema.Invalid {
					continue
				}
				sigma, err := t.Float("sigma")
				if err != nil {
					return err
				}
				alpha, err := t.Float("alpha")
				if err != nil {
					return err
				}
				want, err := t.ExpectedValue()
				if err != nil {
					return fmt.Errorf("tcId %d: %v", t.TcID, err)
				}
				t.Shortcut = gaussianLineShortcut(sigma, alpha, want)
			}
			continue
		}
		if g.Function != schema.Epsilon && g.Function != schema.Delta {
			continue
		}
		for _, t := range g.Tests {
			if t.Result == schema.Invalid {
				continue
			}
			orders, err := schema.ParseList(hexOf(g.InputOrders(t), t.OrdersHex, g.OrdersHex, t.Orders != nil))
			if err != nil {
				return fmt.Errorf("tcId %d: orders: %v", t.TcID, err)
			}
			rdp, err := schema.ParseList(t.RDPHex)
			if err != nil {
				return fmt.Errorf("tcId %d: rdp: %v", t.TcID, err)
			}
			name := "delta"
			if g.Function == schema.Delta {
				name = "eps"
			}
			x, err := t.Float(name)
			if err != nil {
				return err
			}
			want, err := t.ExpectedValue()
			if err != nil {
				return fmt.Errorf("tcId %d: %v", t.TcID, err)
			}
			t.Shortcut = shortcut(g.Function, orders, rdp, x, want)
		}
	}
	return nil
}

// gaussianLineShortcut is the WOR bound's shortcut: alpha/(2 sigma^2),
// rounded up beyond the 50 digits written, where it is below the
// theorem's value want by more than 2^-shortcutMargin relative.
func gaussianLineShortcut(sigma, alpha float64, want *big.Float) *schema.Shortcut {
	if want == nil || want.IsInf() || math.IsInf(alpha, 0) || !(sigma > 0) || math.IsInf(sigma, 0) || !(alpha >= 1) {
		return nil
	}
	line := new(big.Float).SetPrec(shortcutPrec).SetFloat64(alpha)
	s := new(big.Float).SetPrec(shortcutPrec).SetFloat64(sigma)
	s.Mul(s, s)
	line.Quo(line, s.Add(s, s))
	up := new(big.Float).SetPrec(shortcutPrec).SetMantExp(line, -150)
	up.Add(up, line)
	d := new(big.Float).SetPrec(shortcutPrec).Sub(want, up)
	m := new(big.Float).SetPrec(shortcutPrec).SetMantExp(new(big.Float).Abs(want), -shortcutMargin)
	if d.Sign() <= 0 || d.Cmp(m) <= 0 {
		return nil
	}
	return &schema.Shortcut{Value: schema.Exact(up), Why: "the unsampled Gaussian's alpha/(2 sigma^2): sampling without replacement never raises the RDP (the outputs are mixtures of equal or neighbouring pairs; joint quasi-convexity, van Erven and Harremoes 2014, Thm 13); autodp returns it"}
}

// hexOf is the hex form of a test's orders (its own, or its group's).
func hexOf(dec, own, group []string, hasOwn bool) []string {
	if hasOwn {
		return own
	}
	if group != nil {
		return group
	}
	return dec
}

// shortcut returns the valid shortcut of a conversion test (function
// Epsilon or Delta, its curve, its delta or eps), or nil where none is
// below the formula's value want.
func shortcut(fn string, orders, rdp []float64, x float64, want *big.Float) *schema.Shortcut {
	if want == nil || want.Sign() == 0 {
		return nil
	}
	// margin(a, b) reports a < b by more than 2^-shortcutMargin relative.
	below := func(a, b *big.Float) bool {
		d := new(big.Float).SetPrec(shortcutPrec).Sub(b, a)
		m := new(big.Float).SetPrec(shortcutPrec).SetMantExp(new(big.Float).Abs(b), -shortcutMargin)
		return d.Sign() > 0 && d.Cmp(m) > 0
	}
	switch fn {
	case schema.Epsilon:
		d2 := new(big.Float).SetPrec(shortcutPrec).SetFloat64(x)
		d2.Mul(d2, d2)
		for i, r := range rdp {
			if r < 0 || math.IsNaN(r) {
				return nil // no such input is valid
			}
			if below(oneMinusExpNeg(r), d2) {
				return &schema.Shortcut{Value: "0", Why: fmt.Sprintf(
					"eps = 0: delta^2 >= 1 - e^{-rdp} at order %s, so TV <= delta (Bretagnolle-Huber, KL <= D_alpha); dp_accounting's compute_epsilon returns 0 here",
					schema.Dec(orders[i]))}
			}
		}
	case schema.Delta:
		var best *big.Float
		at := 0
		for i, r := range rdp {
			if r < 0 || math.IsNaN(r) {
				return nil
			}
			v := oneMinusExpNeg(r)
			v.Sqrt(v)
			if best == nil || v.Cmp(best) < 0 {
				best, at = v, i
			}
		}
		if best == nil || !below(best, want) {
			return nil
		}
		// Rounded up beyond the 50 digits' 5e-50 (2^-164) relative.
		up := new(big.Float).SetPrec(shortcutPrec).SetMantExp(best, -150)
		up.Add(up, best)
		if !below(up, want) {
			return nil
		}
		return &schema.Shortcut{Value: schema.Exact(up), Why: fmt.Sprintf(
			"delta = sqrt(1 - e^{-rdp}) at order %s bounds TV (Bretagnolle-Huber, KL <= D_alpha), valid for any eps; dp_accounting's compute_delta takes it where smaller",
			schema.Dec(orders[at]))}
	}
	return nil
}
