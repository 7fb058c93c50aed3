package dpevent

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// TestDeepAndWide: a deep file and a wide one give one term per distinct
// event, with the counts added, and the epsilon of those counts composed
// directly.
func TestDeepAndWide(t *testing.T) {
	for _, c := range []struct {
		name   string
		data   []byte
		counts map[string]int64
	}{
		{"deep 4900", deepComposed(4900), map[string]int64{"Gaussian sigma=1": 4901}},
		{"wide 3000", wideComposed(3000), map[string]int64{"Gaussian sigma=1": 1000, "Gaussian sigma=2": 1000, "Gaussian sigma=3.5": 1000}},
	} {
		p, err := ReadBytes(c.data, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := map[string]int64{}
		for _, term := range p.Terms {
			got[term.What] = term.Count
			if term.Places != int(term.Count) {
				t.Errorf("%s: %s at %d places, count %d", c.name, term.What, term.Places, term.Count)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.counts) {
			t.Errorf("%s: terms %v, want %v", c.name, got, c.counts)
		}
		// the same counts composed directly, in the plan's order
		a := &fast.Accountant{}
		for _, term := range p.Terms {
			s := term.Event.Num("noise_multiplier")
			if err := a.Compose(fast.GaussianEvent(s), int(c.counts[term.What])); err != nil {
				t.Fatal(err)
			}
		}
		want, _, err := a.BestEpsilon(1e-5, fast.Improved)
		r, err2 := p.Epsilon(1e-5, nil, fast.Improved)
		if err != nil || err2 != nil || r.Epsilon != want {
			t.Errorf("%s: eps %v (%v), composed directly %v (%v)", c.name, r, err2, want, err)
		}
	}
}

// TestLimits: the limits on depth and on nested bounds are typed errors
// naming the place; within them, files are read.
func TestLimits(t *testing.T) {
	// MaxDepth events deep: read; one more: ErrTooDeep
	self := func(depth int) []byte {
		return []byte(strings.Repeat(`{"class_name": "SelfComposedDpEvent", "count": 1, "event": `, depth-1) +
			`{"class_name": "NoOpDpEvent"}` + strings.Repeat("}", depth-1))
	}
	if _, err := Decode(self(MaxDepth)); err != nil {
		t.Errorf("%d deep: %v", MaxDepth, err)
	}
	_, err := Decode(self(MaxDepth + 1))
	want := "event.event.event.event[... 9993 levels ...].event.event.event.event: events nested more than 10000 deep (rdpcheck's limit)"
	if !errors.Is(err, ErrTooDeep) || err == nil || err.Error() != want {
		t.Errorf("%d deep: %v, want ErrTooDeep: %s", MaxDepth+1, err, want)
	}
	// a deeper composed chain passes the JSON's limit first
	if _, err := Decode(deepComposed(MaxDepth + 1)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("composed %d deep: %v, want ErrTooDeep", MaxDepth+1, err)
	}
	if _, err := Decode(deepComposed(MaxDepth - 1)); err != nil {
		t.Errorf("composed %d deep: %v", MaxDepth-1, err)
	}

	// MaxNested general bounds: accounted; one more: ErrNested
	if _, err := ReadBytes(nestedPoisson(MaxNested+1), nil); err != nil {
		t.Errorf("%d nested Poisson: %v", MaxNested+1, err)
	}
	_, err = ReadBytes(nestedPoisson(MaxNested+2), nil)
	if !errors.Is(err, ErrNested) || !strings.HasPrefix(fmt.Sprint(err), "event.event.event.event.event: PoissonSampledDpEvent is bound 5 of a nest") {
		t.Errorf("%d nested Poisson: %v, want ErrNested", MaxNested+2, err)
	}
}

// TestExactIntegers: an integer field takes any exact way of writing an
// integer, and refuses the rest with its reason.
func TestExactIntegers(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want int64  // when err is ""
		err  string // the message after "event.count: "
	}{
		{"10000", 10000, ""},
		{"1e4", 10000, ""},
		{"1E+4", 10000, ""},
		{"1.5e1", 15, ""},
		{"100.000", 100, ""},
		{"0", 0, ""},
		{"-0", 0, ""},
		{"0e999999999999", 0, ""},
		{"0.0", 0, ""},
		{"9007199254740992", 1 << 53, ""},
		{"9.007199254740992e15", 1 << 53, ""},
		{"900719925474099.2e1", 1 << 53, ""},
		{"9007199254740993", 0, "is too large: at most 2^53 = 9007199254740992 (is 9007199254740993)"},
		{"1e16", 0, "is too large: at most 2^53 = 9007199254740992 (is 1e16)"},
		{"1e999999999999999999", 0, "is too large: at most 2^53 = 9007199254740992 (is 1e999999999999999999)"},
		{"12345678901234567890", 0, "is too large: at most 2^53 = 9007199254740992 (is 12345678901234567890)"},
		{"2.5", 0, "must be an integer (is 2.5)"},
		{"1e-999999999999", 0, "must be an integer (is 1e-999999999999)"},
		{"10.01e1", 0, "must be an integer (is 10.01e1)"},
		{"-1", 0, "must be >= 0 (is -1)"},
		{"-1e30", 0, "must be >= 0 (is -1e30)"},
		{"-0.5", 0, "must be >= 0 (is -0.5)"},
	} {
		in := `{"class_name": "SelfComposedDpEvent", "count": ` + c.lit + `, "event": {"class_name": "NoOpDpEvent"}}`
		f, err := Decode([]byte(in))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("count %s: %v", c.lit, err)
		case c.err == "" && f.Event.Num("count") != float64(c.want):
			t.Errorf("count %s = %v, want %d", c.lit, f.Event.Num("count"), c.want)
		case c.err != "" && (err == nil || err.Error() != "event.count: "+c.err):
			t.Errorf("count %s: %v, want %s", c.lit, err, c.err)
		}
	}
}

// TestTermsDistinct: terms are grouped by their exact parameters: events
// one ulp apart are two terms, equal ones one.
func TestTermsDistinct(t *testing.T) {
	x := 0.1
	y := math.Nextafter(x, 1)
	for _, form := range []string{
		`{"class_name": "GaussianDpEvent", "noise_multiplier": %v}`,
		`{"class_name": "LaplaceDpEvent", "noise_multiplier": %v}`,
		`{"class_name": "ZCDpEvent", "rho": %v}`,
		`{"class_name": "ZCDpEvent", "rho": 1, "xi": %v}`,
		`{"class_name": "EpsilonDeltaDpEvent", "epsilon": %v, "delta": 0}`,
		`{"class_name": "EpsilonDeltaDpEvent", "epsilon": 1, "delta": %v}`,
		`{"class_name": "PoissonSampledDpEvent", "sampling_probability": %v, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1}}`,
		`{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.5, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": %v}}`,
		`{"class_name": "PoissonSampledDpEvent", "sampling_probability": %v, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 1}}`,
		`{"class_name": "PoissonSampledDpEvent", "sampling_probability": %v, "event": {"class_name": "ExponentialMechanismDpEvent", "epsilon": 1}}`,
		`{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.5, "event": {"class_name": "ExponentialMechanismDpEvent", "epsilon": %v}}`,
		`{"class_name": "DiscreteGaussianDpEvent", "sigma": %v}`,
		`{"class_name": "DiscreteGaussianDpEvent", "sigma": %v, "dimension": 1}`,
		`{"class_name": "ExponentialMechanismDpEvent", "epsilon": %v}`,
		`{"class_name": "PermuteAndFlipDpEvent", "epsilon": %v}`,
		`{"class_name": "RepeatAndSelectDpEvent", "mean": 2, "shape": %v, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1}}`,
	} {
		a, b := fmt.Sprintf(form, x), fmt.Sprintf(form, y)
		for _, c := range []struct {
			second string
			terms  int
		}{{a, 1}, {b, 2}} {
			p := plan(t, `{"class_name": "ComposedDpEvent", "events": [`+a+`, `+c.second+`]}`)
			if len(p.Terms) != c.terms {
				t.Errorf("%s twice (%v and %v): %d terms, want %d", form, x, json.RawMessage(c.second), len(p.Terms), c.terms)
			}
		}
	}
}

// TestPathShort: a deep event's path shows its ends and how many levels
// are left out.
func TestPathShort(t *testing.T) {
	_, err := Decode([]byte(strings.Replace(string(deepComposed(20)), `"noise_multiplier": 1.0}]}`, `"noise_multiplier": -1}]}`, 1)))
	want := "event.events[1].events[1].events[1][... 13 levels ...].events[1].events[1].events[1].events[1].noise_multiplier: must be finite and >= 0 (is -1)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
