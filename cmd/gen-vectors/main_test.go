package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/fast"
)

func runGen(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// TestCasesCommand: -cases answers one line per input line (package userpoints
// tests the answers), and the flags that do not go together are usage
// errors (exit 2).
func TestCasesCommand(t *testing.T) {
	// alpha / (2 sigma^2) = 1 exactly; fast rounds up by its error bound.
	f, _ := fast.Gaussian(2, 8)
	want := fmt.Sprintf("{\"kind\": \"Gaussian\", \"sigma\": 2, \"alpha\": 8,\"reference\":\"1\",\"fast\":%s}\n", strconv.FormatFloat(f, 'g', -1, 64))
	code, out, errOut := runGen(t, "{\"kind\": \"Gaussian\", \"sigma\": 2, \"alpha\": 8}\n", "-cases", "-")
	if diff := cmp.Diff(want, out); code != 0 || diff != "" {
		t.Errorf("exit %d (%s), output (-want +got):\n%s", code, errOut, diff)
	}
	for _, args := range [][]string{
		{"-cases", "-", "-format", "xml"},
		{"-format", "vectors"},
		{"-quick"},
		{"stray"},
	} {
		if code, _, _ := runGen(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errOut := runGen(t, "{\"q\": 1}\n", "-cases", "-", "-format", "vectors"); code != 1 || !strings.Contains(errOut, "line 1") {
		t.Errorf("malformed line: exit %d, %s", code, errOut)
	}
}

// TestOnly: -only checks the named files, and a name the generator does not
// write is an error.
func TestOnly(t *testing.T) {
	if code, _, errOut := runGen(t, "", "-check", "-only", "closed_forms.json"); code != 0 {
		t.Errorf("-check -only closed_forms.json: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runGen(t, "", "-check", "-only", "nothing.json"); code != 1 || !strings.Contains(errOut, `no generated file "nothing.json"`) {
		t.Errorf("-only nothing.json: exit %d: %s", code, errOut)
	}
}
