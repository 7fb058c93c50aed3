package main

// Flags and output shared by the accountant commands.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck/fast"
)

// ordersFlag parses "default" or a comma-separated list ("1.5,2,4,inf").
type ordersFlag struct{ orders []float64 }

func (o *ordersFlag) String() string {
	if o.orders == nil {
		return "default"
	}
	s := make([]string, len(o.orders))
	for i, a := range o.orders {
		s[i] = strconv.FormatFloat(a, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (o *ordersFlag) Set(v string) error {
	if v == "default" {
		o.orders = nil
		return nil
	}
	var out []float64
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		a, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return fmt.Errorf("order %q is not a number (use e.g. 1.5,2,8,inf)", f)
		}
		if !(a > 1) {
			return fmt.Errorf("order %v must be > 1", a)
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return errors.New("empty list of orders")
	}
	o.orders = out
	return nil
}

// get returns the orders, the default list when none were given.
func (o *ordersFlag) get() []float64 {
	if o.orders == nil {
		return fast.DefaultOrders()
	}
	return o.orders
}

// convFlag parses the conversion's name.
type convFlag struct{ conv fast.Conversion }

func (c *convFlag) String() string { return c.conv.String() }

func (c *convFlag) Set(v string) error {
	switch v {
	case "improved":
		c.conv = fast.Improved
	case "classic":
		c.conv = fast.Classic
	default:
		return fmt.Errorf("unknown conversion %q (want improved or classic)", v)
	}
	return nil
}

// dpFlags are the flags of the commands that convert an RDP curve to
// (eps, delta): the target delta, the orders, the conversion and -json.
type dpFlags struct {
	delta  float64
	orders ordersFlag
	conv   convFlag
	json   bool
}

func (d *dpFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&d.delta, "delta", 0, "target delta in (0, 1)")
	fs.Var(&d.orders, "orders", "RDP orders: comma-separated (e.g. 1.5,2,4,8,inf) or default (dp_accounting's 156)")
	d.conv = convFlag{fast.Improved}
	fs.Var(&d.conv, "conv", "RDP to DP conversion: improved (Canonne-Kamath-Steinke 2020) or classic (Mironov 2017)")
	fs.BoolVar(&d.json, "json", false, "print JSON")
}

// sgmFlags are the sampled Gaussian's parameters, given directly
// (-q, -steps) or as TF Privacy's compute_dp_sgd_privacy takes them
// (-n, -batch, -epochs: q = batch/n, steps = ceil(epochs n / batch)).
type sgmFlags struct {
	q, n, batch, epochs float64
	steps               int
	qSet                bool // -q was given (a NaN -q is then an error of its own)
}

func (s *sgmFlags) register(fs *flag.FlagSet, withSteps bool) {
	s.q = math.NaN()
	fs.Func("q", "Poisson sampling rate in [0, 1] (or give -n and -batch)", func(v string) error {
		q, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return errors.New("want a number")
		}
		s.q, s.qSet = q, true
		return nil
	})
	fs.Float64Var(&s.n, "n", 0, "dataset size, with -batch: q = batch/n")
	fs.Float64Var(&s.batch, "batch", 0, "expected batch size, with -n")
	if withSteps {
		fs.IntVar(&s.steps, "steps", 0, "number of steps (or give -epochs with -n and -batch)")
		fs.Float64Var(&s.epochs, "epochs", 0, "epochs, with -n and -batch: steps = ceil(epochs*n/batch)")
	}
}

// resolve fills q (and steps) from whichever form was given.
func (s *sgmFlags) resolve(withSteps bool) error {
	if s.n != 0 || s.batch != 0 {
		if s.qSet {
			return errors.New("give either -q or -n with -batch, not both")
		}
		if !(s.n > 0) || !(s.batch > 0) || s.batch > s.n {
			return fmt.Errorf("-n %v and -batch %v: need 0 < batch <= n", s.n, s.batch)
		}
		s.q = s.batch / s.n
		if withSteps && s.epochs != 0 {
			if s.steps != 0 {
				return errors.New("give either -steps or -epochs, not both")
			}
			if !(s.epochs > 0) {
				return fmt.Errorf("-epochs %v must be > 0", s.epochs)
			}
			s.steps = int(math.Ceil(s.epochs * s.n / s.batch))
		}
	}
	switch {
	case s.qSet && math.IsNaN(s.q):
		return errors.New("-q is NaN: the sampling rate must be a number in [0, 1]")
	case math.IsNaN(s.q):
		return errors.New("missing -q (or -n and -batch)")
	}
	if withSteps && s.steps <= 0 {
		return errors.New("missing -steps (a positive count, or -epochs with -n and -batch)")
	}
	return nil
}

// newFlagSet makes a flag set whose -h prints the command's description.
func newFlagSet(name, description string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rdpcheck %s [flags]\n\n%s\n\nflags:\n", name, description)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; it returns the exit status to use, or -1 to go on.
func parse(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "rdpcheck %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2
	}
	return -1
}

// fail reports an error a person can act on and returns the exit status.
func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "rdpcheck %s: %v\n", cmd, err)
	return 1
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
