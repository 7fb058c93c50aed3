package gen

// vectors/divergence.json: Renyi divergences of discrete distributions.

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/verify"
)

// DivergenceTolerance: package fast keeps P close to Q cancellation-free
// and is within about 1e-13; 1e-12 is what a careful float64 sum reaches.
const DivergenceTolerance = 1e-12

type distPair struct {
	name  string
	p, q  []float64
	flags []string
}

func fmtDist(x []float64) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = schema.Dec(v)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func buildDivergence(e *verify.Engine) (*FileBuilder, error) {
	b := NewFile("Renyi-divergence-discrete", []string{
		"Renyi divergence D_alpha(P || Q) of discrete distributions given as probability vectors, for alpha in [0, inf]:",
		"alpha in (0, 1) and (1, inf): 1/(alpha-1) log sum_i p_i^alpha q_i^(1-alpha); alpha = 0: -log sum_{i: p_i > 0} q_i; alpha = 1: sum_i p_i log(p_i / q_i) (Kullback-Leibler); alpha = inf: log max_{i: p_i > 0} p_i / q_i.",
		"Zeros follow the definitions: terms with p_i = 0 vanish; for alpha >= 1 a p_i > 0 with q_i = 0 gives +inf; for alpha < 1 such terms vanish, and disjoint supports give +inf.",
		"Entries are taken exactly as given, without renormalising; each vector's float64 sum is within len * 2^-52 of 1.",
	}, "Divergence: the sum formed in big.Float at the working precision (exact products of the float64 entries), logarithms and powers to the working precision.")

	eps40 := math.Ldexp(1, -40)
	general := []distPair{
		{"two-point", []float64{0.5, 0.5}, []float64{0.25, 0.75}, nil},
		{"three-point", []float64{0.1, 0.2, 0.7}, []float64{0.3, 0.3, 0.4}, nil},
		{"skewed", []float64{0.999, 0.001}, []float64{0.001, 0.999}, nil},
		{"uniform-vs-peaked", []float64{0.25, 0.25, 0.25, 0.25}, []float64{0.7, 0.1, 0.1, 0.1}, nil},
		{"randomized-response", []float64{0.75, 0.25}, []float64{0.25, 0.75}, nil},
		{"near-identical", []float64{0.5 + eps40, 0.5 - eps40}, []float64{0.5, 0.5}, []string{"CancellingInputs"}},
		{"identical", []float64{0.1, 0.2, 0.7}, []float64{0.1, 0.2, 0.7}, nil},
	}
	zeros := []distPair{
		{"p-has-zero", []float64{1, 0}, []float64{0.5, 0.5}, []string{"ZeroProbability"}},
		{"q-has-zero", []float64{0.5, 0.5}, []float64{1, 0}, []string{"ZeroProbability"}},
		{"both-have-zeros", []float64{0.5, 0.5, 0}, []float64{0.25, 0.25, 0.5}, []string{"ZeroProbability"}},
		{"shared-zero", []float64{0.5, 0, 0.5}, []float64{0.25, 0, 0.75}, []string{"ZeroProbability"}},
		{"disjoint", []float64{1, 0}, []float64{0, 1}, []string{"ZeroProbability", "DisjointSupport"}},
		{"point-masses", []float64{1}, []float64{1}, nil},
	}
	orders := []struct {
		group string
		alpha []float64
		flag  string
	}{
		{"general", []float64{0.5, 1.5, 2, 10.5, 100}, ""},
		{"alpha-0", []float64{0}, "OrderZero"},
		{"alpha-below-1", []float64{1e-9, 0.25, 0.999}, "OrderBelowOne"},
		{"alpha-1", []float64{1}, "KullbackLeibler"},
		{"alpha-near-1", []float64{1.000001, 1.001}, "OrderNearOne"},
		{"alpha-inf", []float64{inf}, "InfiniteOrder"},
	}
	for _, set := range []struct {
		name  string
		pairs []distPair
	}{{"", general}, {"zeros/", zeros}} {
		for _, o := range orders {
			g := b.Group(set.name+o.group, schema.Divergence, fmt.Sprintf("alpha in %v", o.alpha), DivergenceTolerance)
			if set.name != "" {
				g.Comment += "; distributions with zero entries"
			}
			for _, d := range set.pairs {
				for _, a := range o.alpha {
					flags := append([]string{}, d.flags...)
					if o.flag != "" {
						flags = append(flags, o.flag)
					}
					t := &schema.Test{Comment: fmt.Sprintf("%s: D(%s || %s) alpha=%g", d.name, fmtDist(d.p), fmtDist(d.q), a), Flags: flags}
					t.DistP, t.DistPHex = schema.Lists(d.p)
					t.DistQ, t.DistQHex = schema.Lists(d.q)
					t.SetFloat("alpha", a)
					b.Test(g, t, e.RefJob("Divergence "+t.Comment, func(c reference.Context) (*big.Float, error) { return c.Divergence(d.p, d.q, a) }), nil)
				}
			}
		}
	}
	return b, nil
}
