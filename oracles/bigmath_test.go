package oracles

import (
	"math"
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
)

// relDiffBits returns -log2(|a-b|/|b|) (large = close).
func relDiffBits(a, b *big.Float) float64 {
	if a.Cmp(b) == 0 {
		return 1e9
	}
	d := new(big.Float).SetPrec(64).Sub(a, b)
	if b.Sign() != 0 {
		d.Quo(d, b)
	}
	f, _ := d.Float64()
	if f < 0 {
		f = -f
	}
	if f == 0 {
		return 1e9
	}
	return -log2(f)
}

func TestExpLogAgainstBigfloat(t *testing.T) {
	const prec = 400
	// includes the table/reduction boundaries: 2^-9 and 1/256 (expm1
	// table step), +-ln2/2 (exp reduction), 1 +- 2^-12 (log table), and
	// huge and tiny arguments.
	args := []string{"1e-30", "-1e-30", "0.001", "-0.3", "0.34", "0.5", "1", "-1", "2.75", "-30.5", "700.125", "-1234.5", "123456.78", "-9876543.21", "1e-100",
		"0.001953125", "0.0019531249", "-0.001953125", "0.00390625", "0.3465735902", "-0.3465735902", "0.000244140625", "-0.000244140625",
		"0.000244140624", "0.41421356", "-0.29289321", "4096.5", "1e-300", "-0.99999", "123456789.5"}
	for _, s := range args {
		x, _, _ := new(big.Float).SetPrec(prec).Parse(s, 10)
		want := bigfloat.Exp(new(big.Float).SetPrec(prec + 64).Set(x))
		got := expBig(x, prec)
		if b := relDiffBits(got, want); b < prec-4 {
			t.Errorf("exp(%s): %g bits", s, b)
		}
		// expm1 against exp - 1 at much higher precision
		hp := uint(prec + 1200)
		w := bigfloat.Exp(new(big.Float).SetPrec(hp).Set(x))
		w.Sub(w, big.NewFloat(1))
		if b := relDiffBits(expm1Big(x, prec), w); b < prec-4 {
			t.Errorf("expm1(%s): %g bits", s, b)
		}
		if x.Sign() > 0 {
			wl := bigfloat.Log(new(big.Float).SetPrec(prec + 64).Set(x))
			if b := relDiffBits(logBig(x, prec), wl); b < prec-4 {
				t.Errorf("log(%s): %g bits", s, b)
			}
		}
		if x.Cmp(big.NewFloat(-1)) > 0 {
			w1 := new(big.Float).SetPrec(hp).Add(x, big.NewFloat(1))
			wl := bigfloat.Log(w1)
			if b := relDiffBits(log1pBig(x, prec), wl); b < prec-4 {
				t.Errorf("log1p(%s): %g bits", s, b)
			}
		}
	}
	if b := relDiffBits(ln2(prec), bigfloat.Log(new(big.Float).SetPrec(prec+64).SetInt64(2))); b < prec-2 {
		t.Errorf("ln2: %g bits", b)
	}
}

// log of values near 2^(+-1e6): exponent handling.
func TestLogHugeTiny(t *testing.T) {
	const prec = 300
	for _, e := range []int{1000000, -1000000} {
		x := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(0.75), e)
		want := bigfloat.Log(new(big.Float).SetPrec(prec + 64).Set(x))
		if b := relDiffBits(logBig(x, prec), want); b < prec-4 {
			t.Errorf("log(0.75*2^%d): %g bits", e, b)
		}
	}
}

func BenchmarkExp384(b *testing.B) {
	x, _, _ := new(big.Float).SetPrec(384).Parse("12.3456789", 10)
	for i := 0; i < b.N; i++ {
		expBig(x, 384)
	}
}
func BenchmarkLog384(b *testing.B) {
	x, _, _ := new(big.Float).SetPrec(384).Parse("12.3456789", 10)
	for i := 0; i < b.N; i++ {
		logBig(x, 384)
	}
}
func BenchmarkBigfloatExp384(b *testing.B) {
	x, _, _ := new(big.Float).SetPrec(384).Parse("12.3456789", 10)
	for i := 0; i < b.N; i++ {
		bigfloat.Exp(x)
	}
}
func BenchmarkMul384(b *testing.B) {
	x, _, _ := new(big.Float).SetPrec(384).Parse("12.3456789", 10)
	x.Quo(x, big.NewFloat(7))
	z := new(big.Float).SetPrec(384)
	for i := 0; i < b.N; i++ {
		z.Mul(x, x)
	}
}

func log2(x float64) float64 { return math.Log2(x) }
