package layout

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/rdpcheck/rdpcheck/"

// rel is a package's path in the module, "." for the module's root
// package (the table's row "`./`"); ours is false outside the module.
func rel(importPath string) (r string, ours bool) {
	if importPath+"/" == module {
		return ".", true
	}
	return strings.CutPrefix(importPath, module)
}

// rules reads CONTRIBUTING.md's table of folders: package path -> the
// module's packages it may import (nil: anything).
func rules(t *testing.T) map[string][]string {
	data, err := os.ReadFile("../../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	out := map[string][]string{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| folder |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cols := strings.Split(line, "|")
		if len(cols) < 5 {
			t.Fatalf("CONTRIBUTING.md: row %q has no may-import column", line)
		}
		var allowed []string
		col := strings.TrimSpace(cols[3])
		for _, m := range tick.FindAllStringSubmatch(col, -1) {
			allowed = append(allowed, strings.TrimSuffix(m[1], "/"))
		}
		switch {
		case strings.HasPrefix(col, "anything"):
			allowed = nil
		case allowed == nil && !strings.HasPrefix(col, "nothing"):
			t.Fatalf("CONTRIBUTING.md: row %q: say nothing, anything, or list the packages in backticks", line)
		case allowed == nil:
			allowed = []string{}
		}
		for _, m := range tick.FindAllStringSubmatch(cols[1], -1) {
			out[strings.TrimSuffix(m[1], "/")] = allowed
		}
	}
	if len(out) == 0 {
		t.Fatal("CONTRIBUTING.md: no table of folders")
	}
	return out
}

// TestImportRules: every package of the module is in the table, and its
// non-test imports of the module's packages are among those its row
// allows.
func TestImportRules(t *testing.T) {
	allow := rules(t)
	cmd := exec.Command("go", "list", "-json", "../../...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkg, _ := rel(p.ImportPath)
		if pkg == "internal/layout" {
			continue
		}
		n++
		allowed, ok := allow[pkg]
		if !ok {
			t.Errorf("%s: not in CONTRIBUTING.md's table of folders", pkg)
			continue
		}
		if allowed == nil {
			continue
		}
		for _, imp := range p.Imports {
			if dep, ours := rel(imp); ours && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which CONTRIBUTING.md's table does not allow (it allows %v)", pkg, dep, allowed)
			}
		}
	}
	if n < 15 {
		t.Fatalf("go list found %d packages", n)
	}
}

// TestUserBinaryDeps: the user's command links none of the maintainers'
// machinery, which CONTRIBUTING.md's table alone cannot say, as
// cmd/rdpcheck may import anything: its whole dependency graph is checked
// against each banned package and everything under it. It does link
// internal/figure and gonum.org/v1/plot: rdpcheck curve -png and -svg
// draw through them.
func TestUserBinaryDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/rdpcheck").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"fast") {
		t.Fatalf("go list -deps ./cmd/rdpcheck lists no fast: %v", deps)
	}
	banned := []string{
		"oracles",         // the independent ways to the truth
		"laws",            // the laws and their mutants
		"vectors/gen",     // the vector files' writer
		"vectors/verify",  // the two-precision verification
		"cmd/gen-vectors", // the generator's command, and under it the peer study and -cases
		"cmd/plots",       // the pictures of docs/
	}
	for _, dep := range deps {
		rel, ours := strings.CutPrefix(dep, module)
		if !ours {
			continue
		}
		for _, b := range banned {
			if rel == b || strings.HasPrefix(rel, b+"/") {
				t.Errorf("cmd/rdpcheck depends on %s, a maintainers' package", rel)
			}
		}
	}
}

// TestPlotOnlyInFigure: of the module's packages, internal/figure alone
// imports gonum.org/v1/plot, in its code or its tests, so that every
// picture is drawn through figure's API and shares its layout.
func TestPlotOnlyInFigure(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	figure := false
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			if imp != plotModule && !strings.HasPrefix(imp, plotModule+"/") {
				continue
			}
			if p.ImportPath == module+"internal/figure" {
				figure = true
				continue
			}
			t.Errorf("%s imports %s: draw through internal/figure instead (CONTRIBUTING.md)", strings.TrimPrefix(p.ImportPath, module), imp)
		}
	}
	if !figure {
		t.Errorf("internal/figure imports no package of %s: the scan saw none of its imports", plotModule)
	}
}

const plotModule = "gonum.org/v1/plot"
