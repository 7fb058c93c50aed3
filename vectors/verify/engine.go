// Package verify is the vector generator's verification engine. It computes
// every expected value twice, with the reference at RefPrec (the value
// written) and at CheckPrec (the second method: other working precisions,
// series cut-offs and quadrature node counts), and refuses a value on which
// the two do not agree.
//
// Work runs in two phases. Phase 1 computes the SGM RDP points the files ask
// for, one reference.SGMCurve per (q, sigma) so that the reference shares
// work between the orders of a curve, and checks a sample of them against
// package oracles, an independent method (two precisions of one method
// share any error in its formulas). Phase 2 runs the other jobs (closed
// forms, divergences, conversions, epsilons of curves, invalid inputs), which
// may read phase 1's points. Output never depends on scheduling.
package verify

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rdpcheck/rdpcheck/internal/workers"
	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const (
	RefPrec   = reference.DefaultPrec // the precision of the values written
	CheckPrec = 320                   // the second evaluation's precision
)

// Precs are the two precisions, in the order of Job.Res and Job.Err.
var Precs = [2]uint{RefPrec, CheckPrec}

type sgKey struct{ q, sigma float64 }

type ptKey struct{ q, sigma, alpha float64 }

// Out is one evaluation's result.
type Out struct {
	V     *big.Float
	Order float64 // Epsilon, Delta, DPSGDEpsilon: the order attaining the minimum
	// Interval marks a certified interval [Lo, Hi] (ProfileEpsilon,
	// ProfileDelta) instead of a value V: the two evaluations are two
	// certificates (say, on two grids), each containing the truth, and
	// the job keeps their intersection.
	Interval bool
	Lo, Hi   float64
}

// Points reads a phase 1 point: the SGM RDP at (q, sigma, alpha), which
// the job must have asked for with Need.
type Points func(q, sigma, alpha float64) *big.Float

// Eval computes a job's value at the context's precision.
type Eval func(c reference.Context, pts Points) (Out, error)

// Job is one expected value (or one expected rejection): Res and Err hold
// the evaluations at Precs[0] and Precs[1].
type Job struct {
	What string
	Eval Eval
	Res  [2]Out
	Err  [2]error
	// pairs are the (q, sigma) curves Eval reads. When the engine samples
	// and one of them is left out, the job is not run (Copied is set) and
	// its value is taken from the committed file.
	pairs  []sgKey
	Copied bool
	// sample, when >= 0, is the job's index among the jobs that are
	// sampled on their own (AddSampled).
	sample int
	file   string // whose time this is (ForFile)
}

// Reads records that the job's Eval reads the phase 1 curve (q, sigma).
func (j *Job) Reads(q, sigma float64) { j.pairs = append(j.pairs, sgKey{q, sigma}) }

// Engine schedules the jobs of one run.
type Engine struct {
	progress io.Writer
	want     map[sgKey]map[float64]bool // SGM orders requested per (q, sigma)
	vals     [2]map[ptKey]*big.Float
	jobs     []*Job
	// SampleEvery, if > 1, computes only every SampleEvery-th (q, sigma)
	// pair in sorted order (the quick check); jobs reading another pair
	// are copied.
	SampleEvery int
	sampled     map[sgKey]bool
	always      map[sgKey]bool // pairs computed even when sampling
	nSampled    int            // jobs added by AddSampled
	// file labels the jobs and curves registered now (ForFile); a curve
	// keeps every file that asked for it, in the order they asked.
	file       string
	curveFiles map[sgKey][]string
	spent      map[string]*fileTime
}

// New returns an engine reporting progress on progress.
func New(progress io.Writer) *Engine {
	return &Engine{progress: progress, want: map[sgKey]map[float64]bool{},
		vals: [2]map[ptKey]*big.Float{{}, {}}, always: map[sgKey]bool{},
		curveFiles: map[sgKey][]string{}, spent: map[string]*fileTime{}}
}

// ForFile labels the jobs and curves registered from now on as name's, so
// that Run reports each file's share of the time.
func (e *Engine) ForFile(name string) { e.file = name }

// NeedAlways is Need for a pair whose values a file's inputs are made of:
// it is computed even when sampling.
func (e *Engine) NeedAlways(q, sigma float64, alphas ...float64) {
	e.Need(q, sigma, alphas...)
	e.always[sgKey{q, sigma}] = true
}

// Need asks phase 1 for the SGM RDP at (q, sigma, alpha) for each alpha.
func (e *Engine) Need(q, sigma float64, alphas ...float64) {
	k := sgKey{q, sigma}
	if e.want[k] == nil {
		e.want[k] = map[float64]bool{}
	}
	if !slices.Contains(e.curveFiles[k], e.file) {
		e.curveFiles[k] = append(e.curveFiles[k], e.file)
	}
	for _, a := range alphas {
		e.want[k][a] = true
	}
}

// Add registers a phase 2 job.
func (e *Engine) Add(what string, eval Eval) *Job {
	j := &Job{What: what, Eval: eval, sample: -1, file: e.file}
	e.jobs = append(e.jobs, j)
	return j
}

// AddSampled registers a phase 2 job that reads no phase 1 curve but is
// costly: when the engine samples, only every SampleEvery-th such job (in
// the order added) runs, and the others are copied.
func (e *Engine) AddSampled(what string, eval Eval) *Job {
	j := e.Add(what, eval)
	j.sample = e.nSampled
	e.nSampled++
	return j
}

// SGMJob is a phase 2 job that reads one phase 1 point.
func (e *Engine) SGMJob(q, sigma, alpha float64) *Job {
	e.Need(q, sigma, alpha)
	j := e.Add(fmt.Sprintf("SGM(q=%g, sigma=%g, alpha=%g)", q, sigma, alpha),
		func(_ reference.Context, pts Points) (Out, error) {
			return Out{V: pts(q, sigma, alpha)}, nil
		})
	j.pairs = []sgKey{{q, sigma}}
	return j
}

// RefJob is a phase 2 job of one reference call.
func (e *Engine) RefJob(what string, f func(c reference.Context) (*big.Float, error)) *Job {
	return e.Add(what, func(c reference.Context, _ Points) (Out, error) {
		v, err := f(c)
		return Out{V: v}, err
	})
}

// Value is the phase 1 point (q, sigma, alpha) at RefPrec, after Run.
func (e *Engine) Value(q, sigma, alpha float64) *big.Float { return e.vals[0][ptKey{q, sigma, alpha}] }

// Run computes everything, both precisions, on all cores.
func (e *Engine) Run() error {
	start := time.Now()
	cpu0, _ := ProcessCPU()
	if err := e.phase1(start); err != nil {
		return err
	}
	if err := e.phase2(start); err != nil {
		return err
	}
	e.report(start, cpu0)
	return nil
}

// slowCurve is the time beyond which a curve is reported, so that the cost
// of the grids stays visible.
const slowCurve = 20 * time.Second

type curveTask struct {
	k      sgKey
	orders []float64
	pi     int
	cost   float64
}

// sampleMaxOrders: when sampling, only pairs with at most this many orders
// are candidates.
const sampleMaxOrders = 40

// choose decides which pairs phase 1 computes: all, or a sample.
func (e *Engine) choose() {
	keys := make([]sgKey, 0, len(e.want))
	for k := range e.want {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].q != keys[j].q {
			return keys[i].q < keys[j].q
		}
		return keys[i].sigma < keys[j].sigma
	})
	e.sampled = map[sgKey]bool{}
	n := 0
	for _, k := range keys {
		switch {
		case e.SampleEvery <= 1 || e.always[k]:
			e.sampled[k] = true
		case len(e.want[k]) <= sampleMaxOrders:
			// Long curves (the DP-SGD ones at 156 orders and more) are
			// left to the full check: one costs as much as the sample.
			e.sampled[k] = n%e.SampleEvery == 0
			n++
		}
	}
}

func (e *Engine) phase1(start time.Time) error {
	e.choose()
	var tasks []*curveTask
	total := 0
	for k, set := range e.want {
		if !e.sampled[k] {
			continue
		}
		orders := make([]float64, 0, len(set))
		for a := range set {
			orders = append(orders, a)
		}
		sort.Float64s(orders)
		total += 2 * len(orders)
		for pi := range Precs {
			tasks = append(tasks, &curveTask{k: k, orders: orders, pi: pi, cost: curveCost(k, orders)})
		}
	}
	// Costliest first, so that no long curve starts last; ties in a fixed order.
	sort.Slice(tasks, func(i, j int) bool {
		a, b := tasks[i], tasks[j]
		if a.cost != b.cost {
			return a.cost > b.cost
		}
		if a.k.q != b.k.q {
			return a.k.q < b.k.q
		}
		if a.k.sigma != b.k.sigma {
			return a.k.sigma < b.k.sigma
		}
		return a.pi < b.pi
	})
	var done atomic.Int64
	stop := e.ticker(start, "SGM RDP values", &done, total)
	results := make([][]*big.Float, len(tasks))
	errs := make([]error, len(tasks))
	took := make([]time.Duration, len(tasks))
	workers.Run(len(tasks), func(i int) {
		t := tasks[i]
		c := reference.Context{Prec: Precs[t.pi]}
		t0 := time.Now()
		results[i], errs[i] = c.SGMCurve(t.k.q, t.k.sigma, 1, t.orders)
		done.Add(int64(len(t.orders)))
		took[i] = time.Since(t0)
		if d := took[i]; d > slowCurve {
			fmt.Fprintf(e.progress, "gen-vectors: slow curve: q=%g sigma=%g, %d orders (%g to %g) at %d bits: %s\n",
				t.k.q, t.k.sigma, len(t.orders), t.orders[0], t.orders[len(t.orders)-1], Precs[t.pi], d.Round(time.Second))
		}
	})
	stop()
	for i, t := range tasks {
		e.charge(t.k, took[i], func(f *fileTime) *time.Duration { return &f.curves })
	}
	for i, t := range tasks {
		if errs[i] != nil {
			return fmt.Errorf("SGMCurve(q=%g, sigma=%g) at %d bits: %w", t.k.q, t.k.sigma, Precs[t.pi], errs[i])
		}
		for j, a := range t.orders {
			e.vals[t.pi][ptKey{t.k.q, t.k.sigma, a}] = results[i][j]
		}
	}
	// Confirm every point before anything reads it.
	var bad []error
	var warns []string
	for k, v := range e.vals[0] {
		warn, err := confirm(v, e.vals[1][k])
		what := fmt.Sprintf("SGM(q=%g, sigma=%g, alpha=%g)", k.q, k.sigma, k.alpha)
		if err != nil {
			bad = append(bad, fmt.Errorf("%s not confirmed: %v", what, err))
		}
		if warn != "" {
			warns = append(warns, what+": "+warn)
		}
	}
	e.warn(warns)
	if len(bad) > 0 {
		return errors.Join(SortErrs(bad)...)
	}
	return e.oracleCheck(start)
}

// OracleEvery: one SGM point in this many (in sorted order), and every point
// with q <= 1e-20, is also checked against package oracles.
const OracleEvery = 12

// OracleBits: the oracle's quadrature is good to about 2^-180 at 256 bits
// (55 digits); agreement to 2^-150 (45 digits) is asked.
const OracleBits = 150

// oracleCheck compares a deterministic sample of the phase 1 points with
// package oracles (tanh-sinh quadrature of the moment in big.Float, sharing
// no code with package reference): a check by a different method, which the
// two precisions of the reference cannot give. Points the oracle does not
// support are skipped and counted.
func (e *Engine) oracleCheck(start time.Time) error {
	keys := make([]ptKey, 0, len(e.vals[0]))
	for k := range e.vals[0] {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.q != b.q {
			return a.q < b.q
		}
		if a.sigma != b.sigma {
			return a.sigma < b.sigma
		}
		return a.alpha < b.alpha
	})
	var pick []ptKey
	for i, k := range keys {
		if k.q == 0 || k.q == 1 || k.sigma == 0 || math.IsInf(k.alpha, 0) {
			continue // exact special cases
		}
		if i%OracleEvery == 0 || k.q <= 1e-20 {
			pick = append(pick, k)
		}
	}
	var done atomic.Int64
	stop := e.ticker(start, "oracle checks", &done, len(pick))
	errs := make([]error, len(pick))
	skipped := make([]bool, len(pick))
	took := make([]time.Duration, len(pick))
	workers.Run(len(pick), func(i int) {
		k := pick[i]
		t0 := time.Now()
		defer func() { took[i] = time.Since(t0); done.Add(1) }()
		want := e.vals[0][k]
		dir := func(beta float64) (*big.Float, error) {
			logI, err := oracles.SGMMoment(k.q, k.sigma, beta, RefPrec)
			if err != nil {
				return nil, err
			}
			return logI.Quo(logI, big.NewFloat(k.alpha-1)), nil
		}
		got, err := dir(k.alpha)
		if err == nil && !agreeBits(got, want, OracleBits) {
			// The RDP is the larger direction; the oracle's forward one
			// is compared first since it is the larger in every case seen.
			var bwd *big.Float
			if bwd, err = dir(1 - k.alpha); err == nil && bwd.Cmp(got) > 0 {
				got = bwd
			}
		}
		switch {
		case errors.Is(err, oracles.ErrUnsupported) || errors.Is(err, oracles.ErrNotConverged):
			skipped[i] = true
		case err != nil:
			errs[i] = fmt.Errorf("oracle at SGM(q=%g, sigma=%g, alpha=%g): %v", k.q, k.sigma, k.alpha, err)
		case !agreeBits(got, want, OracleBits):
			errs[i] = fmt.Errorf("SGM(q=%g, sigma=%g, alpha=%g): reference %s, oracle %s", k.q, k.sigma, k.alpha, want.Text('e', 50), got.Text('e', 50))
		}
	})
	stop()
	for i, k := range pick {
		e.charge(sgKey{k.q, k.sigma}, took[i], func(f *fileTime) *time.Duration { return &f.oracle })
	}
	n := 0
	for _, s := range skipped {
		if s {
			n++
		}
	}
	fmt.Fprintf(e.progress, "gen-vectors: %d SGM values checked against package oracles, %d outside the oracle's range skipped\n", len(pick)-n, n)
	var bad []error
	for _, err := range errs {
		if err != nil {
			bad = append(bad, err)
		}
	}
	return errors.Join(SortErrs(bad)...)
}

// agreeBits reports whether a and b agree to 2^-bits relative to b.
func agreeBits(a, b *big.Float, bits int) bool {
	return math.Abs(schema.RelDiff(a, b)) < math.Ldexp(1, -bits)
}

// curveCost is a rough cost estimate for scheduling only: fractional orders
// cost most, more so for small sigma; integer orders cost about their size.
func curveCost(k sgKey, orders []float64) float64 {
	c := 0.0
	if k.q > 0 && k.q < 1e-100 {
		c += 1e6 // the reference needs tens of seconds at q = 1e-150
	}
	for _, a := range orders {
		switch {
		case math.IsInf(a, 1) || k.q == 0 || k.q == 1 || k.sigma == 0:
		case a != math.Trunc(a):
			c += 50 * (1 + 1/math.Max(k.sigma, 0.05)) * (1 + a/100)
		default:
			c += a / 50
		}
	}
	return c
}

func (e *Engine) phase2(start time.Time) error {
	var run []*Job
	for _, j := range e.jobs {
		for _, k := range j.pairs {
			j.Copied = j.Copied || !e.sampled[k]
		}
		if j.sample >= 0 && e.SampleEvery > 1 && j.sample%e.SampleEvery != 0 {
			j.Copied = true
		}
		if !j.Copied {
			run = append(run, j)
		}
	}
	var done atomic.Int64
	total := 2 * len(run)
	stop := e.ticker(start, "other values", &done, total)
	took := make([]time.Duration, total)
	workers.Run(total, func(i int) {
		t0 := time.Now()
		defer func() { took[i] = time.Since(t0) }()
		j, pi := run[i/2], i%2
		pts := func(q, sigma, alpha float64) *big.Float {
			v, ok := e.vals[pi][ptKey{q, sigma, alpha}]
			if !ok {
				panic(fmt.Sprintf("gen-vectors: %s reads SGM(q=%g, sigma=%g, alpha=%g), which was not requested", j.What, q, sigma, alpha))
			}
			return v
		}
		j.Res[pi], j.Err[pi] = j.Eval(reference.Context{Prec: Precs[pi]}, pts)
		done.Add(1)
	})
	stop()
	for i, d := range took {
		e.fileTime(run[i/2].file).values += d
	}
	var bad []error
	var warns []string
	for _, j := range run {
		warn, err := j.confirm()
		if err != nil {
			bad = append(bad, fmt.Errorf("%s not confirmed: %v", j.What, err))
		}
		if warn != "" {
			warns = append(warns, j.What+": "+warn)
		}
	}
	e.warn(warns)
	return errors.Join(SortErrs(bad)...)
}

// confirm checks that the two evaluations of a job agree: both rejected the
// input the same way, or both values agree (see confirm) with the same order.
func (j *Job) confirm() (warn string, err error) {
	e0, e1 := j.Err[0], j.Err[1]
	if e0 != nil || e1 != nil {
		if IsInputError(e0) && IsInputError(e1) {
			return "", nil
		}
		return "", fmt.Errorf("evaluations failed: %v / %v", e0, e1)
	}
	if a, b := j.Res[0], j.Res[1]; a.Interval || b.Interval {
		lo, hi := math.Max(a.Lo, b.Lo), math.Min(a.Hi, b.Hi)
		if !a.Interval || !b.Interval || !(lo <= hi) {
			return "", fmt.Errorf("certified intervals [%v, %v] and [%v, %v] do not intersect: one certificate is wrong", a.Lo, a.Hi, b.Lo, b.Hi)
		}
		j.Res[0] = Out{Interval: true, Lo: lo, Hi: hi}
		return "", nil
	}
	if j.Res[0].Order != j.Res[1].Order && !(math.IsNaN(j.Res[0].Order) && math.IsNaN(j.Res[1].Order)) {
		return "", fmt.Errorf("orders differ: %v at %d bits, %v at %d bits", j.Res[0].Order, Precs[0], j.Res[1].Order, Precs[1])
	}
	return confirm(j.Res[0].V, j.Res[1].V)
}

// warn reports, on the progress writer, values whose two evaluations agree
// on every written digit but less well than the reference promises: a
// reference bug to report, not a reason to refuse the digits written.
func (e *Engine) warn(warns []string) {
	sort.Strings(warns)
	for i, w := range warns {
		if i == 5 {
			fmt.Fprintf(e.progress, "gen-vectors: warning: ... and %d more\n", len(warns)-5)
			break
		}
		fmt.Fprintf(e.progress, "gen-vectors: warning: %s\n", w)
	}
}

// IsInputError reports whether err is the reference's rejection of an input.
func IsInputError(err error) bool {
	var ie *reference.InputError
	return errors.As(err, &ie)
}

// ConfirmBits is how closely the two evaluations must agree for a value to
// be written: 2^-200, about 60 significant digits, ten more than are written.
const ConfirmBits = 200

// claimBits: the reference claims relative error below 2^(1-prec); two
// evaluations further apart than 2^-250 break that claim at 256 bits, which
// is reported (a reference bug) though the written digits are confirmed.
const claimBits = 250

// confirm accepts a (RefPrec bits) and b (CheckPrec bits) when they agree
// to 2^-ConfirmBits relative and give the same 50-digit decimal and the
// same nearest float64: what the files say is then the same whichever
// evaluation wrote it. warn is set when they agree less well than the
// reference's stated guarantee implies.
func confirm(a, b *big.Float) (warn string, err error) {
	if a == nil || b == nil {
		return "", errors.New("missing value")
	}
	if !agreeBits(a, b, ConfirmBits) {
		return "", fmt.Errorf("%s at %d bits, %s at %d bits", a.Text('e', 70), Precs[0], b.Text('e', 70), Precs[1])
	}
	if sa, sb := schema.Exact(a), schema.Exact(b); sa != sb {
		return "", fmt.Errorf("50-digit forms differ (a rounding boundary): %s / %s", sa, sb)
	}
	if fa, fb := schema.Float64Of(a), schema.Float64Of(b); fa != fb {
		return "", fmt.Errorf("nearest float64 differ (a rounding boundary): %s / %s", fa, fb)
	}
	if !agreeBits(a, b, claimBits) {
		return fmt.Sprintf("%d and %d bits differ by %.1e relative (the reference claims below 2^-%d = %.1e at %d bits)", Precs[0], Precs[1], math.Abs(schema.RelDiff(a, b)), RefPrec-1, math.Ldexp(1, 1-RefPrec), RefPrec), nil
	}
	return "", nil
}

// SortErrs sorts errors by text and keeps the first 20, so that a failing
// run reports the same way every time.
func SortErrs(errs []error) []error {
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	if len(errs) > 20 {
		errs = append(errs[:20], fmt.Errorf("... and %d more", len(errs)-20))
	}
	return errs
}

// ticker reports progress on the progress writer every few seconds until
// the returned stop is called, and once more then.
func (e *Engine) ticker(start time.Time, what string, done *atomic.Int64, total int) (stop func()) {
	if total == 0 {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	report := func() {
		n := done.Load()
		fmt.Fprintf(e.progress, "gen-vectors: %s %d/%d (%.0f%%), %s elapsed\n",
			what, n, total, 100*float64(n)/float64(total), time.Since(start).Round(time.Second))
	}
	wg.Go(func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				report()
				return
			case <-t.C:
				report()
			}
		}
	})
	return func() { close(quit); wg.Wait() }
}

// SGMJobChecked is SGMJob plus, where q <= 1e-20, a check against the
// expansion of the moment in q, which shares nothing with the reference:
//
//	I(alpha) - 1 = C(alpha,2) q^2 c1 + C(alpha,3) q^3 c2 + O(q^4),
//	c1 = e^(1/s^2) - 1,  c2 = e^(3/s^2) - 3 e^(1/s^2) + 2,
//
// so eps = (x - x^2/2 + ...)/(alpha-1) with x = I - 1. At such q the
// neglected terms are below 1e-20 relative, and float64 evaluation of the
// expansion is good to about 1e-15. Two evaluations of the reference at
// different precisions share any error in float64 set-up code; this catches
// that class of error where it is most likely (values near underflow).
func (e *Engine) SGMJobChecked(q, sigma, alpha float64) *Job {
	j := e.SGMJob(q, sigma, alpha)
	if !expansionValid(q, sigma, alpha) {
		return j
	}
	inner := j.Eval
	j.Eval = func(c reference.Context, pts Points) (Out, error) {
		o, err := inner(c, pts)
		if err != nil {
			return o, err
		}
		// The expansion is a float64 answer; its error is measured against
		// the reference like any other.
		exp := tinyQExpansion(q, sigma, alpha)
		if r := schema.RelativeError(exp, o.V); !(r < 1e-13) {
			return Out{}, fmt.Errorf("reference %s disagrees with the expansion in q, %g (relative %.2g)", o.V.Text('g', 17), exp, r)
		}
		return o, nil
	}
	return j
}

// expansionValid reports whether the two-term expansion is within 1e-16 of
// the moment: q <= 1e-20, and every neglected term |C(alpha,k)| q^k
// E[L^k] (k >= 4, E[L^k] = e^(k(k-1)/(2 s^2))) below e^-40 of the leading
// one. For a fractional order the binomial series does not terminate and
// only describes the region q L < 1; beyond its edge z0 = 1/2 + s^2
// log(1/q) the integrand is negligible when alpha < z0.
func expansionValid(q, sigma, alpha float64) bool {
	if q > 1e-20 || q <= 0 || math.IsInf(alpha, 0) || alpha > 1000 {
		return false
	}
	s2 := sigma * sigma
	logC := math.Log(alpha * (alpha - 1) / 2) // log |C(alpha, 2)|
	lead := logC + 2*math.Log(q) + math.Log(math.Expm1(1/s2))
	for k := 3.0; k <= math.Ceil(alpha)+3; k++ {
		logC += math.Log(math.Abs(alpha-k+1)) - math.Log(k)
		if k >= 4 && logC+k*math.Log(q)+(k*k-k)/(2*s2) > lead-40 {
			return false
		}
	}
	return alpha == math.Trunc(alpha) || alpha < 0.5+s2*math.Log(1/q)
}

func tinyQExpansion(q, sigma, alpha float64) float64 {
	s2 := sigma * sigma
	e1 := math.Exp(1 / s2)
	c1 := e1 - 1
	c2 := math.Exp(3/s2) - 3*e1 + 2
	b2 := alpha * (alpha - 1) / 2
	b3 := b2 * (alpha - 2) / 3
	x := b2*q*q*c1 + b3*q*q*q*c2
	return (x - x*x/2) / (alpha - 1)
}

// fileTime is the worker time spent on one file's values: its curves (phase
// 1), their oracle checks, and its other jobs (phase 2).
type fileTime struct{ curves, oracle, values time.Duration }

func (f *fileTime) total() time.Duration { return f.curves + f.oracle + f.values }

func (e *Engine) fileTime(name string) *fileTime {
	f := e.spent[name]
	if f == nil {
		f = &fileTime{}
		e.spent[name] = f
	}
	return f
}

// charge splits d, spent on curve k, evenly between the files that asked
// for it.
func (e *Engine) charge(k sgKey, d time.Duration, part func(*fileTime) *time.Duration) {
	fs := e.curveFiles[k]
	for _, name := range fs {
		*part(e.fileTime(name)) += d / time.Duration(len(fs))
	}
}

// report writes each file's share of the worker time, largest first: the
// wall time its jobs took on the workers (a curve two files ask for counts
// half to each), beside the CPU time of the whole run, which a shared
// machine does not inflate as it does the wall times.
func (e *Engine) report(start time.Time, cpu0 time.Duration) {
	if len(e.spent) == 0 || len(e.spent) == 1 && e.spent[""] != nil {
		return // an engine whose jobs name no file (gen-vectors -cases)
	}
	names := make([]string, 0, len(e.spent))
	var all time.Duration
	for n, f := range e.spent {
		names = append(names, n)
		all += f.total()
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := e.spent[names[i]].total(), e.spent[names[j]].total()
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	cpu := ""
	if cpu1, ok := ProcessCPU(); ok {
		cpu = fmt.Sprintf(", %s of CPU", (cpu1 - cpu0).Round(time.Second))
	}
	fmt.Fprintf(e.progress, "gen-vectors: the values took %s%s; worker time by file (a curve n files share counts 1/n to each):\n",
		time.Since(start).Round(time.Second), cpu)
	for _, n := range names {
		f := e.spent[n]
		share := 0.0
		if all > 0 {
			share = 100 * float64(f.total()) / float64(all)
		}
		fmt.Fprintf(e.progress, "gen-vectors:   %-32s %8s %3.0f%%  (curves %s, oracle checks %s, other values %s)\n",
			n, f.total().Round(100*time.Millisecond), share, f.curves.Round(100*time.Millisecond), f.oracle.Round(100*time.Millisecond), f.values.Round(100*time.Millisecond))
	}
}
