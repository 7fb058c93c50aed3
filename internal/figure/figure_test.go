package figure

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// labelled returns the labelled ticks' labels and the count of all ticks,
// failing if one lies outside [min, max].
func labelled(t *testing.T, tk Ticks, min, max float64) (labels []string, n int) {
	t.Helper()
	for _, x := range tk.Ticks(min, max) {
		if x.Value < min*(1-1e-12) || x.Value > max*(1+1e-12) {
			t.Errorf("%T on [%g, %g]: tick %g outside the range", tk, min, max, x.Value)
		}
		if x.Label != "" {
			labels = append(labels, x.Label)
		}
		n++
	}
	return labels, n
}

// TestLogTicks: the labels and tick counts the doc comment of LogTicks
// promises, worked by hand: on [0.01, 100] the five powers, labelled in
// decimals, and 2..9 times each of the four lower ones (32 unlabelled);
// on [1, 2e6] every power in the exponent form, because 1e6 would need
// an exponent; on [2, 30], one power only, 2, 5, 10 and 20 labelled too.
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		labels   []string
		n        int
	}{
		{0.01, 100, []string{"0.01", "0.1", "1", "10", "100"}, 5 + 4*8},
		{1, 2e6, []string{"1e0", "1e1", "1e2", "1e3", "1e4", "1e5", "1e6"}, 7 + 6*8 + 1},
		{2, 30, []string{"2", "5", "10", "20"}, 8 + 3}, // 2..9, 10, 20, 30
	} {
		labels, n := labelled(t, LogTicks{}, c.min, c.max)
		if !slices.Equal(labels, c.labels) || n != c.n {
			t.Errorf("LogTicks on [%g, %g]: labels %q, %d ticks; want %q, %d", c.min, c.max, labels, n, c.labels, c.n)
		}
	}
}

// TestLinearTicks: plotDPSGD's axis, orders 1 to 16 with every even one
// labelled.
func TestLinearTicks(t *testing.T) {
	labels, n := labelled(t, LinearTicks{Start: 2, Step: 2, Minor: 1}, 1, 16)
	want := []string{"2", "4", "6", "8", "10", "12", "14", "16"}
	if !slices.Equal(labels, want) || n != 16 {
		t.Errorf("labels %q, %d ticks; want %q, 16", labels, n, want)
	}
}

func TestSciLabel(t *testing.T) {
	for v, want := range map[float64]string{1e6: "1e6", 5e-7: "5e-7", 1: "1e0", 0.99: "9.9e-1", 4e-3: "4e-3", 1e-8: "1e-8"} {
		if got := SciLabel(v); got != want {
			t.Errorf("SciLabel(%g) = %q, want %q", v, got, want)
		}
	}
}

func line(label string, pts ...Point) Line { return Line{Series: Series{label, pts}} }

// TestChartRefuses: what a chart cannot show truthfully is an error
// naming it, and no file is written.
func TestChartRefuses(t *testing.T) {
	ok := line("ok", Point{1, 1}, Point{10, 100})
	logAxes := Chart{X: Axis{Log: true}, Y: Axis{Log: true}}
	with := func(c Chart, f func(*Chart)) Chart { f(&c); return c }
	for _, c := range []struct {
		name, ext string
		chart     Chart
		want      string
	}{
		{"no points", ".png", with(logAxes, func(c *Chart) { c.Lines = []Line{ok, line("empty")} }), "empty: no points"},
		{"zero on a log axis", ".png", with(logAxes, func(c *Chart) { c.Lines = []Line{line("z", Point{1, 0})} }), "z: (1, 0) cannot be drawn"},
		{"NaN on a linear axis", ".png", Chart{Lines: []Line{line("n", Point{math.NaN(), 1})}}, "n: (NaN, 1) cannot be drawn"},
		{"+Inf on a linear axis", ".png", Chart{Lines: []Line{line("i", Point{1, math.Inf(1)})}}, "i: (1, +Inf) cannot be drawn"},
		{"a mark outside the fixed range", ".png", Chart{Y: Axis{Min: 0, Max: 10}, Lines: []Line{ok},
			Marks: []Marks{{Series: Series{"m", []Point{{1, 11}}}}}}, "m: (1, 11) is outside"},
		{"an empty range", ".png", Chart{X: Axis{Label: "x", Min: 5, Max: 5}, Lines: []Line{ok}}, `axis "x": range [5, 5]`},
		{"a log range from 0", ".png", with(logAxes, func(c *Chart) { c.Y = Axis{Label: "y", Log: true, Min: 0, Max: 10}; c.Lines = []Line{ok} }), `axis "y": range [0, 10]`},
		{"an unknown shape", ".png", Chart{Marks: []Marks{{Series: Series{"s", []Point{{1, 1}}}, Shape: 99}}}, "s: unknown shape 99"},
		{"a format figure does not write", ".jpg", Chart{Lines: []Line{ok}}, "want a .png or .svg file name"},
	} {
		path := filepath.Join(t.TempDir(), "c"+c.ext)
		err := c.chart.Draw(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: wrote %s", c.name, path)
		}
	}
	if err := Lines(filepath.Join(t.TempDir(), "l.png"), "t", "x", "y", true, []Series{SeriesOf("neg", []float64{-1}, []float64{1})}); err == nil || !strings.Contains(err.Error(), "neg: no positive finite points to draw") {
		t.Errorf("Lines of a series with nothing to show: %v", err)
	}
}

// decode reads a PNG the package wrote.
func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestChartDraws: a chart of lines and marks at its default size, 7
// inches wide and 4.5 high plus 14 points a legend entry, at gonum's 96
// dots an inch for PNG; in SVG it holds its title and legend text.
func TestChartDraws(t *testing.T) {
	dir := t.TempDir()
	c := Chart{
		Title: "a title",
		X:     Axis{Label: "x", Log: true},
		Y:     Axis{Label: "y", Log: true, Min: 0.1, Max: 100},
		Lines: []Line{line("first line", Point{1, 1}, Point{100, 50}), {Series: Series{"floor", []Point{{1, 1}, {100, 1}}}, Color: color.Black, Dashes: []float64{6, 3}}},
		Marks: []Marks{{Series: Series{"some marks", []Point{{3, 2}, {30, 20}}}, Shape: Triangle}},
	}
	if err := c.Draw(filepath.Join(dir, "c.png")); err != nil {
		t.Fatal(err)
	}
	b := decode(t, filepath.Join(dir, "c.png")).Bounds()
	wantH := (4.5*72 + 3*14) * 96 / 72.0
	if b.Dx() != 7*96 || math.Abs(float64(b.Dy())-wantH) > 1 {
		t.Errorf("%v pixels, want 672 by %.1f", b.Size(), wantH)
	}
	if err := c.Draw(filepath.Join(dir, "c.svg")); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "c.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a title", "first line", "floor", "some marks"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("the SVG does not hold %q", s)
		}
	}
}

var (
	red  = color.RGBA{0xff, 0, 0, 0xff}
	blue = color.RGBA{0, 0, 0xff, 0xff}
)

// TestHeatMapDraws: every cell in its category's colour. Of a 2 by 2
// grid with one red cell and three blue, three times as many pixels are
// blue as red (the legend's two swatches, the same size, change that by
// a few per cent).
func TestHeatMapDraws(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.png")
	h := HeatMap{
		Title: "h", Columns: []string{"a", "b"}, Rows: []string{"1", "2"},
		Cells:      [][]int{{0, 1}, {1, 1}},
		Categories: []Category{{"red", red}, {"blue", blue}},
	}
	if err := h.Draw(path); err != nil {
		t.Fatal(err)
	}
	img := decode(t, path)
	if b := img.Bounds(); b.Dx() != 11*96 || b.Dy() != 5*96 {
		t.Errorf("%v pixels, want 1056 by 480 (11 by 5 inches at 96 dpi)", b.Size())
	}
	n := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			n[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	if n[red] == 0 || math.Abs(float64(n[blue])/float64(n[red])-3) > 0.2 {
		t.Errorf("%d blue pixels, %d red; want three times as many blue", n[blue], n[red])
	}
}

// TestHeatMapRefuses: a grid that does not match its labels or its
// categories is an error, and no file is written.
func TestHeatMapRefuses(t *testing.T) {
	good := func() HeatMap {
		return HeatMap{Title: "h", Columns: []string{"a", "b"}, Rows: []string{"1", "2"},
			Cells: [][]int{{0, 1}, {1, 1}}, Categories: []Category{{"red", red}, {"blue", blue}}}
	}
	for _, c := range []struct {
		name string
		edit func(*HeatMap)
		want string
	}{
		{"a column label missing", func(h *HeatMap) { h.Columns = h.Columns[:1] }, "2 columns of cells, 1 column labels"},
		{"no cells", func(h *HeatMap) { h.Cells, h.Columns = nil, nil }, "0 columns of cells"},
		{"a ragged column", func(h *HeatMap) { h.Cells[1] = []int{1} }, "column 1 has 1 cells, 2 row labels"},
		{"a category out of range", func(h *HeatMap) { h.Cells[0][1] = 2 }, "cell (0, 1) is category 2, of 2"},
		{"a negative category", func(h *HeatMap) { h.Cells[1][0] = -1 }, "cell (1, 0) is category -1"},
		{"one category", func(h *HeatMap) { h.Categories = h.Categories[:1]; h.Cells = [][]int{{0, 0}, {0, 0}} }, "1 categories, want at least 2"},
	} {
		h := good()
		c.edit(&h)
		path := filepath.Join(t.TempDir(), "h.png")
		if err := h.Draw(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: wrote %s", c.name, path)
		}
	}
}
