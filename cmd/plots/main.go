// Command plots draws the pictures of the README and docs/: a maintainer's
// job, kept out of the user's rdpcheck command.
package main

import (
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/rdpcheck/rdpcheck/dpevent"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/internal/figure"
)

const usage = `usage: go run ./cmd/plots [-out DIR]

Regenerates the pictures the README and the pages under docs/ show,
as PNG files in -out (default docs):

  dpsgd_curve.png    the RDP curve of TF Privacy's tutorial DP-SGD run and,
                     per order, the eps it converts to at delta = 1e-5, with
                     rdpcheck epsilon's answer (the best order) and
                     dp_accounting's (the best of its grid) marked
  composition.png    k applications of the Gaussian mechanism (sigma = 20,
                     delta = 1e-5): total eps under advanced composition, RDP
                     at one order, RDP optimised over orders, and zCDP
  heatmap_PEER.png   per TF Privacy version, its RDP's worst relative error
                     against the reference over (q, alpha), from the vectors
                     in vectors/tfprivacy/sgm_rdp.json
`

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run draws every picture into -out, naming each file it wrote on stderr;
// it returns the exit status (2 for a usage error, 1 for a failure).
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("plots", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	out := fs.String("out", "docs", "output `directory`")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "plots: unexpected argument %q\n%s", fs.Arg(0), usage)
		return 2
	}
	if err := drawAll(*out, stderr); err != nil {
		fmt.Fprintf(stderr, "plots: %v\n", err)
		return 1
	}
	return 0
}

func drawAll(out string, stderr io.Writer) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		draw func(path string) error
	}{{"dpsgd_curve.png", plotDPSGD}, {"composition.png", plotComposition}} {
		path := filepath.Join(out, p.name)
		if err := p.draw(path); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
	names, err := plotHeatmaps(out)
	if err != nil {
		return err
	}
	for _, n := range names {
		fmt.Fprintf(stderr, "wrote %s\n", filepath.Join(out, n))
	}
	return nil
}

// plotDPSGD: TF Privacy's tutorial (n = 60000, batch 256, 60 epochs, sigma
// 1.1), its RDP curve and the eps of the improved conversion at delta =
// 1e-5 from each order, over orders from 1.05 to 16 by 0.01, with the two
// answers marked: rdpcheck epsilon's (the best order, as the README's
// command prints it) and dp_accounting's (the best of its 156 orders).
func plotDPSGD(path string) error {
	const n, batch, epochs, sigma, delta = 60000.0, 256.0, 60.0, 1.1, 1e-5
	q := batch / n
	steps := int(math.Ceil(epochs * n / batch))
	var orders []float64
	for i := 105; i <= 1600; i++ {
		orders = append(orders, float64(i)/100)
	}
	rdp := make([]float64, len(orders))
	if err := fast.SGMCurve(q, sigma, steps, orders, rdp); err != nil {
		return err
	}
	epsAt := make([]float64, len(orders))
	for i := range orders {
		e, _, err := fast.Epsilon(orders[i:i+1], rdp[i:i+1], delta, fast.Improved)
		if err != nil {
			return err
		}
		epsAt[i] = e
	}
	// the marked answers are the commands' own: the run's plan
	plan, err := dpevent.DPSGD([]dpevent.Phase{{Q: q, Sigma: sigma, Steps: int64(steps)}}, false)
	if err != nil {
		return err
	}
	g, err := plan.Epsilon(delta, fast.DefaultOrders(), fast.Improved) // dp_accounting's 156 orders
	if err != nil {
		return err
	}
	b, err := plan.Epsilon(delta, nil, fast.Improved)
	if err != nil {
		return err
	}
	grid, gridOrder, best, bestOrder := g.Epsilon, g.Order, b.Epsilon, b.Order
	return figure.Chart{
		Title: fmt.Sprintf("TF Privacy's MNIST tutorial: q = 256/60000, σ = %g, %d steps, δ = 1e-5", sigma, steps),
		X:     figure.Axis{Label: "RDP order α", Min: 1, Max: 16, Ticks: figure.LinearTicks{Start: 2, Step: 2, Minor: 1}},
		Y:     figure.Axis{Label: "ε (nats, log scale)", Log: true, Min: 0.1, Max: 100},
		Lines: []figure.Line{
			{Series: figure.SeriesOf("RDP of the whole run at order α", orders, rdp)},
			{Series: figure.SeriesOf("ε for δ = 1e-5 from order α alone (improved conversion)", orders, epsAt)},
		},
		Marks: []figure.Marks{
			// a ring and a cross, so that both show where the two answers meet
			{Series: figure.Series{Label: fmt.Sprintf("rdpcheck epsilon (best order): ε = %.5f at order %.3f", best, bestOrder), Points: []figure.Point{{X: bestOrder, Y: best}}},
				Shape: figure.Ring, Color: color.RGBA{0x1f, 0x5f, 0xbf, 0xff}, Radius: 7},
			{Series: figure.Series{Label: fmt.Sprintf("dp_accounting (best of its 156 orders): ε = %.5f at order %g", grid, gridOrder), Points: []figure.Point{{X: gridOrder, Y: grid}}},
				Shape: figure.Cross, Color: color.Black, Radius: 5},
		},
		Width: 8, Height: 5.5,
	}.Draw(path)
}

// plotComposition compares accounting methods for k applications of the
// Gaussian mechanism with sigma = 20 at delta = 1e-5.
//
//   - advanced composition (Dwork, Rothblum, Vadhan 2010): each application is
//     (eps0, delta0)-DP with eps0 = sqrt(2 log(1.25/delta0))/sigma (Dwork-Roth
//     Theorem A.1, valid for eps0 < 1), delta0 = delta/(2k), delta' = delta/2;
//   - RDP at the fixed order 8 and optimised over the default orders, both
//     with the improved conversion;
//   - zCDP: rho = k/(2 sigma^2), eps = rho + 2 sqrt(rho log(1/delta)).
func plotComposition(path string) error {
	const sigma, delta = 20.0, 1e-5
	orders := fast.DefaultOrders()
	var ks []float64
	for k := 1.0; k <= 1e5; k *= math.Pow(10, 0.125) {
		ks = append(ks, math.Round(k))
	}
	adv, fixed, opt, zcdp := make([]float64, len(ks)), make([]float64, len(ks)), make([]float64, len(ks)), make([]float64, len(ks))
	rdp := make([]float64, len(orders))
	for i, kf := range ks {
		k := int(kf)
		delta0 := delta / (2 * kf)
		eps0 := math.Sqrt(2*math.Log(1.25/delta0)) / sigma
		var err error
		if adv[i], err = fast.AdvancedComposition(eps0, k, delta/2); err != nil {
			return err
		}
		for j, a := range orders {
			g, err := fast.Gaussian(sigma, a)
			if err != nil {
				return err
			}
			rdp[j] = g * kf
		}
		if opt[i], _, err = fast.Epsilon(orders, rdp, delta, fast.Improved); err != nil {
			return err
		}
		g8, _ := fast.Gaussian(sigma, 8)
		if fixed[i], _, err = fast.Epsilon([]float64{8}, []float64{g8 * kf}, delta, fast.Improved); err != nil {
			return err
		}
		if zcdp[i], err = fast.ZCDPEpsilon(kf/(2*sigma*sigma), delta); err != nil {
			return err
		}
	}
	return figure.Lines(path, fmt.Sprintf("k Gaussian mechanisms, σ = %g, δ = 1e-5: total ε by accounting method", sigma),
		"k, number of mechanisms composed", "total ε (nats)", true, []figure.Series{
			figure.SeriesOf("advanced composition (Dwork, Rothblum, Vadhan 2010)", ks, adv),
			figure.SeriesOf("RDP at order 8 only, improved conversion", ks, fixed),
			figure.SeriesOf("zCDP: ρ + 2 sqrt(ρ log(1/δ)), ρ = k/(2σ²)", ks, zcdp),
			figure.SeriesOf("RDP, best of dp_accounting's 156 orders, improved conversion", ks, opt),
		})
}
