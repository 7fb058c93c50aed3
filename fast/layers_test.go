package fast

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

// fileLayers lists the non-test files of package fast from the bottom
// layer up: a file may use the package-level names (and methods and
// fields) defined in its own file or in files listed before it, never
// in files listed after it.
var fileLayers = []string{
	"doc.go",
	"errors.go",             // error kinds
	"orders.go",             // default orders
	"closed.go",             // closed forms: Gaussian, Laplace, randomized response (internal/sgm, sampled, puredp)
	"divergence.go",         // discrete Rényi divergence
	"convert.go",            // RDP to (eps, delta) (internal/convert)
	"sgm.go",                // SGM, SGMCurve: domain checks, then the engine (internal/sgm)
	"events.go",             // k-ary RR, pure DP, zCDP, exponential mechanism, group privacy (internal/puredp)
	"bridges.go",            // zCDP, pure DP, advanced composition (internal/convert, puredp)
	"wor.go",                // sampling without replacement: WORGaussian, WORBound (internal/wor)
	"sampled_laplace.go",    // Poisson-sampled Laplace: domain checks, then the engine (internal/sampled)
	"sampled_divergence.go", // Poisson-sampled discrete mechanisms, Zhu-Wang bound (internal/sampled)
	"bestevent.go",          // Event: what Accountant.Compose takes (best.go)
	"accountant.go",         // Accountant
	"tree.go",               // tree aggregation (DP-FTRL; internal/tree)
	"dgauss.go",             // discrete Gaussian (internal/discretegauss)
	"repeat.go",             // repeat and select (Papernot-Steinke; internal/repeatselect)
	"best.go",               // Event, Accountant.Compose, the best order (BestEpsilon, BestDelta; the search is internal/search)
	"bestmech.go",           // Events of the mechanisms above, their Compose<Name> methods
	"events_sampled.go",     // Events of sampling, tree, discrete-Gaussian and repeat-and-select mechanisms (dpevent's classes), their Compose<Name> methods
	"zcdptight.go",          // tight zCDP parameters (Harrison-Manurangsi 2025; internal/puredp)
	"calibrate.go",          // sigma and step calibration, on a grid or at the best order
}

// layerExceptions are the upward uses allowed, as "from -> to" file
// pairs; the package's design allows at most one.
var layerExceptions = map[string]bool{}

// TestFileLayers checks that the files of package fast form layers
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
	pkg, _ := conf.Check("fast", fset, files, info)
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
