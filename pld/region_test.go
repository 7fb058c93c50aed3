package pld

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	regionFlag  = flag.Bool("region", false, "measure SGMEpsilon's width and time over the issue's region and rewrite docs/pld_region.md (hours)")
	regionLimit = flag.Duration("regionlimit", 60*time.Second, "with -region: time limit of one row")
	regionOut   = flag.String("regionout", "../docs/pld_region.md", "with -region: the file written")
	regionRow   = flag.String("regionrow", "", "internal (-region runs each row as a child process): q,sigma,steps,delta")
)

const regionCmd = "go test ./pld -run TestRegionTable -region -v -timeout 6h"

// regionNotes marks the start of docs/pld_region.md's hand-written notes,
// which TestRegionTable keeps when it rewrites the table above them.
const regionNotes = "<!-- notes: kept by TestRegionTable -->"

type regionRes struct {
	iv     Interval
	secs   float64
	status string // "ok", the error, "time limit", "skipped"
}

// TestRegionRow computes one row for TestRegionTable (in a child process,
// so that a row over the time limit can be stopped).
func TestRegionRow(t *testing.T) {
	if *regionRow == "" {
		t.Skip("internal: run by TestRegionTable")
	}
	f := strings.Split(*regionRow, ",")
	v := make([]float64, 4)
	for i := range v {
		var err error
		if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now()
	iv, err := SGMEpsilon([]Phase{{v[0], v[1], int(v[2])}}, v[3])
	secs := time.Since(t0).Seconds()
	st := "ok"
	if err != nil {
		st = err.Error()
	}
	fmt.Printf("REGIONROW %.17g %.17g %.3f %s\n", iv.Lo, iv.Hi, secs, st)
}

// TestRegionTable measures SGMEpsilon at the default options over the
// issue's region (q x sigma x steps x delta) and writes the table to
// docs/pld_region.md. Each row runs in a child process with a time limit
// (-regionlimit); once a row hits it, the same q, sigma and delta at more
// steps are skipped (they only take longer).
func TestRegionTable(t *testing.T) {
	if !*regionFlag {
		t.Skip("the region table takes hours: -region")
	}
	qs := []float64{1e-4, 1e-3, 1e-2, 0.1, 0.5}
	sigmas := []float64{0.5, 1, 2, 10}
	stepsL := []int{1, 100, 10000, 1000000}
	deltas := []float64{1e-10, 1e-5, 1e-3}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# pld: SGMEpsilon's width and time over the region\n\n")
	fmt.Fprintf(&b, "Written by `%s` (limit %v a row) on %s, %s, %d CPUs (shared), %s.\n\n",
		regionCmd, *regionLimit, time.Now().UTC().Format("2006-01-02"), runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(&b, "Default options (Width 1e-3, MaxGrid 2^22), one phase of the given q, sigma and steps; eps(delta) is the certified interval [Lo, Hi], width = Hi/Lo - 1, time the wall time of SGMEpsilon alone (one row at a time). Status: ok, or the error (ErrPrecision: the width was not reached, the interval is still certified; ErrTooLarge), \"time limit\" (stopped), \"skipped\" (fewer steps already hit the limit).\n\n")
	// hand-written notes below the marker are kept
	var notes []byte
	if old, err := os.ReadFile(*regionOut); err == nil {
		if i := bytes.Index(old, []byte(regionNotes)); i >= 0 {
			notes = old[i:]
		}
	}
	write := func() {
		out := append(append([]byte(nil), b.Bytes()...), '\n')
		if notes != nil {
			out = append(out, notes...)
		}
		if err := os.WriteFile(*regionOut, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for _, s := range sigmas {
			fmt.Fprintf(&b, "\n## q = %g, sigma = %g\n\n| steps | delta | eps Lo | eps Hi | width | time (s) | status |\n|---:|---:|---:|---:|---:|---:|---|\n", q, s)
			over := map[float64]bool{}
			for _, n := range stepsL {
				for _, d := range deltas {
					var r regionRes
					if over[d] {
						r.status = "skipped"
					} else {
						r = runRegionRow(exe, q, s, n, d)
						if r.status == "time limit" {
							over[d] = true
						}
					}
					line := fmt.Sprintf("| %d | %g | %.7g | %.7g | %.2g | %.2f | %s |", n, d, r.iv.Lo, r.iv.Hi, r.iv.RelWidth(), r.secs, r.status)
					if r.status == "skipped" || r.status == "time limit" {
						line = fmt.Sprintf("| %d | %g | | | | %s | %s |", n, d, map[bool]string{true: fmt.Sprintf("> %.0f", regionLimit.Seconds()), false: ""}[r.status == "time limit"], r.status)
					}
					t.Log(q, s, line)
					fmt.Fprintln(&b, line)
					write()
				}
			}
		}
	}
}

func runRegionRow(exe string, q, s float64, n int, d float64) regionRes {
	ctx, cancel := context.WithTimeout(context.Background(), *regionLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^TestRegionRow$", "-test.count=1",
		fmt.Sprintf("-regionrow=%g,%g,%d,%g", q, s, n, d))
	out, err := cmd.Output()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return regionRes{status: "time limit", secs: regionLimit.Seconds()}
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(l, "REGIONROW "); ok {
			p := strings.SplitN(f, " ", 4)
			var r regionRes
			r.iv.Lo, _ = strconv.ParseFloat(p[0], 64)
			r.iv.Hi, _ = strconv.ParseFloat(p[1], 64)
			r.secs, _ = strconv.ParseFloat(p[2], 64)
			r.status = p[3]
			return r
		}
	}
	return regionRes{status: fmt.Sprintf("child failed: %v", err)}
}
