package sgm

import (
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/rdpcheck/rdpcheck/reference"
)

// refCtx is the reference at 64 bits: relative error at most 2^-63 ~ 1.1e-19
// (its Ziv guarantee), seven orders below the 1e-12 checked here, and about
// three times faster than 128 bits.
var refCtx = reference.Context{Prec: 64}

// logUniform draws from [lo, hi] uniformly in log scale.
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
}

// relErr is (got - ref)/ref, 0 where both are 0.
func relErr(got float64, ref *big.Float) float64 {
	if ref.Sign() == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(128).Sub(new(big.Float).SetFloat64(got), ref)
	d.Quo(d, ref)
	v, _ := d.Float64()
	return v
}
