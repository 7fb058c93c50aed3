// Command downstream uses rdpcheck as another Go module does (go.mod
// requires github.com/rdpcheck/rdpcheck, replaced by the repository it
// sits in) and shows the contract of its Go API: the aliasing rule,
// results that exported state cannot change, typed errors, and concurrent
// use. It prints one line per part and exits with status 1 if any part of
// the contract does not hold; examples/downstream_test.go builds and runs
// it, and the module's own test runs rdpcheck's vectors on package fast
// through vectorstest.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/pld"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "downstream:", err)
		os.Exit(1)
	}
}

// dpsgd is a DP-SGD run of two phases as dp_accounting writes it.
const dpsgd = `{"class_name": "ComposedDpEvent", "events": [
  {"class_name": "SelfComposedDpEvent", "count": 100, "event":
    {"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01,
     "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1}}},
  {"class_name": "SelfComposedDpEvent", "count": 200, "event":
    {"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.001,
     "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 0.8}}}]}`

func run(w io.Writer) error {
	// Aliasing: out may be the same slice as orders (SGMCurve's doc
	// comment says so); in place or apart, the curve is the same.
	apart := make([]float64, len(fast.DefaultOrders()))
	if err := fast.SGMCurve(0.01, 1.1, 1000, fast.DefaultOrders(), apart); err != nil {
		return err
	}
	inPlace := fast.DefaultOrders()
	if err := fast.SGMCurve(0.01, 1.1, 1000, inPlace, inPlace); err != nil {
		return err
	}
	if !slices.Equal(inPlace, apart) {
		return errors.New("SGMCurve with out = orders differs from out apart")
	}
	fmt.Fprintf(w, "aliasing: SGMCurve in place equals SGMCurve apart at all %d default orders\n", len(apart))

	// Exported state: the Accountant copies its Orders at its first use,
	// so reversing the field afterwards changes no result.
	acc := fast.Accountant{Orders: []float64{1.5, 2, 4, 8, 16, 32, 64}}
	if err := acc.ComposeSGM(0.01, 1.1, 1000); err != nil {
		return err
	}
	before, _, err := acc.Epsilon(1e-5, fast.Improved)
	if err != nil {
		return err
	}
	slices.Reverse(acc.Orders)
	after, _, err := acc.Epsilon(1e-5, fast.Improved)
	if err != nil || after != before {
		return fmt.Errorf("Accountant.Epsilon after its Orders were reversed: %v (%v), was %v", after, err, before)
	}
	fmt.Fprintln(w, "state: reversing Accountant.Orders after ComposeSGM leaves Epsilon unchanged")

	// Typed errors: every error has one of package rdpcheck's kinds.
	for _, c := range []struct {
		what string
		err  error
		kind error
	}{
		{"fast.SGM(q = NaN)", second(fast.SGM(math.NaN(), 1, 2)), rdpcheck.ErrInput},
		{"fast.SGM(alpha = 2e6)", second(fast.SGM(0.01, 1, 2e6)), rdpcheck.ErrTooLarge},
		{"dpevent.ReadBytes(an unknown class)", second(dpevent.ReadBytes([]byte(`{"class_name": "NoSuchDpEvent"}`), nil)), rdpcheck.ErrInput},
		{"fast.CalibrateSigma(eps unreachable)", third(fast.CalibrateSigma(0.01, 1000, 1e-9, 1e-5, fast.Improved, nil, 1e-6)), rdpcheck.ErrNotConverged},
	} {
		if !errors.Is(c.err, c.kind) {
			return fmt.Errorf("%s: %v, want an error that is %v", c.what, c.err, c.kind)
		}
	}
	fmt.Fprintln(w, "errors: invalid input, beyond the supported range and not converged are told apart by errors.Is")

	// Concurrency: one plan, read once, accounted from several goroutines
	// (a Plan is safe for concurrent use; an Accountant is not, so each
	// goroutine has its own).
	plan, err := dpevent.ReadBytes([]byte(dpsgd), nil)
	if err != nil {
		return err
	}
	eps := make([]float64, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range eps {
		wg.Go(func() {
			r, err := plan.Epsilon(1e-5, nil, fast.Improved)
			if err != nil {
				errs[i] = err
				return
			}
			a := fast.Accountant{Orders: []float64{2, 4, 8}}
			errs[i] = a.ComposeSGM(0.01, 1, 1000)
			eps[i] = r.Epsilon
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, e := range eps[1:] {
		if e != eps[0] {
			return fmt.Errorf("a plan accounted from 4 goroutines: eps %v", eps)
		}
	}
	fmt.Fprintf(w, "concurrency: 4 goroutines account one plan alike: eps = %.6g\n", eps[0])

	// The floor under every accountant: the optimal eps of the run lies
	// in pld's certified interval, and RDP's eps is never below it.
	phases, err := plan.SGMPhases()
	if err != nil {
		return err
	}
	var run []pld.Phase
	for _, p := range phases {
		run = append(run, pld.Phase{Q: p.Q, Sigma: p.Sigma, Steps: int(p.Count)})
	}
	iv, err := pld.SGMEpsilon(run, 1e-5)
	if err != nil {
		return err
	}
	if !(eps[0] >= iv.Lo) {
		return fmt.Errorf("RDP's eps %v below the certified floor %v", eps[0], iv)
	}
	fmt.Fprintf(w, "floor: the optimal eps is in [%.7g, %.7g]; RDP's %.6g is above its floor\n", iv.Lo, iv.Hi, eps[0])
	return nil
}

func second[T any](_ T, err error) error        { return err }
func third[T, U any](_ T, _ U, err error) error { return err }
