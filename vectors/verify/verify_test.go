package verify

import (
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// TestExpansionCheck: where the two-term expansion in q applies it agrees
// with the reference to 1e-13; where higher terms dominate (alpha = 256,
// sigma = 0.5) it does not apply.
func TestExpansionCheck(t *testing.T) {
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 1, 8}, {1e-100, 0.5, 32}, {1e-25, 2, 10.5}} {
		if !expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion not valid at %+v", c)
			continue
		}
		v, _ := reference.SGM(c.q, c.sigma, c.alpha)
		f, _ := v.Float64()
		if r := (f - tinyQExpansion(c.q, c.sigma, c.alpha)) / f; r > 1e-13 || r < -1e-13 {
			t.Errorf("%+v: reference %g, expansion %g", c, f, tinyQExpansion(c.q, c.sigma, c.alpha))
		}
	}
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 0.5, 256}, {1e-10, 1, 2}, {1e-30, 0.5, 40.5}} {
		if expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion claimed valid at %+v", c)
		}
	}
}
