package laws

import (
	"flag"
	"os"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// lawChecks are the default numbers of checks per law for fast and for the
// reference at 64 bits, chosen so that the whole package runs in about half
// a minute on two shared cores; the reference's SGM laws are the expensive
// ones (5-25 ms a call), fast's agreement law calls the reference too.
// -rapid.checks (or RAPID_CHECKS) replaces them all. With -short each runs
// a twentieth of its checks, at least shortMinChecks: every law still runs,
// on its simplest draws and rapid's saved failures first.
var lawChecks = map[string][2]int{
	"monotone-alpha":     {5000, 300},
	"log-moment-convex":  {5000, 300},
	"product-additive":   {5000, 500},
	"sgm-steps-additive": {2000, 40},
	"accountant":         {500, 25},
	"data-processing":    {5000, 500},
	"binned-sgm":         {3000, 60},
	"gaussian-line":      {5000, 300},
	"monotone-q-sigma":   {3000, 50},
	"bad-outcomes":       {5000, 500},
	"limits":             {5000, 500},
	"conversions":        {5000, 500},
	"agreement":          {1000, 80},
	// The sampled laws: fast's SampledLaplace costs ~50 us, the
	// reference's ~30-300 ms at 64 bits (a quadrature per direction).
	"sampled-limits":      {500, 10},
	"sampled-monotone":    {300, 6},
	"sampled-below-bound": {300, 8},
	"sampled-binning":     {300, 8},
	"sampled-binned-sgm":  {300, 8},
	"wor":                 {1000, 40},
	"events":              {3000, 300},
	"zcdp-tight":          {3000, 300},
	"dgauss-tree-repeat":  {2000, 200},
}

const shortMinChecks = 5

// checks is the number of checks a law runs: n, or with -short a twentieth
// of it (at least shortMinChecks).
func checks(n int) int {
	if testing.Short() {
		return max(n/20, shortMinChecks)
	}
	return n
}

func TestLaws(t *testing.T) {
	for i, im := range []*Impl{Fast(), Reference(64)} {
		for _, law := range im.Laws() {
			n, ok := lawChecks[law.Name]
			if !ok {
				t.Fatalf("no check count for law %s", law.Name)
			}
			t.Run(im.Name+"/"+law.Name, func(t *testing.T) {
				withRapidFlags(map[string]string{"rapid.checks": itoa(checks(n[i]))}, func() {
					rapid.Check(t, law.Check)
				})
			})
		}
	}
}

// userFlags are the rapid flags given on the command line or in the
// environment, captured before the tests first change any.
var userFlags = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for name, env := range map[string]string{"rapid.checks": "RAPID_CHECKS", "rapid.shrinktime": "RAPID_SHRINKTIME"} {
		if _, ok := os.LookupEnv(env); ok {
			set[name] = true
		}
	}
	return set
})

// withRapidFlags runs fn with rapid's flags set to values (rapid reads its
// settings only from flags), except those the user set, and restores them.
// The tests do not run in parallel, so the change is seen by fn only.
func withRapidFlags(values map[string]string, fn func()) {
	user := userFlags()
	var restore []func()
	for name, v := range values {
		if user[name] {
			continue
		}
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			panic(err)
		}
		restore = append(restore, func() { _ = flag.Set(name, old) })
	}
	defer func() {
		for _, r := range restore {
			r()
		}
	}()
	fn()
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}
