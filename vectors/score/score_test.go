package score_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

// outcome is what a group's grade says about the outcomes that are not
// values.
type outcome struct {
	Answered, Unsupported, Hang, RejectedValid int
	Failed                                     bool
}

func TestOutcomes(t *testing.T) {
	f, err := vectors.Load("closed_forms.json")
	if err != nil {
		t.Fatal(err)
	}
	g := f.TestGroups[0]
	// Every test of the first group answered: the first three unsupported
	// (in the two spellings), the fourth a hang, the rest exact.
	var b strings.Builder
	for i, tc := range g.Tests {
		switch i {
		case 0:
			fmt.Fprintf(&b, "{\"tcId\": %d, \"unsupported\": true}\n", tc.TcID)
		case 1:
			fmt.Fprintf(&b, "{\"tcId\": %d, \"error\": \"NotImplementedError: no classic conversion\"}\n", tc.TcID)
		case 2:
			fmt.Fprintf(&b, "{\"tcId\": %d, \"unsupported\": true, \"value\": null}\n", tc.TcID)
		case 3:
			fmt.Fprintf(&b, "{\"tcId\": %d, \"hang\": true}\n", tc.TcID)
		default:
			if tc.Result == schema.Invalid {
				fmt.Fprintf(&b, "{\"tcId\": %d, \"error\": \"ValueError\"}\n", tc.TcID)
			} else {
				fmt.Fprintf(&b, "{\"tcId\": %d, \"value\": %q}\n", tc.TcID, tc.ExpectedFloat64)
			}
		}
	}
	ans, err := score.Parse([]byte(b.String()), "a.jsonl", "auto")
	if err != nil {
		t.Fatal(err)
	}
	// Without the hang the group passes: unsupported is never a failure.
	noHang := map[int]score.Answer{}
	for id, a := range ans {
		if !a.Hang {
			noHang[id] = a
		}
	}
	for _, c := range []struct {
		name string
		ans  map[int]score.Answer
		want outcome
	}{
		{"with hang", ans, outcome{Answered: len(g.Tests), Unsupported: 3, Hang: 1, Failed: true}},
		{"without hang", noHang, outcome{Answered: len(g.Tests) - 1, Unsupported: 3}},
	} {
		r, err := score.Score(f, c.ans, score.Options{Group: g.Name})
		if err != nil {
			t.Fatal(err)
		}
		gs := r.Groups[0]
		got := outcome{gs.Answered, gs.Unsupported, gs.Hang, gs.RejectedValid, gs.Failed()}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	// The hang is the worst case, said as such, with the test's inputs.
	r, _ := score.Score(f, ans, score.Options{Group: g.Name})
	var out strings.Builder
	r.Print(&out, "a.jsonl", "closed_forms.json", 1)
	hang := g.Tests[3]
	if want := fmt.Sprintf("tcId %d (%s): no answer within the runner's time limit (hang)", hang.TcID, hang.Comment); !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	if !strings.Contains(out.String(), "unsupported") || !strings.Contains(out.String(), "hang") {
		t.Errorf("report lacks the unsupported and hang columns:\n%s", out.String())
	}
}

func TestParseCSVOutcomes(t *testing.T) {
	ans, err := score.Parse([]byte("tcId,value\n1,unsupported\n2,hang\n3,error: x\n4,0x1p-1\n"), "a.csv", "auto")
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	want := map[int]score.Answer{
		1: {Unsupported: true, Order: nan, Line: 2},
		2: {Hang: true, Order: nan, Line: 3},
		3: {Rejected: true, Error: "error: x", Order: nan, Line: 4},
		4: {Value: 0.5, Order: nan, Line: 5},
	}
	if diff := cmp.Diff(want, ans, cmp.Comparer(func(a, b float64) bool { return a == b || (a != a && b != b) })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInputs(t *testing.T) {
	f, err := vectors.Load("sgm_rdp.json")
	if err != nil {
		t.Fatal(err)
	}
	tc := f.TestGroups[0].Tests[0]
	// The inputs as the file writes them, in decimal.
	want := fmt.Sprintf("q=%s sigma=%s alpha=%s", tc.Q, tc.Sigma, tc.Alpha)
	if got := score.Inputs(f.TestGroups[0], tc); got != want {
		t.Errorf("Inputs = %q, want %q", got, want)
	}
}

// Answers between a valid shortcut's bound and the formula's value are
// tighter, valid; below the bound they are below the truth, measured
// against the bound.
func TestShortcuts(t *testing.T) {
	f, err := vectors.Load("conversions.json")
	if err != nil {
		t.Fatal(err)
	}
	var eps0, deltaBH *schema.Test // an eps = 0 shortcut; a nonzero delta one
	var group string
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			switch {
			case tc.Shortcut == nil:
			case g.Name == "delta/improved" && tc.Shortcut.Value != "0" && deltaBH == nil:
				deltaBH = tc
			case g.Name == "epsilon/improved" && eps0 == nil:
				eps0 = tc
			}
		}
	}
	if eps0 == nil || deltaBH == nil {
		t.Fatalf("conversions.json has no shortcut tests in the improved groups")
	}
	bound, _ := schema.ParseFloat(deltaBH.Shortcut.Value)
	for _, c := range []struct {
		name  string
		id    int
		group string
		value float64
		want  [3]int // tighter valid, below, over tolerance
		rel   float64
	}{
		{"eps 0", eps0.TcID, "epsilon/improved", 0, [3]int{1, 0, 0}, 0},
		{"delta at the bound, rounded up", deltaBH.TcID, "delta/improved", math.Nextafter(bound, 2), [3]int{1, 0, 0}, 0},
		// 1e-8 below the bound, as dp_accounting's float64 BH bound is.
		{"delta below the bound", deltaBH.TcID, "delta/improved", bound * (1 - 1e-8), [3]int{0, 1, 1}, 1e-8},
	} {
		group = c.group
		r, err := score.Score(f, map[int]score.Answer{c.id: {Value: c.value, Order: math.NaN()}}, score.Options{Group: group})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Groups[0]
		if got := [3]int{g.TighterValid, g.Below, g.OverTolerance}; got != c.want {
			t.Errorf("%s: tighter valid, below, over tolerance = %v, want %v", c.name, got, c.want)
		}
		if c.rel != 0 && math.Abs(g.MaxRel-c.rel) > 1e-9 {
			t.Errorf("%s: relative error %.3g, want %.3g against the bound", c.name, g.MaxRel, c.rel)
		}
	}
}

// A tcId that comes to mean another test is refused; a changed expected
// value or comment is not.
func TestCheckDigests(t *testing.T) {
	f, err := vectors.Load("closed_forms.json")
	if err != nil {
		t.Fatal(err)
	}
	stored := score.Digests{}
	stored.Add("closed_forms.json", f)
	tc := f.TestGroups[0].Tests[0]
	ans := map[int]score.Answer{tc.TcID: {Value: 1}}
	if err := score.CheckDigests("closed_forms.json", f, ans, stored); err != nil {
		t.Fatalf("same file: %v", err)
	}
	tc.Expected, tc.Comment = "1", "reworded"
	if err := score.CheckDigests("closed_forms.json", f, ans, stored); err != nil {
		t.Errorf("expected value and comment changed: %v", err)
	}
	tc.SetFloat("alpha", 3.25)
	err = score.CheckDigests("closed_forms.json", f, ans, stored)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("tcId %d: made for test", tc.TcID)) {
		t.Errorf("input changed: err = %v, want a refusal naming tcId %d", err, tc.TcID)
	}
	if err := score.CheckDigests("sgm_rdp.json", f, ans, stored); err == nil {
		t.Errorf("no stored digests for the file: accepted")
	}
	// Write and ParseDigests round-trip.
	var b strings.Builder
	if err := stored.Write(&b, "test"); err != nil {
		t.Fatal(err)
	}
	back, err := score.ParseDigests([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stored, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// TestFailsClosed: answers that answer nothing fail, and a group without
// answers is unanswered, never passing (caught: "0 of 1 groups fail", exit
// 0, for an empty answers file).
func TestFailsClosed(t *testing.T) {
	f, err := vectors.Load("closed_forms.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := score.Score(f, map[int]score.Answer{}, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := len(f.TestGroups)
	if diff := cmp.Diff(score.Counts{Unanswered: n}, r.Count()); diff != "" || !r.Failed() {
		t.Errorf("no answers: Failed() = %v, counts (-want +got):\n%s", r.Failed(), diff)
	}
	var out strings.Builder
	r.Print(&out, "a.jsonl", "closed_forms.json", 3)
	if want := fmt.Sprintf("0 of %d tests answered; of %d groups, 0 pass, 0 fail, %d unanswered", f.NumberOfTests, n, n); !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	// One exact answer in the first group: it passes, the others stay
	// unanswered and the file does not fail; with Complete all fail.
	tc := f.TestGroups[0].Tests[0]
	v, _ := schema.ParseFloat(tc.ExpectedFloat64)
	one := map[int]score.Answer{tc.TcID: {Value: v, Order: math.NaN()}}
	if tc.Result == schema.Invalid {
		one[tc.TcID] = score.Answer{Rejected: true, Order: math.NaN()}
	}
	r, _ = score.Score(f, one, score.Options{})
	if diff := cmp.Diff(score.Counts{Answered: 1, Passing: 1, Unanswered: n - 1}, r.Count()); diff != "" || r.Failed() {
		t.Errorf("one answer: Failed() = %v, counts (-want +got):\n%s", r.Failed(), diff)
	}
	if s := r.Groups[1].Status(); s != score.StatusUnanswered {
		t.Errorf("an unanswered group's status is %q", s)
	}
	r, _ = score.Score(f, one, score.Options{Complete: true})
	if diff := cmp.Diff(score.Counts{Answered: 1, Failing: n}, r.Count()); diff != "" || !r.Failed() {
		t.Errorf("one answer, Complete: counts (-want +got):\n%s", diff)
	}
}

// TestToleranceRange: a tolerance outside (0, 1) is refused, not ignored
// (caught: -tolerance -1 graded at each group's own).
func TestToleranceRange(t *testing.T) {
	f, _ := vectors.Load("closed_forms.json")
	for _, tol := range []float64{-1, 1, 2, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := score.Score(f, nil, score.Options{Tolerance: tol}); err == nil || !strings.Contains(err.Error(), "want a relative tolerance in (0, 1)") {
			t.Errorf("tolerance %v: %v", tol, err)
		}
	}
	if _, err := score.Score(f, nil, score.Options{Tolerance: 1e-9}); err != nil {
		t.Errorf("tolerance 1e-9: %v", err)
	}
}

// TestProfileIntervals grades answers to profile.json's first group against
// its certified intervals: the lower bound and the upper bound are exact,
// one ulp below the lower bound is unsound (a failure, listed first even
// when a far looser answer is present), above the upper bound loose by
// answer/upper - 1, NaN unsound. The bounds are the file's own (package
// pld's certificates); what is tested is the grading of a value against
// them.
func TestProfileIntervals(t *testing.T) {
	f, err := vectors.Load("profile.json")
	if err != nil {
		t.Fatal(err)
	}
	g := f.TestGroups[0]
	if !schema.IsProfile(g.Function) || len(g.Tests) < 6 {
		t.Fatalf("group %s: want a profile group of at least 6 tests", g.Name)
	}
	ans := map[int]score.Answer{}
	var unsoundID, nanID int
	for i, tc := range g.Tests {
		lo, hi, err := tc.Interval()
		if err != nil || !(lo > 0) {
			t.Fatalf("tcId %d: interval [%v, %v], %v", tc.TcID, lo, hi, err)
		}
		v := lo
		switch i {
		case 1:
			v = hi
		case 2:
			v = math.Nextafter(lo, 0)
			unsoundID = tc.TcID
		case 3:
			v = 2 * hi // loose by 100%
		case 4:
			v = math.NaN()
			nanID = tc.TcID
		}
		ans[tc.TcID] = score.Answer{Value: v, Order: math.NaN()}
	}
	r, err := score.Score(f, ans, score.Options{Group: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	gs := r.Groups[0]
	got := []int{gs.Unsound, gs.Exact, gs.Loose, gs.NaN, gs.Below}
	want := []int{2, len(g.Tests) - 3, 1, 1, 0}
	if diff := cmp.Diff(want, got); diff != "" || !gs.Failed() || math.Abs(gs.MaxLoose-1) > 1e-15 {
		t.Errorf("unsound, exact, loose, NaN, below = %v, want %v; failed %v; max loose %v, want 1", got, want, gs.Failed(), gs.MaxLoose)
	}
	// The NaN (Rel +Inf) and the one-ulp under-statement come before the
	// 100% over-statement.
	if len(gs.Worst) != 3 || gs.Worst[0].ID != nanID || gs.Worst[1].ID != unsoundID || !gs.Worst[2].Loose {
		t.Errorf("worst = %+v, want tcIds %d, %d then the loose answer", gs.Worst, nanID, unsoundID)
	}
	var b strings.Builder
	r.Print(&b, "a.jsonl", "profile.json", 5)
	for _, s := range []string{"2 below the certified lower bound (unsound)", "unsound (NaN bounds nothing)", "below it (relative)", "valid, loose by 1.0e+00", "max loose"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, b.String())
		}
	}
	// REPORT.md writes an interval group as intervals: unsound, exact,
	// loose and the largest looseness, with no tolerance, relative error
	// or "below truth" (it wrote the unsound answers as "below truth" and
	// the looseness as "max rel" beside the file's nominal tolerance).
	var md strings.Builder
	r.Markdown(&md, "profile.json", 5)
	wantRow := fmt.Sprintf("| %s | %d/%d | 2 | %d | %d | 1 | 1.0e+00 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | FAIL |", g.Name, len(g.Tests), len(g.Tests), nanID, len(g.Tests)-3)
	for _, want := range []string{"| group | answered | unsound (below lower) | worst unsound | exact (in the interval) | loose (above upper) | max loose |", wantRow, "(" + g.Function + ", certified intervals): 2 below the certified lower bound (unsound)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, md.String())
		}
	}
	if tol := fmt.Sprint(g.RelativeTolerance); strings.Contains(md.String(), "tolerance "+tol) || strings.Contains(md.String(), "| "+tol+" |") {
		t.Errorf("REPORT.md gives an interval group a tolerance:\n%s", md.String())
	}
	// So does the command's table: no relative error, tolerance or count
	// below the truth for an interval group.
	if !regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(g.Name) + ` +\d+/\d+ +- +- +- +- `).MatchString(b.String()) {
		t.Errorf("the table gives an interval group value columns:\n%s", b.String())
	}

	// Without the unsound answers the group passes, loose or not.
	delete(ans, unsoundID)
	delete(ans, nanID)
	if r, _ := score.Score(f, ans, score.Options{Group: g.Name}); r.Groups[0].Failed() {
		t.Errorf("exact and loose answers failed the group")
	}
}

// TestDigestCoversTable: every input of the schema's table changes a
// test's digest (a tcId whose phases, base or trees change is another
// question), and the inputs digests were first made of still give the
// digests stored beside the peers' answers (peers/accountants/answers).
func TestDigestCoversTable(t *testing.T) {
	g := &schema.Group{Function: "F"}
	base := &schema.Test{}
	d0 := score.Digest(g, base)
	one := 1
	for _, in := range schema.Inputs {
		tc := &schema.Test{}
		switch in.Kind {
		case schema.Float:
			tc.SetFloat(in.Name, 1)
		case schema.FloatList:
			dec, hex := schema.Lists([]float64{1})
			switch in.Name {
			case "distP":
				tc.DistP, tc.DistPHex = dec, hex
			case "distQ":
				tc.DistQ, tc.DistQHex = dec, hex
			case "orders":
				tc.Orders, tc.OrdersHex = dec, hex
			case "rdp":
				tc.RDP, tc.RDPHex = dec, hex
			case "base":
				tc.Base, tc.BaseHex = dec, hex
			}
		case schema.Int:
			switch in.Name {
			case "steps":
				tc.Steps = &one
			case "c":
				tc.C = &one
			case "maxParticipation":
				tc.MaxParticipation = &one
			case "minSeparation":
				tc.MinSeparation = &one
			}
		case schema.IntList:
			tc.Trees = []int{1}
		case schema.Text:
			switch in.Name {
			case "relation":
				tc.Relation = "x"
			case "restarts":
				tc.Restarts = "x"
			case "conversion":
				tc.Conversion = "x"
			case "neighboringRelation":
				tc.NeighboringRelation = "x"
			}
		case schema.PhaseList:
			tc.Phases = []schema.Phase{schema.NewPhase(0.5, 1, 1)}
		case schema.DpEvent:
			tc.Event = []byte(`{"class_name":"NoOpDpEvent"}`)
		}
		if score.Digest(g, tc) == d0 {
			t.Errorf("input %s does not change the digest", in.Name)
		}
	}
}

// TestUnsafeFirstAndAdapterErrors grades made-up answers to closed_forms'
// first group (the Gaussian, alpha/(2 sigma^2), exact in the file):
//   - one ulp below the truth is inside the tolerance: not "below truth";
//   - 1e-6 below is an unsafe under-estimate, listed before a 10x
//     over-estimate and named as the worst under;
//   - an adapter error on a valid test and one on an invalid test count
//     apart, are never rejections (the invalid test is not "rightly
//     rejected") and fail the group, named in the report.
func TestUnsafeFirstAndAdapterErrors(t *testing.T) {
	f, err := vectors.Load("closed_forms.json")
	if err != nil {
		t.Fatal(err)
	}
	g := f.TestGroups[0]
	ans := map[int]score.Answer{}
	var valid []*schema.Test
	for _, tc := range g.Tests {
		if tc.Result == schema.Valid && tc.ExpectedFloat64 != "0" && tc.ExpectedFloat64 != "inf" {
			valid = append(valid, tc)
		}
	}
	if len(valid) < 4 {
		t.Fatalf("group %s: %d valid finite tests", g.Name, len(valid))
	}
	val := func(tc *schema.Test) float64 { v, _ := schema.ParseFloat(tc.ExpectedFloat64); return v }
	ulpBelow, under, over, adapter := valid[0], valid[1], valid[2], valid[3]
	ans[ulpBelow.TcID] = score.Answer{Value: math.Nextafter(val(ulpBelow), 0), Order: math.NaN()}
	ans[under.TcID] = score.Answer{Value: val(under) * (1 - 1e-6), Order: math.NaN()}
	ans[over.TcID] = score.Answer{Value: val(over) * 10, Order: math.NaN()}
	ans[adapter.TcID] = score.Answer{AdapterError: "TypeError: SGM() got an unexpected keyword argument 'peer'", Order: math.NaN()}
	r, err := score.Score(f, ans, score.Options{Group: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	gs := r.Groups[0]
	if gs.Below != 1 || gs.AdapterErrors != 1 || gs.RejectedValid != 0 || !gs.Failed() {
		t.Errorf("below %d, adapter errors %d, rejected valid %d, failed %v; want 1, 1, 0, true",
			gs.Below, gs.AdapterErrors, gs.RejectedValid, gs.Failed())
	}
	if gs.WorstUnder == nil || gs.WorstUnder.ID != under.TcID || len(gs.Worst) == 0 || gs.Worst[0].ID != under.TcID {
		t.Errorf("worst under %+v, worst %+v: want tcId %d first", gs.WorstUnder, gs.Worst, under.TcID)
	}
	var b strings.Builder
	r.Print(&b, "a.jsonl", "closed_forms.json", 5)
	for _, want := range []string{"adapter errors", "1 below the truth beyond the tolerance (unsafe)", "1 adapter errors (the adapter's bug", "below the truth by 1.0e-06 relative (unsafe)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	// On an invalid input an adapter error is no rejection: the group of
	// invalid inputs fails instead of passing as "rightly rejected".
	inv, err := vectors.Load("invalid_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	ig := inv.TestGroups[0]
	ians := map[int]score.Answer{}
	for _, tc := range ig.Tests {
		ians[tc.TcID] = score.Answer{Rejected: true, Order: math.NaN()}
	}
	ians[ig.Tests[0].TcID] = score.Answer{AdapterError: "AttributeError: module 'rdp' has no attribute '_compute_rdp'", Order: math.NaN()}
	ir, err := score.Score(inv, ians, score.Options{Group: ig.Name})
	if err != nil {
		t.Fatal(err)
	}
	if g := ir.Groups[0]; g.AdapterErrors != 1 || g.AcceptedInvalid != 0 || !g.Failed() {
		t.Errorf("invalid group with one adapter error: %d adapter errors, %d accepted invalid, failed %v", g.AdapterErrors, g.AcceptedInvalid, g.Failed())
	}
}

// TestCrashIsNoRejection: on a group of invalid inputs, crashes are
// counted apart, fail the group (a crash once passed as rejecting the
// input) and are listed before the rightly rejected tests' neighbours,
// said as crashes with how the process died.
func TestCrashIsNoRejection(t *testing.T) {
	f, err := vectors.Load("invalid_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	g := f.TestGroups[0]
	ans := map[int]score.Answer{}
	for _, tc := range g.Tests {
		ans[tc.TcID] = score.Answer{Rejected: true, Order: math.NaN()}
	}
	crash := g.Tests[len(g.Tests)-1]
	ans[crash.TcID] = score.Answer{Crashed: "the worker died: signal SIGSEGV", Order: math.NaN()}
	r, err := score.Score(f, ans, score.Options{Group: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	gs := r.Groups[0]
	if gs.Crashed != 1 || gs.AcceptedInvalid != 0 || !gs.Failed() || len(gs.Worst) != 1 || gs.Worst[0].ID != crash.TcID {
		t.Errorf("crashed %d, accepted invalid %d, failed %v, worst %+v; want 1, 0, true, tcId %d", gs.Crashed, gs.AcceptedInvalid, gs.Failed(), gs.Worst, crash.TcID)
	}
	if c := r.Count(); c.Crashed != 1 || c.Failing != 1 {
		t.Errorf("counts %+v: want 1 crashed, 1 failing group", c)
	}
	var b strings.Builder
	r.Print(&b, "a.jsonl", "invalid_inputs.json", 3)
	for _, want := range []string{"crashed", "1 crashed (the process died or exited: no answer, never a rejection)", "crashed, no answer: the worker died: signal SIGSEGV"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestForeignOrder: a value given at an order that is none of the test's
// (what a swapped (order, value) from another runner looks like) fails
// its group, whatever the value, and says which order it was; an order
// among the test's is graded as before.
func TestForeignOrder(t *testing.T) {
	f, err := vectors.Load("conversions.json")
	if err != nil {
		t.Fatal(err)
	}
	var g *schema.Group
	for _, grp := range f.TestGroups {
		if grp.Name == "epsilon/improved" {
			g = grp
		}
	}
	ans := map[int]score.Answer{}
	var foreign *schema.Test
	for _, tc := range g.Tests {
		if tc.Result == schema.Invalid {
			ans[tc.TcID] = score.Answer{Rejected: true, Order: math.NaN()}
			continue
		}
		want, _ := tc.ExpectedValue()
		v, _ := want.Float64()
		if schema.Below(v, want) {
			v = math.Nextafter(v, math.Inf(1))
		}
		order, _ := schema.ParseFloat(g.InputOrders(tc)[0])
		if foreign == nil {
			foreign = tc
			order = 1.4375 // none of the test's orders
			for _, o := range g.InputOrders(tc) {
				if o == "1.4375" {
					t.Fatalf("tcId %d has order 1.4375", tc.TcID)
				}
			}
		}
		ans[tc.TcID] = score.Answer{Value: v, Order: order}
	}
	r, err := score.Score(f, ans, score.Options{Group: "epsilon/improved"})
	if err != nil {
		t.Fatal(err)
	}
	gs := r.Groups[0]
	if gs.ForeignOrder != 1 || gs.OverTolerance != 0 || !gs.Failed() || len(gs.Worst) == 0 || gs.Worst[0].ID != foreign.TcID {
		t.Errorf("foreign %d, over tolerance %d, failed %v, worst %+v; want 1, 0, true, tcId %d first", gs.ForeignOrder, gs.OverTolerance, gs.Failed(), gs.Worst[:min(1, len(gs.Worst))], foreign.TcID)
	}
	var b strings.Builder
	r.Print(&b, "a.jsonl", "conversions.json", 3)
	if want := "at order 1.4375, which is none of the test's orders"; !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
	// An answer that gives no order (NaN from Parse, 0 from a Go literal,
	// as vectorstest builds them) is no foreign order.
	for id, a := range ans {
		a.Order = 0
		ans[id] = a
	}
	if r, _ := score.Score(f, ans, score.Options{Group: "epsilon/improved"}); r.Groups[0].ForeignOrder != 0 {
		t.Errorf("caught: vectorstest's answers (order 0) were foreign orders: %d", r.Groups[0].ForeignOrder)
	}
}

// TestRejectionSaysWhy: a wrongly rejected valid input is listed with the
// implementation's message (on one line, cut at 160 bytes) and where the
// runner traced it; the report said only "rejected".
func TestRejectionSaysWhy(t *testing.T) {
	f, err := vectors.Load("closed_forms.json")
	if err != nil {
		t.Fatal(err)
	}
	g := f.TestGroups[0]
	var valid []*schema.Test
	for _, tc := range g.Tests {
		if tc.Result == schema.Valid {
			valid = append(valid, tc)
		}
	}
	long := "ValueError: " + strings.Repeat("x", 200)
	ans := map[int]score.Answer{
		valid[0].TcID: {Rejected: true, Error: "ValueError: sigma\n  must be > 0", RaisedIn: "library", Order: math.NaN()},
		valid[1].TcID: {Rejected: true, Error: long, RaisedIn: "adapter", Order: math.NaN()},
		valid[2].TcID: {Rejected: true, Error: "error", Order: math.NaN()},
	}
	r, err := score.Score(f, ans, score.Options{Group: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.Print(&b, "a.jsonl", "closed_forms.json", 3)
	for _, want := range []string{
		fmt.Sprintf(`tcId %d (%s): rejected ("ValueError: sigma must be > 0", raised in the library), want %s`, valid[0].TcID, valid[0].Comment, valid[0].Expected),
		fmt.Sprintf(`tcId %d (%s): rejected (%q, raised in the adapter's own code), want`, valid[1].TcID, valid[1].Comment, long[:160]+"..."),
		fmt.Sprintf(`tcId %d (%s): rejected ("error"), want`, valid[2].TcID, valid[2].Comment),
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
