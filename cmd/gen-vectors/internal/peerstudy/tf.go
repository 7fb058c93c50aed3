// Package peerstudy judges what other accountants print against package
// reference: it builds the vector files of vectors/tfprivacy (the peers'
// printed values beside the truth, each flagged) and FINDINGS.md, which
// tabulates them. The peers' values are recorded data (peers/tfprivacy in
// the repository, embedded as package peers).
package peerstudy

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"strings"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/gen"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// The thresholds of the peer flags (see flagNotes): below noiseLevel a
// peer's value is within what float64 accounting reaches; above
// materialLevel it is flagged as an over- or under-estimate.
const (
	noiseLevel    = 1e-12
	materialLevel = 1e-6
)

// peerVersion is one recorded peer and the conversion its accountant uses.
type peerVersion struct {
	key  string
	conv reference.Conversion
}

var peerVersions = []peerVersion{
	{"tfprivacy_2019", reference.Classic},
	{"tfprivacy_2021", reference.Improved},
	{"dp_accounting_0_6_0", reference.Improved},
}

// peerValue is a value as a peer printed it.
type peerValue struct {
	raw string  // as written in vectors: shortest decimal, inf, nan, error: NAME
	x   float64 // NaN for errors
	err bool
}

func parsePeer(raw json.RawMessage) (peerValue, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch {
		case s == "inf" || s == "-inf" || s == "nan":
			x, _ := schema.ParseFloat(s)
			return peerValue{raw: s, x: x}, nil
		case strings.HasPrefix(s, "error: "):
			return peerValue{raw: s, x: math.NaN(), err: true}, nil
		}
		return peerValue{}, fmt.Errorf("peer value %q", s)
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		return peerValue{}, fmt.Errorf("peer value %s: %v", raw, err)
	}
	return peerValue{raw: schema.Dec(x), x: x}, nil
}

type tfSGMCase struct {
	q, sigma, alpha float64
	peers           []peerValue // in peerVersions order
}

type tfDPSGDCase struct {
	q, sigma     float64
	steps        int
	delta        float64
	eps, order   []peerValue
	line, orders string
}

type tfData struct {
	sources map[string]string
	env     string
	sgm     []tfSGMCase
	dpsgd   []tfDPSGDCase
	expect  []tfExpectation

	// Filled in as the files are finalized, for FINDINGS.md.
	sgmRows   [][]peerRow // per peer version, per case
	dpsgdRows [][]peerRow
	expRows   []expRow
}

// peerRow is one peer value judged against the reference.
type peerRow struct {
	q, sigma, alpha float64
	steps           int
	delta           float64
	peer            peerValue
	truth           *big.Float
	rel             float64
	flag            string
	peerOrder, ord  float64
}

type expRow struct {
	source, call, tol string
	asserted          float64
	truth             *big.Float
	rel               float64
	outside           bool
	judged            bool
}

func readJSON(dir fs.FS, name string, v any) error {
	data, err := fs.ReadFile(dir, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// Files are the vector files the study writes, relative to vectors/;
// FINDINGS.md is built from them.
var Files = []string{"tfprivacy/sgm_rdp.json", "tfprivacy/dpsgd_epsilon.json", "tfprivacy/expectations.json"}

// Steps are the study's vector files, in the order of Files.
func (d *tfData) Steps() []gen.Step {
	return []gen.Step{{Name: Files[0], Build: d.buildSGM}, {Name: Files[1], Build: d.buildDPSGD}, {Name: Files[2], Build: d.buildExpectations}}
}

// Study is the TF Privacy lineage's recorded values, read and checked.
type Study = tfData

// Load reads the TF Privacy lineage's data from dir (the files of
// peers/tfprivacy: sgm_rdp.json, dpsgd_epsilon.json,
// tf_test_expectations.json).
func Load(dir fs.FS) (*Study, error) {
	d := &tfData{}
	var sgm struct {
		Sources     map[string]string            `json:"sources"`
		Environment string                       `json:"environment"`
		Count       int                          `json:"count"`
		Cases       []map[string]json.RawMessage `json:"cases"`
	}
	if err := readJSON(dir, "sgm_rdp.json", &sgm); err != nil {
		return nil, err
	}
	d.sources, d.env = sgm.Sources, sgm.Environment
	for _, p := range peerVersions {
		if d.sources[p.key] == "" {
			return nil, fmt.Errorf("sgm_rdp.json: no source for %s", p.key)
		}
	}
	for i, c := range sgm.Cases {
		var tc tfSGMCase
		if err := firstErr(json.Unmarshal(c["q"], &tc.q), json.Unmarshal(c["sigma"], &tc.sigma)); err != nil {
			return nil, fmt.Errorf("sgm_rdp.json case %d: %v", i, err)
		}
		a, err := parsePeer(c["alpha"])
		if err != nil {
			return nil, fmt.Errorf("sgm_rdp.json case %d alpha: %v", i, err)
		}
		tc.alpha = a.x
		for _, p := range peerVersions {
			v, err := parsePeer(c[p.key])
			if err != nil {
				return nil, fmt.Errorf("sgm_rdp.json case %d %s: %v", i, p.key, err)
			}
			tc.peers = append(tc.peers, v)
		}
		d.sgm = append(d.sgm, tc)
	}
	if len(d.sgm) != sgm.Count {
		return nil, fmt.Errorf("sgm_rdp.json: %d cases, header says %d", len(d.sgm), sgm.Count)
	}

	var dp struct {
		Count int                          `json:"count"`
		Cases []map[string]json.RawMessage `json:"cases"`
	}
	if err := readJSON(dir, "dpsgd_epsilon.json", &dp); err != nil {
		return nil, err
	}
	for i, c := range dp.Cases {
		var tc tfDPSGDCase
		if err := firstErr(json.Unmarshal(c["q"], &tc.q), json.Unmarshal(c["sigma"], &tc.sigma),
			json.Unmarshal(c["steps"], &tc.steps), json.Unmarshal(c["delta"], &tc.delta), json.Unmarshal(c["orders"], &tc.orders)); err != nil {
			return nil, fmt.Errorf("dpsgd_epsilon.json case %d: %v", i, err)
		}
		if tc.orders != "default" {
			return nil, fmt.Errorf("dpsgd_epsilon.json case %d: orders %q, only \"default\" is known", i, tc.orders)
		}
		for _, p := range peerVersions {
			var r struct {
				Epsilon json.RawMessage `json:"epsilon"`
				Order   json.RawMessage `json:"order"`
			}
			if err := json.Unmarshal(c[p.key], &r); err != nil {
				return nil, fmt.Errorf("dpsgd_epsilon.json case %d %s: %v", i, p.key, err)
			}
			e, err1 := parsePeer(r.Epsilon)
			o, err2 := parsePeer(r.Order)
			if err := firstErr(err1, err2); err != nil {
				return nil, fmt.Errorf("dpsgd_epsilon.json case %d %s: %v", i, p.key, err)
			}
			tc.eps, tc.order = append(tc.eps, e), append(tc.order, o)
		}
		tc.line = fmt.Sprintf("case %d of dpsgd_epsilon.json", i+1)
		d.dpsgd = append(d.dpsgd, tc)
	}
	if len(d.dpsgd) != dp.Count {
		return nil, fmt.Errorf("dpsgd_epsilon.json: %d cases, header says %d", len(d.dpsgd), dp.Count)
	}
	var err error
	if d.expect, err = readExpectations(dir); err != nil {
		return nil, err
	}
	return d, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// judge compares a peer value with the truth: the signed relative error
// (peer - truth) / truth (schema.AnswerError; the truths here are RDP and
// epsilon values, never negative) and the flag, if any (see flagNotes).
func judge(p peerValue, truth *big.Float) (rel float64, flag string) {
	switch {
	case p.err:
		return math.NaN(), "PeerError"
	case math.IsNaN(p.x):
		return math.NaN(), "PeerNaN"
	case truth.IsInf():
		if math.IsInf(p.x, 1) {
			return 0, ""
		}
		return math.Inf(-1), "PeerUnderestimate"
	case math.IsInf(p.x, 1):
		return math.Inf(1), "PeerNonConvergence"
	case math.IsInf(p.x, -1):
		return math.Inf(-1), "PeerNegative"
	case truth.Sign() == 0:
		if p.x == 0 {
			return 0, ""
		}
		if p.x < 0 {
			return math.Inf(-1), "PeerNegative"
		}
		return math.Inf(1), "PeerOverestimate"
	}
	rel = schema.AnswerError(p.x, truth)
	if math.Abs(rel) < 1e-40 {
		// Below what the 50 written digits resolve: a peer value equal to
		// the truth (2.2 = 2 * 1.1 exactly) has error 0 whether the truth
		// is taken at 256 bits or from the file.
		rel = 0
	}
	switch {
	case p.x < 0:
		return rel, "PeerNegative"
	case math.Abs(rel) <= noiseLevel:
		return rel, ""
	case math.Abs(rel) <= materialLevel:
		return rel, "PeerLossOfPrecision"
	case rel > 0:
		return rel, "PeerOverestimate"
	}
	return rel, "PeerUnderestimate"
}

func relString(rel float64) string { return schema.Format(rel, 'e', 2) }

func tfHeader(what string, d *tfData) []string {
	h := []string{what, "Peer versions (each test lists, under peers, what each printed for its inputs):"}
	for _, p := range peerVersions {
		h = append(h, fmt.Sprintf("%s: %s.", p.key, d.sources[p.key]))
	}
	h = append(h, "Peer environment: "+d.env+".",
		"Each point is one test, asked once of an implementation under test. Its peers entries carry each peer version's printed value, its signed relative error ((peer - expected) / expected) and its flags. The group's relativeTolerance is what float64 accounting reaches; the peers' values are findings, not the truth.",
		fmt.Sprintf("Flags: a relative error above %g is flagged PeerLossOfPrecision up to %g and PeerOverestimate or PeerUnderestimate beyond; negative, infinite, NaN and raised values have their own flags. vectors/tfprivacy/FINDINGS.md tabulates them.", noiseLevel, materialLevel))
	return h
}

const tfProvenance = "Peer values: peers/tfprivacy in the rdpcheck repository (see peers/README.md), copied as printed; the reference values are computed by this generator for the same float64 inputs."

func (d *tfData) buildSGM(e *verify.Engine) (*gen.FileBuilder, error) {
	b := gen.NewFile("SGM-RDP-peers", tfHeader("RDP of one step of the Poisson-sampled Gaussian mechanism (add/remove-one, l2-sensitivity 1) as printed by three versions of the TF Privacy accountant, compute_rdp(q, noise_multiplier=sigma, steps=1, orders=[alpha]), on the grid q x sigma x alpha of peers/tfprivacy/sgm_rdp.json, against the reference.", d), tfProvenance)
	d.sgmRows = make([][]peerRow, len(peerVersions))
	for pi := range peerVersions {
		d.sgmRows[pi] = make([]peerRow, len(d.sgm))
	}
	g := b.Group("grid", schema.SGM, "the TF Privacy lineage's grid, each point once; peers lists what each peer version printed", gen.SGMTolerance)
	for i, c := range d.sgm {
		t := gen.SGMTest(c.q, c.sigma, c.alpha)
		t.Flags = gen.SGMFlags(c.q, c.sigma, c.alpha)
		for pi, p := range peerVersions {
			t.Peers = append(t.Peers, schema.PeerPrint{Peer: p.key, Value: c.peers[pi].raw, Flags: []string{}})
		}
		b.Test(g, t, e.SGMJob(c.q, c.sigma, c.alpha), func(t *schema.Test, o verify.Out) error {
			for pi := range peerVersions {
				pv := c.peers[pi]
				rel, flag := judge(pv, o.V)
				setJudgement(&t.Peers[pi], rel, flag)
				d.sgmRows[pi][i] = peerRow{q: c.q, sigma: c.sigma, alpha: c.alpha, peer: pv, truth: o.V, rel: rel, flag: flag}
			}
			return nil
		})
	}
	return b, nil
}

// setJudgement writes a peer's relative error and flag into its entry.
func setJudgement(p *schema.PeerPrint, rel float64, flag string) {
	p.RelativeError = relString(rel)
	if flag != "" {
		p.Flags = append(p.Flags, flag)
	}
}

// buildDPSGD writes each setting once per conversion: the classic tests
// carry tfprivacy_2019's values, the improved ones the two later versions'.
func (d *tfData) buildDPSGD(e *verify.Engine) (*gen.FileBuilder, error) {
	b := gen.NewFile("DP-SGD-epsilon-peers", tfHeader("DP-SGD epsilon for a target delta, and the order chosen, as printed by three versions of the TF Privacy accountant for the settings of peers/tfprivacy/dpsgd_epsilon.json (RDP at dp_accounting's 156 default orders), against the reference with the same conversion as the peer: tfprivacy_2019 classic, the others improved. PeerOrderDiffers marks a different chosen order.", d), tfProvenance)
	orders := gen.DPAccountingOrders()
	d.dpsgdRows = make([][]peerRow, len(peerVersions))
	for pi := range peerVersions {
		d.dpsgdRows[pi] = make([]peerRow, len(d.dpsgd))
	}
	for _, conv := range []reference.Conversion{reference.Classic, reference.Improved} {
		var who []int
		for pi, p := range peerVersions {
			if p.conv == conv {
				who = append(who, pi)
			}
		}
		g := b.Group(conv.String(), schema.DPSGDEpsilon, fmt.Sprintf("the settings with the %s conversion, each once; peers lists what each peer version using it printed", conv), gen.DPSGDTolerance)
		g.Orders, g.OrdersHex = schema.Lists(orders)
		for i, c := range d.dpsgd {
			t := gen.DPSGDTest(c.q, c.sigma, c.steps, c.delta, conv)
			t.Comment = fmt.Sprintf("%s: q=%g sigma=%g steps=%d delta=%g", c.line, c.q, c.sigma, c.steps, c.delta)
			t.Flags = []string{"ManyOrders"}
			for _, pi := range who {
				t.Peers = append(t.Peers, schema.PeerPrint{Peer: peerVersions[pi].key, Value: c.eps[pi].raw, Order: c.order[pi].raw, Flags: []string{}})
			}
			b.Test(g, t, gen.DPSGDJob(e, c.q, c.sigma, c.steps, c.delta, orders, conv), func(t *schema.Test, o verify.Out) error {
				for k, pi := range who {
					pe, po := c.eps[pi], c.order[pi]
					rel, flag := judge(pe, o.V)
					setJudgement(&t.Peers[k], rel, flag)
					if po.x != o.Order {
						t.Peers[k].Flags = append(t.Peers[k].Flags, "PeerOrderDiffers")
					}
					d.dpsgdRows[pi][i] = peerRow{q: c.q, sigma: c.sigma, steps: c.steps, delta: c.delta, peer: pe, truth: o.V, rel: rel, flag: flag, peerOrder: po.x, ord: o.Order}
				}
				return nil
			})
		}
	}
	return b, nil
}

// tfExpectation is one entry of tf_test_expectations.json.
type tfExpectation struct {
	Source    string          `json:"source"`
	Call      string          `json:"call"`
	Orders    string          `json:"orders"`
	Expected  json.RawMessage `json:"expected"`
	Tolerance string          `json:"tolerance"`
}

func readExpectations(dir fs.FS) ([]tfExpectation, error) {
	var f struct {
		Cases []tfExpectation `json:"cases"`
	}
	if err := readJSON(dir, "tf_test_expectations.json", &f); err != nil {
		return nil, err
	}
	// The calls are prose; buildExpectations encodes each one's inputs and
	// relies on this order. A changed file must be read again by a person.
	want := []string{
		"tensorflow/privacy 3059fba rdp_accountant_test.py test_compute_rdp_scalar",
		"tensorflow/privacy 3059fba rdp_accountant_test.py test_compute_rdp_sequence",
		"google/differential-privacy b5b0286 dp_accounting rdp_privacy_accountant_test.py",
		"tensorflow/privacy 3059fba rdp_accountant_test.py test_get_privacy_spent_check_target_delta",
		"tensorflow/privacy 3059fba rdp_accountant_test.py test_get_privacy_spent_check_target_delta",
		"tensorflow/privacy 03035d5 compute_dp_sgd_privacy_test.py Test0",
		"tensorflow/privacy 03035d5 compute_dp_sgd_privacy_test.py Test1",
		"tensorflow/privacy 03035d5 compute_dp_sgd_privacy_test.py Test2",
		"tensorflow/privacy before commit be8175b",
		"pytorch/opacus 4d0ebc8 tests/accountants_test.py",
	}
	if len(f.Cases) != len(want) {
		return nil, fmt.Errorf("tf_test_expectations.json: %d cases, the generator knows %d; read the new ones and extend tf.go", len(f.Cases), len(want))
	}
	for i, c := range f.Cases {
		if !strings.HasPrefix(c.Source, want[i]) {
			return nil, fmt.Errorf("tf_test_expectations.json case %d: source %q, the generator expects %q there", i, c.Source, want[i])
		}
	}
	return f.Cases, nil
}

// withinTolerance returns whether |truth - asserted| is within a test's
// stated tolerance: "N decimal places" (unittest's assertAlmostEqual:
// round(a-b, N) == 0, taken as |a-b| < 0.5e-N) or "rtol R" (|a-b| <= R
// |asserted|). judged is false for tolerances not stated numerically. It is
// not schema.AnswerError: it applies the peer's own test's criterion, in
// float64 as the peer's test does (absolute, or relative to the asserted
// value), to say whether that test would pass against the truth.
func withinTolerance(tol string, asserted float64, truth *big.Float) (within, judged bool) {
	t, _ := truth.Float64()
	var n int
	var r float64
	switch {
	case math.IsInf(asserted, 1):
		return math.IsInf(t, 1), true
	case fmtScan(tol, "%d decimal places", &n):
		return math.Abs(t-asserted) < 0.5*math.Pow(10, -float64(n)), true
	case fmtScan(tol, "rtol %g", &r):
		return math.Abs(t-asserted) <= r*math.Abs(asserted), true
	}
	return false, false
}

func fmtScan(s, format string, v any) bool {
	n, err := fmt.Sscanf(s, format, v)
	return err == nil && n == 1
}

func (d *tfData) buildExpectations(e *verify.Engine) (*gen.FileBuilder, error) {
	b := gen.NewFile("peer-test-expectations", []string{
		"The values the peers hard-code in their own unit tests (peers/tfprivacy/tf_test_expectations.json), each as a test: the peer's call as inputs, the asserted value as peerValue, the test's own tolerance as peerTolerance, and the reference value as expected.",
		"PeerAssertionOutsideOwnTolerance marks an assertion the truth does not satisfy within the test's own tolerance; peerRelativeError is (asserted - expected) / expected.",
	}, tfProvenance, "unittest's assertAlmostEqual(places=N) is read as |a - b| < 0.5e-N; rtol R as |a - b| <= R |asserted|; tolerances not stated numerically are not judged.")
	ex := d.expect
	floats := func(raw json.RawMessage) ([]peerValue, error) {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			list = []json.RawMessage{raw}
		}
		var out []peerValue
		for _, r := range list {
			v, err := parsePeer(r)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	epsOf := func(raw json.RawMessage) (eps, order peerValue, err error) {
		var r struct {
			Epsilon json.RawMessage `json:"epsilon"`
			Order   json.RawMessage `json:"order"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return eps, order, err
		}
		if eps, err = parsePeer(r.Epsilon); err != nil {
			return
		}
		if r.Order != nil {
			order, err = parsePeer(r.Order)
		} else {
			order = peerValue{x: math.NaN()}
		}
		return
	}
	addRow := func(t *schema.Test, c tfExpectation, call string, asserted peerValue) func(*schema.Test, verify.Out) error {
		t.PeerValue = asserted.raw
		t.PeerTolerance = c.Tolerance
		return func(t *schema.Test, o verify.Out) error {
			rel, _ := judge(asserted, o.V)
			t.PeerRelativeError = relString(rel)
			within, judged := withinTolerance(c.Tolerance, asserted.x, o.V)
			if judged && !within {
				t.Flags = append(t.Flags, "PeerAssertionOutsideOwnTolerance")
			}
			d.expRows = append(d.expRows, expRow{source: c.Source, call: call, tol: c.Tolerance, asserted: asserted.x, truth: o.V, rel: rel, outside: judged && !within, judged: judged})
			return nil
		}
	}

	// compute_rdp: steps * SGM at one order.
	rdpCall := func(g *schema.Group, c tfExpectation, q, sigma float64, steps int, orders []float64) error {
		vals, err := floats(c.Expected)
		if err != nil || len(vals) != len(orders) {
			return fmt.Errorf("%s: expected %s: %v", c.Source, c.Expected, err)
		}
		e.Need(q, sigma, orders...)
		for i, a := range orders {
			t := gen.SGMTest(q, sigma, a)
			t.Steps = &steps
			call := fmt.Sprintf("compute_rdp(q=%g, noise_multiplier=%g, steps=%d, orders=%g)", q, sigma, steps, a)
			t.Comment = c.Source + ": " + call
			j := e.Add("SGMCurve "+call, func(_ reference.Context, pts verify.Points) (verify.Out, error) {
				v := pts(q, sigma, a)
				return verify.Out{V: new(big.Float).SetPrec(v.Prec()).Mul(v, new(big.Float).SetInt64(int64(steps)))}, nil
			})
			j.Reads(q, sigma)
			b.Test(g, t, j, addRow(t, c, call, vals[i]))
		}
		return nil
	}
	g := b.Group("tfprivacy-3059fba/compute_rdp", schema.SGMCurve, "tensorflow/privacy 3059fba rdp_accountant_test.py: compute_rdp", gen.SGMTolerance)
	g.Peer = "tensorflow/privacy 3059fba"
	seq := []float64{1.5, 2.5, 5, 50, 100, math.Inf(1)}
	if err := firstErr(rdpCall(g, ex[0], 0.1, 2, 10, []float64{5}), rdpCall(g, ex[1], 0.01, 2.5, 50, seq)); err != nil {
		return nil, err
	}
	g = b.Group("dp-accounting-b5b0286/compute_rdp", schema.SGMCurve, "google/differential-privacy b5b0286 dp_accounting 0.6.0 rdp_privacy_accountant_test.py: compute_rdp", gen.SGMTolerance)
	g.Peer = "dp_accounting 0.6.0"
	if err := rdpCall(g, ex[2], 0.01, 2.5, 50, seq); err != nil {
		return nil, err
	}

	// get_privacy_spent on a constant curve.
	g = b.Group("tfprivacy-3059fba/get_privacy_spent", schema.Epsilon, "tensorflow/privacy 3059fba rdp_accountant_test.py test_get_privacy_spent_check_target_delta: a constant curve", gen.ConversionTolerance)
	g.Peer = "tensorflow/privacy 3059fba"
	{
		c := ex[3]
		eps, order, err := epsOf(c.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Source, err)
		}
		cvOrders, cvRDP := gen.TFConstantCurve()
		t := &schema.Test{Conversion: reference.Improved.String(), Comment: c.Source + ": " + c.Call}
		t.Orders, t.OrdersHex = schema.Lists(cvOrders)
		t.RDP, t.RDPHex = schema.Lists(cvRDP)
		t.SetFloat("delta", 1e-5)
		t.PeerOrder = order.raw
		j := e.Add("Epsilon "+c.Call, func(ctx reference.Context, _ verify.Points) (verify.Out, error) {
			v, o, err := ctx.Epsilon(cvOrders, gen.BigList(cvRDP), 1e-5, reference.Improved)
			return verify.Out{V: v, Order: o}, err
		})
		b.Test(g, t, j, addRow(t, c, c.Call, eps))
	}

	// DP-SGD style calls: q, sigma, steps, delta on an order list.
	dpCall := func(g *schema.Group, c tfExpectation, call string, q, sigma float64, steps int, delta float64, orders []float64, conv reference.Conversion, asserted, order peerValue) {
		t := gen.DPSGDTest(q, sigma, steps, delta, conv)
		t.Comment = c.Source + ": " + call
		t.PeerOrder = order.raw
		b.Test(g, t, gen.DPSGDJob(e, q, sigma, steps, delta, orders, conv), addRow(t, c, call, asserted))
	}

	// The calibration case: q = 1, one step, orders 0.001 i. TF's grid runs
	// from 1.000 to 99.999; the test keeps a window of +-0.5 around the
	// minimising order, after checking (at 64 bits) that the minimum over
	// the whole grid from 1.001 lies strictly inside it.
	{
		c := ex[4]
		eps, order, err := epsOf(c.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Source, err)
		}
		const sigma, delta = 4.530877117, 1e-6
		window, err := calibrationWindow(sigma, delta)
		if err != nil {
			return nil, err
		}
		g := b.Group("tfprivacy-3059fba/get_privacy_spent-gaussian", schema.DPSGDEpsilon, fmt.Sprintf("tensorflow/privacy 3059fba test_get_privacy_spent_check_target_delta, second part: q=1, sigma=%g, orders 0.001 i for %s..%s (the window of TF's grid 1.000..99.999 around the minimum)", sigma, schema.Dec(window[0]), schema.Dec(window[len(window)-1])), gen.DPSGDTolerance)
		g.Peer = "tensorflow/privacy 3059fba"
		g.Orders, g.OrdersHex = schema.Lists(window)
		dpCall(g, c, "get_privacy_spent(orders, compute_rdp(q=1, noise_multiplier=4.530877117, steps=1, orders), target_delta=1e-6)", 1, sigma, 1, delta, window, reference.Improved, eps, order)
	}

	// compute_dp_sgd_privacy: q = batch/n, steps = ceil(epochs n / batch).
	tfOrders := []float64{1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5}
	for a := 5; a <= 63; a++ {
		tfOrders = append(tfOrders, float64(a))
	}
	tfOrders = append(tfOrders, 128, 256, 512)
	runs := []struct{ n, batch, sigma, epochs, delta float64 }{
		{60000, 150, 1.3, 15, 1e-5}, {100000, 100, 1.0, 30, 1e-7}, {1e8, 1024, 0.1, 10, 1e-7},
	}
	dpsgdCall := func(r struct{ n, batch, sigma, epochs, delta float64 }) (string, float64, int) {
		return fmt.Sprintf("compute_dp_sgd_privacy(n=%g, batch_size=%g, noise_multiplier=%g, epochs=%g, delta=%g)", r.n, r.batch, r.sigma, r.epochs, r.delta),
			r.batch / r.n, int(math.Ceil(r.epochs * r.n / r.batch))
	}
	g = b.Group("tfprivacy-03035d5/compute_dp_sgd_privacy", schema.DPSGDEpsilon, "tensorflow/privacy 03035d5 compute_dp_sgd_privacy_test.py (improved conversion), orders [1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5] + 5..63 + [128, 256, 512]", gen.DPSGDTolerance)
	g.Peer = "tensorflow/privacy 03035d5"
	g.Orders, g.OrdersHex = schema.Lists(tfOrders)
	for i, r := range runs {
		c := ex[5+i]
		eps, order, err := epsOf(c.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Source, err)
		}
		call, q, steps := dpsgdCall(r)
		dpCall(g, c, call, q, r.sigma, steps, r.delta, tfOrders, reference.Improved, eps, order)
	}
	g = b.Group("tfprivacy-before-be8175b/compute_dp_sgd_privacy", schema.DPSGDEpsilon, "tensorflow/privacy before be8175b (Dec 2020) compute_dp_sgd_privacy_test.py (classic conversion), orders as above", gen.DPSGDTolerance)
	g.Peer = "tensorflow/privacy before be8175b"
	g.Orders, g.OrdersHex = schema.Lists(tfOrders)
	{
		c := ex[8]
		vals, err := floats(c.Expected)
		if err != nil || len(vals) != len(runs) {
			return nil, fmt.Errorf("%s: expected %s: %v", c.Source, c.Expected, err)
		}
		for i, r := range runs {
			call, q, steps := dpsgdCall(r)
			dpCall(g, c, call, q, r.sigma, steps, r.delta, tfOrders, reference.Classic, vals[i], peerValue{x: math.NaN()})
		}
	}
	g = b.Group("opacus-4d0ebc8/accountants_test", schema.DPSGDEpsilon, "pytorch/opacus 4d0ebc8 tests/accountants_test.py: RDP accountant (improved conversion), alphas 1.1..10.9 by 0.1 and 12..63", gen.DPSGDTolerance)
	g.Peer = "opacus 4d0ebc8"
	var opOrders []float64
	for x := 1; x < 100; x++ {
		opOrders = append(opOrders, 1+float64(x)/10)
	}
	for a := 12; a < 64; a++ {
		opOrders = append(opOrders, float64(a))
	}
	g.Orders, g.OrdersHex = schema.Lists(opOrders)
	{
		c := ex[9]
		eps, order, err := epsOf(c.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Source, err)
		}
		dpCall(g, c, "RDPAccountant: noise_multiplier=1.5, sample_rate=0.04, steps=2250, get_epsilon(delta=1e-5)", 0.04, 1.5, 2250, 1e-5, opOrders, reference.Improved, eps, order)
	}
	return b, nil
}

// calibrationWindow returns the orders 0.001 i within 0.5 of the order
// minimising the improved conversion of alpha / (2 sigma^2) over TF's grid
// (i from 1001 to 99999), found at 64 bits; the minimiser must lie strictly
// inside the window.
func calibrationWindow(sigma, delta float64) ([]float64, error) {
	var grid []float64
	var rdp []*big.Float
	c := reference.Context{Prec: 64}
	for i := 1001; i <= 99999; i++ {
		a := 0.001 * float64(i)
		v, err := c.Gaussian(sigma, a)
		if err != nil {
			return nil, err
		}
		grid, rdp = append(grid, a), append(rdp, v)
	}
	_, best, err := c.Epsilon(grid, rdp, delta, reference.Improved)
	if err != nil {
		return nil, err
	}
	var w []float64
	for _, a := range grid {
		if math.Abs(a-best) <= 0.5 {
			w = append(w, a)
		}
	}
	if len(w) < 3 || w[0] == best || w[len(w)-1] == best {
		return nil, errors.New("calibration window: the minimum is at the window's edge")
	}
	return w, nil
}
