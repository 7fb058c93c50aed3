package gen

// Assembling the vector files: builders lay out groups and tests and register
// a job per expected value; after the engine has run, finalize writes the
// values in, numbers the tests, keeps the notes of the flags used, encodes
// canonically and lints. Output is deterministic: no clocks, no maps in
// iteration order, Go's shortest round-trip float formatting.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// GeneratorVersion is written into every vector file.
const GeneratorVersion = "rdpcheck gen-vectors 1.0"

// Step builds one vector file: it lays out the file's groups and tests and
// registers a job per expected value on the engine.
type Step struct {
	Name  string // path relative to vectors/, slash-separated
	Build func(e *verify.Engine) (*FileBuilder, error)
}

// Steps are the files computed from package reference alone, in the order
// they are built.
func Steps() []Step {
	return []Step{
		{"sgm_rdp.json", buildSGM},
		{"closed_forms.json", buildClosed},
		{"divergence.json", buildDivergence},
		{"conversions.json", buildConversions},
		{"dpsgd.json", buildDPSGD},
		{"invalid_inputs.json", buildInvalid},
		{"dpsgd_best.json", buildDPSGDBest},
		{"sampled.json", buildSampled},
		{"wor.json", buildWOR},
		{"events.json", buildEvents},
		{"zcdp_tight.json", buildZCDPTight},
		{"dgauss_tree_repeat.json", buildDGTree},
		{"profile.json", buildProfile},
		{"event_profile.json", buildEventProfile},
	}
}

// Options selects what Generate writes.
type Options struct {
	// Only, if non-nil, limits generation to these file names.
	Only map[string]bool
	// SampleEvery > 1 computes only every SampleEvery-th (q, sigma) pair
	// and takes the values of tests reading other pairs from the files in
	// Committed: the quick check, which still regenerates every input,
	// flag and structure and recomputes a sample of the values.
	SampleEvery int
	Committed   string
}

// Generate runs steps (those named in opt.Only, if set) and returns the
// vector files by path relative to vectors/. Progress goes to progress.
func Generate(steps []Step, opt Options, progress io.Writer) (map[string][]byte, error) {
	e := verify.New(progress)
	e.SampleEvery = opt.SampleEvery
	var builders []*FileBuilder
	for _, s := range steps {
		if opt.Only != nil && !opt.Only[s.Name] {
			continue
		}
		e.ForFile(s.Name)
		b, err := s.Build(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		b.Name = s.Name
		builders = append(builders, b)
	}
	if err := e.Run(); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, b := range builders {
		var committed *schema.File
		if opt.SampleEvery > 1 {
			data, err := os.ReadFile(filepath.Join(opt.Committed, filepath.FromSlash(b.Name)))
			if err != nil {
				return nil, fmt.Errorf("%s: the quick check copies unsampled values from the committed file: %w", b.Name, err)
			}
			if committed, err = schema.Parse(data); err != nil {
				return nil, fmt.Errorf("%s: committed file: %w", b.Name, err)
			}
		}
		data, err := b.Finalize(committed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name, err)
		}
		files[b.Name] = data
	}
	return files, nil
}

// FileBuilder collects one file's groups and tests before the values exist.
type FileBuilder struct {
	Name  string
	File  *schema.File
	items []item
}

type item struct {
	t    *schema.Test
	fn   string
	j    *verify.Job
	then func(t *schema.Test, o verify.Out) error
}

// NewFile starts a file with the common provenance and the given one.
func NewFile(algorithm string, header []string, provenance ...string) *FileBuilder {
	return &FileBuilder{File: &schema.File{
		Schema:                 schema.Name,
		Algorithm:              algorithm,
		GeneratorVersion:       GeneratorVersion,
		FormatVersion:          schema.FormatVersion,
		Version:                1, // a named file's is FileVersions's (Finalize)
		ReferencePrecisionBits: verify.RefPrec,
		CheckPrecisionBits:     verify.CheckPrec,
		Header:                 header,
		Provenance:             append(append([]string{}, commonProvenance...), provenance...),
	}}
}

var commonProvenance = []string{
	"Inputs are float64 values, taken exactly: an expected value is exact for the binary number written, not for a decimal it might have been meant as.",
	fmt.Sprintf("Expected values: github.com/rdpcheck/rdpcheck/reference at %d bits, whose Ziv loop returns a value only when two evaluations at different working precisions agree; its relative error is below 2^-%d. Written rounded to %d significant digits; expectedFloat64 is the float64 nearest the %d-bit value.", verify.RefPrec, verify.RefPrec-1, schema.ExactDigits, verify.RefPrec),
	fmt.Sprintf("Checked: every value was computed a second time with the reference at %d bits (other working precisions, series cut-offs and quadrature node counts). The generator writes a value only when the two agree to 2^-%d relative (about 60 digits) and give the same %d digits and nearest float64, and refuses to write the file otherwise.", verify.CheckPrec, verify.ConfirmBits, schema.ExactDigits),
	fmt.Sprintf("SGM values were also checked by an independent method: one point in %d (in sorted order) and every point with q <= 1e-20 against package oracles (tanh-sinh quadrature of the moment in big.Float, sharing no code with the reference), to 2^-%d relative; and where q <= 1e-20 and the neglected terms are below e^-40, against the two-term expansion of the moment in q, to 1e-13.", verify.OracleEvery, verify.OracleBits),
	"result invalid: the reference rejects the input (an InputError) at both precisions.",
}

// Group appends a group.
func (b *FileBuilder) Group(name, fn, comment string, tol float64) *schema.Group {
	g := &schema.Group{Name: name, Function: fn, Comment: comment, RelativeTolerance: tol, Tests: []*schema.Test{}}
	b.File.TestGroups = append(b.File.TestGroups, g)
	return g
}

// Test appends t to g; its expected value (or rejection) comes from j.
func (b *FileBuilder) Test(g *schema.Group, t *schema.Test, j *verify.Job, then func(t *schema.Test, o verify.Out) error) {
	if t.Flags == nil {
		t.Flags = []string{}
	}
	if t.Result == "" {
		t.Result = schema.Valid
	}
	g.Tests = append(g.Tests, t)
	b.items = append(b.items, item{t: t, fn: g.Function, j: j, then: then})
}

// Finalize writes the values in, numbers, encodes and lints. Values of
// copied jobs (not run when sampling) are taken from committed, by tcId.
func (b *FileBuilder) Finalize(committed *schema.File) ([]byte, error) {
	if b.Name != "" {
		v, ok := FileVersions[b.Name]
		if !ok {
			return nil, fmt.Errorf("no version for %s in vectors/gen/versions.go", b.Name)
		}
		b.File.Version = v
	}
	n := 0
	for _, g := range b.File.TestGroups {
		for _, t := range g.Tests {
			n++
			t.TcID = n
		}
	}
	var old map[int]*schema.Test
	if committed != nil {
		old = map[int]*schema.Test{}
		for _, g := range committed.TestGroups {
			for _, t := range g.Tests {
				old[t.TcID] = t
			}
		}
	}
	var errs []error
	for _, it := range b.items {
		t, j := it.t, it.j
		if j.Copied {
			o, err := copyValue(t, old[t.TcID])
			if err != nil {
				errs = append(errs, fmt.Errorf("tcId %d (%s): %v", t.TcID, t.Comment, err))
				continue
			}
			if it.then != nil {
				if err := it.then(t, o); err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", j.What, err))
				}
			}
			continue
		}
		if t.Result == schema.Invalid {
			if !verify.IsInputError(j.Err[0]) {
				errs = append(errs, fmt.Errorf("%s: listed as invalid, but the reference returned %v", j.What, describe(j)))
			}
		} else {
			if j.Err[0] != nil {
				errs = append(errs, fmt.Errorf("%s: %v", j.What, j.Err[0]))
				continue
			}
			o := j.Res[0]
			if o.Interval {
				if err := setInterval(t, o); err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", j.What, err))
				}
				continue
			}
			t.Expected = schema.Exact(o.V)
			t.ExpectedFloat64 = schema.Float64Of(o.V)
			if it.fn == schema.Epsilon || it.fn == schema.Delta || it.fn == schema.DPSGDEpsilon {
				t.ExpectedOrder = schema.Dec(o.Order)
			}
		}
		if it.then != nil {
			if err := it.then(t, j.Res[0]); err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", j.What, err))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(verify.SortErrs(errs)...)
	}
	if err := addShortcuts(b.File); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, g := range b.File.TestGroups {
		for _, t := range g.Tests {
			t.Flags = dedupe(t.Flags)
			for _, f := range t.Flags {
				used[f] = true
			}
			for i := range t.Peers {
				t.Peers[i].Flags = dedupe(t.Peers[i].Flags)
				for _, f := range t.Peers[i].Flags {
					used[f] = true
				}
			}
		}
	}
	b.File.NumberOfTests = n
	b.File.Notes = map[string]string{}
	for f := range used {
		note, ok := flagNotes[f]
		if !ok {
			return nil, fmt.Errorf("flag %s has no note", f)
		}
		b.File.Notes[f] = note
	}
	data, err := schema.Encode(b.File)
	if err != nil {
		return nil, err
	}
	if lint := schema.Lint(data); len(lint) > 0 {
		return nil, fmt.Errorf("generated file fails lint: %w", errors.Join(verify.SortErrs(lint)...))
	}
	return data, nil
}

// dedupe sorts flags and drops repeats.
func dedupe(flags []string) []string {
	sort.Strings(flags)
	out := flags[:0]
	for i, f := range flags {
		if i == 0 || f != flags[i-1] {
			out = append(out, f)
		}
	}
	return out
}

// copyValue takes a copied test's value from the committed test with the
// same tcId, which must be the same test (same comment and result).
func copyValue(t, old *schema.Test) (verify.Out, error) {
	if old == nil {
		return verify.Out{}, errors.New("not in the committed file")
	}
	if old.Comment != t.Comment || old.Result != t.Result {
		return verify.Out{}, fmt.Errorf("the committed file has another test there (%q)", old.Comment)
	}
	t.Expected, t.ExpectedFloat64, t.ExpectedOrder = old.Expected, old.ExpectedFloat64, old.ExpectedOrder
	if t.Result == schema.Invalid {
		return verify.Out{}, nil
	}
	if old.LowerHex != "" {
		lo, hi, err := old.Interval()
		return verify.Out{Interval: true, Lo: lo, Hi: hi}, err
	}
	v, err := schema.ParseExact(old.Expected)
	if err != nil {
		return verify.Out{}, err
	}
	o := verify.Out{V: v}
	if old.ExpectedOrder != "" {
		if o.Order, err = schema.ParseFloat(old.ExpectedOrder); err != nil {
			return verify.Out{}, err
		}
	}
	return o, nil
}

func describe(j *verify.Job) string {
	if j.Err[0] != nil {
		return j.Err[0].Error()
	}
	if j.Res[0].V == nil {
		return "no value"
	}
	return schema.Exact(j.Res[0].V)
}

// flagNotes explains every flag any file may use.
var flagNotes = map[string]string{
	// Inputs.
	"FractionalOrder":  "alpha is not an integer: there is no finite binomial sum; implementations use a series (which may stop early, or bound from above) or quadrature.",
	"GaussianLine":     "q = 1: no sampling, the Gaussian mechanism, alpha / (2 sigma^2) exactly.",
	"ZeroRate":         "q = 0: nothing is released about the individual; the RDP is exactly 0.",
	"InfiniteOrder":    "alpha = +inf: the max-divergence, +inf for the Gaussian mechanism at any q > 0.",
	"SubnormalInput":   "an input is a subnormal float64; the value scales with it and must not flush to zero.",
	"TinyRate":         "q below 1e-9: I(alpha) - 1 is of order q^2; forming 1 + q (...) in float64 before taking the logarithm loses every digit.",
	"RateNearOne":      "q within 1e-6 of 1: 1 - q is formed exactly from the float64 q; log(1 - q) must not be taken as log1p of a rounded value.",
	"OrderNearOne":     "alpha within 1e-3 of 1: 1/(alpha - 1) is large and the divergence approaches the KL divergence; the logarithm of a moment near 1 must not cancel.",
	"LargeOrder":       "alpha above 1000: binomial coefficients overflow float64 unless summed in log space.",
	"CancellingInputs": "two inputs nearly equal (P close to Q, sd1 close to sd2): the divergence is tiny and a direct formula cancels.",
	"ZeroProbability":  "a distribution has an entry 0: terms with p_i = 0 vanish; p_i > 0 with q_i = 0 makes the divergence +inf for alpha >= 1.",
	"DisjointSupport":  "P and Q have disjoint supports: the divergence is +inf at every alpha > 0.",
	"KullbackLeibler":  "alpha = 1: the divergence is the Kullback-Leibler divergence, the limit alpha -> 1.",
	"OrderZero":        "alpha = 0: the divergence is -log Q(supp P) (0 for the mechanisms' closed forms).",
	"OrderBelowOne":    "0 < alpha < 1: defined for divergences, though RDP accounting uses alpha > 1; where such a test is acceptable, rejecting the input is also defensible.",
	"ZeroNoise":        "sigma = 0 (or b = 0, or p in {0, 1}): no noise; the divergence is +inf. An implementation may return +inf or reject the input.",
	"ZeroOrderClosed":  "alpha = 0 in a closed form whose domain an implementation may start at 1: the value is 0, and rejecting the input is also defensible.",
	"PureDPOrder":      "the orders include +inf: that order converts as pure DP (eps = rdp there, delta = 0 if rdp <= eps).",
	"InfiniteRDP":      "some RDP values are +inf: those orders give eps = +inf and must not win the minimum.",
	"FlooredAtZero":    "the improved conversion's minimum is negative here; eps is floored at 0.",
	"DeltaCappedAtOne": "no order gives delta below 1: delta is capped at 1.",
	"ManyOrders":       "the curve has many orders (dp_accounting's 156 defaults or more); the minimum is over all of them.",
	"HugeEpsilon":      "the answer is very large; relative, not absolute, accuracy is what is asked.",
	"TinyDelta":        "delta below 1e-100 or an answer below 1e-100: work in log space.",
	"NoSampling":       "q = 1 in a run: those steps are the Gaussian mechanism, whose composed profile is a difference of normal tails.",
	"Phases":           "the run has phases of different sampling rates or noise: the privacy loss distributions of the phases are composed (convolved), not the phases' (eps, delta).",
	"NothingReleased":  "q = 0 or steps = 0: nothing about the individual is released; the profile is 0 (eps = 0 at every delta, delta = 0 at every eps >= 0).",
	"DeltaOne":         "delta = 1: every mechanism is (0, 1)-DP, so eps is 0; an accountant whose delta must be below 1 may reject the input instead.",
	"InfiniteEpsilon":  "eps = +inf: every mechanism is (inf, 0)-DP, so delta is 0; an accountant whose eps must be finite may reject the input instead.",
	"OneSided":         "the class's exact privacy loss distribution is not established (ExponentialMechanismDpEvent, PermuteAndFlipDpEvent, TruncatedSubsampledGaussianDpEvent): upper is that of the bound dp_accounting composes, lower that of an instance of the mechanism (dpevent's NewExact says which), so an answer between them may still be loose; below lower is unsound still.",
	"Heterogeneous":    "the event composes events of different classes or parameters: their privacy loss distributions are composed (convolved), not their (eps, delta).",
	"NoOp":             "NoOpDpEvent: nothing is released; the profile is 0 (eps = 0 at every delta, delta = 0 at every eps >= 0).",
	"NonPrivate":       "NonPrivateDpEvent: the data is released; eps is +inf at every delta < 1 and delta is 1 at every finite eps.",
	"ZCDPLine":         "(1 - alpha) sensitivity is an integer: the discrete Gaussian's divergence equals its zCDP line alpha sensitivity^2/(2 sigma^2) exactly.",
	// Invalid inputs.
	"NaNInput":        "an input is NaN: reject it.",
	"InfiniteInput":   "an input is +-inf where the function needs a finite value: reject it.",
	"OutOfRange":      "an input is outside the function's domain (q outside [0, 1], sigma < 0, alpha <= 1, delta outside (0, 1), a negative probability, ...): reject it.",
	"BadDistribution": "the probability vectors are empty, of different lengths, or do not sum to 1 within len * 2^-52: reject them.",
	"BadCurve":        "the RDP curve is empty, has orders and values of different lengths, an order <= 1 or a negative RDP: reject it.",
	"BadSteps":        "steps <= 0: reject it.",
	"BadTrees":        "the list of tree sizes is empty or has a negative step count: reject it.",
	// Peers (vectors/tfprivacy).
	"PeerNegative":                     "the peer printed a negative RDP; the truth is positive. A negative RDP makes the reported epsilon too small (unsafe).",
	"PeerNonConvergence":               "the peer printed inf where the truth is finite (its series did not converge within its term limit).",
	"PeerNaN":                          "the peer printed nan.",
	"PeerError":                        "the peer raised an exception.",
	"PeerUnderestimate":                "the peer's value is below the truth by more than 1e-6 relative: it under-reports the privacy loss (unsafe).",
	"PeerOverestimate":                 "the peer's value is above the truth by more than 1e-6 relative: safe, but a looser guarantee than the truth gives.",
	"PeerLossOfPrecision":              "the peer's relative error is above 1e-12 (what float64 accounting reaches; package fast is within it) but at most 1e-6: digits lost to rounding or truncation, harmless at reporting precision.",
	"PeerOrderDiffers":                 "the peer chose another order than the reference; its epsilon differs from the truth by more than float64 noise.",
	"PeerAssertionOutsideOwnTolerance": "the value the peer's own unit test asserts differs from the truth by more than the test's own tolerance: the test pins a wrong value or asks for more digits than float64 accounting has.",
}
