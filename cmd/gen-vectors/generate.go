package main

// The reference-derived vector files. Output is deterministic: no clocks,
// fixed order, Go's shortest round-trip float formatting.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rdpcheck/rdpcheck/reference"
)

const generatorVersion = "rdpcheck gen-vectors 0.1"

// sgmGrid is the first, small grid of vectors/sgm_rdp.json: typical DP-SGD
// rates and noise, plus q = 1 (the Gaussian line) and q near 1.
var sgmGrid = struct {
	q, sigma, alpha []float64
}{
	q:     []float64{1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99, 1},
	sigma: []float64{0.5, 1, 2, 10},
	alpha: []float64{1.5, 2, 3, 10.7, 32, 256},
}

type vectorFile struct {
	Algorithm              string            `json:"algorithm"`
	GeneratorVersion       string            `json:"generatorVersion"`
	ReferencePrecisionBits int               `json:"referencePrecisionBits"`
	Header                 []string          `json:"header"`
	Notes                  map[string]string `json:"notes"`
	NumberOfTests          int               `json:"numberOfTests"`
	TestGroups             []testGroup       `json:"testGroups"`
}

type testGroup struct {
	Type      string    `json:"type"`
	Comment   string    `json:"comment"`
	Tolerance float64   `json:"relativeTolerance"`
	Tests     []sgmTest `json:"tests"`
}

type sgmTest struct {
	TcID       int      `json:"tcId"`
	Comment    string   `json:"comment"`
	Flags      []string `json:"flags"`
	Q          float64  `json:"q"`
	QHex       string   `json:"qHex"`
	Sigma      float64  `json:"sigma"`
	SigmaHex   string   `json:"sigmaHex"`
	Alpha      float64  `json:"alpha"`
	AlphaHex   string   `json:"alphaHex"`
	RDP        string   `json:"rdp"`
	RDPFloat64 float64  `json:"rdpFloat64"`
	Result     string   `json:"result"`
}

func hex(x float64) string { return strconv.FormatFloat(x, 'x', -1, 64) }

// generate returns the vector files by name (relative to vectors/).
func generate(progress io.Writer) (map[string][]byte, error) {
	type point struct{ q, sigma, alpha float64 }
	var pts []point
	for _, q := range sgmGrid.q {
		for _, s := range sgmGrid.sigma {
			for _, a := range sgmGrid.alpha {
				pts = append(pts, point{q, s, a})
			}
		}
	}
	tests := make([]sgmTest, len(pts))
	var done atomic.Int64
	errs := make([]error, len(pts))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				p := pts[i]
				v, err := reference.SGM(p.q, p.sigma, p.alpha)
				if err != nil {
					errs[i] = fmt.Errorf("SGM(%g, %g, %g): %w", p.q, p.sigma, p.alpha, err)
					continue
				}
				f, _ := v.Float64()
				flags := []string{}
				if p.alpha != math.Trunc(p.alpha) {
					flags = append(flags, "FractionalOrder")
				}
				if p.q == 1 {
					flags = append(flags, "GaussianLine")
				}
				tests[i] = sgmTest{
					Comment: fmt.Sprintf("q=%g sigma=%g alpha=%g", p.q, p.sigma, p.alpha),
					Flags:   flags,
					Q:       p.q, QHex: hex(p.q),
					Sigma: p.sigma, SigmaHex: hex(p.sigma),
					Alpha: p.alpha, AlphaHex: hex(p.alpha),
					RDP: decimal(v), RDPFloat64: f,
					Result: "valid",
				}
				if n := done.Add(1); n%25 == 0 || int(n) == len(pts) {
					fmt.Fprintf(progress, "sgm_rdp: %d/%d\n", n, len(pts))
				}
			}
		})
	}
	for i := range pts {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for i := range tests {
		tests[i].TcID = i + 1
	}
	f := vectorFile{
		Algorithm:              "SGM-RDP",
		GeneratorVersion:       generatorVersion,
		ReferencePrecisionBits: reference.DefaultPrec,
		Header: []string{
			"Rényi DP eps(alpha) of one step of the Poisson-sampled Gaussian mechanism:",
			"sampling rate q, noise multiplier sigma, l2-sensitivity 1, add/remove-one neighbours;",
			"the larger of D_alpha(mu||mu0) and D_alpha(mu0||mu), mu0 = N(0, sigma^2), mu = (1-q) mu0 + q N(1, sigma^2).",
			"Inputs are the float64 values given (decimal shortest round-trip and hex); rdp is the exact value",
			"for those binary inputs, rounded to 50 significant digits (reference package at 256 bits, Ziv-checked:",
			"relative error below 2^-255), and rdpFloat64 the nearest float64.",
		},
		Notes: map[string]string{
			"FractionalOrder": "alpha is not an integer: no finite binomial sum; peers use a series that may stop early or bound from above.",
			"GaussianLine":    "q = 1: the Gaussian mechanism, alpha/(2 sigma^2) exactly.",
		},
		NumberOfTests: len(tests),
		TestGroups: []testGroup{{
			Type:      "SgmRdp",
			Comment:   "grid q x sigma x alpha; a float64 implementation should reach the relative tolerance",
			Tolerance: 1e-12,
			Tests:     tests,
		}},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return map[string][]byte{"sgm_rdp.json": buf.Bytes()}, nil
}
