package main

// The run epsilon, sigma and steps account: one or more phases of DP-SGD,
// each a number of steps of the Gaussian mechanism on a sampled batch,
// given by the single-phase flags (-q or -n and -batch, -steps or -epochs,
// -sigma) or by repeated -phase flags, with the batches Poisson-sampled or
// drawn without replacement (-sampling).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const samplingUsage = "how each step's batch is drawn: poisson (each record independently with probability q, add/remove neighbours) or wor (a fixed batch of -batch records drawn without replacement from the -n, afresh at each step; replace-one neighbours). A shuffled epoch is neither and is refused"

// samplingDoc is the part of -h that says what -sampling accounts.
const samplingDoc = `-sampling poisson (the default): each step takes each record independently
with probability q (= batch/n), add/remove neighbours: the Poisson-sampled
Gaussian, as dp_accounting's PoissonSampledDpEvent of a GaussianDpEvent.
-sampling wor: each step takes a fixed batch of batch records drawn without
replacement from the n, independently of the other steps; replace-one
neighbours: Wang, Balle and Kasiviswanathan 2019, Theorem 27, at q =
batch/n rounded up to a float64 (the least at or above it: 2 of 3 is
0.6666666666666667), as dp_accounting's SampledWithoutReplacementDpEvent
of a GaussianDpEvent under REPLACE_ONE. It needs n and batch (whole numbers), not
a bare q. Its sigma is the noise over the replace-one l2-sensitivity: for
DP-SGD summing gradients clipped to norm C, that sensitivity is 2C, so a
noise standard deviation of s C is sigma = s/2 here.
A shuffled epoch (a permutation of the data cut into batches) is neither
Poisson sampling nor a fixed batch drawn independently at each step;
accounting it as Poisson sampling can understate epsilon, so -sampling
refuses it (and any other value).`

// phaseDoc is the part of -h that says what a -phase takes.
const phaseDoc = `A run of several phases is given by repeated -phase flags, each
  q=Q,sigma=S,steps=T  or  n=N,batch=B,epochs=E,sigma=S  (steps = ceil(E N/B))
with the rules of the single-phase flags (-q or -n with -batch; -steps or
-epochs); every key at most once. The phases compose; the sampling applies
to every phase. Phases with the same q and sigma are composed as one, their
steps added, as account composes an event file.`

// samplingFlag is -sampling.
type samplingFlag struct{ wor bool }

func (s *samplingFlag) String() string {
	if s != nil && s.wor {
		return "wor"
	}
	return "poisson"
}

func (s *samplingFlag) Set(v string) error {
	switch v {
	case "poisson":
		s.wor = false
	case "wor":
		s.wor = true
	case "shuffle", "shuffled", "shuffling", "permutation":
		return errors.New("a shuffled epoch is neither Poisson sampling nor a fixed batch drawn independently at each step, and accounting it as Poisson sampling can understate epsilon: no bound is offered for it (want poisson or wor)")
	default:
		return errors.New("want poisson or wor (a shuffled epoch is neither and is not accounted: see -h)")
	}
	return nil
}

// phase is steps steps of the Gaussian mechanism (noise multiplier sigma)
// on a batch sampled at rate q. A sigma or steps of 0 was not given.
type phase struct {
	spec     string // the -phase value ("" from the single-phase flags)
	q, sigma float64
	steps    int
	n, batch float64 // 0 when given by q
}

// phaseKeys are the keys of -phase, in the order -h lists them.
var phaseKeys = []string{"q", "n", "batch", "epochs", "sigma", "steps"}

// phaseList is the repeatable -phase flag.
type phaseList struct{ phases []phase }

func (l *phaseList) String() string { return "" }

// repeatable: each -phase adds a phase.
func (l *phaseList) repeatable() bool { return true }

func (l *phaseList) Set(v string) error {
	var s sgmFlags
	s.init()
	s.key = func(name string) string { return name + "=" }
	sigma := sigmaFlag()
	flags := map[string]*numFlag{"q": s.q, "n": s.n, "batch": s.batch, "epochs": s.epochs, "sigma": sigma, "steps": s.steps}
	if err := splitKeyValues("a phase", v, phaseKeys, func(k, v string) error { return flags[k].Set(v) }); err != nil {
		return err
	}
	if err := s.resolve(s.steps.set || s.epochs.set); err != nil {
		return err
	}
	p := phase{spec: v, q: s.q.v, sigma: sigma.v, steps: int(s.steps.v)}
	if s.n.set {
		p.n, p.batch = s.n.v, s.batch.v
	}
	l.phases = append(l.phases, p)
	return nil
}

// runFlags are the flags that describe the run.
type runFlags struct {
	single   sgmFlags
	phases   phaseList
	sampling samplingFlag
}

// register registers -phase and -sampling, and the single-phase flags
// (withSteps: with -steps and -epochs).
func (r *runFlags) register(fs *flag.FlagSet, withSteps bool) {
	r.single.register(fs, withSteps)
	fs.Var(&r.phases, "phase", "one phase of the run, `q=Q,sigma=S,steps=T` or n=N,batch=B,epochs=E,sigma=S (repeatable; see above), instead of the single-phase flags")
	fs.Var(&r.sampling, "sampling", samplingUsage)
}

// dpRun is a resolved run: its phases and how batches are drawn.
type dpRun struct {
	wor    bool
	phases []phase
	// flags: given by the single-phase flags, not by -phase
	flags bool
}

// resolve checks the run's description and returns it: -phase flags or the
// single-phase flags (withSteps: -steps and -epochs are flags; sigma: the
// command's -sigma flag, nil when it has none), never both. A phase's
// missing sigma or steps is left 0 for the command to require or fill.
func (r *runFlags) resolve(withSteps bool, sigma *numFlag) (*dpRun, error) {
	out := &dpRun{wor: r.sampling.wor}
	if len(r.phases.phases) > 0 {
		s := r.single
		given := []struct {
			name string
			f    *numFlag
		}{{"q", s.q}, {"n", s.n}, {"batch", s.batch}, {"epochs", s.epochs}, {"steps", s.steps}, {"sigma", sigma}}
		for _, g := range given {
			if g.f != nil && g.f.set {
				return nil, fmt.Errorf("give the run as -phase flags or as single-phase flags (-q, -n, -batch, -epochs, -steps, -sigma), not both (have -phase and -%s)", g.name)
			}
		}
		out.phases = append(out.phases, r.phases.phases...)
	} else {
		if err := r.single.resolve(withSteps); err != nil {
			return nil, err
		}
		p := phase{q: r.single.q.v, steps: int(r.single.steps.v)}
		if sigma != nil && sigma.set {
			p.sigma = sigma.v
		}
		if r.single.n.set {
			p.n, p.batch = r.single.n.v, r.single.batch.v
		}
		out.phases, out.flags = []phase{p}, true
	}
	if out.wor {
		for i := range out.phases {
			p := &out.phases[i]
			if p.n == 0 {
				return nil, out.phaseError(*p, fmt.Sprintf("-sampling wor draws a fixed batch of batch records out of n at each step: give %s and %s, not %s (q is batch/n)", out.key("n"), out.key("batch"), out.key("q")))
			}
			for _, v := range []struct {
				name string
				v    float64
			}{{"n", p.n}, {"batch", p.batch}} {
				if v.v != math.Trunc(v.v) || v.v > dpevent.MaxCount {
					return nil, out.phaseError(*p, fmt.Sprintf("-sampling wor draws whole records: %s is not a whole number up to 2^53", out.value(v.name, v.v)))
				}
			}
			p.q = dpevent.WORSamplingRatio(p.n, p.batch)
		}
	}
	return out, nil
}

// key words a parameter as the run was given: "-q" or "q=".
func (r *dpRun) key(name string) string {
	if r.flags {
		return "-" + name
	}
	return name + "="
}

// value words a parameter with its value: "-n 100.5" or "n=100.5".
func (r *dpRun) value(name string, v float64) string {
	if r.flags {
		return fmt.Sprintf("-%s %v", name, v)
	}
	return fmt.Sprintf("%s=%v", name, v)
}

// phaseError words msg for the phase p: a -phase flag's value is named.
func (r *dpRun) phaseError(p phase, msg string) error {
	if r.flags {
		return errors.New(msg)
	}
	return fmt.Errorf("-phase %s: %s", p.spec, msg)
}

// needEach requires the key of every phase (what says what it is): "sigma"
// or "steps".
func (r *dpRun) needEach(key, what string) error {
	for _, p := range r.phases {
		if (key == "sigma" && p.sigma == 0) || (key == "steps" && p.steps == 0) {
			if r.flags {
				return fmt.Errorf("missing -%s (%s)", key, what)
			}
			return r.phaseError(p, fmt.Sprintf("missing %s= (%s)", key, what))
		}
	}
	return nil
}

// plan is the run as dpevent.DPSGD plans it: the plan of the event file
// dp_accounting writes for the run, which account composes to the same
// bits. Every eps and delta of epsilon, sigma and steps is this plan's.
func (r *dpRun) plan() (*dpevent.Plan, error) { return dpevent.DPSGD(r.dpPhases(), r.wor) }

// dpPhases are the run's phases as dpevent takes them.
func (r *dpRun) dpPhases() []dpevent.Phase {
	ps := make([]dpevent.Phase, len(r.phases))
	for i, p := range r.phases {
		ps[i] = dpevent.Phase{Q: p.q, Sigma: p.sigma, Steps: int64(p.steps), N: int64(p.n), Batch: int64(p.batch)}
	}
	return ps
}

// sgm reports whether the run is one Poisson-sampled phase (phases of
// the same q and sigma are one term of its plan): the run fast's
// calibrations and the reference's DPSGDReferenceEpsilon take.
func (r *dpRun) sgm() bool {
	p, err := r.plan()
	return err == nil && !r.wor && len(p.Terms) == 1
}

// epsilon is the run's eps for delta on the orders o asks for, and the
// order that gives it: its plan's (sigma and steps check their answers
// with it).
func (r *dpRun) epsilon(delta float64, conv fast.Conversion, o *bestOrdersFlag) (eps, order float64, err error) {
	return r.epsilonOn(delta, conv, o.orders())
}

// epsilonOn is epsilon on orders (nil: the best order).
func (r *dpRun) epsilonOn(delta float64, conv fast.Conversion, orders []float64) (eps, order float64, err error) {
	p, err := r.plan()
	if err != nil {
		return 0, 0, err
	}
	res, err := p.Epsilon(delta, orders, conv)
	if err != nil {
		return 0, 0, err
	}
	return res.Epsilon, res.Order, nil
}

// delta is the run's delta for eps, and the order that gives it: its
// plan's.
func (r *dpRun) delta(eps float64, conv fast.Conversion, o *bestOrdersFlag) (delta, order float64, err error) {
	return r.deltaOn(eps, conv, o.orders())
}

// deltaOn is delta on orders (nil: the best order).
func (r *dpRun) deltaOn(eps float64, conv fast.Conversion, orders []float64) (delta, order float64, err error) {
	p, err := r.plan()
	if err != nil {
		return 0, 0, err
	}
	res, err := p.Delta(eps, orders, conv)
	if err != nil {
		return 0, 0, err
	}
	return res.Delta, res.Order, nil
}

// phaseRDP is each phase's RDP at order: the one term of the phase's own
// plan (Plan.TermRDP, as account's rows are).
func (r *dpRun) phaseRDP(order float64) ([]float64, error) {
	out := make([]float64, len(r.phases))
	for i, ph := range r.phases {
		one := *r
		one.phases = []phase{ph}
		p, err := one.plan()
		if err != nil {
			return nil, err
		}
		rdp, err := p.TermRDP(order)
		if err != nil {
			return nil, err
		}
		out[i] = rdp[0]
	}
	return out, nil
}

// shares are each phase's part of the sum of rdp (NaN when the sum is 0
// or +Inf).
func shares(rdp []float64) []float64 {
	sum := 0.0
	for _, v := range rdp {
		sum += v
	}
	out := make([]float64, len(rdp))
	for i, v := range rdp {
		out[i] = math.NaN()
		if sum > 0 && !math.IsInf(sum, 1) {
			out[i] = v / sum
		}
	}
	return out
}

// describe words the run for the result line: the single phase's
// parameters, or the number of phases and the sampling.
func (r *dpRun) describe() string {
	if len(r.phases) == 1 {
		p := r.phases[0]
		if !r.wor {
			return fmt.Sprintf("q = %g, sigma = %g, steps = %d", p.q, p.sigma, p.steps)
		}
		return fmt.Sprintf("batches of %g of %g drawn without replacement (q = %g), sigma = %g, steps = %d, replace-one", p.batch, p.n, p.q, p.sigma, p.steps)
	}
	if r.wor {
		return fmt.Sprintf("%d phases, batches drawn without replacement, replace-one", len(r.phases))
	}
	return fmt.Sprintf("%d phases, Poisson sampling", len(r.phases))
}

// relation is the neighbouring relation the run is accounted under, as
// dp_accounting names it.
func (r *dpRun) relation() string {
	if r.wor {
		return dpevent.ReplaceOne.String()
	}
	return dpevent.AddOrRemoveOne.String()
}

// phasesJSON is the phases with their RDP at the order and their share.
func (r *dpRun) phasesJSON(rdp []float64) []map[string]any {
	sh := shares(rdp)
	out := make([]map[string]any, len(r.phases))
	for i, p := range r.phases {
		m := map[string]any{"q": schema.JSONFloat(p.q), "sigma": schema.JSONFloat(p.sigma), "steps": p.steps, "rdp": schema.JSONFloat(rdp[i])}
		if p.n > 0 {
			m["n"], m["batch"] = p.n, p.batch
		}
		if !math.IsNaN(sh[i]) {
			m["share"] = sh[i]
		}
		out[i] = m
	}
	return out
}

// printPhases prints a table of the phases, their RDP at order and their
// share of it, indented under the result line.
func (r *dpRun) printPhases(w io.Writer, order float64, rdp []float64) error {
	sh := shares(rdp)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "  phase\tq\tsigma\tsteps\tRDP at order %.10g\tshare\n", order)
	for i, p := range r.phases {
		share := "-"
		if !math.IsNaN(sh[i]) {
			share = strconv.FormatFloat(100*sh[i], 'f', 1, 64) + "%"
		}
		fmt.Fprintf(tw, "  %d\t%g\t%g\t%d\t%s\t%s\n", i+1, p.q, p.sigma, p.steps, bound(rdp[i]), share)
	}
	return tw.Flush()
}

// numList is a flag of one or more comma-separated numbers, each checked
// as the numFlag that one makes.
type numList struct {
	one func() *numFlag
	v   []float64
}

func (l *numList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(l.v))
	for i, v := range l.v {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

// repeatable: -delta 1e-5 -delta 1e-6 adds to the list.
func (l *numList) repeatable() bool { return true }

// Set appends the values: -delta 1e-5,1e-6 and -delta 1e-5 -delta 1e-6 are
// the same.
func (l *numList) Set(s string) error {
	parts := strings.Split(s, ",")
	for _, p := range parts {
		f := l.one()
		if err := f.Set(p); err != nil {
			if len(parts) > 1 {
				return fmt.Errorf("%s: %v", strings.TrimSpace(p), err)
			}
			return err
		}
		l.v = append(l.v, f.v)
	}
	return nil
}

// missing lists the phases (numbered from 1) that leave key out: "sigma"
// or "steps".
func (r *dpRun) missing(key string) []int {
	var out []int
	for i, p := range r.phases {
		if (key == "sigma" && p.sigma == 0) || (key == "steps" && p.steps == 0) {
			out = append(out, i+1)
		}
	}
	return out
}

// withSigma is the run with sigma in the phases that leave it out.
func (r *dpRun) withSigma(sigma float64) *dpRun {
	c := *r
	c.phases = append([]phase(nil), r.phases...)
	for i := range c.phases {
		if c.phases[i].sigma == 0 {
			c.phases[i].sigma = sigma
		}
	}
	return &c
}

// withSteps is the run with steps in the phases that leave them out.
func (r *dpRun) withSteps(steps int) *dpRun {
	c := *r
	c.phases = append([]phase(nil), r.phases...)
	for i := range c.phases {
		if c.phases[i].steps == 0 {
			c.phases[i].steps = steps
		}
	}
	return &c
}

// numbers words phase numbers: "phase 2", "phases 1 and 3", "phases 1, 2 and 4".
func numbers(n []int) string {
	s := make([]string, len(n))
	for i, v := range n {
		s[i] = strconv.Itoa(v)
	}
	if len(s) == 1 {
		return "phase " + s[0]
	}
	return "phases " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// runJSON is the run's part of a result's JSON: the sampling, the
// relation and the phases with their RDP at order.
func (r *dpRun) runJSON(out map[string]any, rdp []float64) {
	out["sampling"], out["relation"], out["phases"] = map[bool]string{false: "poisson", true: "wor"}[r.wor], r.relation(), r.phasesJSON(rdp)
}
