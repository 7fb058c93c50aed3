package pld

import "math"

// RRDelta returns a certified interval for the optimal delta(eps) of count
// compositions of binary randomized response that reports the true bit
// with probability p (add/remove or replace-one: the pair of output laws,
// (p, 1-p) against (1-p, p), is symmetric, so both directions agree).
//
// Method. With P = max(p, 1-p), Q = 1 - P and r = log(P/Q), one step's
// privacy loss is +r with probability P and -r with probability Q, so the
// composed loss is r (n - 2K) with K ~ Binomial(n, Q), and
//
//	delta(eps) = sum over k with (n-2k) r > eps of
//	             C(n,k) P^(n-k) Q^k (1 - e^(eps - (n-2k) r)),
//
// a sum of positive terms. Each term is evaluated in the log domain,
// t_k = log C(n,k) + (n-k) log P + k log Q (log C(n,k) by the recurrence
// log C(n,k+1) = log C(n,k) + log((n-k)/(k+1))), x_k = eps - (n-2k) r, with
// running bounds a_k >= |t_k - exact| and b_k >= |x_k - exact| (math.Log,
// Log1p, Exp and Expm1 within 4u relative; every other operation within
// u; r = log1p((P-Q)/Q) within 7u relative, so that p near 1/2 keeps its
// digits). The weight w(x) = max(0, -expm1(x)) is 1-Lipschitz, so the term lies
// in [e^(t_k - a_k) max(0, w(x_k)(1-4u) - b_k), e^(t_k + a_k) min(1,
// w(x_k)(1+4u) + b_k)] (widened by 4u for Exp; below e^-700, where Exp's
// result is subnormal, the upper end uses e^-700 and the lower end drops
// the term); the sums are widened by 2 (n+3) u. The exact P is kept: for p < 1/2, Q = p and log P =
// log1p(-p).
//
// Special cases:
//
//	RRDelta(p=1/2, count, eps) = [0, 0] for eps >= 0, 1 - e^eps below
//	RRDelta(p=0 or 1, count, eps) = [1, 1] (the outputs tell the bit)
//	RRDelta(p, count, +Inf) = [0, 0] for 0 < p < 1
//	RRDelta(p, count, -Inf) = [1, 1]
func RRDelta(p float64, count int, eps float64) (Interval, error) {
	const fn = "RRDelta"
	if err := checkRR(fn, p, count); err != nil {
		return Interval{}, err
	}
	if err := checkEps(fn, eps); err != nil {
		return Interval{}, err
	}
	return rrDelta(p, count, eps), nil
}

// rrMaxCount bounds count (the sum has count + 1 terms).
const rrMaxCount = 1 << 26

func checkRR(fn string, p float64, count int) error {
	if !(p >= 0 && p <= 1) {
		return inputErr(fn, "p", p, "must be in [0, 1]")
	}
	if err := checkCount(fn, count); err != nil {
		return err
	}
	if count > rrMaxCount {
		return &tooLargeErr{fn, "count above 2^26 is not supported"}
	}
	return nil
}

func rrDelta(p float64, n int, eps float64) Interval {
	switch {
	case math.IsInf(eps, -1) || p == 0 || p == 1:
		return Interval{1, 1}
	case math.IsInf(eps, 1):
		return Interval{0, 0}
	case p == 0.5:
		if eps >= 0 {
			return Interval{0, 0}
		}
		v := -math.Expm1(eps)
		return Interval{v * (1 - 4*u64), math.Min(1, v*(1+4*u64))}
	}
	var lP, lQ float64
	if p > 0.5 {
		lP, lQ = math.Log(p), math.Log(1-p) // 1-p exact (Sterbenz)
	} else {
		lP, lQ = math.Log1p(-p), math.Log(p)
	}
	// r = log1p((P-Q)/Q): P-Q = 2p-1 and Q = 1-p are exact for p > 1/2;
	// for p < 1/2, Q = p and 1-2p is within u. The quotient adds u, so
	// the argument is within 2u relative, which moves log1p by at most 2u
	// relative (y/(1+y) <= log1p(y)); log1p adds 4u.
	var r float64
	if p > 0.5 {
		r = math.Log1p((2*p - 1) / (1 - p))
	} else {
		r = math.Log1p((1 - 2*p) / p)
	}
	rErr := 7 * u64 * r
	aP, aQ := math.Abs(lP), math.Abs(lQ)
	var hi, lo float64
	lc, ec := 0.0, 0.0 // log C(n,k) and its error bound
	nf := float64(n)
	for k := 0; k <= n; k++ {
		if k > 0 {
			l := math.Log(float64(n-k+1) / float64(k))
			lc += l
			ec += 4*u64*math.Abs(l) + 1.01*u64 + u64*math.Abs(lc)
		}
		kf := float64(k)
		d := nf - 2*kf // exact
		x := eps - d*r
		b := math.Abs(d)*rErr + 2*u64*(math.Abs(eps)+math.Abs(d*r))
		b *= 1 + 4*u64
		if !(x < b) {
			continue
		}
		t := lc + (nf-kf)*lP + kf*lQ
		a := ec + (nf-kf)*4*u64*aP + kf*4*u64*aQ + 4*u64*(math.Abs(lc)+(nf-kf)*aP+kf*aQ)
		a *= 1 + 4*u64
		w := 0.0
		if x < 0 {
			w = -math.Expm1(x)
		}
		// Exp is trusted only for normal results: below e^-700 the upper
		// term uses e^-700 and the lower one drops the term.
		eh := math.Exp(math.Max(t+a, -700)) * (1 + 4*u64)
		hi += eh * math.Min(1, w*(1+4*u64)+b)
		if wl := w*(1-4*u64) - b; wl > 0 && t-a > -700 {
			lo += math.Exp(t-a) * (1 - 4*u64) * wl
		}
	}
	f := 2 * float64(n+3) * u64
	return Interval{lo * (1 - f), math.Min(1, hi*(1+f))}
}

// RREpsilon returns a certified interval for the optimal eps(delta) =
// inf{eps >= 0 : delta(eps) <= delta} of count compositions of binary
// randomized response (see RRDelta), by bisection on RRDelta's interval
// (see invert) to 1e-9 relative.
//
// Special cases:
//
//	RREpsilon(p=1/2, count, delta) = [0, 0]
//	RREpsilon(p=0 or 1, count, delta) = [0, +Inf] with ErrPrecision (no eps has delta(eps) <= delta < 1)
func RREpsilon(p float64, count int, delta float64) (Interval, error) {
	const fn = "RREpsilon"
	if err := checkRR(fn, p, count); err != nil {
		return Interval{}, err
	}
	if err := checkDelta(fn, delta); err != nil {
		return Interval{}, err
	}
	return invert(func(e float64) Interval { return rrDelta(p, count, e) }, delta, 1e-9)
}
