// Package vectorstest runs rdpcheck's test vectors against a Go
// implementation from its own `go test`, in the style of testing/fstest:
//
//	func TestVectors(t *testing.T) {
//		vectorstest.Run(t, vectorstest.Impl{SGM: mypkg.SGM, Gaussian: mypkg.Gaussian})
//	}
//
// The implementation hands over the functions it has; every group of every
// embedded vector file runs as a subtest named file/group, and is judged as
// `rdpcheck score` judges it (package vectors/score): each value within the
// group's relative tolerance of the exact expected value, valid inputs
// accepted, invalid inputs rejected (any non-nil error). A failing group
// names its tolerance and its worst tcIds with their inputs. A group whose
// function was not handed over is skipped, saying which function it needs;
// a group whose every answer is ErrUnsupported fails, as the scorer fails
// answers that answer nothing (some unsupported answers among graded ones
// are not failures). Score grades the same answers outside a test, as one
// report.
//
// The functions have package fast's signatures (Impl's doc), so that fast
// is handed over field by field, and Impl is also the table of functions
// of rdpcheck's own law tests (package laws embeds it): the
// functions the laws exercise and the ones the vectors ask for are one
// declaration. This changed from the first release, where Impl's
// functions took the vector files' strings: SGMCurve now writes steps *
// SGM at each of orders into out, as fast.SGMCurve does (it took one alpha
// and returned the value); Epsilon and Delta take an rdpcheck.Conversion and
// also return the order used (they took "classic" or "improved" and
// returned the value); DPSGDEpsilon takes an rdpcheck.Conversion;
// TreeAggregation takes an rdpcheck.TreeRestarts (it took "one-tree" or
// "every-tree"); WORBound takes an rdpcheck.BaseCurve (it took base and baseInf
// apart). A name the vector file gives that rdp does not know (an
// invalid-input test's "all-trees") is handed over as a value whose Valid
// method is false: the implementation rejects it.
package vectorstest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

// Impl holds the functions an implementation offers, by the names of the
// vector files' functions (see vectors/README.md for each one's meaning).
// A nil field is a function not offered: its groups are skipped. An error
// return is a rejected input. The signatures are package fast's, with
// package rdpcheck's types for conversions, tree readings and base curves; an
// implementation that lacks a conversion returns ErrUnsupported for it.
// The order Epsilon and Delta return is not graded (the vector files'
// expectedOrder is informative).
//
// Every slice a function is given is its own, new for each call: it may
// change or keep it, and nothing Run reads or reports changes with it.
// Each call runs on a goroutine of its own (so that a hang can be timed
// out), one at a time; a call that hangs keeps running while the next
// ones are made, so the functions must be safe for concurrent use if they
// can hang.
type Impl struct {
	SGM                func(q, sigma, alpha float64) (float64, error)
	SGMCurve           func(q, sigma float64, steps int, orders, out []float64) error // steps * SGM at each order
	Gaussian           func(sigma, alpha float64) (float64, error)
	Laplace            func(b, alpha float64) (float64, error)
	RandomizedResponse func(p, alpha float64) (float64, error)
	GaussianDivergence func(mean1, sd1, mean2, sd2, alpha float64) (float64, error)
	Divergence         func(p, q []float64, alpha float64) (float64, error)
	Epsilon            func(orders, rdp []float64, delta float64, conv rdpcheck.Conversion) (eps, order float64, err error)
	Delta              func(orders, rdp []float64, eps float64, conv rdpcheck.Conversion) (delta, order float64, err error)
	DPSGDEpsilon       func(q, sigma float64, steps int, delta float64, orders []float64, conv rdpcheck.Conversion) (float64, error)
	SampledLaplace     func(q, b, alpha float64) (float64, error)
	SampledDivergence  func(q float64, p, pq []float64, alpha float64) (float64, error)
	WORGaussian        func(q, sigma, alpha float64) (float64, error)

	KaryRandomizedResponse func(noise, buckets float64, relation string, alpha float64) (float64, error)
	PureDP                 func(eps, alpha float64) (float64, error)
	ZCDP                   func(rho, xi, alpha float64) (float64, error)
	ExponentialMechanism   func(eps, alpha float64) (float64, error)
	GroupPrivacy           func(orders, rdp []float64, c int, alpha float64) (float64, error)

	// Tight zCDP parameters (zcdp_tight.json): rho, no order.
	LaplaceZCDP      func(eps float64) (float64, error)
	KaryRRZCDP       func(eps, buckets float64) (float64, error)
	RAPPORZCDP       func(eps float64) (float64, error)
	BoundedRangeZCDP func(eps float64) (float64, error)

	// dgauss_tree_repeat.json. TreeAggregation's restarts is
	// rdpcheck.TreeOneTree (dp_accounting's reading: a record in one tree) or
	// rdpcheck.TreeEveryTree (TF Privacy's compute_rdp_tree_restart).
	DiscreteGaussian       func(sigma, sensitivity, alpha float64) (float64, error)
	TreeAggregation        func(sigma float64, steps []int, restarts rdpcheck.TreeRestarts, alpha float64) (float64, error)
	TreeMultiParticipation func(sigma float64, steps, maxParticipation, minSeparation int, alpha float64) (float64, error)
	RepeatAndSelect        func(orders, rdp []float64, mean, shape, alpha float64) (float64, error)

	// The general subsampling bounds (sampled.json, wor.json): base[k]
	// (base.Eps[k]) is the base mechanism's RDP at order k+2, base.Inf its
	// RDP at +inf.
	PoissonBound func(q, alpha float64, base []float64) (float64, error)
	WORBound     func(q, alpha float64, base rdpcheck.BaseCurve) (float64, error)

	// The privacy profile of a run (profile.json), for an accountant of
	// any method (RDP, PLD, PRV, GDP): eps at delta, or delta at eps, of
	// the run of phases of the Poisson-subsampled Gaussian, add/remove
	// neighbours. Graded against certified intervals: below the lower
	// bound fails (unsound), above the upper bound passes as loose.
	ProfileEpsilon func(phases []Phase, delta float64) (float64, error)
	ProfileDelta   func(phases []Phase, eps float64) (float64, error)

	// Known, if set, names the tests a documented limitation of the
	// implementation fails: it returns why (else ""). Such tests are
	// graded apart: a failure is logged with the reason, not failed, and
	// one that passes is logged so that the entry can go.
	Known func(file string, g *schema.Group, t *schema.Test) string

	// Timeout bounds each call; a call still running then is a hang (the
	// group fails). Zero means 10 s; a negative one is an error.
	Timeout time.Duration

	// The privacy profile of a run given as a dp_accounting DpEvent
	// (event_profile.json), for an accountant of any method: event is
	// the DpEvent's JSON (its to_named_tuple() form, as dpevent.Decode
	// reads it; a new slice each call), relation dp_accounting's
	// NeighboringRelation name. Graded as ProfileEpsilon and
	// ProfileDelta; ErrUnsupported for an event the accountant cannot
	// express.
	EventEpsilon func(event []byte, relation string, delta float64) (float64, error)
	EventDelta   func(event []byte, relation string, eps float64) (float64, error)
}

// Phase is one phase of a run: Steps steps of the Poisson-subsampled
// Gaussian with sampling rate Q and noise multiplier Sigma.
type Phase = schema.RunPhase

// ErrUnsupported, returned (or wrapped) by a function, means it does not
// offer this case (a conversion it lacks, say): the answer is counted as
// unsupported, not as a failure; but a group whose every answer is
// unsupported fails, as nothing in it is graded.
var ErrUnsupported = errors.New("vectorstest: not supported")

// call is one function's adapter: the test's inputs in, the value out.
type call func(g *schema.Group, t *schema.Test) (float64, error)

// calls returns the adapter of every function the implementation offers.
func (m *Impl) calls() map[string]call {
	c := map[string]call{}
	f := func(t *schema.Test, name string) float64 {
		x, err := t.Float(name)
		if err != nil {
			panic(inputError{err})
		}
		return x
	}
	list := func(xs []string) []float64 {
		v, err := schema.ParseList(xs)
		if err != nil {
			panic(inputError{err})
		}
		return v
	}
	steps := func(t *schema.Test) int {
		if t.Steps == nil {
			panic(inputError{fmt.Errorf("tcId %d: no steps", t.TcID)})
		}
		return *t.Steps
	}
	orders := func(g *schema.Group, t *schema.Test) []float64 {
		return list(hexOr(g.InputOrders(t), inputOrdersHex(g, t)))
	}
	if m.SGM != nil {
		c[schema.SGM] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.SGM(f(t, "q"), f(t, "sigma"), f(t, "alpha"))
		}
	}
	if m.SGMCurve != nil {
		c[schema.SGMCurve] = func(g *schema.Group, t *schema.Test) (float64, error) {
			out := make([]float64, 1)
			err := m.SGMCurve(f(t, "q"), f(t, "sigma"), steps(t), []float64{f(t, "alpha")}, out)
			return out[0], err
		}
	}
	if m.Gaussian != nil {
		c[schema.Gaussian] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.Gaussian(f(t, "sigma"), f(t, "alpha"))
		}
	}
	if m.Laplace != nil {
		c[schema.Laplace] = func(g *schema.Group, t *schema.Test) (float64, error) { return m.Laplace(f(t, "b"), f(t, "alpha")) }
	}
	if m.RandomizedResponse != nil {
		c[schema.RandomizedResponse] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.RandomizedResponse(f(t, "p"), f(t, "alpha"))
		}
	}
	if m.GaussianDivergence != nil {
		c[schema.GaussianDivergence] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.GaussianDivergence(f(t, "mean1"), f(t, "sd1"), f(t, "mean2"), f(t, "sd2"), f(t, "alpha"))
		}
	}
	if m.Divergence != nil {
		c[schema.Divergence] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.Divergence(list(t.DistPHex), list(t.DistQHex), f(t, "alpha"))
		}
	}
	if m.Epsilon != nil {
		c[schema.Epsilon] = func(g *schema.Group, t *schema.Test) (float64, error) {
			eps, _, err := m.Epsilon(orders(g, t), list(t.RDPHex), f(t, "delta"), rdpcheck.ParseConversion(t.Conversion))
			return eps, err
		}
	}
	if m.Delta != nil {
		c[schema.Delta] = func(g *schema.Group, t *schema.Test) (float64, error) {
			delta, _, err := m.Delta(orders(g, t), list(t.RDPHex), f(t, "eps"), rdpcheck.ParseConversion(t.Conversion))
			return delta, err
		}
	}
	if m.DPSGDEpsilon != nil {
		c[schema.DPSGDEpsilon] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.DPSGDEpsilon(f(t, "q"), f(t, "sigma"), steps(t), f(t, "delta"), orders(g, t), rdpcheck.ParseConversion(t.Conversion))
		}
	}
	if m.SampledLaplace != nil {
		c[schema.SampledLaplace] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.SampledLaplace(f(t, "q"), f(t, "b"), f(t, "alpha"))
		}
	}
	if m.SampledDivergence != nil {
		c[schema.SampledDivergence] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.SampledDivergence(f(t, "q"), list(t.DistPHex), list(t.DistQHex), f(t, "alpha"))
		}
	}
	if m.WORGaussian != nil {
		c[schema.WORGaussian] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.WORGaussian(f(t, "q"), f(t, "sigma"), f(t, "alpha"))
		}
	}
	if m.KaryRandomizedResponse != nil {
		c[schema.KaryRandomizedResponse] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.KaryRandomizedResponse(f(t, "noise"), f(t, "buckets"), t.Relation, f(t, "alpha"))
		}
	}
	if m.PureDP != nil {
		c[schema.PureDP] = func(g *schema.Group, t *schema.Test) (float64, error) { return m.PureDP(f(t, "eps"), f(t, "alpha")) }
	}
	if m.ZCDP != nil {
		c[schema.ZCDP] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.ZCDP(f(t, "rho"), f(t, "xi"), f(t, "alpha"))
		}
	}
	if m.ExponentialMechanism != nil {
		c[schema.ExponentialMechanism] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.ExponentialMechanism(f(t, "eps"), f(t, "alpha"))
		}
	}
	if m.GroupPrivacy != nil {
		c[schema.GroupPrivacy] = func(g *schema.Group, t *schema.Test) (float64, error) {
			if t.C == nil {
				panic(inputError{fmt.Errorf("tcId %d: no c", t.TcID)})
			}
			return m.GroupPrivacy(orders(g, t), list(t.RDPHex), *t.C, f(t, "alpha"))
		}
	}
	for name, fn := range map[string]func(float64) (float64, error){
		schema.LaplaceZCDP: m.LaplaceZCDP, schema.RAPPORZCDP: m.RAPPORZCDP, schema.BoundedRangeZCDP: m.BoundedRangeZCDP,
	} {
		if fn != nil {
			c[name] = func(g *schema.Group, t *schema.Test) (float64, error) { return fn(f(t, "eps")) }
		}
	}
	if m.KaryRRZCDP != nil {
		c[schema.KaryRRZCDP] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.KaryRRZCDP(f(t, "eps"), f(t, "buckets"))
		}
	}
	if m.DiscreteGaussian != nil {
		c[schema.DiscreteGaussian] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.DiscreteGaussian(f(t, "sigma"), f(t, "sensitivity"), f(t, "alpha"))
		}
	}
	if m.TreeAggregation != nil {
		c[schema.TreeAggregation] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.TreeAggregation(f(t, "sigma"), slices.Clone(t.Trees), rdpcheck.ParseTreeRestarts(t.Restarts), f(t, "alpha"))
		}
	}
	if m.TreeMultiParticipation != nil {
		c[schema.TreeMultiParticipation] = func(g *schema.Group, t *schema.Test) (float64, error) {
			if t.MaxParticipation == nil || t.MinSeparation == nil {
				panic(inputError{fmt.Errorf("tcId %d: no maxParticipation or minSeparation", t.TcID)})
			}
			return m.TreeMultiParticipation(f(t, "sigma"), steps(t), *t.MaxParticipation, *t.MinSeparation, f(t, "alpha"))
		}
	}
	if m.PoissonBound != nil {
		c[schema.PoissonBound] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.PoissonBound(f(t, "q"), f(t, "alpha"), list(t.BaseHex))
		}
	}
	if m.WORBound != nil {
		c[schema.WORBound] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.WORBound(f(t, "q"), f(t, "alpha"), rdpcheck.BaseCurve{Eps: list(t.BaseHex), Inf: f(t, "baseInf")})
		}
	}
	phases := func(t *schema.Test) []Phase {
		run, err := t.Run()
		if err != nil {
			panic(inputError{err})
		}
		return run
	}
	if m.ProfileEpsilon != nil {
		c[schema.ProfileEpsilon] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.ProfileEpsilon(phases(t), f(t, "delta"))
		}
	}
	if m.ProfileDelta != nil {
		c[schema.ProfileDelta] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.ProfileDelta(phases(t), f(t, "eps"))
		}
	}
	if m.EventEpsilon != nil {
		c[schema.EventEpsilon] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.EventEpsilon(slices.Clone(t.Event), t.NeighboringRelation, f(t, "delta"))
		}
	}
	if m.EventDelta != nil {
		c[schema.EventDelta] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.EventDelta(slices.Clone(t.Event), t.NeighboringRelation, f(t, "eps"))
		}
	}
	if m.RepeatAndSelect != nil {
		c[schema.RepeatAndSelect] = func(g *schema.Group, t *schema.Test) (float64, error) {
			return m.RepeatAndSelect(orders(g, t), list(t.RDPHex), f(t, "mean"), f(t, "shape"), f(t, "alpha"))
		}
	}
	return c
}

// inputError is a vector file's input that does not parse: the file's
// fault, not the implementation's.
type inputError struct{ error }

func inputOrdersHex(g *schema.Group, t *schema.Test) []string {
	if t.Orders != nil {
		return t.OrdersHex
	}
	return g.OrdersHex
}

// hexOr prefers the hex forms (exact in any parser), else the decimals.
func hexOr(dec, hex []string) []string {
	if hex != nil {
		return hex
	}
	return dec
}

// outcome runs one test with a time limit: its answer, or a panic's
// message (a panic is a failure of its own; inputs that do not parse are
// the vector file's fault and are reported as such).
func outcome(c call, g *schema.Group, t *schema.Test, timeout time.Duration) (a score.Answer, panicked string) {
	type result struct {
		v     float64
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		v, err := c(g, t)
		done <- result{v: v, err: err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		switch {
		case r.panic != nil:
			if ie, ok := r.panic.(inputError); ok {
				return score.Answer{Rejected: true}, "vector input: " + ie.Error()
			}
			return score.Answer{Rejected: true}, fmt.Sprint(r.panic)
		case isUnsupported(r.err):
			return score.Answer{Unsupported: true}, ""
		case r.err != nil:
			return score.Answer{Rejected: true}, ""
		}
		return score.Answer{Value: r.v, Order: math.NaN()}, ""
	case <-timer.C:
		// The call's goroutine is left running: Go cannot stop it.
		return score.Answer{Hang: true}, ""
	}
}

func isUnsupported(err error) bool { return errors.Is(err, ErrUnsupported) }

// tester is what Run needs of a test: *testing.T through tt, or a recorder in
// a test of a test.
type tester interface {
	Helper()
	Errorf(format string, args ...any)
	Skip(args ...any)
	Logf(format string, args ...any)
	Run(name string, f func(tester)) bool
}

// tt adapts *testing.T to tester.
type tt struct{ *testing.T }

func (t tt) Run(name string, f func(tester)) bool {
	return t.T.Run(name, func(t *testing.T) { f(tt{t}) })
}

// Run runs every group of every embedded vector file as a subtest
// "file/group" of t (see the package comment). Groups whose function m
// lacks are skipped with the reason.
func Run(t *testing.T, m Impl) {
	t.Helper()
	run(tt{t}, m, vectors.Names())
}

// RunFiles is Run for some of the embedded vector files (names as
// vectors.Names gives them, e.g. "sgm_rdp.json").
func RunFiles(t *testing.T, m Impl, names ...string) {
	t.Helper()
	run(tt{t}, m, names)
}

// worstShown is how many worst tcIds a failure lists.
const worstShown = 5

// timeout is m.Timeout, 10 s for 0.
func (m *Impl) timeout() (time.Duration, error) {
	switch {
	case m.Timeout < 0:
		return 0, fmt.Errorf("vectorstest: Impl.Timeout = %v: want a duration >= 0 (0 for 10 s)", m.Timeout)
	case m.Timeout == 0:
		return 10 * time.Second, nil
	}
	return m.Timeout, nil
}

// Score runs m over the embedded vector file name (as vectors.Names gives
// it) and returns the scorer's report of its answers, as `rdpcheck score`
// grades a file of answers: the grades Run gives its subtests, for a
// report made outside a test (Report.Print writes the table). The tests of
// a function m does not offer are left unanswered, and its groups are
// reported so, not failed; Known is not consulted (every answer is graded
// as given); a call that panics is a crash. The error is a file that does
// not load or a negative Timeout.
func Score(m Impl, name string) (*score.Report, error) {
	timeout, err := m.timeout()
	if err != nil {
		return nil, err
	}
	f, err := vectors.Load(name)
	if err != nil {
		return nil, err
	}
	calls := m.calls()
	ans := map[int]score.Answer{}
	for _, g := range f.TestGroups {
		c := calls[g.Function]
		if c == nil {
			continue
		}
		for _, tc := range g.Tests {
			a, msg := outcome(c, g, tc, timeout)
			if msg != "" {
				a = score.Answer{Crashed: "panic: " + msg}
			}
			ans[tc.TcID] = a
		}
	}
	return score.Score(f, ans, score.Options{})
}

func run(t tester, m Impl, names []string) {
	t.Helper()
	timeout, err := m.timeout()
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	calls := m.calls()
	for _, name := range names {
		f, err := vectors.Load(name)
		if err != nil {
			t.Errorf("vector file %s: %v", name, err)
			continue
		}
		for _, g := range f.TestGroups {
			t.Run(strings.TrimSuffix(name, ".json")+"/"+g.Name, func(t tester) {
				t.Helper()
				c := calls[g.Function]
				if c == nil {
					t.Skip(fmt.Sprintf("Impl.%s not provided: %d tests of %s not run", g.Function, len(g.Tests), name))
					return
				}
				ans := map[int]score.Answer{}
				known := map[int]string{}
				for _, tc := range g.Tests {
					a, msg := outcome(c, g, tc, timeout)
					if msg != "" {
						t.Errorf("tcId %d (%s): panic: %s", tc.TcID, score.Inputs(g, tc), msg)
					}
					ans[tc.TcID] = a
					if m.Known != nil {
						if why := m.Known(name, g, tc); why != "" {
							known[tc.TcID] = why
						}
					}
				}
				// The known tests are graded one by one, the others together.
				rest := *g
				rest.Tests = nil
				for _, tc := range g.Tests {
					why, ok := known[tc.TcID]
					if !ok {
						rest.Tests = append(rest.Tests, tc)
						continue
					}
					one := rest
					one.Tests = []*schema.Test{tc}
					r, err := grade(&one, ans)
					switch {
					case err != nil:
						t.Errorf("%v", err)
					case r.Groups[0].Failed():
						t.Logf("tcId %d (%s): %s: known: %s", tc.TcID, score.Inputs(g, tc), r.Groups[0].Worst[0].Verdict(), why)
					case r.Failed():
						t.Logf("tcId %d (%s): unsupported: known: %s", tc.TcID, score.Inputs(g, tc), why)
					default:
						t.Logf("tcId %d (%s) passes: remove it from the known failures (%s)", tc.TcID, score.Inputs(g, tc), why)
					}
				}
				if len(rest.Tests) == 0 {
					return // every test is a known failure, graded above
				}
				r, err := grade(&rest, ans)
				if err != nil {
					t.Errorf("%v", err)
					return
				}
				if gs := r.Groups[0]; gs.Failed() {
					t.Errorf("%s", failure(name, gs))
				} else if r.Failed() {
					// the scorer's rule: answers that answer nothing pass
					// nothing
					t.Errorf("%s group %s (%s) answers nothing: all %d of its tests say unsupported (ErrUnsupported), so none is graded", name, gs.Name, gs.Function, gs.Answered)
				}
			})
		}
	}
}

// grade judges the answers to one group, as a file of that group alone:
// its report's Failed is the scorer's verdict on the answers (a group
// whose every answer says unsupported fails), Groups[0] the group's grade.
func grade(g *schema.Group, ans map[int]score.Answer) (*score.Report, error) {
	sub := map[int]score.Answer{}
	for _, tc := range g.Tests {
		sub[tc.TcID] = ans[tc.TcID]
	}
	return score.Score(&schema.File{NumberOfTests: len(g.Tests), TestGroups: []*schema.Group{g}}, sub, score.Options{})
}

// failure says why a group failed: its counts, tolerance and worst tests.
func failure(file string, g *score.Group) string {
	var b strings.Builder
	if g.Profile {
		fmt.Fprintf(&b, "%s group %s (%s) fails against its certified intervals:", file, g.Name, g.Function)
	} else {
		fmt.Fprintf(&b, "%s group %s (%s) fails at relative tolerance %g:", file, g.Name, g.Function, g.Tolerance)
	}
	fmt.Fprintf(&b, " %s;", strings.Join(g.Reasons(), ", "))
	fmt.Fprintf(&b, " max relative error %.2g\nworst:", g.MaxRel)
	for _, w := range g.Worst[:min(worstShown, len(g.Worst))] {
		fmt.Fprintf(&b, "\n  tcId %d (%s): %s", w.ID, w.Inputs, w.Verdict())
	}
	return b.String()
}
