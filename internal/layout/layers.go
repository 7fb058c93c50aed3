package layout

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FileLayers checks that the non-test files of the package in dir form
// layers: layers lists them from the bottom up, and every use of a
// package-level name (or method or field) defined in another file of the
// package must point down the list, apart from the "from -> to" file pairs
// in exceptions (a package's design allows at most one). It returns one
// error per violation: a file missing from layers or named there but
// absent, and each upward use with the names it uses.
func FileLayers(dir string, layers []string, exceptions map[string]bool) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if len(exceptions) > 1 {
		return []error{fmt.Errorf("%d layer exceptions allowed, at most one may be", len(exceptions))}
	}
	rank := map[string]int{}
	for i, f := range layers {
		rank[f] = i
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return []error{err}
	}
	var files []*ast.File
	for _, path := range names {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if _, ok := rank[name]; !ok {
			fail("%s is not in the layers: give it its place", name)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return append(errs, err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return append(errs, err)
		}
		files = append(files, f)
	}
	for _, f := range layers {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			fail("the layers name %s, which does not exist", f)
		}
	}
	if len(files) == 0 {
		return append(errs, errors.New("no Go files: the check is not looking"))
	}
	// Imports that fail to load only leave their names unresolved; the
	// package's own names are all that matter here.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
	pkg, _ := conf.Check(files[0].Name.Name, fset, files, info)
	upward := map[string][]string{}
	own := 0
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		// package-level names, methods and fields; not local names
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue
		}
		own++
		from := fset.Position(id.Pos()).Filename
		to := fset.Position(obj.Pos()).Filename
		if rank[to] > rank[from] {
			edge := from + " -> " + to
			upward[edge] = append(upward[edge], obj.Name())
		}
	}
	if len(files) > 1 && own == 0 {
		return append(errs, fmt.Errorf("no use of the package's own names resolved (of %d uses): the check is not looking", len(info.Uses)))
	}
	var edges []string
	for e := range upward {
		if !exceptions[e] {
			edges = append(edges, e)
		}
	}
	sort.Strings(edges)
	for _, e := range edges {
		seen := map[string]bool{}
		var ns []string
		for _, n := range upward[e] {
			if !seen[n] {
				seen[n] = true
				ns = append(ns, n)
			}
		}
		sort.Strings(ns)
		fail("upward use %s: %s", e, strings.Join(ns, ", "))
	}
	return errs
}
