// Package schema defines rdpcheck's test-vector format: the JSON Schema
// (vectors.schema.json, embedded as JSON), the Go types of a vector file, its
// canonical encoding, and Lint, which checks a file against the schema and
// against the rules a schema cannot state (unique tcIds, counts, every flag
// explained, decimal and hex inputs equal, expected values well formed).
//
// It is separate from package vectors, which embeds the generated files, so
// that cmd/gen-vectors can build and regenerate them when they are missing.
//
// # Format
//
// The format follows Project Wycheproof: a file has a header, numberOfTests,
// notes explaining every flag, and testGroups; a group names the function its
// tests call and the relative tolerance a float64 implementation should
// reach; a test has tcId, comment, flags, its inputs, the expected value and
// result (valid, invalid or acceptable).
//
// Every float64 input is written twice, as its shortest round-trip decimal
// and as a hex float (field name + "Hex"), so that no language's decimal
// parser can lose a bit; non-finite values are the strings inf, -inf, nan.
// The expected value is the exact value for those binary inputs, rounded to
// 50 significant digits ("0" and "inf" are exact), and expectedFloat64 is the
// float64 nearest it.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// JSON is the JSON Schema (draft 2020-12) of a vector file.
//
//go:embed vectors.schema.json
var JSON []byte

// Name is the schema's file name, the value of every file's "schema" field.
const Name = "vectors.schema.json"

// FormatVersion is the version of the format, every file's formatVersion:
// raised when a file of the new format could be misread by a reader of the
// old one.
const FormatVersion = 1

// The results a test may expect.
const (
	Valid      = "valid"      // return the expected value
	Invalid    = "invalid"    // reject the input
	Acceptable = "acceptable" // either the expected value or a rejection is defensible
)

// File is one vector file.
type File struct {
	Schema           string `json:"schema"`
	Algorithm        string `json:"algorithm"`
	GeneratorVersion string `json:"generatorVersion"`
	FormatVersion    int    `json:"formatVersion"`
	// Version is the file's own version: raised whenever a test is added
	// or removed or its question or answer changes (vectors/CHANGELOG.md).
	// A tcId never changes meaning within a file; answers carry the
	// version they were made for.
	Version                int               `json:"version"`
	ReferencePrecisionBits int               `json:"referencePrecisionBits"`
	CheckPrecisionBits     int               `json:"checkPrecisionBits"`
	Header                 []string          `json:"header"`
	Provenance             []string          `json:"provenance"`
	Notes                  map[string]string `json:"notes"`
	NumberOfTests          int               `json:"numberOfTests"`
	TestGroups             []*Group          `json:"testGroups"`
}

// Group is a group of tests of one function with one tolerance.
type Group struct {
	Name              string  `json:"name"`
	Function          string  `json:"function"`
	Comment           string  `json:"comment"`
	RelativeTolerance float64 `json:"relativeTolerance"`
	// Peer names the source (a peer version) whose unit-test assertions
	// the tests carry in their peer fields.
	Peer string `json:"peer,omitempty"`
	// Orders, if set, are used by every test that has none of its own.
	Orders    []string `json:"orders,omitempty"`
	OrdersHex []string `json:"ordersHex,omitempty"`
	Tests     []*Test  `json:"tests"`
}

// Test is one test case. Which inputs are set depends on the group's
// function. Inputs are strings: a decimal and a hex form of each float64.
type Test struct {
	TcID    int      `json:"tcId"`
	Comment string   `json:"comment"`
	Flags   []string `json:"flags"`

	Q        string `json:"q,omitempty"`
	QHex     string `json:"qHex,omitempty"`
	Sigma    string `json:"sigma,omitempty"`
	SigmaHex string `json:"sigmaHex,omitempty"`
	Alpha    string `json:"alpha,omitempty"`
	AlphaHex string `json:"alphaHex,omitempty"`
	B        string `json:"b,omitempty"`
	BHex     string `json:"bHex,omitempty"`
	P        string `json:"p,omitempty"`
	PHex     string `json:"pHex,omitempty"`
	Mean1    string `json:"mean1,omitempty"`
	Mean1Hex string `json:"mean1Hex,omitempty"`
	SD1      string `json:"sd1,omitempty"`
	SD1Hex   string `json:"sd1Hex,omitempty"`
	Mean2    string `json:"mean2,omitempty"`
	Mean2Hex string `json:"mean2Hex,omitempty"`
	SD2      string `json:"sd2,omitempty"`
	SD2Hex   string `json:"sd2Hex,omitempty"`
	// List inputs use omitzero, not omitempty: an empty list (an invalid
	// input) is written as [], an absent one not at all.
	DistP    []string `json:"distP,omitzero"`
	DistPHex []string `json:"distPHex,omitzero"`
	DistQ    []string `json:"distQ,omitzero"`
	DistQHex []string `json:"distQHex,omitzero"`
	// Steps is a pointer so that an invalid steps = 0 is still written.
	Steps      *int     `json:"steps,omitempty"`
	Delta      string   `json:"delta,omitempty"`
	DeltaHex   string   `json:"deltaHex,omitempty"`
	Eps        string   `json:"eps,omitempty"`
	EpsHex     string   `json:"epsHex,omitempty"`
	Orders     []string `json:"orders,omitzero"`
	OrdersHex  []string `json:"ordersHex,omitzero"`
	RDP        []string `json:"rdp,omitzero"`
	RDPHex     []string `json:"rdpHex,omitzero"`
	Conversion string   `json:"conversion,omitempty"`
	// The inputs of the issue-12 events.
	Noise      string `json:"noise,omitempty"`
	NoiseHex   string `json:"noiseHex,omitempty"`
	Buckets    string `json:"buckets,omitempty"`
	BucketsHex string `json:"bucketsHex,omitempty"`
	Relation   string `json:"relation,omitempty"`
	Rho        string `json:"rho,omitempty"`
	RhoHex     string `json:"rhoHex,omitempty"`
	Xi         string `json:"xi,omitempty"`
	XiHex      string `json:"xiHex,omitempty"`
	// C (groups of 2^c records) is a pointer so that c = 0 is still written.
	C *int `json:"c,omitempty"`
	// The inputs of the discrete Gaussian, tree aggregation and
	// repeat-and-select; the integers are pointers so that 0 is written.
	Sensitivity      string `json:"sensitivity,omitempty"`
	SensitivityHex   string `json:"sensitivityHex,omitempty"`
	Trees            []int  `json:"trees,omitzero"`
	Restarts         string `json:"restarts,omitempty"`
	MaxParticipation *int   `json:"maxParticipation,omitempty"`
	MinSeparation    *int   `json:"minSeparation,omitempty"`
	Mean             string `json:"mean,omitempty"`
	MeanHex          string `json:"meanHex,omitempty"`
	Shape            string `json:"shape,omitempty"`
	ShapeHex         string `json:"shapeHex,omitempty"`
	// The base curve of PoissonBound and WORBound: base[k] is the base
	// mechanism's RDP at order k+2; baseInf its RDP at order +Inf (WORBound).
	Base       []string `json:"base,omitzero"`
	BaseHex    []string `json:"baseHex,omitzero"`
	BaseInf    string   `json:"baseInf,omitempty"`
	BaseInfHex string   `json:"baseInfHex,omitempty"`

	// Phases, of ProfileEpsilon and ProfileDelta: the run, phase after
	// phase.
	Phases []Phase `json:"phases,omitzero"`

	// Event and NeighboringRelation, of EventEpsilon and EventDelta: the
	// run as a dp_accounting DpEvent (compact JSON, checked by
	// CheckDpEvent) and the relation it is accounted under.
	Event               json.RawMessage `json:"event,omitempty"`
	NeighboringRelation string          `json:"neighboringRelation,omitempty"`

	Expected        string `json:"expected,omitempty"`
	ExpectedFloat64 string `json:"expectedFloat64,omitempty"`
	ExpectedOrder   string `json:"expectedOrder,omitempty"`
	// Shortcut, on a conversion test, is a valid bound below the formula's
	// value (expected) that an implementation may return instead.
	Shortcut *Shortcut `json:"shortcut,omitempty"`

	// Lower and Upper, on a ProfileEpsilon or ProfileDelta test (instead
	// of expected), are float64 values with Lower <= truth <= Upper,
	// proven (see Interval); the hex forms are the exact values.
	Lower    string `json:"lower,omitempty"`
	LowerHex string `json:"lowerHex,omitempty"`
	Upper    string `json:"upper,omitempty"`
	UpperHex string `json:"upperHex,omitempty"`

	// Peers, in the TF Privacy lineage's grid files, is what each peer
	// version printed for the test's inputs: one test per point, however
	// many peers printed on it.
	Peers []PeerPrint `json:"peers,omitzero"`

	// The peer fields of a group with a Peer (a peer's own unit test).
	PeerValue         string `json:"peerValue,omitempty"`
	PeerOrder         string `json:"peerOrder,omitempty"`
	PeerRelativeError string `json:"peerRelativeError,omitempty"`
	PeerTolerance     string `json:"peerTolerance,omitempty"`

	Result string `json:"result"`
}

// PeerPrint is what one peer version printed for a test's inputs, judged
// against the test's expected value.
type PeerPrint struct {
	Peer string `json:"peer"`
	// Value is a shortest round-trip decimal, inf, -inf, nan or
	// "error: NAME".
	Value         string   `json:"value"`
	Order         string   `json:"order,omitempty"`
	RelativeError string   `json:"relativeError"`
	Flags         []string `json:"flags"`
}

// Phase is one phase of a run: Steps steps of the Poisson-subsampled
// Gaussian with sampling rate q and noise multiplier sigma.
type Phase struct {
	Q        string `json:"q"`
	QHex     string `json:"qHex"`
	Sigma    string `json:"sigma"`
	SigmaHex string `json:"sigmaHex"`
	Steps    int    `json:"steps"`
}

// RunPhase is a phase read as numbers.
type RunPhase struct {
	Q, Sigma float64
	Steps    int
}

// NewPhase writes a phase with both forms of its numbers.
func NewPhase(q, sigma float64, steps int) Phase {
	return Phase{Q: Dec(q), QHex: Hex(q), Sigma: Dec(sigma), SigmaHex: Hex(sigma), Steps: steps}
}

// Run returns a test's phases as numbers, read from their hex forms.
func (t *Test) Run() ([]RunPhase, error) {
	out := make([]RunPhase, len(t.Phases))
	for i, p := range t.Phases {
		q, err := ParseFloat(p.QHex)
		if err != nil {
			return nil, fmt.Errorf("tcId %d: phases[%d].qHex: %v", t.TcID, i, err)
		}
		s, err := ParseFloat(p.SigmaHex)
		if err != nil {
			return nil, fmt.Errorf("tcId %d: phases[%d].sigmaHex: %v", t.TcID, i, err)
		}
		out[i] = RunPhase{q, s, p.Steps}
	}
	return out, nil
}

// SetInterval writes a certified interval [lo, hi] on a profile test.
func (t *Test) SetInterval(lo, hi float64) {
	t.Lower, t.LowerHex, t.Upper, t.UpperHex = Dec(lo), Hex(lo), Dec(hi), Hex(hi)
}

// Interval returns a profile test's certified interval, read from the
// exact hex forms.
func (t *Test) Interval() (lo, hi float64, err error) {
	if lo, err = ParseFloat(t.LowerHex); err != nil {
		return 0, 0, fmt.Errorf("tcId %d: lowerHex: %v", t.TcID, err)
	}
	if hi, err = ParseFloat(t.UpperHex); err != nil {
		return 0, 0, fmt.Errorf("tcId %d: upperHex: %v", t.TcID, err)
	}
	return lo, hi, nil
}

// A Shortcut is a valid bound that a conversion may return instead of its
// formula's value, where it is smaller: an answer at or above Value (and
// at or below expected) is tighter than the formula and still a valid
// guarantee.
type Shortcut struct {
	// Value is the bound: an exact value as expected is written, rounded
	// up.
	Value string `json:"value"`
	// Why names the theorem and the order it was applied at.
	Why string `json:"why"`
}

// Format is x formatted as strconv.FormatFloat(x, verb, prec) does, with
// the names the vector files use for what JSON has no number for: "inf",
// "-inf", "nan". In e-notation a zero is written "0". It is the one
// formatter of non-finite floats of the vectors, the generator and the
// commands.
func Format(x float64, verb byte, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0 && verb == 'e':
		return "0"
	}
	return strconv.FormatFloat(x, verb, prec, 64)
}

// JSONFloat is x as a JSON value: a number where x is finite, else the
// string Format gives ("inf", "-inf", "nan"), which encoding/json cannot
// write as a number.
func JSONFloat(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Format(x, 'g', -1)
	}
	return x
}

// FormatBig is v as v.Text(verb, prec), "inf" or "-inf" for infinities.
func FormatBig(v *big.Float, verb byte, prec int) string {
	if v.IsInf() {
		return Format(math.Inf(v.Sign()), verb, prec)
	}
	return v.Text(verb, prec)
}

// BigDec is v with ExactDigits significant digits (the reference
// guarantees 76 at 256 bits), or "inf": how a reference value is written
// for a user (gen-vectors -cases, rdpcheck's -reference and -exact).
func BigDec(v *big.Float) string { return FormatBig(v, 'g', ExactDigits) }

// Dec is x as its shortest round-trip decimal; inf, -inf, nan otherwise.
func Dec(x float64) string { return Format(x, 'g', -1) }

// Hex is x as a hex float (0x1.8p+00); inf, -inf, nan otherwise.
func Hex(x float64) string { return Format(x, 'x', -1) }

// ParseFloat reads a decimal or hex input (or inf, -inf, nan).
func ParseFloat(s string) (float64, error) {
	switch s {
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	case "nan":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// ParseList reads a list of inputs.
func ParseList(ss []string) ([]float64, error) {
	out := make([]float64, len(ss))
	for i, s := range ss {
		x, err := ParseFloat(s)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// ExactDigits is how many significant digits expected values are written with.
const ExactDigits = 50

// exactPrec is the precision expected values are read at: more than the
// 50 digits (166 bits) they carry, so reading them loses nothing that matters.
const exactPrec = 256

// Exact formats an exact value: 50 significant digits in e-notation, "0"
// for zero and "inf" for +Inf.
func Exact(v *big.Float) string {
	if v.Sign() == 0 && !v.IsInf() {
		return "0"
	}
	return FormatBig(v, 'e', ExactDigits-1)
}

// ParseExact reads an expected value.
func ParseExact(s string) (*big.Float, error) {
	switch s {
	case "inf":
		return new(big.Float).SetInf(false), nil
	case "-inf":
		return new(big.Float).SetInf(true), nil
	}
	v, _, err := big.ParseFloat(s, 10, exactPrec, big.ToNearestEven)
	return v, err
}

// Float64Of is the float64 nearest v, written as Dec writes it. An exact
// zero has no sign: it is written "0".
func Float64Of(v *big.Float) string {
	if v.Sign() == 0 {
		return "0"
	}
	f, _ := v.Float64()
	return Dec(f)
}

// Below reports whether got is below the exact value want by more than the
// rounding of want to 50 digits could explain: an answer below the truth is
// unsafe for a privacy accountant. NaN is not below.
func Below(got float64, want *big.Float) bool {
	if math.IsNaN(got) {
		return false
	}
	if want.IsInf() {
		return want.Sign() > 0 && !math.IsInf(got, 1)
	}
	g := new(big.Float).SetPrec(exactPrec).SetFloat64(got)
	if g.Cmp(want) >= 0 {
		return false
	}
	// want is rounded to 50 digits, relative 5e-50: a got equal to the truth
	// may sit that far below it.
	slack := new(big.Float).SetPrec(exactPrec).Abs(want)
	slack.Mul(slack, big.NewFloat(1e-48))
	d := new(big.Float).SetPrec(exactPrec).Sub(want, g)
	return d.Cmp(slack) > 0
}

// Parse decodes a vector file, refusing unknown fields.
func Parse(data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the file's object")
	}
	return &f, nil
}

// InputOrders returns the orders of a test: its own, or its group's.
func (g *Group) InputOrders(t *Test) []string {
	if t.Orders != nil {
		return t.Orders
	}
	return g.Orders
}

// Float returns a scalar input by its JSON name (q, sigma, alpha, b, p,
// mean1, sd1, mean2, sd2, delta, eps).
func (t *Test) Float(name string) (float64, error) {
	dec, hex := t.scalar(name)
	if dec == nil {
		return 0, fmt.Errorf("no input %q", name)
	}
	if *dec == "" {
		return 0, fmt.Errorf("tcId %d: input %q missing", t.TcID, name)
	}
	x, err := ParseFloat(*hex)
	if err != nil {
		return 0, fmt.Errorf("tcId %d: %sHex: %v", t.TcID, name, err)
	}
	return x, nil
}

// FloatHex returns a scalar input's hex form by its JSON name ("" if
// the test does not give it), and whether the name is a scalar input.
func (t *Test) FloatHex(name string) (string, bool) {
	_, hex := t.scalar(name)
	if hex == nil {
		return "", false
	}
	return *hex, true
}

// scalar returns pointers to a scalar input's decimal and hex fields.
func (t *Test) scalar(name string) (dec, hex *string) {
	switch name {
	case "q":
		return &t.Q, &t.QHex
	case "sigma":
		return &t.Sigma, &t.SigmaHex
	case "alpha":
		return &t.Alpha, &t.AlphaHex
	case "b":
		return &t.B, &t.BHex
	case "p":
		return &t.P, &t.PHex
	case "mean1":
		return &t.Mean1, &t.Mean1Hex
	case "sd1":
		return &t.SD1, &t.SD1Hex
	case "mean2":
		return &t.Mean2, &t.Mean2Hex
	case "sd2":
		return &t.SD2, &t.SD2Hex
	case "delta":
		return &t.Delta, &t.DeltaHex
	case "eps":
		return &t.Eps, &t.EpsHex
	case "noise":
		return &t.Noise, &t.NoiseHex
	case "buckets":
		return &t.Buckets, &t.BucketsHex
	case "rho":
		return &t.Rho, &t.RhoHex
	case "xi":
		return &t.Xi, &t.XiHex
	case "sensitivity":
		return &t.Sensitivity, &t.SensitivityHex
	case "mean":
		return &t.Mean, &t.MeanHex
	case "shape":
		return &t.Shape, &t.ShapeHex
	case "baseInf":
		return &t.BaseInf, &t.BaseInfHex
	}
	return nil, nil
}

// scalarNames lists the scalar inputs (Float in the table), for the lint.
var scalarNames = func() []string {
	var names []string
	for _, in := range Inputs {
		if in.Kind == Float {
			names = append(names, in.Name)
		}
	}
	return names
}()

// SetFloat sets a scalar input (both forms) by its JSON name.
func (t *Test) SetFloat(name string, x float64) {
	dec, hex := t.scalar(name)
	if dec == nil {
		panic("schema: no input " + name)
	}
	*dec, *hex = Dec(x), Hex(x)
}

// Lists formats a list input in both forms.
func Lists(xs []float64) (dec, hex []string) {
	dec, hex = make([]string, len(xs)), make([]string, len(xs))
	for i, x := range xs {
		dec[i], hex[i] = Dec(x), Hex(x)
	}
	return dec, hex
}

// ExpectedValue returns the test's expected value (nil for invalid tests).
func (t *Test) ExpectedValue() (*big.Float, error) {
	if t.Expected == "" {
		return nil, nil
	}
	return ParseExact(t.Expected)
}

// HasFlag reports whether the test carries flag f.
func (t *Test) HasFlag(f string) bool {
	for _, g := range t.Flags {
		if g == f {
			return true
		}
	}
	return false
}
