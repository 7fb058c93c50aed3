package dpevent_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// contractFile composes a Gaussian, a Poisson-sampled Gaussian (100
// steps) and an (epsilon, delta) event, under add/remove.
const contractFile = `{"class_name": "ComposedDpEvent", "events": [
	{"class_name": "GaussianDpEvent", "noise_multiplier": 3},
	{"class_name": "SelfComposedDpEvent", "count": 100, "event":
		{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01,
		 "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.1}}},
	{"class_name": "EpsilonDeltaDpEvent", "epsilon": 0.1, "delta": 1e-9}]}`

// planAnswers is everything a plan answers, as text.
func planAnswers(t *testing.T, p *dpevent.Plan) string {
	t.Helper()
	orders := []float64{1.5, 2, 4, 8, 16, 32}
	e, err := p.Epsilon(1e-5, orders, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Delta(1, orders, fast.Improved)
	if err != nil {
		t.Fatal(err)
	}
	ph, phErr := p.SGMPhases()
	ref, _, err := p.ReferenceRDP(reference.Context{Prec: 64}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("eps %v, delta %v, extra %v, phases %v (%v), reference RDP at 2 %s", *e, *d, p.ExtraDelta(), ph, phErr, ref.Text('g', 20))
}

// A Plan's exported fields describe it: writing to them changes no
// answer. SGMPhases read Relation and the methods read Terms back, so a
// plan made under REPLACE_ONE, its Relation set to ADD_OR_REMOVE_ONE,
// gave phases of the sampled Gaussian (an add/remove profile for a
// replace-one run), and a changed Count or SGM changed eps or the phases
// alone.
func TestPlanFieldsAfterUse(t *testing.T) {
	make := func(rel dpevent.Relation) *dpevent.Plan {
		p, err := dpevent.ReadBytes([]byte(`{"class_name": "GaussianDpEvent", "noise_multiplier": 3}`), &rel)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := make(dpevent.ReplaceOne)
	p.Relation = dpevent.AddOrRemoveOne
	if ph, err := p.SGMPhases(); !errors.Is(err, rdpcheck.ErrInput) {
		t.Errorf("a REPLACE_ONE plan with its Relation field set to ADD_OR_REMOVE_ONE: SGMPhases = %v, %v, want ErrInput", ph, err)
	}
	rel := dpevent.AddOrRemoveOne
	base, err := dpevent.ReadBytes([]byte(contractFile), &rel)
	if err != nil {
		t.Fatal(err)
	}
	want := planAnswers(t, base)
	for _, c := range []struct {
		name   string
		change func(p *dpevent.Plan)
	}{
		{"Relation", func(p *dpevent.Plan) { p.Relation = dpevent.ReplaceSpecial }},
		{"a Count", func(p *dpevent.Plan) { p.Terms[1].Count = 1 }},
		{"an SGM", func(p *dpevent.Plan) { p.Terms[1].SGM.Sigma = 100 }},
		{"a Fast event", func(p *dpevent.Plan) { p.Terms[0].Fast = fast.ZCDPEvent(0, 0) }},
		{"the terms", func(p *dpevent.Plan) { p.Terms = p.Terms[:1] }},
		{"the notes", func(p *dpevent.Plan) { p.Notes = append(p.Notes, "x") }},
	} {
		p, err := dpevent.ReadBytes([]byte(contractFile), &rel)
		if err != nil {
			t.Fatal(err)
		}
		c.change(p)
		if got := planAnswers(t, p); got != want {
			t.Errorf("%s changed after the plan was made:\n got %s\nwant %s", c.name, got, want)
		}
	}
	// A Plan written as a literal accounts its fields as at its first use.
	lit := &dpevent.Plan{Relation: base.Relation, Terms: slices.Clone(base.Terms)}
	got := planAnswers(t, lit)
	lit.Terms[1].Count = 1
	if again := planAnswers(t, lit); again != got {
		t.Errorf("a literal Plan changed after its first use:\n got %s\nwant %s", again, got)
	}
}

// Slices: orders given to a Plan are only read and not kept, and the
// lists an Event returns are its caller's.
func TestPlanSlices(t *testing.T) {
	rel := dpevent.AddOrRemoveOne
	p, err := dpevent.ReadBytes([]byte(contractFile), &rel)
	if err != nil {
		t.Fatal(err)
	}
	orders := []float64{1.5, 2, 4, 8}
	a, err := p.Accountant(orders)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := a.Epsilon(1e-5, fast.Improved)
	r, err := p.Epsilon(1e-5, orders, fast.Improved)
	if err != nil || !slices.Equal(orders, []float64{1.5, 2, 4, 8}) {
		t.Fatalf("Epsilon: %v, orders now %v", err, orders)
	}
	slices.Reverse(orders)
	if got, _, _ := a.Epsilon(1e-5, fast.Improved); got != want || r.Epsilon != want {
		t.Errorf("Accountant's eps after its orders were reversed: %v, want %v (Epsilon %v)", got, want, r.Epsilon)
	}
	f, err := dpevent.Decode([]byte(contractFile))
	if err != nil {
		t.Fatal(err)
	}
	list := f.Event.List("events")
	list[0] = nil
	if f.Event.List("events")[0] == nil {
		t.Errorf("List returned the event's own slice")
	}
	p2, err := dpevent.NewPlan(f.Event, dpevent.AddOrRemoveOne)
	if err != nil {
		t.Fatal(err)
	}
	if got, wantText := planAnswers(t, p2), planAnswers(t, p); got != wantText {
		t.Errorf("a plan of the event after its list was changed:\n got %s\nwant %s", got, wantText)
	}
	tree, err := dpevent.Decode([]byte(`{"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 1, "step_counts": [4, 8]}`))
	if err != nil {
		t.Fatal(err)
	}
	plan := func() string {
		p, err := dpevent.NewPlan(tree.Event, dpevent.ReplaceSpecial)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Epsilon(1e-5, nil, fast.Improved)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(*r)
	}
	before := plan()
	steps := tree.Event.Ints("step_counts")
	steps[0] = 1 << 40
	if got := tree.Event.Ints("step_counts"); !slices.Equal(got, []int64{4, 8}) {
		t.Errorf("Ints returned the event's own slice: step_counts now %v", got)
	}
	if after := plan(); after != before {
		t.Errorf("the plan of a tree event after its Ints were changed: %s, want %s", after, before)
	}
}

// specials are the float64 inputs every function meets: NaN, the
// infinities, both zeros, subnormals, the extremes and values near the
// usual ones.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, 2.2e-308, 1e-300, 1e-12, 1e-5, 0.5, 1, 1 + 0x1p-52, 2, 1e6, 1e300, math.MaxFloat64, -1}

func drawSpecial(t *rapid.T, label string) float64 {
	return rapid.OneOf(rapid.SampledFrom(specials), rapid.Float64()).Draw(t, label)
}

// typed says whether err has one of rdp's kinds.
func typed(err error) bool {
	return errors.Is(err, rdpcheck.ErrInput) || errors.Is(err, rdpcheck.ErrTooLarge) || errors.Is(err, rdpcheck.ErrPrecision) || errors.Is(err, rdpcheck.ErrNotConverged)
}

// TestContractSpecialInputs: every exported function of dpevent, given
// NaN, infinities, signed zeros, subnormals and huge values (in files, in
// arguments), returns a value or an error of one of rdp's kinds: never a
// panic, never NaN with a nil error, never an untyped error.
func TestContractSpecialInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := drawSpecial(t, "x"), drawSpecial(t, "y")
		n := rapid.OneOf(rapid.SampledFrom([]int64{-1, 0, 1, 1 << 53, 1<<53 + 1, math.MaxInt64}), rapid.Int64()).Draw(t, "count")
		files := []string{
			fmt.Sprintf(`{"class_name": "GaussianDpEvent", "noise_multiplier": %s}`, num(x)),
			fmt.Sprintf(`{"class_name": "LaplaceDpEvent", "noise_multiplier": %s}`, num(x)),
			fmt.Sprintf(`{"class_name": "SelfComposedDpEvent", "count": %d, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": %s}}`, n, num(x)),
			fmt.Sprintf(`{"class_name": "PoissonSampledDpEvent", "sampling_probability": %s, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": %s}}`, num(x), num(y)),
			fmt.Sprintf(`{"class_name": "EpsilonDeltaDpEvent", "epsilon": %s, "delta": %s}`, num(x), num(y)),
			fmt.Sprintf(`{"class_name": "ZCDpEvent", "rho": %s, "xi": %s}`, num(x), num(y)),
			fmt.Sprintf(`{"event": {"class_name": "RandomizedResponseDpEvent", "noise_parameter": %s, "num_buckets": %d}, "neighboring_relation": "REPLACE_ONE"}`, num(x), n),
			fmt.Sprintf(`{"class_name": "DiscreteGaussianDpEvent", "sigma": %s, "sensitivity": %d}`, num(x), n),
			`{"class_name": "NoSuchDpEvent"}`, `[1, 2]`, `{"class_name": "GaussianDpEvent"`, ``, `{"event": 3}`,
		}
		data := []byte(rapid.SampledFrom(files).Draw(t, "file"))
		if rapid.Bool().Draw(t, "mangle") && len(data) > 0 {
			i := rapid.IntRange(0, len(data)-1).Draw(t, "at")
			data[i] = rapid.Byte().Draw(t, "byte")
		}
		rel := rapid.SampledFrom([]dpevent.Relation{dpevent.AddOrRemoveOne, dpevent.ReplaceOne, dpevent.ReplaceSpecial, dpevent.Relation(7)}).Draw(t, "relation")
		p, err := dpevent.ReadBytes(data, &rel)
		if err != nil {
			if !typed(err) {
				t.Fatalf("ReadBytes(%q): untyped error %v", data, err)
			}
			return
		}
		orders := [][]float64{nil, {x}, {1.5, y}, {}}[rapid.IntRange(0, 3).Draw(t, "orders")]
		conv := rapid.SampledFrom([]fast.Conversion{fast.Classic, fast.Improved, fast.Conversion(9)}).Draw(t, "conv")
		check := func(what string, vs []float64, err error) {
			if err != nil {
				if !typed(err) {
					t.Fatalf("%s: untyped error %v", what, err)
				}
				return
			}
			for _, v := range vs {
				if math.IsNaN(v) {
					t.Fatalf("%s = NaN with a nil error", what)
				}
			}
		}
		r, err := p.Epsilon(y, orders, conv)
		if err == nil {
			check(fmt.Sprintf("Epsilon(%v, %v)", y, orders), append([]float64{r.Epsilon, r.Order}, r.TermRDP...), nil)
		} else {
			check(fmt.Sprintf("Epsilon(%v, %v)", y, orders), nil, err)
		}
		r, err = p.Delta(y, orders, conv)
		if err == nil {
			check(fmt.Sprintf("Delta(%v, %v)", y, orders), append([]float64{r.Epsilon, r.Delta, r.Order}, r.TermRDP...), nil)
		} else {
			check(fmt.Sprintf("Delta(%v, %v)", y, orders), nil, err)
		}
		_, err = p.SGMPhases()
		check("SGMPhases", nil, err)
		if a, err := p.Accountant(orders); err == nil {
			e, o, err := a.Epsilon(1e-5, fast.Improved)
			check("Accountant().Epsilon", []float64{e, o}, err)
		} else {
			check("Accountant", nil, err)
		}
		check("ExtraDelta", []float64{p.ExtraDelta()}, nil)
		ctx := reference.Context{Prec: 64}
		if v, _, err := p.ReferenceRDP(ctx, y, nil); err == nil {
			if v == nil || v.Sign() < 0 {
				t.Fatalf("ReferenceRDP(%v) = %v", y, v)
			}
		} else {
			check(fmt.Sprintf("ReferenceRDP(%v)", y), nil, err)
		}
		_, err = p.ReferenceEpsilon(ctx, x, y, reference.Improved, nil)
		check(fmt.Sprintf("ReferenceEpsilon(%v, %v)", x, y), nil, err)
	})
	// caught: a term's reference form took any order (-2e646 at -1, a
	// panic at NaN)
	p, err := dpevent.ReadBytes([]byte(`{"class_name": "DiscreteGaussianDpEvent", "sigma": 5e-324, "sensitivity": 1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []float64{-1, math.NaN(), 0.5, 1} {
		if v, _, err := p.ReferenceRDP(reference.Context{Prec: 64}, o, nil); !errors.Is(err, rdpcheck.ErrInput) {
			t.Errorf("ReferenceRDP(order %v) = %v, %v: want ErrInput", o, v, err)
		}
	}
	for _, s := range []string{"", "ADD", "replace_two", "NeighboringRelation."} {
		if _, err := dpevent.ParseRelation(s); !errors.Is(err, rdpcheck.ErrInput) {
			t.Errorf("ParseRelation(%q): %v, want ErrInput", s, err)
		}
	}
	if !errors.Is(dpevent.ErrNested, rdpcheck.ErrTooLarge) || !errors.Is(dpevent.ErrTooDeep, rdpcheck.ErrTooLarge) || !errors.Is(dpevent.ErrDeltaTooSmall, rdpcheck.ErrInput) {
		t.Errorf("ErrNested, ErrTooDeep: want ErrTooLarge; ErrDeltaTooSmall: want ErrInput")
	}
}

// num writes x as the JSON a file may hold (infinities as Python's repr).
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return `"nan"`
	case math.IsInf(x, 1):
		return `"inf"`
	case math.IsInf(x, -1):
		return `"-inf"`
	}
	return fmt.Sprint(x)
}

// A Plan is safe for concurrent use: its methods from several goroutines
// agree with one goroutine's answers (and go test -race finds no race).
func TestPlanConcurrent(t *testing.T) {
	rel := dpevent.AddOrRemoveOne
	file := `{"class_name": "ComposedDpEvent", "events": [
		{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.1, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 2}},
		{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.1, "event": {"class_name": "DiscreteGaussianDpEvent", "sigma": 2, "dimension": 1}}]}`
	p, err := dpevent.ReadBytes([]byte(file), &rel)
	if err != nil {
		t.Fatal(err)
	}
	one, err := dpevent.ReadBytes([]byte(file), &rel)
	if err != nil {
		t.Fatal(err)
	}
	want := planAnswers(t, one)
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Go(func() { got[i] = planAnswers(t, p) })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d: %s, want %s", i, g, want)
		}
	}
}

// TestSliceProperty: what dpevent is given as a slice (a file's bytes,
// orders) is only read and not kept: a caller that changes it after the
// call changes no result, and the call leaves it as it was.
func TestSliceProperty(t *testing.T) {
	files := []string{contractFile,
		`{"class_name": "SelfComposedDpEvent", "count": 50, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 2}}`,
		`{"event": {"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 4}, "neighboring_relation": "REPLACE_ONE"}`}
	answers := func(p *dpevent.Plan, orders []float64) string {
		e, err := p.Epsilon(1e-5, orders, fast.Improved)
		d, err2 := p.Delta(1, orders, fast.Improved)
		return fmt.Sprint(e, err, d, err2)
	}
	rapid.Check(t, func(t *rapid.T) {
		file := rapid.SampledFrom(files).Draw(t, "file")
		orders := rapid.SliceOfN(rapid.SampledFrom([]float64{1.5, 2, 3, 4.5, 8, 16, 64, math.Inf(1)}), 1, 5).Draw(t, "orders")
		scramble := func(xs []float64) {
			for i := range xs {
				xs[i] = -float64(i)
			}
		}
		// the file's bytes
		data := []byte(file)
		p, err := dpevent.ReadBytes(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := answers(p, slices.Clone(orders))
		for i := range data {
			data[i] = ' '
		}
		if got := answers(p, slices.Clone(orders)); got != want {
			t.Fatalf("after the file's bytes were overwritten: %s, want %s", got, want)
		}
		// orders given to Epsilon and Delta
		o := slices.Clone(orders)
		if got := answers(p, o); got != want || !slices.Equal(o, orders) {
			t.Fatalf("Epsilon and Delta: %s (orders now %v), want %s (orders %v)", got, o, want, orders)
		}
		// orders given to Accountant
		o = slices.Clone(orders)
		a, err := p.Accountant(o)
		if err != nil {
			t.Fatal(err)
		}
		e1, o1, err1 := a.Epsilon(1e-5, fast.Improved)
		scramble(o)
		if e2, o2, err2 := a.Epsilon(1e-5, fast.Improved); e2 != e1 || o2 != o1 || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("the Accountant after its orders were overwritten: %v at %v (%v), want %v at %v (%v)", e2, o2, err2, e1, o1, err1)
		}
	})
}
