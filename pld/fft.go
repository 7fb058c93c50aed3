package pld

import (
	"math"
	"math/bits"
	"sync"
)

// Radix-2 complex FFT and the error bound of a convolution computed with it.
//
// Method. The transform is the iterative decimation-in-time Cooley-Tukey
// algorithm with twiddle factors w_k = e^(-2 pi i k/N) from math.Sincos of
// the argument (2 pi) k / N (k/N exact, N a power of 2): the argument is
// within 2u of its value relative, so each twiddle factor is within
// mu = 16u of the exact one (|angle error| <= 4 pi u plus 1 ulp per
// component from Sincos). Higham (Accuracy and Stability of Numerical
// Algorithms, 2nd ed., Thm. 24.2): the computed transform of x satisfies
//
//	||yhat - y||_2 <= t eta / (1 - t eta) ||y||_2,  eta = mu + gamma_4 (sqrt2 + mu),
//
// t = log2 N, gamma_4 = 4u/(1-4u). The inverse transform is the same
// algorithm on conjugated twiddles, then scaled by 1/N (exact).

const u64 = 0x1p-53

type fftPlan struct {
	n   int
	tw  []complex128 // tw[k] = e^(-2 pi i k/n), k < n/2
	st  []complex128 // st[m+k] = tw[k n/(2m)], k < m, for m = 1, 2, 4, ..., n/2
	rev []int
	eta float64 // relative 2-norm error bound of one transform
}

// planCache keeps the plans of the transform lengths in use, safe for
// concurrent use, within planCacheBytes (about 56 n bytes a plan): when a
// new plan would exceed it the cache is emptied first (plans are cheap to
// rebuild next to the transforms that use them).
var planCache = struct {
	sync.Mutex
	m     map[int]*fftPlan
	bytes int
}{m: map[int]*fftPlan{}}

const planCacheBytes = 1 << 30

func getPlan(n int) *fftPlan {
	planCache.Lock()
	p, ok := planCache.m[n]
	planCache.Unlock()
	if ok {
		return p
	}
	p = newPlan(n)
	planCache.Lock()
	defer planCache.Unlock()
	if planCache.bytes+56*n > planCacheBytes {
		clear(planCache.m)
		planCache.bytes = 0
	}
	if q, ok := planCache.m[n]; ok {
		return q
	}
	planCache.m[n] = p
	planCache.bytes += 56 * n
	return p
}

// newPlan builds the plan of length n (a power of two).
func newPlan(n int) *fftPlan {
	p := &fftPlan{n: n, tw: make([]complex128, n/2), rev: make([]int, n)}
	lg := bits.TrailingZeros(uint(n))
	for k := 0; k < n/2; k++ {
		s, c := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		p.tw[k] = complex(c, -s)
	}
	p.st = make([]complex128, n)
	for m := 1; m < n; m <<= 1 {
		for k := 0; k < m; k++ {
			p.st[m+k] = p.tw[k*(n/(2*m))]
		}
	}
	for i := 0; i < n; i++ {
		p.rev[i] = int(bits.Reverse(uint(i)) >> (bits.UintSize - lg))
	}
	p.eta = getPlanEta(n)
	return p
}

// transform computes the DFT of x in place (inverse: conjugate twiddles,
// no scaling). The inverse is computed as conj(DFT(conj x)), which is the
// same butterflies with conjugated twiddles (conjugation is exact). Stage
// s (butterflies of half-size m) reads its twiddles w_(k n/(2m)), k < m,
// from the contiguous copy st[m:2m]; the size-2 stage's twiddle is 1 and
// its product is skipped (b * 1 = b exactly).
func (p *fftPlan) transform(x []complex128, inverse bool) {
	n := p.n
	if inverse {
		for i, v := range x {
			x[i] = complex(real(v), -imag(v))
		}
	}
	for i, j := range p.rev {
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	for i := 0; i+1 < n; i += 2 {
		a, b := x[i], x[i+1]
		x[i], x[i+1] = a+b, a-b
	}
	for half := 2; half < n; half <<= 1 {
		w := p.st[half : 2*half]
		size := 2 * half
		for start := 0; start < n; start += size {
			lo := x[start : start+half]
			hi := x[start+half : start+size]
			for k := range lo {
				a := lo[k]
				b := hi[k] * w[k]
				lo[k] = a + b
				hi[k] = a - b
			}
		}
	}
	if inverse {
		for i, v := range x {
			x[i] = complex(real(v), -imag(v))
		}
	}
}

func nextPow2(n int) int {
	if n <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

func norms(v []float64) (n1, n2 float64) {
	for _, x := range v {
		n1 += math.Abs(x)
		n2 += x * x
	}
	// rounded up: n1 within len*u, n2 within (len+1)u
	f := 1 + float64(len(v)+2)*u64*1.01
	return n1 * f, math.Sqrt(n2*f) * (1 + u64)
}

// convPair computes the linear convolutions ra = a1*b1 and rb = a2*b2 of
// two pairs of real vectors with one complex transform per factor (a1 + i
// a2 and b1 + i b2, separated by conjugate symmetry) and one inverse, and
// returns err, a bound on |computed - exact| for every entry of either
// result. When square is set, b1 = a1 and b2 = a2 and one forward transform
// serves.
//
// Error bound. Let z = a1 + i a2, Z its DFT, Zhat the computed one:
// ||Zhat - Z||_2 <= eta ||Z||_2 = eta sqrt(N) ||z||_2. The spectra
// A1 = (Z_k + conj Z_(N-k))/2 and A2 = (Z_k - conj Z_(N-k))/(2i) are
// formed with error at most that of Z (the map is a contraction in the
// 2-norm) plus one rounding (u). The products A1 B1 + i A2 B2 differ from
// the exact ones by at most |dA| |B| + |A| |dB| + |dA||dB| + 6u |A||B| per
// entry, |A|_inf <= ||a||_1. The inverse divides the 2-norm by sqrt(N) and
// adds eta of its output's norm. With Ea = eta ||z||_2 (1+eta) + u ||a||_1,
// and ||.||_inf <= ||.||_2 for the result:
//
//	err <= (Ea Nb + Na Eb + Ea Eb sqrt(N) + 6u Na Nb2 + eta (Na + Ea sqrt N)(Nb2 + Eb))(1 + 4u)
//
// where Na = max ||a_i||_1, Nb the same for b, Nb2 = ||b1||_2 + ||b2||_2. The
// bound is symmetrised by taking the larger with a and b exchanged.
func convPair(a1, a2, b1, b2 []float64, square bool) (ra, rb []float64, err float64) {
	la, lb := len(a1), len(b1)
	if len(a2) != la || len(b2) != lb {
		panic("convPair: lengths")
	}
	m := la + lb - 1
	n := nextPow2(m)
	p := getPlan(n)
	za := make([]complex128, n)
	for i := 0; i < la; i++ {
		za[i] = complex(a1[i], a2[i])
	}
	p.transform(za, false)
	var zb []complex128
	if square {
		zb = za
	} else {
		zb = make([]complex128, n)
		for i := 0; i < lb; i++ {
			zb[i] = complex(b1[i], b2[i])
		}
		p.transform(zb, false)
	}
	out := make([]complex128, n)
	for k := 0; k < n; k++ {
		A1, A2 := separate(za, k)
		B1, B2 := A1, A2
		if !square {
			B1, B2 = separate(zb, k)
		}
		out[k] = A1*B1 + complex(0, 1)*(A2*B2)
	}
	p.transform(out, true)
	inv := 1 / float64(n)
	ra = make([]float64, m)
	rb = make([]float64, m)
	for i := 0; i < m; i++ {
		ra[i] = real(out[i]) * inv
		rb[i] = imag(out[i]) * inv
	}
	return ra, rb, convErr(n, a1, a2, b1, b2)
}

// convErr is convPair's error bound for factors of these norms at
// transform length n (a power of two).
func convErr(n int, a1, a2, b1, b2 []float64) float64 {
	n1a1, n2a1 := norms(a1)
	n1a2, n2a2 := norms(a2)
	n1b1, n2b1 := norms(b1)
	n1b2, n2b2 := norms(b2)
	eta := getPlanEta(n)
	sq := math.Sqrt(float64(n))
	bound := func(Na, Na2, Nb, Nb2, za2, zb2 float64) float64 {
		Ea := eta*za2*(1+eta) + u64*Na
		Eb := eta*zb2*(1+eta) + u64*Nb
		return (Ea*Nb + Na*Eb + Ea*Eb*sq + 6*u64*Na*Nb2 + eta*(Na+Ea*sq)*(Nb2+Eb)) * (1 + 4*u64)
	}
	Na, Nb := math.Max(n1a1, n1a2), math.Max(n1b1, n1b2)
	Na2, Nb2 := n2a1+n2a2, n2b1+n2b2
	za2 := math.Hypot(n2a1, n2a2) * (1 + 2*u64)
	zb2 := math.Hypot(n2b1, n2b2) * (1 + 2*u64)
	return math.Max(bound(Na, Na2, Nb, Nb2, za2, zb2), bound(Nb, Nb2, Na, Na2, zb2, za2))
}

// getPlanEta returns the relative 2-norm error bound of one transform of
// length n (a power of two), as getPlan computes it, without the plan.
func getPlanEta(n int) float64 {
	lg := bits.TrailingZeros(uint(n))
	mu := 16 * u64
	g4 := 4 * u64 / (1 - 4*u64)
	eta := mu + g4*(math.Sqrt2+mu)
	t := float64(lg)
	return t * eta / (1 - t*eta)
}

// separate returns, at frequency k, the transforms of the real vectors x
// and y from the transform z of x + i y (len(z) a power of two): the
// conjugate-symmetric and antisymmetric parts of z.
func separate(z []complex128, k int) (X, Y complex128) {
	zk, zj := z[k], z[(len(z)-k)&(len(z)-1)]
	cj := complex(real(zj), -imag(zj))
	return (zk + cj) * 0.5, (zk - cj) * complex(0, -0.5)
}
