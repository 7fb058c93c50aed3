package fast

import "testing"

// TestBestSearchRegressions: runs where the search once stopped short of
// the minimum, each against the dense scan (denseScanEpsilon).
func TestBestSearchRegressions(t *testing.T) {
	for _, c := range []struct {
		caught   string
		q, sigma float64
		steps    int
		delta    float64
	}{
		// a batch recomputed the best order one ulp lower; the copy became
		// the bracket's end and hid the side beyond it
		{"bracket end a rounding of the best order", 0.3101563178718817, 80.56186815860698, 3, 1.8279165937206788e-11},
		// the largest order of the old range (4096) was never evaluated
		{"range end 4096 skipped", 0.01, 300, 100, 1e-5},
	} {
		var a Accountant
		if err := a.Compose(SGMEvent(c.q, c.sigma), c.steps); err != nil {
			t.Fatal(err)
		}
		got, at, err := a.BestEpsilon(c.delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		want, wantAt := denseScanEpsilon(t, c.q, c.sigma, c.steps, c.delta, Improved)
		if (got-want)/want > SearchTolerance {
			t.Errorf("%s: search %.15g at %g, dense scan %.15g at %g", c.caught, got, at, want, wantAt)
		}
	}
}
