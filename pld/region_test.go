package pld

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The region table: rdpcheck's SGMEpsilon and dp_accounting's PLD accountant
// measured side by side, row by row, over the grid below. It lives in a test
// (not a command) because it reuses the test binary as rdpcheck's child
// process and is off unless -region is given; nothing outside this file
// needs it.
var (
	regionFlag   = flag.Bool("region", false, "measure SGMEpsilon and dp_accounting's PLD accountant side by side over the region and rewrite docs/pld_region.md and its .json (hours; needs PEER_SRC)")
	regionQuick  = flag.Bool("regionquick", false, "with -region: only the 12 rows of the quick subset (minutes)")
	regionLimit  = flag.Duration("regionlimit", 60*time.Second, "with -region: time limit of one row, for each side; a side past it is killed")
	regionMem    = flag.Int64("regionmem", 8<<30, "with -region: address-space limit in bytes of each side's process (prlimit --as); 0 for none")
	regionOut    = flag.String("regionout", "../docs/pld_region.md", "with -region: the table written; its data is the .json beside it")
	regionRedo   = flag.String("regionredo", "", "with -region: recompute rows the data file already holds, for side rdpcheck, dp_accounting or both")
	regionPython = flag.String("regionpython", "/usr/bin/python3", "with -region: the Python (with numpy, scipy, absl, attr) that runs dp_accounting")
	regionRow    = flag.String("regionrow", "", "internal (-region runs each rdpcheck row as a child process): q,sigma,steps,delta")
)

// regionScript is the committed script that runs dp_accounting, relative to
// the pld folder (go test's working directory).
const regionScript = "../peers/pld/dp_accounting_region.py"

// regionVDI is dp_accounting's value_discretization_interval: its default.
const regionVDI = 1e-4

// regionNotes marks the start of docs/pld_region.md's hand-written notes,
// which TestRegionTable keeps when it rewrites the table above them.
const regionNotes = "<!-- notes: kept by TestRegionTable -->"

type regionGrid struct {
	qs, sigmas []float64
	steps      []int
	deltas     []float64
}

func (g regionGrid) size() int { return len(g.qs) * len(g.sigmas) * len(g.steps) * len(g.deltas) }

var (
	regionFullGrid = regionGrid{
		qs:     []float64{1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.5, 1},
		sigmas: []float64{0.3, 0.5, 1, 2, 10, 100},
		steps:  []int{1, 10, 100, 1e4, 1e6, 1e8},
		deltas: []float64{1e-18, 1e-15, 1e-10, 1e-5, 1e-3},
	}
	// The quick subset: rows both sides answer in about a second, rows
	// that take rdpcheck tens of seconds, and rows beyond dp_accounting's
	// memory at the default cap (measured at ce30588). A short -regionlimit
	// (1.5s) also sends both sides past the limit and skips rows after it.
	regionQuickGrid = regionGrid{
		qs:     []float64{1e-3, 0.5},
		sigmas: []float64{1},
		steps:  []int{100, 1e6, 1e8},
		deltas: []float64{1e-15, 1e-5},
	}
)

// Statuses of a side of a row besides "ok" and an error's text.
const (
	stWidth   = "width not reached" // rdpcheck: ErrPrecision, the interval still certified
	stTime    = "time limit"        // killed at the limit
	stMemory  = "memory limit"      // out of memory under -regionmem
	stSkipped = "skipped"           // fewer steps (same q, sigma, delta) already hit the time limit
)

// regionFloat is a float64 that JSON holds even when it is infinite or NaN
// (as the strings "+Inf", "-Inf", "NaN"), and that reads back exactly.
type regionFloat float64

func (x regionFloat) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

func (x *regionFloat) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		switch s {
		case "NaN", "nan":
			*x = regionFloat(math.NaN())
		case "+Inf", "inf":
			*x = regionFloat(math.Inf(1))
		case "-Inf", "-inf":
			*x = regionFloat(math.Inf(-1))
		default:
			return fmt.Errorf("not a number: %q", s)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*x = regionFloat(f)
	return nil
}

// regionData is docs/pld_region.json: every run that computed rows, and
// every row computed (rows outside the grid of the current run are kept).
type regionData struct {
	About string         `json:"about"`
	Runs  []regionRun    `json:"runs"`
	Rows  []*regionEntry `json:"rows"`
}

// regionRun describes one invocation of TestRegionTable -region.
type regionRun struct {
	Started       string  `json:"started"`      // UTC, RFC 3339
	WallSeconds   float64 `json:"wall_seconds"` // so far, while it runs
	Command       string  `json:"command"`
	Subset        string  `json:"subset"` // "full" or "quick"
	RdpcheckRows  int     `json:"rdpcheck_rows"`
	DPRows        int     `json:"dp_accounting_rows"`
	NumCPU        int     `json:"nproc"`
	CPU           string  `json:"cpu"`
	LoadStart     string  `json:"loadavg_start"` // /proc/loadavg's 1, 5 and 15 minute averages
	LoadEnd       string  `json:"loadavg_end"`
	Go            string  `json:"go"`
	Commit        string  `json:"rdpcheck_commit"` // git describe --always --dirty
	Python        string  `json:"python"`
	Numpy         string  `json:"numpy"`
	Scipy         string  `json:"scipy"`
	DPAccounting  string  `json:"dp_accounting"`
	DPCommit      string  `json:"dp_accounting_commit"`
	DPTree        string  `json:"dp_accounting_tree"`
	VDI           float64 `json:"value_discretization_interval"`
	LimitSeconds  float64 `json:"limit_seconds"`
	MemBytes      int64   `json:"mem_bytes"` // 0: none
	ResourceLimit string  `json:"resource_limit"`
}

type regionEntry struct {
	Q        float64     `json:"q"`
	Sigma    float64     `json:"sigma"`
	Steps    int         `json:"steps"`
	Delta    float64     `json:"delta"`
	Rdpcheck *regionRdp  `json:"rdpcheck"`
	DP       *regionPeer `json:"dp_accounting"`
	// Derived from the two sides when written; ignored when read.
	Width   *regionFloat `json:"width,omitempty"`
	Compare string       `json:"dp_accounting_vs_interval,omitempty"`
}

type regionRdp struct {
	Lo      *regionFloat `json:"lo"` // null unless status is ok or width not reached
	Hi      *regionFloat `json:"hi"`
	Seconds float64      `json:"seconds"`
	Status  string       `json:"status"`
	Run     int          `json:"run"` // index in runs
}

type regionPeer struct {
	Eps     *regionFloat `json:"eps"` // null: no answer
	Seconds float64      `json:"seconds"`
	Status  string       `json:"status"`
	Run     int          `json:"run"`
}

type regionKey struct {
	q, sigma float64
	steps    int
	delta    float64
}

func (e *regionEntry) key() regionKey { return regionKey{e.Q, e.Sigma, e.Steps, e.Delta} }

// interval reports rdpcheck's certified interval when the side gave one.
func (e *regionEntry) interval() (Interval, bool) {
	r := e.Rdpcheck
	if r == nil || (r.Status != "ok" && r.Status != stWidth) || r.Lo == nil || r.Hi == nil {
		return Interval{}, false
	}
	return Interval{float64(*r.Lo), float64(*r.Hi)}, true
}

func (e *regionEntry) dpEps() (float64, bool) {
	if e.DP == nil || e.DP.Status != "ok" || e.DP.Eps == nil || math.IsNaN(float64(*e.DP.Eps)) {
		return 0, false
	}
	return float64(*e.DP.Eps), true
}

// compare places dp_accounting's eps against rdpcheck's interval: "inside",
// "below Lo" (the peer claims less loss than the run provably spends),
// "above Hi", or "" when one side has no answer.
func (e *regionEntry) compare() string {
	iv, ok := e.interval()
	eps, ok2 := e.dpEps()
	switch {
	case !ok || !ok2:
		return ""
	case eps < iv.Lo:
		return "below Lo"
	case eps > iv.Hi:
		return "above Hi"
	}
	return "inside"
}

// rdpFaster reports whether rdpcheck gave its interval in less time than
// dp_accounting took, a dp_accounting side stopped by the time limit
// (or skipped after it) counting as slower than any answer.
func (e *regionEntry) rdpFaster() bool {
	if _, ok := e.interval(); !ok || e.DP == nil {
		return false
	}
	switch e.DP.Status {
	case stTime, stSkipped:
		return true
	case "ok":
		return e.Rdpcheck.Seconds < e.DP.Seconds
	}
	return false
}

func (e *regionEntry) widthMet() bool {
	iv, ok := e.interval()
	return ok && iv.RelWidth() <= 1e-3
}

// TestRegionRow computes one rdpcheck row for TestRegionTable (in a child
// process, so that a row over the time limit can be stopped).
func TestRegionRow(t *testing.T) {
	if *regionRow == "" {
		t.Skip("internal: run by TestRegionTable")
	}
	k, err := parseRegionRow(*regionRow)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	iv, err := SGMEpsilon([]Phase{{k.q, k.sigma, k.steps}}, k.delta)
	r := regionRdp{Seconds: time.Since(t0).Seconds(), Status: "ok"}
	switch {
	case errors.Is(err, ErrPrecision):
		r.Status = stWidth
	case err != nil:
		r.Status = oneLine(err.Error())
	}
	if r.Status == "ok" || r.Status == stWidth {
		lo, hi := regionFloat(iv.Lo), regionFloat(iv.Hi)
		r.Lo, r.Hi = &lo, &hi
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("REGIONROW %s\n", b)
}

func parseRegionRow(s string) (regionKey, error) {
	f := strings.Split(s, ",")
	if len(f) != 4 {
		return regionKey{}, fmt.Errorf("row %q: want q,sigma,steps,delta", s)
	}
	var k regionKey
	var err error
	var errs [4]error
	k.q, errs[0] = strconv.ParseFloat(f[0], 64)
	k.sigma, errs[1] = strconv.ParseFloat(f[1], 64)
	k.steps, errs[2] = strconv.Atoi(f[2])
	k.delta, errs[3] = strconv.ParseFloat(f[3], 64)
	if err = errors.Join(errs[:]...); err != nil {
		return regionKey{}, fmt.Errorf("row %q: %w", s, err)
	}
	return k, nil
}

func formatRegionRow(k regionKey) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("%s,%s,%d,%s", g(k.q), g(k.sigma), k.steps, g(k.delta))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// TestRegionTable measures, row by row, rdpcheck's SGMEpsilon at the default
// options and dp_accounting's PLD accountant at its defaults over the region
// (q x sigma x steps x delta), one side after the other, each in its own
// process under the same time limit, and writes docs/pld_region.md and the
// data beside it (.json). A row the data file already holds under the same
// limits is kept unless -regionredo names its side, so an interrupted run
// resumes where it stopped. Once a side hits the time limit, the same q,
// sigma and delta at more steps are skipped for that side.
func TestRegionTable(t *testing.T) {
	if !*regionFlag {
		t.Skip("the region table takes hours: -region (-regionquick for 12 rows)")
	}
	redoRdp, redoDP := false, false
	switch *regionRedo {
	case "":
	case "rdpcheck":
		redoRdp = true
	case "dp_accounting":
		redoDP = true
	case "both":
		redoRdp, redoDP = true, true
	default:
		t.Fatalf("-regionredo %q: want rdpcheck, dp_accounting or both", *regionRedo)
	}
	peerSrc := os.Getenv("PEER_SRC")
	if peerSrc == "" {
		t.Fatal("PEER_SRC must name a folder holding dp_accounting/, google/differential-privacy's python/dp_accounting at b5b0286 (peers/pld/README.md says how)")
	}
	grid, subset := regionFullGrid, "full"
	if *regionQuick {
		grid, subset = regionQuickGrid, "quick"
	}
	dataPath := strings.TrimSuffix(*regionOut, ".md") + ".json"
	data := regionData{}
	if b, err := os.ReadFile(dataPath); err == nil {
		if err := json.Unmarshal(b, &data); err != nil {
			t.Fatalf("%s: %v (move it away to start afresh)", dataPath, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	data.About = "rdpcheck's pld.SGMEpsilon and dp_accounting's PLD accountant, side by side; written by TestRegionTable (pld/region_test.go), described in pld_region.md"
	entries := map[regionKey]*regionEntry{}
	for _, e := range data.Rows {
		if e.Rdpcheck != nil && e.Rdpcheck.Status == stSkipped {
			e.Rdpcheck = nil // re-derived from this run's rows
		}
		if e.DP != nil && e.DP.Status == stSkipped {
			e.DP = nil
		}
		if err := data.checkRuns(e); err != nil {
			t.Fatalf("%s: %v", dataPath, err)
		}
		entries[e.key()] = e
	}

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	limiter, limitNote := regionPrlimit(*regionMem)
	start := time.Now()
	run := regionRun{
		Started:       start.UTC().Format(time.RFC3339),
		Command:       regionCommand(),
		Subset:        subset,
		NumCPU:        runtime.NumCPU(),
		CPU:           regionCPU(),
		LoadStart:     regionLoad(),
		Go:            runtime.Version(),
		Commit:        regionGit(),
		VDI:           regionVDI,
		LimitSeconds:  regionLimit.Seconds(),
		MemBytes:      *regionMem,
		ResourceLimit: limitNote,
	}
	worker := &regionWorker{python: *regionPython, peerSrc: peerSrc, limiter: limiter}
	defer worker.stop()
	ready, err := worker.start()
	if err != nil {
		t.Fatal(err)
	}
	run.Python, run.Numpy, run.Scipy = ready.Python, ready.Numpy, ready.Scipy
	run.DPAccounting, run.DPCommit, run.DPTree = ready.DPAccounting, ready.DPCommit, ready.DPTree
	data.Runs = append(data.Runs, run)
	runIdx := len(data.Runs) - 1
	cur := &data.Runs[runIdx]

	// A row is kept only if measured under the limits of this run.
	sameLimits := func(i int) bool {
		r := data.Runs[i]
		return r.LimitSeconds == cur.LimitSeconds && r.MemBytes == cur.MemBytes && r.VDI == cur.VDI
	}
	write := func() {
		cur.WallSeconds = math.Round(time.Since(start).Seconds()*10) / 10
		cur.LoadEnd = regionLoad()
		if err := data.write(dataPath); err != nil {
			t.Fatal(err)
		}
		if err := writeRegionTable(*regionOut, &data, grid, runIdx); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range grid.qs {
		for _, s := range grid.sigmas {
			overRdp, overDP := map[float64]bool{}, map[float64]bool{}
			for _, n := range grid.steps {
				for _, d := range grid.deltas {
					k := regionKey{q, s, n, d}
					e := entries[k]
					if e == nil {
						e = &regionEntry{Q: q, Sigma: s, Steps: n, Delta: d}
						entries[k] = e
						data.Rows = append(data.Rows, e)
					}
					switch {
					case overRdp[d]:
						e.Rdpcheck = &regionRdp{Status: stSkipped, Run: runIdx}
					case e.Rdpcheck == nil || redoRdp || !sameLimits(e.Rdpcheck.Run):
						r := runRegionRow(exe, limiter, k)
						r.Run = runIdx
						e.Rdpcheck = &r
						cur.RdpcheckRows++
					}
					overRdp[d] = e.Rdpcheck.Status == stTime || e.Rdpcheck.Status == stSkipped
					switch {
					case overDP[d]:
						e.DP = &regionPeer{Status: stSkipped, Run: runIdx}
					case e.DP == nil || redoDP || !sameLimits(e.DP.Run):
						p := worker.row(k, *regionLimit)
						p.Run = runIdx
						e.DP = &p
						cur.DPRows++
					}
					overDP[d] = e.DP.Status == stTime || e.DP.Status == stSkipped
					t.Logf("q %g sigma %g steps %d delta %g: rdpcheck %s %.2f s, dp_accounting %s %.2f s %s",
						q, s, n, d, e.Rdpcheck.Status, e.Rdpcheck.Seconds, e.DP.Status, e.DP.Seconds, e.compare())
					write()
				}
			}
		}
	}
	write()
	t.Logf("%d rdpcheck and %d dp_accounting rows computed in %.0f s", cur.RdpcheckRows, cur.DPRows, cur.WallSeconds)
}

// checkRuns refuses an entry whose sides name a run the file does not hold.
func (d *regionData) checkRuns(e *regionEntry) error {
	for _, i := range []int{runOf(e.Rdpcheck), runOfPeer(e.DP)} {
		if i < -1 || i >= len(d.Runs) {
			return fmt.Errorf("row %s names run %d of %d", formatRegionRow(e.key()), i, len(d.Runs))
		}
	}
	return nil
}

func runOf(r *regionRdp) int {
	if r == nil {
		return -1
	}
	return r.Run
}

func runOfPeer(p *regionPeer) int {
	if p == nil {
		return -1
	}
	return p.Run
}

// write writes the data file, one run and one row a line, through a
// temporary file so that an interrupted run never leaves half a file.
func (d *regionData) write(path string) error {
	sort.Slice(d.Rows, func(i, j int) bool {
		a, b := d.Rows[i], d.Rows[j]
		if a.Q != b.Q {
			return a.Q < b.Q
		}
		if a.Sigma != b.Sigma {
			return a.Sigma < b.Sigma
		}
		if a.Steps != b.Steps {
			return a.Steps < b.Steps
		}
		return a.Delta < b.Delta
	})
	var b bytes.Buffer
	about, _ := json.Marshal(d.About)
	fmt.Fprintf(&b, "{\n\"about\": %s,\n\"runs\": [", about)
	for i, r := range d.Runs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s\n%s", map[bool]string{true: "", false: ","}[i == 0], line)
	}
	b.WriteString("\n],\n\"rows\": [")
	for i, e := range d.Rows {
		e.Width, e.Compare = nil, e.compare()
		if iv, ok := e.interval(); ok {
			w := regionFloat(iv.RelWidth())
			e.Width = &w
		}
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s\n%s", map[bool]string{true: "", false: ","}[i == 0], line)
	}
	b.WriteString("\n]\n}\n")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// regionPrlimit returns the command prefix that caps a child's address
// space, and a note saying what was applied.
func regionPrlimit(mem int64) ([]string, string) {
	if mem <= 0 {
		return nil, "none"
	}
	p, err := exec.LookPath("prlimit")
	if err != nil {
		return nil, "none (prlimit not found)"
	}
	return []string{p, fmt.Sprintf("--as=%d", mem), "--"}, fmt.Sprintf("prlimit --as=%d", mem)
}

func runRegionRow(exe string, limiter []string, k regionKey) regionRdp {
	ctx, cancel := context.WithTimeout(context.Background(), *regionLimit)
	defer cancel()
	args := append(append([]string(nil), limiter...), exe, "-test.run=^TestRegionRow$", "-test.count=1",
		"-regionrow="+formatRegionRow(k))
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return regionRdp{Status: stTime, Seconds: regionLimit.Seconds()}
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(l, "REGIONROW "); ok {
			var r regionRdp
			if err := json.Unmarshal([]byte(f), &r); err != nil {
				return regionRdp{Status: "bad child output: " + oneLine(f)}
			}
			return r
		}
	}
	msg := stderr.String() + string(out)
	if strings.Contains(msg, "out of memory") {
		return regionRdp{Status: stMemory}
	}
	return regionRdp{Status: fmt.Sprintf("child failed: %v: %s", err, oneLine(firstLines(msg, 3)))}
}

func firstLines(s string, n int) string {
	l := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, " / ")
}

// regionReady is the first line the dp_accounting script prints.
type regionReady struct {
	Ready        bool    `json:"ready"`
	Python       string  `json:"python"`
	Numpy        string  `json:"numpy"`
	Scipy        string  `json:"scipy"`
	DPAccounting string  `json:"dp_accounting"`
	DPCommit     string  `json:"dp_accounting_commit"`
	DPTree       string  `json:"dp_accounting_tree"`
	VDI          float64 `json:"vdi"`
}

// regionWorker keeps one process of the dp_accounting script and hands it
// one row at a time; a row past the limit kills it, and the next row starts
// a new one.
type regionWorker struct {
	python, peerSrc string
	limiter         []string
	cmd             *exec.Cmd
	in              io.WriteCloser
	lines           chan string
	stderr          *regionTail
}

// regionTail keeps the end of a process's stderr.
type regionTail struct {
	mu sync.Mutex
	b  []byte
}

func (w *regionTail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > 4096 {
		w.b = w.b[len(w.b)-4096:]
	}
	return len(p), nil
}

func (w *regionTail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}

func (w *regionWorker) start() (regionReady, error) {
	args := append(append([]string(nil), w.limiter...), w.python, regionScript, "--vdi", strconv.FormatFloat(regionVDI, 'g', -1, 64))
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "PEER_SRC="+w.peerSrc)
	w.stderr = &regionTail{}
	cmd.Stderr = w.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return regionReady{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return regionReady{}, err
	}
	if err := cmd.Start(); err != nil {
		return regionReady{}, err
	}
	w.cmd, w.in, w.lines = cmd, in, make(chan string, 1)
	go func(lines chan<- string) {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}(w.lines)
	var ready regionReady
	select {
	case l, ok := <-w.lines:
		if !ok {
			w.stop()
			return ready, fmt.Errorf("%s exited: %s", regionScript, oneLine(w.stderr.String()))
		}
		if err := json.Unmarshal([]byte(l), &ready); err != nil || !ready.Ready {
			w.stop()
			return ready, fmt.Errorf("%s: first line %q is not its ready line (%v)", regionScript, l, err)
		}
	case <-time.After(5 * time.Minute):
		w.stop()
		return ready, fmt.Errorf("%s: not ready after 5 minutes", regionScript)
	}
	if ready.VDI != regionVDI {
		w.stop()
		return ready, fmt.Errorf("%s runs at value_discretization_interval %g, want %g", regionScript, ready.VDI, regionVDI)
	}
	return ready, nil
}

func (w *regionWorker) stop() {
	if w.cmd == nil {
		return
	}
	w.in.Close()
	w.cmd.Process.Kill()
	w.cmd.Wait()
	w.cmd = nil
}

// row asks dp_accounting for one row and waits up to limit for the answer.
func (w *regionWorker) row(k regionKey, limit time.Duration) regionPeer {
	if w.cmd == nil {
		if _, err := w.start(); err != nil {
			return regionPeer{Status: "script failed: " + oneLine(err.Error())}
		}
	}
	if _, err := fmt.Fprintln(w.in, formatRegionRow(k)); err != nil {
		w.stop()
		return regionPeer{Status: "script failed: " + oneLine(err.Error())}
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case l, ok := <-w.lines:
		if !ok {
			msg := w.stderr.String()
			w.stop()
			if strings.Contains(msg, "MemoryError") {
				return regionPeer{Status: stMemory}
			}
			return regionPeer{Status: "script crashed: " + oneLine(msg)}
		}
		var a struct {
			Q       float64          `json:"q"`
			Sigma   float64          `json:"sigma"`
			Steps   int              `json:"steps"`
			Delta   float64          `json:"delta"`
			Eps     *json.RawMessage `json:"eps"`
			Seconds float64          `json:"seconds"`
			Status  string           `json:"status"`
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			w.stop()
			return regionPeer{Status: "bad script output: " + oneLine(l)}
		}
		if (regionKey{a.Q, a.Sigma, a.Steps, a.Delta}) != k {
			w.stop()
			return regionPeer{Status: "script answered another row: " + oneLine(l)}
		}
		p := regionPeer{Seconds: a.Seconds, Status: a.Status}
		if a.Eps != nil && string(*a.Eps) != "null" {
			var x regionFloat
			if err := json.Unmarshal(*a.Eps, &x); err != nil {
				return regionPeer{Status: "bad script output: " + oneLine(l)}
			}
			p.Eps = &x
		}
		return p
	case <-timer.C:
		w.stop()
		return regionPeer{Status: stTime, Seconds: limit.Seconds()}
	}
}

// regionCommand is the command line that ran this test, from the flags set.
func regionCommand() string {
	var fl []string
	flag.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "region" || f.Name == "regionquick":
			fl = append(fl, "-"+f.Name)
		case strings.HasPrefix(f.Name, "region") && f.Name != "regionrow":
			fl = append(fl, "-"+f.Name+"="+f.Value.String())
		case f.Name == "test.timeout":
			fl = append(fl, "-timeout="+f.Value.String())
		}
	})
	return "PEER_SRC=DIR go test ./pld -run TestRegionTable -v " + strings.Join(fl, " ")
}

func regionLoad() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func regionCPU() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":")) + ", " + runtime.GOARCH
		}
	}
	return runtime.GOARCH
}

// regionGit names the commit rdpcheck's side ran at, and how many of pld's
// non-test files differ from it (this file's own changes do not count).
func regionGit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	commit := strings.TrimSpace(string(out))
	st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=all", "--", ".").Output()
	if err != nil {
		return commit + " (pld's state unknown)"
	}
	n := 0
	for _, l := range strings.Split(string(st), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasSuffix(l, "_test.go") {
			n++
		}
	}
	if n > 0 {
		return fmt.Sprintf("%s with %d files of pld changed", commit, n)
	}
	return commit
}

// writeRegionTable writes the Markdown table of the grid's rows from data,
// keeping the hand-written notes below regionNotes.
func writeRegionTable(path string, data *regionData, grid regionGrid, runIdx int) error {
	var notes []byte
	if old, err := os.ReadFile(path); err == nil {
		if i := bytes.Index(old, []byte(regionNotes)); i >= 0 {
			notes = old[i:]
		}
	}
	byKey := map[regionKey]*regionEntry{}
	for _, e := range data.Rows {
		byKey[e.key()] = e
	}
	var rows []*regionEntry
	used := map[int]bool{}
	for _, q := range grid.qs {
		for _, s := range grid.sigmas {
			for _, n := range grid.steps {
				for _, d := range grid.deltas {
					if e := byKey[regionKey{q, s, n, d}]; e != nil && e.Rdpcheck != nil && e.DP != nil {
						rows = append(rows, e)
						used[e.Rdpcheck.Run], used[e.DP.Run] = true, true
					}
				}
			}
		}
	}
	cur := data.Runs[runIdx]
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("# pld: SGMEpsilon and dp_accounting's PLD accountant over the region\n\n")
	p("Written by `%s` from [pld_region.json](pld_region.json), which holds every row below (and the runs that measured them) for machines. ", cur.Command)
	what := fmt.Sprintf("the full grid (%d rows)", grid.size())
	if cur.Subset == "quick" {
		what = fmt.Sprintf("the quick subset (`-regionquick`, %d rows; the full grid has %d)", grid.size(), regionFullGrid.size())
	}
	p("This table: %s, %d rows measured so far; q in %s, sigma in %s, steps in %s, delta in %s.\n\n",
		what, len(rows), regionList(grid.qs), regionList(grid.sigmas), regionInts(grid.steps), regionList(grid.deltas))
	p("Each row is one phase of DP-SGD (Poisson-sampled Gaussian, add/remove neighbours) and its eps(delta), asked of both sides one after the other (never at the same time) on the same machine in the same run, each in its own process, killed at the time limit:\n\n")
	p("- **rdpcheck**: `pld.SGMEpsilon([]pld.Phase{{q, sigma, steps}}, delta)` at the default options (Width 1e-3), run as a child process of the test binary. Its certified interval [Lo, Hi] holds the optimal eps; width = Hi/Lo - 1; time: SGMEpsilon alone. Status: ok, \"width not reached\" (ErrPrecision: the interval is wider than 1e-3 but still certified), or the error.\n")
	p("- **dp_accounting**: `PLDAccountant(value_discretization_interval=1e-4).compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps).get_epsilon(delta)` (pessimistic estimate and log_mass_truncation_bound -50, its defaults) by [peers/pld/dp_accounting_region.py](../peers/pld/dp_accounting_region.py), one Python process fed one row at a time (import paid once, restarted after a kill); time: those three calls.\n")
	p("- Both: \"time limit\" (killed at the limit), \"memory limit\" (out of memory under the address-space cap), \"skipped\" (this side already hit the time limit at fewer steps, same q, sigma and delta). dp vs [Lo, Hi]: where dp_accounting's eps lies against rdpcheck's interval; **below Lo** means it reports less privacy loss than the run provably spends. dp/rdp: dp_accounting's time over rdpcheck's.\n\n")
	p("Runs that measured these rows (a row's two sides come from the same run unless `-regionredo` recomputed one side):\n\n")
	wall := 0.0
	for i, r := range data.Runs {
		if !used[i] && i != runIdx {
			continue
		}
		wall += r.WallSeconds
		p("- Run %d, started %s: %s wall, %d rdpcheck and %d dp_accounting rows computed (subset %s); %d CPUs (%s), load average (1, 5, 15 min) %s at start and %s at end; %s, rdpcheck %s; Python %s, numpy %s, scipy %s, dp_accounting %s at %.7s (tree %.7s checked by the script); limit %s a row and side, address space %s.\n",
			i+1, r.Started, regionDuration(r.WallSeconds), r.RdpcheckRows, r.DPRows, r.Subset, r.NumCPU, r.CPU, r.LoadStart, r.LoadEnd,
			r.Go, r.Commit, r.Python, r.Numpy, r.Scipy, r.DPAccounting, r.DPCommit, r.DPTree, regionDuration(r.LimitSeconds), r.ResourceLimit)
	}
	p("\nTotal wall time of the runs listed: %s.\n", regionDuration(wall))
	writeRegionSummary(&b, rows, grid)
	for _, q := range grid.qs {
		for _, s := range grid.sigmas {
			head := false
			for _, e := range rows {
				if e.Q != q || e.Sigma != s {
					continue
				}
				if !head {
					p("\n## q = %g, sigma = %g\n\n", q, s)
					p("| steps | delta | eps Lo | eps Hi | width | rdpcheck s | rdpcheck status | dp_accounting eps | dp s | dp status | dp vs [Lo, Hi] | dp/rdp |\n")
					p("|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---|---:|\n")
					head = true
				}
				p("| %d | %g | %s |\n", e.Steps, e.Delta, strings.Join(regionCells(e), " | "))
			}
		}
	}
	out := append(b.Bytes(), '\n')
	if notes != nil {
		out = append(out, notes...)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// regionCells are a row's cells after steps and delta.
func regionCells(e *regionEntry) []string {
	var c []string
	r := e.Rdpcheck
	if iv, ok := e.interval(); ok {
		c = append(c, fmt.Sprintf("%.7g", iv.Lo), fmt.Sprintf("%.7g", iv.Hi), fmt.Sprintf("%.2g", iv.RelWidth()))
	} else {
		c = append(c, "", "", "")
	}
	c = append(c, regionSecs(r.Status, r.Seconds), strings.ReplaceAll(r.Status, "|", "\\|"))
	eps, ok := e.dpEps()
	if ok {
		c = append(c, fmt.Sprintf("%.7g", eps))
	} else {
		c = append(c, "")
	}
	c = append(c, regionSecs(e.DP.Status, e.DP.Seconds), strings.ReplaceAll(e.DP.Status, "|", "\\|"))
	cmp := e.compare()
	if cmp == "below Lo" {
		cmp = "**below Lo**"
	}
	c = append(c, cmp)
	if _, ok := e.interval(); ok && e.DP.Status == "ok" && r.Seconds > 0 {
		c = append(c, fmt.Sprintf("%.2g", e.DP.Seconds/r.Seconds))
	} else {
		c = append(c, "")
	}
	return c
}

func regionSecs(status string, s float64) string {
	switch status {
	case stTime:
		return fmt.Sprintf("> %.0f", s)
	case stSkipped:
		return ""
	}
	if strings.HasPrefix(status, "script") || strings.HasPrefix(status, "child") || status == stMemory {
		return ""
	}
	return fmt.Sprintf("%.3f", s)
}

// writeRegionSummary writes the counts per region (q, sigma) and lists every
// dp_accounting answer below rdpcheck's Lo.
func writeRegionSummary(b *bytes.Buffer, rows []*regionEntry, grid regionGrid) {
	type counts struct{ rows, width, faster, goal, below, inside, above, none int }
	add := func(c *counts, e *regionEntry) {
		c.rows++
		w, f := e.widthMet(), e.rdpFaster()
		c.width += b2i(w)
		c.faster += b2i(f)
		c.goal += b2i(w && f)
		switch e.compare() {
		case "below Lo":
			c.below++
		case "inside":
			c.inside++
		case "above Hi":
			c.above++
		default:
			c.none++
		}
	}
	var total counts
	per := map[[2]float64]*counts{}
	for _, e := range rows {
		k := [2]float64{e.Q, e.Sigma}
		if per[k] == nil {
			per[k] = &counts{}
		}
		add(per[k], e)
		add(&total, e)
	}
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n## Summary\n\n")
	p("Of %d rows: rdpcheck reaches width 1e-3 in **%d**; it is faster than dp_accounting in **%d** (it gave its interval in less time, or dp_accounting hit the time limit); both (the goal) in **%d**. dp_accounting's eps is **below Lo in %d**, inside [Lo, Hi] in %d, above Hi in %d, and not comparable in %d (one side gave no answer).\n\n",
		total.rows, total.width, total.faster, total.goal, total.below, total.inside, total.above, total.none)
	p("| q | sigma | rows | width <= 1e-3 | rdpcheck faster | both | dp below Lo | dp inside | dp above Hi | no comparison |\n")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, q := range grid.qs {
		for _, s := range grid.sigmas {
			if c := per[[2]float64{q, s}]; c != nil {
				p("| %g | %g | %d | %d | %d | %d | %d | %d | %d | %d |\n", q, s, c.rows, c.width, c.faster, c.goal, c.below, c.inside, c.above, c.none)
			}
		}
	}
	p("| all | | %d | %d | %d | %d | %d | %d | %d | %d |\n", total.rows, total.width, total.faster, total.goal, total.below, total.inside, total.above, total.none)
	p("\ndp_accounting's answers below rdpcheck's Lo")
	if total.below == 0 {
		p(": none.\n")
		return
	}
	p(" (below by (Lo - eps)/Lo):\n\n")
	for _, e := range rows {
		if e.compare() == "below Lo" {
			iv, _ := e.interval()
			eps, _ := e.dpEps()
			p("- q %g, sigma %g, %d steps, delta %g: dp_accounting %.10g < Lo %.10g (Hi %.10g), below by %.3g\n",
				e.Q, e.Sigma, e.Steps, e.Delta, eps, iv.Lo, iv.Hi, (iv.Lo-eps)/iv.Lo)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func regionList(x []float64) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

func regionInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.FormatFloat(float64(v), 'g', -1, 64)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

func regionDuration(s float64) string {
	return (time.Duration(s*10) * time.Second / 10).String()
}

// TestRegionMachinery checks the region table's bookkeeping on made-up
// rows (no measurement): how a peer's eps is placed against the interval,
// which side counts as faster, that the data file reads back as written
// (infinities included), and that the table lists a peer answer below Lo
// and keeps the notes.
func TestRegionMachinery(t *testing.T) {
	f := func(x float64) *regionFloat { r := regionFloat(x); return &r }
	entry := func(rdpStatus string, lo, hi, rdpSecs float64, dpStatus string, eps, dpSecs float64) *regionEntry {
		e := &regionEntry{Q: 0.01, Sigma: 1, Steps: 100, Delta: 1e-5,
			Rdpcheck: &regionRdp{Seconds: rdpSecs, Status: rdpStatus},
			DP:       &regionPeer{Seconds: dpSecs, Status: dpStatus}}
		if rdpStatus == "ok" || rdpStatus == stWidth {
			e.Rdpcheck.Lo, e.Rdpcheck.Hi = f(lo), f(hi)
		}
		if dpStatus == "ok" {
			e.DP.Eps = f(eps)
		}
		return e
	}
	for _, c := range []struct {
		e              *regionEntry
		compare        string
		faster, widthM bool
	}{
		{entry("ok", 1, 1.0005, 1, "ok", 0.9999, 2), "below Lo", true, true},
		{entry("ok", 1, 1.0005, 1, "ok", 1, 0.5), "inside", false, true},
		{entry("ok", 1, 1.0005, 1, "ok", 1.0005, 1), "inside", false, true},
		{entry("ok", 1, 1.0005, 1, "ok", 1.0006, 3), "above Hi", true, true},
		{entry("ok", 1, 1.0005, 1, "ok", math.Inf(1), 3), "above Hi", true, true},
		{entry(stWidth, 1, 1.01, 1, stTime, 0, 60), "", true, false},
		{entry(stWidth, 1, 1.01, 1, stSkipped, 0, 0), "", true, false},
		{entry(stTime, 0, 0, 60, "ok", 1, 0.1), "", false, false},
		{entry("ok", 1, 1.0005, 1, stMemory, 0, 0), "", false, true},
		{entry("ok", 1, 1.0005, 1, "ValueError: no", 0, 0), "", false, true},
	} {
		if got := c.e.compare(); got != c.compare {
			t.Errorf("compare(%+v, %+v) = %q, want %q", *c.e.Rdpcheck, *c.e.DP, got, c.compare)
		}
		if got := c.e.rdpFaster(); got != c.faster {
			t.Errorf("rdpFaster(%+v, %+v) = %v, want %v", *c.e.Rdpcheck, *c.e.DP, got, c.faster)
		}
		if got := c.e.widthMet(); got != c.widthM {
			t.Errorf("widthMet(%+v) = %v, want %v", *c.e.Rdpcheck, got, c.widthM)
		}
	}

	for _, x := range []float64{0, 5e-324, 0.1, 1e308, math.Inf(1), math.Inf(-1), math.NaN()} {
		b, err := json.Marshal(regionFloat(x))
		if err != nil {
			t.Fatal(err)
		}
		var y regionFloat
		if err := json.Unmarshal(b, &y); err != nil || math.Float64bits(float64(y)) != math.Float64bits(x) && !(math.IsNaN(x) && math.IsNaN(float64(y))) {
			t.Errorf("regionFloat %g: wrote %s, read %g (%v)", x, b, float64(y), err)
		}
	}

	dir := t.TempDir()
	below := entry("ok", 2.5, 2.501, 0.5, "ok", 2.4, 1)
	below.Steps = 10
	data := regionData{Runs: []regionRun{{Subset: "quick", LimitSeconds: 60}}, Rows: []*regionEntry{
		entry(stTime, 0, 0, 60, "ok", 1, 0.1), below}}
	jsonPath, mdPath := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.md")
	if err := data.write(jsonPath); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(jsonPath)
	var back regionData
	if err := json.Unmarshal(first, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.write(jsonPath); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(jsonPath); !bytes.Equal(first, second) {
		t.Errorf("the data file does not read back as written:\n%s\nthen\n%s", first, second)
	}
	lo, hi := 2.5, 2.501 // width hi/lo - 1 in float64, not in exact constant arithmetic
	if back.Rows[0].Steps != 10 || back.Rows[0].Compare != "below Lo" || *back.Rows[0].Width != regionFloat(hi/lo-1) {
		t.Errorf("rows not in grid order or derived fields wrong: %s", first)
	}
	notes := regionNotes + "\nhand-written\n"
	if err := os.WriteFile(mdPath, []byte("old table\n"+notes), 0o644); err != nil {
		t.Fatal(err)
	}
	grid := regionGrid{qs: []float64{0.01}, sigmas: []float64{1}, steps: []int{10, 100}, deltas: []float64{1e-5}}
	if err := writeRegionTable(mdPath, &back, grid, 0); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(mdPath)
	for _, want := range []string{
		"Of 2 rows: rdpcheck reaches width 1e-3 in **1**; it is faster than dp_accounting in **1**",
		"**below Lo in 1**",
		"- q 0.01, sigma 1, 10 steps, delta 1e-05: dp_accounting 2.4 < Lo 2.5 (Hi 2.501), below by 0.04\n",
		"| 100 | 1e-05 |  |  |  | > 60 | time limit | 1 | 0.100 | ok |  |  |\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if !strings.HasSuffix(string(md), "\n"+notes) || strings.Contains(string(md), "old table") {
		t.Errorf("notes not kept below the new table:\n%s", md)
	}
}
