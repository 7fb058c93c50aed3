package main

// Flags and output shared by the accountant commands. Every flag value is
// checked when it is parsed: a value out of range is refused with the
// flag's name, the value given and what is accepted, never defaulted.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/wording"
)

// maxSteps is the largest count of steps (or events) the commands take:
// fast's calibrations stop there too.
const maxSteps = 1 << 40

// parseNumber reads a number (decimal or exponent form, inf); NaN is
// refused.
func parseNumber(v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) {
		return 0, errors.New("want a number")
	}
	return f, nil
}

// parseCount reads a whole number, in decimal or exponent form when exact
// (1e4 is 10000), at most max.
func parseCount(v string, max float64) (float64, error) {
	f, err := parseNumber(v)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, errors.New("want a whole number (such as 100 or 1e4)")
	}
	if f > max {
		return 0, fmt.Errorf("too large: at most %.0f (2^%.0f)", max, math.Log2(max))
	}
	if f < 0 {
		return 0, errors.New("want a whole number >= 0")
	}
	return f, nil
}

// numFlag is a number flag with its domain, checked when parsed.
type numFlag struct {
	v   float64
	set bool
	// text is the value as typed (spaces trimmed), from which a count is
	// computed exactly (steps from -epochs).
	text string
	// in reports whether a value is accepted; domain says so in words
	// (e.g. "a number in (0, 1)").
	in     func(float64) bool
	domain string
	count  bool // a whole number up to maxSteps
}

func (f *numFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	if f.text != "" {
		return f.text
	}
	return strconv.FormatFloat(f.v, 'g', -1, 64)
}

func (f *numFlag) Set(s string) error {
	var v float64
	var err error
	if f.count {
		v, err = parseCount(s, maxSteps)
	} else {
		v, err = parseNumber(s)
	}
	if err == nil && !f.in(v) {
		err = errors.New("want " + f.domain)
	}
	if err != nil {
		return err
	}
	f.v, f.set, f.text = v, true, strings.TrimSpace(s)
	return nil
}

// rat is the value as typed, exactly (1.1 is 11/10, not the float64
// nearest to it).
func (f *numFlag) rat() *big.Rat {
	if r, ok := new(big.Rat).SetString(f.text); ok {
		return r
	}
	return new(big.Rat).SetFloat64(f.v) // exact, and v is finite here
}

func between(lo, hi float64, open bool) func(float64) bool {
	if open {
		return func(x float64) bool { return x > lo && x < hi }
	}
	return func(x float64) bool { return x >= lo && x <= hi }
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// The flags' domains, one place each.
func deltaFlag() *numFlag {
	return &numFlag{in: between(0, 1, true), domain: "a number in (0, 1), e.g. 1e-5"}
}
func epsFlag() *numFlag { return &numFlag{in: positive, domain: "a finite number > 0"} }
func sigmaFlag() *numFlag {
	return &numFlag{in: positive, domain: "a noise multiplier: a finite number > 0"}
}
func qFlag() *numFlag {
	return &numFlag{in: between(0, 1, false), domain: "a sampling rate in [0, 1]"}
}
func stepsFlag() *numFlag {
	return &numFlag{in: func(x float64) bool { return x >= 1 }, domain: "a whole number >= 1", count: true}
}

// need reports a flag that must be given.
func need(name string, f *numFlag, what string) error {
	if !f.set {
		return fmt.Errorf("missing -%s (%s)", name, what)
	}
	return nil
}

// ordersFlag parses a comma-separated list of orders ("1.5,2,4,inf"), or
// "grid" for dp_accounting's 156.
type ordersFlag struct{ orders []float64 }

func (o *ordersFlag) String() string {
	if o == nil || o.orders == nil {
		return ""
	}
	s := make([]string, len(o.orders))
	for i, a := range o.orders {
		s[i] = strconv.FormatFloat(a, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (o *ordersFlag) Set(v string) error {
	if v == "grid" {
		o.orders = nil // dp_accounting's 156
		return nil
	}
	var out []float64
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		a, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(a) {
			if !strings.Contains(v, ",") {
				return fmt.Errorf("want grid or a list of orders (e.g. 1.5,2,8,inf)")
			}
			return fmt.Errorf("order %q is not a number (use e.g. 1.5,2,8,inf)", f)
		}
		if !(a > 1) || (a > rdpcheck.MaxIntegerOrder && !math.IsInf(a, 1)) {
			return fmt.Errorf("order %v: want an order above 1 and at most %d, or inf", a, rdpcheck.MaxIntegerOrder)
		}
		out = append(out, a)
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

// bestOrdersFlag parses "best" (the default: the search of
// fast.BestEpsilon over (1, 2^20] and +Inf), "grid" (dp_accounting's 156
// orders) or a comma-separated list of orders.
type bestOrdersFlag struct {
	list ordersFlag
	mode string // "best", "grid" or "list"
}

func (b *bestOrdersFlag) String() string {
	if b == nil || b.mode == "" {
		return "best"
	}
	if b.mode == "list" {
		return b.list.String()
	}
	return b.mode
}

func (b *bestOrdersFlag) Set(v string) error {
	switch v {
	case "best", "grid":
		b.mode = v
		return nil
	}
	if err := b.list.Set(v); err != nil {
		if !strings.Contains(v, ",") {
			if _, perr := strconv.ParseFloat(v, 64); perr != nil {
				return errors.New("want best, grid or a list of orders (e.g. 1.5,2,8,inf)")
			}
		}
		return err
	}
	b.mode = "list"
	return nil
}

// best reports whether the search is on.
func (b *bestOrdersFlag) best() bool { return b.mode == "" || b.mode == "best" }

// orders returns the fixed orders (nil when the search is on).
func (b *bestOrdersFlag) orders() []float64 {
	if b.best() {
		return nil
	}
	return b.list.get() // the grid when no list was given
}

// bestRange says what the search covers, as the commands print it.
var bestRange = fmt.Sprintf("best order in (1, %d] and +Inf", rdpcheck.MaxIntegerOrder)

// describe says which orders were used.
func (b *bestOrdersFlag) describe() string {
	switch {
	case b.best():
		return bestRange
	case b.mode == "grid":
		return "dp_accounting's 156 orders"
	}
	if len(b.list.orders) == 1 {
		return "1 order"
	}
	return fmt.Sprintf("%d orders", len(b.list.orders))
}

const ordersUsage = "RDP orders: best (the default: the least eps over every order in (1, 2^20] and +Inf, to 1e-6 relative), grid (dp_accounting's 156 orders only, as its RdpAccountant), or a comma-separated list (e.g. 1.5,2,4,8,inf)"

// convFlag parses the conversion's name.
type convFlag struct{ conv fast.Conversion }

func (c *convFlag) String() string {
	if c == nil {
		return ""
	}
	return c.conv.String()
}

func (c *convFlag) Set(v string) error {
	switch v {
	case "improved":
		c.conv = fast.Improved
	case "classic":
		c.conv = fast.Classic
	default:
		return errors.New("want improved or classic")
	}
	return nil
}

// dpFlags are the flags of the commands that convert an RDP curve to
// (eps, delta): the target delta, the orders, the conversion and -json.
type dpFlags struct {
	delta  *numFlag
	orders bestOrdersFlag
	conv   convFlag
	json   bool
}

func (d *dpFlags) register(fs *flag.FlagSet) {
	d.delta = deltaFlag()
	fs.Var(d.delta, "delta", "target delta in (0, 1)")
	d.registerConversion(fs)
}

// registerConversion registers the flags but -delta: the orders, the
// conversion and -json.
func (d *dpFlags) registerConversion(fs *flag.FlagSet) {
	fs.Var(&d.orders, "orders", ordersUsage)
	d.conv = convFlag{fast.Improved}
	fs.Var(&d.conv, "conv", "RDP to DP conversion: improved (Canonne-Kamath-Steinke 2020) or classic (Mironov 2017)")
	fs.BoolVar(&d.json, "json", false, "print JSON")
}

// sgmFlags are the sampled Gaussian's parameters, given directly
// (-q, -steps) or as TF Privacy's compute_dp_sgd_privacy takes them
// (-n, -batch, -epochs: q = batch/n, steps = ceil(epochs n / batch)).
// The same rules read a -phase's keys (q=, n=, ...): key names them.
type sgmFlags struct {
	q, n, batch, epochs, steps *numFlag
	// key words a parameter in messages: "-q" for a flag (nil), "q=" for
	// a key of -phase.
	key func(name string) string
}

func (s *sgmFlags) register(fs *flag.FlagSet, withSteps bool) {
	s.init()
	fs.Var(s.q, "q", "Poisson sampling rate in [0, 1] (or give -n and -batch)")
	fs.Var(s.n, "n", "dataset size, with -batch: q = batch/n")
	fs.Var(s.batch, "batch", "expected batch size (the batch size with -sampling wor), with -n")
	if withSteps {
		fs.Var(s.steps, "steps", "number of steps, a whole number (1e4 is one) up to 2^40 (or give -epochs with -n and -batch)")
		fs.Var(s.epochs, "epochs", "epochs, with -n and -batch: steps = ceil(epochs*n/batch), from the numbers as typed")
	}
}

// init makes the parameters' flags, each with its domain.
func (s *sgmFlags) init() {
	s.q = qFlag()
	s.n = &numFlag{in: positive, domain: "a dataset size > 0"}
	s.batch = &numFlag{in: positive, domain: "an expected batch size > 0"}
	s.steps = stepsFlag()
	s.epochs = &numFlag{in: positive, domain: "a finite number of epochs > 0"}
}

// name words the parameter name in a message: "-q" or "q=".
func (s *sgmFlags) name(name string) string {
	if s.key == nil {
		return "-" + name
	}
	return s.key(name)
}

// value words the parameter with its value: "-n 100" or "n=100".
func (s *sgmFlags) value(name string, v float64) string {
	if s.key == nil {
		return fmt.Sprintf("-%s %v", name, v)
	}
	return fmt.Sprintf("%s%v", s.key(name), v)
}

// resolve fills q (and steps) from whichever form was given.
func (s *sgmFlags) resolve(withSteps bool) error {
	k := s.name
	if s.n.set || s.batch.set {
		if s.q.set {
			return fmt.Errorf("give either %s or %s with %s, not both", k("q"), k("n"), k("batch"))
		}
		if !s.n.set || !s.batch.set {
			return fmt.Errorf("give %s and %s together", k("n"), k("batch"))
		}
		if s.batch.v > s.n.v {
			return fmt.Errorf("%s is above %s: the batch is drawn from the dataset", s.value("batch", s.batch.v), s.value("n", s.n.v))
		}
		s.q.v, s.q.set = s.batch.v/s.n.v, true
		if withSteps && s.epochs.set {
			if s.steps.set {
				return fmt.Errorf("give either %s or %s, not both", k("steps"), k("epochs"))
			}
			t := epochSteps(s.epochs.rat(), s.n.rat(), s.batch.rat())
			if t > maxSteps {
				return fmt.Errorf("%s with %s and %s makes %.4g steps: at most 2^40", s.value("epochs", s.epochs.v), s.value("n", s.n.v), s.value("batch", s.batch.v), t)
			}
			s.steps.v, s.steps.set = t, true
		}
	}
	if withSteps && s.epochs.set && !s.n.set {
		return fmt.Errorf("%s needs %s and %s", k("epochs"), k("n"), k("batch"))
	}
	if !s.q.set {
		return fmt.Errorf("missing %s (the sampling rate), or %s and %s", k("q"), k("n"), k("batch"))
	}
	if withSteps && !s.steps.set {
		return fmt.Errorf("missing %s (a whole number >= 1), or %s with %s and %s", k("steps"), k("epochs"), k("n"), k("batch"))
	}
	return nil
}

// epochSteps is ceil(epochs n / batch), computed exactly from the values
// as typed: 1.1 epochs of 50000 records in batches of 500 are 110 steps
// (in float64, 1.1 x 50000/500 is above 110, and its ceiling 111).
func epochSteps(epochs, n, batch *big.Rat) float64 {
	r := new(big.Rat).Mul(epochs, n)
	r.Quo(r, batch)
	steps, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		steps.Add(steps, big.NewInt(1))
	}
	f, _ := new(big.Float).SetInt(steps).Float64() // exact up to 2^53, and only up to 2^40 is taken
	return f
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

// parse parses args, which are flags only; it returns the exit status to
// use, or -1 to go on.
func parse(fs *flag.FlagSet, args []string) int {
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		return usageError(fs.Output(), fs.Name(), fmt.Sprintf("unexpected argument %q (flags start with -)", fs.Arg(0)))
	}
	return -1
}

// parseFlags parses the flags of args; it returns the exit status to use,
// or -1 to go on. A flag error is one line and a pointer to -h, not the
// whole usage. A flag given twice is refused unless it takes a list
// (a repeatable flag): package flag would keep the last value silently.
// parseFlags may be called again on the rest of the arguments: a flag
// given in an earlier call counts.
func parseFlags(fs *flag.FlagSet, args []string) int {
	stderr := fs.Output()
	usage := fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var twice *onceValue
	given := map[string]string{} // flag name: its first value
	fs.Visit(func(f *flag.Flag) { given[f.Name] = f.Value.String() })
	fs.VisitAll(func(f *flag.Flag) {
		if r, ok := f.Value.(repeatable); !ok || !r.repeatable() {
			f.Value = &onceValue{Value: f.Value, name: f.Name, given: given, twice: &twice}
		}
	})
	err := fs.Parse(args)
	// Unwrapped again: -h's listing reads the flags' own types.
	fs.VisitAll(func(f *flag.Flag) {
		if o, ok := f.Value.(*onceValue); ok {
			f.Value = o.Value
		}
	})
	fs.SetOutput(stderr)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return 0
	case twice != nil:
		return usageError(stderr, fs.Name(), twice.message())
	case err != nil:
		return usageError(stderr, fs.Name(), flagMessage(err))
	}
	return -1
}

// repeatable is a flag that may be given more than once: each use adds
// to a list (-phase, -mech, -delta 1e-5 -delta 1e-6).
type repeatable interface{ repeatable() bool }

// onceValue is a flag's value while parsing, refusing a second use.
type onceValue struct {
	flag.Value
	name   string
	given  map[string]string // the flags given so far, with their first value
	twice  **onceValue       // set to the flag given twice
	second string            // its second value
}

func (o *onceValue) Set(v string) error {
	if _, ok := o.given[o.name]; ok {
		*o.twice, o.second = o, v
		return errors.New("given twice")
	}
	if err := o.Value.Set(v); err != nil {
		return err
	}
	o.given[o.name] = v
	return nil
}

// IsBoolFlag keeps a boolean flag one that takes no value.
func (o *onceValue) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// message words the refusal: both values, which the user may not have
// noticed giving.
func (o *onceValue) message() string {
	if o.IsBoolFlag() {
		return fmt.Sprintf("-%s given twice: give it once", o.name)
	}
	return fmt.Sprintf("-%s given twice (%s, then %s): give it once", o.name, o.given[o.name], o.second)
}

// usageError prints a usage error in one line, then where the usage is,
// and returns exit status 2.
func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "rdpcheck %s: %s\nrun 'rdpcheck %s -h' for usage\n", cmd, msg, cmd)
	return 2
}

var (
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-(\S+): (.*)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// flagMessage words an error of package flag for the user: the flag, the
// value given and what is accepted.
func flagMessage(err error) string {
	s := err.Error()
	if m := flagUndefined.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("unknown flag -%s", m[1])
	}
	if m := flagBadValue.FindStringSubmatch(s); m != nil {
		why := m[3]
		if why == "parse error" {
			why = "want true or false"
		}
		return fmt.Sprintf("-%s %s: %s", m[2], m[1], why)
	}
	if m := flagNoValue.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("-%s needs a value", m[1])
	}
	return s
}

// fail reports an error a person can act on and returns exit status 1.
func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "rdpcheck %s: %s\n", cmd, userMessage(err))
	return 1
}

// userMessage words a library error for the user, without Go package or
// function names: an InputError as "arg = value: what it must be".
func userMessage(err error) string { return wording.Wording{}.Message(err) }

// roundUpDigits is the least number of n significant digits >= x > 0,
// as the float64 that prints as those digits (itself >= x), so that a
// printed upper bound stays one.
func roundUpDigits(x float64, n int) float64 { return roundDigits(x, n, 1) }

// roundDownDigits is the greatest number of n significant digits <= x
// (x > 0), as the float64 that prints as those digits (itself <= x).
func roundDownDigits(x float64, n int) float64 { return roundDigits(x, n, -1) }

func roundDigits(x float64, n int, dir float64) float64 {
	if !(x > 0) || math.IsInf(x, 1) {
		return x
	}
	p, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', n-1, 64), 64)
	for i := 0; (dir > 0 && p < x) || (dir < 0 && p > x); i++ {
		if i == 4 {
			return x // not expected: x itself is a bound in the direction asked
		}
		// one unit in x's n-th digit in the direction asked (x's, not
		// p's: p may have rounded up to the next power of ten)
		p, _ = strconv.ParseFloat(strconv.FormatFloat(p+dir*digitUnit(x, n), 'e', n-1, 64), 64)
	}
	return p
}

// digitUnit is one unit in the n-th significant digit of x > 0, and at
// least the least float64 above 0. The decimal exponent is read from x's
// shortest decimal form, which never rounds across a power of ten:
// math.Log10 of a subnormal is wrong on amd64 (golang/go#56600), which
// once rounded 5.8558572761e-312 up to 5.855867276e-312, not 5.855857277e-312.
func digitUnit(x float64, n int) float64 {
	s := strconv.FormatFloat(x, 'e', -1, 64)
	exp, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	unit, _ := strconv.ParseFloat(fmt.Sprintf("1e%d", exp-(n-1)), 64)
	return max(unit, math.SmallestNonzeroFloat64)
}

// bound prints an upper bound (eps, delta, RDP) to 10 significant digits,
// rounded up, so that the printed number is still an upper bound.
func bound(x float64) string { return formatDigits(roundUpDigits(x, boundDigits)) }

// formatDigits prints a value rounded by roundUpDigits or roundDownDigits
// with the digits it has.
func formatDigits(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
