package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/dpevent"
)

func TestCheckDpEvent(t *testing.T) {
	good := []string{
		`{"class_name":"GaussianDpEvent","noise_multiplier":1.1}`,
		`{"class_name":"NoOpDpEvent"}`,
		`{"class_name":"NoOpDpEvent","module_name":"dp_accounting.dp_event"}`,
		`{"class_name":"SelfComposedDpEvent","event":{"class_name":"PoissonSampledDpEvent","sampling_probability":0.01,"event":{"class_name":"GaussianDpEvent","noise_multiplier":1}},"count":100}`,
		`{"class_name":"ComposedDpEvent","events":[]}`,
		`{"class_name":"MixtureOfGaussiansDpEvent","standard_deviation":2,"sensitivities":[0,1],"sampling_probs":[0.5,0.5]}`,
	}
	for _, s := range good {
		if err := CheckDpEvent([]byte(s)); err != nil {
			t.Errorf("CheckDpEvent(%s) = %v, want nil", s, err)
		}
	}
	// Each bad event, and the words its error must contain.
	bad := []struct{ in, want string }{
		{`{"class_name":"ZCDpEvent","rho":1,"xi":0}`, `event.class_name: unknown class "ZCDpEvent"`},
		{`{"class_name":"GaussianDpEvent","noise_multiplier":1,"sigma":1}`, `event: GaussianDpEvent has no field "sigma" (its fields: noise_multiplier)`},
		{`{"class_name":"GaussianDpEvent"}`, `needs its field "noise_multiplier"`},
		{`{"class_name":"GaussianDpEvent","noise_multiplier":1,"noise_multiplier":2}`, `key "noise_multiplier" given twice`},
		{`{"noise_multiplier":1}`, `no "class_name"`},
		{`{"class_name":"GaussianDpEvent","noise_multiplier":"inf"}`, `event.noise_multiplier: want a number, not the string "inf"`},
		{`{"class_name":"GaussianDpEvent","noise_multiplier":1e999}`, `no finite float64`},
		{`{"class_name":"SelfComposedDpEvent","event":{"class_name":"NoOpDpEvent"},"count":1.5}`, `event.count: want an integer >= 0`},
		{`{"class_name":"SelfComposedDpEvent","event":{"class_name":"NoOpDpEvent"},"count":-1}`, `event.count: want an integer >= 0`},
		{`{"class_name":"ComposedDpEvent","events":[{"class_name":"NoOpDpEvent"},{"class_name":"Gaussian"}]}`, `event.events[1].class_name: unknown class "Gaussian"`},
		{`{"class_name":"ComposedDpEvent","events":{"class_name":"NoOpDpEvent"}}`, `event.events: want a list of events, not an object`},
		{`[{"class_name":"NoOpDpEvent"}]`, `want a DpEvent object`},
		{`{"class_name":"NoOpDpEvent"} {}`, `more than one JSON value`},
		{`{"class_name":"NoOpDpEvent"`, `not JSON`},
		{`{"class_name":1}`, `class_name: want a string`},
		{`{"class_name":"MixtureOfGaussiansDpEvent","standard_deviation":2,"sensitivities":[0,"1"],"sampling_probs":[0.5,0.5]}`, `event.sensitivities[1]: want a number`},
		{strings.Repeat(`{"class_name":"SelfComposedDpEvent","count":1,"event":`, 102) + `{"class_name":"NoOpDpEvent"}` + strings.Repeat("}", 102), `nested more than 100 deep`},
	}
	for _, c := range bad {
		err := CheckDpEvent([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckDpEvent(%.80s) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

// TestDpEventClassesAgainstDpevent holds the table to package dpevent,
// which reads dp_accounting's classes independently (its own table, from
// dp_event.py): each class with the fields of DpEventClasses is read, one
// with a field left out or one more is refused, and NewExact composes
// every class (under the relation dp_accounting's PLD accountant takes
// for it).
func TestDpEventClassesAgainstDpevent(t *testing.T) {
	sample := map[DpFieldKind]string{DpNumber: "0.5", DpCount: "2", DpNumbers: "[1]",
		DpSub: `{"class_name":"GaussianDpEvent","noise_multiplier":2}`, DpSubs: `[{"class_name":"GaussianDpEvent","noise_multiplier":2}]`}
	special := map[string]string{"MixtureOfGaussiansDpEvent.sampling_probs": "[1]", "RandomizedResponseDpEvent.num_buckets": "2",
		"EpsilonDeltaDpEvent.delta": "0.001", "TruncatedSubsampledGaussianDpEvent.dataset_size": "10"}
	build := func(c DpEventClass, skip int, extra string) string {
		parts := []string{fmt.Sprintf(`"class_name":%q`, c.Name)}
		for i, f := range c.Fields {
			if i == skip {
				continue
			}
			v := sample[f.Kind]
			if s, ok := special[c.Name+"."+f.Name]; ok {
				v = s
			}
			parts = append(parts, fmt.Sprintf("%q:%s", f.Name, v))
		}
		if extra != "" {
			parts = append(parts, extra)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	for _, c := range DpEventClasses {
		s := build(c, -1, "")
		if err := CheckDpEvent([]byte(s)); err != nil {
			t.Errorf("%s: CheckDpEvent: %v", c.Name, err)
		}
		f, err := dpevent.Decode([]byte(s))
		if err != nil {
			t.Errorf("%s: dpevent.Decode(%s): %v", c.Name, s, err)
			continue
		}
		rel := dpevent.ReplaceSpecial // every class of the table takes it in dp_accounting's PLD accountant
		if _, err := dpevent.NewExact(f.Event, rel); err != nil {
			t.Errorf("%s: dpevent.NewExact(%s, %v): %v", c.Name, s, rel, err)
		}
		for i := range c.Fields {
			s := build(c, i, "")
			if _, err := dpevent.Decode([]byte(s)); err == nil {
				t.Errorf("%s: dpevent.Decode reads it without %s, which the table requires", c.Name, c.Fields[i].Name)
			}
		}
		if _, err := dpevent.Decode([]byte(build(c, -1, `"extra_field":1`))); err == nil {
			t.Errorf("%s: dpevent.Decode reads a field the table lacks", c.Name)
		}
	}
}
