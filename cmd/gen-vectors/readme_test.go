package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeCases runs the README's gen-vectors -cases command as written:
// the JSON lines its printf pipes in, and every "# " line shown after it
// must be a line of the output ("..." standing for any text).
func TestReadmeCases(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "printf '%s\\n' ") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal("README.md shows no printf ... | go run ./cmd/gen-vectors -cases - command")
	}
	quoted := regexp.MustCompile(`'(\{[^']*\})'`)
	var in []string
	i := start
	for ; i < len(lines) && !strings.Contains(lines[i], "go run ./cmd/gen-vectors -cases -"); i++ {
		for _, m := range quoted.FindAllStringSubmatch(lines[i], -1) {
			in = append(in, m[1])
		}
	}
	if i == len(lines) || len(in) == 0 {
		t.Fatalf("the printf at line %d pipes no JSON line into gen-vectors -cases", start+1)
	}
	var want []string
	for i++; i < len(lines) && strings.HasPrefix(lines[i], "# "); i++ {
		want = append(want, strings.TrimPrefix(lines[i], "# "))
	}
	if len(want) == 0 {
		t.Error("README.md shows no output of its -cases command")
	}
	code, out, errOut := runGen(t, strings.Join(in, "\n")+"\n", "-cases", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != len(in) || strings.Contains(out, `"error"`) {
		t.Errorf("%d input lines, %d output lines:\n%s", len(in), n, out)
	}
	for _, w := range want {
		pat := "(?m)^" + strings.ReplaceAll(regexp.QuoteMeta(w), regexp.QuoteMeta("..."), ".*") + "$"
		if !regexp.MustCompile(pat).MatchString(out) {
			t.Errorf("output lacks the README's line %q; it printed:\n%s", w, out)
		}
	}
}
