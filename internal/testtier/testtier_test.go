package testtier

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Fatalf, Logf and Skip instead of
// acting on them.
type recorder struct {
	testing.TB
	fatal, log, skip string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Fatalf(f string, args ...any) { r.fatal = fmt.Sprintf(f, args...) }
func (r *recorder) Logf(f string, args ...any)   { r.log = fmt.Sprintf(f, args...) }
func (r *recorder) Skipf(f string, args ...any)  { r.skip = fmt.Sprintf(f, args...) }

func TestTiers(t *testing.T) {
	for _, c := range []struct {
		env        string
		exhaustive bool
		fatal      string
	}{
		{"", false, ""},
		{"0", false, ""},
		{"1", !testing.Short(), ""}, // -short overrides it
		{"yes", false, `RDPCHECK_EXHAUSTIVE="yes": want 1`},
		{" 1", false, `RDPCHECK_EXHAUSTIVE=" 1": want 1`},
	} {
		t.Setenv(Env, c.env)
		r := &recorder{TB: t}
		if got := Exhaustive(r); got != c.exhaustive {
			t.Errorf("%s=%q: Exhaustive = %v, want %v", Env, c.env, got, c.exhaustive)
		}
		if !strings.HasPrefix(r.fatal, c.fatal) || (c.fatal == "") != (r.fatal == "") {
			t.Errorf("%s=%q: Fatalf %q, want %q...", Env, c.env, r.fatal, c.fatal)
		}
		if c.fatal != "" {
			continue
		}
		r = &recorder{TB: t}
		sampled := Sampled(r, "the odd points")
		if sampled == c.exhaustive || (r.log != "") != sampled || (sampled && !strings.Contains(r.log, "the odd points")) {
			t.Errorf("%s=%q: Sampled = %v, logged %q", Env, c.env, sampled, r.log)
		}
		r = &recorder{TB: t}
		Skip(r, "the large orders")
		if (r.skip != "") == c.exhaustive || (r.skip != "" && !strings.Contains(r.skip, "the large orders")) {
			t.Errorf("%s=%q: skipped %q", Env, c.env, r.skip)
		}
		r = &recorder{TB: t}
		short := Short(r, "the even points")
		if short != testing.Short() || (r.log != "") != short || (short && !strings.Contains(r.log, "the even points")) {
			t.Errorf("%s=%q: Short = %v under -short %v, logged %q", Env, c.env, short, testing.Short(), r.log)
		}
		r = &recorder{TB: t}
		SkipShort(r, "the long runs")
		if (r.skip != "") != testing.Short() || (r.skip != "" && !strings.Contains(r.skip, "the long runs")) {
			t.Errorf("%s=%q: SkipShort skipped %q under -short %v", Env, c.env, r.skip, testing.Short())
		}
	}
}
