// Package testtier is the module's three test tiers, one switch for every
// package's tests:
//
//	go test -short ./...                            while editing: every law, region and kind once, sweeps sampled
//	go test ./...                                   the default (the README's): denser samples, each package within
//	                                                a third of go test's 10-minute timeout on 2 idle cores
//	RDPCHECK_EXHAUSTIVE=1 go test -timeout 30m ./...  the exhaustive tier (CI): every sweep whole
//
// Each tier runs everything the one before it runs. A test that samples or
// skips outside the exhaustive tier says what it leaves to it (Sampled,
// Skip), so that a default run's -v output names what it did not check; a
// test that trims only the -short run says what the default adds (Short,
// SkipShort), so that -short, a minute on 2 cores, stays one.
package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that selects the exhaustive tier: "1"
// runs it; unset, empty or "0" does not. -short overrides it.
const Env = "RDPCHECK_EXHAUSTIVE"

// Exhaustive reports whether t runs in the exhaustive tier: Env is "1" and
// -short is not set. Any other value of Env fails t, so that a misspelt
// value cannot quietly run the default tier where the exhaustive one was
// asked for.
func Exhaustive(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv(Env); v {
	case "", "0":
		return false
	case "1":
		return !testing.Short()
	default:
		t.Fatalf("%s=%q: want 1 (the exhaustive tier), 0 or unset", Env, v)
		return false
	}
}

// Sampled reports whether t runs outside the exhaustive tier (under -short
// or by default), and then logs what t leaves to it.
func Sampled(t testing.TB, leaves string) bool {
	t.Helper()
	if Exhaustive(t) {
		return false
	}
	t.Logf("leaves to the exhaustive tier (%s=1): %s", Env, leaves)
	return true
}

// Skip skips t outside the exhaustive tier, naming what it leaves to it.
func Skip(t testing.TB, leaves string) {
	t.Helper()
	if !Exhaustive(t) {
		t.Skipf("the exhaustive tier (%s=1) runs %s", Env, leaves)
	}
}

// Short reports whether t runs under -short, and then logs what t leaves to
// the default tier: the trims that keep `go test -short ./...` a minute's
// work, each naming what the default run adds.
func Short(t testing.TB, leaves string) bool {
	t.Helper()
	if !testing.Short() {
		return false
	}
	t.Logf("leaves to the default tier (go test without -short): %s", leaves)
	return true
}

// SkipShort skips t under -short, naming what it leaves to the default tier.
func SkipShort(t testing.TB, leaves string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("the default tier (go test without -short) runs %s", leaves)
	}
}
