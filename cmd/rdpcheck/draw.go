package main

// Line charts with gonum.org/v1/plot; the file's extension picks the format.

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

type series struct {
	label string
	xy    plotter.XYs
}

// seriesOf keeps the points a log-log chart can show (finite, positive).
func seriesOf(label string, x, y []float64) series {
	s := series{label: label}
	for i := range x {
		if x[i] > 0 && y[i] > 0 && !math.IsInf(x[i], 0) && !math.IsInf(y[i], 0) {
			s.xy = append(s.xy, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	return s
}

// drawLines writes a line chart, with both axes on log scales if logXY.
func drawLines(path, title, xlabel, ylabel string, logXY bool, ss []series) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("%s: want a .png or .svg file name", path)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	if logXY {
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(12), -vg.Points(8)
	for i, s := range ss {
		if len(s.xy) == 0 {
			return fmt.Errorf("%s: no positive finite points to draw", s.label)
		}
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.label, l)
	}
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}
