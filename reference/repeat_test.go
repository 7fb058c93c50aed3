package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
)

// rsCurve is the Gaussian (sigma 4) curve of testdata/repeat_mpmath.py.
func rsCurve() ([]float64, []*big.Float) {
	orders := []float64{1.5, 2, 3, 5, 8, 16, 32}
	rdp := make([]*big.Float, len(orders))
	for i, a := range orders {
		rdp[i] = new(big.Float).SetPrec(256).Quo(big.NewFloat(a), big.NewFloat(32)) // alpha/(2 sigma^2), exact
	}
	return orders, rdp
}

// Expected values: testdata/repeat_mpmath.py (mpmath 1.3.0, mp.dps = 60),
// Theorems 2 and 6 of Papernot and Steinke 2022 written out independently,
// gamma by mpmath's findroot; `python3 reference/testdata/repeat_mpmath.py`
// prints them.
func TestRepeatAndSelectValues(t *testing.T) {
	orders, rdp := rsCurve()
	for _, c := range []struct {
		mean, shape, alpha float64
		want               string
	}{
		{10, inf, 2, "1.32429161719923482865054133447424922730364739797899173911809"},
		{10, inf, 20, "2.42221785633818160324766791354687189964038235324981533390202"},
		{1, inf, 1.5, "0.0468779911552638232430062657872435012911349939534259695730471"},
		{10, 0, 2, "1.2495595309565192835699491554014918519115543047415741477154"},
		{10, 1, 6, "1.59208700081908937586421092862600022441471844196130366915595"},
		{10, 0.5, 2, "1.42692611299053693692263715604854159857106817057430186573813"},
		{10, 3, 2, "2.18221791322829745229176372334193064525250259094759627972219"},
		{10, 0, 20, "1.74489574186962022174307452446865894415843708940935962502047"},
		{10, 0.5, 20, "1.9222623239036378750957625251157086908179509552420873430432"},
		{10, 3, 20, "2.67755412414139839046488909240909773749938537561538175702726"},
		{1.001, 0.5, 2, "0.0882695934520118303922737807318035412784785255940719966249087"},
		{1e6, 0, 20, "2.9339900360697699627543369794511812963379420833842122747411"},
	} {
		got, err := reference.RepeatAndSelect(orders, rdp, c.mean, c.shape, c.alpha)
		checkDigits(t, fmt.Sprintf("RepeatAndSelect(mean %g, shape %g, alpha %g)", c.mean, c.shape, c.alpha), got, err, c.want, 1e-55)
	}
}

// Special cases: an all-zero curve with mean 1 is exactly 0; +Inf rdp
// everywhere is +Inf; an order +Inf enters as the formulas' limits.
func TestRepeatAndSelectSpecial(t *testing.T) {
	z := []*big.Float{new(big.Float), new(big.Float)}
	for _, shape := range []float64{0, 1, 2.5, inf} {
		got, err := reference.RepeatAndSelect([]float64{2, 4}, z, 1, shape, 2)
		if err != nil || got.Sign() != 0 {
			t.Errorf("zero curve, mean 1, shape %g: %v, %v; want 0", shape, got, err)
		}
	}
	i := []*big.Float{new(big.Float).SetInf(false), new(big.Float).SetInf(false)}
	got, err := reference.RepeatAndSelect([]float64{2, 4}, i, 3, 1, 2)
	if err != nil || !got.IsInf() {
		t.Errorf("infinite curve: %v, %v; want +Inf", got, err)
	}
	// Pure eps-DP (the order +Inf alone), geometric K with mean 1/gamma:
	// eps' = eps + 2 eps = 3 eps (Liu and Talwar's 3 eps, recovered by
	// Theorem 2 as lambda, lambdahat -> +Inf).
	e := big.NewFloat(0.25)
	got, err = reference.RepeatAndSelect([]float64{inf}, []*big.Float{e}, 7, 1, 2)
	if err != nil || got.Cmp(big.NewFloat(0.75)) != 0 {
		t.Errorf("pure DP, geometric: %v, %v; want 0.75", got, err)
	}
}

func TestRepeatAndSelectErrors(t *testing.T) {
	orders, rdp := rsCurve()
	neg := []*big.Float{big.NewFloat(-1)}
	for i, c := range []struct {
		orders             []float64
		rdp                []*big.Float
		mean, shape, alpha float64
	}{
		{nil, nil, 10, 1, 2},
		{orders, rdp[:3], 10, 1, 2},
		{[]float64{2}, neg, 10, 1, 2},
		{[]float64{math.NaN()}, rdp[:1], 10, 1, 2},
		{orders, rdp, 0, 1, 2},
		{orders, rdp, 0.5, inf, 2},
		{orders, rdp, math.NaN(), 1, 2},
		{orders, rdp, inf, 1, 2},
		{orders, rdp, 10, -1, 2},
		{orders, rdp, 10, math.NaN(), 2},
		{orders, rdp, 10, 1, 64},            // no order covers alpha
		{orders, rdp, 10, 1, math.NaN()},    //
		{[]float64{0.5}, rdp[:1], 10, 1, 0}, // no order > 1
	} {
		_, err := reference.RepeatAndSelect(c.orders, c.rdp, c.mean, c.shape, c.alpha)
		var ie *reference.InputError
		if !errors.As(err, &ie) {
			t.Errorf("case %d: error %v, want an InputError", i, err)
		}
	}
}
