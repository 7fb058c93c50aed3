// Package figure draws every picture of the module with gonum.org/v1/plot
// (the line charts of rdpcheck curve, the pictures of cmd/plots and the
// peer study's): the only package that imports it (internal/layout's
// test holds that), so that every picture has one layout and one place
// to change it. The file's extension picks the format, .png or .svg.
//
// A picture is described by a value, Chart (lines and marks on two axes)
// or HeatMap (a grid of categories), and drawn by its Draw method; Lines
// is the plain line chart. The API names no gonum type: points, ticks
// and colours are this package's or the standard library's.
//
// Every figure is laid out the same way: a margin on each side, so that
// no title or tick label touches the edge; the legend outside the data
// (in a strip under a chart, on the right of a heat map), so that it
// covers no data; and ticks only inside the axis range, with one label
// format per axis (gonum pads a plot with an empty band for a tick
// outside the range, or for a rotated axis label taller than the plot).
//
// Bad input is an error, never a panic: a value a log axis cannot show,
// a non-finite one, a mark outside a fixed axis range (it would vanish
// without a word), a cell with no category.
package figure

import (
	"fmt"
	"image/color"
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

// Point is a point of a series, in the axes' units.
type Point struct{ X, Y float64 }

// Series is one labelled line.
type Series struct {
	Label  string
	Points []Point
}

// SeriesOf keeps the points a log-log chart can show (finite, positive).
func SeriesOf(label string, x, y []float64) Series {
	s := Series{Label: label}
	for i := range x {
		if x[i] > 0 && y[i] > 0 && !math.IsInf(x[i], 0) && !math.IsInf(y[i], 0) {
			s.Points = append(s.Points, Point{x[i], y[i]})
		}
	}
	return s
}

// margin is the blank border around every figure.
const margin = 6 * vg.Millimeter / 2

// Tick is a mark on an axis; an empty Label leaves it unlabelled.
type Tick struct {
	Value float64
	Label string
}

// Ticks places the ticks of an axis showing [min, max].
type Ticks interface {
	Ticks(min, max float64) []Tick
}

// FixedTicks are the same ticks whatever the range.
type FixedTicks []Tick

func (f FixedTicks) Ticks(min, max float64) []Tick { return f }

// ticker hands a Ticks to gonum.
type ticker struct{ t Ticks }

func (t ticker) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, x := range t.t.Ticks(min, max) {
		out = append(out, plot.Tick{Value: x.Value, Label: x.Label})
	}
	return out
}

// LogTicks marks the powers of ten within [min, max] (labelled, one format
// for the axis: the shortest decimal, or where one label would need an
// exponent, every label as a mantissa and a power of ten, 5e-7, 1e6) and
// the multiples 2..9 of them (unlabelled); where the range holds fewer
// than two powers of ten, the multiples 2 and 5 are labelled too. No tick
// lies outside the range.
type LogTicks struct{}

func (LogTicks) Ticks(min, max float64) []Tick {
	var ticks []Tick
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
			t := Tick{Value: v}
			if m == 1 || (powers < 2 && (m == 2 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	sci := false
	for _, t := range ticks {
		sci = sci || strings.Contains(t.Label, "e")
	}
	for i, t := range ticks {
		if sci && t.Label != "" {
			ticks[i].Label = SciLabel(t.Value)
		}
	}
	return ticks
}

// SciLabel writes v as its shortest mantissa and a power of ten, with
// neither a plus sign nor leading zeros: 1e6, 5e-7, 1e0.
func SciLabel(v float64) string {
	m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	exp, _ := strconv.Atoi(e)
	return m + "e" + strconv.Itoa(exp)
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

func (l LinearTicks) Ticks(min, max float64) []Tick {
	var ticks []Tick
	for v := math.Ceil(min/l.Minor) * l.Minor; v <= max+1e-9; v += l.Minor {
		t := Tick{Value: v}
		if k := (v - l.Start) / l.Step; v >= l.Start-1e-9 && math.Abs(k-math.Round(k)) < 1e-9 {
			t.Label = strconv.FormatFloat(math.Round(v/l.Minor)*l.Minor, 'g', -1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// Axis is one axis of a Chart.
type Axis struct {
	Label string
	// Log puts the axis on a log scale; every value on it must be
	// positive and finite.
	Log bool
	// Min and Max fix the range; both zero takes it from the data (on a
	// log axis rounded out to 1, 2 or 5 times a power of ten, on a linear
	// one gonum's). Lines are clipped at a fixed range; a mark outside it
	// is an error.
	Min, Max float64
	// Ticks places the ticks; nil is LogTicks on a log axis and gonum's
	// default on a linear one.
	Ticks Ticks
}

// Line is a labelled line of a Chart. With no Color it takes the i-th
// of the default colours and dash patterns (i its index in Chart.Lines);
// with one it is drawn in it, Dashes (on, off, ... in points) or solid.
type Line struct {
	Series
	Color  color.Color
	Dashes []float64
}

// Shape is a mark's glyph.
type Shape int

const (
	Ring Shape = iota
	Circle
	Square
	Triangle
	Cross
)

// Marks are labelled points drawn as glyphs, not joined. With no Color
// they take the i-th default colour (i their index in Chart.Marks);
// Radius is in points, 0 meaning 3.5.
type Marks struct {
	Series
	Shape  Shape
	Color  color.Color
	Radius float64
}

// Chart is a chart of lines and marks on two axes, with a grid and the
// legend (lines, then marks, in order) in a strip under it.
type Chart struct {
	Title string
	X, Y  Axis
	Lines []Line
	Marks []Marks
	// Width and Height in inches; zero is 7 wide and 4.5 high, plus 14
	// points a legend entry.
	Width, Height float64
}

// check refuses what a chart cannot show truthfully.
func (c *Chart) check() error {
	inRange := func(a Axis, v float64) bool { return a.Min == 0 && a.Max == 0 || v >= a.Min && v <= a.Max }
	shown := func(a Axis, v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && (!a.Log || v > 0) }
	var all []Series
	for _, l := range c.Lines {
		all = append(all, l.Series)
	}
	for _, m := range c.Marks {
		all = append(all, m.Series)
	}
	for i, s := range all {
		if len(s.Points) == 0 {
			return fmt.Errorf("%s: no points to draw", s.Label)
		}
		for _, p := range s.Points {
			if !shown(c.X, p.X) || !shown(c.Y, p.Y) {
				return fmt.Errorf("%s: (%g, %g) cannot be drawn on these axes (a log axis shows positive finite values, a linear one finite values)", s.Label, p.X, p.Y)
			}
			if i >= len(c.Lines) && (!inRange(c.X, p.X) || !inRange(c.Y, p.Y)) {
				return fmt.Errorf("%s: (%g, %g) is outside the axes' range [%g, %g] x [%g, %g]", s.Label, p.X, p.Y, c.X.Min, c.X.Max, c.Y.Min, c.Y.Max)
			}
		}
	}
	for _, a := range []Axis{c.X, c.Y} {
		if (a.Min != 0 || a.Max != 0) && !(a.Min < a.Max && shown(a, a.Min) && shown(a, a.Max)) {
			return fmt.Errorf("axis %q: range [%g, %g] is not an interval the axis can show", a.Label, a.Min, a.Max)
		}
	}
	return nil
}

var shapes = map[Shape]draw.GlyphDrawer{
	Ring: draw.RingGlyph{}, Circle: draw.CircleGlyph{}, Square: draw.SquareGlyph{},
	Triangle: draw.TriangleGlyph{}, Cross: draw.CrossGlyph{},
}

func xys(pts []Point) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i] = plotter.XY{X: p.X, Y: p.Y}
	}
	return out
}

// Draw writes the chart to path (.png or .svg).
func (c Chart) Draw(path string) error {
	if err := c.check(); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = c.X.Label
	p.Y.Label.Text = c.Y.Label
	p.Add(plotter.NewGrid())
	legend := newLegend()
	for i, l := range c.Lines {
		pl, err := plotter.NewLine(xys(l.Points))
		if err != nil {
			return err
		}
		pl.Width = vg.Points(1.5)
		if l.Color == nil {
			pl.Color, pl.Dashes = plotutil.Color(i), plotutil.Dashes(i)
		} else {
			pl.Color = l.Color
			for _, d := range l.Dashes {
				pl.Dashes = append(pl.Dashes, vg.Points(d))
			}
		}
		p.Add(pl)
		legend.Add(l.Label, pl)
	}
	for i, m := range c.Marks {
		s, err := plotter.NewScatter(xys(m.Points))
		if err != nil {
			return err
		}
		shape, ok := shapes[m.Shape]
		if !ok {
			return fmt.Errorf("%s: unknown shape %d", m.Label, m.Shape)
		}
		s.Shape, s.Color, s.Radius = shape, m.Color, vg.Points(m.Radius)
		if m.Color == nil {
			s.Color = plotutil.Color(i)
		}
		if m.Radius == 0 {
			s.Radius = vg.Points(3.5)
		}
		p.Add(s)
		legend.Add(m.Label, s)
	}
	for _, ax := range []struct {
		a  Axis
		pa *plot.Axis
		v  func(Point) float64
	}{{c.X, &p.X, func(q Point) float64 { return q.X }}, {c.Y, &p.Y, func(q Point) float64 { return q.Y }}} {
		if ax.a.Log {
			ax.pa.Scale = plot.LogScale{}
			ax.pa.Tick.Marker = ticker{LogTicks{}}
		}
		if ax.a.Ticks != nil {
			ax.pa.Tick.Marker = ticker{ax.a.Ticks}
		}
		switch {
		case ax.a.Min != 0 || ax.a.Max != 0:
			ax.pa.Min, ax.pa.Max = ax.a.Min, ax.a.Max // after Add, which widens them
		case ax.a.Log:
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, l := range c.Lines {
				for _, q := range l.Points {
					lo, hi = min(lo, ax.v(q)), max(hi, ax.v(q))
				}
			}
			for _, m := range c.Marks {
				for _, q := range m.Points {
					lo, hi = min(lo, ax.v(q)), max(hi, ax.v(q))
				}
			}
			if lo == hi {
				lo, hi = lo/2, hi*2
			}
			ax.pa.Min, ax.pa.Max = niceDown(lo), niceUp(hi)
		}
	}
	w, h := 7*vg.Inch, 4.5*vg.Inch+vg.Length(len(c.Lines)+len(c.Marks))*vg.Points(14)
	if c.Width != 0 {
		w = vg.Length(c.Width) * vg.Inch
	}
	if c.Height != 0 {
		h = vg.Length(c.Height) * vg.Inch
	}
	return save(p, legend, w, h, path)
}

// Lines writes a line chart, with both axes on log scales if logXY,
// the legend under it.
func Lines(path, title, xlabel, ylabel string, logXY bool, ss []Series) error {
	for _, s := range ss {
		if len(s.Points) == 0 {
			return fmt.Errorf("%s: no positive finite points to draw", s.Label)
		}
	}
	c := Chart{Title: title, X: Axis{Label: xlabel, Log: logXY}, Y: Axis{Label: ylabel, Log: logXY}}
	for _, s := range ss {
		c.Lines = append(c.Lines, Line{Series: s})
	}
	return c.Draw(path)
}

// canvas is a canvas of the format path's extension names.
func canvas(path string, w, h vg.Length) (vg.CanvasWriterTo, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("%s: want a .png or .svg file name", path)
	}
	return draw.NewFormattedCanvas(w, h, format)
}

// write writes the drawn canvas to path.
func write(cw vg.CanvasWriterTo, path string) error {
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

// save draws p with a margin on every side and the legend, if it has
// entries, in a strip under the plot, and writes it to path (.png or
// .svg), w by h.
func save(p *plot.Plot, legend *plot.Legend, w, h vg.Length, path string) error {
	cw, err := canvas(path, w, h)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	dc = draw.Crop(dc, margin, -margin, margin, -margin)
	if legend != nil {
		legend.Top, legend.Left = true, true
		lh := legend.Rectangle(dc).Size().Y
		if lh > 0 {
			// the legend at the bottom, then a gap, then the plot
			strip := lh + 4*vg.Millimeter
			legend.Draw(draw.Crop(dc, 0, 0, 0, -(h - 2*margin - lh)))
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
	return write(cw, path)
}

// newLegend is a legend in the figures' style.
func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.ThumbnailWidth = vg.Points(24)
	return &l
}
