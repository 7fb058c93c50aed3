package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdpcheck/rdpcheck/internal/testtier"
	"github.com/rdpcheck/rdpcheck/vectors"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/score"
)

func runScoreCLI(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(append([]string{"score"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// perfect returns the answers of a safe, correctly rounded implementation:
// the smallest float64 not below each test's expected value (a rejection for
// invalid tests), keyed by tcId, and the file.
func perfect(t *testing.T, name string) (*schema.File, map[int]string) {
	t.Helper()
	f, err := vectors.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	ans := map[int]string{}
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			if tc.Result == schema.Invalid {
				ans[tc.TcID] = `"error": "rejected"`
			} else {
				v, _ := schema.ParseFloat(tc.ExpectedFloat64)
				if want, _ := tc.ExpectedValue(); schema.Below(v, want) {
					v = math.Nextafter(v, math.Inf(1))
				}
				ans[tc.TcID] = fmt.Sprintf(`"value": %q`, schema.Dec(v))
			}
		}
	}
	return f, ans
}

func writeAnswers(t *testing.T, f *schema.File, ans map[int]string) string {
	t.Helper()
	var b strings.Builder
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			if a, ok := ans[tc.TcID]; ok {
				fmt.Fprintf(&b, "{\"tcId\": %d, %s}\n", tc.TcID, a)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scoreRow is a group's row of the report as printed, less the RMS column
// (it depends on the last bits of every answer). Worst is the first of the
// worst tcIds, "" when none is listed.
type scoreRow struct {
	Answered, Max, Tolerance                                  string
	Below, Negative, NaN, Inf, RejectedValid, AcceptedInvalid int
	Status, Under, Worst                                      string
}

// row returns the report's table row of a group. Columns: group answered
// max RMS tolerance below negative NaN inf rejected-valid accepted-invalid
// status worst...
func row(t *testing.T, out, group string) scoreRow {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 12 || f[0] != group {
			continue
		}
		n := make([]int, 6)
		for i := range n {
			var err error
			if n[i], err = strconv.Atoi(f[5+i]); err != nil {
				t.Fatalf("row %q: column %d: %v", l, 5+i, err)
			}
		}
		r := scoreRow{Answered: f[1], Max: f[2], Tolerance: f[4], Below: n[0], Negative: n[1], NaN: n[2], Inf: n[3], RejectedValid: n[4], AcceptedInvalid: n[5], Status: f[11]}
		// Then the worst under-estimate ("-" if none) and the worst tcIds.
		if len(f) > 12 && f[12] != "-" {
			r.Under = f[12]
		}
		if len(f) > 13 {
			r.Worst = f[13]
		}
		return r
	}
	t.Fatalf("no row for group %s in:\n%s", group, out)
	return scoreRow{}
}

func TestScorePerfectAnswers(t *testing.T) {
	for _, name := range []string{"closed_forms.json", "divergence.json", "invalid_inputs.json"} {
		f, ans := perfect(t, name)
		code, out, errOut := runScoreCLI(t, "-vectors", name, writeAnswers(t, f, ans))
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
		if !strings.Contains(out, fmt.Sprintf("%d of %d tests answered; of %d groups, %d pass, 0 fail, 0 unanswered", f.NumberOfTests, f.NumberOfTests, len(f.TestGroups), len(f.TestGroups))) {
			t.Errorf("%s: summary line:\n%s", name, out)
		}
	}
}

// Answers made wrong on purpose, one kind per group of closed_forms.json.
func TestScoreWrongAnswers(t *testing.T) {
	f, ans := perfect(t, "closed_forms.json")
	byGroup := map[string][]*schema.Test{}
	for _, g := range f.TestGroups {
		byGroup[g.Name] = g.Tests
	}
	finite := func(group string, i int) *schema.Test {
		n := 0
		for _, tc := range byGroup[group] {
			if v, _ := schema.ParseFloat(tc.ExpectedFloat64); v > 0 && !math.IsInf(v, 0) {
				if n == i {
					return tc
				}
				n++
			}
		}
		t.Fatalf("group %s has no finite test %d", group, i)
		return nil
	}
	value := func(tc *schema.Test, scale float64) string {
		v, _ := schema.ParseFloat(tc.ExpectedFloat64)
		return fmt.Sprintf(`"value": %v`, v*scale)
	}
	// The 1e-6 error is a relative 1e-6 of the float64 value; 1.0e-06 is
	// what the report prints for it.
	// gaussian: 1e-6 too high (beyond tolerance), and 3e-15 below (within
	// tolerance: not counted below the truth).
	hi, lo := finite("gaussian", 3), finite("gaussian", 5)
	ans[hi.TcID] = value(hi, 1+1e-6)
	ans[lo.TcID] = value(lo, 1-3e-15)
	// laplace: negative, NaN (Python's bare NaN) and +inf for a finite truth.
	neg, nanT, infT := finite("laplace", 0), finite("laplace", 1), finite("laplace", 2)
	ans[neg.TcID] = value(neg, -1)
	ans[nanT.TcID] = `"value": NaN`
	ans[infT.TcID] = `"value": Infinity`
	// randomized-response: a valid input rejected.
	rej := finite("randomized-response", 0)
	ans[rej.TcID] = `"error": "ValueError"`
	// gaussian-divergence: left unanswered.
	for _, tc := range byGroup["gaussian-divergence"] {
		delete(ans, tc.TcID)
	}
	path := writeAnswers(t, f, ans)
	code, out, _ := runScoreCLI(t, "-vectors", "closed_forms.json", "-worst", "2", path)
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
	tol := map[string]string{}
	for _, g := range f.TestGroups {
		tol[g.Name] = fmt.Sprint(g.RelativeTolerance)
	}
	all := func(group string) string { n := len(byGroup[group]); return fmt.Sprintf("%d/%d", n, n) }
	// What each wrong answer must count as. gaussian: the 1e-6 error is over
	// tolerance and the worst; the 3e-15 low one is within it, not "below
	// truth". laplace: the negative value is below the truth by 2 relative,
	// the unsafe answer, listed first (worst under and worst) before NaN
	// and inf, whose error is inf. randomized-response: the rejected valid input is the worst; its
	// max is that of the correctly rounded answers (not pinned).
	want := map[string]scoreRow{
		"gaussian":            {Answered: all("gaussian"), Max: "1.0e-06", Tolerance: tol["gaussian"], Status: "FAIL", Worst: fmt.Sprint(hi.TcID)},
		"laplace":             {Answered: all("laplace"), Max: "inf", Tolerance: tol["laplace"], Below: 1, Negative: 1, NaN: 1, Inf: 1, Status: "FAIL", Under: fmt.Sprint(neg.TcID), Worst: fmt.Sprint(neg.TcID)},
		"randomized-response": {Answered: all("randomized-response"), Tolerance: tol["randomized-response"], RejectedValid: 1, Status: "FAIL", Worst: fmt.Sprint(rej.TcID)},
		"gaussian-divergence": {Answered: fmt.Sprintf("0/%d", len(byGroup["gaussian-divergence"])), Max: "-", Tolerance: tol["gaussian-divergence"], Status: "unanswered"},
	}
	got := map[string]scoreRow{}
	for name := range want {
		got[name] = row(t, out, name)
	}
	got["randomized-response"] = func(r scoreRow) scoreRow { r.Max = ""; return r }(got["randomized-response"])
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report rows (-want +got):\n%s\n%s", diff, out)
	}
	if !strings.Contains(out, fmt.Sprintf("tcId %d (%s): rejected", rej.TcID, rej.Comment)) {
		t.Errorf("the failing groups' worst cases are not listed:\n%s", out)
	}

	// -complete fails the unanswered group; -group grades some groups
	// (answers to none of them fail); -tolerance 1e-5 lets the 1e-6 error
	// pass.
	if code, out, _ := runScoreCLI(t, "-vectors", "closed_forms.json", "-complete", "-group", "gaussian", path); code != 1 || row(t, out, "gaussian-divergence").Status != "FAIL" {
		t.Errorf("-complete: exit %d\n%s", code, out)
	}
	if code, out, errOut := runScoreCLI(t, "-vectors", "closed_forms.json", "-group", "gaussian-divergence", path); code != 1 || out != "" ||
		!strings.Contains(errOut, fmt.Sprintf(`answers none of the %d tests of the groups of closed_forms.json whose name contains "gaussian-divergence"`, len(byGroup["gaussian-divergence"]))) {
		t.Errorf("-group of an unanswered group: exit %d\n%s%s", code, out, errOut)
	}
	// ("gaussian" also selects gaussian-divergence, which is unanswered.)
	if code, out, _ := runScoreCLI(t, "-vectors", "closed_forms.json", "-group", "gaussian", "-tolerance", "1e-5", path); code != 0 || row(t, out, "gaussian").Status != "ok" {
		t.Errorf("-tolerance 1e-5 -group gaussian: exit %d\n%s", code, out)
	}
}

func TestScoreInvalidAccepted(t *testing.T) {
	f, ans := perfect(t, "invalid_inputs.json")
	first := f.TestGroups[0].Tests[0]
	ans[first.TcID] = `"value": 0.5`
	code, out, _ := runScoreCLI(t, "-vectors", "invalid_inputs.json", writeAnswers(t, f, ans))
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	r := row(t, out, f.TestGroups[0].Name)
	type verdict struct {
		AcceptedInvalid int
		Status          string
	}
	if diff := cmp.Diff(verdict{1, "FAIL"}, verdict{r.AcceptedInvalid, r.Status}); diff != "" {
		t.Errorf("an accepted invalid input (-want +got):\n%s\n%s", diff, out)
	}
}

func TestScoreCSVAndErrors(t *testing.T) {
	f, _ := perfect(t, "divergence.json")
	var b strings.Builder
	b.WriteString("tcId,value\n# a comment\n")
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			v, _ := schema.ParseFloat(tc.ExpectedFloat64)
			fmt.Fprintf(&b, "%d,%s\n", tc.TcID, strings.ReplaceAll(fmt.Sprint(v), "+Inf", "inf"))
		}
	}
	dir := t.TempDir()
	csv := filepath.Join(dir, "a.csv")
	os.WriteFile(csv, []byte(b.String()), 0o644)
	if code, out, errOut := runScoreCLI(t, "-vectors", "divergence.json", csv); code != 0 {
		t.Errorf("CSV answers: exit %d\n%s%s", code, out, errOut)
	}
	// Hex values and error words in CSV.
	hexCSV := filepath.Join(dir, "hex.csv")
	os.WriteFile(hexCSV, []byte("1,0x1p-01\n2,error: no\n"), 0o644)
	if code, out, errOut := runScoreCLI(t, "-vectors", "divergence.json", hexCSV); code == 2 || !strings.Contains(out, "2 of") {
		t.Errorf("hex CSV: exit %d\n%s%s", code, out, errOut)
	}
	for _, c := range []struct{ name, content, want string }{
		{"unknown.jsonl", `{"tcId": 999999, "value": 1}`, "does not have"},
		{"dup.jsonl", "{\"tcId\": 1, \"value\": 1}\n{\"tcId\": 1, \"value\": 2}\n", "answered twice"},
		{"novalue.jsonl", `{"tcId": 1}`, `need "value" or "error"`},
		{"bad.csv", "1,0.5\nx,1\n", "line 2: tcId x: want an integer"},
	} {
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, []byte(c.content), 0o644)
		code, _, errOut := runScoreCLI(t, "-vectors", "divergence.json", p)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", c.name, code, errOut, c.want)
		}
	}
	if code, _, errOut := runScoreCLI(t, "-vectors", "nosuch.json", csv); code != 1 || !strings.Contains(errOut, "no vector file") {
		t.Errorf("unknown vector file: exit %d, %s", code, errOut)
	}
	if code, _, _ := runScoreCLI(t, "-vectors", "divergence.json"); code != 2 {
		t.Errorf("no answers file: exit %d, want 2", code)
	}
	// Standard input.
	stdin = strings.NewReader("1,0x1p-01\n")
	defer func() { stdin = os.Stdin }()
	if code, out, _ := runScoreCLI(t, "-vectors", "divergence.json", "-format", "csv", "-"); code == 2 || !strings.Contains(out, "1 of") {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
}

// The TF Privacy 2019 accountant's printed values, scored: the group fails,
// and the report counts exactly the negative values the file flags.
func TestScorePeerValues(t *testing.T) {
	f, err := vectors.Load("tfprivacy/sgm_rdp.json")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	neg := 0
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			for _, pp := range tc.Peers {
				if pp.Peer != "tfprivacy_2019" {
					continue
				}
				if slices.Contains(pp.Flags, "PeerNegative") {
					neg++
				}
				fmt.Fprintf(&b, "%d,%s\n", tc.TcID, pp.Value)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "tf2019.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	code, out, errOut := runScoreCLI(t, "-vectors", "tfprivacy/sgm_rdp.json", p)
	if code != 1 || neg == 0 {
		t.Errorf("exit %d with %d flagged negative values; want 1 and some\n%s", code, neg, errOut)
	}
	r := row(t, out, "grid")
	type verdict struct {
		Negative int
		Status   string
	}
	if diff := cmp.Diff(verdict{neg, "FAIL"}, verdict{r.Negative, r.Status}); diff != "" {
		t.Errorf("grid (-want +got):\n%s", diff)
	}
}

// examples/run_vectors.py end to end, where python3 exists (CI's Go tests
// do not need it).
func TestPythonExample(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	answers := filepath.Join(t.TempDir(), "naive.jsonl")
	cmd := exec.Command(py, "../../examples/run_vectors.py", "../../vectors/closed_forms.json", "../../examples/naive_rdp.py", "-o", answers)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, out)
	}
	code, out, errOut := runScoreCLI(t, "-vectors", "closed_forms.json", answers)
	if code == 2 {
		t.Fatalf("score: exit 2: %s", errOut)
	}
	// The naive Gaussian is alpha / (2 sigma^2) in float64, within a few
	// ulps; its other functions are not all good enough, and RandomizedResponse
	// is not implemented (unanswered).
	if r := row(t, out, "gaussian"); r.Status != "ok" {
		t.Errorf("naive Gaussian: %v\n%s", r, out)
	}
	if r := row(t, out, "randomized-response"); !strings.HasPrefix(r.Answered, "0/") {
		t.Errorf("randomized-response answered by a module that lacks it: %v", r)
	}
}

// -all grades each file that has answers in the directory, and sums up.
func TestScoreAll(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"closed_forms.json", "divergence.json"} {
		f, ans := perfect(t, name)
		data, err := os.ReadFile(writeAnswers(t, f, ans))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(name, ".json")+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runScoreCLI(t, "-all", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var summary []string
	for _, l := range strings.Split(out[strings.Index(out, "summary of"):], "\n")[2:] {
		if f := strings.Fields(l); len(f) > 0 {
			summary = append(summary, f[0]+" "+f[6]) // groups failing
		}
	}
	// Each file's groups, from the vector files: none fails.
	want := []string{"closed_forms.json 0/4", "divergence.json 0/" + fmt.Sprint(len(mustLoad(t, "divergence.json").TestGroups))}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s\n%s", diff, out)
	}
	// With a digests file whose tcId 1 of divergence.json is another test:
	// refused.
	_, digests, _ := runScoreCLI(t, "-digests", "embedded")
	bad := strings.Replace(digests, "divergence.json 1 ", "divergence.json 1 ff", 1)
	os.WriteFile(filepath.Join(dir, "digests.txt"), []byte(bad), 0o644)
	if code, _, errOut := runScoreCLI(t, "-all", dir); code != 1 || !strings.Contains(errOut, "answers are for other tests") {
		t.Errorf("-all with a changed digest: exit %d, %s", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, "digests.txt"), []byte(digests), 0o644)
	if code, out, errOut := runScoreCLI(t, "-all", dir); code != 0 {
		t.Errorf("-all with today's digests: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runScoreCLI(t, "-all", t.TempDir()); code != 1 || !strings.Contains(errOut, "holds no answers") {
		t.Errorf("empty directory: exit %d, %s", code, errOut)
	}
	if code, _, _ := runScoreCLI(t, "-all", dir, "-vectors", "sgm_rdp.json"); code != 2 {
		t.Errorf("-all with -vectors: exit %d, want 2", code)
	}
}

func mustLoad(t *testing.T, name string) *schema.File {
	t.Helper()
	f, err := vectors.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// -report writes REPORT.md after checking digests, and refuses answers
// made for other tests.
func TestScoreReport(t *testing.T) {
	dir := t.TempDir()
	f, ans := perfect(t, "closed_forms.json")
	data, _ := os.ReadFile(writeAnswers(t, f, ans))
	os.WriteFile(filepath.Join(dir, "closed_forms.jsonl"), data, 0o644)
	if code, _, errOut := runScoreCLI(t, "-report", dir); code != 1 || !strings.Contains(errOut, "digests") {
		t.Errorf("no digests: exit %d, %s", code, errOut)
	}
	code, digests, errOut := runScoreCLI(t, "-digests", "embedded")
	if code != 0 {
		t.Fatalf("-digests: exit %d, %s", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, "digests.txt"), []byte(digests), 0o644)
	if code, out, errOut := runScoreCLI(t, "-report", dir); code != 0 {
		t.Fatalf("-report: exit %d\n%s%s", code, out, errOut)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	for _, want := range []string{"# Conformance report:", "| [closed_forms.json](#closed_formsjson) | 299/299 | 0 | 0 | 0 | 4/4 | 0/4 | 0/4 | 0/4 |", "| gaussian | "} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, rep)
		}
	}
	// tcId 1 made for another test: refused.
	first := f.TestGroups[0].Tests[0]
	changed := strings.Replace(digests, fmt.Sprintf("closed_forms.json %d ", first.TcID), fmt.Sprintf("closed_forms.json %d 0000", first.TcID), 1)
	os.WriteFile(filepath.Join(dir, "digests.txt"), []byte(changed), 0o644)
	if code, _, errOut := runScoreCLI(t, "-report", dir); code != 1 || !strings.Contains(errOut, "answers are for other tests") {
		t.Errorf("changed digest: exit %d, %s", code, errOut)
	}
}

// The committed conformance reports are what -report writes today.
func TestPeerReportsUpToDate(t *testing.T) {
	peers := []string{"dp_accounting_0_6_0", "opacus_1_5_4", "autodp_0_2_3_1", "dp_accounting_0_6_0_snippet"}
	if testtier.Short(t, "the reports of opacus, autodp and dp_accounting's snippet (dp_accounting's is rebuilt)") {
		peers = peers[:1]
	}
	for _, peer := range peers {
		dir := filepath.Join("..", "..", "peers", "accountants", "answers", peer)
		got, err := buildReport(dir, "auto", score.Options{})
		if err != nil {
			t.Fatalf("%s: %v", peer, err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s/REPORT.md is stale: run go run ./cmd/rdpcheck score -report peers/accountants/answers/%s", peer, peer)
		}
	}
}

// TestScoreExitStatus pins the exit status of each bad input of
// testdata/script/score.txtar (which pins the messages): 2 for a usage
// error, after one line and a pointer to -h; 1 for bad answers or files.
func TestScoreExitStatus(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	answers := file("answers.jsonl", "{\"tcId\": 1, \"value\": 3.7707260727711086e-06}\n")
	empty := file("empty.jsonl", "")
	emptyDir := filepath.Dir(file("empty/sgm_rdp.jsonl", ""))
	unsupported := file("unsupported.jsonl", `{"tcId": 1, "unsupported": true}`)
	typo := file("typo.jsonl", `{"tcId": 1, "valeu": 0.5}`)
	for _, c := range []struct {
		caught string
		args   []string
		code   int
	}{
		{"answers nothing: '0 of 1 groups fail', exit 0", []string{"-vectors", "tfprivacy/sgm_rdp.json", empty}, 1},
		{"answers nothing of the groups chosen", []string{"-vectors", "sgm_rdp.json", "-group", "tiny-q", answers}, 1},
		{"answers unsupported only", []string{"-vectors", "sgm_rdp.json", unsupported}, 1},
		{"-all of an empty answers file", []string{"-all", emptyDir}, 1},
		{"-tolerance -1 ignored", []string{"-vectors", "sgm_rdp.json", "-tolerance", "-1", answers}, 2},
		{"-tolerance 0 ignored", []string{"-tolerance", "0"}, 2},
		{"-tolerance NaN ignored", []string{"-tolerance", "NaN"}, 2},
		{"-tolerance Inf ignored", []string{"-tolerance", "Inf"}, 2},
		{"-digests of a missing directory: 'stat .'", []string{"-digests", "/nonexistent"}, 1},
		{"-all of a missing directory", []string{"-all", "/nonexistent"}, 1},
		{"-report of a missing directory", []string{"-report", "/nonexistent"}, 1},
		{"an unknown flag printed the whole usage", []string{"-bogus"}, 2},
		{"-worst 30 capped silently", []string{"-worst", "30", "-vectors", "sgm_rdp.json", answers}, 2},
		{"-worst -1 panicked", []string{"-worst", "-1", "-vectors", "sgm_rdp.json", answers}, 2},
		{"-format xml found late", []string{"-format", "xml", "-vectors", "sgm_rdp.json", answers}, 2},
		{"-digests ignored -vectors", []string{"-digests", "embedded", "-vectors", "sgm_rdp.json"}, 2},
		{"-report ignored -worst", []string{"-report", dir, "-worst", "2"}, 2},
		{"no answers file", []string{"-vectors", "sgm_rdp.json"}, 2},
		{"an unknown key of an answer", []string{"-vectors", "sgm_rdp.json", typo}, 1},
		{"a missing answers file", []string{"-vectors", "sgm_rdp.json", filepath.Join(dir, "nosuch.jsonl")}, 1},
		{"the README's example", []string{"-vectors", "sgm_rdp.json", answers}, 0},
	} {
		code, out, errOut := runScoreCLI(t, c.args...)
		if code != c.code {
			t.Errorf("caught: %s: score %v: exit %d, want %d\n%s%s", c.caught, c.args, code, c.code, out, errOut)
		}
		if lines := strings.Count(errOut, "\n"); c.code == 2 && (lines != 2 || !strings.HasSuffix(errOut, "run 'rdpcheck score -h' for usage\n")) {
			t.Errorf("score %v: a usage error is one line and a pointer to -h, got:\n%s", c.args, errOut)
		}
	}
}

// kitDocs are the pages that show the Python kit. Each ```python block in
// them quotes a file of examples/, named on its first line: "# examples/X.py"
// for the whole file (the file starts with that line), "# from
// examples/X.py" for consecutive lines of it. So what a maintainer copies
// is a file that CI runs.
var kitDocs = []string{"README.md", "docs/testing-your-accountant.md", "examples/README.md"}

// snippetRecords are, for each adapter a page quotes whole, the folder of
// peers/accountants/answers holding its answers from the library it names
// (made by that folder's README's commands) and the copy it was run as.
var snippetRecords = map[string]string{
	"examples/dp_accounting_sgm.py": "peers/accountants/answers/dp_accounting_0_6_0_snippet",
}

// pythonBlock is one ```python block of a page: its first line, the file
// it quotes, whether whole, and its text without the fence's indentation.
type pythonBlock struct {
	where, file string
	whole       bool
	text        string
}

var quoteHeader = regexp.MustCompile(`^# (from )?(examples/[A-Za-z0-9_]+\.py)\b`)

// pythonBlocks reads the ```python blocks of the page at path (from the
// repository's root).
func pythonBlocks(t *testing.T, path string) []pythonBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []pythonBlock
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```python" {
			continue
		}
		indent := lines[i][:strings.Index(lines[i], "```")]
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: a ```python block that does not end", path, i+1)
		}
		b := pythonBlock{where: fmt.Sprintf("%s:%d", path, i+1), text: strings.Join(body, "\n") + "\n"}
		if m := quoteHeader.FindStringSubmatch(body[0]); m != nil {
			b.file, b.whole = m[2], m[1] == ""
		}
		out = append(out, b)
		i = j
	}
	return out
}

// TestPythonSnippetsQuoteFiles: every Python block of the kit's pages is a
// file of examples/ quoted byte for byte (the README once showed an adapter
// calling rdp._compute_rdp, a name dp_accounting 0.6.0 does not have: every
// one of its 1943 answers was an adapter error), and every runner command
// of those pages and of vectors/README.md names files that exist.
func TestPythonSnippetsQuoteFiles(t *testing.T) {
	t.Chdir("../..")
	runner := regexp.MustCompile(`python3 examples/run_vectors\.py .*`)
	for _, doc := range kitDocs {
		adapters := 0
		for _, b := range pythonBlocks(t, doc) {
			if b.file == "" {
				t.Errorf("%s: a Python block that quotes no file of examples/ (first line %q): quote one, or point at it", b.where, strings.SplitN(b.text, "\n", 2)[0])
				continue
			}
			data, err := os.ReadFile(b.file)
			if err != nil {
				t.Errorf("%s: quotes %s: %v", b.where, b.file, err)
				continue
			}
			src := string(data)
			if b.whole {
				adapters++
				if b.text != src {
					t.Errorf("%s: the block differs from %s: copy the file into it", b.where, b.file)
				}
				continue
			}
			excerpt := b.text[strings.Index(b.text, "\n")+1:]
			if !strings.HasPrefix(src, excerpt) && !strings.Contains(src, "\n"+excerpt) {
				t.Errorf("%s: the block's lines are not consecutive lines of %s", b.where, b.file)
			}
		}
		if adapters == 0 {
			t.Errorf("%s: quotes no adapter whole", doc)
		}
	}
	// vectors/README.md shows the runner too, with no Python block.
	for _, doc := range append(slices.Clone(kitDocs), "vectors/README.md") {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range runner.FindAllString(string(data), -1) {
			for _, arg := range strings.Fields(strings.Trim(cmd, "`")) {
				arg = strings.Trim(arg, "`(),")
				if strings.HasSuffix(arg, ".py") || strings.HasSuffix(arg, ".json") {
					if _, err := os.Stat(arg); err != nil {
						t.Errorf("%s: %q names %s, which does not exist", doc, cmd, arg)
					}
				}
			}
		}
	}
}

// libraryStubs stand in, where a library a quoted adapter imports is
// absent (as in CI), for its names that the adapters use: same modules,
// classes and signatures, values that are no RDP. They show the adapter
// runs under the kit; that its calls are the library's is shown by the
// recorded run against the library itself (snippetRecords).
var libraryStubs = map[string]map[string]string{
	// dp_accounting 0.6.0 (google/differential-privacy @ b5b0286,
	// python/dp_accounting): the package exports the event classes, and
	// its rdp subpackage RdpAccountant, whose compose(event, count=1)
	// returns the accountant and whose rdp property is the curve at its
	// orders.
	"dp_accounting": {
		"dp_accounting/__init__.py": `"""A stub of dp_accounting 0.6.0 for rdpcheck's tests: not the library."""
from dp_accounting import rdp


class DpEvent:
    pass


class GaussianDpEvent(DpEvent):
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


class PoissonSampledDpEvent(DpEvent):
    def __init__(self, sampling_probability, event):
        self.sampling_probability = sampling_probability
        self.event = event
`,
		"dp_accounting/rdp/__init__.py": `from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant
`,
		"dp_accounting/rdp/rdp_privacy_accountant.py": `class RdpAccountant:
    def __init__(self, orders=None, neighboring_relation=None):
        self._orders = list(orders)
        self._rdp = [0.0] * len(self._orders)

    def compose(self, event, count=1):
        import dp_accounting
        if not isinstance(event, dp_accounting.DpEvent):
            raise TypeError("event must be DpEvent")
        q, sigma = event.sampling_probability, event.event.noise_multiplier
        if not (0 <= q <= 1 and sigma > 0):
            raise ValueError("stub: q in [0, 1], sigma > 0")
        self._rdp = [r + count * q * q * a / (sigma * sigma) for r, a in zip(self._rdp, self._orders)]
        return self

    @property
    def rdp(self):
        return list(self._rdp)
`,
	},
}

// TestPythonSnippetsRun runs each runner command of the kit's pages that
// names an adapter they quote, as written (answers to a temporary
// directory), with the library's stub where python3 lacks the library:
// every test it asks is answered with a value or a rejection by the
// library, none with an adapter error or a crash. Each such adapter also
// has its recorded run against the real library (snippetRecords), made
// from today's file: all 1943 tests of sgm_rdp.json answered, no adapter
// error.
func TestPythonSnippetsRun(t *testing.T) {
	t.Chdir("../..")
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	quoted := map[string]bool{}
	for _, doc := range kitDocs {
		for _, b := range pythonBlocks(t, doc) {
			if b.whole && strings.HasPrefix(b.text, "# "+b.file) {
				quoted[b.file] = true
			}
		}
	}
	if len(quoted) == 0 {
		t.Fatal("the kit's pages quote no adapter")
	}
	runner := regexp.MustCompile(`python3 (examples/run_vectors\.py [^` + "`" + `\n]*)`)
	ran := map[string]bool{}
	for _, doc := range kitDocs {
		data, _ := os.ReadFile(doc)
		for _, m := range runner.FindAllStringSubmatch(string(data), -1) {
			args := strings.Fields(m[1])
			adapter := ""
			for _, a := range args {
				if quoted[a] {
					adapter = a
				}
			}
			if adapter == "" || ran[m[1]] {
				continue
			}
			ran[m[1]] = true
			t.Run(m[1], func(t *testing.T) { runQuotedAdapter(t, py, adapter, args) })
		}
	}
	for file := range quoted {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(ran)), func(c string) bool { return strings.Contains(c, file) }) {
			t.Errorf("%s: quoted, but no page shows a runner command for it", file)
		}
		dir, ok := snippetRecords[file]
		if !ok {
			t.Errorf("%s: no recorded run against the library it names (snippetRecords)", file)
			continue
		}
		src, _ := os.ReadFile(file)
		if rec, err := os.ReadFile(filepath.Join(dir, "adapter.py")); err != nil || !bytes.Equal(rec, src) {
			t.Errorf("%s/adapter.py is not today's %s (%v): run it against the library again (%s/../README.md)", dir, file, err, dir)
		}
		data, err := os.ReadFile(filepath.Join(dir, "sgm_rdp.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		ans, err := score.Parse(data, "sgm_rdp.jsonl", "auto")
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, a := range ans {
			if a.AdapterError != "" || a.Hang {
				bad++
			}
		}
		if n := mustLoad(t, "sgm_rdp.json").NumberOfTests; len(ans) != n || bad > 0 {
			t.Errorf("%s: %d answers to sgm_rdp.json's %d tests, %d of them adapter errors, crashes or hangs; want all answered, none", dir, len(ans), n, bad)
		}
	}
}

// runQuotedAdapter runs examples/run_vectors.py with args (the page's
// command; -o pointed at a temporary path) and checks the answers.
func runQuotedAdapter(t *testing.T, py, adapter string, args []string) {
	src, err := os.ReadFile(adapter)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := os.Environ()
	var stubbed []string
	for _, m := range regexp.MustCompile(`(?m)^(?:import|from) ([A-Za-z_][A-Za-z0-9_]*)`).FindAllStringSubmatch(string(src), -1) {
		lib := m[1]
		if exec.Command(py, "-c", "import "+lib).Run() == nil {
			continue
		}
		files, ok := libraryStubs[lib]
		if !ok {
			t.Fatalf("%s imports %s, which python3 lacks and which has no stub (libraryStubs)", adapter, lib)
		}
		for name, text := range files {
			p := filepath.Join(tmp, "stubs", filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		stubbed = append(stubbed, lib)
	}
	if len(stubbed) > 0 {
		env = append(env, "PYTHONPATH="+filepath.Join(tmp, "stubs"))
		t.Logf("with stubs of %v", stubbed)
	}
	all := slices.Contains(args, "-all")
	out := filepath.Join(tmp, "answers")
	var cmdArgs []string
	for i := 0; i < len(args); i++ {
		cmdArgs = append(cmdArgs, args[i])
		if args[i] == "-o" && i+1 < len(args) {
			cmdArgs = append(cmdArgs, out)
			i++
		}
	}
	cmd := exec.Command(py, cmdArgs...)
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 %s: %v\n%s", strings.Join(cmdArgs, " "), err, b)
	}
	var files []string
	if all {
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return err
		})
	} else {
		files = []string{out}
	}
	if len(files) == 0 {
		t.Fatal("no answers written")
	}
	for _, f := range files {
		lines := readAnswerLines(t, f)
		bad := 0
		for id, m := range lines {
			_, value := m["value"]
			if !(value || m["raisedIn"] == "library") {
				if bad++; bad <= 3 {
					t.Errorf("%s: tcId %d: %v, want a value or the library's rejection", f, id, m)
				}
			}
		}
		if len(lines) == 0 || bad > 0 {
			t.Errorf("%s: %d answers, %d of them neither a value nor a rejection by the library", f, len(lines), bad)
		}
	}
	if all {
		return
	}
	// Every test of a function the adapter defines is answered.
	var name string
	for _, a := range args {
		if strings.HasSuffix(a, ".json") {
			name = strings.TrimPrefix(a, "vectors/")
		}
	}
	want := 0
	for _, g := range mustLoad(t, name).TestGroups {
		if regexp.MustCompile(`(?m)^def ` + g.Function + `\(`).Match(src) {
			want += len(g.Tests)
		}
	}
	if n := len(readAnswerLines(t, out)); n != want || want == 0 {
		t.Errorf("%d answers to the %d tests of %s whose function %s defines", n, want, name, adapter)
	}
}

// crashImpl's SGM crashes on every call, in turn each way a Python
// implementation can end its process (a call counter kept in a file, since
// a crash takes the worker's memory with it): a segfault in native code,
// os._exit, SystemExit and KeyboardInterrupt.
const crashImpl = `import ctypes, os
def SGM(q, sigma, alpha):
    with open(%q, "a+") as f:
        f.seek(0)
        n = len(f.read())
        f.write("x")
    kind = n %% 4
    if kind == 0:
        ctypes.string_at(0)
    if kind == 1:
        os._exit(3)
    if kind == 2:
        raise SystemExit(2)
    raise KeyboardInterrupt
`

// A crash is an outcome of its own, never a rejection: an SGM that crashes
// on every call once passed invalid_inputs.json's sgm group, each crash
// written {"error": "crashed"} and graded as rejecting the input. Each of
// the four ways is written "crashed" with how, and the group fails.
func TestPythonRunnerCrash(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "crash.py")
	if err := os.WriteFile(impl, []byte(fmt.Sprintf(crashImpl, filepath.Join(dir, "calls"))), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "a.jsonl")
	if b, err := exec.Command(py, "../../examples/run_vectors.py", "../../vectors/invalid_inputs.json", impl, "-o", answers).CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, b)
	}
	lines := readAnswerLines(t, answers)
	hows := map[string]int{}
	for id, m := range lines {
		how, ok := m["crashed"].(string)
		if !ok || len(m) != 1 {
			t.Errorf("tcId %d: %v, want only crashed", id, m)
		}
		hows[how]++
	}
	for _, want := range []string{"the worker died: signal SIGSEGV", "the worker exited with status 3 (os._exit or a native exit)", "SystemExit: 2 (raised by the call)", "KeyboardInterrupt:  (raised by the call)"} {
		if hows[want] == 0 {
			t.Errorf("no crash written %q; got %v", want, hows)
		}
	}
	code, out, errOut := runScoreCLI(t, "-vectors", "invalid_inputs.json", "-group", "sgm", answers)
	if code != 1 || !strings.Contains(out, fmt.Sprintf("%d crashed (the process died or exited: no answer, never a rejection)", len(lines))) {
		t.Errorf("score: exit %d, want 1 and %d crashes\n%s%s", code, len(lines), out, errOut)
	}
	// The old runner's record of a crash is refused, not taken for a
	// rejection.
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte(`{"tcId": 1, "error": "crashed"}`+"\n"), 0o644)
	if code, _, errOut := runScoreCLI(t, "-vectors", "invalid_inputs.json", old); code != 1 || !strings.Contains(errOut, `"error": "crashed" is how examples/run_vectors.py once wrote a crash`) {
		t.Errorf("the old crash record: exit %d, %s", code, errOut)
	}
}

// noAnswerImpl's Epsilon returns, test after test, what is no answer: the
// string "0.5", True, a swapped (order, eps) with eps <= 1, an order none
// of the test's, a triple; then a right (value, order).
const noAnswerImpl = `import itertools
_kinds = itertools.cycle(["str", "bool", "swapped", "foreign", "triple", "ok"])
def Epsilon(orders, rdp, delta, conversion):
    k = next(_kinds)
    if k == "str":
        return "0.5"
    if k == "bool":
        return True
    if k == "swapped":
        return orders[0], 0.5
    if k == "foreign":
        return 0.5, next(x for x in itertools.count(1.5, 1) if x not in orders)
    if k == "triple":
        return 0.5, orders[0], 1
    return 0.5, orders[0]
`

// The runner refuses what is no answer as the adapter's bug (it wrote the
// string "0.5" as 0.5 and True as 1.0, read a swapped (order, eps) as eps =
// order with eps <= 1 dropped as "no order", and kept an order none of the
// test's); a right (value, order) is kept.
func TestPythonRunnerNoAnswer(t *testing.T) {
	got := runPython(t, noAnswerImpl, "../../vectors/conversions.json")
	kinds := map[string]int{}
	for id, m := range got {
		msg, _ := m["adapterError"].(string)
		switch {
		case strings.Contains(msg, `returned '0.5': the value '0.5' is not a real number`):
			kinds["str"]++
		case strings.Contains(msg, "returned True: the value True is not a real number"):
			kinds["bool"]++
		case strings.Contains(msg, "the order 0.5 is none of the test's orders (is it (order, value), swapped?)"):
			kinds["swapped"]++
		case strings.Contains(msg, "is none of the test's orders"):
			kinds["foreign"]++
		case strings.Contains(msg, "a tuple of 3 items"):
			kinds["triple"]++
		case msg == "" && m["value"] == 0.5 && m["order"] != nil && len(m) == 2:
			kinds["ok"]++
		default:
			t.Errorf("tcId %d: %v", id, m)
		}
	}
	for _, k := range []string{"str", "bool", "swapped", "foreign", "triple", "ok"} {
		if kinds[k] == 0 {
			t.Errorf("no %s answer among %v", k, kinds)
		}
	}
}

// The runner's summary counts each outcome and says loudly when calls
// failed in the adapter's own code: it said "91 tests answered (0 hangs)"
// when every call was an adapter error.
func TestPythonRunnerSummary(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "typo.py")
	if err := os.WriteFile(impl, []byte(typoImpl), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "../../examples/run_vectors.py", "../../vectors/closed_forms.json", impl, "-o", filepath.Join(dir, "a.jsonl"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, stderr.String())
	}
	// closed_forms.json's gaussian group has 91 tests; the others' functions
	// the module lacks.
	for _, want := range []string{
		"run_vectors: 91 tests asked: 0 values, 0 rejections, 0 unsupported, 91 adapter errors, 0 hangs, 0 crashed; 208 skipped",
		"run_vectors: ADAPTER BUG: in 91 of 91 tests the call failed in the adapter's own code, not in the implementation (first, tcId 1: AttributeError: module 'math' has no attribute 'gausian_rdp')",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// slowImpl: Gaussian loops forever on a NaN order (invalid_inputs.json's
// tcId 28) and rejects the other invalid inputs; Laplace takes 2 s on its
// first call (a marker file says which) and rejects its inputs at once.
const slowImpl = `import math, os, time
def Gaussian(sigma, alpha):
    while math.isnan(alpha):
        pass
    raise ValueError("invalid")
def Laplace(b, alpha):
    if not os.path.exists(%q):
        open(%q, "w").close()
        time.sleep(2)
    raise ValueError("invalid")
`

// Time limits are per function, and a hang says which limit it ran into:
// with every function at 1 s but Laplace at 3 s, the endless Gaussian call
// is a hang at 1 s while the 2 s Laplace call is answered and listed as
// over half its limit; the score names the hang and its limit. (-timeout
// took one number for every function: the slowest function's limit was
// every hang's cost.)
func TestPythonRunnerTimeoutPerFunction(t *testing.T) {
	testtier.SkipShort(t, "the kit's per-function time limits, which wait 4 s for the sleeps they catch")
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "slept")
	impl := filepath.Join(dir, "slow.py")
	if err := os.WriteFile(impl, []byte(fmt.Sprintf(slowImpl, marker, marker)), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "a.jsonl")
	cmd := exec.Command(py, "../../examples/run_vectors.py", "-timeout", "1", "-timeout", "Laplace=3", "../../vectors/invalid_inputs.json", impl, "-o", answers)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, stderr.String())
	}
	hangs := map[int]any{}
	for id, m := range readAnswerLines(t, answers) {
		if m["hang"] == true {
			hangs[id] = m["timeout"]
		}
	}
	if diff := cmp.Diff(map[int]any{28: 1.0}, hangs); diff != "" {
		t.Errorf("hangs and their limits (-want +got):\n%s%s", diff, stderr.String())
	}
	if !regexp.MustCompile(`run_vectors: 1 tests took more than half their time limit \(slowest: \S+invalid_inputs.json tcId \d+, Laplace, [23]\.\d s of 3 s\): raise it with -timeout Laplace=SECONDS`).MatchString(stderr.String()) {
		t.Errorf("stderr does not list the slow Laplace call:\n%s", stderr.String())
	}
	_, out, _ := runScoreCLI(t, "-vectors", "invalid_inputs.json", answers)
	if !strings.Contains(out, "tests that ran into the runner's time limit (hang):\n  gaussian (Gaussian): tcId 28 (1 s)\n") ||
		!strings.Contains(out, "tcId 28 (sigma=1 alpha=NaN): no answer within the runner's time limit of 1 s (hang)") {
		t.Errorf("the score does not say which test hit which limit:\n%s", out)
	}
	for _, bad := range []string{"0", "x", "Foo=3", "Laplace=inf"} {
		b, err := exec.Command(py, "../../examples/run_vectors.py", "-timeout", bad, "../../vectors/invalid_inputs.json", impl).CombinedOutput()
		if err == nil || !strings.Contains(string(b), "run_vectors.py: error: -timeout "+bad+": ") {
			t.Errorf("-timeout %s: %v\n%s", bad, err, b)
		}
	}
}

// mutantGaussian answers closed_forms.json's Gaussian tests each in one of
// seven ways, chosen by its inputs: below the truth, +inf, NaN, a
// rejection, above the truth, "0.5" (the adapter's bug) or right. The
// relative errors of the wrong values differ from test to test (by the
// inputs), so that the worst-first order has no ties among them.
const mutantGaussian = `import math
def Gaussian(sigma, alpha):
    if not (sigma > 0) or math.isinf(sigma) or not (alpha >= 0) or math.isnan(alpha):
        raise ValueError("bad input")
    if alpha == 0:
        return 0.0
    if math.isinf(alpha):
        return math.inf
    v = alpha / (2 * sigma * sigma)
    k = int(round(min(alpha, 1e6) * 7 + min(sigma, 1e6) * 13)) % 7
    spread = 1 + min(alpha, 1e6) / 1000 + min(sigma, 1e6)
    if k == 0:
        return v * (1 - 1e-6 * spread)
    if k == 1:
        return math.inf
    if k == 2:
        return math.nan
    if k == 3:
        raise ValueError("no")
    if k == 4:
        return v * (1 + 1e-3 * spread)
    if k == 5:
        return "0.5"
    return v
`

// gradeDriver prints, for each group of a vector file the adapter answers,
// what rdpcheck_pytest.grade_group makes of it: the reasons, the failing
// tcIds worst first, and the message check_group fails with. It needs no
// pytest.
const gradeDriver = `import json, sys
sys.path.insert(0, sys.argv[1])
import rdpcheck_pytest as rp
cases, _ = rp.load_cases(sys.argv[2], sys.argv[3], files=[sys.argv[4]])
for c in cases:
    if c.spec is None or not callable(getattr(c.impl, c.group["function"], None)):
        continue
    g = rp.grade_group(c)
    print(json.dumps({"group": c.group["name"], "reasons": g.reasons,
                      "worst": [f.tc_id for f in g.worst_first()], "message": g.message(),
                      "message20": g.message(20)}))
`

// The pytest helper fails a group with the counts the scorer gives and its
// failing tests worst first, in the scorer's order: it listed the first 10
// failures in tcId order ("... and N more"), so that the +inf answers and
// the worst error were not shown. The same answers go through
// run_vectors.py and the scorer, and through grade_group.
func TestPythonPytestHelperWorstFirst(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	impl := filepath.Join(dir, "mutant.py")
	driver := filepath.Join(dir, "driver.py")
	if err := os.WriteFile(impl, []byte(mutantGaussian), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(driver, []byte(gradeDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(py, driver, "../../examples", "../../vectors", impl, "closed_forms.json").CombinedOutput()
	if err != nil {
		t.Fatalf("grade_group: %v\n%s", err, b)
	}
	var helper struct {
		Group              string
		Reasons            []string
		Worst              []int
		Message, Message20 string
	}
	if err := json.Unmarshal(b, &helper); err != nil || helper.Group != "gaussian" {
		t.Fatalf("grade_group printed %s (%v)", b, err)
	}
	answers := filepath.Join(dir, "a.jsonl")
	if b, err := exec.Command(py, "../../examples/run_vectors.py", "../../vectors/closed_forms.json", impl, "-o", answers).CombinedOutput(); err != nil {
		t.Fatalf("run_vectors.py: %v\n%s", err, b)
	}
	data, err := os.ReadFile(answers)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := score.Parse(data, answers, "auto")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Score(mustLoad(t, "closed_forms.json"), ans, score.Options{Group: "gaussian"})
	if err != nil {
		t.Fatal(err)
	}
	gs := rep.Groups[0]
	if diff := cmp.Diff(gs.Reasons(), helper.Reasons); diff != "" {
		t.Errorf("the helper's counts are not the scorer's (-scorer +helper):\n%s", diff)
	}
	// Every kind of failure is there, so that the order is tested.
	for _, kind := range []string{"below the truth", "invalid inputs accepted", "adapter errors", "beyond tolerance", "valid inputs rejected"} {
		if kind != "invalid inputs accepted" && !strings.Contains(strings.Join(gs.Reasons(), ", "), kind) {
			t.Errorf("the scorer's reasons lack %q: %v", kind, gs.Reasons())
		}
	}
	var scorer []int
	for _, w := range gs.Worst {
		scorer = append(scorer, w.ID)
	}
	n := min(len(helper.Worst), len(scorer))
	if n < 10 || !slices.Equal(helper.Worst[:n], scorer[:n]) {
		t.Errorf("worst first: the helper lists %v, the scorer %v", helper.Worst[:n], scorer[:n])
	}
	// The message leads with the scorer's reasons, lists the first ten
	// worst first and counts the rest; right after the values below the
	// truth come the NaN and infinite ones, before the values beyond the
	// tolerance and the rejections.
	lines := strings.Split(helper.Message, "\n")
	if !strings.HasSuffix(lines[0], ": "+strings.Join(gs.Reasons(), ", ")) || !strings.HasPrefix(lines[2], fmt.Sprintf("  tcId %d ", scorer[0])) ||
		len(lines) != 13 || lines[12] != fmt.Sprintf("  ... and %d more", len(helper.Worst)-10) {
		t.Errorf("message:\n%s", helper.Message)
	}
	lines = strings.Split(helper.Message20, "\n")[2:]
	if gs.Below >= len(lines) || !regexp.MustCompile(`: got (inf|nan), want `).MatchString(lines[gs.Below]) {
		t.Errorf("the first answer listed after the %d below the truth is not a NaN or infinite one:\n%s", gs.Below, helper.Message20)
	}
}
