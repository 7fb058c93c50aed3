package laws

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// A mutant is a deliberately broken implementation and the law that must
// catch it: TestMutantsCaught requires rapid to find a counterexample that
// fails that law (its "law NAME:" message, not an error or a panic).
type mutant struct {
	law, name string
	make      func() *Impl
}

// withFast and withRef derive a mutant from a correct implementation.
// Some Divergence mutants break the reference (its Divergence costs
// ~0.1 ms): they date from when fast's Divergence below order 1 was a
// known bug, and a law catches a broken reference as well as a broken fast.
func withFast(f func(im *Impl)) func() *Impl {
	return func() *Impl { im := Fast(); f(im); return im }
}

func withRef(f func(im *Impl)) func() *Impl {
	return func() *Impl { im := Reference(64); f(im); return im }
}

type divFunc = func(p, q []float64, a float64) (float64, error)

var mutants = []mutant{
	{"monotone-alpha", "SGM evaluated at alpha-1 for fractional orders (off by one in the order)", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			if a != math.Trunc(a) && a > 2 && !math.IsInf(a, 1) {
				a--
			}
			return sgm(q, s, a)
		}
	})},
	{"monotone-alpha", "Divergence with a sign error, 1/(1-alpha)", withFast(func(im *Impl) {
		im.Divergence = scaleDiv(im.Divergence, func(a float64) float64 { return -1 })
	})},
	{"log-moment-convex", "Divergence missing its 1/(alpha-1)", withRef(func(im *Impl) {
		im.Divergence = scaleDiv(im.Divergence, func(a float64) float64 {
			if math.IsInf(a, 1) {
				return 1
			}
			return a - 1
		})
	})},
	{"log-moment-convex", "Laplace divided by alpha-1 twice", withFast(func(im *Impl) {
		im.Laplace = func(b, a float64) (float64, error) {
			v, err := fast.Laplace(b, a)
			if a > 1 && !math.IsInf(a, 1) {
				v /= a - 1
			}
			return v, err
		}
	})},
	{"product-additive", "Divergence dropping the last term of its sum", withRef(func(im *Impl) {
		im.Divergence = dropLastTerm(im.Divergence)
	})},
	{"sgm-steps-additive", "SGMCurve forgetting one of its steps", withFast(func(im *Impl) {
		curve := im.SGMCurve
		im.SGMCurve = func(q, s float64, steps int, orders, out []float64) error {
			err := curve(q, s, steps, orders, out)
			for i := range out {
				out[i] *= float64(steps-1) / float64(steps)
			}
			return err
		}
	})},
	{"accountant", "ComposeSGM forgetting one of its steps", withFast(func(im *Impl) {
		im.NewAccountant = func(orders []float64) Accountant { return forgetStep{fastAccountant{&fast.Accountant{Orders: orders}}} }
	})},
	{"accountant", "accountant keeping only the last event (overwrites instead of adding)", withFast(func(im *Impl) {
		im.NewAccountant = func(orders []float64) Accountant { return &lastOnly{orders: orders, cur: newFastAcc(orders)} }
	})},
	{"data-processing", "Divergence with a sign error, 1/(1-alpha), against data processing", withFast(func(im *Impl) {
		im.Divergence = scaleDiv(im.Divergence, func(a float64) float64 { return -1 })
	})},
	{"binned-sgm", "SGM whose binomial sum drops its k = 2 term (integer orders)", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			if a == math.Trunc(a) && q > 0 && q < 1 && a <= 1e4 {
				return sgmIntegerFrom3(q, s, int(a)), nil
			}
			return sgm(q, s, a)
		}
	})},
	{"gaussian-line", "GaussianDivergence forgetting alpha in the mean term", withFast(func(im *Impl) {
		gd := im.GaussianDivergence
		im.GaussianDivergence = func(m1, s1, m2, s2, a float64) (float64, error) {
			if a > 0 {
				a = 1
			}
			return gd(m1, s1, m2, s2, a)
		}
	})},
	{"gaussian-line", "SGM's q = 1 shortcut using alpha-1", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			if q == 1 {
				return (a - 1) / (2 * s * s), nil
			}
			return sgm(q, s, a)
		}
	})},
	{"monotone-q-sigma", "SGM with the sampling rate 1-q", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) { return sgm(1-q, s, a) }
	})},
	{"monotone-q-sigma", "SGM missing its log: (I-1)/(alpha-1)", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			v, err := sgm(q, s, a)
			return math.Expm1((a-1)*v) / (a - 1), err
		}
	})},
	{"bad-outcomes", "Divergence normalised by 1/alpha instead of 1/(alpha-1)", withFast(func(im *Impl) {
		im.Divergence = scaleDiv(im.Divergence, func(a float64) float64 {
			if math.IsInf(a, 1) || a == 0 {
				return 1
			}
			return (a - 1) / a
		})
	})},
	{"limits", "KL and D_inf with their arguments swapped", withRef(func(im *Impl) {
		div := im.Divergence
		im.Divergence = func(p, q []float64, a float64) (float64, error) {
			if a == 1 || math.IsInf(a, 1) {
				return div(q, p, a)
			}
			return div(p, q, a)
		}
	})},
	{"limits", "Divergence below order 1 normalised by 1/alpha instead of 1/(alpha-1)", withRef(func(im *Impl) {
		im.Divergence = scaleDiv(im.Divergence, func(a float64) float64 {
			if a > 0 && a < 1 {
				return (a - 1) / a
			}
			return 1
		})
	})},
	{"conversions", "classic conversion with the sign of log(delta) flipped", withFast(func(im *Impl) {
		eps := im.Epsilon
		im.Epsilon = func(orders, rdp []float64, delta float64, conv Conversion) (float64, float64, error) {
			if conv != Classic {
				return eps(orders, rdp, delta, conv)
			}
			return minOver(orders, rdp, func(a, r float64) float64 { return r + math.Log(delta)/(a-1) })
		}
	})},
	{"conversions", "improved conversion with the sign of log1p(-1/alpha) flipped", withFast(func(im *Impl) {
		eps := im.Epsilon
		im.Epsilon = func(orders, rdp []float64, delta float64, conv Conversion) (float64, float64, error) {
			if conv != Improved {
				return eps(orders, rdp, delta, conv)
			}
			e, o, err := minOver(orders, rdp, func(a, r float64) float64 {
				return r - math.Log1p(-1/a) - (math.Log(delta)+math.Log(a))/(a-1)
			})
			return math.Max(e, 0), o, err
		}
	})},
	{"conversions", "Delta with a sign error: exp((alpha-1)(rdp+eps))", withFast(func(im *Impl) {
		im.Delta = func(orders, rdp []float64, eps float64, conv Conversion) (float64, float64, error) {
			d, o, err := minOver(orders, rdp, func(a, r float64) float64 { return math.Exp((a - 1) * (r + eps)) })
			return math.Min(d, 1), o, err
		}
	})},
	{"agreement", "SGM rounded down by 1e-11 relative", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			v, err := sgm(q, s, a)
			return v * (1 - 1e-11), err
		}
	})},
	{"agreement", "SGM 1e-11 relative above the exact value (outside the 1e-12 promise)", withFast(func(im *Impl) {
		sgm := im.SGM
		im.SGM = func(q, s, a float64) (float64, error) {
			v, err := sgm(q, s, a)
			return v * (1 + 1e-11), err
		}
	})},
	{"sampled-limits", "SampledLaplace with q and 1-q swapped", withFast(func(im *Impl) {
		im.SampledLaplace = func(q, b, a float64) (float64, error) { return fast.SampledLaplace(1-q, b, a) }
	})},
	{"sampled-monotone", "SampledLaplace divided by alpha (a CGF mistaken for the RDP the other way)", withFast(func(im *Impl) {
		im.SampledLaplace = func(q, b, a float64) (float64, error) {
			v, err := fast.SampledLaplace(q, b, a)
			return v / a, err
		}
	})},
	{"sampled-below-bound", "SampledLaplace 0.1% high", withFast(func(im *Impl) {
		im.SampledLaplace = func(q, b, a float64) (float64, error) {
			v, err := fast.SampledLaplace(q, b, a)
			return v * 1.001, err
		}
	})},
	{"sampled-binning", "SampledLaplace 5% low", withFast(func(im *Impl) {
		im.SampledLaplace = func(q, b, a float64) (float64, error) {
			v, err := fast.SampledLaplace(q, b, a)
			return v * 0.95, err
		}
	})},
	{"sampled-binned-sgm", "SampledDivergence 20% high", withFast(func(im *Impl) {
		im.SampledDivergence = func(q float64, p, qd []float64, a float64) (float64, error) {
			v, err := fast.SampledDivergence(q, p, qd, a)
			return v * 1.2, err
		}
	})},
	// the events of dp_accounting's other classes
	{"events", "KaryRandomizedResponse with its noise 0.1% low", withFast(func(im *Impl) {
		krr := im.KaryRandomizedResponse
		im.KaryRandomizedResponse = func(n, k float64, rel string, a float64) (float64, error) { return krr(n*0.999, k, rel, a) }
	})},
	{"events", "KaryRandomizedResponse increasing in noise (1 - noise used)", withFast(func(im *Impl) {
		krr := im.KaryRandomizedResponse
		im.KaryRandomizedResponse = func(n, k float64, rel string, a float64) (float64, error) {
			if rel == fast.ReplaceSpecial {
				return krr(1-n, k, rel, a)
			}
			return krr(n, k, rel, a)
		}
	})},
	{"events", "PureDP as the looser min(eps, alpha eps^2/2) (rdpcheck's curve once)", withFast(func(im *Impl) {
		im.PureDP = func(e, a float64) (float64, error) {
			if e == 0 {
				return 0, nil
			}
			return math.Min(e, a*e*e/2), nil
		}
	})},
	{"events", "ZCDP dropping xi", withFast(func(im *Impl) {
		im.ZCDP = func(rho, xi, a float64) (float64, error) { return fast.ZCDP(rho, 0, a) }
	})},
	{"events", "ExponentialMechanism without its cap at eps", withFast(func(im *Impl) {
		im.ExponentialMechanism = func(e, a float64) (float64, error) {
			v, err := fast.ExponentialMechanism(e, a)
			if err == nil && v == e && e > 0 && !math.IsInf(a, 1) {
				return e * a, nil
			}
			return v, err
		}
	})},
	{"events", "ExponentialMechanism with slope eps^2/4", withFast(func(im *Impl) {
		im.ExponentialMechanism = func(e, a float64) (float64, error) {
			v, err := fast.ExponentialMechanism(e, a)
			if err != nil || math.IsInf(a, 1) {
				return v, err
			}
			return math.Min(v+e*e*(a-1)/8, e), nil
		}
	})},
	{"events", "GroupPrivacy scaling by 2^c instead of 3^c", withFast(func(im *Impl) {
		im.GroupPrivacy = func(orders, rdp []float64, c int, a float64) (float64, error) {
			v, err := fast.GroupPrivacy(orders, rdp, c, a)
			if err != nil || math.IsInf(a, 1) || c == 0 {
				return v, err
			}
			return v / math.Pow(1.5, float64(c)), nil
		}
	})},
	{"zcdp-tight", "RAPPORZCDP as eps/2 tanh(eps/4) (one bit, not two)", withFast(func(im *Impl) {
		im.RAPPORZCDP = func(e float64) (float64, error) {
			v, err := fast.RAPPORZCDP(e)
			return v / 2, err
		}
	})},
	{"zcdp-tight", "LaplaceZCDP as Bun-Steinke's eps^2/2", withFast(func(im *Impl) {
		im.LaplaceZCDP = func(e float64) (float64, error) { return e * e / 2, nil }
	})},
	{"zcdp-tight", "BoundedRangeZCDP as Cesar-Rogers' eps^2/8", withFast(func(im *Impl) {
		im.BoundedRangeZCDP = func(e float64) (float64, error) { return e * e / 8, nil }
	})},
	// the discrete Gaussian, tree aggregation, repeat-and-select
	{"dgauss-tree-repeat", "DiscreteGaussian 0.1% above its value (above the zCDP line)", withFast(func(im *Impl) {
		im.DiscreteGaussian = func(s, d, a float64) (float64, error) {
			v, err := fast.DiscreteGaussian(s, d, a)
			return v * 1.001, err
		}
	})},
	{"dgauss-tree-repeat", "DiscreteGaussian below the line at integer orders (theta ratio taken at f = 1/2)", withFast(func(im *Impl) {
		im.DiscreteGaussian = func(s, d, a float64) (float64, error) {
			v, err := fast.DiscreteGaussian(s, d, a)
			if err == nil && a == math.Trunc(a) && !math.IsInf(a, 1) {
				return fast.DiscreteGaussian(s, d, a+0.5/d)
			}
			return v, err
		}
	})},
	{"dgauss-tree-repeat", "TreeAggregation with depth ceil(log2(max steps)) (off by one at powers of 2)", withFast(func(im *Impl) {
		im.TreeAggregation = func(s float64, steps []int, r rdpcheck.TreeRestarts, a float64) (float64, error) {
			st := append([]int(nil), steps...)
			for i := range st {
				if st[i] > 0 && st[i]&(st[i]-1) == 0 {
					st[i]--
				}
			}
			return fast.TreeAggregation(s, st, r, a)
		}
	})},
	{"dgauss-tree-repeat", "TreeMultiParticipation ignoring the separation", withFast(func(im *Impl) {
		im.TreeMultiParticipation = func(sigma float64, n, m, s int, a float64) (float64, error) {
			return fast.TreeMultiParticipation(sigma, n, m, 0, a)
		}
	})},
	{"dgauss-tree-repeat", "RepeatAndSelect decreasing in the mean (1 + 1/mean used)", withFast(func(im *Impl) {
		im.RepeatAndSelect = func(orders, curve []float64, mean, shape, a float64) (float64, error) {
			return fast.RepeatAndSelect(orders, curve, 1+1/mean, shape, a)
		}
	})},
}

// scaleDiv multiplies every finite divergence by f(alpha).
func scaleDiv(div divFunc, f func(a float64) float64) divFunc {
	return func(p, q []float64, a float64) (float64, error) {
		v, err := div(p, q, a)
		if err != nil || math.IsInf(v, 0) || v == 0 {
			return v, err
		}
		return v * f(a), nil
	}
}

// dropLastTerm is a Divergence whose sum over outcomes stops one short:
// log(sum_i p^a q^(1-a) - p_n^a q_n^(1-a))/(a-1), rebuilt from the correct
// value (kept finite and non-NaN so that only the law can catch it).
func dropLastTerm(div divFunc) divFunc {
	return func(p, q []float64, a float64) (float64, error) {
		v, err := div(p, q, a)
		if err != nil || a == 0 || a == 1 || math.IsInf(a, 1) || math.IsInf(v, 0) {
			return v, err
		}
		n := len(p) - 1
		last := 0.0
		if p[n] > 0 && q[n] > 0 {
			last = math.Pow(p[n], a) * math.Pow(q[n], 1-a)
		}
		s := math.Exp((a-1)*v) - last
		if s <= 0 {
			return 0, nil
		}
		return math.Abs(math.Log(s) / (a - 1)), nil
	}
}

// sgmIntegerFrom3 is the binomial sum for an integer order n with its k = 2
// term missing: log(1 + sum_{k=3..n} C(n,k) (1-q)^(n-k) q^k
// expm1((k^2-k)/(2 s^2)))/(n-1), summed in log space.
func sgmIntegerFrom3(q, s float64, n int) float64 {
	var xs []float64
	lC := 0.0
	for k := 1; k <= n; k++ {
		lC += math.Log(float64(n-k+1)) - math.Log(float64(k))
		if k < 3 {
			continue
		}
		c := float64(k*k-k) / (2 * s * s)
		le := c
		if c < 40 {
			le = math.Log(math.Expm1(c))
		}
		xs = append(xs, lC+float64(n-k)*math.Log1p(-q)+float64(k)*math.Log(q)+le)
	}
	if len(xs) == 0 {
		return 0
	}
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	var sum float64
	for _, x := range xs {
		sum += math.Exp(x - m)
	}
	l := m + math.Log(sum)
	if l > 36 {
		return (l + math.Exp(-l)) / float64(n-1)
	}
	return math.Log1p(math.Exp(l)) / float64(n-1)
}

// minOver is min_i f(orders[i], rdp[i]) and the order attaining it.
func minOver(orders, rdp []float64, f func(a, r float64) float64) (float64, float64, error) {
	best, order := math.Inf(1), orders[0]
	for i, a := range orders {
		var v float64
		switch {
		case math.IsInf(rdp[i], 1):
			v = rdp[i]
		case math.IsInf(a, 1):
			v = rdp[i]
		default:
			v = f(a, rdp[i])
		}
		if v < best {
			best, order = v, a
		}
	}
	return best, order, nil
}

// forgetStep composes steps-1 steps of the sampled Gaussian.
type forgetStep struct{ fastAccountant }

func (a forgetStep) ComposeSGM(q, s float64, steps int) error {
	if steps <= 0 {
		return a.fastAccountant.ComposeSGM(q, s, steps)
	}
	if steps == 1 {
		_, err := fast.SGM(q, s, 2) // still refuses bad q and sigma
		return err
	}
	return a.fastAccountant.ComposeSGM(q, s, steps-1)
}

func newFastAcc(orders []float64) fastAccountant {
	return fastAccountant{&fast.Accountant{Orders: orders}}
}

// lastOnly starts a fresh accountant for every event, so it holds only the last.
type lastOnly struct {
	orders []float64
	cur    fastAccountant
}

func (l *lastOnly) fresh(f func(a fastAccountant) error) error {
	next := newFastAcc(l.orders)
	if err := f(next); err != nil {
		return err
	}
	l.cur = next
	return nil
}

func (l *lastOnly) ComposeSGM(q, s float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeSGM(q, s, n) })
}
func (l *lastOnly) ComposeGaussian(s float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeGaussian(s, n) })
}
func (l *lastOnly) ComposeLaplace(b float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeLaplace(b, n) })
}
func (l *lastOnly) ComposeRandomizedResponse(p float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeRandomizedResponse(p, n) })
}
func (l *lastOnly) ComposeZCDP(rho float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeZCDP(rho, n) })
}
func (l *lastOnly) ComposePureDP(eps float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposePureDP(eps, n) })
}
func (l *lastOnly) ComposeKaryRandomizedResponse(noise, k float64, rel string, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeKaryRandomizedResponse(noise, k, rel, n) })
}
func (l *lastOnly) ComposeExponentialMechanism(eps float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeExponentialMechanism(eps, n) })
}
func (l *lastOnly) ComposeZCDPXi(rho, xi float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeZCDPXi(rho, xi, n) })
}
func (l *lastOnly) ComposeEpsilonDelta(eps, delta float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeEpsilonDelta(eps, delta, n) })
}
func (l *lastOnly) ComposeDiscreteGaussian(sigma, d float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeDiscreteGaussian(sigma, d, n) })
}
func (l *lastOnly) ComposeTreeAggregation(sigma float64, steps []int, r rdpcheck.TreeRestarts, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeTreeAggregation(sigma, steps, r, n) })
}
func (l *lastOnly) ComposeTreeMultiParticipation(sigma float64, total, m, sep, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeTreeMultiParticipation(sigma, total, m, sep, n) })
}
func (l *lastOnly) ComposeRepeatAndSelect(orders, curve []float64, mean, shape float64, n int) error {
	return l.fresh(func(a fastAccountant) error { return a.ComposeRepeatAndSelect(orders, curve, mean, shape, n) })
}
func (l *lastOnly) Curve() []float64 { return l.cur.Curve() }
func (l *lastOnly) Epsilon(delta float64, conv Conversion) (float64, float64, error) {
	return l.cur.Epsilon(delta, conv)
}

// fakeTB is a rapid.TB that records a failure instead of failing the test,
// so that a test can require rapid.Check to fail.
type fakeTB struct {
	name   string
	failed bool
	out    strings.Builder
}

func (f *fakeTB) Helper()                      {}
func (f *fakeTB) Name() string                 { return f.name }
func (f *fakeTB) Logf(format string, a ...any) { fmt.Fprintf(&f.out, format+"\n", a...) }
func (f *fakeTB) Log(a ...any)                 { fmt.Fprintln(&f.out, a...) }
func (f *fakeTB) Skipf(format string, a ...any) {
	f.Logf("skip: "+format, a...)
}
func (f *fakeTB) Skip(a ...any)                  { f.Log(append([]any{"skip:"}, a...)...) }
func (f *fakeTB) SkipNow()                       { f.Log("skip") }
func (f *fakeTB) Errorf(format string, a ...any) { f.failed = true; f.Logf(format, a...) }
func (f *fakeTB) Error(a ...any)                 { f.failed = true; f.Log(a...) }
func (f *fakeTB) Fatalf(format string, a ...any) { f.Errorf(format, a...) }
func (f *fakeTB) Fatal(a ...any)                 { f.Error(a...) }
func (f *fakeTB) FailNow()                       { f.failed = true }
func (f *fakeTB) Fail()                          { f.failed = true }
func (f *fakeTB) Failed() bool                   { return f.failed }

// TestMutantsCaught shows that every law can fail: each broken
// implementation above must be caught by its law. Rapid saves each
// counterexample under testdata/rapid/TestMutantsCaught_*, and replays it
// first on the next run.
func TestMutantsCaught(t *testing.T) {
	caught := map[string]int{}
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			im := m.make()
			var law func(*rapid.T)
			for _, l := range im.Laws() {
				if l.Name == m.law {
					law = l.Check
				}
			}
			if law == nil {
				t.Fatalf("no law %q", m.law)
			}
			ft := &fakeTB{name: t.Name()}
			// Up to 5000 draws (rapid stops at the first counterexample)
			// and a short shrink: the broken implementations are cheap.
			withRapidFlags(map[string]string{"rapid.checks": "5000", "rapid.shrinktime": "5s"}, func() {
				rapid.Check(ft, law)
			})
			out := ft.out.String()
			switch {
			case !ft.failed:
				t.Errorf("law %s did not catch %q", m.law, m.name)
			case !strings.Contains(out, "[rapid] failed") || !strings.Contains(out, "law "+m.law+":"):
				t.Errorf("law %s did not catch %q through the law itself:\n%s", m.law, m.name, out)
			default:
				caught[m.law]++
				i := strings.Index(out, "law "+m.law+":")
				msg := out[i:]
				if j := strings.IndexByte(msg, '\n'); j >= 0 {
					msg = msg[:j]
				}
				t.Logf("caught: %s", msg)
			}
		})
	}
	for _, l := range Fast().Laws() {
		if caught[l.Name] == 0 {
			t.Errorf("law %s caught no broken implementation", l.Name)
		}
	}
}
