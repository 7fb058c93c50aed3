package sgm

import (
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/layout"
)

// fileLayers lists the non-test files of package sgm from the bottom
// layer up: a file may use the package-level names (and methods and
// fields) defined in its own file or in files listed before it, never
// in files listed after it.
var fileLayers = []string{
	"doc.go",
	"params.go",     // the per-(q, sigma) constants
	"intorders.go",  // integer orders (binomial sums)
	"nodes.go",      // quadrature nodes, windows and node terms
	"fracorders.go", // fractional orders (one summation for SGM and SGMCurve)
	"sgm.go",        // special cases and dispatch: RDP, Curve, Gaussian
}

// layerExceptions are the upward uses allowed, as "from -> to" file
// pairs; the package's design allows at most one.
var layerExceptions = map[string]bool{}

// TestFileLayers checks that the files of package sgm form layers
// (fileLayers): every use of a name defined in another file of the
// package points down the list, apart from layerExceptions.
func TestFileLayers(t *testing.T) {
	for _, err := range layout.FileLayers(".", fileLayers, layerExceptions) {
		t.Error(err)
	}
}
