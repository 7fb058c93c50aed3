// Package score judges an implementation's answers to a vector file, group
// by group: the relative error of each value against the exact expected
// value, the group's tolerance, values below the truth (unsafe for a
// privacy accountant), rejected valid and accepted invalid inputs, and
// the outcomes that are not answers (unsupported, hang).
//
// It is the one judge of `rdpcheck score`, of the conformance reports and
// of package vectorstest, so that a fix to the grading reaches all three.
//
// # Outcomes
//
// Each answered test has one outcome:
//
//   - a value, graded by its relative error against the group's tolerance;
//   - a rejection: right for an invalid input, a failure for a valid one,
//     either is right for an acceptable one;
//   - unsupported: the implementation does not offer the function
//     (NotImplementedError). Counted, never a failure;
//   - hang: the runner stopped the test at its time limit. Counted, and a
//     failure: an accountant must return.
//   - crashed: the implementation's process died or exited on the test (a
//     segfault, os._exit, SystemExit). Counted, and a failure, never a
//     rejection: a crash on an invalid input does not reject it.
//   - adapter error: the runner traced the exception to the adapter's own
//     code (a TypeError at the call, a misspelt library function). It is
//     the adapter's bug, not the implementation's behaviour: never counted
//     as a rejection, right or wrong, and a failure until fixed.
//
// Unsafe first: a group's worst cases list under-estimates beyond the
// tolerance (and profile answers below the certified floor) before hangs
// and crashes, NaN and infinite answers, accepted invalid inputs, adapter errors, and
// over-estimates last; "below truth" counts only values below the truth by
// more than the tolerance. WorstUnder is the worst such under-estimate.
package score

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// Options change how a file is graded.
type Options struct {
	// Tolerance, if not 0, replaces every group's own tolerance; it must
	// lie in (0, 1).
	Tolerance float64
	// Group, if set, grades only the groups whose name contains it.
	Group string
	// Complete fails a group that has unanswered tests.
	Complete bool
}

// Group is one group's grade.
type Group struct {
	Name, Function  string
	Tolerance       float64
	Tests, Answered int
	MaxRel, SumSq   float64
	Finite          int // answers with a finite relative error (for RMS)
	Below, Negative int
	NaN, Inf        int
	RejectedValid   int // valid inputs rejected
	AcceptedInvalid int // invalid inputs given a value
	OverTolerance   int
	Valued          int // numeric answers to valid and acceptable tests
	OrderDiffers    int
	// ForeignOrder counts values given at an order that is none of the
	// test's orders (a swapped (order, value) reads so): a failure.
	ForeignOrder  int
	Unanswered    int
	Unsupported   int // "not implemented" answers, never a failure
	Hang          int // tests stopped at the runner's time limit
	Crashed       int // tests on which the implementation's process died
	AdapterErrors int // exceptions in the adapter's own code: neither answer nor rejection
	// TighterValid counts values below the formula's value but at or
	// above a valid shortcut's (see schema.Test.Shortcut): not errors.
	TighterValid int
	// Profile groups (certified intervals, schema.IsProfile): answers
	// below the lower bound (unsound, a failure), within the interval
	// (exact to the certificate) and above it (valid, loose), and the
	// largest looseness answer/upper - 1.
	Profile               bool
	Unsound, Exact, Loose int
	MaxLoose              float64
	// Worst are the worst answers, unsafe first (see the package
	// comment), at most MaxWorst.
	Worst []Worst
	// WorstUnder is the worst under-estimate beyond the tolerance (or
	// below a profile's floor), nil if none.
	WorstUnder *Worst
	// Hangs are every test that ran into the runner's time limit, in the
	// file's order (Worst lists only the first few).
	Hangs    []Worst
	complete bool
}

// MaxWorst bounds the worst cases kept per group.
const MaxWorst = 20

// Worst is one of a group's worst answers.
type Worst struct {
	ID int
	// Rel is the relative error, +Inf for a wrong rejection, an accepted
	// invalid input or a hang.
	Rel      float64
	Got      float64
	Want     string // the expected value, or "a rejection"
	Rejected bool
	// Error and RaisedIn are a rejection's message and where it was
	// raised, as the answer gave them.
	Error, RaisedIn string
	Hang            bool
	// Timeout is a hang's time limit in seconds, 0 if not said.
	Timeout float64
	// Crashed says how the process died, for a crash.
	Crashed string
	// Unsound and Loose: a profile answer below the certified interval
	// (Want is its lower bound) or above it (Want is its upper bound).
	Unsound, Loose bool
	// Under: a value below the truth by more than the tolerance.
	Under bool
	// AdapterError is the adapter's exception, for an adapter error.
	AdapterError string
	// ForeignOrder: the answer's order (Order) is none of the test's.
	ForeignOrder bool
	Order        float64
	Comment      string
	// Inputs are the test's inputs, as Inputs writes them.
	Inputs string
}

// Failed reports whether the group fails: an answer beyond tolerance, a
// rejected valid input, an accepted invalid one, a hang, a crash, an
// adapter error, or (with Options.Complete) an unanswered test.
func (g *Group) Failed() bool {
	return g.OverTolerance > 0 || g.Unsound > 0 || g.AdapterErrors > 0 || g.ForeignOrder > 0 || g.RejectedValid > 0 || g.AcceptedInvalid > 0 || g.Hang > 0 || g.Crashed > 0 || (g.complete && g.Unanswered > 0)
}

// RMS is the root mean square of the finite relative errors, NaN if none.
func (g *Group) RMS() float64 {
	if g.Finite == 0 {
		return math.NaN()
	}
	return math.Sqrt(g.SumSq / float64(g.Finite))
}

// Report is a file's grade.
type Report struct {
	Groups []*Group
	Tests  int // the file's number of tests
	// Version is the vector file's version: the answers are graded
	// against that version's tests.
	Version int
}

// Failed reports whether the answers fail: a group fails, or no test of
// the graded groups has an answer other than unsupported (answers that
// answer nothing pass nothing).
func (r *Report) Failed() bool {
	c := r.Count()
	return c.Failing > 0 || c.Answered == c.Unsupported
}

// Counts sum up a report: the tests answered (Unsupported, Hang and
// Crashed of them), and the groups by status. Every group is exactly one
// of Passing, Failing, Unanswered and UnsupportedGroups.
type Counts struct {
	Answered, Unsupported, Hang, Crashed            int
	Passing, Failing, Unanswered, UnsupportedGroups int
}

// Count sums up the report. A group with no answer is unanswered, and one
// whose answers all say unsupported is unsupported: neither is passing
// (with Options.Complete the first fails).
func (r *Report) Count() Counts {
	var c Counts
	for _, g := range r.Groups {
		c.Answered += g.Answered
		c.Unsupported += g.Unsupported
		c.Hang += g.Hang
		c.Crashed += g.Crashed
		switch g.Status() {
		case StatusFail:
			c.Failing++
		case StatusUnanswered:
			c.Unanswered++
		case StatusUnsupported:
			c.UnsupportedGroups++
		default:
			c.Passing++
		}
	}
	return c
}

// answered says how many of n tests were answered, and how many of those
// answers only say "unsupported" (they answer nothing).
func (c Counts) answered(n int) string {
	s := fmt.Sprintf("%d of %d tests answered", c.Answered, n)
	if c.Unsupported > 0 {
		s += fmt.Sprintf(" (%d of them unsupported)", c.Unsupported)
	}
	return s
}

// Groups says how the groups fare, as the reports write it: "of 3 groups,
// 1 passes, 1 fails, 1 unanswered" (and ", 1 unsupported" if any).
func (c Counts) Groups() string {
	n := c.Passing + c.Failing + c.Unanswered + c.UnsupportedGroups
	verb := func(k int, one, many string) string {
		if k == 1 {
			return one
		}
		return many
	}
	s := fmt.Sprintf("of %d %s, %d %s, %d %s", n, verb(n, "group", "groups"), c.Passing, verb(c.Passing, "passes", "pass"), c.Failing, verb(c.Failing, "fails", "fail"))
	s += fmt.Sprintf(", %d unanswered", c.Unanswered)
	if c.UnsupportedGroups > 0 {
		s += fmt.Sprintf(", %d unsupported", c.UnsupportedGroups)
	}
	return s
}

// Score grades the answers (by tcId) to the vector file f. An answer to a
// tcId f does not have is an error: the answers are for another file. So
// is a tolerance that is not 0 (each group's own) or in (0, 1).
func Score(f *schema.File, ans map[int]Answer, opt Options) (*Report, error) {
	if t := opt.Tolerance; t != 0 && !(t > 0 && t < 1) {
		return nil, fmt.Errorf("tolerance %v: want a relative tolerance in (0, 1), or 0 for each group's own", t)
	}
	r := &Report{Tests: f.NumberOfTests, Version: f.Version}
	known := map[int]bool{}
	for _, g := range f.TestGroups {
		for _, t := range g.Tests {
			known[t.TcID] = true
		}
	}
	var unknown []int
	for id := range ans {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	sort.Ints(unknown)
	if len(unknown) > 0 {
		return nil, fmt.Errorf("answers for tcIds the vector file does not have: %v (is -vectors the file these answers are for?)", head(unknown, 10))
	}
	for _, g := range f.TestGroups {
		if opt.Group != "" && !strings.Contains(g.Name, opt.Group) {
			continue
		}
		gs, err := scoreGroup(g, ans, opt)
		if err != nil {
			return nil, err
		}
		r.Groups = append(r.Groups, gs)
	}
	if opt.Group != "" && len(r.Groups) == 0 {
		return nil, fmt.Errorf("no group name contains %q", opt.Group)
	}
	return r, nil
}

func scoreGroup(g *schema.Group, ans map[int]Answer, opt Options) (*Group, error) {
	gs := &Group{Name: g.Name, Function: g.Function, Tolerance: g.RelativeTolerance, Tests: len(g.Tests), complete: opt.Complete,
		Profile: schema.IsProfile(g.Function)}
	if opt.Tolerance > 0 {
		gs.Tolerance = opt.Tolerance
	}
	var cases []Worst
	for _, t := range g.Tests {
		a, ok := ans[t.TcID]
		if !ok {
			gs.Unanswered++
			continue
		}
		gs.Answered++
		w := Worst{ID: t.TcID, Rel: math.Inf(1), Want: t.Expected, Comment: t.Comment, Inputs: Inputs(g, t)}
		if gs.Profile {
			// No exact value: what is right is the certified interval.
			w.Want = "a value in [" + t.Lower + ", " + t.Upper + "] (certified)"
		}
		switch {
		case a.Unsupported:
			gs.Unsupported++
			continue
		case a.Hang:
			gs.Hang++
			w.Hang, w.Timeout = true, a.Timeout
			cases = append(cases, w)
			gs.Hangs = append(gs.Hangs, w)
			continue
		case a.Crashed != "":
			gs.Crashed++
			w.Crashed = a.Crashed
			cases = append(cases, w)
			continue
		case a.AdapterError != "":
			gs.AdapterErrors++
			w.AdapterError = a.AdapterError
			cases = append(cases, w)
			continue
		}
		// Parse gives an order above 1 or NaN; an Answer built in Go (as
		// vectorstest builds them) may leave it 0: no order either.
		if !a.Rejected && a.Order > 1 && t.Result != schema.Invalid {
			if orders := testOrders(g, t); orders != nil && !slices.Contains(orders, a.Order) {
				gs.ForeignOrder++
				w.ForeignOrder, w.Order, w.Got = true, a.Order, a.Value
				cases = append(cases, w)
				continue
			}
		}
		if t.Result == schema.Invalid {
			if !a.Rejected {
				gs.AcceptedInvalid++
				w.Got, w.Want = a.Value, "a rejection"
				cases = append(cases, w)
			}
			continue
		}
		if a.Rejected {
			if t.Result == schema.Valid {
				gs.RejectedValid++
				w.Rejected, w.Error, w.RaisedIn = true, a.Error, a.RaisedIn
				cases = append(cases, w)
			}
			continue
		}
		if gs.Profile {
			c, err := gs.gradeInterval(t, a.Value, w)
			if err != nil {
				return nil, err
			}
			if c != nil {
				cases = append(cases, *c)
			}
			continue
		}
		want, err := t.ExpectedValue()
		if err != nil {
			return nil, fmt.Errorf("tcId %d: %v", t.TcID, err)
		}
		rel := schema.RelativeError(a.Value, want)
		tight, sv := tighterValid(t, a.Value, want)
		switch {
		case tight:
			// A valid shortcut's value, or one between it and the
			// formula's: tighter than the formula, and still a bound.
			gs.TighterValid++
			rel = 0
		case sv != nil:
			// Below the shortcut too: judged against the shortcut's
			// bound, the smallest valid value known.
			want, w.Want = sv, t.Shortcut.Value+" (the valid shortcut's bound)"
			rel = schema.RelativeError(a.Value, want)
		}
		gs.Valued++
		switch {
		case math.IsNaN(a.Value):
			gs.NaN++
		case math.IsInf(a.Value, 0) && !want.IsInf():
			gs.Inf++
		}
		if a.Value < 0 {
			gs.Negative++
		}
		if !tight && schema.Below(a.Value, want) && !(rel <= gs.Tolerance) {
			gs.Below++
			w.Under = true
		}
		if !(rel <= gs.Tolerance) {
			gs.OverTolerance++
		}
		if !math.IsInf(rel, 0) {
			gs.Finite++
			gs.SumSq += rel * rel
		}
		if rel > gs.MaxRel || math.IsNaN(a.Value) {
			gs.MaxRel = math.Max(gs.MaxRel, rel)
		}
		if t.ExpectedOrder != "" && !math.IsNaN(a.Order) {
			if o, _ := schema.ParseFloat(t.ExpectedOrder); o != a.Order {
				gs.OrderDiffers++
			}
		}
		w.Rel, w.Got = rel, a.Value
		cases = append(cases, w)
	}
	// Unsafe first: a large over-estimate must not hide an
	// under-estimate.
	sort.SliceStable(cases, func(i, j int) bool {
		if ri, rj := cases[i].rank(), cases[j].rank(); ri != rj {
			return ri < rj
		}
		return cases[i].Rel > cases[j].Rel
	})
	for i := range cases {
		if cases[i].Unsound || cases[i].Under {
			gs.WorstUnder = &cases[i]
			break
		}
	}
	for _, c := range cases {
		if len(gs.Worst) == MaxWorst {
			break
		}
		if c.Rel > 0 || c.Hang || c.Crashed != "" || c.Rejected || c.AdapterError != "" || c.ForeignOrder {
			gs.Worst = append(gs.Worst, c)
		}
	}
	return gs, nil
}

// rank orders worst cases, what can hurt a user first: under-estimates
// (and answers below a certified floor), hangs and crashes, NaN and infinite values,
// accepted invalid inputs, adapter errors, rejected valid inputs, then the
// rest (over-estimates, loose answers).
func (c Worst) rank() int {
	switch {
	case c.Unsound || c.Under:
		return 0
	case c.Hang || c.Crashed != "":
		return 1
	case c.Rel > 0 && !c.Rejected && c.Want != "a rejection" && c.AdapterError == "" && !c.ForeignOrder && (math.IsNaN(c.Got) || math.IsInf(c.Got, 0)):
		return 2
	case c.Want == "a rejection":
		return 3
	case c.AdapterError != "" || c.ForeignOrder:
		return 4
	case c.Rejected:
		return 5
	}
	return 6
}

// gradeInterval grades an answer to a profile test against its certified
// interval [lo, hi]: below lo it is unsound (the run provably spends more
// privacy than it says), within it exact, above hi loose by v/hi - 1. Rel
// is the relative distance outside the interval (0 inside). It returns the
// case to list among the worst, if any.
func (gs *Group) gradeInterval(t *schema.Test, v float64, w Worst) (*Worst, error) {
	lo, hi, err := t.Interval()
	if err != nil {
		return nil, err
	}
	gs.Valued++
	w.Got = v
	switch {
	case math.IsNaN(v):
		gs.NaN++
		gs.Unsound++
		w.Unsound, w.Rel, w.Want = true, math.Inf(1), "at least "+t.Lower+" (the certified lower bound)"
	case v < lo:
		gs.Unsound++
		w.Unsound, w.Rel, w.Want = true, (lo-v)/lo, "at least "+t.Lower+" (the certified lower bound)"
	case v > hi:
		gs.Loose++
		w.Loose, w.Rel, w.Want = true, math.Inf(1), "at most "+t.Upper+" (the certified upper bound)"
		if hi > 0 {
			w.Rel = v/hi - 1
		}
		gs.MaxLoose = math.Max(gs.MaxLoose, w.Rel)
	default:
		gs.Exact++
		return nil, nil
	}
	if v < 0 {
		gs.Negative++
	}
	if math.IsInf(v, 1) && !math.IsInf(hi, 1) {
		gs.Inf++
	}
	gs.MaxRel = math.Max(gs.MaxRel, w.Rel)
	return &w, nil
}

// testOrders are the orders a test gives its function (its own, or its
// group's), nil if the function takes none.
func testOrders(g *schema.Group, t *schema.Test) []float64 {
	hex := t.OrdersHex
	if t.Orders == nil {
		hex = g.OrdersHex
	}
	if hex == nil {
		return nil
	}
	orders, err := schema.ParseList(hex)
	if err != nil {
		return nil // the lint refuses such a file
	}
	return orders
}

// tighterValid reports whether got lies below the formula's value want
// but at or above the value of a valid shortcut the test flags; where got
// is below the shortcut too, it returns the shortcut's value.
func tighterValid(t *schema.Test, got float64, want *big.Float) (bool, *big.Float) {
	if t.Shortcut == nil || math.IsNaN(got) || !schema.Below(got, want) {
		return false, nil
	}
	sv, err := schema.ParseExact(t.Shortcut.Value)
	if err != nil {
		return false, nil // the lint refuses such a file
	}
	if schema.Below(got, sv) {
		return false, sv
	}
	return true, nil
}

func head(x []int, n int) []int {
	if len(x) > n {
		return x[:n]
	}
	return x
}

// Inputs writes a test's inputs as name=value pairs in the vector file's
// decimal form (lists in brackets; a group's orders are the test's).
func Inputs(g *schema.Group, t *schema.Test) string {
	var parts []string
	if t.Phases != nil {
		var ph []string
		for _, p := range t.Phases {
			ph = append(ph, fmt.Sprintf("(q=%s sigma=%s steps=%d)", p.Q, p.Sigma, p.Steps))
		}
		parts = append(parts, "phases=["+strings.Join(ph, " ")+"]")
	}
	if t.Event != nil {
		parts = append(parts, "event="+string(t.Event))
	}
	if t.NeighboringRelation != "" {
		parts = append(parts, "neighboringRelation="+t.NeighboringRelation)
	}
	for _, name := range []string{"q", "sigma", "b", "p", "mean1", "sd1", "mean2", "sd2", "noise", "buckets", "rho", "xi", "eps", "delta"} {
		if x, err := t.Float(name); err == nil {
			parts = append(parts, name+"="+schema.Dec(x))
		}
	}
	if t.Steps != nil {
		parts = append(parts, "steps="+strconv.Itoa(*t.Steps))
	}
	if t.C != nil {
		parts = append(parts, "c="+strconv.Itoa(*t.C))
	}
	if t.Relation != "" {
		parts = append(parts, "relation="+t.Relation)
	}
	list := func(name string, xs []string) {
		if xs != nil {
			parts = append(parts, name+"=["+abbrev(xs)+"]")
		}
	}
	list("distP", t.DistP)
	list("distQ", t.DistQ)
	list("orders", g.InputOrders(t))
	list("rdp", t.RDP)
	if t.Conversion != "" {
		parts = append(parts, "conversion="+t.Conversion)
	}
	if x, err := t.Float("alpha"); err == nil {
		parts = append(parts, "alpha="+schema.Dec(x))
	}
	return strings.Join(parts, " ")
}

// abbrev joins a list, eliding the middle of a long one.
func abbrev(xs []string) string {
	if len(xs) <= 8 {
		return strings.Join(xs, " ")
	}
	return strings.Join(xs[:4], " ") + fmt.Sprintf(" ...(%d more)... ", len(xs)-6) + strings.Join(xs[len(xs)-2:], " ")
}

// maxMessage bounds the length of an error message quoted in a report.
const maxMessage = 160

// rejection quotes a rejection's message (on one line, at most
// maxMessage bytes) and where it was raised, as the answer gave them.
func (c Worst) rejection() string {
	msg := strings.Join(strings.Fields(c.Error), " ")
	if len(msg) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	var parts []string
	if msg != "" {
		parts = append(parts, strconv.Quote(msg))
	}
	switch c.RaisedIn {
	case "library":
		parts = append(parts, "raised in the library")
	case "adapter":
		parts = append(parts, "raised in the adapter's own code")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// fmtRel writes a relative error with two significant digits.
func fmtRel(x float64) string { return schema.Format(x, 'e', 1) }

// Print writes the report as `rdpcheck score` prints it: a summary line,
// a table of groups, the worst cases of the failing groups (at most worstN
// each) and notes. path and vec name the answers and the vector file. The
// unsupported, hang and tighter-valid columns appear only when some group
// has such answers.
func (r *Report) Print(w io.Writer, path, vec string, worstN int) {
	var unsupported, hang, crashed, tighter, profile, adapter bool
	for _, g := range r.Groups {
		profile = profile || g.Profile
		adapter = adapter || g.AdapterErrors > 0
		unsupported = unsupported || g.Unsupported > 0
		hang = hang || g.Hang > 0
		crashed = crashed || g.Crashed > 0
		tighter = tighter || g.TighterValid > 0
	}
	c := r.Count()
	fmt.Fprintf(w, "score %s against %s (version %d): %s; %s\n\n", path, vec, r.Version, c.answered(r.Tests), c.Groups())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "group\tanswered\tmax rel\tRMS rel\ttolerance\tbelow truth\tnegative\tNaN\tinf\trejected valid\taccepted invalid\t"
	if tighter {
		head += "tighter valid\t"
	}
	if profile {
		head += "unsound\texact\tloose\tmax loose\t"
	}
	if unsupported {
		head += "unsupported\t"
	}
	if hang {
		head += "hang\t"
	}
	if crashed {
		head += "crashed\t"
	}
	if adapter {
		head += "adapter errors\t"
	}
	fmt.Fprintln(tw, head+"status\tworst under\tworst tcIds\t")
	for _, g := range r.Groups {
		var ids []string
		for _, c := range g.Worst[:min(worstN, len(g.Worst))] {
			ids = append(ids, strconv.Itoa(c.ID))
		}
		// An interval group has no tolerance and no exact value to be
		// below: its columns are unsound, exact and loose.
		maxRel, rms, tol, below := g.valueColumns()
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t", g.Name, g.Answered, g.Tests, maxRel, rms, tol,
			below, g.Negative, g.NaN, g.Inf, g.RejectedValid, g.AcceptedInvalid)
		if tighter {
			fmt.Fprintf(tw, "%d\t", g.TighterValid)
		}
		if profile {
			if g.Profile {
				loose := "-"
				if g.Loose > 0 {
					loose = fmtRel(g.MaxLoose)
				}
				fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t", g.Unsound, g.Exact, g.Loose, loose)
			} else {
				fmt.Fprint(tw, "-\t-\t-\t-\t")
			}
		}
		if unsupported {
			fmt.Fprintf(tw, "%d\t", g.Unsupported)
		}
		if hang {
			fmt.Fprintf(tw, "%d\t", g.Hang)
		}
		if crashed {
			fmt.Fprintf(tw, "%d\t", g.Crashed)
		}
		if adapter {
			fmt.Fprintf(tw, "%d\t", g.AdapterErrors)
		}
		under := "-"
		if g.WorstUnder != nil {
			under = strconv.Itoa(g.WorstUnder.ID)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", g.Status(), under, strings.Join(ids, " "))
	}
	tw.Flush()
	first := true
	for _, g := range r.Groups {
		if !g.Failed() {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nworst cases of the failing groups:")
			first = false
		}
		fmt.Fprintf(w, "  %s: %s", g.Name, strings.Join(g.Reasons(), ", "))
		fmt.Fprintln(w)
		for _, c := range g.Worst[:min(worstN, len(g.Worst))] {
			fmt.Fprintf(w, "    tcId %d (%s): %s\n", c.ID, c.Comment, c.Verdict())
		}
	}
	if hangs := r.hangLines(); len(hangs) > 0 {
		fmt.Fprintln(w, "\ntests that ran into the runner's time limit (hang):")
		for _, l := range hangs {
			fmt.Fprintln(w, "  "+l)
		}
	}
	for _, g := range r.Groups {
		if g.OrderDiffers > 0 {
			fmt.Fprintf(w, "\nnote: %s: %d answers chose another order than the reference (informative, not graded)\n", g.Name, g.OrderDiffers)
		}
	}
}

// valueColumns are the max and RMS relative error, the tolerance and the
// count below the truth as the reports write them: "-" for an interval
// group (or where nothing was graded).
func (g *Group) valueColumns() (maxRel, rms, tol, below string) {
	if g.Profile {
		return "-", "-", "-", "-"
	}
	maxRel, rms = "-", "-"
	if g.Finite > 0 {
		rms = fmtRel(g.RMS())
	}
	if g.Valued > 0 {
		maxRel = fmtRel(g.MaxRel)
	}
	return maxRel, rms, fmt.Sprint(g.Tolerance), strconv.Itoa(g.Below)
}

// hangLines say, a line per group with hangs, which tests ran into the
// runner's time limit and at how many seconds (where the answers say).
func (r *Report) hangLines() []string {
	var out []string
	for _, g := range r.Groups {
		if len(g.Hangs) == 0 {
			continue
		}
		var ids []string
		for _, h := range g.Hangs {
			id := "tcId " + strconv.Itoa(h.ID)
			if h.Timeout > 0 {
				id += fmt.Sprintf(" (%v s)", h.Timeout)
			}
			ids = append(ids, id)
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", g.Name, g.Function, strings.Join(ids, ", ")))
	}
	return out
}

// Reasons says why the group fails, what can hurt a user first: each
// count of a failing outcome with what it is. `rdpcheck score`, REPORT.md
// and vectorstest all write these.
func (g *Group) Reasons() []string {
	var why []string
	add := func(n int, format string, args ...any) {
		if n > 0 {
			why = append(why, fmt.Sprintf("%d "+format, append([]any{n}, args...)...))
		}
	}
	if !g.Profile {
		add(g.Below, "below the truth beyond the tolerance (unsafe)")
	}
	add(g.Unsound, "below the certified lower bound (unsound)")
	add(g.Hang, "hangs")
	add(g.Crashed, "crashed (the process died or exited: no answer, never a rejection)")
	add(g.AcceptedInvalid, "invalid inputs accepted")
	add(g.AdapterErrors, "adapter errors (the adapter's bug, not the implementation's answer)")
	add(g.ForeignOrder, "values at an order that is none of the test's orders")
	if !g.Profile {
		add(g.OverTolerance, "beyond tolerance %g", g.Tolerance)
	}
	add(g.RejectedValid, "valid inputs rejected")
	if g.complete {
		add(g.Unanswered, "unanswered")
	}
	return why
}

// A group's status, as the reports write it.
const (
	StatusFail        = "FAIL"
	StatusOK          = "ok"
	StatusUnanswered  = "unanswered"  // no test of the group answered: not a pass
	StatusUnsupported = "unsupported" // every answer says not implemented: not a pass
)

// Status is StatusFail, StatusOK, StatusUnanswered for a group with no
// answers (which Options.Complete fails), or StatusUnsupported for one whose
// answers all say unsupported.
func (g *Group) Status() string {
	switch {
	case g.Failed():
		return StatusFail
	case g.Answered == 0:
		return StatusUnanswered
	case g.Answered == g.Unsupported:
		return StatusUnsupported
	}
	return StatusOK
}

// Verdict says what was wrong with a worst answer.
func (c Worst) Verdict() string {
	switch {
	case c.Hang && c.Timeout > 0:
		return fmt.Sprintf("no answer within the runner's time limit of %v s (hang)", c.Timeout)
	case c.Hang:
		return "no answer within the runner's time limit (hang)"
	case c.Crashed != "":
		return "crashed, no answer: " + c.Crashed
	case c.AdapterError != "":
		return "adapter error (the adapter's bug, not the implementation's answer): " + c.AdapterError
	case c.ForeignOrder:
		return fmt.Sprintf("%v at order %v, which is none of the test's orders (a swapped (order, value)?)", c.Got, c.Order)
	case c.Rejected:
		return "rejected" + c.rejection() + ", want " + c.Want
	case c.Want == "a rejection":
		return fmt.Sprintf("%v, want a rejection (invalid input)", c.Got)
	case c.Unsound && math.IsNaN(c.Got):
		return fmt.Sprintf("NaN, want %s: unsound (NaN bounds nothing)", c.Want)
	case c.Unsound:
		return fmt.Sprintf("%v, want %s: unsound, %s below it (relative)", c.Got, c.Want, fmtRel(c.Rel))
	case c.Loose:
		return fmt.Sprintf("%v, want %s: valid, loose by %s", c.Got, c.Want, fmtRel(c.Rel))
	}
	if c.Under {
		return fmt.Sprintf("%v, want %s: below the truth by %s relative (unsafe)", c.Got, c.Want, fmtRel(c.Rel))
	}
	return fmt.Sprintf("%v, want %s (relative error %s)", c.Got, c.Want, fmtRel(c.Rel))
}
