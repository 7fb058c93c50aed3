package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/cases"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// TestReadmeCommands runs the README's rdpcheck commands as written (from
// the repository's root; an output file goes to a temporary directory) and
// checks the output the README shows after each: every "# " line that
// follows a command is a line of its standard output, "..." standing for
// any text. The block that needs a Python accountant's answers is run by
// score's transcript (testdata/script/score.txtar) instead. The pages under
// docs/ are held to the same rule: any rdpcheck command they show is run.
func TestReadmeCommands(t *testing.T) {
	t.Chdir("../..")
	t.Run("README.md", func(t *testing.T) { readmeCommands(t, "README.md", 12) })
	// the worked examples of event files
	t.Run("examples/events/README.md", func(t *testing.T) { readmeCommands(t, "examples/events/README.md", 7) })
	pages, err := filepath.Glob("docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages: %v", err)
	}
	for _, page := range pages {
		t.Run(page, func(t *testing.T) { readmeCommands(t, page, 0) })
	}
}

// readmeCommands runs the commands of the markdown file at path (from the
// repository's root) and checks their output; at least min must run.
func readmeCommands(t *testing.T, path string, min int) {
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	type command struct {
		line string
		want []string
	}
	var cmds []command
	sc := bufio.NewScanner(bytes.NewReader(readme))
	follows := false // the line is right after a command or its output
	for sc.Scan() {
		line := sc.Text()
		was := follows
		follows = false
		switch {
		case strings.HasPrefix(line, "go run ./cmd/rdpcheck "):
			cmds = append(cmds, command{line: line})
			follows = true
		case strings.HasPrefix(line, "# ") && was:
			c := &cmds[len(cmds)-1]
			c.want = append(c.want, strings.TrimPrefix(line, "# "))
			follows = true
		case strings.HasPrefix(line, "python3 "):
			// a runner of another accountant: its block is not rdpcheck's alone
			cmds = append(cmds, command{line: "skip"})
		}
	}
	ran := 0
	for i, c := range cmds {
		if c.line == "skip" || (i > 0 && cmds[i-1].line == "skip") {
			continue
		}
		args := strings.Fields(strings.TrimPrefix(c.line, "go run ./cmd/rdpcheck "))
		for j := range args {
			if j > 0 && (args[j-1] == "-png" || args[j-1] == "-svg") {
				args[j] = filepath.Join(tmp, args[j])
			}
		}
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.line, code, errOut)
			continue
		}
		for _, w := range c.want {
			pat := "(?m)^" + strings.ReplaceAll(regexp.QuoteMeta(w), regexp.QuoteMeta("..."), ".*") + "$"
			if !regexp.MustCompile(pat).MatchString(out) {
				t.Errorf("%s: output lacks the README's line %q; it printed:\n%s", c.line, w, out)
			}
		}
		ran++
	}
	if ran < min {
		t.Errorf("ran %d of %s's commands; want at least %d", ran, path, min)
	}
}

// TestReadmeKinds holds README.md's table of gen-vectors -cases kinds to
// cases.Kinds, each with its inputs and the function table's one-line doc
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
	for _, k := range cases.Kinds {
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
		t.Errorf("README.md's kind table against cases.Kinds and the function table (-want +got; UPDATE_README=1 go test ./cmd/rdpcheck -run TestReadmeKinds rewrites it):\n%s", diff)
	}
}
