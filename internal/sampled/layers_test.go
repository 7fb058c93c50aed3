package sampled

import (
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/layout"
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
	for _, err := range layout.FileLayers(".", fileLayers, layerExceptions) {
		t.Error(err)
	}
}
