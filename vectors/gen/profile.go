package gen

// vectors/profile.json: certified intervals around the optimal privacy
// profile of DP-SGD runs (package pld), for grading accountants of any
// method (RDP, PLD, PRV, GDP).

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// ProfileWidth is the relative width hi/lo - 1 the eps intervals are
// computed to (pld's default): an answer within it of the truth cannot be
// told from the truth. It is the profile groups' relativeTolerance, which
// grades nothing: an answer below lower fails, one above upper is loose.
const ProfileWidth = 1e-3

// The two certificates of each interval: pld's default (eps: the grid
// refined until the width is reached; delta: h = 2^-12) and one on a
// fixed grid of another spacing. Each contains the truth; the file holds
// their intersection, and a pair that does not intersect stops the
// generator.
var profileOpts = [2]pld.Options{{}, {H: 0x1p-13}}

// profileOptions picks the certificate of an evaluation from its
// precision (the engine's two evaluations are at verify.Precs).
func profileOptions(c reference.Context) pld.Options {
	if c.Prec == verify.Precs[0] {
		return profileOpts[0]
	}
	return profileOpts[1]
}

type profileRun []pld.Phase

func (r profileRun) String() string {
	var parts []string
	for _, p := range r {
		parts = append(parts, fmt.Sprintf("(q=%g sigma=%g steps=%d)", p.Q, p.Sigma, p.Steps))
	}
	return strings.Join(parts, " then ")
}

func (r profileRun) phases() []schema.Phase {
	out := make([]schema.Phase, len(r))
	for i, p := range r {
		out[i] = schema.NewPhase(p.Q, p.Sigma, p.Steps)
	}
	return out
}

func run(ph ...pld.Phase) profileRun { return ph }

// intervalEval is a job's evaluation: the certified interval, which
// ErrPrecision still returns (wider than asked, but certified).
func intervalEval(f func(o pld.Options) (pld.Interval, error)) verify.Eval {
	return func(c reference.Context, _ verify.Points) (verify.Out, error) {
		iv, err := f(profileOptions(c))
		if err != nil && !errors.Is(err, pld.ErrPrecision) {
			return verify.Out{}, err
		}
		return verify.Out{Interval: true, Lo: iv.Lo, Hi: iv.Hi}, nil
	}
}

// ProfileJob registers the job of one profile test of function fn
// (schema.ProfileEpsilon at delta = x, or schema.ProfileDelta at eps = x):
// two certificates whose intersection the file holds.
func ProfileJob(e *verify.Engine, fn string, phases []pld.Phase, x float64) *verify.Job {
	what := fmt.Sprintf("%s(%v, %g)", fn, profileRun(phases), x)
	return e.AddSampled(what, intervalEval(func(o pld.Options) (pld.Interval, error) {
		if fn == schema.ProfileEpsilon {
			return pld.SGMEpsilon(phases, x, o)
		}
		return pld.SGMDelta(phases, x, o)
	}))
}

func setInterval(t *schema.Test, o verify.Out) error {
	if !o.Interval {
		return errors.New("no interval")
	}
	t.SetInterval(o.Lo, o.Hi)
	return nil
}

func buildProfile(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("privacy-profile", []string{
		"ProfileEpsilon(phases, delta): the optimal eps(delta) = inf{eps >= 0 : delta(eps) <= delta} of a run of phases of the Poisson-subsampled Gaussian mechanism (phase after phase: steps steps at sampling rate q and noise multiplier sigma), add/remove neighbours, the larger of the two directions (the dominating pairs of Zhu, Dong, Wang 2022, Theorem 11), where delta(eps) is the run's privacy profile, the least delta with (eps, delta)-DP.",
		"ProfileDelta(phases, eps): that profile delta(eps) itself.",
		"These are the true privacy of the run, whatever the method of accounting: no valid accountant of any method (RDP, PLD, PRV, GDP) may answer below it, and each answer above it says how much the method over-states.",
		"A test gives no exact value but a certified interval: lower <= truth <= upper, proven (lower and upper are float64 values; their hex forms are exact). An answer below lower is unsound (it fails); within [lower, upper] it is exact to the certificate; above upper it is valid but loose, by at least answer/upper - 1. relativeTolerance is the width eps intervals are computed to and grades nothing.",
	})
	b.File.ReferencePrecisionBits, b.File.CheckPrecisionBits = 64, 64
	b.File.Provenance = []string{
		"Inputs are float64 values, taken exactly: an interval holds the truth for the binary number written, not for a decimal it might have been meant as.",
		fmt.Sprintf("Intervals: github.com/rdpcheck/rdpcheck/pld, two certificates per test, each covering discretisation, truncated tails and every floating-point rounding (pld/doc.go gives the argument): pld's default options (eps: the grid refined until hi/lo - 1 <= %g; delta: grid spacing h = 2^-12), and a fixed grid h = 2^-13. The file holds their intersection, which holds the truth because each does; the generator refuses to write a test whose two intervals do not intersect. One step alone is in closed form (a difference of normal tails, big.Float, Ziv-checked) in both.", ProfileWidth),
		"referencePrecisionBits and checkPrecisionBits: the intervals are float64 arithmetic with a carried error bound, rounded outward; the precision fields say so (64) and are otherwise unused here.",
		"result invalid: package pld rejects the input (an InputError) in both evaluations.",
	}
	typical := []profileRun{
		run(pld.Phase{Q: 256.0 / 60000, Sigma: 1.1, Steps: 235}),
		run(pld.Phase{Q: 0.01, Sigma: 0.8, Steps: 1000}),
		run(pld.Phase{Q: 256.0 / 60000, Sigma: 1.3, Steps: 3516}),
		run(pld.Phase{Q: 0.05, Sigma: 0.8, Steps: 100}),
		run(pld.Phase{Q: 0.1, Sigma: 1, Steps: 100}),
		run(pld.Phase{Q: 0.5, Sigma: 2, Steps: 20}),
		run(pld.Phase{Q: 0.01, Sigma: 1.1, Steps: 10000}),
	}
	few := []profileRun{
		run(pld.Phase{Q: 0.00133242, Sigma: 2.62797, Steps: 7}),
		run(pld.Phase{Q: 0.0549791, Sigma: 0.735151, Steps: 26}),
		run(pld.Phase{Q: 0.000690392, Sigma: 0.559974, Steps: 6}),
		run(pld.Phase{Q: 0.01, Sigma: 1, Steps: 1}),
	}
	unsampled := []profileRun{
		run(pld.Phase{Q: 1, Sigma: 1, Steps: 10}),
		run(pld.Phase{Q: 1, Sigma: 5, Steps: 1}),
	}
	phased := []profileRun{
		run(pld.Phase{Q: 0.01, Sigma: 1, Steps: 2000}, pld.Phase{Q: 0.02, Sigma: 2, Steps: 1000}),
		run(pld.Phase{Q: 0.1, Sigma: 2, Steps: 100}, pld.Phase{Q: 1, Sigma: 10, Steps: 10}),
		run(pld.Phase{Q: 256.0 / 60000, Sigma: 1.1, Steps: 4688}, pld.Phase{Q: 512.0 / 60000, Sigma: 1.5, Steps: 2344}),
	}
	nothing := []profileRun{
		run(pld.Phase{Q: 0, Sigma: 1, Steps: 100}),
		run(pld.Phase{Q: 0.01, Sigma: 1, Steps: 0}),
	}
	// test adds a test of g's function at x (ProfileEpsilon: delta = x;
	// ProfileDelta: eps = x), commented by its run unless comment is set.
	test := func(g *schema.Group, r profileRun, x float64, comment string, flags []string, result string) {
		arg := "delta"
		if g.Function == schema.ProfileDelta {
			arg = "eps"
		}
		if comment == "" {
			comment = fmt.Sprintf("%v %s=%g", r, arg, x)
		}
		t := &schema.Test{Comment: comment, Flags: flags, Phases: r.phases(), Result: result}
		t.SetFloat(arg, x)
		then := setInterval
		if result == schema.Invalid {
			then = nil
		}
		b.Test(g, t, ProfileJob(e, g.Function, r, x), then)
	}
	epsTest := func(g *schema.Group, r profileRun, delta float64, flags []string) { test(g, r, delta, "", flags, "") }
	deltaTest := func(g *schema.Group, r profileRun, eps float64, flags []string) {
		result := ""
		if math.IsInf(eps, 1) {
			result = schema.Acceptable // see the note of InfiniteEpsilon
		}
		test(g, r, eps, "", flags, result)
	}
	for _, grp := range []struct {
		name, comment string
		runs          []profileRun
		flags         []string
	}{
		{"dpsgd", "one phase of typical DP-SGD runs (among them the runs of the peers' PLD study, peers/pld)", typical, nil},
		{"few-steps", "few steps, where the central-limit (GDP) approximation is furthest from the truth", few, nil},
		{"no-sampling", "q = 1: the Gaussian mechanism composed", unsampled, []string{"NoSampling"}},
		{"two-phases", "runs of two phases (a larger batch, more noise, or the Gaussian mechanism after sampling)", phased, []string{"Phases"}},
		{"nothing-released", "q = 0 or steps = 0: the profile is 0", nothing, []string{"NothingReleased"}},
	} {
		g := b.Group("profile-epsilon/"+grp.name, schema.ProfileEpsilon, grp.comment+"; delta 1e-5 and 1e-8", ProfileWidth)
		for _, r := range grp.runs {
			for _, d := range []float64{1e-5, 1e-8} {
				epsTest(g, r, d, grp.flags)
			}
		}
	}
	g := b.Group("profile-delta/dpsgd", schema.ProfileDelta, "delta(eps) of DP-SGD runs of one phase, eps 1 and 4", ProfileWidth)
	for _, r := range []profileRun{typical[0], typical[1], typical[4], few[1], few[3]} {
		for _, eps := range []float64{1, 4} {
			deltaTest(g, r, eps, nil)
		}
	}
	g = b.Group("profile-delta/special", schema.ProfileDelta, "two phases; q = 1; eps = 0 (delta is the total variation distance); eps = inf (delta is 0); nothing released", ProfileWidth)
	deltaTest(g, phased[0], 1, []string{"Phases"})
	deltaTest(g, unsampled[0], 2, []string{"NoSampling"})
	deltaTest(g, typical[0], 0, nil)
	deltaTest(g, typical[0], math.Inf(1), []string{"InfiniteEpsilon"})
	deltaTest(g, nothing[0], 1, []string{"NothingReleased"})

	ok := pld.Phase{Q: 0.01, Sigma: 1, Steps: 100}
	bad := []struct {
		what  string
		r     profileRun
		delta float64
		flag  string
	}{
		{"no phases", run(), 1e-5, "OutOfRange"},
		{"q < 0", run(pld.Phase{Q: -0.1, Sigma: 1, Steps: 100}), 1e-5, "OutOfRange"},
		{"q > 1", run(pld.Phase{Q: 1.5, Sigma: 1, Steps: 100}), 1e-5, "OutOfRange"},
		{"q NaN", run(pld.Phase{Q: nan, Sigma: 1, Steps: 100}), 1e-5, "NaNInput"},
		{"sigma 0", run(pld.Phase{Q: 0.01, Sigma: 0, Steps: 100}), 1e-5, "OutOfRange"},
		{"sigma < 0", run(ok, pld.Phase{Q: 0.01, Sigma: -1, Steps: 100}), 1e-5, "OutOfRange"},
		{"sigma inf", run(pld.Phase{Q: 0.01, Sigma: inf, Steps: 100}), 1e-5, "InfiniteInput"},
		{"sigma NaN", run(pld.Phase{Q: 0.01, Sigma: nan, Steps: 100}), 1e-5, "NaNInput"},
		{"steps < 0", run(pld.Phase{Q: 0.01, Sigma: 1, Steps: -1}), 1e-5, "OutOfRange"},
		{"delta 0", run(ok), 0, "OutOfRange"},
		{"delta 1", run(ok), 1, "DeltaOne"}, // in the domain since version 3, where it kept its tcId
		{"delta < 0", run(ok), -1e-5, "OutOfRange"},
		{"delta NaN", run(ok), nan, "NaNInput"},
	}
	g = b.Group("profile-epsilon/invalid", schema.ProfileEpsilon, "inputs outside the domain: at least one phase; each q in [0, 1], sigma finite and > 0, steps >= 0; delta in (0, 1]; none NaN (and delta = 1, where eps is 0 and a rejection is acceptable)", ProfileWidth)
	for _, c := range bad {
		result := schema.Invalid
		if c.flag == "DeltaOne" {
			result = schema.Acceptable
		}
		test(g, c.r, c.delta, c.what, []string{c.flag}, result)
	}
	g = b.Group("profile-delta/invalid", schema.ProfileDelta, "inputs outside the domain: eps NaN, or a phase outside its domain", ProfileWidth)
	for _, c := range []struct {
		what string
		r    profileRun
		eps  float64
		flag string
	}{
		{"eps NaN", run(ok), nan, "NaNInput"},
		{"q > 1", run(pld.Phase{Q: 1.5, Sigma: 1, Steps: 100}), 1, "OutOfRange"},
		{"steps < 0", run(ok, pld.Phase{Q: 0.01, Sigma: 1, Steps: -1}), 1, "OutOfRange"},
	} {
		test(g, c.r, c.eps, c.what, []string{c.flag}, schema.Invalid)
	}
	return b, nil
}
