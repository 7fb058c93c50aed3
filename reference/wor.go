package reference

// Subsampling without replacement: the upper bounds of Wang, Balle and
// Kasiviswanathan, "Subsampled Rényi Differential Privacy and Analytical
// Moments Accountant" (AISTATS 2019, arXiv 1808.00087; WBK19 below).
//
// The setting: a uniformly random subset of m out of n records is drawn
// without replacement and the base mechanism runs on it; neighbouring
// datasets differ by replacing one record (n is public), and q = m/n.
// Both functions return the paper's upper bounds, evaluated exactly: they
// are not the RDP of the subsampled mechanism, which is unknown.

import (
	"fmt"
	"math"
	"math/big"
	"sync"

	"github.com/rdpcheck/rdpcheck"
)

// WORGaussian returns the upper bound of WBK19, Theorem 27, on the RDP of
// the Gaussian mechanism (l2-sensitivity 1, noise standard deviation sigma,
// so eps(j) = j/(2 sigma^2) and cgf(x) = x(x+1)/(2 sigma^2)) applied to a
// subset drawn without replacement with ratio q = m/n, replace-one
// neighbours. For integer alpha >= 2 it is (1/(alpha-1)) log A with
//
//	A = 1 + q^2 C(alpha,2) min(4 (e^(eps(2))-1), 2 e^(eps(2)))
//	      + sum_{j=3..alpha} q^j C(alpha,j) min(4 B(j), 2 e^((j-1) eps(j))),
//	B(j) = D(j) for even j, sqrt(D(j-1) D(j+1)) for odd j,
//	D(j) = sum_{i=0..j} C(j,i) (-1)^(j-i) e^((i-1) eps(i)),
//
// D(j) being the j-th forward difference of e^cgf at -1 (the Pearson-Vajda
// moment E_q[(p/q - 1)^j] of the Gaussian pair), at every order up to
// rdpcheck.MaxWOROrder: unlike dp_accounting (which switches to the cruder
// 2 e^((j-1) eps(j)) above order 256) there is no switch. A fractional alpha
// takes log A linearly interpolated between floor(alpha) and ceil(alpha)
// (WBK19, Corollary 10, valid because the cumulant generating function is
// convex), with log A(1) = 0; so the bound is constant on [1, 2].
//
// The alternating sums D(j) cancel: their terms reach sum_i C(j,i)
// e^((i-1) eps(i)) = E[(e^W + 1)^j] <= 2^j e^(j(j-1)/(2 sigma^2)) while, by
// Lyapunov's inequality, D(j) = E[(e^W - 1)^j] >= D(2)^(j/2) =
// (e^(1/sigma^2) - 1)^(j/2) (W ~ N(-c, 2c), c = 1/(2 sigma^2)), so at most
// j + log2(e) j(j-1)/(2 sigma^2) - (j/2) log2(e^(1/sigma^2)-1) bits are lost
// (about 7900 at sigma = 100, j = 1024). gaussDiffs carries a running error
// bound, derives the bits each sum needs from it and proves every D(j) to
// the working precision before it is used (see there).
//
// Special cases are:
//
//	WORGaussian(q=0, sigma, alpha) = 0
//	WORGaussian(q=1, sigma, alpha) = alpha/(2 sigma^2), the Gaussian's RDP
//	WORGaussian(q, sigma, alpha=+Inf) = +Inf for q > 0
//	WORGaussian(q, sigma, alpha=1) = WORGaussian(q, sigma, 2), the limit
//	WORGaussian(q, sigma, alpha) = error wrapping ErrTooLarge for alpha > rdpcheck.MaxWOROrder,
//	    or n(n-1)/(2 sigma^2) > rdpcheck.MaxWORExponent (n = 2 ceil(alpha/2), tiny sigma), 0 < q < 1
//	WORGaussian(q, sigma, alpha) = error for q outside [0, 1], sigma <= 0 or ±Inf, alpha < 1, any NaN
func (c Context) WORGaussian(q, sigma, alpha float64) (*big.Float, error) {
	if err := checkWORGaussian("WORGaussian", q, sigma, alpha); err != nil {
		return nil, err
	}
	return c.worGaussian(q, sigma, alpha, newWORCache(q, sigma, alpha))
}

// WORGaussianCurve returns steps times WORGaussian(q, sigma, alpha) at each
// order, sharing the forward differences between the orders.
//
// Slices: orders is only read; the slice returned and its values are new.
func (c Context) WORGaussianCurve(q, sigma float64, steps int, orders []float64) ([]*big.Float, error) {
	const fn = "WORGaussianCurve"
	if steps <= 0 {
		return nil, inputErr(fn, "steps", float64(steps), "must be positive")
	}
	if len(orders) == 0 {
		return nil, inputErr(fn, "orders", math.NaN(), "must not be empty")
	}
	top := 1.0
	for _, a := range orders {
		if err := checkWORGaussian(fn, q, sigma, a); err != nil {
			return nil, err
		}
		if !math.IsInf(a, 1) {
			top = max(top, a)
		}
	}
	cache := newWORCache(q, sigma, top)
	out := make([]*big.Float, len(orders))
	err := parallel(len(orders), func(i int) error {
		v, err := c.worGaussian(q, sigma, orders[i], cache)
		if err != nil {
			return err
		}
		out[i] = v.Mul(v, newF(64).SetInt64(int64(steps)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func checkWORGaussian(fn string, q, sigma, alpha float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return inputErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if err := checkWOROrder(fn, alpha); err != nil {
		return err
	}
	if !math.IsInf(alpha, 1) && q > 0 && q < 1 {
		n := 2 * math.Ceil(max(alpha, 2)/2)
		if n*(n-1)/(2*sigma*sigma) > rdpcheck.MaxWORExponent {
			return fmt.Errorf("reference.%s: sigma %v at order %v: %w (the moments e^(c n(n-1)) exceed rdpcheck.MaxWORExponent)", fn, sigma, alpha, ErrTooLarge)
		}
	}
	return nil
}

func checkWOROrder(fn string, alpha float64) error {
	if err := checkOrder(fn, alpha, 1, false); err != nil {
		return err
	}
	if !math.IsInf(alpha, 1) && alpha > rdpcheck.MaxWOROrder {
		return fmt.Errorf("reference.%s: order %v: %w (the bound is evaluated up to order %d)", fn, alpha, ErrTooLarge, rdpcheck.MaxWOROrder)
	}
	return nil
}

// worCache holds, per working precision, the forward differences D(j) and
// the moments e^((j-1) eps(j)) up to the largest order of a curve.
type worCache struct {
	sigma float64
	n     int // largest difference order, even
	mu    sync.Mutex
	tabs  map[uint]*worTable
}

type worTable struct {
	once sync.Once
	d, t []*big.Float
	err  error
}

func newWORCache(q, sigma, top float64) *worCache {
	n := int(math.Ceil(top))
	n += n % 2
	return &worCache{sigma: sigma, n: max(n, 2), tabs: map[uint]*worTable{}}
}

func (wc *worCache) table(wp uint) (*worTable, error) {
	wc.mu.Lock()
	tb, ok := wc.tabs[wp]
	if !ok {
		tb = &worTable{}
		wc.tabs[wp] = tb
	}
	wc.mu.Unlock()
	tb.once.Do(func() { tb.d, tb.t, tb.err = gaussDiffs(wc.sigma, wc.n, wp) })
	return tb, tb.err
}

func (c Context) worGaussian(q, sigma, alpha float64, wc *worCache) (*big.Float, error) {
	p := c.prec()
	switch {
	case q == 0:
		return newF(p), nil
	case math.IsInf(alpha, 1):
		return newF(p).SetInf(false), nil
	case q == 1:
		return c.Gaussian(sigma, alpha)
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		tb, err := wc.table(wp)
		if err != nil {
			return nil, err
		}
		logA := func(a int) *big.Float { return worGaussLogA(q, a, tb.d, tb.t, wp) }
		return interpolateLogA(alpha, logA, wp), nil
	})
}

// interpolateLogA returns the bound at alpha from log A at integer orders:
// log A(alpha)/(alpha-1) at an integer, else (WBK19, Corollary 10) the
// linear interpolation of log A between floor and ceil, with log A(1) = 0,
// divided by alpha-1; alpha = 1 gives the limit log A(2).
func interpolateLogA(alpha float64, logA func(a int) *big.Float, wp uint) *big.Float {
	if alpha <= 2 {
		return logA(2) // (alpha-1) log A(2) / (alpha-1)
	}
	lo := math.Floor(alpha)
	if lo == alpha {
		v := logA(int(lo))
		return v.Quo(v, fl(alpha-1, wp))
	}
	t := fl(alpha-lo, wp) // exact (Sterbenz)
	x := logA(int(lo))
	x.Mul(x, newF(wp).Sub(intF(1, wp), t))
	y := logA(int(lo) + 1)
	y.Mul(y, t)
	x.Add(x, y)
	return x.Quo(x, fl(alpha-1, wp)) // alpha-1 exact for alpha < 2^53
}

// worGaussLogA returns log A of Theorem 27 at integer order a >= 2 from the
// table: d[j] = D(j) for even j <= a+1 and t[j] = e^((j-1) eps(j)).
func worGaussLogA(q float64, a int, d, t []*big.Float, wp uint) *big.Float {
	Q := fl(q, wp)
	qj := newF(wp).Mul(Q, Q)
	binom := big.NewInt(int64(a) * int64(a-1) / 2) // C(a, 2)
	sum := newF(wp)
	four, two := intF(4, wp), intF(2, wp)
	term, m, b := newF(wp), newF(wp), newF(wp)
	for j := 2; j <= a; j++ {
		if j > 2 {
			qj.Mul(qj, Q)
			binom.Mul(binom, big.NewInt(int64(a-j+1)))
			binom.Quo(binom, big.NewInt(int64(j)))
		}
		if j%2 == 0 {
			b.Set(d[j])
		} else {
			b.Mul(d[j-1], d[j+1])
			b.Sqrt(b)
		}
		m.Mul(four, b)
		term.Mul(two, t[j])
		if term.Cmp(m) < 0 {
			m.Set(term)
		}
		term.SetInt(binom)
		term.Mul(term, qj)
		term.Mul(term, m)
		sum.Add(sum, term)
	}
	return log1pF(sum, wp)
}

// gaussDiffs returns, for the Gaussian with noise sigma, the forward
// differences D(j) = sum_i C(j,i) (-1)^(j-i) T(i) for even j in [2, n] and
// the moments T(j) = e^(c j(j-1)), c = 1/(2 sigma^2), for j in [0, n], each
// with relative error at most 2^-wp (other entries of d are nil).
//
// Proof of the precision. Work at p bits, u = 2^-p, x = 1/sigma^2 (so
// T(i) = T(i-1) e^(x(i-1))). x is rounded once (u) and e^x is within an
// ulp (expF carries its own guard bits), so e^x is within (x+3)u; the
// products G(k) = e^(xk) = G(k-1) e^x are within k(x+4)u and T(i) = T(i-1)
// G(i-1) within i^2 (x+4)u; the binomial and the product add 2u, and the j
// additions at most j u times the partial sums, each at most S(j) = sum_i
// C(j,i) T(i). So |computed D(j) - D(j)| <= E(j) = 1.1 S(j) u (j^2 (x+4) +
// j + 2) (first order, the 1.1 covering the rest while j^2 (x+4) u < 2^-10,
// which p ensures). S(j) is summed alongside. D(j) is accepted when E(j) <=
// 2^-(wp+4) (computed D(j) - E(j)); otherwise its needed p is derived from
// a proven lower bound L on D(j), computed D(j) - E(j) where that exceeds
// E(j), else Lyapunov's (e^x - 1)^(j/2), and everything is recomputed at the
// largest need. With that L the bound holds by construction, so a second
// pass always succeeds; a third is an error, never a silent value.
func gaussDiffs(sigma float64, n int, wp uint) (d, t []*big.Float, err error) {
	xf := 1 / (sigma * sigma)
	logFac := func(j int) float64 {
		fj := float64(j)
		return math.Log2(1.1 * (fj*fj*(xf*(1+1e-10)+4) + fj + 2))
	}
	lyapunov := func(j int) float64 { // log2 of a lower bound on D(j)
		return float64(j)/2*math.Log2(math.Expm1(xf)) - 1
	}
	p := wp + 16 + uint(math.Ceil(logFac(n)))
	for pass := 0; pass < 3; pass++ {
		d, t = make([]*big.Float, n+1), make([]*big.Float, n+1)
		s2 := newF(2*64+2).Mul(fl(sigma, 64), fl(sigma, 64)) // exact
		x := newF(p).Quo(intF(1, p), s2)
		ex := expF(x, p)
		T := make([]*big.Float, n+1)
		T[0], T[1] = intF(1, p), intF(1, p)
		g := newF(p).Set(ex)
		for i := 2; i <= n; i++ {
			T[i] = newF(p).Mul(T[i-1], g)
			g.Mul(g, ex)
		}
		need := make([]float64, n+1)
		err := parallel(n/2, func(k int) error {
			j := 2 * (k + 1)
			row := binomialRow(j)
			acc, abs, tm := newF(p), newF(p), newF(p)
			for i := 0; i <= j; i++ {
				tm.SetInt(row[i])
				tm.Mul(tm, T[i])
				if i%2 == 1 {
					acc.Sub(acc, tm)
				} else {
					acc.Add(acc, tm)
				}
				abs.Add(abs, tm)
			}
			log2S := float64(abs.MantExp(nil)) // S < 2^e
			log2E := log2S + logFac(j) - float64(p)
			log2D := math.Inf(-1)
			if acc.Sign() > 0 {
				log2D = float64(acc.MantExp(nil) - 1) // D >= 2^(e-1)
			}
			if log2E <= log2D-float64(wp)-5 {
				d[j] = newF(wp).Set(acc)
				return nil
			}
			lower := lyapunov(j)
			if log2D > log2E+1 {
				lower = max(lower, log2D-1) // D - E >= D/2
			}
			need[j] = float64(wp) + 8 + log2S + logFac(j) - lower
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		top := 0.0
		for _, v := range need {
			top = max(top, v)
		}
		if top == 0 {
			for i := range T {
				t[i] = newF(wp).Set(T[i])
			}
			return d, t, nil
		}
		if top > 1<<22 {
			return nil, nil, fmt.Errorf("%w: WORGaussian's differences need %g bits", ErrTooLarge, top)
		}
		p = uint(math.Ceil(top)) + 8
	}
	return nil, nil, fmt.Errorf("%w: WORGaussian's forward differences not proven after raising the precision", ErrPrecision)
}

// binomialRow returns C(j, i) for i = 0..j, exactly.
func binomialRow(j int) []*big.Int {
	row := make([]*big.Int, j+1)
	row[0] = big.NewInt(1)
	for i := 1; i <= j; i++ {
		row[i] = new(big.Int).Mul(row[i-1], big.NewInt(int64(j-i+1)))
		row[i].Quo(row[i], big.NewInt(int64(i)))
	}
	return row
}

// WORBound returns the general upper bound of WBK19, Theorem 9, on the RDP
// of a base mechanism with RDP curve base applied to a subset drawn without
// replacement with ratio q, replace-one neighbours (what autodp's
// AmplificationBySampling evaluates by default). For integer alpha >= 2 it
// is (1/(alpha-1)) log A with
//
//	A = 1 + q^2 C(alpha,2) min(4 (e^(eps(2))-1), e^(eps(2)) min(2, (e^(eps(Inf))-1)^2))
//	      + sum_{j=3..alpha} q^j C(alpha,j) e^((j-1) eps(j)) min(2, (e^(eps(Inf))-1)^j),
//
// eps being base (base.Inf = +Inf where the mechanism has no pure-DP bound:
// the minima are then 4 (e^(eps(2))-1) or 2 e^(eps(2)), and 2). Fractional
// orders interpolate log A as WORGaussian does (Corollary 10).
//
// Special cases are:
//
//	WORBound(q=0, alpha, base) = 0
//	WORBound(q, alpha, base) = 0 if base.Inf = 0, or alpha <= 2 and eps(2) = 0
//	WORBound(q=1, alpha, base) = base at integer alpha; the Corollary 10 interpolation of (alpha-1) eps(alpha) otherwise
//	WORBound(q, alpha=+Inf, base) = +Inf for q > 0
//	WORBound(q, alpha, base) = +Inf for q > 0 if an entry of base up to ceil(alpha) is +Inf
//	WORBound(q, alpha, base) = error wrapping ErrTooLarge for alpha > rdpcheck.MaxWOROrder,
//	    or (j-1) eps(j) > rdpcheck.MaxWORExponent for some j <= ceil(alpha), 0 < q < 1
//	WORBound(q, alpha, base) = error for q outside [0, 1], alpha < 1, any NaN, a base without
//	    the orders 2..ceil(alpha), negative entries, or a finite base.Inf below an entry
//
// Slices: base.Eps is only read.
func (c Context) WORBound(q, alpha float64, base rdpcheck.BaseCurve) (*big.Float, error) {
	const fn = "WORBound"
	if math.IsNaN(q) || q < 0 || q > 1 {
		return nil, inputErr(fn, "q", q, "must be in [0, 1]")
	}
	if err := checkWOROrder(fn, alpha); err != nil {
		return nil, err
	}
	if err := checkBase(fn, alpha, base); err != nil {
		return nil, err
	}
	p := c.prec()
	switch {
	case q == 0:
		return newF(p), nil
	case math.IsInf(alpha, 1):
		return newF(p).SetInf(false), nil
	}
	top := max(2, int(math.Ceil(alpha)))
	// Every term of A vanishes (decided exactly: ziv cannot confirm a zero).
	if base.Inf == 0 || (top == 2 && base.Eps[0] == 0) {
		return newF(p), nil
	}
	for _, e := range base.Eps[:top-1] {
		if math.IsInf(e, 1) {
			return newF(p).SetInf(false), nil
		}
	}
	if err := checkBaseExponent(fn, q, top, base); err != nil {
		return nil, err
	}
	return ziv(p, func(wp uint) (*big.Float, error) {
		logA := func(a int) *big.Float {
			if q == 1 { // A = e^((a-1) eps(a)): the base itself
				return newF(wp).Mul(intF(int64(a-1), wp), fl(base.Eps[a-2], wp))
			}
			return worBoundLogA(q, a, base, wp)
		}
		return interpolateLogA(alpha, logA, wp), nil
	})
}

// checkBaseExponent refuses, for 0 < q < 1, a base whose moments
// e^((j-1) eps(j)) leave big.Float's range: (j-1) eps(j) > rdpcheck.MaxWORExponent
// (the same float64 test as package fast's).
func checkBaseExponent(fn string, q float64, top int, base rdpcheck.BaseCurve) error {
	if q <= 0 || q >= 1 {
		return nil
	}
	for j := 2; j <= top; j++ {
		if float64(j-1)*base.Eps[j-2] > rdpcheck.MaxWORExponent {
			return fmt.Errorf("reference.%s: (j-1) eps(j) at order %d: %w (beyond rdpcheck.MaxWORExponent)", fn, j, ErrTooLarge)
		}
	}
	return nil
}

func checkBase(fn string, alpha float64, base rdpcheck.BaseCurve) error {
	if math.IsNaN(base.Inf) || base.Inf < 0 {
		return inputErr(fn, "base.Inf", base.Inf, "must be >= 0 (or +Inf where unknown)")
	}
	top := 2
	if !math.IsInf(alpha, 1) {
		top = max(2, int(math.Ceil(alpha)))
	}
	if len(base.Eps) < top-1 {
		return inputErr(fn, "base.Eps", float64(len(base.Eps)), fmt.Sprintf("must hold the orders 2..%d (%d entries)", top, top-1))
	}
	for k, e := range base.Eps {
		if math.IsNaN(e) || e < 0 {
			return inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), e, "must be >= 0 (or +Inf)")
		}
		if e > base.Inf {
			return inputErr(fn, fmt.Sprintf("base.Eps[%d]", k), e, "must not exceed base.Inf (RDP is non-decreasing in the order)")
		}
	}
	return nil
}

// worBoundLogA returns log A of Theorem 9 at integer order a >= 2.
func worBoundLogA(q float64, a int, base rdpcheck.BaseCurve, wp uint) *big.Float {
	Q := fl(q, wp)
	two := intF(2, wp)
	pure := newF(wp).SetInf(false) // e^(eps(Inf)) - 1
	if !math.IsInf(base.Inf, 1) {
		pure = expm1F(fl(base.Inf, wp), wp)
	}
	pj := newF(wp).Mul(pure, pure) // (e^(eps(Inf))-1)^j
	qj := newF(wp).Mul(Q, Q)
	binom := big.NewInt(int64(a) * int64(a-1) / 2)
	// j = 2
	e2 := fl(base.Eps[0], wp)
	m := expm1F(e2, wp)
	m.Mul(m, intF(4, wp))
	alt := newF(wp).Set(two)
	if pj.Cmp(alt) < 0 {
		alt.Set(pj)
	}
	alt.Mul(alt, expF(e2, wp))
	if alt.Cmp(m) < 0 {
		m.Set(alt)
	}
	sum := newF(wp).SetInt(binom)
	sum.Mul(sum, qj)
	sum.Mul(sum, m)
	term := newF(wp)
	for j := 3; j <= a; j++ {
		qj.Mul(qj, Q)
		pj.Mul(pj, pure)
		binom.Mul(binom, big.NewInt(int64(a-j+1)))
		binom.Quo(binom, big.NewInt(int64(j)))
		f := newF(wp).Set(two)
		if pj.Cmp(f) < 0 {
			f.Set(pj)
		}
		ex := newF(wp).Mul(intF(int64(j-1), wp), fl(base.Eps[j-2], wp))
		f.Mul(f, expF(ex, wp))
		term.SetInt(binom)
		term.Mul(term, qj)
		term.Mul(term, f)
		sum.Add(sum, term)
	}
	return log1pF(sum, wp)
}

// WORGaussian is Context{}.WORGaussian at DefaultPrec.
func WORGaussian(q, sigma, alpha float64) (*big.Float, error) {
	return Context{}.WORGaussian(q, sigma, alpha)
}

// WORGaussianCurve is Context{}.WORGaussianCurve at DefaultPrec.
//
// Slices: orders is only read; the slice returned and its values are new.
func WORGaussianCurve(q, sigma float64, steps int, orders []float64) ([]*big.Float, error) {
	return Context{}.WORGaussianCurve(q, sigma, steps, orders)
}

// WORBound is Context{}.WORBound at DefaultPrec.
//
// Slices: base.Eps is only read.
func WORBound(q, alpha float64, base rdpcheck.BaseCurve) (*big.Float, error) {
	return Context{}.WORBound(q, alpha, base)
}
