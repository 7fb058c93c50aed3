package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/figure"
	"github.com/rdpcheck/rdpcheck/internal/wording"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const curveDoc = `Prints RDP curves eps(alpha) as a table, or draws them with -png or -svg.
Give one sampled Gaussian with -q, -sigma and -steps, or any number of
mechanisms with repeated -mech flags:

  sgm:q=Q,sigma=S,steps=T    T steps of the Poisson-sampled Gaussian mechanism
  gaussian:sigma=S,count=K   K applications of the Gaussian mechanism
  laplace:b=B,count=K        K applications of the Laplace mechanism
  rr:p=P,count=K             K applications of randomized response
  zcdp:rho=R                 rho-zCDP: the line R*alpha
  puredp:eps=E,count=K       K eps-DP mechanisms: the tight curve of binary
                             randomized response each
  sampled-laplace:q=Q,b=B,count=K  K Poisson-sampled Laplace mechanisms (exact)
  sampled-rr:q=Q,p=P,count=K       K Poisson-sampled randomized responses (exact)
  wor:q=Q,sigma=S,steps=T    T steps of the Gaussian mechanism on a batch of q n records drawn
                             without replacement (replace-one): WBK19's Theorem 27 bound, tightened by
                             its minimum over higher orders and the unsampled Gaussian
  krr:noise=N,k=B,count=K    K k-ary randomized responses over B buckets
                             (replace-one neighbours)
  krr-special:noise=N,k=B,count=K   the same, replace-special neighbours
  em:eps=E,count=K           K exponential mechanisms (bounded-range bound)
  zcdpxi:rho=R,xi=X,count=K  K (xi, rho)-zCDP mechanisms: X + R*alpha each
  em-tight:eps=E,count=K     K exponential mechanisms at min(the tight zCDP line of the worst-case
                             bounded-range mechanism, Harrison-Manurangsi 2025, and the pure-DP curve)
  dgauss:sigma=S,sensitivity=D,count=K   K discrete Gaussians (integer sensitivity D,
                             default 1): the exact divergence, below the zCDP line
  tree:sigma=S,steps=N,restarts=R,count=K  tree aggregation (DP-FTRL), R trees of N
                             steps (R default 1), a record in one tree (dp_accounting)
  tree-every:sigma=S,steps=N,restarts=R,count=K  the same, a record in every tree
                             (TF Privacy's compute_rdp_tree_restart)
  tree-multi:sigma=S,steps=N,participation=M,separation=G,count=K  one tree of N
                             steps, a record in at most M leaves at least G apart
  repeat:sigma=S,mean=M,shape=H,count=K  repeat-and-select (Papernot and Steinke
                             2022) of a Gaussian mechanism (or eps=E: an eps-DP one), a
                             random number of runs of mean M, shape H (inf: Poisson,
                             1: geometric, 0: logarithmic), on the curve's own orders
(count defaults to 1.)

examples:
  rdpcheck curve -q 0.01 -sigma 1.1 -steps 1000
  rdpcheck curve -mech sgm:q=0.01,sigma=1.1,steps=1000 -mech gaussian:sigma=8 -png curves.png
  rdpcheck curve -mech gaussian:sigma=2,count=10 -orders 2,8,inf -json`

func init() {
	register(command{name: "curve", summary: "RDP curves of one or several mechanisms, as a table or a plot", run: runCurve})
}

// mechanism is one curve to draw: count compositions of an event.
type mechanism struct {
	label string
	event fast.Event
	count int
	// spec is how the user gave it (-mech sgm:q=0.01,...), words its
	// errors in the user's names.
	spec  string
	words wording.Wording
}

// curve writes the mechanism's composed curve at orders, rounded up as
// the Accountant composes.
func (m mechanism) curve(orders, out []float64) error {
	acc := fast.Accountant{Orders: orders}
	if err := acc.Compose(m.event, m.count); err != nil {
		return err
	}
	_, c := acc.Curve()
	copy(out, c)
	return nil
}

type mechFlag struct{ mechs []mechanism }

func (m *mechFlag) String() string { return "" }

// repeatable: each -mech adds a curve.
func (m *mechFlag) repeatable() bool { return true }

func (m *mechFlag) Set(v string) error {
	mech, err := parseMechanism(v)
	if err != nil {
		return err
	}
	m.mechs = append(m.mechs, mech)
	return nil
}

// mechKey is a key a -mech form takes.
type mechKey struct {
	name     string
	required bool
	integer  bool    // an exact integer (1e4 is one)
	def      float64 // the value when an optional key is left out
}

func req(name string) mechKey    { return mechKey{name: name, required: true} }
func reqInt(name string) mechKey { return mechKey{name: name, required: true, integer: true} }
func opt(name string, def float64) mechKey {
	return mechKey{name: name, def: def}
}
func optInt(name string, def float64) mechKey {
	return mechKey{name: name, integer: true, def: def}
}

// countKey is the composition count most forms take.
var countKey = optInt("count", 1)

// mechKind is one -mech form: its keys and how it makes its event from
// their values (p[k] for each key k; count and, for sgm and wor, steps
// are the composition count and never reach build).
type mechKind struct {
	// fn is the vector function whose RDP the form accounts: a form whose
	// function is not in the schema's table is not offered (mechKindsFor).
	fn    string
	keys  []mechKey
	build func(p map[string]float64) (label string, e fast.Event, err error)
}

// mechKinds are the -mech forms by name, those of allMechKinds whose
// vector function the schema's table has; curveDoc lists them for users.
var mechKinds = mechKindsFor(schema.Functions)

// mechKindsFor keeps the forms whose function is in fns.
func mechKindsFor(fns []schema.Function) map[string]mechKind {
	out := map[string]mechKind{}
	for name, k := range allMechKinds {
		if schema.Lookup(fns, k.fn) != nil {
			out[name] = k
		}
	}
	return out
}

var allMechKinds = map[string]mechKind{
	"sgm": {schema.SGM, []mechKey{req("q"), req("sigma"), reqInt("steps")}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("SGM q=%g sigma=%g steps=%g", p["q"], p["sigma"], p["steps"]), fast.SGMEvent(p["q"], p["sigma"]), nil
	}},
	"gaussian": {schema.Gaussian, []mechKey{req("sigma"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("Gaussian sigma=%g", p["sigma"]), fast.GaussianEvent(p["sigma"]), nil
	}},
	"laplace": {schema.Laplace, []mechKey{req("b"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("Laplace b=%g", p["b"]), fast.LaplaceEvent(p["b"]), nil
	}},
	"rr": {schema.RandomizedResponse, []mechKey{req("p"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		pr := p["p"]
		return fmt.Sprintf("randomized response p=%g", pr), fast.RandomizedResponseEvent(pr), nil
	}},
	"zcdp": {schema.ZCDP, []mechKey{req("rho"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("%g-zCDP", p["rho"]), fast.ZCDPEvent(p["rho"], 0), nil
	}},
	"puredp": {schema.PureDP, []mechKey{req("eps"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("%g-DP", p["eps"]), fast.PureDPEvent(p["eps"]), nil
	}},
	"sampled-laplace": {schema.SampledLaplace, []mechKey{req("q"), req("b"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("sampled Laplace q=%g b=%g", p["q"], p["b"]), fast.SampledLaplaceEvent(p["q"], p["b"]), nil
	}},
	"sampled-rr": {schema.SampledDivergence, []mechKey{req("q"), req("p"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		q, pr := p["q"], p["p"]
		if !(pr >= 0 && pr <= 1) { // else the error would name the distributions made of it
			return "", nil, fmt.Errorf("p = %v: must be a probability in [0, 1]", pr)
		}
		return fmt.Sprintf("sampled randomized response q=%g p=%g", q, pr), fast.SampledDivergenceEvent(q, []float64{pr, 1 - pr}, []float64{1 - pr, pr}), nil
	}},
	"wor": {schema.WORGaussian, []mechKey{req("q"), req("sigma"), reqInt("steps")}, func(p map[string]float64) (string, fast.Event, error) {
		q, s := p["q"], p["sigma"]
		return fmt.Sprintf("WOR Gaussian q=%g sigma=%g steps=%g", q, s, p["steps"]), fast.WORGaussianEvent(q, s), nil
	}},
	"krr":         krrKind(fast.ReplaceOne),
	"krr-special": krrKind(fast.ReplaceSpecial),
	"em": {schema.ExponentialMechanism, []mechKey{req("eps"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("exponential mechanism eps=%g", p["eps"]), fast.ExponentialMechanismEvent(p["eps"]), nil
	}},
	"zcdpxi": {schema.ZCDP, []mechKey{req("rho"), req("xi"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("(%g, %g)-zCDP", p["xi"], p["rho"]), fast.ZCDPEvent(p["rho"], p["xi"]), nil
	}},
	"em-tight": {schema.BoundedRangeZCDP, []mechKey{req("eps"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		e := p["eps"]
		return fmt.Sprintf("exponential mechanism eps=%g (tight zCDP line, pure DP)", e), fast.OrderFunc(func(a float64) (float64, error) {
			rho, err := fast.BoundedRangeZCDP(e)
			if err != nil {
				return 0, err
			}
			pd, err := fast.PureDP(e, a)
			if err != nil {
				return 0, err
			}
			line := math.Inf(1)
			if !math.IsInf(a, 1) {
				line = math.Nextafter(rho*a, math.Inf(1)) // rounded up
			}
			return math.Min(line, pd), nil
		}), nil
	}},
	"dgauss": {schema.DiscreteGaussian, []mechKey{req("sigma"), optInt("sensitivity", 1), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		return fmt.Sprintf("discrete Gaussian sigma=%g sensitivity=%g", p["sigma"], p["sensitivity"]), fast.DiscreteGaussianEvent(p["sigma"], p["sensitivity"]), nil
	}},
	"tree":       treeKind(fast.TreeOneTree),
	"tree-every": treeKind(fast.TreeEveryTree),
	"tree-multi": {schema.TreeMultiParticipation, []mechKey{req("sigma"), reqInt("steps"), reqInt("participation"), reqInt("separation"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		s, n, m, g := p["sigma"], int(p["steps"]), int(p["participation"]), int(p["separation"])
		return fmt.Sprintf("tree sigma=%g steps=%d participation=%d separation=%d", s, n, m, g), fast.OrderFunc(func(a float64) (float64, error) {
			return fast.TreeMultiParticipation(s, n, m, g, a)
		}), nil
	}},
	"repeat": {schema.RepeatAndSelect, []mechKey{opt("sigma", math.NaN()), opt("eps", math.NaN()), req("mean"), req("shape"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		s, e := p["sigma"], p["eps"]
		var base fast.Event
		var name string
		switch {
		case math.IsNaN(s) == math.IsNaN(e):
			return "", nil, errors.New("give the base mechanism as sigma= (Gaussian) or eps= (eps-DP), one of them")
		case !math.IsNaN(s):
			base, name = fast.GaussianEvent(s), fmt.Sprintf("Gaussian sigma=%g", s)
		default:
			base, name = fast.PureDPEvent(e), fmt.Sprintf("%g-DP", e)
		}
		mean, shape := p["mean"], p["shape"]
		return fmt.Sprintf("repeat-and-select of %s mean=%g shape=%g", name, mean, shape), fast.CurveFunc(func(orders, out []float64) error {
			b := make([]float64, len(orders))
			if err := base.RDP(orders, b); err != nil {
				return err
			}
			return fast.RepeatAndSelectCurve(orders, b, mean, shape, out)
		}), nil
	}},
}

func krrKind(rel string) mechKind {
	return mechKind{schema.KaryRandomizedResponse, []mechKey{req("noise"), reqInt("k"), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		n, k := p["noise"], p["k"]
		return fmt.Sprintf("%g-ary RR noise=%g %s", k, n, rel), fast.KaryRandomizedResponseEvent(n, k, rel), nil
	}}
}

func treeKind(reading fast.TreeRestarts) mechKind {
	return mechKind{schema.TreeAggregation, []mechKey{req("sigma"), reqInt("steps"), optInt("restarts", 1), countKey}, func(p map[string]float64) (string, fast.Event, error) {
		s, n, r := p["sigma"], p["steps"], p["restarts"]
		if r < 1 || r > 1<<20 {
			return "", nil, fmt.Errorf("restarts=%g: want an integer in [1, 1048576]", r)
		}
		steps := make([]int, int(r))
		for i := range steps {
			steps[i] = int(n)
		}
		return fmt.Sprintf("tree aggregation sigma=%g %g trees of %g steps, %v", s, r, n, reading), fast.TreeAggregationEvent(s, steps, reading), nil
	}}
}

// mechArgNames are, by -mech form, the library's argument names that the
// form's keys name otherwise.
var mechArgNames = map[string]map[string]string{
	"krr":         {"buckets": "k"},
	"krr-special": {"buckets": "k"},
	"tree-multi":  {"totalSteps": "steps", "maxParticipation": "participation", "minSeparation": "separation"},
}

// maxMechCount is the largest count (and steps) a -mech form takes, as
// for the -steps flag.
const maxMechCount = 1 << 40

// parseMechanism reads "kind:key=value,...": every key once, each one the
// kind takes, integers exact.
func parseMechanism(spec string) (mechanism, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.TrimSpace(name)
	kind, ok := mechKinds[name]
	if !ok {
		return mechanism{}, fmt.Errorf("unknown kind %q (want one of %s)", name, strings.Join(mechNames(), ", "))
	}
	var names []string
	byName := map[string]mechKey{}
	for _, k := range kind.keys {
		names = append(names, k.name)
		byName[k.name] = k
	}
	p := map[string]float64{}
	err := splitKeyValues(name, rest, names, func(k, v string) error {
		var f float64
		var err error
		if byName[k].integer {
			f, err = parseCount(v, maxMechCount)
		} else {
			f, err = parseNumber(v)
		}
		p[k] = f
		return err
	})
	if err != nil {
		return mechanism{}, err
	}
	for _, k := range kind.keys {
		if _, ok := p[k.name]; ok {
			continue
		}
		if k.required {
			return mechanism{}, fmt.Errorf("missing %s= (%s takes %s)", k.name, name, strings.Join(names, ", "))
		}
		p[k.name] = k.def
	}
	count := 1
	switch {
	case name == "sgm" || name == "wor":
		count = int(p["steps"])
	default:
		if c, ok := p["count"]; ok {
			count = int(c)
		}
	}
	if count < 1 {
		return mechanism{}, errors.New("the count must be at least 1")
	}
	label, e, err := kind.build(p)
	if err != nil {
		return mechanism{}, fmt.Errorf("%v", err)
	}
	if count > 1 && name != "sgm" && name != "wor" {
		label += fmt.Sprintf(" x%d", count)
	}
	return mechanism{label: label, event: e, count: count, spec: "-mech " + strings.TrimSpace(spec), words: wording.Wording{Names: mechArgNames[name]}}, nil
}

// splitKeyValues reads "key=value,..." (what names the form in errors):
// each key one of names and given once; set is called with each key and
// its value (spaces trimmed), and an error of set is returned as
// "key=value: error".
func splitKeyValues(what, list string, names []string, set func(key, value string) error) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(list, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			return fmt.Errorf("%q is not key=value", strings.TrimSpace(kv))
		}
		if !slices.Contains(names, k) {
			return fmt.Errorf("%s takes no key %q (its keys: %s)", what, k, strings.Join(names, ", "))
		}
		if seen[k] {
			return fmt.Errorf("%s= given twice", k)
		}
		seen[k] = true
		if err := set(k, v); err != nil {
			return fmt.Errorf("%s=%s: %v", k, v, err)
		}
	}
	return nil
}

// mechNames lists the -mech kinds in order.
func mechNames() []string {
	names := make([]string, 0, len(mechKinds))
	for n := range mechKinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func runCurve(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("curve", curveDoc, stderr)
	q, sigma, steps := qFlag(), sigmaFlag(), stepsFlag()
	fs.Var(q, "q", "sampling rate in [0, 1] of a single SGM curve, with -sigma (the same as -mech sgm:q=Q,sigma=S,steps=T)")
	fs.Var(sigma, "sigma", "noise multiplier (> 0) of the SGM curve of -q")
	fs.Var(steps, "steps", "steps of the SGM curve of -q, a whole number (1e4 is one) up to 2^40 (default 1)")
	var mechs mechFlag
	fs.Var(&mechs, "mech", "a mechanism `kind:key=value,...` (repeatable; see above)")
	var orders ordersFlag
	fs.Var(&orders, "orders", "RDP orders: grid (the default: dp_accounting's 156) or a comma-separated list (e.g. 1.5,2,4,8,inf)")
	png := fs.String("png", "", "draw the curves into this PNG `file`")
	svg := fs.String("svg", "", "draw the curves into this SVG `file`")
	asJSON := fs.Bool("json", false, "print the curves as JSON instead of a table: the orders and each curve's label and values (float64 upper bounds, unrounded; \"inf\" for +Inf)")
	if st := parse(fs, args); st >= 0 {
		return st
	}
	list := mechs.mechs
	switch {
	case q.set && !sigma.set:
		return usageError(stderr, "curve", "missing -sigma (the noise multiplier of the SGM curve of -q, > 0)")
	case !q.set && (sigma.set || steps.set):
		return usageError(stderr, "curve", "-sigma and -steps describe the SGM curve of -q: give -q too (or -mech sgm:q=Q,sigma=S,steps=T)")
	case q.set:
		n := 1.0
		if steps.set {
			n = steps.v
		}
		m := mechanism{label: fmt.Sprintf("SGM q=%g sigma=%g steps=%.0f", q.v, sigma.v, n), event: fast.SGMEvent(q.v, sigma.v), count: int(n),
			spec: fmt.Sprintf("-q %s -sigma %s -steps %.0f", q, sigma, n)}
		list = append([]mechanism{m}, list...)
	}
	if len(list) == 0 {
		return fail(stderr, "curve", errors.New("nothing to draw: give -q, -sigma and -steps, or -mech"))
	}
	o := orders.get()
	curves := make([][]float64, len(list))
	for i, m := range list {
		curves[i] = make([]float64, len(o))
		if err := m.curve(o, curves[i]); err != nil {
			return fail(stderr, "curve", fmt.Errorf("%s: %s", m.spec, m.words.Message(err)))
		}
	}
	if *asJSON {
		if *png != "" || *svg != "" {
			return usageError(stderr, "curve", "-json prints the curves; give it without -png and -svg")
		}
		jo := make([]any, len(o))
		for j, a := range o {
			jo[j] = schema.JSONFloat(a)
		}
		out := make([]map[string]any, len(list))
		for i, m := range list {
			v := make([]any, len(o))
			for j := range o {
				v[j] = schema.JSONFloat(curves[i][j])
			}
			out[i] = map[string]any{"label": m.label, "count": m.count, "rdp": v}
		}
		if err := writeJSON(stdout, map[string]any{"orders": jo, "curves": out}); err != nil {
			return fail(stderr, "curve", err)
		}
		return 0
	}
	if *png == "" && *svg == "" {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "alpha\t")
		for _, m := range list {
			fmt.Fprintf(tw, "%s\t", m.label)
		}
		fmt.Fprintln(tw)
		for j, a := range o {
			fmt.Fprintf(tw, "%g\t", a)
			for i := range list {
				fmt.Fprintf(tw, "%s\t", bound(curves[i][j]))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return fail(stderr, "curve", err)
		}
		return 0
	}
	series := make([]figure.Series, len(list))
	for i, m := range list {
		series[i] = figure.SeriesOf(m.label, o, curves[i])
	}
	for _, path := range []string{*png, *svg} {
		if path == "" {
			continue
		}
		if err := figure.Lines(path, "RDP curves", "RDP order α", "RDP ε(α) (nats)", true, series); err != nil {
			return fail(stderr, "curve", err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
	return 0
}
