package main

// Heat maps of the TF Privacy lineage's error against the reference, from
// the committed vectors (vectors/tfprivacy/sgm_rdp.json).

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rdpcheck/rdpcheck/internal/figure"
	"github.com/rdpcheck/rdpcheck/vectors"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// errorBins are the heat map's categories, by |relative error|; the last
// also holds negative, infinite and NaN values and raised errors.
var errorBins = []struct {
	upper float64
	label string
	color color.Color
}{
	{1e-12, "<= 1e-12 (float64 noise)", color.RGBA{0xe8, 0xf0, 0xe8, 0xff}},
	{1e-9, "(1e-12, 1e-9]", color.RGBA{0xb7, 0xd7, 0xe8, 0xff}},
	{1e-6, "(1e-9, 1e-6]", color.RGBA{0x6f, 0xa8, 0xdc, 0xff}},
	{1e-3, "(1e-6, 1e-3]", color.RGBA{0xf6, 0xb2, 0x6b, 0xff}},
	{1, "(1e-3, 1]", color.RGBA{0xe0, 0x6c, 0x2e, 0xff}},
	{math.Inf(1), "> 1, negative, inf or NaN", color.RGBA{0x9e, 0x1b, 0x1b, 0xff}},
}

func binOf(relErr string, flags []string) int {
	for _, f := range flags {
		switch f {
		case "PeerNegative", "PeerNonConvergence", "PeerNaN", "PeerError":
			return len(errorBins) - 1
		}
	}
	r, err := strconv.ParseFloat(relErr, 64)
	if err != nil || math.IsNaN(r) || math.IsInf(r, 0) {
		return len(errorBins) - 1
	}
	for i, b := range errorBins {
		if math.Abs(r) <= b.upper {
			return i
		}
	}
	return len(errorBins) - 1
}

// grid is the worst bin over sigma at each (alpha, q).
type grid struct {
	qs, alphas []float64
	worst      [][]int // [alpha][q]
}

func (g grid) Dims() (c, r int)   { return len(g.alphas), len(g.qs) }
func (g grid) Z(c, r int) float64 { return float64(g.worst[c][r]) }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

type binPalette struct{}

func (binPalette) Colors() []color.Color {
	out := make([]color.Color, len(errorBins))
	for i, b := range errorBins {
		out[i] = b.color
	}
	return out
}

// swatch is a legend entry: a filled square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, c.ClipPolygonXY([]vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}}))
}

// plotHeatmaps writes one heat map per peer version into dir and returns
// the file names.
func plotHeatmaps(dir string) ([]string, error) {
	f, err := vectors.Load("tfprivacy/sgm_rdp.json")
	if err != nil {
		return nil, err
	}
	type key struct{ q, a float64 }
	var peers []string
	var qs, alphas []float64
	worst := map[string]map[key]int{}
	for _, g := range f.TestGroups {
		for _, t := range g.Tests {
			q, err1 := t.Float("q")
			a, err2 := t.Float("alpha")
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("tcId %d: %v", t.TcID, errors.Join(err1, err2))
			}
			if math.IsInf(a, 1) {
				continue // every peer is exact at alpha = inf
			}
			if !slices.Contains(qs, q) {
				qs = append(qs, q)
			}
			if !slices.Contains(alphas, a) {
				alphas = append(alphas, a)
			}
			for _, pp := range t.Peers {
				if worst[pp.Peer] == nil {
					worst[pp.Peer] = map[key]int{}
					peers = append(peers, pp.Peer)
				}
				k := key{q, a}
				worst[pp.Peer][k] = max(worst[pp.Peer][k], binOf(pp.RelativeError, pp.Flags))
			}
		}
	}
	slices.Sort(qs)
	slices.Sort(alphas)
	var names []string
	for _, peer := range peers {
		gr := grid{qs: qs, alphas: alphas, worst: make([][]int, len(alphas))}
		for i, a := range alphas {
			gr.worst[i] = make([]int, len(qs))
			for j, q := range qs {
				gr.worst[i][j] = worst[peer][key{q, a}]
			}
		}
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: the worst relative error of its RDP over σ from 0.3 to 50, against the reference", peerTitle(peer))
		p.Title.Padding = vg.Points(6)
		p.X.Label.Text = "RDP order α (the vectors' orders, evenly spaced)"
		p.Y.Label.Text = "sampling rate q (the vectors' values)"
		hm := plotter.NewHeatMap(gr, binPalette{})
		hm.Min, hm.Max = 0, float64(len(errorBins)-1)
		p.Add(hm)
		var xt, yt []plot.Tick
		for i, a := range alphas {
			label := ""
			if i%2 == 0 || i == len(alphas)-1 {
				label = strconv.FormatFloat(a, 'g', -1, 64)
			}
			xt = append(xt, plot.Tick{Value: float64(i), Label: label})
		}
		for j, q := range qs {
			yt = append(yt, plot.Tick{Value: float64(j), Label: sciLabel(q)})
		}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
		p.X.Padding, p.Y.Padding = 0, 0
		name := "heatmap_" + peer + ".png"
		if err := saveWithSideLegend(p, filepath.Join(dir, name)); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

var _ = palette.Palette(binPalette{})

// peerTitle is a vector group's peer as the findings name it.
func peerTitle(peer string) string {
	switch peer {
	case "tfprivacy_2019":
		return "TF Privacy, Oct 2019"
	case "tfprivacy_2021":
		return "TF Privacy, Aug 2021"
	case "dp_accounting_0_6_0":
		return "dp_accounting 0.6.0"
	}
	return peer
}

// sciLabel writes q in one format for the whole axis, a mantissa and a
// power of ten: 1e-8, 4e-3, 9.9e-1, 1e0.
func sciLabel(q float64) string {
	s := strconv.FormatFloat(q, 'e', -1, 64)
	m, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	return m + "e" + strconv.Itoa(exp)
}

// saveWithSideLegend draws p on the left and the bins' legend, under its
// title, in a strip on the right (a legend inside would hide cells), with
// a margin on every side.
func saveWithSideLegend(p *plot.Plot, path string) error {
	const w, h, strip = 11 * vg.Inch, 5 * vg.Inch, 2.3 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.Crop(draw.New(img), figure.Margin, -figure.Margin, figure.Margin, -figure.Margin)
	p.Draw(draw.Crop(dc, 0, -strip, 0, 0))
	l := plot.NewLegend()
	l.Add("worst |relative error|:", swatch{color.White})
	for _, b := range errorBins {
		l.Add(b.label, swatch{b.color})
	}
	l.Top, l.Left = true, true
	l.YOffs = -vg.Points(30)
	l.Draw(draw.Crop(dc, w-2*figure.Margin-strip+vg.Points(12), 0, 0, 0))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
