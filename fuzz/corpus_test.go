package fuzz

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdpcheck/rdpcheck/laws"
)

// A seed is one known hard input of a fuzz target, with where it comes
// from. The fuzz targets f.Add every seed, and testdata/fuzz/Target/seed-NAME
// holds the same input in the fuzzer's corpus format (TestSeedCorpus
// checks that they agree; go test ./fuzz -run TestSeedCorpus -update
// rewrites the files from this table).
type seed struct {
	name string
	why  string
	args []any
}

var nan, inf = math.NaN(), math.Inf(1)

func sgm(name, why string, q, sigma, alpha float64) seed {
	return seed{name, why, []any{q, sigma, alpha}}
}

func div(name, why string, data []byte, alpha float64, raw bool) seed {
	return seed{name, why, []any{data, alpha, raw}}
}

func conv(name, why string, orders, rdp []float64, delta, eps float64, c int) seed {
	return seed{name, why, []any{encodeRawCurve(orders, rdp), delta, eps, c}}
}

func acct(name, why string, data []byte) seed { return seed{name, why, []any{data}} }

// events builds an accountant input: an orders mode byte (and raw orders
// for mode 2) followed by encoded events.
func events(mode byte, orders []float64, evs ...[]byte) []byte {
	b := []byte{mode}
	if mode == 2 {
		b = append(b, byte(len(orders)))
		for _, a := range orders {
			b = putF64(b, a)
		}
	}
	for _, e := range evs {
		b = append(b, e...)
	}
	return b
}

func ev(op byte, x, y float64, n int) []byte { return encodeEvent(nil, op, x, y, n) }

// extOp is the op byte that eventOp reads as the event class (opKaryRR
// and after), with its flag bits (k-ary randomized response's relation,
// the tree's reading and participations, repeat-and-select's shape).
func extOp(class, flags byte) byte {
	if class >= opDGauss {
		return extended | extended2 | (class - opDGauss) | flags
	}
	return extended | (class - opKaryRR) | flags
}

// The peers' failure regions, as each constant says.
const (
	tfTiny  = "TF Privacy prints negative RDP at q = 1e-10 and is 5% low at 1e-8 (cancellation)"
	tfNeg   = "TF Privacy stops its fractional series early and prints negative RDP at q = 0.4, sigma = 12, alpha near 59"
	dpInf   = "dp_accounting prints inf for small fractional orders at q = 0.1, sigma = 1"
	opacus  = "Opacus returns NaN for integer orders above about 1030"
	dp3pct  = "dp_accounting over-estimates alpha = 1.5 by 3% at q = 0.01, sigma = 2.5 (docs/findings.md)"
	near1   = "orders next to 1: TF's improved conversion starts at 1.01; 1+1e-8 stresses 1/(alpha-1)"
	nearQ1  = "q = 1 - 1e-9: 1-q has 9 digits left"
	subQ    = "a subnormal sampling rate"
	smallS  = "sigma = 0.05: exponents (k^2-k)/(2 sigma^2) of 10^8"
	refBits = "the reference needed 1.2 gigabits here before c7218a6"
	invalid = "invalid input: must be refused with a typed error"
	band    = "regression: fast.SGM was wrong (up to 1.5e-5, and below the exact value) in a band of fractional orders below 1 + 2 sigma^2 log(1/q)"
	nanS    = "regression: fast.SGM gave NaN at an extreme sigma"
)

var seeds = map[string][]seed{
	"FuzzSGM": {
		sgm("q1e-10-s1-a12", tfTiny, 1e-10, 1, 12),
		sgm("q1e-10-s1-a12.5", tfTiny, 1e-10, 1, 12.5),
		sgm("q1e-8-s1-a12", tfTiny, 1e-8, 1, 12),
		sgm("q1e-12-s0.1-a4096", refBits, 1e-12, 0.1, 4096),
		sgm("q1e-12-s1-a2.5", tfTiny, 1e-12, 1, 2.5),
		sgm("q1e-15-s1-a8", "below fast's promised q: never below the exact value", 1e-15, 1, 8),
		sgm("q1e-300-s1-a2", "far below the promised q", 1e-300, 1, 2),
		sgm("q-subnormal-s1-a3.5", subQ, 5e-324, 1, 3.5),
		sgm("q-subnormal-s2-a64", subQ, 1e-310, 2, 64),
		sgm("q1-1e-9-s1-a2.5", nearQ1, 1-1e-9, 1, 2.5),
		sgm("q1-1e-9-s0.3-a64", nearQ1, 1-1e-9, 0.3, 64),
		sgm("q1-1e-9-s2-a1.01", nearQ1, 1-1e-9, 2, 1.01),
		sgm("s0.05-q0.01-a8", smallS, 0.01, 0.05, 8),
		sgm("s0.05-q0.5-a1030", smallS, 0.5, 0.05, 1030),
		sgm("s0.05-q0.1-a100.5", smallS, 0.1, 0.05, 100.5),
		sgm("q0.4-s12-a58.5", tfNeg, 0.4, 12, 58.5),
		sgm("q0.4-s12-a58.75", tfNeg, 0.4, 12, 58.75),
		sgm("q0.4-s12-a59", tfNeg, 0.4, 12, 59),
		sgm("q0.4-s12-a59.25", tfNeg, 0.4, 12, 59.25),
		sgm("q0.4-s12-a59.5", tfNeg, 0.4, 12, 59.5),
		sgm("q0.1-s1-a1.1", dpInf, 0.1, 1, 1.1),
		sgm("q0.1-s1-a1.25", dpInf, 0.1, 1, 1.25),
		sgm("q0.1-s1-a1.3", dpInf, 0.1, 1, 1.3),
		sgm("q0.1-s1-a1.5", dpInf, 0.1, 1, 1.5),
		sgm("q0.01-s2.5-a1.5", dp3pct, 0.01, 2.5, 1.5),
		sgm("q0.01-s1-a1030", opacus, 0.01, 1, 1030),
		sgm("q0.01-s1-a1031", opacus, 0.01, 1, 1031),
		sgm("q0.01-s2-a4096", opacus, 0.01, 2, 4096),
		sgm("q0.5-s0.3-a10000", opacus, 0.5, 0.3, 10000),
		sgm("q0.01-s1.1-a1+1e-8", near1, 0.01, 1.1, 1+1e-8),
		sgm("q0.01-s1.1-a1.01", near1, 0.01, 1.1, 1.01),
		sgm("q0.1-s1-a1.01", near1, 0.1, 1, 1.01),
		sgm("q0-s1-a2", "q = 0 is exactly 0", 0, 1, 2),
		sgm("q1-s1-a2.5", "q = 1 is the Gaussian mechanism", 1, 1, 2.5),
		sgm("a-inf", "alpha = +Inf is +Inf", 0.5, 1, inf),
		sgm("transition-band-q1e-9-s1-a40.59375", band, 1e-9, 1, 40.59375),
		sgm("transition-band-q1e-9-s1-a39.84375", band, 1e-9, 1, 39.84375),
		sgm("q-subnormal-s0.333-a161", "regression, found by this fuzzer: fast.SGM gave 0, -Inf or 2e-323 for 6.237 (amd64 math.Log of a subnormal q, golang/go#56600)", 1e-310, 0.3333333333333333, 161),
		sgm("sigma-1e300", nanS, 0.5, 1e300, 1.5),
		sgm("sigma-1e-300", nanS, 0.3, 1e-300, 2),
		sgm("sigma-8.95e-154", nanS+", found by FuzzAccountant", 0.3960075827205882, 8.950283081143601e-154, 59),
		sgm("invalid-q-nan", invalid, nan, 1, 2),
		sgm("invalid-q-negative", invalid, -0.1, 1, 2),
		sgm("invalid-q-above-1", invalid, 1.5, 1, 2),
		sgm("invalid-sigma-0", invalid, 0.5, 0, 2),
		sgm("invalid-sigma-negative", invalid, 0.5, -1, 2),
		sgm("invalid-sigma-inf", invalid, 0.5, inf, 2),
		sgm("invalid-alpha-1", invalid, 0.5, 1, 1),
		sgm("invalid-alpha-nan", invalid, 0.5, 1, nan),
		sgm("invalid-alpha-too-large", "alpha above MaxIntegerOrder: ErrTooLarge", 0.5, 1, 1<<21),
	},
	"FuzzDivergence": {
		div("counts-near-equal-a1", "P close to Q: KL keeps its digits only without cancellation", []byte{255, 254, 1, 2, 7, 7}, 1, false),
		div("counts-near-equal-a1+1e-8", near1, []byte{255, 254, 1, 2, 7, 7}, 1+1e-8, false),
		div("counts-near-equal-a1.01", near1, []byte{255, 254, 1, 2, 7, 7}, 1.01, false),
		div("counts-zeros-a0", "alpha = 0: -log Q(supp P)", []byte{0, 3, 5, 0, 7, 7}, 0, false),
		div("counts-a-inf", "alpha = +Inf: log max p/q", []byte{1, 3, 5, 1, 7, 7}, inf, false),
		div("counts-a-half", "alpha = 1/2: Bhattacharyya", []byte{1, 3, 5, 1, 7, 7}, 0.5, false),
		div("counts-a1030", opacus, []byte{200, 100, 55, 155}, 1030, false),
		div("raw-dyadic-a1.01", near1, encodeRawPQ([]float64{0.5, 0.5}, []float64{0.25, 0.75}), 1.01, true),
		div("raw-dyadic-a1+1e-8", near1, encodeRawPQ([]float64{0.5, 0.5}, []float64{0.25, 0.75}), 1+1e-8, true),
		div("raw-dyadic-a1e-8", "alpha near 0", encodeRawPQ([]float64{0.5, 0.5}, []float64{0.25, 0.75}), 1e-8, true),
		div("raw-ulp-apart-a2", "P and Q an ulp apart: the divergence is 1e-32", encodeRawPQ([]float64{0.5, 0.5}, []float64{0.5 + 0x1p-53, 0.5 - 0x1p-53}), 2, true),
		div("raw-subnormal-a2", "a subnormal probability", encodeRawPQ([]float64{5e-324, 1}, []float64{0.5, 0.5}), 2, true),
		div("raw-sum-inexact-a1.5", "0.1+0.2+0.7 is not exactly 1 in float64", encodeRawPQ([]float64{0.1, 0.2, 0.7}, []float64{0.7, 0.2, 0.1}), 1.5, true),
		div("raw-kl-p-zero-where-q-positive", "regression: fast.Divergence at alpha = 1 left out the Q-mass where P is 0", encodeRawPQ([]float64{0, 0.125, 0.875}, []float64{0.125, 0.125, 0.75}), 1, true),
		div("raw-moment-overflow-a14", "regression: fast.Divergence overflowed to +Inf where the divergence is 51.4", encodeRawPQ([]float64{0.8160602794142788, 0.18393972058572117}, []float64{1, 7.61985302416047e-24}), 14, true),
		div("raw-q-zero-a9.5e-7", "regression: fast.Divergence below order 1 cancelled (1.6e-7 relative, below the exact value)", encodeRawPQ([]float64{0.125, 0.875}, []float64{0, 1}), 0x1p-20, true),
		div("above-bound-1.25e-13-a560", "found by this fuzzer: fast.Divergence 1.25e-13 above the reference at alpha 560, beyond its 1e-13 bound",
			encodeRawPQ([]float64{0.5000000000000002, 0.5}, []float64{0.5000000000000003, 0.4999999999999999}), 560, true),
		div("invalid-nan-entry", invalid, encodeRawPQ([]float64{nan, 1}, []float64{0.5, 0.5}), 2, true),
		div("invalid-negative-entry", invalid, encodeRawPQ([]float64{-0.5, 1.5}, []float64{0.5, 0.5}), 2, true),
		div("invalid-sum-0.9", invalid, encodeRawPQ([]float64{0.4, 0.5}, []float64{0.5, 0.5}), 2, true),
		div("invalid-alpha-negative", invalid, []byte{1, 2, 3, 4}, -1, false),
		div("invalid-empty", invalid, []byte{}, 2, false),
		div("invalid-all-zero-counts", invalid, []byte{0, 0, 0, 0}, 2, false),
	},
	"FuzzConversion": {
		conv("dpsgd-curve-delta1e-5-improved", "a DP-SGD curve at delta = 1e-5", []float64{1.5, 2, 4, 8, 16, 32, 64, 256}, []float64{0.015, 0.02, 0.04, 0.09, 0.2, 0.5, 1.4, 12}, 1e-5, 1, 1),
		conv("dpsgd-curve-delta1e-5-classic", "a DP-SGD curve at delta = 1e-5", []float64{1.5, 2, 4, 8, 16, 32, 64, 256}, []float64{0.015, 0.02, 0.04, 0.09, 0.2, 0.5, 1.4, 12}, 1e-5, 1, 0),
		conv("delta1e-300", "delta = 1e-300: log(1/delta) = 690.8", []float64{2, 64, 1030}, []float64{0.1, 3, 50}, 1e-300, 10, 1),
		conv("delta-near-1", "delta = 1-1e-9: log(1/delta) = 1e-9", []float64{1.5, 2, 8}, []float64{0.1, 0.2, 1}, 1-1e-9, 0.5, 1),
		conv("delta-ulp-below-1", "the largest delta below 1", []float64{1.5, 2, 8}, []float64{0.1, 0.2, 1}, math.Nextafter(1, 0), 0.5, 0),
		conv("orders-near-1", near1, []float64{1 + 1e-8, 1.01, 1.1}, []float64{1e-10, 1e-3, 0.01}, 1e-5, 0.1, 1),
		conv("order-inf-pure-dp", "an order +Inf carries pure DP", []float64{2, inf}, []float64{0.5, 1}, 1e-5, 1, 1),
		conv("rdp-zero-and-inf", "rdp 0 and +Inf", []float64{2, 3}, []float64{0, inf}, 1e-5, 0, 1),
		conv("rdp-tiny", "rdp 1e-300", []float64{2, 1030}, []float64{1e-300, 1e-300}, 0.5, 1e-300, 1),
		conv("rdp-max-float", "rdp = MaxFloat64: eps is beyond float64, and +Inf is fast's rounded-up answer", []float64{2}, []float64{math.MaxFloat64}, 1e-5, 1, 0),
		conv("improved-order-near-1-delta-near-1", "regression: the improved conversion took log1p of the rounded 1/alpha and fell below the exact eps", []float64{1.0004884004786945}, []float64{20.08553692318766}, 0.999999999, 11, 1),
		conv("ref-delta-below-range", "found by this fuzzer: the exact delta e^(-1.2e13) is below big.Float's range; reference.Delta ran to its precision cap (ErrPrecision), ErrTooLarge since 8ed0cd0",
			[]float64{6.952794116818823e+10}, []float64{1.398043286095289e-76}, 47.99999999999999, 171, 0),
		conv("invalid-delta-0", invalid, []float64{2}, []float64{1}, 0, 1, 1),
		conv("invalid-delta-1", invalid, []float64{2}, []float64{1}, 1, 1, 1),
		conv("invalid-delta-nan", invalid, []float64{2}, []float64{1}, nan, 1, 0),
		conv("invalid-conv-2", invalid, []float64{2}, []float64{1}, 1e-5, 1, 2),
		conv("invalid-order-1", invalid, []float64{1}, []float64{1}, 1e-5, 1, 1),
		conv("invalid-order-nan", invalid, []float64{nan}, []float64{1}, 1e-5, 1, 1),
		conv("invalid-rdp-negative", invalid, []float64{2}, []float64{-1}, 1e-5, 1, 1),
		conv("invalid-rdp-nan", invalid, []float64{2}, []float64{nan}, 1e-5, 1, 1),
		conv("invalid-eps-negative", invalid, []float64{2}, []float64{1}, 1e-5, -1, 1),
		conv("invalid-eps-inf", invalid, []float64{2}, []float64{1}, 1e-5, inf, 1),
		conv("invalid-empty", invalid, nil, nil, 1e-5, 1, 1),
		{"mapped-pairs", "the mapped encoding: four (order, rdp) pairs", []any{[]byte{1, 0, 0, 0, 0, 255, 255, 255, 255, 0, 128, 0, 128, 50, 3, 9, 200}, 1e-5, 1.0, 1}},
	},
	"FuzzAccountant": {
		acct("default-orders-dpsgd", "a DP-SGD run on DefaultOrders, then eps at delta = 1e-5 and delta at eps = 1",
			events(0, nil, ev(opSGM, 0.004266666666666667, 1.1, 14063), ev(opEpsilon, 1e-5, 0, 1), ev(opDelta, 1, 0, 0))),
		acct("hard-orders-peer-regions", "the peers' failure regions on hardOrders",
			events(1, nil, ev(opSGM, 0.4, 12, 100), ev(opSGM, 0.1, 1, 10), ev(opSGM, 1e-10, 1, 1000), ev(opSGM, 1-1e-9, 1, 1),
				ev(opSGM, 0.01, 0.05, 2), ev(opEpsilon, 1e-300, 0, 1), ev(opEpsilon, 1-1e-9, 0, 0), ev(opDelta, 10, 0, 1))),
		acct("hard-orders-mechanisms", "every mechanism on hardOrders (+Inf included)",
			events(1, nil, ev(opGaussian, 2, 0, 3), ev(opLaplace, 0.5, 0, 2), ev(opRR, 0.75, 0, 5), ev(opZCDP, 0.01, 0, 7),
				ev(opPureDP, 0.1, 0, 4), ev(opEpsilon, 1e-5, 0, 0), ev(opDelta, 1, 0, 1))),
		acct("custom-orders-near-1", near1, events(2, []float64{1 + 1e-8, 1.01, 1030, inf},
			ev(opSGM, 0.01, 1, 100), ev(opZCDP, 0.5, 0, 1), ev(opEpsilon, 1e-5, 0, 1), ev(opEpsilon, 1e-5, 0, 0))),
		acct("invalid-events", invalid+"; the curve must not change",
			events(0, nil, ev(opSGM, 0.01, 1, 10), ev(opSGM, nan, 1, 1), ev(opSGM, 0.1, -1, 1), ev(opSGM, 0.1, 1, 0),
				ev(opGaussian, -1, 0, 1), ev(opLaplace, 0, 0, 1), ev(opRR, 1.5, 0, 1), ev(opZCDP, nan, 0, 1),
				ev(opPureDP, -1, 0, 1), ev(opEpsilon, 0, 0, 1), ev(opEpsilon, 1e-5, 0, 2), ev(opDelta, -1, 0, 1))),
		acct("invalid-orders", invalid+": orders NaN and below 1", events(2, []float64{nan, 0.5}, ev(opGaussian, 1, 0, 1))),
		acct("empty-orders", invalid+": an empty order list", events(2, nil, ev(opGaussian, 1, 0, 1))),
		acct("gaussian-huge-sigma-order-inf", "regression, found by this fuzzer: fast.Gaussian(1.4e160, +Inf) was NaN (Inf/Inf)",
			events(1, nil, ev(opGaussian, 1.422450685039393e+160, 1.398043286095289e-76, 12336))),
		acct("zero-mechanisms-order-inf", "regression: eps = 0 or rho = 0 gave NaN (0 * Inf) at the order +Inf", events(1, nil, ev(opZCDP, 0, 0, 1), ev(opPureDP, 0, 0, 1))),
		acct("mapped-events", "mapped parameters: every event valid", events(0, nil,
			encodeEvent(nil, opSGM|mapped, 0, 0, 0), encodeEvent(nil, opGaussian|mapped, 0, 0, 0), encodeEvent(nil, opEpsilon|mapped, 0, 0, 1))),
		acct("otherclasses-events", "the events of dp_accounting's other classes on hardOrders (+Inf included), then eps and delta with a kept delta",
			events(1, nil, ev(extOp(opKaryRR, 0), 0.3, 10, 3), ev(extOp(opKaryRR, 4), 1e-12, 1e6, 2), ev(extOp(opExpMech, 0), 50, 0, 10),
				ev(extOp(opZCDPXi, 0), 0.1, 0.01, 2), ev(extOp(opEpsilonDelta, 0), 1, 1e-6, 10), ev(opEpsilon, 1e-5, 0, 1), ev(opEpsilon, 1e-5, 0, 0),
				ev(opDelta, 30, 0, 1))),
		acct("otherclasses-invalid", invalid+": the events of dp_accounting's other classes; the curve must not change",
			events(0, nil, ev(opGaussian, 1, 0, 1), ev(extOp(opKaryRR, 0), 1.5, 10, 1), ev(extOp(opKaryRR, 4), 0.5, 2.5, 1), ev(extOp(opExpMech, 0), -1, 0, 1),
				ev(extOp(opZCDPXi, 0), 0.1, nan, 1), ev(extOp(opEpsilonDelta, 0), 1, 1.5, 1), ev(extOp(opEpsilonDelta, 0), 1, 0.1, 0))),
		acct("dgauss-tree-repeat", "the discrete Gaussian (small sigma, fractional orders), trees of 1024 and 1023 steps in both readings, a multi-participation tree, repeat-and-select (geometric, Poisson) on hardOrders (+Inf included), then eps",
			events(1, nil, ev(extOp(opDGauss, 0), 0.1, 3, 2), ev(extOp(opDGauss, 0), 0.7, 1, 10),
				ev(extOp(opTree, 0), 1, 1024, 1), ev(extOp(opTree, 4|8), 1, 1023, 3),
				ev(extOp(opTreeMulti, 8), 2, 100, 1), ev(extOp(opRepeat, 8), 1, 10, 2), ev(extOp(opRepeat, 16), 0.5, 1000, 1),
				ev(opEpsilon, 1e-5, 0, 1))),
		acct("repeat-mean-near-one", "regression, found by this fuzzer: repeat-and-select (geometric) with mean 1.0034 gave fast ErrNotConverged (its gamma search stepped by ulps of the small log(1/gamma)); the reference's Newton iteration also stalled for means within 1e-9 of 1",
			[]byte("0\xef00000000000000 \x0000")),
		acct("dgauss-tree-repeat-invalid", invalid+": sensitivity 0.5, sigma 0, a negative tree, mean 0.5; the curve must not change",
			events(0, nil, ev(opGaussian, 1, 0, 1), ev(extOp(opDGauss, 0), 1, 0.5, 1), ev(extOp(opDGauss, 0), 0, 1, 1),
				ev(extOp(opTree, 0), 1, -5, 1), ev(extOp(opRepeat, 0), 1, 0.5, 1))),
	},
	"FuzzSampled": {
		{"q1e-10-b1000-a2", "tiny q, flat Laplace: the moment is 1 + 1e-26", []any{1e-10, 1000.0, 2.0, 0.75}},
		{"q0.5-b0.05-a1024", "sharp Laplace, huge order: exponents of 2e4 nats", []any{0.5, 0.05, 1024.0, 0.999}},
		{"q0.01-b1-a1", "alpha = 1: the KL divergences", []any{0.01, 1.0, 1.0, 0.6}},
		{"q1-1e-9-b0.1-a8.5", nearQ1, []any{1 - 1e-9, 0.1, 8.5, 0.5}},
		{"q0.1-b1-ainf", "alpha = +Inf: the closed forms", []any{0.1, 1.0, inf, 0.9}},
		{"b8.7e-4-ainf-overflow", "alpha = +Inf with e^(1/b) beyond float64 (found by CI's FuzzSampled: +Inf above the Laplace's 1152)", []any{0.016666666666666666, 0.0008680555555555555, inf, 0.9}},
		{"q0.1-b1e-4-a2", "b below the reference's range: fast still bounds from above", []any{0.1, 1e-4, 2.0, 0.75}},
		{"b7e-15-a33.9-hang", "regression: b = 7e-15 asked for 7e13 quadrature pieces and hung (found by FuzzSampled)", []any{0.111111111, 7.105427357601002e-15, 33.916666666666664, -86.125}},
		{"q7e-6-a141432-monotone", "regression: the backward direction uncertified at alpha = 141432 fell back to the Laplace value, 0.92, above the value at 1.5 alpha (found by FuzzSampled)", []any{6.944444444444445e-06, 1.0833333333333333, 141432.0, -37.900000000000006}},
		{"rr-p-half-minus-ulp", "RR vectors at p = 0.5 - 2^-54, where 1-p rounds to 0.5: values near 1e-32 set by rounding, hence the law's 1e-30 absolute slack (found by FuzzSampled)", []any{0.875, -21.0, 1.0, 0.49999999999999994}},
		{"b1.41e-3-kl-overflow", "regression: alpha = 1 with the right tail's ratio 1e306, where (1+t) log(1+t) overflowed to NaN (found by FuzzSampled)", []any{0.015, 0.0014109347442680777, 1.0, 0.75}},
		{"q0.1-b0.1-curve-powers", "a curve whose terms take e^(g L) as products (q e^(1/b) = 2200)", []any{0.1, 0.1, 2.5, 0.75}},
		{"q1-1e-9-b0.04-a1.21", "regression: fast.SampledLaplace was 1.3e-9 above Laplace at q = 1-1e-9 (1 + t formed from t cancelled)", []any{0.999999999, 0.04, 1.2142857142857142, 0.75}},
		{"q1-2p-53-b0.0261-backinf", "regression: 1 + q expm1(-1/b) reached 0 in the backward order-infinity bound at q = 1-2^-53: +Inf above the Laplace's 38.3 (found by FuzzSampled)", []any{0.9999999999999999, 0.0261, 1228.4999999999998, -18.0625}},
		{"rr-p-half-minus-ulp-a1.02", "regression: RR vectors whose sums miss 1 by 2^-54 have an exact value of -2.8e-15 at alpha = 1.02, which fast returned; it now returns 0 (found by FuzzSampled)", []any{0.875, -46.0, 1.02, 0.49999999999999994}},
		{"q1-2p-53-b0.1044-a4914-backfallback", "regression: the backward direction uncertified at alpha = 4914 fell back to its order-infinity value, above the Laplace's (found by FuzzSampled)", []any{0.9999999999999999, 0.1044, 4913.999999999999, -18.0625}},
		{"invalid-q", invalid, []any{1.5, 1.0, 2.0, 0.75}},
		{"invalid-b", invalid, []any{0.1, 0.0, 2.0, 0.75}},
		{"invalid-alpha", invalid, []any{0.1, 1.0, 0.5, 2.0}},
		{"invalid-nan", invalid, []any{nan, nan, nan, nan}},
	},
	"FuzzTightZCDP": {
		{"eps1-k3", "the middle", []any{1.0, 3.0}},
		{"eps1e-8-k6", "Laplace and bounded range cancel: eps + expm1(-eps) ~ eps^2/2", []any{1e-8, 6.0}},
		{"eps5e-324-k2", "subnormal eps: the values underflow float64", []any{5e-324, 2.0}},
		{"eps2-k2", "BoundedRangeZCDP's switch between its two forms", []any{2.0, 2.0}},
		{"eps710-k4", "e^eps overflows float64", []any{710.0, 4.0}},
		{"eps1-k7", "k = 7: refused (the KL value is not a zCDP bound)", []any{1.0, 7.0}},
		{"invalid-nan", invalid, []any{nan, nan}},
	},
}

// FuzzLaws's input is rapid's byte stream; its first draw picks the law,
// so a seed per law starts each from its simplest case.
func init() {
	for i, l := range laws.Fast().Laws() {
		seeds["FuzzLaws"] = append(seeds["FuzzLaws"], seed{"law-" + l.Name, "the law's simplest draw",
			[]any{[]byte{byte(i), 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}}})
	}
}

var update = flag.Bool("update", false, "rewrite testdata/fuzz/*/seed-* from the seeds table")

// marshal writes a corpus entry in the format of go test fuzz v1 (as
// internal/fuzz does).
func marshal(args []any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case float64:
			if math.IsNaN(v) && math.Float64bits(v) != math.Float64bits(math.NaN()) {
				fmt.Fprintf(&b, "math.Float64frombits(0x%x)\n", math.Float64bits(v))
			} else {
				fmt.Fprintf(&b, "float64(%v)\n", v)
			}
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case int, bool:
			fmt.Fprintf(&b, "%T(%v)\n", v, v)
		default:
			panic(fmt.Sprintf("seed type %T", a))
		}
	}
	return b.Bytes()
}

// TestSeedCorpus checks that testdata/fuzz/*/seed-* are the seeds table.
func TestSeedCorpus(t *testing.T) {
	var targets []string
	for k := range seeds {
		targets = append(targets, k)
	}
	sort.Strings(targets)
	for _, target := range targets {
		dir := filepath.Join("testdata", "fuzz", target)
		want := map[string][]byte{}
		for _, s := range seeds[target] {
			if _, dup := want["seed-"+s.name]; dup {
				t.Errorf("%s: duplicate seed %s", target, s.name)
			}
			want["seed-"+s.name] = marshal(s.args)
		}
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			old, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
			for _, f := range old {
				if _, ok := want[filepath.Base(f)]; !ok {
					os.Remove(f)
				}
			}
			for name, b := range want {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		have, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
		for _, f := range have {
			if _, ok := want[filepath.Base(f)]; !ok {
				t.Errorf("%s is not in the seeds table (go test ./fuzz -run TestSeedCorpus -update)", f)
			}
		}
		for name, b := range want {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("%v (go test ./fuzz -run TestSeedCorpus -update)", err)
			} else if diff := cmp.Diff(string(b), string(got)); diff != "" {
				t.Errorf("%s differs from the seeds table (-table +file; go test ./fuzz -run TestSeedCorpus -update):\n%s", filepath.Join(dir, name), diff)
			}
		}
	}
	if !strings.HasPrefix(string(marshal([]any{1.5})), "go test fuzz v1\nfloat64(1.5)") {
		t.Error("corpus format")
	}
}

// TestReadmeListsTargets: fuzz/README.md names every fuzz target of the
// module, so that a new one is documented where .ci/fuzz's users look.
func TestReadmeListsTargets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	def := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	n := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range def.FindAllSubmatch(src, -1) {
			n++
			if !strings.Contains(string(readme), "`"+string(m[1])+"`") {
				t.Errorf("%s (%s) is not in fuzz/README.md", m[1], path)
			}
		}
		return nil
	})
	if err != nil || n < 12 {
		t.Fatalf("found %d targets (%v)", n, err)
	}
}
