package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/pld"
	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const accountDoc = `Accounts a privacy event tree written by dp_accounting (the JSON of
DpEvent.to_named_tuple(), bare or as {"event": ..., "neighboring_relation": ...})
and prints epsilon for -delta (or delta for -eps), the order that gives it, and
each distinct event's RDP at that order: one row per event class and
parameters, with its total count, how many places in the tree give it and the
first of them. Values are upper bounds in float64 (never below the exact ones);
-reference recomputes them at that order in arbitrary precision. A delta
printed for -eps, given back as -delta, gives at most that eps.

The event file is named before or after the flags; - reads standard input.
A run longer than about two seconds says what it is doing on standard error.

By default (-orders best) the order is the best in (1, 2^20] and +Inf, to
1e-6 relative, as epsilon finds it: every order gives a valid bound, so the
result is safe whatever the search does. -orders grid minimises over
dp_accounting's 156 orders only, as its RdpAccountant does.

Event classes read: ` + "%s" + `.
Not yet read (an error names them): %s.

examples:
  rdpcheck account -delta 1e-5 peers/accountants/dpevents/dpsgd_mnist_tutorial.json
  rdpcheck account -eps 3 -orders grid -json events.json
  rdpcheck account -delta 1e-5 - < events.json`

func init() {
	register(command{name: "account", summary: "epsilon (or delta) of a dp_accounting DpEvent tree, at the best order", run: runAccount})
}

func runAccount(args []string, stdout, stderr io.Writer) int {
	doc := fmt.Sprintf(accountDoc, strings.Join(dpevent.ClassNames(), ", "), strings.Join(dpevent.NotYetSupported(), ", "))
	fs := newFlagSet("account", doc, stderr)
	var d dpFlags
	d.register(fs)
	o := &d.orders
	eps := &numFlag{in: func(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }, domain: "a finite number >= 0"}
	fs.Var(eps, "eps", "target epsilon (>= 0): print delta instead of epsilon")
	var rel relationFlag
	fs.Var(&rel, "relation", "neighboring relation, overriding the file's: ADD_OR_REMOVE_ONE, REPLACE_ONE or REPLACE_SPECIAL (default: the file's, else ADD_OR_REMOVE_ONE)")
	withRef := fs.Bool("reference", false, "also compute the value at the order found with the arbitrary-precision reference (progress on stderr)")
	exact := fs.Bool("exact", false, "also print a certified interval around the optimal value, from the privacy loss distribution, for any file of the events dp_accounting's PLD accountant composes, under the relations it takes for them (seconds to a minute); events without RDP accounting (DiscreteLaplace, MixtureOfGaussians, TruncatedSubsampledGaussian) get this interval only")
	// flags may come before or after the file
	var files []string
	for rest := args; ; {
		if st := parseFlags(fs, rest); st >= 0 {
			return st
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 1 {
		return usageError(stderr, "account", fmt.Sprintf("want one event file, have %d", len(files)))
	}
	wantDelta := eps.set
	if wantDelta == d.delta.set {
		return usageError(stderr, "account", "give one of -delta (for epsilon) or -eps (for delta)")
	}
	pr := startProgress(stderr, "account")
	name, data, err := readEventFile(files[0], pr)
	var x *dpevent.Exact
	if err == nil && *exact {
		// the privacy loss distribution's refusal comes first: it is what
		// -exact asks for
		pr.set("mapping %s to its privacy loss distributions", name)
		x, err = exactOfFile(name, data, rel.rel)
	}
	var p *dpevent.Plan
	var res *dpevent.Result
	var ref string
	if err == nil {
		p, res, ref, err = accountData(name, data, rel.rel, wantDelta, eps.v, d, o, *withRef, pr)
	}
	pr.end()
	// an event with no RDP accounting: -exact's interval alone
	noRDP := *exact && errors.Is(err, dpevent.ErrNoRDP)
	if err != nil && !noRDP {
		return fail(stderr, "account", err)
	}
	rdpErr := err
	var opt pld.Interval
	if *exact {
		target := d.delta.v
		if wantDelta {
			target = eps.v
		}
		if opt, err = exactEventInterval(stderr, "account", x, wantDelta, target); err != nil {
			return fail(stderr, "account", fmt.Errorf("%s: %w", name, err))
		}
	}
	if noRDP {
		return printExactOnly(stdout, stderr, x, opt, wantDelta, d.json, rdpErr)
	}
	if d.json {
		events := make([]map[string]any, len(p.Terms))
		for i, t := range p.Terms {
			events[i] = map[string]any{"path": t.Path(), "places": t.Places, "event": t.What, "count": t.Count, "rdp": schema.JSONFloat(res.TermRDP[i])}
		}
		out := map[string]any{
			"epsilon": schema.JSONFloat(res.Epsilon), "delta": schema.JSONFloat(res.Delta), "order": schema.JSONFloat(res.Order),
			"relation": p.Relation.String(), "conversion": d.conv.conv.String(), "orders": o.String(), "events": events,
		}
		if len(p.Notes) > 0 {
			out["notes"] = p.Notes
		}
		if x := p.ExtraDelta(); x > 0 {
			out["events_delta"] = x
		}
		if *exact {
			if wantDelta {
				out["delta_optimal"] = exactJSON(opt)
			} else {
				out["epsilon_optimal"] = exactJSON(opt)
			}
			if n := x.Notes(); len(n) > 0 {
				out["exact_notes"] = n
			}
		}
		if *withRef {
			if wantDelta {
				out["delta_reference"] = ref
			} else {
				out["epsilon_reference"] = ref
			}
		}
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "account", err)
		}
		return 0
	}
	if wantDelta {
		fmt.Fprintf(stdout, "delta = %s at order %.10g  (eps = %g, %v conversion, %s; %v)\n", bound(res.Delta), res.Order, res.Epsilon, d.conv.conv, o.describe(), p.Relation)
	} else {
		fmt.Fprintf(stdout, "eps = %s at order %.10g  (delta = %g, %v conversion, %s; %v)\n", bound(res.Epsilon), res.Order, res.Delta, d.conv.conv, o.describe(), p.Relation)
	}
	if x := p.ExtraDelta(); x > 0 {
		fmt.Fprintf(stdout, "the (epsilon, delta) events add delta %.6g, composed in as dp_accounting does\n", x)
	}
	// one row per distinct event: its total count, the number of places
	// in the tree that give it and the first of them
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "\nRDP at order %.10g\tcount\tplaces\tfirst at\tevent\n", res.Order)
	for i, t := range p.Terms {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", bound(res.TermRDP[i]), t.Count, t.Places, t.Path(), t.What)
	}
	tw.Flush()
	for _, n := range p.Notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	if *withRef {
		name := "eps"
		if wantDelta {
			name = "delta"
		}
		fmt.Fprintf(stdout, "reference %s = %s (at order %.17g)\n", name, ref, res.Order)
	}
	if *exact {
		v := res.Epsilon
		if wantDelta {
			v = res.Delta
		}
		printExact(stdout, opt, v, wantDelta)
		for _, n := range x.Notes() {
			fmt.Fprintln(stdout, "note:", n)
		}
	}
	return 0
}

// relationFlag is -relation: nil when not given.
type relationFlag struct{ rel *dpevent.Relation }

func (f *relationFlag) String() string {
	if f == nil || f.rel == nil {
		return ""
	}
	return f.rel.String()
}

func (f *relationFlag) Set(v string) error {
	r, err := dpevent.ParseRelation(v)
	if err != nil {
		return errors.New("want ADD_OR_REMOVE_ONE, REPLACE_ONE or REPLACE_SPECIAL")
	}
	f.rel = &r
	return nil
}

// readEventFile reads the event file name ("-": standard input),
// returning the name to tell the user.
func readEventFile(name string, pr *progress) (string, []byte, error) {
	var data []byte
	var err error
	if name == "-" {
		pr.set("reading standard input")
		data, err = io.ReadAll(stdin)
		name = "standard input"
	} else {
		pr.set("reading %s", name)
		data, err = os.ReadFile(name)
	}
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			err = pe.Err // the path is named below
		}
		return name, nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	return name, data, nil
}

// exactOfFile decodes the event file name's contents data and maps it,
// under its relation (or rel), to the privacy loss distributions
// dp_accounting's PLD accountant composes; its errors name the file.
func exactOfFile(name string, data []byte, rel *dpevent.Relation) (*dpevent.Exact, error) {
	f, err := dpevent.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := f.Relation
	if rel != nil {
		r = *rel
	}
	x, err := dpevent.NewExact(f.Event, r)
	if err != nil {
		return nil, fmt.Errorf("%s: -exact: %w", name, err)
	}
	return x, nil
}

// accountData plans the event file's contents data (named name) under its
// relation (or rel) and accounts it: delta at eps when wantDelta, else
// epsilon at d.delta, and with withRef the reference's value at the order
// found. pr is told each step.
func accountData(name string, data []byte, rel *dpevent.Relation, wantDelta bool, eps float64, d dpFlags, o *bestOrdersFlag, withRef bool, pr *progress) (p *dpevent.Plan, res *dpevent.Result, ref string, err error) {
	pr.set("decoding and planning %s (%.3g MB)", name, float64(len(data))/1e6)
	if p, err = dpevent.ReadBytes(data, rel); err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", name, err)
	}
	pr.set("accounting %d distinct event(s) (%s)", len(p.Terms), o.describe())
	rb := readBack{digits: boundDigits,
		eps: func(delta float64, orders []float64) (float64, float64, error) {
			if orders == nil {
				orders = o.orders()
			}
			r, err := p.Epsilon(delta, orders, d.conv.conv)
			if err != nil {
				return 0, 0, err
			}
			return r.Epsilon, r.Order, nil
		},
		delta: func(eps float64, orders []float64) (float64, float64, error) {
			if orders == nil {
				orders = o.orders()
			}
			r, err := p.Delta(eps, orders, d.conv.conv)
			if err != nil {
				return 0, 0, err
			}
			return r.Delta, r.Order, nil
		}}
	if d.json {
		rb.digits = jsonDigits
	}
	if wantDelta {
		if res, err = p.Delta(eps, o.orders(), d.conv.conv); err == nil {
			res.Delta, err = rb.printedDelta(res.Delta, eps)
		}
	} else {
		res, err = p.Epsilon(d.delta.v, o.orders(), d.conv.conv)
	}
	if err != nil {
		return nil, nil, "", err
	}
	if withRef {
		if ref, err = accountReference(p, res, wantDelta, d.conv.conv, pr); err != nil {
			return nil, nil, "", err
		}
	}
	return p, res, ref, nil
}

// accountReference recomputes the result at its order with the reference,
// telling pr which event it is at.
func accountReference(p *dpevent.Plan, res *dpevent.Result, wantDelta bool, conv fast.Conversion, pr *progress) (string, error) {
	pr.set("reference at order %g: event 1 of %d", res.Order, len(p.Terms))
	progress := func(done, total int) {
		if done < total {
			pr.set("reference at order %g: event %d of %d", res.Order, done+1, total)
		} else {
			pr.set("reference at order %g: converting", res.Order)
		}
	}
	var c reference.Context
	if wantDelta {
		v, err := p.ReferenceDelta(c, res.Epsilon, res.Order, conv, progress)
		if err != nil {
			return "", err
		}
		return schema.BigDec(v), nil
	}
	v, err := p.ReferenceEpsilon(c, res.Delta, res.Order, conv, progress)
	if err != nil {
		return "", err
	}
	return schema.BigDec(v), nil
}
