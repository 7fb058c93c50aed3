package pld

import (
	"context"
	"math"
	"math/bits"
)

// powerFFT composes every step at once in the frequency domain, as
// dp_accounting's PLD does, but certified: the steps (tilted vectors on
// one grid, each normalised to total 1) are transformed once at a length
// N that holds the composition's window, their transforms raised to their
// counts and multiplied pointwise, and transformed back. That is one
// transform per step and two back, where repeated squaring (power, conv)
// costs about four transforms of the final length per doubling of the
// count.
//
// Error bound (2-norms over the N frequencies; Higham, Thm. 24.2, as in
// convPair). A step's computed transform, separated from the pair packed
// as up + i lo, is within Ex = (eta (1 + eta) |z|_2 + 2u |x|_2) sqrt(N) of
// the exact one, whose entries are at most its total T = 1 (+len u) in
// modulus. For a product of powers, |prod a_i^(n_i) - prod b_i^(n_i)| <=
// sum n_i M^(n - 1) |a_i - b_i| with M the largest modulus and n the total
// count, so the products are within e^(n Exmax) sum n_i Ex_i; their own
// rounding (binary exponentiation: 2 log2 n_i products a term, each
// within 4u relative, and the product over the terms) adds rho M^(n-1)
// times a transform's 2-norm. The inverse transform, divided by N, takes
// the 2-norm to its 1/sqrt(N) and adds eta of its result's, so each
// entry of the result is within Eres and their errors sum to sqrt(N)
// Eres. The linear composition's mass outside the window (the circular
// one folds it in) is bounded by Chernoff's bound on the steps'
// normalised vectors, theta in both directions (windowFor): it is slack
// for the upper vector (mass left out) and for the lower (mass folded
// in). The steps' own slacks compose as (T + S)^n - T^n.
//
// powerFFT returns ok = false when it does not apply (the window does
// not fit maxLen, or n Exmax is not small): the caller then composes by
// repeated squaring, which can coarsen.
func powerFFT(ctx context.Context, steps []tmeas, counts []int64, maxLen int) (tmeas, bool, error) {
	// normalise each step to total 1 (the quotient's rounding is an
	// entry's relative error, in tiltRel)
	type nstep struct {
		x, l           []float64
		k0             int
		n              int64
		lt             float64 // log of the scale taken out
		slack, slackLo float64 // relative to the step's totals
		mu, v          float64 // mean and variance of the index (upper vector)
	}
	var ns []nstep
	var logZ, tiltRel float64
	var K0 int64 // sum of n_i k0_i
	for i, s := range steps {
		T := sumUp(s.up)
		L := sumUp(s.lo)
		if !(T > 0) || !(L >= 0) {
			return tmeas{}, false, nil
		}
		x := make([]float64, len(s.up))
		l := make([]float64, len(s.lo))
		var mu, m2 float64
		for j := range s.up {
			x[j] = s.up[j] / T
			l[j] = s.lo[j] / T
			mu += float64(j) * x[j]
		}
		for j := range x {
			d := float64(j) - mu
			m2 += d * d * x[j]
		}
		n := counts[i]
		nf := float64(n)
		lt := math.Log(T)
		logZ += nf * (s.logZ + lt)
		// the division (u), and logZ's sum (u of its magnitude a term)
		tiltRel += nf * (s.tiltRel + (2+1.01*math.Abs(s.logZ+lt))*u64)
		ns = append(ns, nstep{x: x, l: l, k0: s.k0, n: n, lt: lt,
			slack: s.slack / T * (1 + 4*u64), slackLo: s.slackLo / T * (1 + 4*u64),
			mu: mu, v: m2})
		if math.Abs(float64(n)*float64(s.k0)) > 1<<52 || float64(n)*float64(len(s.up)) > 1<<52 {
			return tmeas{}, false, nil // the indices would leave int64's exact range
		}
		K0 += n * int64(s.k0)
	}
	// the window: from the moments, certified by Chernoff's bound
	var M, V float64
	for _, s := range ns {
		M += float64(s.n) * (float64(s.k0) + s.mu)
		V += float64(s.n) * s.v
	}
	xs := make([][]float64, len(ns))
	k0s := make([]int, len(ns))
	nn := make([]int64, len(ns))
	for i, s := range ns {
		xs[i], k0s[i], nn[i] = s.x, s.k0, s.n
	}
	const wrapRel = 1e-24
	A, B, wrapUp, ok := windowFor(xs, k0s, nn, M, V, wrapRel, maxLen)
	if !ok {
		return tmeas{}, false, nil
	}
	N := nextPow2(int(B - A + 1))
	for _, s := range ns {
		if len(s.x) > N {
			N = nextPow2(len(s.x))
		}
	}
	if N > maxLen {
		return tmeas{}, false, nil
	}
	eta := getPlanEta(N)
	// Each transform's entries are within eta of the inputs' 1-norm
	// (componentwise: every output is a tree of t butterflies, each adding
	// at most eta/t of the magnitude below it, which the 1-norm bounds),
	// and the separation of the packed pair adds u: |dX_k| <= ex_i =
	// eta (|x|_1 + |l|_1)(1 + eta) + u |X_k|. The products' rounding
	// (binary exponentiation, 2 log2 n products a term, and the product
	// over the terms, each 4u relative) is rho.
	var rho, ntotGrowth float64
	exs := make([]float64, len(ns))
	for i, s := range ns {
		l1x, _ := norms(s.x)
		l1l, _ := norms(s.l)
		exs[i] = eta * (l1x + l1l) * (1 + eta) * (1 + 4*u64)
		rho += (2*float64(bits.Len64(uint64(s.n))) + 1) * 4 * u64
		ntotGrowth += float64(s.n) * exs[i]
	}
	if ntotGrowth > 0.01 {
		return tmeas{}, false, nil // the forward errors grow too far under the powers
	}
	if err := ctx.Err(); err != nil {
		return tmeas{}, false, err
	}
	p := getPlan(N)
	P := make([]complex128, N)
	Q := make([]complex128, N)
	// per frequency: the log of prod M^n (M = |X| + ex, the largest
	// modulus of X and the exact one) and sum n ex/M, for P and for Q
	logMP, logMQ := make([]float64, N), make([]float64, N)
	sumP, sumQ := make([]float64, N), make([]float64, N)
	for i := range P {
		P[i], Q[i] = 1, 1
	}
	z := make([]complex128, N)
	for i, s := range ns {
		clear(z)
		for j := range s.x {
			z[j] = complex(s.x[j], s.l[j])
		}
		p.transform(z, false)
		nf := float64(s.n)
		for k := 0; k < N; k++ {
			X, L := separate(z, k)
			P[k] *= cpow(X, s.n)
			Q[k] *= cpow(L, s.n)
			mx := math.Hypot(real(X), imag(X))*(1+4*u64) + exs[i] + u64*math.Hypot(real(X), imag(X))
			ml := math.Hypot(real(L), imag(L))*(1+4*u64) + exs[i] + u64*math.Hypot(real(L), imag(L))
			// log M rounded up (Log within 4u), as the sum is below
			lx, ll := math.Log(mx), math.Log(ml)
			logMP[k] += nf * lx * (1 + 4*u64*math.Copysign(1, lx))
			logMQ[k] += nf * ll * (1 + 4*u64*math.Copysign(1, ll))
			sumP[k] += nf * exs[i] / mx
			sumQ[k] += nf * exs[i] / ml
		}
		if err := ctx.Err(); err != nil {
			return tmeas{}, false, err
		}
	}
	// |dP_k| <= prod M^n (sum n ex/M + rho); the 2-norms over k
	var dP2, dQ2 float64
	for k := 0; k < N; k++ {
		a := math.Exp(logMP[k]+4*u64*math.Abs(logMP[k])) * (sumP[k] + rho) * (1 + 8*u64)
		b := math.Exp(logMQ[k]+4*u64*math.Abs(logMQ[k])) * (sumQ[k] + rho) * (1 + 8*u64)
		dP2 += a * a
		dQ2 += b * b
	}
	fN := 1 + float64(N+2)*u64
	dW := (math.Sqrt(dP2*fN) + math.Sqrt(dQ2*fN)) * (1 + 4*u64)
	w := make([]complex128, N)
	var w2 float64
	for k := range w {
		w[k] = P[k] + complex(0, 1)*Q[k] // exact: the parts do not mix
		w2 += real(w[k])*real(w[k]) + imag(w[k])*imag(w[k])
	}
	Wn := math.Sqrt(w2*fN) * (1 + 2*u64)
	p.transform(w, true)
	// the inverse, divided by N: the result's 2-norm error is (dW + eta
	// |W|_2)/sqrt(N), so its entries' errors sum to at most dW + eta |W|_2
	e1 := (dW + eta*Wn) * (1 + 4*u64)
	// the window [A, A + N): composed index A + t at position (A - K0 + t) mod N
	shift := int(((A-K0)%int64(N) + int64(N)) % int64(N))
	inv := 1 / float64(N)
	up := make([]float64, B-A+1)
	lo := make([]float64, B-A+1)
	for t := range up {
		v := w[(shift+t)&(N-1)]
		up[t] = math.Max(real(v)*inv, 0)
		lo[t] = math.Max(imag(v)*inv, 0)
	}
	// the steps' slacks: (T + S)^n - T^n with T = 1
	var ls, lsLo float64
	for _, s := range ns {
		ls += float64(s.n) * math.Log1p(s.slack) * (1 + 4*u64)
		lsLo += float64(s.n) * math.Log1p(s.slackLo) * (1 + 4*u64)
	}
	slack := (math.Expm1(ls)*(1+4*u64) + e1 + wrapUp) * (1 + 4*u64)
	slackLo := (math.Expm1(lsLo)*(1+4*u64) + e1 + wrapUp) * (1 + 4*u64)
	r := tmeas{k0: int(A), up: up, lo: lo, logZ: logZ, slack: slack, slackLo: slackLo,
		tiltRel: tiltRel * (1 + 4*u64)}
	return normalise(truncate(r, 2*e1)), true, nil
}

// cpow returns z^n by binary exponentiation.
func cpow(z complex128, n int64) complex128 {
	r := complex(1, 0)
	for n > 0 {
		if n&1 == 1 {
			r *= z
		}
		n >>= 1
		if n > 0 {
			z *= z
		}
	}
	return r
}

// windowFor returns [A, B], the composed indices outside which the
// linear composition of the normalised steps (x_i at k0_i, n_i times)
// has total mass at most wrap (certified: for theta > 0 the mass above b
// is at most e^(-theta b) prod (sum_j x_ij e^(theta (k0_i + j)))^(n_i),
// rounded up, and the same below with theta < 0), starting from the
// mean M and variance V and widening; ok is false when the window would
// exceed maxLen.
func windowFor(xs [][]float64, k0s []int, ns []int64, M, V, wrap float64, maxLen int) (A, B int64, bound float64, ok bool) {
	// log of the composed MGF at theta (in index units), rounded up
	logMGF := func(theta float64) float64 {
		var t float64
		for i, x := range xs {
			// log sum_j x_j e^(theta (k0 + j)), shifted by its largest exponent
			mx := math.Inf(-1)
			for j := range x {
				if x[j] > 0 {
					mx = math.Max(mx, theta*float64(k0s[i]+j))
				}
			}
			var s float64
			for j := range x {
				if x[j] > 0 {
					d := theta*float64(k0s[i]+j) - mx
					s += x[j] * math.Exp(d) * (1 + (5+1.01*math.Abs(d))*u64)
				}
			}
			s *= 1 + float64(len(x)+2)*u64
			t += float64(ns[i]) * (mx + math.Log(s)*(1+4*u64) + 4*u64*math.Abs(mx)) * (1 + 2*u64)
		}
		return t
	}
	// the best of a few theta for the tail beyond b (sign: +1 above, -1 below)
	tail := func(b float64, sign float64) float64 {
		best := inf
		sd := math.Sqrt(math.Max(V, 1))
		// theta from the normal's (b - M)/V down by factors of 2 (a step
		// with a long thin tail needs small theta) and up to 16 times it
		for f := 0x1p-12; f <= 16; f *= 2 {
			theta := sign * f * math.Abs(b-M) / (sd * sd)
			if theta == 0 {
				continue
			}
			v := logMGF(theta) - theta*b
			best = math.Min(best, v)
		}
		return math.Exp(best) * (1 + 4*u64)
	}
	sd := math.Sqrt(math.Max(V, 1))
	for c := 8.0; ; c *= 1.5 {
		lo, hi := math.Floor(M-c*sd), math.Ceil(M+c*sd)
		if hi-lo+1 > float64(maxLen) {
			return 0, 0, 0, false
		}
		above, below := tail(hi+1, 1), tail(lo-1, -1)
		if above+below <= wrap {
			return int64(lo), int64(hi), (above + below) * (1 + 2*u64), true
		}
		if c > 1e4 {
			return 0, 0, 0, false
		}
	}
}
