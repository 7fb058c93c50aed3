// Command gen-vectors writes rdpcheck's golden test vectors and answers
// reference queries at a user's own points.
//
// Usage:
//
//	go run ./cmd/gen-vectors                  regenerate vectors/ (the main job)
//	go run ./cmd/gen-vectors -check           regenerate in memory; fail if vectors/ differs
//	go run ./cmd/gen-vectors -check -quick    the same for the fast subset CI runs
//	go run ./cmd/gen-vectors -cases FILE      answer JSON lines from FILE ("-" = stdin)
//	go run ./cmd/gen-vectors -cases FILE -format vectors
//	                                          the same answers as a vector file
//
// # Vectors
//
// With no arguments gen-vectors writes every reference-derived file under
// vectors/ (see vectors/README.md and vectors/schema): sgm_rdp.json,
// closed_forms.json, divergence.json, conversions.json, dpsgd.json,
// invalid_inputs.json and, from the peers' data in ../shared/tfprivacy,
// tfprivacy/sgm_rdp.json, tfprivacy/dpsgd_epsilon.json,
// tfprivacy/expectations.json and tfprivacy/FINDINGS.md. Paths are relative
// to the module root, wherever it is run from. Output is byte-identical on
// every run and machine. Every value is computed twice, with the reference
// at 256 and at 320 bits, and a value on which the two do not agree is not
// written (the run fails, naming it). Work runs on all cores; progress goes
// to standard error.
//
// -check regenerates in memory and exits 1 if any file differs from the
// one on disk, or if vectors/ holds a file the generator does not write.
// -check -quick is the subset CI runs: it regenerates every file's inputs,
// groups, flags, comments and structure and every value not built on SGM
// curves, but computes the SGM values (both precisions, and the oracle
// sample) only for every quickSample-th (q, sigma) pair in sorted order of
// those with at most 40 orders, plus the pairs conversions.json's inputs are
// made of; the tests reading other pairs take their values from the
// committed files. The result must still be byte-identical.
// -only NAME,NAME limits generation or checking to the named files.
//
// # Cases
//
// With -cases, each input line is either
//
//	{"q": Q, "sigma": S, "alpha": A}          A a number or "inf"
//	{"kind": "epsilon", "q": Q, "sigma": S, "steps": T, "delta": D, "orders": [...]}
//
// and the output has one line per input line, in order: the input object
// echoed with "reference" (the RDP of one step of the sampled Gaussian
// mechanism, a decimal string with 50 significant digits, or "inf") and
// "fast" (package fast's float64 value) added, or for epsilon lines
// "epsilon_reference" (improved conversion, floored at 0), "order",
// "epsilon_fast" and "order_fast"; or "error" with a message for inputs that
// are rejected. Lines are computed in parallel on all cores.
//
// With -cases FILE -format vectors the same inputs are written to standard
// output as one vector file in the schema of vectors/schema: RDP lines form
// the group "rdp" (function SGM), epsilon lines the group "epsilon"
// (function DPSGDEpsilon, improved conversion), tests in input order; each
// value is confirmed at 320 bits like the committed vectors, and inputs the
// reference rejects become tests with result "invalid". A line that is not
// a valid case is an error (exit 1).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// quickSample: -check -quick computes one (q, sigma) pair of SGM curves in
// this many (and every value not built on SGM curves).
const quickSample = 12

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gen-vectors", flag.ContinueOnError)
	fl.SetOutput(stderr)
	casesPath := fl.String("cases", "", "answer the JSON-lines `file` of cases (\"-\" for standard input) instead of writing vectors")
	format := fl.String("format", "jsonl", "with -cases: `jsonl` (one answer line per input line) or vectors (one vector file)")
	outDir := fl.String("out", "", "`directory` of the vector files (default: vectors/ in the module root)")
	tfDir := fl.String("tfprivacy", "", "`directory` of the peers' data (default: ../shared/tfprivacy beside the module root; \"none\" skips vectors/tfprivacy)")
	check := fl.Bool("check", false, "regenerate in memory and fail if any file on disk differs")
	quick := fl.Bool("quick", false, fmt.Sprintf("with -check: recompute the values of one (q, sigma) pair of SGM curves in %d, copy the others from the committed files", quickSample))
	only := fl.String("only", "", "comma-separated `names` of the files to generate or check (relative to vectors/)")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: gen-vectors [-check] [-quick | -only NAMES] [-out DIR] [-tfprivacy DIR]\n       gen-vectors -cases FILE [-format jsonl|vectors]\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "gen-vectors:", err)
		return 1
	}
	if *casesPath != "" {
		var r io.Reader = stdin
		if *casesPath != "-" {
			f, err := os.Open(*casesPath)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			r = f
		}
		var err error
		switch *format {
		case "jsonl":
			err = runCases(r, stdout)
		case "vectors":
			err = runCasesVectors(r, stdout, stderr)
		default:
			fl.Usage()
			return 2
		}
		if err != nil {
			return fail(err)
		}
		return 0
	}
	if *format != "jsonl" {
		fmt.Fprintln(stderr, "gen-vectors: -format goes with -cases")
		return 2
	}

	root, rootErr := moduleRoot()
	if *outDir == "" || *tfDir == "" {
		if rootErr != nil {
			return fail(fmt.Errorf("%v; pass -out and -tfprivacy", rootErr))
		}
	}
	if *outDir == "" {
		*outDir = filepath.Join(root, "vectors")
	}
	opt := options{tfDir: *tfDir}
	switch *tfDir {
	case "":
		opt.tfDir = filepath.Join(root, "..", "shared", "tfprivacy")
	case "none":
		opt.tfDir = ""
	}
	if *quick {
		if !*check {
			fmt.Fprintln(stderr, "gen-vectors: -quick goes with -check (it copies values from the committed files)")
			return 2
		}
		opt.sampleEvery, opt.committed = quickSample, *outDir
	}
	if *only != "" {
		names := strings.Split(*only, ",")
		opt.only = map[string]bool{}
		for _, n := range names {
			opt.only[filepath.ToSlash(strings.TrimSpace(n))] = true
		}
		if !opt.only["tfprivacy/sgm_rdp.json"] && !opt.only["tfprivacy/dpsgd_epsilon.json"] && !opt.only["tfprivacy/expectations.json"] && !opt.only[findingsName] {
			opt.tfDir = "" // the peers' data is not needed
		}
	}

	start := time.Now()
	files, err := generate(opt, stderr)
	if err != nil {
		return fail(err)
	}
	if opt.only != nil {
		for n := range opt.only {
			if _, ok := files[n]; !ok {
				return fail(fmt.Errorf("-only: no generated file %q", n))
			}
		}
	}
	if *check {
		return checkFiles(files, *outDir, opt.only == nil && opt.tfDir != "", start, stderr)
	}
	for _, name := range sortedKeys(files) {
		path := filepath.Join(*outDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stderr, "gen-vectors: wrote %s (%d bytes)\n", path, len(files[name]))
	}
	fmt.Fprintf(stderr, "gen-vectors: done in %s\n", time.Since(start).Round(time.Second))
	return 0
}

// checkFiles compares the generated files with those on disk. With all set,
// every .json file under dir (except the hand-written schema) must be one
// the generator writes.
func checkFiles(files map[string][]byte, dir string, all bool, start time.Time, stderr io.Writer) int {
	bad := 0
	for _, name := range sortedKeys(files) {
		disk, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "gen-vectors: %s: %v\n", name, err)
			bad++
		case !bytes.Equal(disk, files[name]):
			line := 1 + bytes.Count(disk[:firstDiff(disk, files[name])], []byte("\n"))
			fmt.Fprintf(stderr, "gen-vectors: %s differs from the regenerated file (first at line %d); run go run ./cmd/gen-vectors and review the diff\n", name, line)
			bad++
		}
	}
	if all {
		var extra []string
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			rel = filepath.ToSlash(rel)
			if _, ok := files[rel]; !ok && (strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".md")) && !strings.HasPrefix(rel, "schema/") && rel != "README.md" {
				extra = append(extra, rel)
			}
			return nil
		})
		sort.Strings(extra)
		for _, x := range extra {
			fmt.Fprintf(stderr, "gen-vectors: %s is not written by the generator\n", x)
			bad++
		}
	}
	if bad > 0 {
		return 1
	}
	fmt.Fprintf(stderr, "gen-vectors: %d files identical to the regenerated ones (%s)\n", len(files), time.Since(start).Round(time.Second))
	return 0
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// moduleRoot finds the directory of rdpcheck's go.mod from the working
// directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(data, []byte("module github.com/rdpcheck/rdpcheck\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the rdpcheck module")
		}
		dir = parent
	}
}
