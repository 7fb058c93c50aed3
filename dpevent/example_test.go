package dpevent_test

import (
	"fmt"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
)

// Two training phases written by dp_accounting (ComposedDpEvent of
// SelfComposedDpEvents of PoissonSampledDpEvents), accounted at the best
// order and on dp_accounting's grid.
func ExampleNewPlan() {
	js := `{"event": {"class_name": "ComposedDpEvent", "events": [
	  {"class_name": "SelfComposedDpEvent", "count": 1000, "event": {"class_name": "PoissonSampledDpEvent",
	    "sampling_probability": 0.01, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}},
	  {"class_name": "SelfComposedDpEvent", "count": 5000, "event": {"class_name": "PoissonSampledDpEvent",
	    "sampling_probability": 0.001, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 0.8}}}]},
	  "neighboring_relation": "ADD_OR_REMOVE_ONE"}`
	f, err := dpevent.Decode([]byte(js))
	if err != nil {
		panic(err)
	}
	plan, err := dpevent.NewPlan(f.Event, f.Relation)
	if err != nil {
		panic(err)
	}
	best, _ := plan.Epsilon(1e-5, nil, fast.Improved)
	grid, _ := plan.Epsilon(1e-5, fast.DefaultOrders(), fast.Improved)
	fmt.Printf("best %.6f at %.2f; grid %.6f at %g\n", best.Epsilon, best.Order, grid.Epsilon, grid.Order)
	for i, t := range plan.Terms {
		fmt.Printf("%s x%d: %.4f\n", t.Path(), t.Count, best.TermRDP[i])
	}
	// Output:
	// best 2.181258 at 7.69; grid 2.181274 at 7.7
	// event.events[0].event x1000: 0.8253
	// event.events[1].event x5000: 0.0790
}

// A bad value is an error naming its place in the JSON.
func ExampleDecode() {
	_, err := dpevent.Decode([]byte(`{"class_name": "ComposedDpEvent", "events": [
	  {"class_name": "GaussianDpEvent", "noise_multiplier": 1},
	  {"class_name": "LaplaceDpEvent", "noise_multiplier": -2}]}`))
	fmt.Println(err)
	// Output: event.events[1].noise_multiplier: must be finite and > 0 (is -2)
}
