package main

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/cases"
	"github.com/rdpcheck/rdpcheck/reference"
)

const eventDir = "../../peers/accountants/dpevents/"

// TestEpsilonBestOrder: epsilon's default is the best order: not above the
// grid's eps (-orders grid), not below the reference's eps at the order it
// returns (which -reference prints).
func TestEpsilonBestOrder(t *testing.T) {
	args := []string{"epsilon", "-q", "0.01", "-sigma", "1.1", "-steps", "1000", "-delta", "1e-5", "-json"}
	var best, grid struct {
		Epsilon, Order   float64
		Orders           string
		EpsilonReference string `json:"epsilon_reference"`
	}
	for _, c := range []struct {
		extra []string
		into  any
	}{{[]string{"-reference"}, &best}, {[]string{"-orders", "grid"}, &grid}} {
		code, out, errOut := runCLI(append(args, c.extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := json.Unmarshal([]byte(out), c.into); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
	}
	if best.Orders != "best" || grid.Orders != "grid" || best.Epsilon > grid.Epsilon {
		t.Errorf("best %+v, grid %+v", best, grid)
	}
	ref, _, err := cases.ReferenceEpsilon(reference.Context{}, 0.01, 1.1, 1000, []float64{best.Order}, 1e-5, reference.Improved, nil)
	if err != nil {
		t.Fatal(err)
	}
	if best.EpsilonReference != cases.Decimal(ref) || ref.Cmp(big.NewFloat(best.Epsilon)) > 0 {
		t.Errorf("reference %s (printed %s), fast %v", cases.Decimal(ref), best.EpsilonReference, best.Epsilon)
	}
}

// TestAccountJSON: account -json on dp_accounting's MNIST event file gives
// the epsilon of epsilon with the same setting (q = 256/60000, sigma =
// 1.1, 14063 steps), both at the grid and at the best order.
func TestAccountJSON(t *testing.T) {
	for _, orders := range []string{"grid", "best"} {
		code, out, errOut := runCLI("account", "-delta", "1e-5", "-json", "-orders", orders, eventDir+"dpsgd_mnist_tutorial.json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got struct {
			Epsilon, Delta, Order float64
			Relation              string
			Events                []struct {
				Path  string
				Count int
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		code, out2, _ := runCLI("epsilon", "-q", "0.004266666666666667", "-sigma", "1.1", "-steps", "14063", "-delta", "1e-5", "-json", "-orders", orders)
		var want struct{ Epsilon, Order float64 }
		if code != 0 || json.Unmarshal([]byte(out2), &want) != nil {
			t.Fatalf("epsilon: exit %d %q", code, out2)
		}
		if got.Epsilon != want.Epsilon || got.Order != want.Order || got.Delta != 1e-5 || got.Relation != "ADD_OR_REMOVE_ONE" {
			t.Errorf("-orders %s: account %+v, epsilon %+v", orders, got, want)
		}
		if diff := cmp.Diff([]struct {
			Path  string
			Count int
		}{{"event.event", 14063}}, got.Events); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	}
}

// TestAccountOutputs: -eps, infinities as "inf", -relation, -reference
// progress, and the errors a person can act on.
func TestAccountOutputs(t *testing.T) {
	code, out, errOut := runCLI("account", "-json", eventDir+"noop_and_nonprivate.json", "-delta", "1e-5")
	var inf map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &inf) != nil || inf["epsilon"] != "inf" {
		t.Errorf("non-private: exit %d, %q %s", code, out, errOut)
	}
	code, out, errOut = runCLI("account", "-eps", "3", "-orders", "grid", "-reference", eventDir+"queries_mixed.json")
	// dp_accounting printed delta 3.5928248047533114e-09 at order 13
	if code != 0 || !strings.HasPrefix(out, "delta = 3.592824805e-09 at order 13 ") || !strings.Contains(out, "reference delta = 3.59282480") {
		t.Errorf("queries -eps 3: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "reference: 3/3 events") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-delta", "1e-5", eventDir + "label_dp_rr.json"}, 1, "RandomizedResponseDpEvent: not yet supported"},
		{[]string{"-delta", "1e-5", "-relation", "REPLACE_ONE", eventDir + "dpsgd_two_phases.json"}, 1, "event.events[0].event: PoissonSampledDpEvent needs the relation"},
		{[]string{"-delta", "1e-5", "-relation", "nope", eventDir + "dpsgd_two_phases.json"}, 1, "unknown neighboring relation"},
		{[]string{"-delta", "1e-10", eventDir + "pure_and_approx.json"}, 1, "not above the delta of the (epsilon, delta) events"},
		{[]string{eventDir + "queries_mixed.json"}, 1, "give one of -delta"},
		{[]string{"-delta", "1e-5"}, 2, "want one event file"},
		{[]string{"-delta", "1e-5", "no-such-file.json"}, 1, "no-such-file.json"},
	} {
		code, _, errOut := runCLI(append([]string{"account"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}
