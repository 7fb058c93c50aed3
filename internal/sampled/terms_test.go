package sampled

import (
	"math"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck/internal/errfloat"
)

// TestEmSampled checks emSampled's 8-ulp bound (which the sampled moments'
// error bounds assume) on a grid of y in [-3, 3] and at 2^-k (1 + i/8) down to 2^-40, across its branches,
// against the series sum_{k>=2} y^k/k! in math/big at 300 bits.
func TestEmSampled(t *testing.T) {
	ys := []float64{}
	for i := -3000; i <= 3000; i++ {
		ys = append(ys, float64(i)/1000)
	}
	// And each branch's edges below 1/16: y = ±2^-k (1 + i/8).
	for k := 4; k <= 40; k++ {
		for i := range 8 {
			y := math.Ldexp(1+float64(i)/8, -k)
			ys = append(ys, y, -y)
		}
	}
	worst := 0.0
	for _, y := range ys {
		if y == 0 {
			continue
		}
		yb := new(big.Float).SetPrec(300).SetFloat64(y)
		term := new(big.Float).SetPrec(300).Mul(yb, yb)
		term.Quo(term, big.NewFloat(2))
		sum := new(big.Float).SetPrec(300)
		for k := 3; k < 120; k++ { // |y|^k/k! < 2^-300 of the sum by k = 120
			sum.Add(sum, term)
			term.Mul(term, yb)
			term.Quo(term, new(big.Float).SetInt64(int64(k)))
		}
		w, _ := sum.Float64()
		worst = math.Max(worst, math.Abs(emSampled(y)-w)/w/errfloat.Unit)
	}
	t.Logf("worst %.2f ulps", worst)
	if worst > 8 {
		t.Errorf("emSampled is %.2f ulps off somewhere in [-3, 3]; the error bounds assume 8", worst)
	}
}

// TestGLRuleWeights: every Gauss-Legendre rule the sampled quadrature uses
// integrates 1 to 2 (sum of weights) and x^(2n-2) to 2/(2n-1) (degree
// 2n-1 exactness, at the largest even power), and every weight exceeds
// e^-12, which lapNodes.lwErr assumes (|log w_j| < 12).
func TestGLRuleWeights(t *testing.T) {
	for _, n := range glSizes {
		r := glRule(n)
		var sum, mom float64
		for j, w := range r.w {
			if !(math.Log(w) > -12) {
				t.Errorf("n=%d: weight %d is %g, below e^-12", n, j, w)
			}
			if math.Abs(r.lw[j]-math.Log(w)) > 0 {
				t.Errorf("n=%d: lw[%d] = %v, log w = %v", n, j, r.lw[j], math.Log(w))
			}
			sum += 2 * w // nodes are +-x
			mom += 2 * w * math.Pow(r.x[j], float64(2*n-2))
		}
		if math.Abs(sum-2) > 1e-13 {
			t.Errorf("n=%d: weights sum to %.17g, want 2", n, sum)
		}
		if want := 2 / float64(2*n-1); math.Abs(mom-want) > 1e-13*want {
			t.Errorf("n=%d: x^%d integrates to %.17g, want %.17g", n, 2*n-2, mom, want)
		}
	}
}

// TestLog1pmx checks log1pmx's 6-ulp bound (which setNode's dl1 assumes)
// over |t| < 1/2 and its branches (|s| <= 0.02, 0.1, 1/3), against the
// series sum_{k>=2} (-1)^(k+1) t^k/k in math/big at 300 bits (the terms
// fall below 2^-300 of the sum by k = 400 for |t| < 1/2).
func TestLog1pmx(t *testing.T) {
	worst := 0.0
	for i := -249; i <= 249; i++ {
		x := float64(i) / 500
		if x == 0 {
			continue
		}
		for _, y := range []float64{x, x * 0.07, x * 1e-3, x * 1e-7} {
			yb := new(big.Float).SetPrec(300).SetFloat64(y)
			term := new(big.Float).SetPrec(300).Mul(yb, yb)
			sum := new(big.Float).SetPrec(300)
			for k := 2; k < 400; k++ {
				tk := new(big.Float).SetPrec(300).Quo(term, new(big.Float).SetInt64(int64(k)))
				if k%2 == 0 {
					sum.Sub(sum, tk)
				} else {
					sum.Add(sum, tk)
				}
				term.Mul(term, yb)
			}
			w, _ := sum.Float64()
			worst = math.Max(worst, math.Abs(log1pmx(y)-w)/math.Abs(w)/errfloat.Unit)
		}
	}
	t.Logf("worst %.2f ulps", worst)
	if worst > 6 {
		t.Errorf("log1pmx is %.2f ulps off somewhere in (-1/2, 1/2); setNode assumes 6", worst)
	}
}
