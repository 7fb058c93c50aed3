package vectorstest

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// recorder is a tester that records what Run reports, by subtest.
type recorder struct {
	name string
	log  *map[string][]string // subtest name -> "error: ...", "skip: ...", "log: ..."
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	(*r.log)[r.name] = append((*r.log)[r.name], "error: "+fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	(*r.log)[r.name] = append((*r.log)[r.name], "log: "+fmt.Sprintf(format, args...))
}
func (r *recorder) Skip(args ...any) {
	(*r.log)[r.name] = append((*r.log)[r.name], "skip: "+fmt.Sprint(args...))
}
func (r *recorder) Run(name string, f func(tester)) bool {
	if _, ok := (*r.log)[name]; !ok {
		(*r.log)[name] = []string{}
	}
	f(&recorder{name: name, log: r.log})
	return true
}

// status sums up what a subtest reported: "fail", "skip" or "pass".
func status(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, "error: ") {
			return "fail"
		}
		if strings.HasPrefix(l, "skip: ") {
			return "skip"
		}
	}
	return "pass"
}

// A deliberately broken implementation of closed_forms.json's functions:
// each way of being wrong must be reported in its own group.
func TestBrokenImplementation(t *testing.T) {
	log := map[string][]string{}
	gaussian := func(sigma, alpha float64) (float64, error) {
		// alpha / (2 sigma^2), 1e-9 low, and no input checks: below the
		// truth beyond tolerance, and invalid inputs accepted.
		return alpha / (2 * sigma * sigma) * (1 - 1e-9), nil
	}
	block := make(chan struct{})
	defer close(block)
	impl := Impl{
		Gaussian: gaussian,
		// RandomizedResponse is not offered for any input: a group of
		// unsupported answers grades nothing, and fails.
		RandomizedResponse: func(p, alpha float64) (float64, error) { return 0, fmt.Errorf("rr: %w", ErrUnsupported) },
	}
	run(&recorder{log: &log}, impl, []string{"closed_forms.json"})
	// Laplace never returns: every test is a hang. Run apart, with a short
	// limit (the others keep the default, so a loaded machine cannot turn
	// their answers into hangs).
	slow := Impl{Laplace: func(b, alpha float64) (float64, error) { <-block; return 0, nil }, Timeout: 10 * time.Millisecond}
	hangLog := map[string][]string{}
	run(&recorder{log: &hangLog}, slow, []string{"closed_forms.json"})
	log["closed_forms/laplace"] = hangLog["closed_forms/laplace"]
	got := map[string]string{}
	for name, lines := range log {
		got[name] = status(lines)
	}
	want := map[string]string{
		"closed_forms/gaussian":            "fail",
		"closed_forms/laplace":             "fail",
		"closed_forms/randomized-response": "fail",
		"closed_forms/gaussian-divergence": "skip",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("subtest outcomes (-want +got):\n%s\n%v", diff, log)
	}
	// The failure names the group, its tolerance, the worst tcIds and
	// their inputs; the skip names the missing function.
	for _, c := range []struct{ sub, want string }{
		{"closed_forms/gaussian", "group gaussian (Gaussian) fails at relative tolerance"},
		{"closed_forms/gaussian", "below the truth"},
		{"closed_forms/gaussian", "tcId "},
		{"closed_forms/gaussian", "sigma="},
		{"closed_forms/laplace", "hangs"},
		{"closed_forms/laplace", "(hang)"},
		{"closed_forms/randomized-response", "say unsupported"},
		{"closed_forms/gaussian-divergence", "Impl.GaussianDivergence not provided"},
	} {
		if !strings.Contains(strings.Join(log[c.sub], "\n"), c.want) {
			t.Errorf("%s: no %q in\n%s", c.sub, c.want, strings.Join(log[c.sub], "\n"))
		}
	}
	// The invalid_inputs groups of Gaussian fail: no input is rejected.
	log = map[string][]string{}
	run(&recorder{log: &log}, Impl{Gaussian: gaussian}, []string{"invalid_inputs.json"})
	failed := false
	for _, lines := range log {
		if status(lines) == "fail" && strings.Contains(strings.Join(lines, "\n"), "invalid inputs accepted") {
			failed = true
		}
	}
	if !failed {
		t.Errorf("accepting invalid Gaussian inputs was not reported: %v", log)
	}
}

// A group with nothing graded fails, as `rdpcheck score` fails such
// answers (score.Report.Failed): an SGM that always says unsupported
// passed all 14 sgm_rdp groups. One that answers some tests and says
// unsupported to the others is graded on the rest.
func TestUnsupportedGradesNothing(t *testing.T) {
	never := func(q, sigma, alpha float64) (float64, error) { return 0, ErrUnsupported }
	log := map[string][]string{}
	run(&recorder{log: &log}, Impl{SGM: never}, []string{"sgm_rdp.json"})
	if len(log) != 14 {
		t.Errorf("%d sgm_rdp groups run, want 14", len(log))
	}
	for name, lines := range log {
		if status(lines) != "fail" || !strings.Contains(strings.Join(lines, "\n"), "say unsupported") {
			t.Errorf("%s, every answer unsupported: %s\n%s", name, status(lines), strings.Join(lines, "\n"))
		}
	}
	// fractional orders unsupported, integers answered by fast
	some := func(q, sigma, alpha float64) (float64, error) {
		if alpha != math.Trunc(alpha) {
			return 0, ErrUnsupported
		}
		return fast.SGM(q, sigma, alpha)
	}
	log = map[string][]string{}
	run(&recorder{log: &log}, Impl{SGM: some}, []string{"sgm_rdp.json"})
	for _, name := range []string{"sgm_rdp/special", "sgm_rdp/typical/integer"} {
		if lines, ok := log[name]; !ok || status(lines) != "pass" {
			t.Errorf("%s, integer orders answered: %s\n%s", name, status(lines), strings.Join(lines, "\n"))
		}
	}
}

// A panic fails the group and is named; the run goes on.
func TestPanicReported(t *testing.T) {
	log := map[string][]string{}
	run(&recorder{log: &log}, Impl{Gaussian: func(sigma, alpha float64) (float64, error) {
		if math.IsInf(alpha, 1) {
			panic("no infinite orders")
		}
		return alpha / (2 * sigma * sigma), nil
	}}, []string{"closed_forms.json"})
	if s := strings.Join(log["closed_forms/gaussian"], "\n"); !strings.Contains(s, "panic: no infinite orders") {
		t.Errorf("panic not reported:\n%s", s)
	}
}

// Every function that a group of an embedded vector file calls has a field
// in Impl: with every func field of Impl set, calls() adapts every one, so
// a function added to the vectors but not here fails this test instead of
// being skipped by every user.
func TestImplCoversEveryVectorFunction(t *testing.T) {
	var m Impl
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		fv := v.Field(i)
		if fv.Kind() != reflect.Func || v.Type().Field(i).Name == "Known" {
			continue
		}
		fv.Set(reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
			out := make([]reflect.Value, fv.Type().NumOut())
			for j := range out {
				out[j] = reflect.Zero(fv.Type().Out(j))
			}
			return out
		}))
	}
	have := m.calls()
	missing := map[string]bool{}
	for _, name := range vectors.Names() {
		f, err := vectors.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range f.TestGroups {
			if have[g.Function] == nil {
				missing[g.Function] = true
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("vector functions with no Impl field: %v", slices.Sorted(maps.Keys(missing)))
	}
}

// Profile groups grade any accountant against certified intervals: RDP
// (fast's Accountant at the best order) over-states the optimal profile
// and passes as loose; an accountant reporting half of it (as a
// central-limit approximation can under-state) goes below the floor and
// fails, named as unsound.
func TestProfileAccountants(t *testing.T) {
	compose := func(phases []Phase) (*fast.Accountant, error) {
		if len(phases) == 0 {
			return nil, errors.New("no phases")
		}
		var acc fast.Accountant
		for _, p := range phases {
			if p.Steps < 0 {
				return nil, errors.New("steps < 0")
			}
			if _, err := fast.SGM(p.Q, p.Sigma, 2); err != nil {
				return nil, err
			}
			if p.Steps > 0 {
				if err := acc.ComposeSGM(p.Q, p.Sigma, p.Steps); err != nil {
					return nil, err
				}
			}
		}
		return &acc, nil
	}
	rdpImpl := func(scale float64) Impl {
		return Impl{
			ProfileEpsilon: func(phases []Phase, delta float64) (float64, error) {
				acc, err := compose(phases)
				if err != nil {
					return 0, err
				}
				eps, _, err := acc.BestEpsilon(delta, fast.Improved)
				return scale * eps, err
			},
			ProfileDelta: func(phases []Phase, eps float64) (float64, error) {
				acc, err := compose(phases)
				if err != nil {
					return 0, err
				}
				delta, _, err := acc.BestDelta(eps, fast.Improved)
				return scale * delta, err
			},
		}
	}
	for _, c := range []struct {
		scale float64
		want  string
	}{{1, "pass"}, {0.5, "fail"}} {
		log := map[string][]string{}
		run(&recorder{log: &log}, rdpImpl(c.scale), []string{"profile.json"})
		for _, sub := range []string{"profile/profile-epsilon/dpsgd", "profile/profile-delta/dpsgd"} {
			if got := status(log[sub]); got != c.want {
				t.Errorf("RDP answers times %g, %s: %s, want %s\n%s", c.scale, sub, got, c.want, strings.Join(log[sub], "\n"))
			}
			if c.want == "fail" && !strings.Contains(strings.Join(log[sub], "\n"), "below the certified lower bound (unsound)") {
				t.Errorf("%s: the failure does not say unsound:\n%s", sub, strings.Join(log[sub], "\n"))
			}
		}
	}
}

// The slices an Impl is given are its own: one that overwrites its trees
// after answering changes nothing Run reads afterwards (they were the
// vector file's own slice: Known saw them overwritten, and the call's
// goroutine, still running after a hang, could write them while Run read
// them).
func TestImplSlicesAreItsOwn(t *testing.T) {
	var seen [][]int
	scribble := Impl{
		TreeAggregation: func(sigma float64, trees []int, r fast.TreeRestarts, alpha float64) (float64, error) {
			v, err := fast.TreeAggregation(sigma, trees, r, alpha)
			for i := range trees {
				trees[i] = -7777
			}
			return v, err
		},
		Known: func(file string, g *schema.Group, tc *schema.Test) string {
			seen = append(seen, tc.Trees)
			return ""
		},
	}
	log := map[string][]string{}
	run(&recorder{log: &log}, scribble, []string{"dgauss_tree_repeat.json"})
	if status(log["dgauss_tree_repeat/tree-aggregation"]) != "pass" {
		t.Errorf("tree-aggregation: %v", log["dgauss_tree_repeat/tree-aggregation"])
	}
	n := 0
	for _, trees := range seen {
		if slices.Contains(trees, -7777) {
			n++
		}
	}
	if n > 0 {
		t.Errorf("Known saw the trees the Impl overwrote in %d tests", n)
	}
	log = map[string][]string{}
	run(&recorder{log: &log}, Impl{Gaussian: fast.Gaussian, Timeout: -time.Second}, []string{"closed_forms.json"})
	if s := fmt.Sprint(log); !strings.Contains(s, "Impl.Timeout") {
		t.Errorf("a negative Timeout: %s", s)
	}
}

// sliceImpl is fast handed over for the functions that take slices,
// changing its slices after each answer as mode says: 0 leaves them, 1
// reverses them, 2 overwrites them with NaN, 3 keeps them and overwrites
// the previous call's at the next call.
func sliceImpl(mode int) Impl {
	var kept [][]float64
	done := func(xs ...[]float64) {
		switch mode {
		case 1:
			for _, x := range xs {
				slices.Reverse(x)
			}
		case 2:
			for _, x := range xs {
				for i := range x {
					x[i] = math.NaN()
				}
			}
		case 3:
			for _, x := range kept {
				for i := range x {
					x[i] = -1
				}
			}
			kept = xs
		}
	}
	return Impl{
		Divergence: func(p, q []float64, alpha float64) (float64, error) {
			v, err := fast.Divergence(p, q, alpha)
			done(p, q)
			return v, err
		},
		Epsilon: func(orders, rdp []float64, delta float64, c fast.Conversion) (float64, float64, error) {
			v, o, err := fast.Epsilon(orders, rdp, delta, c)
			done(orders, rdp)
			return v, o, err
		},
		Delta: func(orders, rdp []float64, eps float64, c fast.Conversion) (float64, float64, error) {
			v, o, err := fast.Delta(orders, rdp, eps, c)
			done(orders, rdp)
			return v, o, err
		},
		RepeatAndSelect: func(orders, rdp []float64, mean, shape, alpha float64) (float64, error) {
			v, err := fast.RepeatAndSelect(orders, rdp, mean, shape, alpha)
			done(orders, rdp)
			return v, err
		},
		TreeAggregation: func(sigma float64, trees []int, r fast.TreeRestarts, alpha float64) (float64, error) {
			v, err := fast.TreeAggregation(sigma, trees, r, alpha)
			if mode != 0 {
				slices.Reverse(trees)
				for i := range trees {
					trees[i] = -trees[i] - 1
				}
			}
			return v, err
		},
	}
}

// TestImplSlicesProperty: whatever an Impl does to its slices after
// answering (reverse them, overwrite them, keep them and overwrite them
// later), Run reports exactly what it reports for one that leaves them.
func TestImplSlicesProperty(t *testing.T) {
	files := []string{"conversions.json", "divergence.json", "dgauss_tree_repeat.json"}
	want := map[string][]string{}
	run(&recorder{log: &want}, sliceImpl(0), files)
	checks := 0
	rapid.Check(t, func(t *rapid.T) {
		mode := rapid.IntRange(1, 3).Draw(t, "mode")
		if checks++; checks > 6 {
			return // each check grades three files; six cover the modes
		}
		got := map[string][]string{}
		run(&recorder{log: &got}, sliceImpl(mode), files)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("mode %d (-slices left +slices changed):\n%s", mode, diff)
		}
	})
}

// TestEventAccountants: an RDP accountant of DpEvents (dpevent's plan in
// fast, as dp_accounting's RdpAccountant traverses the event) passes the
// users' questions of event_profile.json, valid upper bounds; the same
// answers halved fail, named as unsound.
func TestEventAccountants(t *testing.T) {
	plan := func(event []byte, relation string) (*dpevent.Plan, error) {
		f, err := dpevent.Decode(event)
		if err != nil {
			return nil, err
		}
		rel, err := dpevent.ParseRelation(relation)
		if err != nil {
			return nil, err
		}
		p, err := dpevent.NewPlan(f.Event, rel)
		if errors.Is(err, dpevent.ErrNoRDP) {
			return nil, fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		return p, err
	}
	rdpImpl := func(scale float64) Impl {
		return Impl{
			EventEpsilon: func(event []byte, relation string, delta float64) (float64, error) {
				p, err := plan(event, relation)
				if err != nil {
					return 0, err
				}
				r, err := p.Epsilon(delta, nil, fast.Improved)
				if err != nil {
					return 0, err
				}
				return scale * r.Epsilon, nil
			},
			EventDelta: func(event []byte, relation string, eps float64) (float64, error) {
				p, err := plan(event, relation)
				if err != nil {
					return 0, err
				}
				r, err := p.Delta(eps, nil, fast.Improved)
				if err != nil {
					return 0, err
				}
				return scale * r.Delta, nil
			},
		}
	}
	for _, c := range []struct {
		scale float64
		want  string
	}{{1, "pass"}, {0.5, "fail"}} {
		log := map[string][]string{}
		run(&recorder{log: &log}, rdpImpl(c.scale), []string{"event_profile.json"})
		for _, sub := range []string{"event_profile/event-epsilon/users-asked"} {
			if got := status(log[sub]); got != c.want {
				t.Errorf("RDP answers times %g, %s: %s, want %s\n%s", c.scale, sub, got, c.want, strings.Join(log[sub], "\n"))
			}
			if c.want == "fail" && !strings.Contains(strings.Join(log[sub], "\n"), "below the certified lower bound (unsound)") {
				t.Errorf("%s: the failure does not say unsound:\n%s", sub, strings.Join(log[sub], "\n"))
			}
		}
	}
}
