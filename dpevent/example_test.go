package dpevent_test

import (
	"context"
	"fmt"
	"os"

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

// DP-SGD's eps as rdpcheck epsilon computes it: the two phases of
// ExampleNewPlan's file, given as phases; the plan is that file's, so the
// values are its (rdpcheck epsilon -phase q=0.01,sigma=1,steps=1000
// -phase q=0.001,sigma=0.8,steps=5000 -delta 1e-5 prints the same).
func ExampleDPSGD() {
	plan, err := dpevent.DPSGD([]dpevent.Phase{
		{Q: 0.01, Sigma: 1, Steps: 1000},
		{Q: 0.001, Sigma: 0.8, Steps: 5000},
	}, false)
	if err != nil {
		panic(err)
	}
	best, _ := plan.Epsilon(1e-5, nil, fast.Improved)
	grid, _ := plan.Epsilon(1e-5, fast.DefaultOrders(), fast.Improved)
	fmt.Printf("best %.6f at %.2f; grid %.6f at %g\n", best.Epsilon, best.Order, grid.Epsilon, grid.Order)
	// Output: best 2.181258 at 7.69; grid 2.181274 at 7.7
}

// A bad value is an error naming its place in the JSON.
func ExampleDecode() {
	_, err := dpevent.Decode([]byte(`{"class_name": "ComposedDpEvent", "events": [
	  {"class_name": "GaussianDpEvent", "noise_multiplier": 1},
	  {"class_name": "LaplaceDpEvent", "noise_multiplier": -2}]}`))
	fmt.Println(err)
	// Output: event.events[1].noise_multiplier: must be finite and >= 0 (is -2)
}

// An event file from examples/events: the MNIST tutorial's 60 epochs of
// DP-SGD, then one Laplace query of scale 10, as dp_accounting writes it.
// rdpcheck account prints the same eps for the file (eps = 2.632654457 at
// order 8.05827025, examples/events/README.md), and
// cmd/rdpcheck/testdata/script/examples.txtar checks it against
// dp_accounting 0.6.0's answer for the same events. The Laplace query's
// term is its closed form, (1/(alpha-1)) log(alpha/(2 alpha-1) e^((alpha-1)/b)
// + (alpha-1)/(2 alpha-1) e^(-alpha/b)) = 0.035895 at b = 10 and that order.
func ExampleDecode_file() {
	data, err := os.ReadFile("../examples/events/dpsgd_then_laplace.json")
	if err != nil {
		panic(err)
	}
	f, err := dpevent.Decode(data)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Event.Class, f.Relation)
	plan, err := dpevent.NewPlan(f.Event, f.Relation)
	if err != nil {
		panic(err)
	}
	r, err := plan.Epsilon(1e-5, nil, fast.Improved) // nil orders: the best order
	if err != nil {
		panic(err)
	}
	fmt.Printf("eps = %.6f at order %.4f\n", r.Epsilon, r.Order)
	for i, t := range plan.Terms {
		fmt.Printf("%s x%d: %.4f\n", t.Path(), t.Count, r.TermRDP[i])
	}
	// Output:
	// ComposedDpEvent ADD_OR_REMOVE_ONE
	// eps = 2.632654 at order 8.0583
	// event.events[0].event x14063: 1.3938
	// event.events[1] x1: 0.0359
}

// The optimal eps of an event file, certified (package pld's interval,
// the floor under every accountant), beside the RDP accountant's: events
// of three kinds under REPLACE_SPECIAL.
func ExampleNewExact() {
	js := `{"event": {"class_name": "ComposedDpEvent", "events": [
	  {"class_name": "SelfComposedDpEvent", "count": 10, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 20}},
	  {"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 4},
	  {"class_name": "SelfComposedDpEvent", "count": 100, "event": {"class_name": "PoissonSampledDpEvent",
	    "sampling_probability": 0.01, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}}]},
	  "neighboring_relation": "REPLACE_SPECIAL"}`
	f, err := dpevent.Decode([]byte(js))
	if err != nil {
		panic(err)
	}
	x, err := dpevent.NewExact(f.Event, f.Relation)
	if err != nil {
		panic(err)
	}
	iv, err := x.Epsilon(context.Background(), 1e-5)
	if err != nil {
		panic(err)
	}
	plan, err := dpevent.NewPlan(f.Event, f.Relation)
	if err != nil {
		panic(err)
	}
	rdp, _ := plan.Epsilon(1e-5, nil, fast.Improved)
	fmt.Printf("optimal eps in [%.4f, %.4f]; RDP's %.4f\n", iv.Lo, iv.Hi, rdp.Epsilon)
	// Output:
	// optimal eps in [1.7424, 1.7441]; RDP's 2.1754
}
