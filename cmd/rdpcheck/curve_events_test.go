package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// TestCurveDGaussTreeRepeat: the -mech forms of the discrete Gaussian, the
// tree readings and repeat-and-select. Expected values are closed forms:
// a tree of 100 steps has depth 7 (floor(log2 100) + 1), so one tree at
// sigma 2 is 7 alpha/8 (1.75 at alpha 2) and three restarted trees, a
// record in each, 21 alpha/8 (5.25); the discrete Gaussian with sigma
// 0.5 is on its zCDP line 2 alpha at integer orders (4 at alpha 2).
func TestCurveDGaussTreeRepeat(t *testing.T) {
	code, out, errOut := runCLI("curve", "-orders", "2,inf",
		"-mech", "dgauss:sigma=0.5", "-mech", "tree:sigma=2,steps=100,restarts=3",
		"-mech", "tree-every:sigma=2,steps=100,restarts=3", "-mech", "tree-multi:sigma=2,steps=16,participation=2,separation=3",
		"-mech", "repeat:eps=1,mean=10,shape=inf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("table:\n%s", out)
	}
	// the table prints upper bounds rounded up to 10 digits: at or above
	// the closed form, by at most one unit of the 10th digit
	got := strings.Fields(lines[1])
	want := []float64{2, 4, 1.75, 5.25}
	for i, w := range want {
		v, err := strconv.ParseFloat(got[i], 64)
		if err != nil || v < w || v > w*(1+1.0001e-9) {
			t.Errorf("alpha 2, column %d: %s, want %v rounded up at 10 digits (table:\n%s)", i, got[i], w, out)
		}
	}
	for _, c := range []struct{ mech, msg string }{
		{"dgauss:sigma=1,sensitivity=0.5", "sensitivity"},
		{"tree:sigma=1,steps=-1", "steps"},
		{"tree-multi:sigma=1,steps=8,participation=2", "missing separation="},
		{"repeat:mean=10,shape=1", "sigma= (Gaussian) or eps="},
		{"repeat:sigma=1,mean=0.5,shape=1", "mean"},
	} {
		code, _, errOut := runCLI("curve", "-orders", "2,8", "-mech", c.mech)
		if code == 0 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want an error mentioning %q", c.mech, code, errOut, c.msg)
		}
	}
}

// TestMechKindsFromTable: each -mech form names a vector function of the
// schema's table, and a function removed from the table takes its forms
// with it.
func TestMechKindsFromTable(t *testing.T) {
	for name, k := range allMechKinds {
		if schema.Lookup(schema.Functions, k.fn) == nil {
			t.Errorf("-mech %s: function %q is not in schema.Functions", name, k.fn)
		}
	}
	if len(mechKinds) != len(allMechKinds) {
		t.Errorf("%d of %d forms offered", len(mechKinds), len(allMechKinds))
	}
	var without []schema.Function
	for _, f := range schema.Functions {
		if f.Name != schema.Laplace {
			without = append(without, f)
		}
	}
	kinds := mechKindsFor(without)
	if _, ok := kinds["laplace"]; ok || len(kinds) != len(allMechKinds)-1 {
		t.Errorf("without Laplace in the table: %d forms, laplace among them: %v", len(kinds), ok)
	}
}
