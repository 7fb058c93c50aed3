package fast

import (
	"math"
	"testing"
)

// readBack is eps of steps SGM steps at the best order, as `rdpcheck
// epsilon` computes it.
func readBack(t *testing.T, q, sigma float64, steps int, delta float64) float64 {
	t.Helper()
	var a Accountant
	if err := a.Compose(SGMEvent(q, sigma), steps); err != nil {
		t.Fatal(err)
	}
	e, _, err := a.BestEpsilon(delta, Improved)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCalibrateSigmaBestReadBack: the sigma CalibrateSigmaBest returns
// meets the target when read back by BestEpsilon, and sigma/(1+tol) does
// not. The rows include the targets that the grid-only calibration got
// wrong (caught: "sigma found on the grid, eps read back at the best
// order", "target reachable only at orders above 1024 called unreachable").
func TestCalibrateSigmaBestReadBack(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		caught     string
		q          float64
		steps      int
		eps, delta float64
	}{
		{"MNIST tutorial", 256.0 / 60000, 14063, 3, 1e-5},
		{"sigma found on the grid, eps read back at the best order", 0.001, 10000, 0.0053, 1e-5},
		{"target reachable only at orders above 1024 called unreachable", 0.01, 10000, 0.003, 1e-5},
		{"one step", 0.5, 1, 0.5, 1e-6},
	} {
		const tol = 1e-6
		sigma, achieved, err := CalibrateSigmaBest(c.q, c.steps, c.eps, c.delta, Improved, tol)
		if err != nil {
			t.Errorf("%s: %v", c.caught, err)
			continue
		}
		if e := readBack(t, c.q, sigma, c.steps, c.delta); e > c.eps || e != achieved {
			t.Errorf("%s: sigma %v reads back as eps %v (reported %v), target %v", c.caught, sigma, e, achieved, c.eps)
		}
		if e := readBack(t, c.q, sigma/(1+2*tol), c.steps, c.delta); e <= c.eps {
			t.Errorf("%s: sigma %v is not the least: %v meets the target too (eps %v)", c.caught, sigma, sigma/(1+2*tol), e)
		}
	}
}

// TestMaxStepsBestReadBack: the count MaxStepsBest returns meets the
// target read back by BestEpsilon, and one more step does not.
func TestMaxStepsBestReadBack(t *testing.T) {
	for _, c := range []struct {
		q, sigma, eps, delta float64
	}{
		{0.01, 1.1, 3, 1e-5},
		{0.01, 300, 0.01, 1e-5}, // best order in the thousands
		{256.0 / 60000, 1.5, 1, 1e-6},
	} {
		n, achieved, err := MaxStepsBest(c.q, c.sigma, c.eps, c.delta, Improved)
		if err != nil {
			t.Errorf("%+v: %v", c, err)
			continue
		}
		if e := readBack(t, c.q, c.sigma, n, c.delta); e > c.eps || e != achieved {
			t.Errorf("%+v: %d steps read back as eps %v (reported %v)", c, n, e, achieved)
		}
		if e := readBack(t, c.q, c.sigma, n+1, c.delta); e <= c.eps {
			t.Errorf("%+v: %d steps is not the most: one more gives eps %v", c, n, e)
		}
	}
}

// TestCalibrateOnOrdersReadBack: CalibrateSigma's sigma and MaxSteps's
// count, read back by an Accountant on the same orders (as rdpcheck
// epsilon reads them), give the eps they report, bit for bit, within the
// target. The orders are those where the one-step curve scaled, or
// SGMCurve, then Epsilon gives 1 ulp less than the accountant (q = 0.1,
// sigma = 1.1: 1.9262836631375633 against 1.9262836631375635 for one step
// at order 8), the way both used to take (caught: "one step more than
// rdpcheck epsilon allows").
func TestCalibrateOnOrdersReadBack(t *testing.T) {
	orders := []float64{2, 4, 4.5, 8, 32}
	onOrders := func(q, sigma float64, steps int, delta float64) float64 {
		a := Accountant{Orders: orders}
		if err := a.Compose(SGMEvent(q, sigma), steps); err != nil {
			t.Fatal(err)
		}
		e, _, err := a.Epsilon(delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, c := range []struct {
		q, sigma, eps, delta float64
		steps                int
	}{
		{0.1, 1.1, 2, 1e-5, 100},
		{256.0 / 60000, 1.1, 3, 1e-5, 14063},
	} {
		n, achieved, err := MaxSteps(c.q, c.sigma, c.eps, c.delta, Improved, orders)
		if err != nil {
			t.Fatal(err)
		}
		if e := onOrders(c.q, c.sigma, n, c.delta); e != achieved || e > c.eps {
			t.Errorf("MaxSteps(q=%v, sigma=%v): %d steps read back as %v (reported %v), target %v", c.q, c.sigma, n, e, achieved, c.eps)
		}
		if e := onOrders(c.q, c.sigma, n+1, c.delta); e <= c.eps {
			t.Errorf("MaxSteps(q=%v, sigma=%v): %d steps is not the most: one more gives %v", c.q, c.sigma, n, e)
		}
		sigma, achieved, err := CalibrateSigma(c.q, c.steps, c.eps, c.delta, Improved, orders, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if e := onOrders(c.q, sigma, c.steps, c.delta); e != achieved || e > c.eps {
			t.Errorf("CalibrateSigma(q=%v, steps=%d): sigma %v reads back as %v (reported %v), target %v", c.q, c.steps, sigma, e, achieved, c.eps)
		}
	}
}

// TestCalibrateFuncs: CalibrateSigmaFunc and MaxStepsFunc given the eps of
// one Poisson-sampled phase at the best order return what
// CalibrateSigmaBest and MaxStepsBest return (the same search on the same
// values).
func TestCalibrateFuncs(t *testing.T) {
	t.Parallel()
	q, steps, eps, delta := 256.0/60000, 14063, 3.0, 1e-5
	want, wantEps, err := CalibrateSigmaBest(q, steps, eps, delta, Improved, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, gotEps, err := CalibrateSigmaFunc(eps, 0, func(s float64) (float64, error) { return readBack(t, q, s, steps, delta), nil })
	if err != nil || got != want || gotEps != wantEps {
		t.Errorf("CalibrateSigmaFunc = %v, %v, %v; CalibrateSigmaBest %v, %v", got, gotEps, err, want, wantEps)
	}
	sigma := 1.1
	n, nEps, err := MaxStepsBest(q, sigma, eps, delta, Improved)
	if err != nil {
		t.Fatal(err)
	}
	m, mEps, err := MaxStepsFunc(eps, func(k int) (float64, error) { return readBack(t, q, sigma, k, delta), nil })
	if err != nil || m != n || mEps != nEps {
		t.Errorf("MaxStepsFunc = %v, %v, %v; MaxStepsBest %v, %v", m, mEps, err, n, nEps)
	}
	if _, _, err := CalibrateSigmaFunc(0, 0, nil); err == nil {
		t.Error("CalibrateSigmaFunc(eps 0): no error")
	}
	if _, _, err := MaxStepsFunc(math.NaN(), nil); err == nil {
		t.Error("MaxStepsFunc(eps NaN): no error")
	}
}
