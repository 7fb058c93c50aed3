package laws

import (
	"math"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
)

// The wor law's mutants, appended to mutants.
func init() { mutants = append(mutants, worMutants...) }

var worMutants = []mutant{
	{"wor", "WORGaussian with the replace-one sensitivity taken as 2 (sigma halved)", withFast(func(im *Impl) {
		im.WORGaussian = func(q, s, a float64) (float64, error) { return fast.WORGaussian(q, s/2, a) }
	})},
	{"wor", "WORGaussian at q = 1 returns the bound's formula instead of the Gaussian", withFast(func(im *Impl) {
		im.WORGaussian = func(q, s, a float64) (float64, error) {
			if q == 1 {
				return fast.WORGaussian(math.Nextafter(1, 0), s, a)
			}
			return fast.WORGaussian(q, s, a)
		}
	})},
	{"wor", "WORBound ignoring its base beyond order 2", withFast(func(im *Impl) {
		im.WORBound = func(q, a float64, b rdpcheck.BaseCurve) (float64, error) {
			for k := 1; k < len(b.Eps); k++ {
				b.Eps[k] = b.Eps[0]
			}
			return fast.WORBound(q, a, b)
		}
	})},
}
