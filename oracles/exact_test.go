package oracles

import (
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// exactSGMLogI returns log I(a) for integer a >= 2 from the exact binomial
// expansion (provenance: binomial theorem, E_{mu0}[L^k] = exp((k^2-k)/(2 sigma^2))):
//
//	I(a) - 1 = sum_{k=2}^{a} C(a,k) (1-q)^(a-k) q^k expm1((k^2-k)/(2 sigma^2)),
//
// all terms >= 0 (the k = 0, 1 terms vanish), so there is no cancellation.
// Binomials are exact big.Int; everything else is big.Float at prec+256
// bits with bigfloat.Exp/Log (not this package's exp/log).
func exactSGMLogI(q, sigma float64, a int, prec uint) *big.Float {
	p := prec + 256
	one := new(big.Float).SetPrec(p).SetInt64(1)
	qB := new(big.Float).SetPrec(p).SetFloat64(q)
	omq := new(big.Float).SetPrec(p).Sub(one, qB)
	s2 := new(big.Float).SetPrec(p).SetFloat64(sigma)
	s2.Mul(s2, s2)
	E := bigfloat.Exp(new(big.Float).SetPrec(p).Quo(one, s2)) // exp(1/sigma^2)
	// powers
	pq := make([]*big.Float, a+1)
	po := make([]*big.Float, a+1)
	pq[0], po[0] = new(big.Float).SetPrec(p).Set(one), new(big.Float).SetPrec(p).Set(one)
	for j := 1; j <= a; j++ {
		pq[j] = new(big.Float).SetPrec(p).Mul(pq[j-1], qB)
		po[j] = new(big.Float).SetPrec(p).Mul(po[j-1], omq)
	}
	J := new(big.Float).SetPrec(p)
	g := new(big.Float).SetPrec(p).Set(one)  // exp((k^2-k)/(2 s^2)) at k
	Ek := new(big.Float).SetPrec(p).Set(one) // E^k
	binom := big.NewInt(1)
	t := new(big.Float).SetPrec(p)
	for k := 0; k <= a; k++ {
		if k >= 1 {
			g.Mul(g, Ek) // g_k = g_{k-1} E^{k-1}
			Ek.Mul(Ek, E)
			binom.Mul(binom, big.NewInt(int64(a-k+1)))
			binom.Quo(binom, big.NewInt(int64(k)))
		}
		if k < 2 {
			continue
		}
		var em *big.Float
		arg := float64(k*k-k) / (2 * sigma * sigma)
		if arg < 0.5 {
			// expm1 by series (bigfloat has no expm1): sum_{n>=1} arg^n/n!
			x := new(big.Float).SetPrec(p).SetInt64(int64(k*k - k))
			x.Quo(x, s2)
			x.Quo(x, new(big.Float).SetInt64(2))
			em = new(big.Float).SetPrec(p)
			term := new(big.Float).SetPrec(p).Set(x)
			for n := 2; term.Sign() != 0 && term.MantExp(nil) > em.MantExp(nil)-int(p)-4; n++ {
				em.Add(em, term)
				term.Mul(term, x)
				term.Quo(term, new(big.Float).SetInt64(int64(n)))
			}
		} else {
			em = new(big.Float).SetPrec(p).Set(g)
			if g.MantExp(nil) < int(p)+8 { // else g - 1 rounds to g
				em.Sub(g, one)
			}
		}
		t.SetInt(binom)
		t.Mul(t, po[a-k])
		t.Mul(t, pq[k])
		t.Mul(t, em)
		J = safeAdd(J, t)
	}
	if J.MantExp(nil) > int(p)+8 {
		// J huge: log(1+J) = log J to p bits, and log J = log m + e log 2
		// (bigfloat's AGM is slow for arguments near 2^(1e9)).
		m := new(big.Float).SetPrec(p)
		e := J.MantExp(m)
		r := bigfloat.Log(m)
		l2 := bigfloat.Log(new(big.Float).SetPrec(p).SetInt64(2))
		r.Add(r, l2.Mul(l2, new(big.Float).SetPrec(p).SetInt64(int64(e))))
		return r.SetPrec(prec)
	}
	// log1p(J) with bigfloat.Log at enough precision for 1+J.
	lj := 0
	if J.Sign() != 0 {
		lj = -J.MantExp(nil)
	}
	pp := p + uint(max(lj, 0))
	onePJ := new(big.Float).SetPrec(pp).Add(new(big.Float).SetPrec(pp).SetInt64(1), J)
	r := bigfloat.Log(onePJ)
	return r.SetPrec(prec)
}

// digits returns the number of agreeing significant decimal digits.
func digits(got, want *big.Float) float64 {
	if got.Cmp(want) == 0 {
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(128).Sub(got, want)
	if want.Sign() != 0 {
		d.Quo(d, want)
	}
	return -math.Log10(math.Abs(f64(d)))
}

func f64(x *big.Float) float64 { v, _ := x.Float64(); return v }

// safeAdd returns x + y (both >= 0) without aligning mantissas across an
// exponent gap larger than the precision (big.Float.Add would allocate
// gap/8 bytes).
func safeAdd(x, y *big.Float) *big.Float {
	if y.Sign() == 0 {
		return x
	}
	if x.Sign() == 0 {
		return x.Set(y)
	}
	gap := x.MantExp(nil) - y.MantExp(nil)
	if gap > int(x.Prec())+8 {
		return x
	}
	if -gap > int(x.Prec())+8 {
		return x.Set(y)
	}
	return x.Add(x, y)
}
