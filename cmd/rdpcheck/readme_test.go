package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
