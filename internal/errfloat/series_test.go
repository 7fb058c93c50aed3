package errfloat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// draws is n random points, a tenth of them with -short.
func draws(n int) int {
	if testing.Short() {
		return n / 10
	}
	return n
}

// TestSeriesHelpersVsReference checks the series helpers' values and bounds against the
// reference at points spread over their ranges: |em(y) - exact| <= e.
func TestSeriesHelpersVsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	worstEm, worstLm := 0.0, 0.0
	for i := 0; i < draws(3000); i++ {
		y := (r.Float64()*2 - 1) * math.Pow(10, r.Float64()*6-5)
		if r.IntN(2) == 0 {
			y = r.Float64()*4 - 1.5
		}
		// em(y) = Laplace-free exact check: the reference's Divergence of
		// nothing; compute exactly with big via RR? use the identity
		// em(y) = e^y - 1 - y at 200 bits by series.
		ex := bigEm(y)
		got := EmExact(y)
		d := new(big.Float).SetPrec(200).Sub(new(big.Float).SetFloat64(got.V), ex)
		df, _ := d.Float64()
		if math.Abs(df) > got.E {
			t.Errorf("em(%v) = %v ± %v, exact %s", y, got.V, got.E, ex.Text('g', 20))
		}
		if ef, _ := ex.Float64(); ef != 0 {
			worstEm = math.Max(worstEm, got.E/math.Abs(ef))
		}
		x := r.Float64()*2 - 0.7
		if r.IntN(2) == 0 {
			x = (r.Float64()*2 - 1) * math.Pow(10, -r.Float64()*8)
		}
		lx := bigLog1pmx(x)
		gl := Log1pmxExact(x)
		d = new(big.Float).SetPrec(200).Sub(new(big.Float).SetFloat64(gl.V), lx)
		df, _ = d.Float64()
		if math.Abs(df) > gl.E {
			t.Errorf("log1pmx(%v) = %v ± %v, exact %s", x, gl.V, gl.E, lx.Text('g', 20))
		}
		if lf, _ := lx.Float64(); lf != 0 {
			worstLm = math.Max(worstLm, gl.E/math.Abs(lf))
		}
	}
	t.Logf("largest relative bounds: em %.3g (%.1f u), log1pmx %.3g (%.1f u)", worstEm, worstEm/Unit, worstLm, worstLm/Unit)
}

// bigEm is e^y - 1 - y at 300 bits (Taylor series; |y| <= 3).
func bigEm(y float64) *big.Float {
	const prec = 300
	Y := new(big.Float).SetPrec(prec).SetFloat64(y)
	t := new(big.Float).SetPrec(prec).Mul(Y, Y)
	t.Quo(t, big.NewFloat(2))
	s := new(big.Float).SetPrec(prec).Set(t)
	for k := 3; k < 200; k++ {
		t.Mul(t, Y)
		t.Quo(t, new(big.Float).SetInt64(int64(k)))
		s.Add(s, t)
	}
	return s
}

// bigLog1pmx is log1p(x) - x at 300 bits (atanh series; x in (-0.9, 1.5)).
func bigLog1pmx(x float64) *big.Float {
	const prec = 300
	X := new(big.Float).SetPrec(prec).SetFloat64(x)
	den := new(big.Float).SetPrec(prec).Add(X, big.NewFloat(2))
	y := new(big.Float).SetPrec(prec).Quo(X, den)
	y2 := new(big.Float).SetPrec(prec).Mul(y, y)
	s := new(big.Float).SetPrec(prec)
	t := new(big.Float).SetPrec(prec).Set(y)
	for k := 1; k < 2000; k += 2 {
		s.Add(s, new(big.Float).SetPrec(prec).Quo(t, new(big.Float).SetInt64(int64(k))))
		t.Mul(t, y2)
		if t.Sign() == 0 || t.MantExp(nil) < -400 {
			break
		}
	}
	s.Mul(s, big.NewFloat(2))
	return s.Sub(s, X)
}
