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
// dpsgd_best.json (the same scenarios at the best order),
// invalid_inputs.json, sampled.json, wor.json, events.json,
// dgauss_tree_repeat.json, zcdp_tight.json (package
// vectors/gen), wor_FINDINGS.md (dp_accounting's and autodp's WOR values
// from peers/accountants, judged; -check -quick copies it from the
// committed file), sampled_FINDINGS.md (their Poisson-sampled Laplace
// values, judged; copied by -check -quick likewise), events_FINDINGS.md
// (every other event and the conversions of peers/accountants, judged),
// pld_FINDINGS.md (the PLD, PRV, GDP and RDP peers of peers/pld against
// the certified intervals cached in peers/pld/certified.json) and, from
// the TF Privacy
// lineage's printed values in peers/tfprivacy (embedded in the command),
// tfprivacy/sgm_rdp.json, tfprivacy/dpsgd_epsilon.json,
// tfprivacy/expectations.json and tfprivacy/FINDINGS.md (package
// cmd/gen-vectors/internal/peerstudy). Paths are relative to the module root, wherever it is
// run from. Output is byte-identical on every run and machine. Every value
// is computed twice, with the reference at 256 and at 320 bits, and a value
// on which the two do not agree is not written (the run fails, naming it;
// package vectors/verify). Work runs on all cores; progress goes to
// standard error, ending with each file's share of the time (the worker
// time of its values, and the CPU of the run) so that the costliest file
// is the one made faster.
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
// -only NAME,NAME limits generation or checking to the named files;
// tfprivacy/FINDINGS.md brings the three tfprivacy files it tabulates.
// -tfprivacy DIR reads the peers' values from DIR instead of the embedded
// copy; -tfprivacy none skips vectors/tfprivacy.
//
// # Cases
//
// With -cases, each input line names a function of the vector files and
// its inputs, as in those files, and the answer adds package reference's
// value (50 significant digits, or "inf") and package fast's:
//
//	{"kind": "SGM", "q": 0.01, "sigma": 1.1, "alpha": 8}
//	{"kind": "Divergence", "distP": [0.5, 0.5], "distQ": [0.25, 0.75], "alpha": 2}
//	{"kind": "DPSGDEpsilon", "q": 0.01, "sigma": 1.1, "steps": 1000, "delta": 1e-5, "orders": [2, 4, 8], "conversion": "improved"}
//
// The kinds are every function of the vector files (userpoints.Kinds: SGM,
// DPSGDEpsilon, the other mechanisms, the conversions, the bounds, and
// ProfileEpsilon and ProfileDelta, which answer a certified interval); the
// README's table lists each with its inputs. The older forms
// {"q", "sigma", "alpha"} and {"kind": "epsilon", ...} keep working. See
// package userpoints for the inputs of each kind and the answer's fields. Lines are computed in parallel on all cores; one output line per
// non-blank input line, in order.
//
// With -cases FILE -format vectors, lines of every kind are written to
// standard output as one vector file in the schema of vectors/schema (SGM
// lines in group rdp, improved DPSGDEpsilon lines in group epsilon, each
// other function in a group of its own), each value confirmed at 320 bits
// like the committed vectors; inputs the reference rejects become invalid
// tests, and a line that is not a valid case is an error (exit 1).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rdpcheck/rdpcheck/cmd/gen-vectors/internal/peerstudy"
	"github.com/rdpcheck/rdpcheck/cmd/gen-vectors/internal/userpoints"
	"github.com/rdpcheck/rdpcheck/peers"
	"github.com/rdpcheck/rdpcheck/vectors/gen"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
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
	tfDir := fl.String("tfprivacy", "", "`directory` of the TF Privacy lineage's printed values (default: peers/tfprivacy, embedded; \"none\" skips vectors/tfprivacy)")
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
			err = userpoints.Run(r, stdout)
		case "vectors":
			err = userpoints.RunVectors(r, stdout, stderr)
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
	if *quick && !*check {
		fmt.Fprintln(stderr, "gen-vectors: -quick goes with -check (it copies values from the committed files)")
		return 2
	}
	if *outDir == "" {
		root, err := moduleRoot()
		if err != nil {
			return fail(fmt.Errorf("%v; pass -out", err))
		}
		*outDir = filepath.Join(root, "vectors")
	}
	opt := gen.Options{}
	if *quick {
		opt.SampleEvery, opt.Committed = quickSample, *outDir
	}
	if *only != "" {
		opt.Only = map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			opt.Only[filepath.ToSlash(strings.TrimSpace(n))] = true
		}
	}
	steps := gen.Steps()
	var study *peerstudy.Study
	if withStudy(*tfDir, opt.Only) {
		var dir fs.FS = peers.TFPrivacy
		if *tfDir != "" {
			dir = os.DirFS(*tfDir)
		}
		var err error
		if study, err = peerstudy.Load(dir); err != nil {
			return fail(fmt.Errorf("peers' data: %w", err))
		}
		steps = append(steps, study.Steps()...)
		if opt.Only[peerstudy.FindingsName] {
			for _, n := range peerstudy.Files {
				opt.Only[n] = true
			}
		}
	}

	start := time.Now()
	files, err := gen.Generate(steps, opt, stderr)
	if err != nil {
		return fail(err)
	}
	if study != nil && (opt.Only == nil || opt.Only[peerstudy.FindingsName]) {
		files[peerstudy.FindingsName] = study.Findings()
	}
	if opt.Only == nil || opt.Only[peerstudy.WORFindingsName] {
		took := timeFile(stderr, peerstudy.WORFindingsName)
		// -quick takes the report from the committed file, as it does the
		// costly SGM values; TestWORFindings in go test recomputes it.
		var report []byte
		if *quick {
			report, err = os.ReadFile(filepath.Join(*outDir, peerstudy.WORFindingsName))
		} else {
			report, err = peerstudy.WORFindings(peers.AccountantEvents, 128)
		}
		if err != nil {
			return fail(err)
		}
		took()
		files[peerstudy.WORFindingsName] = report
	}
	if opt.Only == nil || opt.Only[peerstudy.EventsFindingsName] {
		// A few seconds: recomputed even with -quick.
		took := timeFile(stderr, peerstudy.EventsFindingsName)
		report, err := peerstudy.EventsFindings(peers.AccountantEvents, peers.AccountantConversions, 128)
		if err != nil {
			return fail(err)
		}
		took()
		files[peerstudy.EventsFindingsName] = report
	}
	if opt.Only == nil || opt.Only[peerstudy.SampledFindingsName] {
		// About a minute of reference work: -quick copies it, as it does
		// wor_FINDINGS.md; TestSampledFindings in go test recomputes it.
		took := timeFile(stderr, peerstudy.SampledFindingsName)
		var report []byte
		if *quick {
			report, err = os.ReadFile(filepath.Join(*outDir, peerstudy.SampledFindingsName))
		} else {
			report, err = peerstudy.SampledFindings(peers.AccountantEvents, 128)
		}
		if err != nil {
			return fail(err)
		}
		took()
		files[peerstudy.SampledFindingsName] = report
	}
	if opt.Only == nil || opt.Only[peerstudy.PLDFindingsName] {
		// From the peers' PLD values and the certified intervals cached
		// beside them (peers/pld/): a fraction of a second.
		report, err := pldFindings(filepath.Join(*outDir, ".."))
		if err != nil {
			return fail(err)
		}
		files[peerstudy.PLDFindingsName] = report
	}
	for n := range opt.Only {
		if _, ok := files[n]; !ok {
			return fail(fmt.Errorf("-only: no generated file %q", n))
		}
	}
	// The record of versions: the manifest of every test, and the
	// CHANGELOG entries of the files whose version rose (with -only, the
	// other files as committed).
	if err := versionRecord(files, *outDir); err != nil {
		return fail(err)
	}
	if *check {
		bad := gen.Check(files, *outDir, opt.Only == nil && study != nil)
		for _, b := range bad {
			fmt.Fprintln(stderr, "gen-vectors:", b)
		}
		if len(bad) > 0 {
			return 1
		}
		fmt.Fprintf(stderr, "gen-vectors: %d files identical to the regenerated ones (%s)\n", len(files), time.Since(start).Round(time.Second))
		return 0
	}
	paths, err := gen.Write(files, *outDir)
	for _, p := range paths {
		fmt.Fprintf(stderr, "gen-vectors: wrote %s\n", p)
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "gen-vectors: done in %s\n", time.Since(start).Round(time.Second))
	return 0
}

// timeFile starts timing a file computed outside the engine; the returned
// func reports its wall and CPU time on progress, as the engine reports the
// files it computes.
func timeFile(progress io.Writer, name string) (took func()) {
	t0 := time.Now()
	cpu0, ok0 := verify.ProcessCPU()
	return func() {
		cpu := ""
		if cpu1, ok := verify.ProcessCPU(); ok && ok0 {
			cpu = fmt.Sprintf(", %s of CPU", (cpu1 - cpu0).Round(100*time.Millisecond))
		}
		fmt.Fprintf(progress, "gen-vectors: %s took %s%s\n", name, time.Since(t0).Round(100*time.Millisecond), cpu)
	}
}

// versionRecord adds the manifest and the CHANGELOG to files, from the
// committed ones in dir (gen.Changelog refuses tests that changed at an
// unchanged version).
func versionRecord(files map[string][]byte, dir string) error {
	all := map[string][]byte{}
	for name := range gen.FileVersions {
		data, ok := files[name]
		if !ok {
			var err error
			if data, err = os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return fmt.Errorf("the manifest needs every vector file: %w", err)
			}
		}
		all[name] = data
	}
	manifest, err := gen.Manifest(all)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(filepath.Join(dir, gen.ManifestName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	changelog, err := os.ReadFile(filepath.Join(dir, gen.ChangelogName))
	if err != nil {
		return err
	}
	if changelog, err = gen.Changelog(old, manifest, changelog); err != nil {
		return err
	}
	files[gen.ManifestName], files[gen.ChangelogName] = manifest, changelog
	return nil
}

// withStudy reports whether the run needs the peers' data: unless skipped,
// when every file is written or one of the study's is named.
func withStudy(tfDir string, only map[string]bool) bool {
	if tfDir == "none" {
		return false
	}
	if only == nil || only[peerstudy.FindingsName] {
		return true
	}
	for _, n := range peerstudy.Files {
		if only[n] {
			return true
		}
	}
	return false
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

// pldFindings writes pld_FINDINGS.md from peers/pld/profile.json and the
// certified intervals of peers/pld/certified.json under root.
func pldFindings(root string) ([]byte, error) {
	profile, err := os.ReadFile(filepath.Join(root, "peers", "pld", "profile.json"))
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(peerstudy.PLDCertifiedName)))
	if err != nil {
		return nil, err
	}
	var c peerstudy.PLDCertified
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", peerstudy.PLDCertifiedName, err)
	}
	return peerstudy.PLDFindings(profile, &c)
}
