package sampled

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fileLayers lists the non-test files of package sampled from the bottom
// layer up: a file may use the package-level names (and methods and
// fields) defined in its own file or in files listed before it, never
// in files listed after it.
var fileLayers = []string{
	"doc.go",
	"unsampled.go",    // the Laplace mechanism: q = 1, and a bound at every q
	"terms.go",        // the method; the terms h_g(t), their logs and error bounds
	"nodes.go",        // Gauss-Legendre rules, node data, powers along a curve
	"laplace.go",      // the sampled Laplace: pieces, moments, directions (LaplaceCurve)
	"discrete.go",     // sampled discrete mechanisms (SampledDivergence)
	"poissonbound.go", // Zhu and Wang's general bound
}

// layerExceptions are the upward uses allowed, as "from -> to" file
// pairs; the package's design allows at most one.
var layerExceptions = map[string]bool{}

// TestFileLayers checks that the files of package sampled form layers
// (fileLayers): every use of a name defined in another file of the
// package points down the list, apart from layerExceptions.
func TestFileLayers(t *testing.T) {
	if len(layerExceptions) > 1 {
		t.Fatalf("%d layer exceptions allowed, at most one may be", len(layerExceptions))
	}
	rank := map[string]int{}
	for i, f := range fileLayers {
		rank[f] = i
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if _, ok := rank[name]; !ok {
			t.Errorf("%s is not in fileLayers: give it its place", name)
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, f := range fileLayers {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("fileLayers names %s, which does not exist", f)
		}
	}
	// Imports that fail to load only leave their names unresolved; the
	// package's own names are all that matter here.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
	pkg, _ := conf.Check("sampled", fset, files, info)
	upward := map[string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		// package-level names, methods and fields; not local names
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue
		}
		from := fset.Position(id.Pos()).Filename
		to := fset.Position(obj.Pos()).Filename
		if rank[to] > rank[from] {
			edge := from + " -> " + to
			upward[edge] = append(upward[edge], obj.Name())
		}
	}
	if len(upward) == 0 && len(info.Uses) < 1000 {
		t.Fatalf("only %d uses resolved: the check is not looking", len(info.Uses))
	}
	var edges []string
	for e := range upward {
		if !layerExceptions[e] {
			edges = append(edges, e)
		}
	}
	sort.Strings(edges)
	for _, e := range edges {
		u := map[string]bool{}
		var ns []string
		for _, n := range upward[e] {
			if !u[n] {
				u[n] = true
				ns = append(ns, n)
			}
		}
		sort.Strings(ns)
		t.Errorf("upward use %s: %s", e, strings.Join(ns, ", "))
	}
}
