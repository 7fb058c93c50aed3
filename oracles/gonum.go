package oracles

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// SGMQuadFloat64 returns the forward SGM Rényi divergence
// D_alpha(mu || mu0) = log I(alpha)/(alpha-1) in float64, by Gauss-Legendre
// quadrature (gonum integrate/quad.Fixed) over the same pieces as the
// big.Float quadrature (planned in float64 with a 2^-93 cut-off). It is a
// coarse, independent-rule second opinion: it returns an error when the
// n- and 2n-point results differ by more than 1e-9 relative even at the
// largest n tried (see SGMMomentFloat64 for the estimate itself).
func SGMQuadFloat64(q, sigma, alpha float64) (float64, error) {
	const fn = "SGMQuadFloat64"
	if err := checkSGMArgs(fn, q, sigma); err != nil {
		return 0, err
	}
	if !finite(alpha) || alpha <= 1 {
		return 0, inErr(fn, "alpha", alpha, "must be finite and > 1")
	}
	logI, est, err := sgmMomentFloat64(q, sigma, alpha)
	if err != nil {
		return 0, err
	}
	if est > 1e-9 {
		return 0, fmt.Errorf("oracles.%s(q=%v, sigma=%v, alpha=%v): n vs 2n differ by %.2g relative: %w", fn, q, sigma, alpha, est, ErrNotConverged)
	}
	return logI / (alpha - 1), nil
}

// SGMMomentFloat64 returns log I(beta) in float64 and the relative error
// estimate |J_n - J_2n| / |J_2n| of J = I - 1 (Gauss-Legendre with n and
// 2n points per piece, n = 64, raised to 128 and 256 while the estimate
// exceeds 1e-12). beta is any finite real.
func SGMMomentFloat64(q, sigma, beta float64) (logI, relErr float64, err error) {
	const fn = "SGMMomentFloat64"
	if err := checkSGMArgs(fn, q, sigma); err != nil {
		return 0, 0, err
	}
	if !finite(beta) {
		return 0, 0, inErr(fn, "beta", beta, "must be finite")
	}
	return sgmMomentFloat64(q, sigma, beta)
}

func sgmMomentFloat64(q, sigma, beta float64) (float64, float64, error) {
	if q == 0 || beta == 0 || beta == 1 {
		return 0, 0, nil
	}
	if err := sgmRange("SGMMomentFloat64", q, sigma, beta); err != nil {
		return 0, 0, err
	}
	f := newSGMF64(q, sigma, beta)
	pl, err := planSGM(f, float64(53+40)*math.Ln2)
	if err != nil {
		return 0, 0, err
	}
	sign := sgmSign(beta)
	g := func(z float64) float64 { return sign * math.Exp(f.logAbsH(z)-pl.S) }
	sum := func(n int) float64 {
		s := 0.0
		for _, p := range pl.pieces {
			s += quad.Fixed(g, p[0], p[1], n, quad.Legendre{}, 0)
		}
		return s
	}
	var Js, est float64
	prev := sum(64)
	for n := 128; n <= 512; n *= 2 {
		Js = sum(n)
		est = math.Abs(Js-prev) / math.Abs(Js)
		if est <= 1e-12 {
			break
		}
		prev = Js
	}
	if !(Js != 0) || math.IsNaN(Js) {
		return 0, 0, fmt.Errorf("oracles.SGMMomentFloat64(q=%v, sigma=%v, beta=%v): integral is %v: %w", q, sigma, beta, Js, ErrNotConverged)
	}
	// log I = log1p(J), J = Js e^S (log form when J is huge).
	if pl.S+log64(math.Abs(Js)) > 30 {
		return pl.S + log64(Js) + math.Log1p(math.Exp(-pl.S)/Js), est, nil
	}
	return math.Log1p(Js * math.Exp(pl.S)), est, nil
}
