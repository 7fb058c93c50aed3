package schema

import (
	"math"
	"math/big"
)

// The repository measures closeness in two ways, both computed by relative
// below (one subtraction, one division, one rounding to float64):
//
//   - AnswerError and RelativeError: the error of a float64 answer (package
//     fast, a peer's printed value, a scorer's input) against an exact
//     value. Below MinNormal float64 has only absolute precision, so the
//     error is taken relative to max(|want|, MinNormal), and against an
//     exact 0 it is the answer itself.
//   - RelDiff: how far apart two exact evaluations are (the reference at
//     two precisions, the reference and an oracle). Both carry hundreds of
//     bits at any magnitude (values of 1e-2600 are written), so there is no
//     floor: they must agree relatively everywhere.

// MinNormal is 2^-1022, the smallest normal float64. Errors are measured
// relative to max(|want|, MinNormal): below it float64 has only absolute
// precision, and a value that underflows (a delta of 1e-2600) is answered
// correctly by 0.
const MinNormal = 0x1p-1022

// RelativeError is the error of got against the exact value want:
// |got - want| / max(|want|, MinNormal); where want is exactly 0 (an
// identity such as D(P || P) = 0, where a relative error means nothing) it
// is |got|; for want = +Inf, 0 if got is +Inf and +Inf otherwise; NaN
// answers, and infinite answers to finite values, have error +Inf.
func RelativeError(got float64, want *big.Float) float64 {
	if math.IsNaN(got) {
		return math.Inf(1)
	}
	return math.Abs(AnswerError(got, want))
}

// AnswerError is RelativeError with its sign: (got - want) /
// max(|want|, MinNormal), got where want is exactly 0, and for infinities 0
// if got equals want and otherwise an infinity with the sign of got - want.
// got must not be NaN.
func AnswerError(got float64, want *big.Float) float64 {
	if want.Sign() == 0 && !want.IsInf() && !math.IsInf(got, 0) {
		return got
	}
	return relative(new(big.Float).SetFloat64(got), want, MinNormal)
}

// RelDiff is the signed relative difference (a - b) / |b| of two exact
// values: 0 where a equals b (two zeros, or two infinities of one sign),
// and an infinity with the sign of a - b where b is 0 or either is
// infinite and they differ.
func RelDiff(a, b *big.Float) float64 {
	return relative(a, b, 0)
}

// relative is (a - b) / max(|b|, floor) rounded to float64, with the
// infinite and zero cases of RelDiff. The subtraction is carried at the
// larger precision of a and b and at least exactPrec bits: the result is
// then good to its last bit.
func relative(a, b *big.Float, floor float64) float64 {
	if a.IsInf() || b.IsInf() {
		switch {
		case a.IsInf() && b.IsInf() && a.Sign() == b.Sign():
			return 0
		case a.IsInf():
			return math.Inf(a.Sign())
		}
		return math.Inf(-b.Sign())
	}
	prec := max(exactPrec, a.Prec(), b.Prec())
	d := new(big.Float).SetPrec(prec).Sub(a, b)
	den := new(big.Float).SetPrec(prec).Abs(b)
	if den.Cmp(big.NewFloat(floor)) < 0 {
		den.SetFloat64(floor)
	}
	switch {
	case d.Sign() == 0:
		return 0
	case den.Sign() == 0:
		return math.Inf(d.Sign())
	}
	d.Quo(d, den)
	r, _ := d.Float64()
	return r
}
