package oracles

import (
	"errors"
	"math/big"
	"testing"

	"github.com/rdpcheck/rdpcheck"
)

// Zhu and Wang's sum at small orders against mpmath, 50 digits:
//
//	from mpmath import mp, mpf, exp, log1p, log; import math
//	mp.dps = 50
//	q, b = mpf(0.01), mpf(1); M2 = (2*exp(1/b) + exp(-2/b))/3
//	log1p(q**2*(M2-1))                       # Laplace, alpha = 2
//	s, q = mpf(2), mpf(0.1); M = [exp(l*(l-1)/(2*s**2)) for l in range(4)]
//	log(sum(math.comb(3,l)*q**l*(1-q)**(3-l)*M[l] for l in range(4)))/2   # Gaussian, alpha = 3
func TestPoissonZWMpmath(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func() (*big.Float, error)
		want string
	}{
		{"Laplace q=0.01 b=1 alpha=2", func() (*big.Float, error) { return PoissonLaplaceZW(0.01, 1, 2, 160) },
			"0.0000857262900684163728043681841038828903430166833"},
		{"Gaussian q=0.1 sigma=2 alpha=3", func() (*big.Float, error) { return PoissonGaussianZW(0.1, 2, 3, 160) },
			"0.00437365834857705849041275964024494382059744819"},
	} {
		got, err := c.f()
		if err != nil {
			t.Fatal(err)
		}
		w, _, _ := big.ParseFloat(c.want, 10, 160, big.ToNearestEven)
		d := new(big.Float).Sub(got, w)
		d.Quo(d, w)
		if df, _ := d.Float64(); df > 1e-44 || df < -1e-44 {
			t.Errorf("%s: %s, mpmath %s", c.name, got.Text('g', 45), c.want)
		}
	}
}

func TestPoissonZWInput(t *testing.T) {
	for _, err := range []error{
		func() error { _, err := PoissonLaplaceZW(0, 1, 2, 128); return err }(),
		func() error { _, err := PoissonLaplaceZW(0.1, -1, 2, 128); return err }(),
		func() error { _, err := PoissonLaplaceZW(0.1, 1, 1, 128); return err }(),
		func() error { _, err := PoissonGaussianZW(1, 1, 2, 128); return err }(),
		func() error { _, err := PoissonGaussianZW(0.1, 0, 2, 128); return err }(),
	} {
		if !errors.Is(err, rdpcheck.ErrInput) {
			t.Errorf("err %v, want an input error", err)
		}
	}
}
