package peerstudy

import (
	"image/color"
	"math"

	"github.com/rdpcheck/rdpcheck/internal/figure"
)

// PLDSlackName is the picture PLDSlackPlot writes, beside the findings
// (relative to vectors/).
const PLDSlackName = "pld_slack.png"

// slackMethods are the methods the picture shows: the two upper bounds a
// practitioner meets most (RDP, dp_accounting's pessimistic PLD), PRV's
// upper bound, and the central-limit GDP, with their marks.
var slackMethods = []struct {
	name, label string
	shape       figure.Shape
	color       color.Color
}{
	{"dp_accounting_rdp", "RDP (dp_accounting 0.6.0, its 156 orders)", figure.Triangle, color.RGBA{R: 200, G: 60, B: 30, A: 255}},
	{"dp_accounting_pld_pessimistic_0.0001", "PLD, pessimistic, grid 1e-4 (dp_accounting 0.6.0)", figure.Circle, color.RGBA{R: 30, G: 90, B: 200, A: 255}},
	{"prv_accountant_upper", "PRV, upper (prv_accountant 0.2.0, remove only)", figure.Square, color.RGBA{R: 40, G: 150, B: 60, A: 255}},
	{"opacus_gdp_poisson", "GDP, central limit (Opacus 1.5.4)", figure.Cross, color.RGBA{R: 120, G: 40, B: 160, A: 255}},
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
	c := figure.Chart{
		Title: "How far each accountant's eps is from the optimal eps (delta = 1e-5, 34 DP-SGD runs)",
		// Fixed ranges: Draw refuses a ratio outside them rather than
		// leave its mark out without a word.
		X: figure.Axis{Label: "steps of the run (all phases)", Log: true, Min: 1, Max: 2e6},
		Y: figure.Axis{Label: "reported eps / certified floor", Log: true, Min: 0.01, Max: 100},
		Lines: []figure.Line{{Series: figure.Series{Label: "certified floor: below it the answer is unsound", Points: []figure.Point{{X: 1, Y: 1}, {X: 2e6, Y: 1}}},
			Color: color.Black, Dashes: []float64{6, 3}}},
		Width: 9,
	}
	for _, m := range slackMethods {
		marks := figure.Marks{Series: figure.Series{Label: m.label}, Shape: m.shape, Color: m.color}
		for _, g := range gs {
			if !slackDrawn(g, m.name) {
				continue
			}
			steps := 0.0
			for _, ph := range g.rec.Run {
				steps += ph[2]
			}
			marks.Points = append(marks.Points, figure.Point{X: steps, Y: g.v / g.lo})
		}
		c.Marks = append(c.Marks, marks)
	}
	return c.Draw(path)
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
