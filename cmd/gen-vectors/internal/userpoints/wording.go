package userpoints

import (
	"math"
	"slices"

	"github.com/rdpcheck/rdpcheck/internal/wording"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// lineNames are, by kind, the library's argument names that a line names
// otherwise, and lineWholes its whole arguments (Wording's Names and
// Whole).
var (
	lineNames = map[string]map[string]string{
		schema.Divergence:             {"p": "distP", "q": "distQ"},
		schema.TreeAggregation:        {"steps": "trees"},
		schema.TreeMultiParticipation: {"totalSteps": "steps"},
		schema.WORBound:               {"base.Eps": "base", "base.Inf": "baseInf"},
	}
	lineWholes = map[string]map[string]string{
		schema.PoissonBound: {"base": "len(base)"},
		schema.WORBound:     {"base.Eps": "len(base)"},
	}
)

// wording is how the errors of a line of kind k with inputs a are worded:
// its keys' names, and a NaN value shown where the line gave it.
func (k *Kind) wording(a *Args) wording.Wording {
	return wording.Wording{Names: lineNames[k.Name], Whole: lineWholes[k.Name], GivenNaN: func(arg string) bool {
		v, ok := a.scalars()[arg]
		return ok && math.IsNaN(*v) && slices.Contains(k.Inputs, arg)
	}}
}
