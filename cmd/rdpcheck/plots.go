package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/rdpcheck/rdpcheck/fast"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

const plotsDoc = `Regenerates the pictures the README shows, as PNG files in -out:

  dpsgd_curve.png    the RDP curve of TF Privacy's tutorial DP-SGD run and,
                     per order, the eps it converts to at delta = 1e-5
  composition.png    k applications of the Gaussian mechanism (sigma = 20,
                     delta = 1e-5): total eps under advanced composition, RDP
                     at one order, RDP optimised over orders, and zCDP
  heatmap_PEER.png   per TF Privacy version, its RDP's worst relative error
                     against the reference over (q, alpha), from the vectors
                     in vectors/tfprivacy/sgm_rdp.json`

func init() {
	register(command{name: "plots", summary: "regenerate the README's pictures under docs/", run: runPlots})
}

func runPlots(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plots", plotsDoc, stderr)
	out := fs.String("out", "docs", "output `directory`")
	if st := parse(fs, args); st >= 0 {
		return st
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fail(stderr, "plots", err)
	}
	for _, p := range []struct {
		name string
		draw func(path string) error
	}{{"dpsgd_curve.png", plotDPSGD}, {"composition.png", plotComposition}} {
		path := filepath.Join(*out, p.name)
		if err := p.draw(path); err != nil {
			return fail(stderr, "plots", fmt.Errorf("%s: %w", p.name, err))
		}
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
	names, err := plotHeatmaps(*out)
	if err != nil {
		return fail(stderr, "plots", err)
	}
	for _, n := range names {
		fmt.Fprintf(stderr, "wrote %s\n", filepath.Join(*out, n))
	}
	return 0
}

// plotDPSGD: TF Privacy's tutorial (n = 60000, batch 256, 60 epochs, sigma
// 1.1), its RDP curve over dp_accounting's default orders and the per-order
// eps of the improved conversion at delta = 1e-5, with the minimum marked.
func plotDPSGD(path string) error {
	const n, batch, epochs, sigma, delta = 60000.0, 256.0, 60.0, 1.1, 1e-5
	q := batch / n
	steps := int(math.Ceil(epochs * n / batch))
	orders := fast.DefaultOrders()
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
	eps, order, err := fast.Epsilon(orders, rdp, delta, fast.Improved)
	if err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("DP-SGD: q = 256/60000, sigma = %g, %d steps; eps = %.4f at order %g (delta = %g)", sigma, steps, eps, order, delta)
	p.X.Label.Text = "order alpha"
	p.Y.Label.Text = "value"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	// Above order ~13 the curve shoots up (the sampled Gaussian's RDP turns
	// from ~q^2 alpha/sigma^2 to ~alpha/(2 sigma^2)); the interesting part is below.
	for i, s := range []series{
		seriesOf("RDP eps(alpha) of the whole run", orders, rdp),
		seriesOf("eps for delta = 1e-5 from order alpha (improved conversion)", orders, epsAt),
	} {
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return err
		}
		l.Color, l.Dashes, l.Width = plotutil.Color(i), plotutil.Dashes(i), vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.label, l)
	}
	best, err := plotter.NewScatter(plotter.XYs{{X: order, Y: eps}})
	if err != nil {
		return err
	}
	best.Shape = draw.CircleGlyph{}
	best.Radius = vg.Points(4)
	best.Color = plotutil.Color(2)
	p.Add(best)
	p.Legend.Add(fmt.Sprintf("minimum: eps = %.4f at order %g", eps, order), best)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1, 64, 0.1, 100 // after Add, which widens them
	p.Legend.Top, p.Legend.Left = false, false           // bottom right is empty
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), vg.Points(8)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
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
	return drawLines(path, fmt.Sprintf("k Gaussian mechanisms, sigma = %g, delta = %g: total eps by accounting method", sigma, delta),
		"k (number of compositions)", "eps", true, []series{
			seriesOf("advanced composition", ks, adv),
			seriesOf("RDP at order 8", ks, fixed),
			seriesOf("zCDP: rho + 2 sqrt(rho log(1/delta))", ks, zcdp),
			seriesOf("RDP, best of 156 orders", ks, opt),
		})
}
