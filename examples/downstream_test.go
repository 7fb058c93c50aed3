package examples_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// goTool is the go command on PATH (the one go test runs from).
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	return p
}

// TestDownstreamModule builds and runs examples/downstream, a module of
// its own that requires this one (replaced by this checkout) as any other
// project would: its command checks the API contract (aliasing, state,
// typed errors, concurrent use, pld's floor) and its test runs the vectors
// on package fast through vectorstest. No network beyond the module proxy
// (its go.sum holds every hash it needs; the workspace, if any, is off).
func TestDownstreamModule(t *testing.T) {
	goCmd := goTool(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = "downstream"
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in examples/downstream: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("vet", "./...")
	out := run("run", ".")
	for _, want := range []string{
		"aliasing: SGMCurve in place equals SGMCurve apart at all 156 default orders",
		"state: reversing Accountant.Orders after ComposeSGM leaves Epsilon unchanged",
		"errors: invalid input, beyond the supported range and not converged are told apart by errors.Is",
		"concurrency: 4 goroutines account one plan alike",
		"floor: the optimal eps is in [",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go run: no %q in\n%s", want, out)
		}
	}
	if testing.Short() {
		return // the module's test adds two vector files' groups
	}
	run("test", "-count=1", "./...")
}
