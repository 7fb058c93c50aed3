package peerstudy

// peers/pld/certified.json: package pld's certified intervals for every
// (run, query) of peers/pld/profile.json, the floor and ceiling against which
// vectors/pld_FINDINGS.md grades the peers. Computing them takes minutes, so
// they are cached in a committed file and recomputed only on request
// (go test ./cmd/gen-vectors/internal/peerstudy -run TestPLDCertified -pldcache).

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/rdpcheck/rdpcheck/pld"
)

// PLDCertifiedName is the cache, relative to the repository root.
const PLDCertifiedName = "peers/pld/certified.json"

// PLDCertifiedCommand rewrites the cache. The cache records the command
// that wrote it; this one is the command of the package as it is now.
const PLDCertifiedCommand = "go test ./cmd/gen-vectors/internal/peerstudy -run TestPLDCertified -pldcache -timeout 2h"

// PLDGrids are the fixed grid spacings (pld.Options.H) at which every query
// is certified. Each gives a certified interval on its own; the cache keeps
// each one and their intersection, which is certified too (the true value
// lies in both), and an empty intersection would be a contradiction between
// two certificates, reported as an error. Fixed grids rather than
// pld.Options.Width: refining until a relative width of 1e-3 ran past
// Options.MaxGrid after about a minute on some of these runs (sigma 0.56 and
// 0.7, and the 1e6-step run) and returned no interval.
var PLDGrids = []float64{0x1p-12, 0x1p-14}

// jf is a float64 that JSON-encodes +-Inf and NaN as the strings "inf",
// "-inf" and "nan" (as peers/pld/profile.json does) and finite values in
// the shortest form that round-trips.
type jf float64

func (x jf) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	case math.IsNaN(f):
		return []byte(`"nan"`), nil
	}
	return []byte(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func (x *jf) UnmarshalJSON(b []byte) error {
	f, err := parseValue(b)
	*x = jf(f)
	return err
}

// parseValue reads a JSON number or one of "inf", "-inf", "nan".
func parseValue(b []byte) (float64, error) {
	var s string
	if json.Unmarshal(b, &s) == nil {
		switch s {
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		case "nan":
			return math.NaN(), nil
		}
		return 0, fmt.Errorf("value %q is not a number", s)
	}
	return strconv.ParseFloat(string(b), 64)
}

// pldQuery is one question asked of a run: eps at Delta, or delta at Eps.
type pldQuery struct {
	Delta *float64 `json:"delta,omitempty"`
	Eps   *float64 `json:"eps,omitempty"`
}

func (q pldQuery) String() string {
	if q.Delta != nil {
		return "eps at delta=" + strconv.FormatFloat(*q.Delta, 'g', -1, 64)
	}
	return "delta at eps=" + strconv.FormatFloat(*q.Eps, 'g', -1, 64)
}

// pldAttempt is the certified interval at one grid spacing.
type pldAttempt struct {
	H       float64 `json:"h"`
	Lo      jf      `json:"lo"`
	Hi      jf      `json:"hi"`
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
}

// PLDCertEntry is the certified interval [Lo, Hi] of one (run, query), the
// intersection of the Attempts that returned one; Error is set (and Lo, Hi
// are meaningless) when none did.
type PLDCertEntry struct {
	Run      [][3]float64 `json:"run"`
	Query    pldQuery     `json:"query"`
	Lo       jf           `json:"lo"`
	Hi       jf           `json:"hi"`
	Error    string       `json:"error,omitempty"`
	Attempts []pldAttempt `json:"attempts"`
}

// PLDCertified is the cache file.
type PLDCertified struct {
	Note       string         `json:"note"`
	Command    string         `json:"command"`
	PLDCommit  string         `json:"pld_commit"`
	Head       string         `json:"head"`
	PLDDirty   bool           `json:"pld_dirty"`
	Options    []pld.Options  `json:"options"`
	Workers    int            `json:"workers"`
	Seconds    float64        `json:"seconds"`
	Entries    []PLDCertEntry `json:"entries"`
	byKeyCache map[string]*PLDCertEntry
}

func pldKey(run [][3]float64, q pldQuery) string { return fmt.Sprint(run, " ", q) }

// Lookup returns the entry of (run, q), or nil.
func (c *PLDCertified) Lookup(run [][3]float64, q pldQuery) *PLDCertEntry {
	if c.byKeyCache == nil {
		c.byKeyCache = map[string]*PLDCertEntry{}
		for i := range c.Entries {
			e := &c.Entries[i]
			c.byKeyCache[pldKey(e.Run, e.Query)] = e
		}
	}
	return c.byKeyCache[pldKey(run, q)]
}

func phasesOf(run [][3]float64) []pld.Phase {
	ph := make([]pld.Phase, len(run))
	for i, r := range run {
		ph[i] = pld.Phase{Q: r[0], Sigma: r[1], Steps: int(r[2])}
	}
	return ph
}

// certifyAt is the certified interval of (run, q) at grid spacing h. An
// error wrapping pld.ErrPrecision still carries a certified interval; any
// other error leaves none.
func certifyAt(run [][3]float64, q pldQuery, h float64) pldAttempt {
	t0 := time.Now()
	var iv pld.Interval
	var err error
	opt := pld.Options{H: h}
	if q.Delta != nil {
		iv, err = pld.SGMEpsilon(phasesOf(run), *q.Delta, opt)
	} else {
		iv, err = pld.SGMDelta(phasesOf(run), *q.Eps, opt)
	}
	a := pldAttempt{H: h, Lo: jf(iv.Lo), Hi: jf(iv.Hi), Seconds: math.Round(time.Since(t0).Seconds()*1000) / 1000}
	if err != nil {
		a.Error = err.Error()
		if !errors.Is(err, pld.ErrPrecision) {
			a.Lo, a.Hi = jf(math.NaN()), jf(math.NaN())
		}
	}
	return a
}

// certify intersects the attempts at every grid of PLDGrids.
func certify(run [][3]float64, q pldQuery) PLDCertEntry {
	e := PLDCertEntry{Run: run, Query: q, Lo: jf(math.Inf(-1)), Hi: jf(math.Inf(1))}
	var errs []string
	ok := false
	for _, h := range PLDGrids {
		a := certifyAt(run, q, h)
		e.Attempts = append(e.Attempts, a)
		if math.IsNaN(float64(a.Lo)) {
			errs = append(errs, fmt.Sprintf("h=%g: %s", h, a.Error))
			continue
		}
		ok = true
		e.Lo = jf(math.Max(float64(e.Lo), float64(a.Lo)))
		e.Hi = jf(math.Min(float64(e.Hi), float64(a.Hi)))
	}
	switch {
	case !ok:
		e.Error = fmt.Sprint(errs)
	case e.Lo > e.Hi:
		e.Error = fmt.Sprintf("certified intervals disjoint: %+v", e.Attempts)
	}
	if e.Error != "" {
		e.Lo, e.Hi = jf(math.NaN()), jf(math.NaN())
	}
	return e
}

// ComputePLDCertified certifies every (run, query) of the profile with
// workers goroutines, in the profile's order of first appearance.
func ComputePLDCertified(profile []byte, workers int) (*PLDCertified, error) {
	recs, err := readPLDProfile(profile)
	if err != nil {
		return nil, err
	}
	type job struct {
		run [][3]float64
		q   pldQuery
	}
	var jobs []job
	seen := map[string]bool{}
	for _, r := range recs {
		k := pldKey(r.Run, r.Query)
		if !seen[k] {
			seen[k] = true
			jobs = append(jobs, job{r.Run, r.Query})
		}
	}
	t0 := time.Now()
	out := make([]PLDCertEntry, len(jobs))
	// Longest first would balance better; the order is kept simple and
	// the result does not depend on it.
	idx := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				out[i] = certify(jobs[i].run, jobs[i].q)
			}
		}()
	}
	for i := range jobs {
		idx <- i
	}
	close(idx)
	wg.Wait()
	c := &PLDCertified{
		Note:    "package pld's certified interval [lo, hi] around the optimal eps(delta) or delta(eps) (add/remove, Poisson-subsampled Gaussian) of every run and query of profile.json; lo and hi are the intersection of the attempts, one per fixed grid spacing h (pld.Options.H), each certified on its own. Seconds are wall time on the machine that wrote the file.",
		Command: PLDCertifiedCommand,
		Workers: workers,
		Seconds: math.Round(time.Since(t0).Seconds()),
		Entries: out,
	}
	for _, h := range PLDGrids {
		c.Options = append(c.Options, pld.Options{H: h})
	}
	return c, nil
}

// pldRecord is one line of peers/pld/profile.json.
type pldRecord struct {
	Run    [][3]float64    `json:"run"`
	Query  pldQuery        `json:"query"`
	Method string          `json:"method"`
	Peer   string          `json:"peer"`
	Value  json.RawMessage `json:"value"`
	Error  *string         `json:"error"`
	Order  json.RawMessage `json:"order"`
}

func readPLDProfile(profile []byte) ([]pldRecord, error) {
	var recs []pldRecord
	if err := json.Unmarshal(profile, &recs); err != nil {
		return nil, fmt.Errorf("profile.json: %w", err)
	}
	return recs, nil
}

// pldRuns lists the distinct runs in order of first appearance.
func pldRuns(recs []pldRecord) [][][3]float64 {
	var runs [][][3]float64
	seen := map[string]bool{}
	for _, r := range recs {
		k := fmt.Sprint(r.Run)
		if !seen[k] {
			seen[k] = true
			runs = append(runs, r.Run)
		}
	}
	return runs
}

// pldQueries lists the distinct queries: eps queries by delta descending,
// then delta queries by eps ascending.
func pldQueries(recs []pldRecord) []pldQuery {
	var qs []pldQuery
	seen := map[string]bool{}
	for _, r := range recs {
		if k := r.Query.String(); !seen[k] {
			seen[k] = true
			qs = append(qs, r.Query)
		}
	}
	sort.SliceStable(qs, func(i, j int) bool {
		a, b := qs[i], qs[j]
		if (a.Delta != nil) != (b.Delta != nil) {
			return a.Delta != nil
		}
		if a.Delta != nil {
			return *a.Delta > *b.Delta
		}
		return *a.Eps < *b.Eps
	})
	return qs
}
