package fast

import (
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/layout"
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
	for _, err := range layout.FileLayers(".", fileLayers, layerExceptions) {
		t.Error(err)
	}
}
