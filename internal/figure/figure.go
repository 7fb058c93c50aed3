// Package figure draws the project's charts with gonum.org/v1/plot (the
// line charts of rdpcheck curve and the pictures of cmd/plots); the file's
// extension picks the format.
//
// Every figure is laid out the same way (Save): a margin on each side,
// so that no title or tick label touches the edge; the legend in a strip
// under the plot, so that it covers no data; and ticks only inside the
// axis range, with one label format per axis (gonum pads a plot with an
// empty band for a tick outside the range, or for a rotated axis label
// taller than the plot).
package figure

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one labelled line.
type Series struct {
	Label string
	XY    plotter.XYs
}

// SeriesOf keeps the points a log-log chart can show (finite, positive).
func SeriesOf(label string, x, y []float64) Series {
	s := Series{Label: label}
	for i := range x {
		if x[i] > 0 && y[i] > 0 && !math.IsInf(x[i], 0) && !math.IsInf(y[i], 0) {
			s.XY = append(s.XY, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	return s
}

// Margin is the blank border around every figure.
const Margin = 6 * vg.Millimeter / 2

// Save draws p with a margin on every side and the legend, if it has
// entries, in a strip under the plot, and writes it to path (.png or
// .svg), w by h.
func Save(p *plot.Plot, legend *plot.Legend, w, h vg.Length, path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "png" && format != "svg" {
		return fmt.Errorf("%s: want a .png or .svg file name", path)
	}
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	dc = draw.Crop(dc, Margin, -Margin, Margin, -Margin)
	if legend != nil {
		legend.Top, legend.Left = true, true
		lh := legend.Rectangle(dc).Size().Y
		if lh > 0 {
			// the legend at the bottom, then a gap, then the plot
			strip := lh + 4*vg.Millimeter
			legend.Draw(draw.Crop(dc, 0, 0, 0, -(h - 2*Margin - lh)))
			dc = draw.Crop(dc, 0, 0, strip, 0)
		}
	}
	if _, ok := p.Y.Scale.(plot.LogScale); ok && p.Y.Label.Text != "" {
		// gonum reserves room for a rotated Y label centred at the
		// arithmetic middle of the axis range, which on a log scale sits
		// near the top: it pads the plot with an empty band above. Draw
		// the label here instead, at the middle of the data area.
		label := p.Y.Label.Text
		p.Y.Label.Text = ""
		sty := p.Y.Label.TextStyle
		sty.Rotation += math.Pi / 2
		x := p.X
		below := x.Label.TextStyle.Height(x.Label.Text) + x.Label.Padding + x.Tick.Label.Height("0") + x.Tick.Length + x.Width/2 + x.Padding
		above := vg.Length(0)
		if p.Title.Text != "" {
			above = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		h := p.Y.Label.TextStyle.Height(label)
		descent := p.Y.Label.TextStyle.FontExtents().Descent
		dc.FillText(sty, vg.Point{X: dc.Min.X + h - descent, Y: (dc.Min.Y + below + dc.Max.Y - above) / 2}, label)
		dc = draw.Crop(dc, h+p.Y.Label.Padding, 0, 0, 0)
	}
	p.Draw(dc)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := cw.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// NewLegend is a legend in the figures' style.
func NewLegend() *plot.Legend {
	l := plot.NewLegend()
	l.ThumbnailWidth = vg.Points(24)
	return &l
}

// LogTicks marks the powers of ten within [min, max] (labelled, one format:
// the shortest decimal) and the multiples 2..9 of them (unlabelled); where
// the range holds fewer than two powers of ten, the multiples 2 and 5 are
// labelled too. No tick lies outside the range.
type LogTicks struct{}

func (LogTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	powers := 0
	for e := lo; e <= hi; e++ {
		if p := math.Pow(10, e); p >= min && p <= max {
			powers++
		}
	}
	for e := lo; e <= hi; e++ {
		p := math.Pow(10, e)
		for m := 1.0; m < 10; m++ {
			v := m * p
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (powers < 2 && (m == 2 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// niceDown is the largest 1, 2 or 5 times a power of ten at or below x > 0
// (so that a log axis starts at a round value, at most 2.5 times lower).
func niceDown(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return p / 2
}

// niceUp is the smallest 1, 2 or 5 times a power of ten at or above x > 0.
func niceUp(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// LinearTicks marks every step from start to max (labelled with the
// shortest decimal) and every minor between them (unlabelled).
type LinearTicks struct{ Start, Step, Minor float64 }

func (l LinearTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for v := math.Ceil(min/l.Minor) * l.Minor; v <= max+1e-9; v += l.Minor {
		t := plot.Tick{Value: v}
		if k := (v - l.Start) / l.Step; v >= l.Start-1e-9 && math.Abs(k-math.Round(k)) < 1e-9 {
			t.Label = strconv.FormatFloat(math.Round(v/l.Minor)*l.Minor, 'g', -1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// Lines writes a line chart, with both axes on log scales if logXY,
// the legend under it.
func Lines(path, title, xlabel, ylabel string, logXY bool, ss []Series) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	legend := NewLegend()
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, s := range ss {
		if len(s.XY) == 0 {
			return fmt.Errorf("%s: no positive finite points to draw", s.Label)
		}
		l, err := plotter.NewLine(s.XY)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		legend.Add(s.Label, l)
		for _, pt := range s.XY {
			xmin, xmax = min(xmin, pt.X), max(xmax, pt.X)
			ymin, ymax = min(ymin, pt.Y), max(ymax, pt.Y)
		}
	}
	if logXY {
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = LogTicks{}, LogTicks{}
		if ymin == ymax {
			ymin, ymax = ymin/2, ymax*2
		}
		if xmin == xmax {
			xmin, xmax = xmin/2, xmax*2
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = niceDown(xmin), niceUp(xmax), niceDown(ymin), niceUp(ymax)
	}
	h := 4.5*vg.Inch + vg.Length(len(ss))*vg.Points(14)
	return Save(p, legend, 7*vg.Inch, h, path)
}
