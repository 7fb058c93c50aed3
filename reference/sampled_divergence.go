package reference

// Poisson sampling of mechanisms other than the Gaussian: the exact RDP of
// the Poisson-sampled Laplace mechanism (SampledLaplace) and of any pair of
// discrete output distributions (SampledDivergence).
//
// Both are moments E_Q[(1+t)^g] of a mixture's density ratio to its base
// Q, 1+t = mu/mu0 = 1 + q (P/Q - 1), with g = alpha (forward, D(mu||mu0))
// or g = 1-alpha (backward, D(mu0||mu)). At small q the moment is 1 +
// O(q^2): forming it and taking log would cancel 2 log2(1/q) bits. Instead,
//
//	E_Q[(1+t)^g] - 1 = (E_Q[1] - 1) + g E_Q[t] + E_Q[h_g(t)],
//	h_g(t) = (1+t)^g - 1 - g t >= 0   (convex for g >= 1 or g <= 0),
//
// where E_Q[1] - 1 and E_Q[t] are formed exactly (they are 0 for the
// Laplace pair and for normalised vectors), and E_Q[h_g] is a sum of
// non-negative terms: nothing cancels between terms. Each h_g(t) cancels
// within itself (1 + g t is subtracted from (1+t)^g); its rounding error is
// below 2^-wp' (g+3)(|(1+t)^g| + 1 + |g t|) at working precision wp', and
// that bound is summed beside the value (hAcc). The working precision wp'
// is raised until the summed bound is 2^-(wp+8) of the sum: the extra bits
// are measured, not guessed. alpha = 1 (Kullback-Leibler) is the same with
// h(t) = (1+t) log(1+t) - t (forward) and t - log(1+t) (backward).

import (
	"errors"
	"fmt"
	"github.com/rdpcheck/rdpcheck/internal/xmath"
	"math"
	"math/big"

	"github.com/rdpcheck/rdpcheck"
)

// hKind selects the function a hAcc sums.
type hKind int

const (
	hPow = hKind(xmath.Pow)        // (1+t)^g - 1 - g t
	hKLF = hKind(xmath.KLForward)  // (1+t) log(1+t) - t
	hKLB = hKind(xmath.KLBackward) // t - log(1+t)
)

// momentKind is the summand h of the moment of one direction at order
// alpha (forward: E_Q[(P/Q)^alpha], backward: exponent 1 - alpha), and its
// exponent g; at alpha = 1 the KL forms.
func momentKind(alpha float64, forward bool) (hKind, float64) {
	switch {
	case alpha == 1 && forward:
		return hKLF, alpha
	case alpha == 1:
		return hKLB, alpha
	case !forward:
		return hPow, 1 - alpha
	}
	return hPow, alpha
}

// hAcc sums w h(t) and a bound on the rounding error of the sum, at
// precision wp.
type hAcc struct {
	kind   hKind
	g      *big.Float // the exponent (hPow)
	wp     uint
	S, C   *big.Float // sum of w h(t); sum of w x (a bound on |terms cancelled|)
	gAbs3  *big.Float // |g| + 3
	failed bool       // a term left big.Float's range
}

func newHAcc(kind hKind, g float64, wp uint) *hAcc {
	a := &hAcc{kind: kind, wp: wp, S: newF(wp), C: newF(wp)}
	a.g = fl(g, wp)
	a.gAbs3 = newF(wp).Add(newF(wp).Abs(a.g), intF(3, wp))
	return a
}

// add adds w h(t) for w > 0, t > -1.
func (a *hAcc) add(w, t *big.Float) {
	wp := a.wp
	if t.Sign() == 0 {
		return
	}
	L := log1pF(t, wp)
	var h, c *big.Float
	switch a.kind {
	case hPow:
		gl := newF(wp).Mul(a.g, L)
		m := expF(gl, wp) // (1+t)^g
		if m.IsInf() {
			a.failed = true
			return
		}
		gt := newF(wp).Mul(a.g, t)
		h = newF(wp).Sub(m, intF(1, wp))
		h.Sub(h, gt)
		c = newF(wp).Mul(a.gAbs3, m)
		c.Add(c, intF(1, wp))
		c.Add(c, gt.Abs(gt))
	case hKLF:
		m := exactSum(intF(1, 64), t)
		h = newF(wp).Mul(m, L)
		c = newF(wp).Abs(h)
		h.Sub(h, t)
		c.Add(c, newF(wp).Abs(t))
		c.Mul(c, intF(4, wp))
	case hKLB:
		h = newF(wp).Sub(t, L)
		c = newF(wp).Add(newF(wp).Abs(t), newF(wp).Abs(L))
		c.Mul(c, intF(4, wp))
	}
	a.S.Add(a.S, h.Mul(h, w))
	a.C.Add(a.C, c.Mul(c, w))
}

// addExact adds an exactly known term x (no rounding error beyond wp).
func (a *hAcc) addExact(x *big.Float) {
	a.S.Add(a.S, x)
	a.C.Add(a.C, newF(a.wp).Abs(x))
}

// settled reports whether the sum is known to 2^-(bits) relative: its
// summed rounding bound 2^-wp C (a few ulps per operation, times the node
// count's worth of additions, covered by the 2^8 margin) is that small.
func (a *hAcc) settled(bits uint) (ok bool, need uint) {
	if a.failed {
		return false, 0
	}
	if a.S.Sign() == 0 {
		return false, a.wp // all cancelled: double the precision
	}
	// A negative sum is possible: entries taken exactly need not sum to 1,
	// and a defect (sum Q - 1) + g lin below -E[h] makes the divergence
	// negative. It is as good a value as a positive one.
	// log2(C/S) + 8 more bits than asked for.
	lc := a.C.MantExp(nil) - a.S.MantExp(nil) + 2
	if lc < 0 {
		lc = 0
	}
	return uint(lc)+bits+8 <= a.wp, uint(lc) + 16
}

// errCancelledSampled reports a sampled moment whose cancellation exceeded
// every working precision tried at one Ziv step.
var errCancelledSampled = errors.New("reference: sampled moment cancelled beyond the working precision")

// sampledMoment runs eval (which fills an hAcc at a precision it is given)
// at wp+32 bits and again higher while the measured cancellation needs it,
// and returns the sum (E_Q[(1+t)^g] - 1, or the KL value) to about wp bits.
func sampledMoment(wp uint, eval func(wq uint) (*hAcc, error)) (*big.Float, error) {
	extra := uint(32)
	for range 8 {
		if wp+extra > MaxWorkingPrec {
			break
		}
		a, err := eval(wp + extra)
		if err != nil {
			return nil, err
		}
		ok, need := a.settled(wp)
		if ok {
			return newF(wp).Set(a.S), nil
		}
		if a.failed {
			return nil, errOutOfRange
		}
		extra = max(extra*2, need+32)
	}
	return nil, errCancelledSampled
}

// fromMoment turns S = E[(1+t)^g] - 1 into the divergence log(1+S)/(alpha-1)
// (alpha > 1), or returns S itself (alpha = 1, where S is the KL value).
func fromMoment(S *big.Float, alpha float64, wp uint) *big.Float {
	if alpha == 1 {
		return S
	}
	l := log1pF(S, wp)
	am1 := newF(wp).Sub(fl(alpha, 64), intF(1, 64)) // exact for float64 alpha >= 1
	return l.Quo(l, am1)
}

func checkSampledQ(fn string, q float64) error {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return inputErr(fn, "q", q, "sampling rate must be in [0, 1]")
	}
	return nil
}

func checkSampledOrder(fn string, alpha float64) error {
	if err := checkOrder(fn, alpha, 1, false); err != nil {
		return err
	}
	if !math.IsInf(alpha, 1) && alpha > rdpcheck.MaxFractionalOrder {
		return fmt.Errorf("%w: %s: order %g above %d", ErrTooLarge, fn, alpha, rdpcheck.MaxFractionalOrder)
	}
	return nil
}

// maxF returns the larger of two values (either may be +Inf).
func maxF(a, b *big.Float) *big.Float {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// SampledDivergenceDirections returns both Rényi divergences of order alpha
// between the outputs of a Poisson-sampled discrete mechanism: with Q the
// output distribution without the individual, P the output with it, and mu
// = (1-q) Q + q P, forward = D_alpha(mu || Q) and backward = D_alpha(Q ||
// mu). The RDP of the sampled mechanism (add/remove neighbours) is the
// larger; SampledDivergence returns it.
//
// Special cases are those of SampledDivergence, for both values.
//
// Slices: distP and distQ are only read (they may be one slice).
func (c Context) SampledDivergenceDirections(q float64, distP, distQ []float64, alpha float64) (forward, backward *big.Float, err error) {
	const fn = "SampledDivergence"
	if err := checkSampledQ(fn, q); err != nil {
		return nil, nil, err
	}
	if err := checkDists(fn, distP, distQ); err != nil {
		return nil, nil, err
	}
	if err := checkSampledOrder(fn, alpha); err != nil {
		return nil, nil, err
	}
	p := c.prec()
	if q == 1 {
		f, err := c.Divergence(distP, distQ, alpha)
		if err != nil {
			return nil, nil, err
		}
		b, err := c.Divergence(distQ, distP, alpha)
		if err != nil {
			return nil, nil, err
		}
		return f, b, nil
	}
	// Exact decisions: q = 0, P = Q on Q's support and sums exact, P outside Q's support.
	n := len(distP)
	P, Q := make([]*big.Float, n), make([]*big.Float, n)
	same, outside := true, false
	sumQ, sumPQ := newF(64), newF(64) // sum Q, sum of P over Q > 0
	for i := range n {
		P[i], Q[i] = fl(distP[i], 64), fl(distQ[i], 64)
		sumQ = exactSum(sumQ, Q[i])
		if Q[i].Sign() > 0 {
			sumPQ = exactSum(sumPQ, P[i])
			if P[i].Cmp(Q[i]) != 0 {
				same = false
			}
		} else if P[i].Sign() > 0 {
			outside = true
		}
	}
	if q == 0 {
		return newF(p), newF(p), nil
	}
	// lin = sum_Q t = q (sum_{Q>0} P - sum Q), exact; one = sum Q - 1, exact.
	dsum := exactSum(sumPQ, newF(sumQ.Prec()).Neg(sumQ))
	qF := fl(q, 64)
	lin := newF(dsum.Prec()+64).Mul(dsum, qF)
	one := exactSum(sumQ, intF(-1, 64))
	// With every ratio exactly 1 on Q's support (same), the mixture is Q
	// there, and the value is 0 at every order, as Divergence(P, P) is:
	// the formula would give log(sum Q)/(alpha-1), below 0 by the float64
	// sum's defect (-2.8e-17 for [0.1, 0.2, 0.7] at order 2), a negative
	// RDP for a mechanism that releases nothing about the individual.
	exactZero := same
	// t_i = q (P_i - Q_i)/Q_i for Q_i > 0.
	ts := func(wp uint) (w, t []*big.Float) {
		for i := range n {
			if Q[i].Sign() == 0 {
				continue
			}
			d := exactSum(P[i], newF(64).Neg(Q[i]))
			if d.Sign() == 0 {
				continue // h(0) = 0
			}
			ti := newF(wp).Mul(d, qF)
			ti.Quo(ti, Q[i])
			w, t = append(w, Q[i]), append(t, ti)
		}
		return w, t
	}
	dir := func(forwardDir bool) (*big.Float, error) {
		if forwardDir && outside {
			return newF(p).SetInf(false), nil
		}
		if exactZero {
			return newF(p), nil
		}
		if math.IsInf(alpha, 1) {
			return ziv(p, func(wp uint) (*big.Float, error) {
				_, t := ts(wp)
				// max (1+t) forward, max 1/(1+t) backward; t = 0 entries are 1.
				var best *big.Float
				if len(t) < n-countZeroQ(Q) { // some t = 0
					best = newF(wp)
				}
				for _, ti := range t {
					if best == nil || (forwardDir && ti.Cmp(best) > 0) || (!forwardDir && ti.Cmp(best) < 0) {
						best = ti
					}
				}
				l := log1pF(best, wp)
				if !forwardDir {
					l.Neg(l)
				}
				return l, nil
			})
		}
		kind, g := momentKind(alpha, forwardDir)
		return ziv(p, func(wp uint) (*big.Float, error) {
			S, err := sampledMoment(wp, func(wq uint) (*hAcc, error) {
				a := newHAcc(kind, g, wq)
				w, t := ts(wq)
				for i := range w {
					a.add(w[i], t[i])
				}
				switch kind {
				case hPow: // (sum Q - 1) + g lin
					a.addExact(newF(wq).Add(one, newF(wq).Mul(a.g, lin)))
				case hKLF:
					a.addExact(newF(wq).Set(lin))
				case hKLB:
					a.addExact(newF(wq).Neg(lin))
				}
				return a, nil
			})
			if err != nil {
				return nil, err
			}
			return fromMoment(S, alpha, wp), nil
		})
	}
	if forward, err = dir(true); err != nil {
		return nil, nil, err
	}
	if backward, err = dir(false); err != nil {
		return nil, nil, err
	}
	return forward, backward, nil
}

func countZeroQ(Q []*big.Float) int {
	k := 0
	for _, x := range Q {
		if x.Sign() == 0 {
			k++
		}
	}
	return k
}

// checkDists checks two probability vectors as Divergence does.
func checkDists(fn string, p, q []float64) error {
	if len(p) == 0 || len(p) != len(q) {
		return &InputError{Pkg: pkgName, Func: fn, Arg: "distP, distQ", Value: math.NaN(),
			Msg: fmt.Sprintf("probability vectors must be non-empty and of equal length (have %d and %d)", len(p), len(q))}
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"distP", p}, {"distQ", q}} {
		sum := 0.0
		for i, x := range v.x {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return inputErr(fn, fmt.Sprintf("%s[%d]", v.name, i), x, "probabilities must be finite and >= 0")
			}
			sum += x
		}
		if math.Abs(sum-1) > float64(len(v.x))*0x1p-52 {
			return inputErr(fn, "sum("+v.name+")", sum, "probabilities must sum to 1")
		}
	}
	return nil
}

// SampledDivergence returns the Rényi differential privacy of order alpha of
// a Poisson-sampled mechanism with discrete outputs, add/remove neighbours:
// with Q the output distribution without the individual (distQ), P the
// output with it (distP), and mu = (1-q) Q + q P,
//
//	max(D_alpha(mu || Q), D_alpha(Q || mu)),
//
// the exact value (no bound), correct to c.Prec bits by the Ziv loop. The
// mixture's ratio to Q is formed as 1 + q (P_i - Q_i)/Q_i, never as a
// difference of nearly equal numbers, and the moment's 1 is split off
// exactly (see the file comment), so tiny q costs no accuracy. The entries
// are taken exactly as given, as by Divergence, so sums that miss 1 in the
// last bits can make the value slightly negative (never for P = Q, which
// gives 0). This covers randomized
// response and any mechanism a user can tabulate.
//
// Special cases are:
//
//	SampledDivergence(q=0, P, Q, alpha) = 0
//	SampledDivergence(q=1, P, Q, alpha) = max(Divergence(P, Q, alpha), Divergence(Q, P, alpha))
//	SampledDivergence(q>0, P, Q, alpha) = +Inf if some P_i > 0 has Q_i = 0
//	SampledDivergence(q, P, P, alpha) = 0
//	SampledDivergence(q, P, Q, alpha=+Inf) = max(log(1 + q max_i (P_i/Q_i - 1)), -log(1 + q min_i (P_i/Q_i - 1)))
//	SampledDivergence = error for q outside [0, 1], empty or mismatched vectors,
//	    negative, NaN or Inf entries, sums away from 1, alpha < 1 or NaN
//	    (*InputError), and for finite alpha above MaxFractionalOrder (ErrTooLarge)
//
// Slices: distP and distQ are only read (they may be one slice).
func (c Context) SampledDivergence(q float64, distP, distQ []float64, alpha float64) (*big.Float, error) {
	f, b, err := c.SampledDivergenceDirections(q, distP, distQ, alpha)
	if err != nil {
		return nil, err
	}
	return maxF(f, b), nil
}

// SampledDivergence is Context{}.SampledDivergence at DefaultPrec.
//
// Slices: distP and distQ are only read (they may be one slice).
func SampledDivergence(q float64, distP, distQ []float64, alpha float64) (*big.Float, error) {
	return Context{}.SampledDivergence(q, distP, distQ, alpha)
}

// SampledDivergenceDirections is Context{}.SampledDivergenceDirections at DefaultPrec.
//
// Slices: distP and distQ are only read (they may be one slice).
func SampledDivergenceDirections(q float64, distP, distQ []float64, alpha float64) (forward, backward *big.Float, err error) {
	return Context{}.SampledDivergenceDirections(q, distP, distQ, alpha)
}
