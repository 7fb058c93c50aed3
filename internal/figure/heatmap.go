package figure

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Category is a heat map's class of cell: its colour and its legend entry.
type Category struct {
	Label string
	Color color.Color
}

// HeatMap is a grid of cells, each of one Category, evenly spaced
// whatever the values its columns and rows stand for; the legend, under
// its title, goes in a strip on the right (a legend inside would hide
// cells).
type HeatMap struct {
	Title          string
	XLabel, YLabel string
	// Columns and Rows are the tick labels, one per column (left to
	// right) and row (bottom to top); "" leaves a tick unlabelled.
	Columns, Rows []string
	// Cells[c][r] is the index in Categories of column c, row r.
	Cells       [][]int
	Categories  []Category
	LegendTitle string
	// Width, Height and the legend's strip in inches; zero is 11, 5
	// and 2.3.
	Width, Height, Legend float64
}

// grid hands the cells to gonum.
type grid [][]int

func (g grid) Dims() (c, r int)   { return len(g), len(g[0]) }
func (g grid) Z(c, r int) float64 { return float64(g[c][r]) }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

type categories []Category

func (cs categories) Colors() []color.Color {
	out := make([]color.Color, len(cs))
	for i, c := range cs {
		out[i] = c.Color
	}
	return out
}

// swatch is a legend entry: a filled square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, c.ClipPolygonXY([]vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}}))
}

func (h HeatMap) check() error {
	if len(h.Cells) == 0 || len(h.Cells) != len(h.Columns) {
		return fmt.Errorf("heat map %q: %d columns of cells, %d column labels", h.Title, len(h.Cells), len(h.Columns))
	}
	if len(h.Categories) < 2 {
		return fmt.Errorf("heat map %q: %d categories, want at least 2", h.Title, len(h.Categories))
	}
	for c, col := range h.Cells {
		if len(col) == 0 || len(col) != len(h.Rows) {
			return fmt.Errorf("heat map %q: column %d has %d cells, %d row labels", h.Title, c, len(col), len(h.Rows))
		}
		for r, k := range col {
			if k < 0 || k >= len(h.Categories) {
				return fmt.Errorf("heat map %q: cell (%d, %d) is category %d, of %d", h.Title, c, r, k, len(h.Categories))
			}
		}
	}
	return nil
}

// Draw writes the heat map to path (.png or .svg).
func (h HeatMap) Draw(path string) error {
	if err := h.check(); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = h.Title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = h.XLabel
	p.Y.Label.Text = h.YLabel
	hm := plotter.NewHeatMap(grid(h.Cells), categories(h.Categories))
	hm.Min, hm.Max = 0, float64(len(h.Categories)-1)
	p.Add(hm)
	var xt, yt []plot.Tick
	for i, l := range h.Columns {
		xt = append(xt, plot.Tick{Value: float64(i), Label: l})
	}
	for j, l := range h.Rows {
		yt = append(yt, plot.Tick{Value: float64(j), Label: l})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Padding, p.Y.Padding = 0, 0

	width, height, strip := 11*vg.Inch, 5*vg.Inch, 2.3*vg.Inch
	if h.Width != 0 {
		width = vg.Length(h.Width) * vg.Inch
	}
	if h.Height != 0 {
		height = vg.Length(h.Height) * vg.Inch
	}
	if h.Legend != 0 {
		strip = vg.Length(h.Legend) * vg.Inch
	}
	cw, err := canvas(path, width, height)
	if err != nil {
		return err
	}
	dc := draw.Crop(draw.New(cw), margin, -margin, margin, -margin)
	p.Draw(draw.Crop(dc, 0, -strip, 0, 0))
	l := plot.NewLegend()
	if h.LegendTitle != "" {
		l.Add(h.LegendTitle, swatch{color.White})
	}
	for _, c := range h.Categories {
		l.Add(c.Label, swatch{c.Color})
	}
	l.Top, l.Left = true, true
	l.YOffs = -vg.Points(30)
	l.Draw(draw.Crop(dc, width-2*margin-strip+vg.Points(12), 0, 0, 0))
	return write(cw, path)
}
