package main

// rdpcheck score: grade another implementation's answers against a vector
// file, group by group.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

const scoreDoc = `Grades another implementation's answers to a vector file, group by group:
how many tests it answered, the max and RMS relative error, how many values
are below the truth (unsafe for a privacy accountant), negative, NaN or
infinite, valid inputs it rejected and invalid inputs it accepted, and the
worst tcIds. Unsupported answers are counted and never fail a group; a hang
and a crash are outcomes of their own and fail it (a crash is never a
rejection). Where a conversion test flags a valid
shortcut below the formula's value, an answer between the two counts as
"tighter valid", not below the truth. A group fails when an answer's
relative error exceeds the group's tolerance, a valid input is rejected, an
invalid one accepted, a test hangs or crashes, or the adapter errs. A group with no answer is
"unanswered", and one whose answers all say unsupported is "unsupported":
neither passes. In every mode (a file, -all, -report) the exit status is 1
if any group fails or no graded test has an answer other than unsupported
(answers that answer nothing pass nothing), 0 otherwise, and 2 for a usage
error; -report writes its report either way;
an answers file with no answer to the graded tests is an error. Unanswered
tests do not fail a group unless -complete is given.

Answers (one file per FILE argument, "-" for standard input; each scored on
its own), either JSON lines
  {"tcId": 17, "value": 0.0123}          value: a number, or "inf", "-inf", "nan"
  {"tcId": 18, "error": "sigma < 0"}     the input was rejected
  {"tcId": 19, "value": 2.4, "order": 8} order (optional): the order chosen
  {"tcId": 20, "unsupported": true}      not implemented (also an error
                                         starting "NotImplementedError")
  {"tcId": 21, "hang": true}             stopped at the runner's time limit
  {"tcId": 22, "crashed": "signal SIGSEGV"}  the process died (or true)
or CSV lines tcId,value[,order] with value a number (decimal or hex), inf,
nan, a word starting with "error" for a rejected input, "unsupported",
"hang" or "crashed"; a header line and lines starting with # are skipped. Python's
json.dumps output (NaN, Infinity) is accepted. examples/run_vectors.py
writes such a file.

examples:
  rdpcheck score -vectors sgm_rdp.json answers.jsonl
  rdpcheck score -vectors tfprivacy/dpsgd_epsilon.json -group improved answers.csv
  rdpcheck score -vectors ./my_vectors.json -tolerance 1e-9 answers.jsonl
  rdpcheck score -all peers/accountants/answers/opacus_1_5_4
  rdpcheck score -digests embedded > DIR/digests.txt   beside new answers
  rdpcheck score -report peers/accountants/answers/opacus_1_5_4

-all and -report check each answered tcId against DIR/digests.txt (or
DIR/../digests.txt): the digest of the inputs of the test it was made for
(-all only when the file exists, with a note on standard error when it
does not). Answers to a tcId that now asks something else are refused.`

func init() {
	register(command{name: "score", summary: "grade another implementation's answers against a vector file", run: runScore})
}

func runScore(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("score", scoreDoc, stderr)
	vecName := fs.String("vectors", "", "the vector `file` the answers are for: a name from vectors/ (e.g. sgm_rdp.json, tfprivacy/sgm_rdp.json) or a path")
	format := "auto"
	fs.Func("format", "answers' `format`: jsonl, csv, or auto (by extension, else by the first line) (default auto)", func(v string) error {
		if v != "jsonl" && v != "csv" && v != "auto" {
			return errors.New("want jsonl, csv or auto")
		}
		format = v
		return nil
	})
	var tol float64
	fs.Func("tolerance", "grade every group at this relative `tolerance`, in (0, 1), instead of its own", func(v string) error {
		t, err := strconv.ParseFloat(v, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return errors.New("want a number in (0, 1), e.g. 1e-9")
		}
		if !(t > 0 && t < 1) {
			return errors.New("want a relative tolerance in (0, 1), e.g. 1e-9 (leave -tolerance out for each group's own)")
		}
		tol = t
		return nil
	})
	worstN := 3
	fs.Func("worst", fmt.Sprintf("how many worst tcIds to list per group, 0 to %d (default 3)", score.MaxWorst), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > score.MaxWorst {
			return fmt.Errorf("want an integer from 0 to %d", score.MaxWorst)
		}
		worstN = n
		return nil
	})
	var group string
	fs.Func("group", "grade only the groups whose name contains this `text`", func(v string) error {
		if v == "" {
			return errors.New("want some text of a group's name")
		}
		group = v
		return nil
	})
	complete := fs.Bool("complete", false, "fail a group that has unanswered tests")
	all := fs.String("all", "", "grade every vector file for which `DIR` holds answers: DIR/NAME.jsonl or DIR/NAME.csv for vector file NAME.json (e.g. DIR/sgm_rdp.jsonl, DIR/tfprivacy/sgm_rdp.jsonl); an answers file there for no vector file is refused")
	report := fs.String("report", "", "write `DIR`/REPORT.md, the conformance report of the answers in DIR (as -all finds them), refusing answers whose tcIds no longer mean the tests of DIR/digests.txt (or DIR/../digests.txt)")
	digests := fs.String("digests", "", "print the test digests of the vector files in `VECDIR` (\"embedded\": today's), for a digests.txt beside answers")
	// The files come after the flags; split them off so that parse sees
	// flags only.
	flagArgs, files := splitFiles(args)
	if st := parseFlags(fs, flagArgs); st >= 0 {
		return st
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"vectors", "all", "report", "digests"} {
		if set[name] && fs.Lookup(name).Value.String() == "" {
			return usageError(stderr, "score", fmt.Sprintf("-%s needs a value", name))
		}
	}
	// Each mode takes its own flags; one given to another mode would be
	// silently ignored, so it is refused.
	modeFlags := func(mode string, allowed ...string) string {
		var extra []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != mode && !slices.Contains(allowed, f.Name) {
				extra = append(extra, "-"+f.Name)
			}
		})
		if len(files) > 0 {
			extra = append(extra, "answers files")
		}
		if len(extra) == 0 {
			return ""
		}
		return fmt.Sprintf("-%s takes no %s", mode, strings.Join(extra, ", "))
	}
	opt := score.Options{Tolerance: tol, Group: group, Complete: *complete}
	switch {
	case set["digests"]:
		if msg := modeFlags("digests"); msg != "" {
			return usageError(stderr, "score", msg+" (it prints the digests of the vector files in VECDIR)")
		}
		return writeDigests(*digests, stdout, stderr)
	case set["report"]:
		if msg := modeFlags("report", "format", "tolerance", "group", "complete"); msg != "" {
			return usageError(stderr, "score", msg+" (it grades the answers in DIR)")
		}
		return writeReport(*report, format, opt, stdout, stderr)
	case set["all"]:
		if msg := modeFlags("all", "format", "tolerance", "group", "complete", "worst"); msg != "" {
			return usageError(stderr, "score", msg+" (it grades the answers in DIR)")
		}
		return scoreAll(*all, format, opt, worstN, stdout, stderr)
	}
	if *vecName == "" || len(files) == 0 {
		return usageError(stderr, "score", "need -vectors FILE and at least one answers FILE, or -all DIR, -report DIR or -digests VECDIR")
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
		rep, err := scoreFile(vf, *vecName, path, format, opt, nil)
		if err != nil {
			return fail(stderr, "score", err)
		}
		rep.Print(stdout, path, *vecName, worstN)
		if rep.Failed() {
			status = 1
		}
	}
	return status
}

// scoreFile reads the answers at path and grades them against the vector
// file vf (named name), after checking their digests if stored is not nil.
// Answers that answer none of the graded tests are an error: they pass
// nothing.
func scoreFile(vf *schema.File, name, path, format string, opt score.Options, stored score.Digests) (*score.Report, error) {
	ans, err := readAnswers(path, format, stdin)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(ans) == 0 {
		return nil, fmt.Errorf("%s holds no answers (want JSON lines {\"tcId\": N, \"value\": V} or CSV lines tcId,value; see -h)", path)
	}
	if stored != nil {
		if err := score.CheckDigests(name, vf, ans, stored); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	rep, err := score.Score(vf, ans, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if rep.Count().Answered == 0 {
		tests := 0
		for _, g := range rep.Groups {
			tests += g.Tests
		}
		if opt.Group != "" {
			return nil, answersNone(fmt.Sprintf("%s answers none of the %d tests of the groups of %s whose name contains %q (its answers are to other groups)", path, tests, name, opt.Group))
		}
		return nil, answersNone(fmt.Sprintf("%s answers none of the %d tests of %s", path, tests, name))
	}
	return rep, nil
}

// answersNone is the error of answers that answer none of the tests
// graded: a failure, never a pass.
type answersNone string

func (e answersNone) Error() string { return string(e) }

// scoreAll grades each embedded vector file for which dir holds answers,
// then sums up: one line per file. A file whose answers answer none of its
// graded tests is said so on standard error and fails.
func scoreAll(dir, format string, opt score.Options, worstN int, stdout, stderr io.Writer) int {
	type line struct {
		name string
		score.Counts
		tests int
	}
	var done []line
	status := 0
	if err := isDir("-all", dir); err != nil {
		return fail(stderr, "score", err)
	}
	// With DIR/digests.txt (or one beside DIR), answers made for other
	// tests are refused.
	stored, err := readDigests(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Graded all the same, but not silently unchecked.
		fmt.Fprintf(stderr, "rdpcheck score: note: no %s or %s: the answers are graded against today's tests without checking that each tcId still asks what it asked when they were made (write digests.txt with rdpcheck score -digests embedded when making the answers)\n",
			filepath.Join(dir, "digests.txt"), filepath.Join(filepath.Dir(filepath.Clean(dir)), "digests.txt"))
	case err != nil:
		return fail(stderr, "score", err)
	}
	names, paths, err := answerFiles(dir)
	if err != nil {
		return fail(stderr, "score", err)
	}
	for i, name := range names {
		path := paths[i]
		vf, err := vectors.Load(name)
		if err != nil {
			return fail(stderr, "score", err)
		}
		if opt.Group != "" && !hasGroup(vf, opt.Group) {
			continue // -group selects groups of some files only
		}
		tests := 0
		for _, g := range vf.TestGroups {
			if opt.Group == "" || strings.Contains(g.Name, opt.Group) {
				tests += len(g.Tests)
			}
		}
		rep, err := scoreFile(vf, name, path, format, opt, stored)
		switch {
		case errors.As(err, new(answersNone)):
			// Graded as nothing passed: said, summed up, and failed.
			fmt.Fprintf(stderr, "rdpcheck score: %v\n", err)
			done = append(done, line{name: name, tests: tests, Counts: score.Counts{Unanswered: groupsOf(vf, opt.Group)}})
			status = 1
			continue
		case err != nil:
			return fail(stderr, "score", err)
		}
		if len(done) > 0 {
			fmt.Fprintln(stdout)
		}
		rep.Print(stdout, path, name, worstN)
		done = append(done, line{name: name, tests: tests, Counts: rep.Count()})
		if rep.Failed() {
			status = 1
		}
	}
	if len(done) == 0 {
		fmt.Fprintf(stderr, "rdpcheck score: %s holds no answers to any vector file (want NAME.jsonl or NAME.csv for NAME.json in: %s)\n", dir, strings.Join(vectors.Names(), ", "))
		return 1
	}
	fmt.Fprintf(stdout, "\nsummary of %s:\n", dir)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "vector file\tanswered\tunsupported\thang\tcrashed\tgroups passing\tgroups failing\tgroups unanswered\tgroups unsupported\t")
	for _, l := range done {
		n := l.Passing + l.Failing + l.Unanswered + l.UnsupportedGroups
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t\n", l.name, l.Answered, l.tests, l.Unsupported, l.Hang, l.Crashed,
			l.Passing, n, l.Failing, n, l.Unanswered, n, l.UnsupportedGroups, n)
	}
	tw.Flush()
	return status
}

// groupsOf counts the groups of f whose name contains text ("" all).
func groupsOf(f *schema.File, text string) int {
	n := 0
	for _, g := range f.TestGroups {
		if strings.Contains(g.Name, text) {
			n++
		}
	}
	return n
}

// isDir says, in the words of the flag that named it, why dir is not a
// directory.
func isDir(flagName, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: no such directory", flagName, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %v", flagName, dir, userError(err))
	case !st.IsDir():
		return fmt.Errorf("%s %s: not a directory", flagName, dir)
	}
	return nil
}

// userError is an error of the file system without the system call's
// name ("open x: permission denied" is "permission denied").
func userError(err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	case errors.As(err, &pe):
		if pe.Err.Error() == "is a directory" {
			return errors.New("is a directory, not a file")
		}
		return pe.Err
	}
	return err
}

// answerFiles finds, for each embedded vector file, its answers in dir:
// DIR/NAME.jsonl or DIR/NAME.csv. An answers file under dir that answers no
// vector file (one the vectors no longer have, or a misspelt name), in DIR
// or a folder of the vectors (tfprivacy/), is an error: grading the others
// and passing over it would say nothing of it.
func answerFiles(dir string) (names, paths []string, err error) {
	folders := map[string]bool{".": true}
	for _, name := range vectors.Names() {
		folders[filepath.Dir(filepath.FromSlash(name))] = true
	}
	found := map[string]bool{} // answers files, relative to dir
	walkErr := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case e.IsDir() && !folders[rel]:
			return fs.SkipDir // not where answers to a vector file go
		case !e.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".csv")):
			found[rel] = true
		}
		return nil
	})
	if walkErr != nil {
		return nil, nil, userError(walkErr)
	}
	for _, name := range vectors.Names() {
		base := filepath.FromSlash(strings.TrimSuffix(name, ".json"))
		jsonl, csv := base+".jsonl", base+".csv"
		pick := csv
		if found[jsonl] {
			pick = jsonl // graded in place of a .csv beside it
		}
		if found[pick] {
			names, paths = append(names, name), append(paths, filepath.Join(dir, pick))
		}
		delete(found, jsonl)
		delete(found, csv)
	}
	if len(found) > 0 {
		strays := make([]string, 0, len(found))
		for rel := range found {
			strays = append(strays, filepath.Join(dir, rel))
		}
		slices.Sort(strays)
		return nil, nil, fmt.Errorf("%s: answers no vector file of this rdpcheck (want NAME.jsonl or NAME.csv for NAME.json in: %s); remove it, or grade it alone with -vectors FILE", strings.Join(strays, ", "), strings.Join(vectors.Names(), ", "))
	}
	return names, paths, nil
}

// writeDigests prints the digests of the vector files under dir (every
// .json but schema/), or of the embedded files.
func writeDigests(dir string, stdout, stderr io.Writer) int {
	fsys, source := os.DirFS(dir), dir
	if dir == "embedded" {
		fsys, source = vectors.FS, "the vector files of this rdpcheck"
	} else if err := isDir("-digests", dir); err != nil {
		return fail(stderr, "score", err)
	}
	// Errors name the file as the user knows it: under dir.
	where := func(p string) string {
		if dir == "embedded" {
			return p
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	d := score.Digests{}
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %v", where(p), userError(err))
		}
		if e.IsDir() || !strings.HasSuffix(p, ".json") || strings.HasPrefix(p, "schema/") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("%s: %v", where(p), userError(err))
		}
		f, err := schema.Parse(data)
		if err != nil {
			return fmt.Errorf("%s: %w", where(p), err)
		}
		d.Add(p, f)
		return nil
	})
	if err == nil && len(d) == 0 {
		err = fmt.Errorf("-digests %s: no vector files (NAME.json) under it", dir)
	}
	if err != nil {
		return fail(stderr, "score", err)
	}
	if err := d.Write(stdout, source); err != nil {
		return fail(stderr, "score", err)
	}
	return 0
}

// writeReport writes dir/REPORT.md (see buildReport).
// Its exit status is score's: 1 when the answers fail (after writing it).
func writeReport(dir, format string, opt score.Options, stdout, stderr io.Writer) int {
	rep, failed, err := buildReportStatus(dir, format, opt)
	if err != nil {
		return fail(stderr, "score", err)
	}
	out := filepath.Join(dir, "REPORT.md")
	if err := os.WriteFile(out, []byte(rep), 0o644); err != nil {
		return fail(stderr, "score", err)
	}
	fmt.Fprintln(stdout, "wrote", out)
	if failed {
		fmt.Fprintln(stdout, "the answers fail: some group fails, or nothing graded is answered (see the report)")
		return 1
	}
	return 0
}

// buildReport is the conformance report of the answers in dir: every
// answered vector file graded, after checking the answers' digests.
func buildReport(dir, format string, opt score.Options) (string, error) {
	rep, _, err := buildReportStatus(dir, format, opt)
	return rep, err
}

// buildReportStatus is buildReport, also saying whether the answers fail
// (as score.Report.Failed: a group fails, or nothing graded is answered).
func buildReportStatus(dir, format string, opt score.Options) (string, bool, error) {
	failed := false
	if err := isDir("-report", dir); err != nil {
		return "", false, err
	}
	stored, err := readDigests(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, fmt.Errorf("-report needs the digests of the tests the answers were made for, in %s or %s (write them with rdpcheck score -digests embedded when making the answers)", filepath.Join(dir, "digests.txt"), filepath.Join(filepath.Dir(filepath.Clean(dir)), "digests.txt"))
	case err != nil:
		return "", false, fmt.Errorf("-report: %w", err)
	}
	names, paths, err := answerFiles(dir)
	if err != nil {
		return "", false, err
	}
	if len(names) == 0 {
		return "", false, fmt.Errorf("%s holds no answers to any vector file (want NAME.jsonl or NAME.csv for NAME.json in: %s)", dir, strings.Join(vectors.Names(), ", "))
	}
	peer := filepath.Base(filepath.Clean(dir))
	var body strings.Builder
	var sum strings.Builder
	fmt.Fprintln(&sum, "| vector file | answered (not unsupported) | unsupported | hang | crashed | groups passing | groups failing | groups unanswered | groups unsupported |")
	fmt.Fprintln(&sum, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, name := range names {
		vf, err := vectors.Load(name)
		if err != nil {
			return "", false, err
		}
		if opt.Group != "" && !hasGroup(vf, opt.Group) {
			continue // -group selects groups of some files only
		}
		rep, err := scoreFile(vf, name, paths[i], format, opt, stored)
		if err != nil {
			return "", false, err
		}
		failed = failed || rep.Failed()
		c := rep.Count()
		n := len(rep.Groups)
		fmt.Fprintf(&sum, "| [%s](#%s) | %d/%d | %d | %d | %d | %d/%d | %d/%d | %d/%d | %d/%d |\n", name, anchor(name), c.Answered-c.Unsupported, rep.Tests, c.Unsupported, c.Hang, c.Crashed,
			c.Passing, n, c.Failing, n, c.Unanswered, n, c.UnsupportedGroups, n)
		rep.Markdown(&body, name, 5)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Conformance report: %s\n\n", peer)
	fmt.Fprintf(&b, "Generated by `rdpcheck score -report` on this directory; do not edit. ")
	fmt.Fprintf(&b, "Each answers file (`NAME.jsonl`) is graded against today's `vectors/NAME.json` by the judge of `rdpcheck score` (package vectors/score), ")
	fmt.Fprintf(&b, "after checking that every answered tcId is still the test it was made for (`digests.txt`). ")
	fmt.Fprintf(&b, "Relative errors are against the exact value; \"tighter valid\" answers lie between a valid shortcut's bound and the formula's value; unsupported answers (not implemented) never fail a group, a hang or a crash (the process died: no answer, never a rejection) always does, and a group with no answer (unanswered) or with unsupported answers only (unsupported) does not pass.\n\n")
	b.WriteString(sum.String())
	b.WriteString("\n")
	b.WriteString(body.String())
	return b.String(), failed, nil
}

// readDigests reads DIR/digests.txt, or the one shared by the answers
// directories beside DIR.
func readDigests(dir string) (score.Digests, error) {
	path := filepath.Join(dir, "digests.txt")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		path = filepath.Join(filepath.Dir(filepath.Clean(dir)), "digests.txt")
		data, err = os.ReadFile(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, userError(err))
	}
	d, err := score.ParseDigests(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// anchor is the GitHub heading anchor of a file name.
func anchor(s string) string {
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return -1
	}, s)
}

func hasGroup(f *schema.File, text string) bool {
	for _, g := range f.TestGroups {
		if strings.Contains(g.Name, text) {
			return true
		}
	}
	return false
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
		// An embedded file is linted by the vectors package's tests, as
		// -all and -report trust it; linting it again costs 0.1 s a run.
		vf, err := vectors.Load(strings.TrimPrefix(name, "vectors/"))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no vector file %q (embedded files: %s)", name, strings.Join(vectors.Names(), ", "))
		}
		return vf, err
	} else if err != nil {
		return nil, fmt.Errorf("-vectors %s: %v", name, userError(err))
	}
	if errs := schema.Lint(data); len(errs) > 0 {
		return nil, fmt.Errorf("%s is not a valid vector file: %v", name, errs[0])
	}
	return schema.Parse(data)
}

func readAnswers(path, format string, stdin io.Reader) (map[int]score.Answer, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, userError(err)
	}
	return score.Parse(data, path, format)
}
