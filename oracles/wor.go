package oracles

// WORGaussianBound: the bound of Wang, Balle and Kasiviswanathan 2019
// (arXiv 1808.00087), Theorem 27, for the Gaussian mechanism sampled without
// replacement, by a route that never subtracts.
//
// The bound needs the forward differences D(j) = sum_i C(j,i) (-1)^(j-i)
// e^(c i(i-1)), c = 1/(2 sigma^2), an alternating sum that cancels. Read
// e^(c i(i-1)) = e^(2c C(i,2)) as the total weight of the multigraphs on i
// labelled vertices in which each pair carries a Poisson number m of edges
// with weight (2c)^m/m!: by inclusion-exclusion over the isolated vertices,
// D(j) is the weight of the multigraphs on j vertices with no isolated
// vertex. Those are counted by adding vertices one at a time and tracking
// how many are isolated: with d = e^(2c) - 1 (a pair with at least one
// edge), a graph on n vertices with k isolated ones goes, when vertex n+1
// joins,
//
//	to k+1 isolated with weight 1 (no edge),
//	to k with weight e^(2c(n-k)) - 1 (edges only to non-isolated vertices),
//	to k-a with weight C(k,a) d^a e^(2c(n-k)) (edges to a >= 1 isolated ones),
//
// every weight non-negative, so every D(j) comes out with relative error a
// few ulps times the number of operations (O(n^3) of them: this oracle is
// for orders up to about 130).

import (
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// WORGaussianDiffs returns D(0..n) for the Gaussian with noise sigma at
// precision prec, by the isolated-vertex recurrence above.
func WORGaussianDiffs(sigma float64, n int, prec uint) ([]*big.Float, error) {
	const fn = "WORGaussianDiffs"
	if err := checkPrec(fn, prec); err != nil {
		return nil, err
	}
	if math.IsNaN(sigma) || sigma <= 0 || math.IsInf(sigma, 0) {
		return nil, inErr(fn, "sigma", sigma, "must be finite and > 0")
	}
	if n < 0 || n > 256 {
		return nil, inErr(fn, "n", float64(n), "must be in [0, 256]")
	}
	wp := prec + 32
	twoC := newF(wp).Quo(fint(1, wp), newF(wp).Mul(fl(sigma, wp), fl(sigma, wp))) // 2c = 1/sigma^2
	d := expm1Big(twoC, wp)
	// ek[m] = e^(2c m), em1[m] = e^(2c m) - 1, dp[a] = d^a.
	ek := make([]*big.Float, n+1)
	em1 := make([]*big.Float, n+1)
	dp := make([]*big.Float, n+1)
	for m := 0; m <= n; m++ {
		x := newF(wp).Mul(twoC, fint(int64(m), wp))
		em1[m] = expm1Big(x, wp)
		ek[m] = newF(wp).Add(em1[m], fint(1, wp))
		if m == 0 {
			dp[m] = fint(1, wp)
		} else {
			dp[m] = newF(wp).Mul(dp[m-1], d)
		}
	}
	out := make([]*big.Float, n+1)
	out[0] = fint(1, prec) // the empty graph
	if n == 0 {
		return out, nil
	}
	H := []*big.Float{newF(wp), fint(1, wp)} // one vertex, isolated
	out[1] = newF(prec)
	t := newF(wp)
	for nv := 1; nv < n; nv++ {
		next := make([]*big.Float, nv+2)
		for k := range next {
			next[k] = newF(wp)
		}
		for k := 0; k <= nv; k++ {
			h := H[k]
			if h.Sign() == 0 {
				continue
			}
			next[k+1].Add(next[k+1], h)
			next[k].Add(next[k], t.Mul(h, em1[nv-k]))
			binom := big.NewInt(1)
			for a := 1; a <= k; a++ {
				binom.Mul(binom, big.NewInt(int64(k-a+1)))
				binom.Quo(binom, big.NewInt(int64(a)))
				t.SetInt(binom)
				t.Mul(t, dp[a])
				t.Mul(t, ek[nv-k])
				t.Mul(t, h)
				next[k-a].Add(next[k-a], t)
			}
		}
		H = next
		out[nv+1] = newF(prec).Set(H[0])
	}
	return out, nil
}

// WORGaussianBound returns the Theorem 27 bound at integer order a in
// [2, 128]: (1/(a-1)) log(1 + sum_{j=2..a} q^j C(a,j) m(j)) with
// m(2) = min(4 D(2), 2 e^(2c)) and m(j) = min(4 B(j), 2 e^(c j(j-1))),
// B(j) = D(j) for even j and sqrt(D(j-1) D(j+1)) for odd j.
func WORGaussianBound(q, sigma float64, a int, prec uint) (*big.Float, error) {
	const fn = "WORGaussianBound"
	if math.IsNaN(q) || q <= 0 || q >= 1 {
		return nil, inErr(fn, "q", q, "must be in (0, 1)")
	}
	if a < 2 || a > 128 {
		return nil, inErr(fn, "a", float64(a), "must be in [2, 128]")
	}
	wp := prec + 32
	D, err := WORGaussianDiffs(sigma, a+1, wp)
	if err != nil {
		return nil, err
	}
	c := newF(wp).Quo(fint(1, wp), newF(wp).Mul(fl(2*sigma, wp), fl(sigma, wp)))
	Q := fl(q, wp)
	sum := newF(wp)
	for j := 2; j <= a; j++ {
		b := newF(wp)
		if j%2 == 0 {
			b.Set(D[j])
		} else {
			b.Sqrt(newF(wp).Mul(D[j-1], D[j+1]))
		}
		b.Mul(b, fint(4, wp))
		mom := bigfloat.Exp(newF(wp).Mul(c, fint(int64(j*(j-1)), wp)))
		mom.Mul(mom, fint(2, wp))
		if mom.Cmp(b) < 0 {
			b = mom
		}
		term := newF(wp).SetInt(new(big.Int).Binomial(int64(a), int64(j)))
		term.Mul(term, bigfloat.Pow(Q, fint(int64(j), wp)))
		sum.Add(sum, term.Mul(term, b))
	}
	l := bigfloat.Log(sum.Add(sum, fint(1, wp)))
	return newF(prec).Quo(l, fint(int64(a-1), wp)), nil
}
