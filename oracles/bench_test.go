package oracles

import (
	"testing"
	"time"
)

// BenchmarkSGMQuadTable runs SGMQuad at prec 256 over a 150-call sweep of
// the q x sigma x alpha table (integer and fractional orders rotated) and
// reports the slowest call.
func BenchmarkSGMQuadTable(b *testing.B) {
	orders := append([]float64{}, tableFracA...)
	for _, a := range tableIntA {
		orders = append(orders, float64(a))
	}
	for i := 0; i < b.N; i++ {
		var slow time.Duration
		var which [3]float64
		n := 0
		for k := 0; n < 150; k++ {
			q := tableQ[1+k%(len(tableQ)-1)]
			s := tableSigma[(k/3)%len(tableSigma)]
			a := orders[(k*7)%len(orders)]
			t0 := time.Now()
			if _, _, err := SGMQuad(q, s, a, testPrec); err != nil {
				b.Fatalf("SGMQuad(%g, %g, %g): %v", q, s, a, err)
			}
			if el := time.Since(t0); el > slow {
				slow, which = el, [3]float64{q, s, a}
			}
			n++
		}
		b.ReportMetric(float64(slow.Milliseconds()), "slowest-ms")
		b.Logf("slowest call %v at (q, sigma, alpha) = %v", slow, which)
	}
}
