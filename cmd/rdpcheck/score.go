package main

// rdpcheck score: grade another implementation's answers against a vector
// file, group by group.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

const scoreDoc = `Grades another implementation's answers to a vector file, group by group:
how many tests it answered, the max and RMS relative error, how many values
are below the truth (unsafe for a privacy accountant), negative, NaN or
infinite, valid inputs it rejected and invalid inputs it accepted, and the
worst tcIds. A group fails when an answer's relative error exceeds the
group's tolerance, a valid input is rejected or an invalid one accepted;
the exit status is 1 if any group fails (unanswered tests do not fail a
group unless -complete is given).

Answers (one file per FILE argument, "-" for standard input; each scored on
its own), either JSON lines
  {"tcId": 17, "value": 0.0123}          value: a number, or "inf", "-inf", "nan"
  {"tcId": 18, "error": "sigma < 0"}     the input was rejected
  {"tcId": 19, "value": 2.4, "order": 8} order (optional): the order chosen
or CSV lines tcId,value[,order] with value a number (decimal or hex), inf,
nan, or a word starting with "error" for a rejected input; a header line
and lines starting with # are skipped. Python's json.dumps output (NaN,
Infinity) is accepted. examples/run_vectors.py writes such a file.

examples:
  rdpcheck score -vectors sgm_rdp.json answers.jsonl
  rdpcheck score -vectors tfprivacy/sgm_rdp.json -group tfprivacy_2019 answers.csv
  rdpcheck score -vectors ./my_vectors.json -tolerance 1e-9 answers.jsonl`

func init() {
	register(command{name: "score", summary: "grade another implementation's answers against a vector file", run: runScore})
}

func runScore(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("score", scoreDoc, stderr)
	vecName := fs.String("vectors", "", "the vector `file` the answers are for: a name from vectors/ (e.g. sgm_rdp.json, tfprivacy/sgm_rdp.json) or a path")
	format := fs.String("format", "auto", "answers' `format`: jsonl, csv, or auto (by extension, else by the first line)")
	tol := fs.Float64("tolerance", 0, "grade every group at this relative `tolerance` instead of its own")
	worstN := fs.Int("worst", 3, "how many worst tcIds to list per group (at most 20)")
	group := fs.String("group", "", "grade only the groups whose name contains this `text`")
	complete := fs.Bool("complete", false, "fail a group that has unanswered tests")
	// The files come after the flags; split them off so that parse sees
	// flags only.
	flagArgs, files := splitFiles(args)
	if st := parse(fs, flagArgs); st >= 0 {
		return st
	}
	if *vecName == "" || len(files) == 0 {
		fmt.Fprintln(stderr, "rdpcheck score: need -vectors FILE and at least one answers FILE (see -h)")
		return 2
	}
	vf, err := loadVectors(*vecName)
	if err != nil {
		return fail(stderr, "score", err)
	}
	status := 0
	for i, path := range files {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		ans, err := readAnswers(path, *format, stdin)
		if err != nil {
			return fail(stderr, "score", fmt.Errorf("%s: %w", path, err))
		}
		rep, err := scoreAnswers(vf, ans, scoreOptions{tolerance: *tol, group: *group, complete: *complete})
		if err != nil {
			return fail(stderr, "score", fmt.Errorf("%s: %w", path, err))
		}
		rep.print(stdout, path, *vecName, *worstN)
		if rep.failed() {
			status = 1
		}
	}
	return status
}

// stdin is where "-" reads from; a variable so that tests can set it.
var stdin io.Reader = os.Stdin

// splitFiles separates flags (with their values) from the answer files,
// so that flags may also follow the files.
func splitFiles(args []string) (flags, files []string) {
	boolFlags := map[string]bool{"complete": true, "h": true, "help": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && !boolFlags[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, files
}

// loadVectors reads a vector file from disk if the path exists, else from
// the embedded vectors.
func loadVectors(name string) (*schema.File, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = fs.ReadFile(vectors.FS, strings.TrimPrefix(name, "vectors/"))
		if err != nil {
			return nil, fmt.Errorf("no vector file %q (embedded files: %s)", name, strings.Join(vectors.Names(), ", "))
		}
	} else if err != nil {
		return nil, err
	}
	if errs := schema.Lint(data); len(errs) > 0 {
		return nil, fmt.Errorf("%s is not a valid vector file: %v", name, errs[0])
	}
	return schema.Parse(data)
}

// answer is one line of an answers file.
type answer struct {
	value    float64
	rejected bool
	order    float64 // NaN if not given
	line     int
}

var pythonNonFinite = regexp.MustCompile(`(:\s*)(-?Infinity|NaN)(\s*[,}])`)

func readAnswers(path, format string, stdin io.Reader) (map[int]answer, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	if format == "auto" {
		format = "csv"
		switch {
		case strings.HasSuffix(path, ".csv"):
		case strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".jsonl"):
			format = "jsonl"
		case bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
			format = "jsonl"
		}
	}
	out := map[int]answer{}
	add := func(n int, id int, a answer) error {
		if _, dup := out[id]; dup {
			return fmt.Errorf("line %d: tcId %d answered twice", n, id)
		}
		a.line = n
		out[id] = a
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch format {
		case "jsonl":
			id, a, err := parseJSONAnswer(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			if err := add(n, id, a); err != nil {
				return nil, err
			}
		case "csv":
			fields := strings.Split(line, ",")
			id, err := strconv.Atoi(strings.TrimSpace(fields[0]))
			if err != nil {
				if n == 1 || len(out) == 0 {
					continue // a header line
				}
				return nil, fmt.Errorf("line %d: tcId %q is not an integer", n, fields[0])
			}
			if len(fields) < 2 || len(fields) > 3 {
				return nil, fmt.Errorf("line %d: want tcId,value[,order]", n)
			}
			a, err := parseValue(strings.TrimSpace(fields[1]))
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			a.order = math.NaN()
			if len(fields) == 3 && strings.TrimSpace(fields[2]) != "" {
				if a.order, err = schema.ParseFloat(strings.TrimSpace(fields[2])); err != nil {
					return nil, fmt.Errorf("line %d: order: %v", n, err)
				}
			}
			if err := add(n, id, a); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown format %q (want jsonl, csv or auto)", format)
		}
	}
	return out, sc.Err()
}

// parseValue reads a value field: a number (decimal, hex, inf, nan in any
// common spelling) or an error word.
func parseValue(s string) (answer, error) {
	if s == "" || strings.HasPrefix(strings.ToLower(s), "error") {
		return answer{rejected: true}, nil
	}
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity", "+infinity":
		return answer{value: math.Inf(1)}, nil
	case "-inf", "-infinity":
		return answer{value: math.Inf(-1)}, nil
	case "nan":
		return answer{value: math.NaN()}, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return answer{}, fmt.Errorf("value %q is not a number", s)
	}
	return answer{value: x}, nil
}

func parseJSONAnswer(line string) (int, answer, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &raw); err != nil {
		// Python's json.dumps writes NaN and Infinity bare.
		fixed := pythonNonFinite.ReplaceAllString(line, `$1"$2"$3`)
		if err2 := json.Unmarshal([]byte(fixed), &raw); err2 != nil {
			return 0, answer{}, err
		}
	}
	var id int
	if err := json.Unmarshal(raw["tcId"], &id); err != nil {
		return 0, answer{}, fmt.Errorf(`"tcId" must be an integer`)
	}
	a := answer{order: math.NaN()}
	v, hasV := raw["value"]
	_, hasE := raw["error"]
	switch {
	case hasE && (!hasV || string(v) == "null"):
		a.rejected = true
	case hasV && string(v) != "null":
		var s string
		if json.Unmarshal(v, &s) == nil {
			b, err := parseValue(s)
			if err != nil {
				return 0, a, err
			}
			a.value, a.rejected = b.value, b.rejected
		} else if err := json.Unmarshal(v, &a.value); err != nil {
			return 0, a, fmt.Errorf("value %s: %v", v, err)
		}
	default:
		return 0, a, fmt.Errorf(`need "value" or "error"`)
	}
	if o, ok := raw["order"]; ok && string(o) != "null" {
		var s string
		if json.Unmarshal(o, &s) == nil {
			b, err := parseValue(s)
			if err != nil {
				return 0, a, fmt.Errorf("order: %v", err)
			}
			a.order = b.value
		} else if err := json.Unmarshal(o, &a.order); err != nil {
			return 0, a, fmt.Errorf("order %s: %v", o, err)
		}
	}
	return id, a, nil
}

type scoreOptions struct {
	tolerance float64
	group     string
	complete  bool
}

// groupScore is one group's grade.
type groupScore struct {
	name, function  string
	tolerance       float64
	tests, answered int
	maxRel, sumSq   float64
	finite          int // answers with a finite relative error (for RMS)
	below, negative int
	nan, inf        int
	rejectedValid   int // valid inputs rejected
	acceptedInvalid int // invalid inputs given a value
	overTolerance   int
	valued          int // numeric answers to valid and acceptable tests
	orderDiffers    int
	unanswered      int
	worst           []worstCase // the worst answers, at most maxWorst
	complete        bool
}

// maxWorst bounds the worst cases kept per group (-worst may ask fewer).
const maxWorst = 20

type worstCase struct {
	id       int
	rel      float64
	got      float64
	want     string
	rejected bool
	comment  string
}

func (g *groupScore) failed() bool {
	return g.overTolerance > 0 || g.rejectedValid > 0 || g.acceptedInvalid > 0 || (g.complete && g.unanswered > 0)
}

type report struct {
	groups  []*groupScore
	tests   int
	unknown []int
}

func (r *report) failed() bool {
	for _, g := range r.groups {
		if g.failed() {
			return true
		}
	}
	return false
}

func scoreAnswers(f *schema.File, ans map[int]answer, opt scoreOptions) (*report, error) {
	r := &report{tests: f.NumberOfTests}
	known := map[int]bool{}
	for _, g := range f.TestGroups {
		for _, t := range g.Tests {
			known[t.TcID] = true
		}
	}
	for id := range ans {
		if !known[id] {
			r.unknown = append(r.unknown, id)
		}
	}
	sort.Ints(r.unknown)
	if len(r.unknown) > 0 {
		return nil, fmt.Errorf("answers for tcIds the vector file does not have: %v (is -vectors the file these answers are for?)", head(r.unknown, 10))
	}
	for _, g := range f.TestGroups {
		if opt.group != "" && !strings.Contains(g.Name, opt.group) {
			continue
		}
		gs := &groupScore{name: g.Name, function: g.Function, tolerance: g.RelativeTolerance, tests: len(g.Tests), complete: opt.complete}
		if opt.tolerance > 0 {
			gs.tolerance = opt.tolerance
		}
		var cases []worstCase
		for _, t := range g.Tests {
			a, ok := ans[t.TcID]
			if !ok {
				gs.unanswered++
				continue
			}
			gs.answered++
			if t.Result == schema.Invalid {
				if !a.rejected {
					gs.acceptedInvalid++
					cases = append(cases, worstCase{id: t.TcID, rel: math.Inf(1), got: a.value, want: "a rejection", comment: t.Comment})
				}
				continue
			}
			if a.rejected {
				if t.Result == schema.Valid {
					gs.rejectedValid++
					cases = append(cases, worstCase{id: t.TcID, rel: math.Inf(1), rejected: true, want: t.Expected, comment: t.Comment})
				}
				continue
			}
			want, err := t.ExpectedValue()
			if err != nil {
				return nil, fmt.Errorf("tcId %d: %v", t.TcID, err)
			}
			rel := schema.RelativeError(a.value, want)
			gs.valued++
			switch {
			case math.IsNaN(a.value):
				gs.nan++
			case math.IsInf(a.value, 0) && !want.IsInf():
				gs.inf++
			}
			if a.value < 0 {
				gs.negative++
			}
			if schema.Below(a.value, want) {
				gs.below++
			}
			if !(rel <= gs.tolerance) {
				gs.overTolerance++
			}
			if !math.IsInf(rel, 0) {
				gs.finite++
				gs.sumSq += rel * rel
			}
			if rel > gs.maxRel || math.IsNaN(a.value) {
				gs.maxRel = math.Max(gs.maxRel, rel)
			}
			if t.ExpectedOrder != "" && !math.IsNaN(a.order) {
				if o, _ := schema.ParseFloat(t.ExpectedOrder); o != a.order {
					gs.orderDiffers++
				}
			}
			cases = append(cases, worstCase{id: t.TcID, rel: rel, got: a.value, want: t.Expected, comment: t.Comment})
		}
		sort.SliceStable(cases, func(i, j int) bool { return cases[i].rel > cases[j].rel })
		for _, c := range cases {
			if c.rel == 0 || len(gs.worst) == maxWorst {
				break
			}
			gs.worst = append(gs.worst, c)
		}
		r.groups = append(r.groups, gs)
	}
	if opt.group != "" && len(r.groups) == 0 {
		return nil, fmt.Errorf("no group name contains %q", opt.group)
	}
	return r, nil
}

func head(x []int, n int) []int {
	if len(x) > n {
		return x[:n]
	}
	return x
}

// fmtRel writes a relative error with two significant digits.
func fmtRel(x float64) string { return schema.Format(x, 'e', 1) }

func (r *report) print(w io.Writer, path, vec string, worstN int) {
	answered, groupsFailed := 0, 0
	for _, g := range r.groups {
		answered += g.answered
		if g.failed() {
			groupsFailed++
		}
	}
	fmt.Fprintf(w, "score %s against %s: %d of %d tests answered, %d of %d groups fail\n\n", path, vec, answered, r.tests, groupsFailed, len(r.groups))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "group\tanswered\tmax rel\tRMS rel\ttolerance\tbelow truth\tnegative\tNaN\tinf\trejected valid\taccepted invalid\tstatus\tworst tcIds\t")
	for _, g := range r.groups {
		rms := "-"
		if g.finite > 0 {
			rms = fmtRel(math.Sqrt(g.sumSq / float64(g.finite)))
		}
		maxRel := "-"
		if g.valued > 0 {
			maxRel = fmtRel(g.maxRel)
		}
		status := "ok"
		switch {
		case g.failed():
			status = "FAIL"
		case g.answered == 0:
			status = "-"
		}
		var ids []string
		for _, c := range g.worst[:min(worstN, len(g.worst))] {
			ids = append(ids, strconv.Itoa(c.id))
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%g\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", g.name, g.answered, g.tests, maxRel, rms, g.tolerance,
			g.below, g.negative, g.nan, g.inf, g.rejectedValid, g.acceptedInvalid, status, strings.Join(ids, " "))
	}
	tw.Flush()
	first := true
	for _, g := range r.groups {
		if !g.failed() {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nworst cases of the failing groups:")
			first = false
		}
		fmt.Fprintf(w, "  %s:", g.name)
		if g.overTolerance > 0 {
			fmt.Fprintf(w, " %d beyond tolerance %g", g.overTolerance, g.tolerance)
		}
		if g.complete && g.unanswered > 0 {
			fmt.Fprintf(w, " %d unanswered", g.unanswered)
		}
		fmt.Fprintln(w)
		for _, c := range g.worst[:min(worstN, len(g.worst))] {
			switch {
			case c.rejected:
				fmt.Fprintf(w, "    tcId %d (%s): rejected, want %s\n", c.id, c.comment, c.want)
			case c.want == "a rejection":
				fmt.Fprintf(w, "    tcId %d (%s): %v, want a rejection (invalid input)\n", c.id, c.comment, c.got)
			default:
				fmt.Fprintf(w, "    tcId %d (%s): %v, want %s (relative error %s)\n", c.id, c.comment, c.got, c.want, fmtRel(c.rel))
			}
		}
	}
	for _, g := range r.groups {
		if g.orderDiffers > 0 {
			fmt.Fprintf(w, "\nnote: %s: %d answers chose another order than the reference (informative, not graded)\n", g.name, g.orderDiffers)
		}
	}
}
