package wording

import (
	"fmt"
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck"
)

// The wording rules, each on the error the library gives: the package
// and function dropped, names mapped (and Whole before them), a list's
// NaN left out unless the user gave NaN, an element's value kept.
func TestMessage(t *testing.T) {
	nan := math.NaN()
	ie := func(arg string, v float64, msg string) error {
		return &rdpcheck.InputError{Pkg: "reference", Func: "Divergence", Arg: arg, Value: v, Msg: msg}
	}
	for _, c := range []struct {
		w    Wording
		err  error
		want string
	}{
		{Wording{}, ie("alpha", 0.5, "must be > 1"), "alpha = 0.5: must be > 1"},
		{Wording{Names: map[string]string{"p": "distP"}}, ie("p", nan, "must sum to 1"), "distP: must sum to 1"},
		{Wording{Names: map[string]string{"p": "distP"}}, ie("p[1]", -0.5, "must be >= 0"), "distP[1] = -0.5: must be >= 0"},
		{Wording{Names: map[string]string{"p": "distP"}}, ie("p[1]", nan, "must not be NaN"), "distP[1] = NaN: must not be NaN"},
		{Wording{GivenNaN: func(arg string) bool { return arg == "q" }}, ie("q", nan, "must be in [0, 1]"), "q = NaN: must be in [0, 1]"},
		{Wording{Whole: map[string]string{"base.Eps": "len(base)"}, Names: map[string]string{"base.Eps": "base"}}, ie("base.Eps", 0, "must be >= 1"), "len(base) = 0: must be >= 1"},
		{Wording{Whole: map[string]string{"base.Eps": "len(base)"}, Names: map[string]string{"base.Eps": "base"}}, ie("base.Eps[1]", -1, "must be >= 0"), "base[1] = -1: must be >= 0"},
		{Wording{}, fmt.Errorf("line 3: %w", ie("alpha", 0.5, "must be > 1")), "line 3: alpha = 0.5: must be > 1"},
		{Wording{}, fmt.Errorf("pld.Epsilon: the run is too large"), "the run is too large"},
	} {
		if got := c.w.Message(c.err); got != c.want {
			t.Errorf("Message(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
