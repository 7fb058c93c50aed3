package schema

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"testing"
)

// sample is a small valid file: one SGM group with a valid and an invalid
// test. Its expected value is SGM(q=1, sigma=1, alpha=2) = 1 exactly.
func sample() *File {
	valid := &Test{TcID: 1, Comment: "q=1 sigma=1 alpha=2", Flags: []string{"GaussianLine"}, Result: Valid,
		Expected: Exact(big.NewFloat(1)), ExpectedFloat64: "1"}
	valid.SetFloat("q", 1)
	valid.SetFloat("sigma", 1)
	valid.SetFloat("alpha", 2)
	bad := &Test{TcID: 2, Comment: "q=NaN", Flags: []string{"NaNInput"}, Result: Invalid}
	bad.SetFloat("q", math.NaN())
	bad.SetFloat("sigma", 1)
	bad.SetFloat("alpha", 2)
	return &File{
		Schema: Name, Algorithm: "SGM-RDP", GeneratorVersion: "rdpcheck gen-vectors 1.0", FormatVersion: FormatVersion, Version: 1,
		ReferencePrecisionBits: 256, CheckPrecisionBits: 320,
		Header: []string{"test file"}, Provenance: []string{"by hand"},
		Notes:         map[string]string{"GaussianLine": "q = 1", "NaNInput": "reject NaN"},
		NumberOfTests: 2,
		TestGroups: []*Group{{Name: "g", Function: SGM, Comment: "c", RelativeTolerance: 1e-12,
			Tests: []*Test{valid, bad}}},
	}
}

// withProfile is sample with a ProfileEpsilon group of one valid test (an
// interval, not an expected value) and one invalid one; the interval is
// made up: Lint checks the form, not the value.
func withProfile() *File {
	f := sample()
	valid := &Test{TcID: 3, Comment: "one phase", Flags: []string{}, Result: Valid,
		Phases: []Phase{NewPhase(0.01, 1.1, 1000)}}
	valid.SetFloat("delta", 1e-5)
	valid.SetInterval(1.5, 1.5015)
	bad := &Test{TcID: 4, Comment: "delta=0", Flags: []string{"NaNInput"}, Result: Invalid,
		Phases: []Phase{NewPhase(0.01, 1.1, 1000)}}
	bad.SetFloat("delta", 0)
	f.TestGroups = append(f.TestGroups, &Group{Name: "p", Function: ProfileEpsilon, Comment: "c", RelativeTolerance: 1e-3,
		Tests: []*Test{valid, bad}})
	f.NumberOfTests = 4
	return f
}

func encode(t *testing.T, f *File) []byte {
	t.Helper()
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestValidatorCompiles(t *testing.T) {
	if _, err := NewValidator(JSON); err != nil {
		t.Fatal(err)
	}
	if _, err := NewValidator([]byte(`{"type": "object", "uniqueItems": true}`)); err == nil || !strings.Contains(err.Error(), "not implemented") {
		t.Errorf("a keyword the validator does not implement was accepted: %v", err)
	}
	if _, err := NewValidator([]byte(`{"$ref": "#/$defs/missing"}`)); err == nil {
		t.Error("a dangling $ref was accepted")
	}
}

func TestLintSample(t *testing.T) {
	data := encode(t, sample())
	if errs := Lint(data); len(errs) > 0 {
		t.Fatalf("the sample fails lint: %v", errs)
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if again := encode(t, f); !bytes.Equal(again, data) {
		t.Error("Parse then Encode changes the bytes")
	}
	q, err := f.TestGroups[0].Tests[1].Float("q")
	if err != nil || !math.IsNaN(q) {
		t.Errorf("Float(q) = %v, %v; want NaN", q, err)
	}
}

// peer is a well-formed peers entry with the given flags, explained in
// sample's notes (GaussianLine) unless they are new.
func peer(name string, flags ...string) PeerPrint {
	return PeerPrint{Peer: name, Value: "1", RelativeError: "0", Flags: append([]string{}, flags...)}
}

// Each mutation breaks one rule; Lint must say so.
func TestLintCatches(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(f *File)
		raw    func(b []byte) []byte
		want   string
	}{
		{name: "tcId out of sequence", mutate: func(f *File) { f.TestGroups[0].Tests[1].TcID = 7 }, want: "out of sequence"},
		{name: "count", mutate: func(f *File) { f.NumberOfTests = 3 }, want: "numberOfTests"},
		{name: "unexplained flag", mutate: func(f *File) { f.TestGroups[0].Tests[0].Flags = append(f.TestGroups[0].Tests[0].Flags, "Mystery") }, want: "not explained"},
		{name: "unused note", mutate: func(f *File) { f.Notes["Unused"] = "x" }, want: "no test uses"},
		{name: "hex and decimal differ", mutate: func(f *File) { f.TestGroups[0].Tests[0].SigmaHex = Hex(1.5) }, want: "differ"},
		{name: "decimal not shortest", mutate: func(f *File) { f.TestGroups[0].Tests[0].Sigma = "1.0" }, want: "shortest"},
		{name: "few digits", mutate: func(f *File) { f.TestGroups[0].Tests[0].Expected = "1.000000000000000000000000000000e+00" }, want: "does not match"},
		{name: "wrong float64", mutate: func(f *File) { f.TestGroups[0].Tests[0].ExpectedFloat64 = "1.0000000000000002" }, want: "nearest"},
		{name: "invalid test with a value", mutate: func(f *File) { f.TestGroups[0].Tests[1].Expected = "0" }, want: "not allowed"},
		{name: "valid test without a value", mutate: func(f *File) { f.TestGroups[0].Tests[0].Expected = "" }, want: "missing required"},
		{name: "missing input", mutate: func(f *File) { f.TestGroups[0].Tests[0].Alpha, f.TestGroups[0].Tests[0].AlphaHex = "", "" }, want: "alpha"},
		{name: "input of another function", mutate: func(f *File) { f.TestGroups[0].Tests[0].SetFloat("b", 1) }, want: "not an argument"},
		{name: "unknown function", mutate: func(f *File) { f.TestGroups[0].Function = "Sgm" }, want: "not one of"},
		{name: "bad result", mutate: func(f *File) { f.TestGroups[0].Tests[0].Result = "ok" }, want: "not one of"},
		{name: "acceptable without a flag", mutate: func(f *File) {
			f.TestGroups[0].Tests[0].Result, f.TestGroups[0].Tests[0].Flags = Acceptable, nil
			delete(f.Notes, "GaussianLine")
		}, want: "needs a flag"},
		{name: "duplicate group name", mutate: func(f *File) {
			g := *f.TestGroups[0]
			g.Tests = nil
			f.TestGroups = append(f.TestGroups, &g)
		}, want: "used twice"},
		{name: "unknown property", raw: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"tcId":1,`), []byte(`"tcId":1,"extra":1,`), 1)
		}, want: "unknown property"},
		{name: "peer flag unexplained", mutate: func(f *File) { f.TestGroups[0].Tests[0].Peers = []PeerPrint{peer("p", "Mystery")} }, want: "flag \"Mystery\" not explained"},
		{name: "peer listed twice", mutate: func(f *File) { f.TestGroups[0].Tests[0].Peers = []PeerPrint{peer("p"), peer("p")} }, want: "listed twice"},
		{name: "peer relative error", mutate: func(f *File) {
			pp := peer("p")
			pp.RelativeError = "1%"
			f.TestGroups[0].Tests[0].Peers = []PeerPrint{pp}
		}, want: "relativeError: \"1%\" does not match"},
		{name: "peer without flags", mutate: func(f *File) {
			pp := peer("p")
			pp.Flags = nil
			f.TestGroups[0].Tests[0].Peers = []PeerPrint{pp}
		}, want: "flags: want array, have null"},
		{name: "peers in a peer's group", mutate: func(f *File) {
			f.TestGroups[0].Peer = "p"
			f.TestGroups[0].Tests[0].Peers = []PeerPrint{peer("q")}
		}, want: "one or the other"},
		{name: "not canonical", raw: func(b []byte) []byte { return bytes.Replace(b, []byte(`"tcId":1,`), []byte(`"tcId": 1,`), 1) }, want: "canonical"},
	}
	withPeers := sample()
	withPeers.TestGroups[0].Tests[0].Peers = []PeerPrint{peer("p"), peer("q")}
	if errs := Lint(encode(t, withPeers)); len(errs) > 0 {
		t.Fatalf("the sample with peers fails lint: %v", errs)
	}
	profile := func(f *File) *Test { return f.TestGroups[1].Tests[0] }
	for _, c := range []struct {
		name   string
		mutate func(f *File)
		raw    func([]byte) []byte
		want   string
	}{
		{name: "profile test with an expected value", mutate: func(f *File) { profile(f).Expected, profile(f).ExpectedFloat64 = Exact(big.NewFloat(1)), "1" }, want: "not allowed"},
		{name: "profile test without its interval", mutate: func(f *File) { profile(f).Upper, profile(f).UpperHex = "", "" }, want: "upper"},
		{name: "profile test without phases", mutate: func(f *File) { profile(f).Phases = nil }, want: "phases"},
		{name: "phases on another function", mutate: func(f *File) { f.TestGroups[0].Tests[0].Phases = []Phase{NewPhase(1, 1, 1)} }, want: "phases must be given exactly"},
		{name: "interval upside down", mutate: func(f *File) { profile(f).SetInterval(2, 1) }, want: "not an interval"},
		{name: "phase hex differs", mutate: func(f *File) { profile(f).Phases[0].QHex = Hex(0.02) }, want: "differ"},
		{name: "invalid profile test with an interval", mutate: func(f *File) { f.TestGroups[1].Tests[1].SetInterval(1, 2) }, want: "not allowed"},
		{name: "unknown phase key", raw: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"steps":1000}`), []byte(`"steps":1000,"batch":1}`), 1)
		}, want: "unknown property"},
	} {
		f := withProfile()
		if errs := Lint(encode(t, f)); len(errs) > 0 {
			t.Fatalf("the profile sample fails lint: %v", errs)
		}
		if c.mutate != nil {
			c.mutate(f)
		}
		data := encode(t, f)
		if c.raw != nil {
			data = c.raw(data)
		}
		errs := Lint(data)
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: Lint = %v, want an error containing %q", c.name, errs, c.want)
		}
	}
	for _, c := range cases {
		f := sample()
		if c.mutate != nil {
			c.mutate(f)
		}
		data := encode(t, f)
		if c.raw != nil {
			data = c.raw(data)
		}
		errs := Lint(data)
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: Lint = %v, want an error containing %q", c.name, errs, c.want)
		}
	}
}

func TestRelativeErrorAndBelow(t *testing.T) {
	third := new(big.Float).SetPrec(256).Quo(big.NewFloat(1), big.NewFloat(3))
	inf := new(big.Float).SetInf(false)
	zero := new(big.Float)
	tinyExact := new(big.Float).SetMantExp(big.NewFloat(1), -5000)
	cases := []struct {
		got   float64
		want  *big.Float
		rel   float64 // upper bound on the relative error (0: exactly 0)
		below bool
	}{
		{1.0 / 3, third, 1.2e-16, true}, // 1/3 rounds down in float64
		{math.Nextafter(1.0/3, 1), third, 2e-16, false},
		{math.Inf(1), inf, 0, false},
		{1e300, inf, math.Inf(1), true},
		{0, zero, 0, false},
		{1e-20, zero, 1e-20, false},
		{1e-320, tinyExact, 1e-320 / MinNormal, false},
		{math.NaN(), third, math.Inf(1), false},
	}
	for _, c := range cases {
		r := RelativeError(c.got, c.want)
		if !(r <= c.rel*(1+1e-15)) || (c.rel == 0 && r != 0) {
			t.Errorf("RelativeError(%v, %s) = %v, want <= %v", c.got, Exact(c.want), r, c.rel)
		}
		if b := Below(c.got, c.want); b != c.below {
			t.Errorf("Below(%v, %s) = %v, want %v", c.got, Exact(c.want), b, c.below)
		}
	}
	// An exact value that underflows float64 is answered by 0 without error.
	tiny, _ := ParseExact("5.8945523410370473585531751616651834203531159562578e-2599")
	if r := RelativeError(0, tiny); r != 0 {
		t.Errorf("RelativeError(0, 5.9e-2599) = %v, want 0", r)
	}
	// A float64 equal to the truth is not below the 50-digit rounding of it.
	x := 0.1
	exact, _ := ParseExact(Exact(new(big.Float).SetPrec(256).SetFloat64(x)))
	if Below(x, exact) {
		t.Errorf("Below(0.1, its own 50-digit rounding) = true")
	}
}

// TestAnswerErrorAndRelDiff: the signed measures, and where the two differ.
// Expected values are exact: 1.5 against 1 is 0.5 above, -0.5 below; a
// float64 against an exact value below MinNormal is measured against
// MinNormal, two exact values are not.
func TestAnswerErrorAndRelDiff(t *testing.T) {
	f := big.NewFloat
	inf, ninf := new(big.Float).SetInf(false), new(big.Float).SetInf(true)
	zero := new(big.Float)
	tinyExact := new(big.Float).SetMantExp(f(1), -5000)
	for _, c := range []struct {
		got  float64
		want *big.Float
		err  float64
	}{
		{1.5, f(1), 0.5},
		{0.5, f(1), -0.5},
		{-3, f(-2), -0.5},
		{1e-20, zero, 1e-20},
		{-1e-20, zero, -1e-20},
		{math.Inf(1), zero, math.Inf(1)},
		{math.Inf(1), inf, 0},
		{1e300, inf, math.Inf(-1)},
		{math.Inf(1), ninf, math.Inf(1)},
		{math.Inf(-1), f(1), math.Inf(-1)},
		{0x1p-1060, tinyExact, 0x1p-38},
	} {
		if e := AnswerError(c.got, c.want); e != c.err {
			t.Errorf("AnswerError(%v, %s) = %v, want %v", c.got, Exact(c.want), e, c.err)
		}
	}
	tinyPlus := new(big.Float).SetPrec(256).SetMantExp(f(1.5), -5000)
	for _, c := range []struct {
		a, b *big.Float
		diff float64
	}{
		{f(1.5), f(1), 0.5},
		{tinyPlus, tinyExact, 0.5}, // no floor between exact values
		{zero, zero, 0},
		{f(1), zero, math.Inf(1)},
		{f(-1), zero, math.Inf(-1)},
		{zero, f(2), -1},
		{inf, inf, 0},
		{ninf, inf, math.Inf(-1)},
		{f(1), inf, math.Inf(-1)},
		{f(1), ninf, math.Inf(1)},
	} {
		if d := RelDiff(c.a, c.b); d != c.diff {
			t.Errorf("RelDiff(%s, %s) = %v, want %v", Exact(c.a), Exact(c.b), d, c.diff)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		x        float64
		dec, hex string
	}{
		{0.5, "0.5", "0x1p-01"},
		{1e-6, "1e-06", "0x1.0c6f7a0b5ed8dp-20"},
		{5e-324, "5e-324", "0x1p-1074"},
		{math.Copysign(0, -1), "-0", "-0x0p+00"},
		{math.Inf(1), "inf", "inf"},
		{math.Inf(-1), "-inf", "-inf"},
	} {
		if Dec(c.x) != c.dec || Hex(c.x) != c.hex {
			t.Errorf("%v: Dec %q Hex %q, want %q %q", c.x, Dec(c.x), Hex(c.x), c.dec, c.hex)
		}
		for _, s := range []string{c.dec, c.hex} {
			if y, err := ParseFloat(s); err != nil || math.Float64bits(y) != math.Float64bits(c.x) {
				t.Errorf("ParseFloat(%q) = %v, %v; want %v", s, y, err, c.x)
			}
		}
	}
	if Dec(math.NaN()) != "nan" || Hex(math.NaN()) != "nan" {
		t.Error("NaN is not written nan")
	}
	if s := Exact(big.NewFloat(0.5)); s != "5.0000000000000000000000000000000000000000000000000e-01" {
		t.Errorf("Exact(0.5) = %s", s)
	}
}
