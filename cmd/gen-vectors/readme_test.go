package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/cmd/gen-vectors/internal/userpoints"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
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

// TestReadmeKinds holds README.md's table of gen-vectors -cases kinds to
// userpoints.Kinds, each with its inputs and the function table's one-line doc
// (vectors/schema/functions.go): the table is derived, never written by
// hand. UPDATE_README=1 rewrites it.
func TestReadmeKinds(t *testing.T) {
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const header = "| kind | inputs | what |\n|---|---|---|\n"
	s := string(readme)
	i := strings.Index(s, header)
	if i < 0 {
		t.Fatalf("README.md has no table starting %q", header)
	}
	start := i + len(header)
	end := start
	for end < len(s) && s[end] == '|' {
		end += strings.IndexByte(s[end:], '\n') + 1
	}
	var want strings.Builder
	for _, k := range userpoints.Kinds {
		in := make([]string, len(k.Inputs))
		for j, name := range k.Inputs {
			in[j] = "`" + name + "`"
		}
		doc := ""
		if f := schema.Lookup(schema.Functions, k.Name); f != nil {
			doc = f.Doc
		}
		fmt.Fprintf(&want, "| `%s` | %s | %s |\n", k.Name, strings.Join(in, ", "), doc)
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(s[:start]+want.String()+s[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want.String(), s[start:end]); diff != "" {
		t.Errorf("README.md's kind table against userpoints.Kinds and the function table (-want +got; UPDATE_README=1 go test ./cmd/gen-vectors -run TestReadmeKinds rewrites it):\n%s", diff)
	}
}
