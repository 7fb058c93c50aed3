package oracles

import (
	"math/big"
	"testing"
)

// minDigits is the agreement the package claims at prec = 256.
const minDigits = 45

// testPrec is the precision of the accuracy tests.
const testPrec = 256

// Value tables from the brief; every value of each appears in the tests.
var (
	tableQ     = []float64{0, 1e-12, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99, 1 - 1e-9, 1}
	tableSigma = []float64{0.1, 0.5, 1, 2, 10, 100, 1000}
	tableIntA  = []int{2, 3, 8, 32, 256, 1024, 4096}
	tableFracA = []float64{1.001, 1.01, 1.5, 2.5, 10.7, 59.3, 200.5, 1000.25}
)

// expectDigits fails unless got and want agree to min significant digits.
// It returns the agreement.
func expectDigits(t *testing.T, what string, got, want *big.Float, min float64) float64 {
	t.Helper()
	if got == nil || want == nil {
		t.Errorf("%s: nil value (got %v, want %v)", what, got, want)
		return 0
	}
	if got.IsInf() || want.IsInf() {
		if got.Cmp(want) != 0 {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
		return 1e9
	}
	if want.Sign() == 0 {
		if got.Sign() != 0 {
			t.Errorf("%s: got %s, want exactly 0", what, got.Text('g', 20))
		}
		return 1e9
	}
	d := digits(got, want)
	if d < min {
		t.Errorf("%s: %.1f digits < %g\n got  %s\n want %s", what, d, min, got.Text('g', 60), want.Text('g', 60))
	}
	return d
}

// bigQ1 returns alpha/(2 sigma^2) exactly rounded at p bits (the SGM
// divergence at q = 1, both directions: D_alpha(N(1,s^2)||N(0,s^2)), the
// equal-variance Gaussian closed form).
func bigQ1(alpha, sigma float64, p uint) *big.Float {
	s := new(big.Float).SetPrec(p + 64).SetFloat64(sigma)
	s.Mul(s, s)
	s.Mul(s, new(big.Float).SetInt64(2))
	a := new(big.Float).SetPrec(p + 64).SetFloat64(alpha)
	return a.Quo(a, s).SetPrec(p)
}

// bigQ1LogI returns (beta^2 - beta)/(2 sigma^2): log I(beta) at q = 1
// (E_{N(0,s^2)}[L^beta] = exp((beta^2-beta)/(2 s^2)), Gaussian mgf).
func bigQ1LogI(beta, sigma float64, p uint) *big.Float {
	b := new(big.Float).SetPrec(p + 128).SetFloat64(beta)
	b2 := new(big.Float).SetPrec(p+128).Mul(b, b)
	b2.Sub(b2, b)
	s := new(big.Float).SetPrec(p + 128).SetFloat64(sigma)
	s.Mul(s, s)
	s.Mul(s, new(big.Float).SetInt64(2))
	return b2.Quo(b2, s).SetPrec(p)
}

// inShortCover reports whether grid point (i, j), column j of n, runs: all
// do, and with -short only the diagonal j == i mod n, which still meets
// every row and, with at least n rows, every column.
func inShortCover(i, j, n int) bool { return !testing.Short() || j == i%n }
