package reference

import (
	"math"
	"math/big"
	"testing"
)

// TestSubnormalQ: the float64 plans (term estimates, cut levels, the
// tiny-sigma decision) take log q from log64, because amd64's math.Log is
// wrong for subnormals. Expected logs: mpmath log(mpf(x)) at 30 digits;
// SGM(1e-310, 1/3, 161): mpmath's binomial sum at 60 digits,
// log1p(sum_k C(n,k) (1-q)^(n-k) q^k expm1((k^2-k)/(2 s^2)))/(n-1).
func TestSubnormalQ(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1e-310, -713.8013788281541651006446},
		{5e-324, -744.4400719213812623141073},
		{7.41691286169067e-309, -709.4950308209322161378511},
	} {
		if got := log64(c.x); math.Abs(got-c.want) > 4e-16*math.Abs(c.want) {
			t.Errorf("log64(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	v, err := Context{Prec: 128}.SGM(1e-310, 1.0/3, 161)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := big.ParseFloat("6.23736255416995180313450467606974982949113665538928938872488", 10, 200, big.ToNearestEven)
	d := new(big.Float).Sub(v, want)
	d.Quo(d, want)
	if r, _ := d.Float64(); math.Abs(r) > 0x1p-127 {
		t.Errorf("SGM(1e-310, 1/3, 161) = %s, want %s: relative error %.3g", v.Text('g', 40), want.Text('g', 40), r)
	}
}
