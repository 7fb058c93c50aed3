package main

// Heat maps of the TF Privacy lineage's error against the reference, from
// the committed vectors (vectors/tfprivacy/sgm_rdp.json).

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rdpcheck/rdpcheck/internal/figure"
	"github.com/rdpcheck/rdpcheck/vectors"
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
	var cats []figure.Category
	for _, b := range errorBins {
		cats = append(cats, figure.Category{Label: b.label, Color: b.color})
	}
	var columns, rows []string
	for i, a := range alphas {
		label := ""
		if i%2 == 0 || i == len(alphas)-1 {
			label = strconv.FormatFloat(a, 'g', -1, 64)
		}
		columns = append(columns, label)
	}
	for _, q := range qs {
		rows = append(rows, figure.SciLabel(q)) // one format for the axis: 1e-8, 4e-3, 9.9e-1, 1e0
	}
	var names []string
	for _, peer := range peers {
		// the worst bin over sigma at each (alpha, q)
		cells := make([][]int, len(alphas))
		for i, a := range alphas {
			cells[i] = make([]int, len(qs))
			for j, q := range qs {
				cells[i][j] = worst[peer][key{q, a}]
			}
		}
		name := "heatmap_" + peer + ".png"
		err := figure.HeatMap{
			Title:       fmt.Sprintf("%s: the worst relative error of its RDP over σ from 0.3 to 50, against the reference", peerTitle(peer)),
			XLabel:      "RDP order α (the vectors' orders, evenly spaced)",
			YLabel:      "sampling rate q (the vectors' values)",
			Columns:     columns,
			Rows:        rows,
			Cells:       cells,
			Categories:  cats,
			LegendTitle: "worst |relative error|:",
		}.Draw(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

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
