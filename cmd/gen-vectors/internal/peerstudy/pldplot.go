package peerstudy

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PLDSlackName is the picture PLDSlackPlot writes, beside the findings
// (relative to vectors/).
const PLDSlackName = "pld_slack.png"

// slackMethods are the methods the picture shows: the two upper bounds a
// practitioner meets most (RDP, dp_accounting's pessimistic PLD), PRV's
// upper bound, and the central-limit GDP, with their marks.
var slackMethods = []struct {
	name, label string
	shape       draw.GlyphDrawer
	color       color.Color
}{
	{"dp_accounting_rdp", "RDP (dp_accounting 0.6.0, its 156 orders)", draw.TriangleGlyph{}, color.RGBA{R: 200, G: 60, B: 30, A: 255}},
	{"dp_accounting_pld_pessimistic_0.0001", "PLD, pessimistic, grid 1e-4 (dp_accounting 0.6.0)", draw.CircleGlyph{}, color.RGBA{R: 30, G: 90, B: 200, A: 255}},
	{"prv_accountant_upper", "PRV, upper (prv_accountant 0.2.0, remove only)", draw.SquareGlyph{}, color.RGBA{R: 40, G: 150, B: 60, A: 255}},
	{"opacus_gdp_poisson", "GDP, central limit (Opacus 1.5.4)", draw.CrossGlyph{}, color.RGBA{R: 120, G: 40, B: 160, A: 255}},
}

// PLDSlackPlot draws, for eps at delta = 1e-5, each method's answer over
// the certified lower bound Lo of the optimal eps, against the run's
// number of steps: 1 is the floor (below it, unsound), and the height
// above it bounds the method's over-statement from above (the truth is in
// [Lo, Hi]). Runs whose interval is not positive or is wider than
// slackMaxWidth are left out.
func PLDSlackPlot(profile []byte, cert *PLDCertified, path string) error {
	recs, err := readPLDProfile(profile)
	if err != nil {
		return err
	}
	gs, err := gradePLD(recs, cert)
	if err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = "How far each accountant's eps is from the optimal eps (delta = 1e-5, 34 DP-SGD runs)"
	p.X.Label.Text = "steps of the run (all phases)"
	p.Y.Label.Text = "reported eps / certified floor"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Tick.Marker = plot.ConstantTicks(ratioTicks(0.01, 100))
	p.Add(plotter.NewGrid())
	for _, m := range slackMethods {
		var xy plotter.XYs
		for _, g := range gs {
			if !slackDrawn(g, m.name) {
				continue
			}
			steps := 0.0
			for _, ph := range g.rec.Run {
				steps += ph[2]
			}
			xy = append(xy, plotter.XY{X: steps, Y: g.v / g.lo})
		}
		if len(xy) == 0 {
			return fmt.Errorf("%s: no answers to draw", m.name)
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Shape: m.shape, Color: m.color, Radius: vg.Points(3.5)}
		p.Add(s)
		p.Legend.Add(m.label, s)
	}
	floor, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}, {X: 2e6, Y: 1}})
	if err != nil {
		return err
	}
	floor.Width = vg.Points(1.5)
	floor.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(floor)
	p.Legend.Add("certified floor: below it the answer is unsound", floor)
	p.X.Min, p.X.Max = 1, 2e6
	p.Y.Min, p.Y.Max = 0.01, 100
	// The bottom band (below 0.05) holds no answer: the legend goes there
	// (slackRange checks that it stays empty).
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), vg.Points(6)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	for _, m := range slackMethods {
		if lo, _ := slackRange(gs, m.name); lo < 0.05 {
			return fmt.Errorf("%s: a ratio %g under the legend's band", m.name, lo)
		}
	}
	return p.Save(9*vg.Inch, 5.5*vg.Inch, path)
}

// slackMaxWidth is the widest interval (Hi/Lo - 1) the picture uses: on
// a wider one the ratio to Lo says more about the certificate than about
// the method.
const slackMaxWidth = 1e-2

// slackDrawn reports whether g is drawn: an answer of method to eps at
// delta = 1e-5, on a run whose certified interval is positive and at most
// slackMaxWidth wide.
func slackDrawn(g pldGraded, method string) bool {
	return g.rec.Method == method && g.rec.Query.String() == pldQuery{Delta: ptr(1e-5)}.String() &&
		g.grade != gPeerError && g.lo > 0 && g.hi/g.lo-1 <= slackMaxWidth && g.v > 0
}

// slackRange returns the least and the largest ratio answer/Lo of a method
// at eps for delta = 1e-5 over the runs PLDSlackPlot draws.
func slackRange(gs []pldGraded, method string) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, g := range gs {
		if !slackDrawn(g, method) {
			continue
		}
		lo, hi = math.Min(lo, g.v/g.lo), math.Max(hi, g.v/g.lo)
	}
	return lo, hi
}

// ratioTicks marks the ratio axis in [lo, hi] at 1, 2, 5 times powers
// of ten, labelling the powers in one format. (A tick beyond the axis
// would make gonum pad the plot to show it.)
func ratioTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Log10(hi); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			label := ""
			if m == 1 {
				label = fmt.Sprint(v)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	return ts
}
