package reference

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Divergence returns the Rényi divergence D_alpha(P || Q) of two discrete
// distributions given as probability vectors, for alpha in [0, +Inf]:
//
//	alpha in (0,1) and (1,inf): 1/(alpha-1) log sum_i p_i^alpha q_i^(1-alpha)
//	alpha = 0:   -log sum_{i: p_i > 0} q_i
//	alpha = 1:   sum_i p_i log(p_i/q_i)   (Kullback-Leibler)
//	alpha = Inf: log max_{i: p_i > 0} p_i/q_i
//
// Zeros follow the definitions: terms with p_i = 0 vanish; for alpha >= 1 a
// p_i > 0 with q_i = 0 gives +Inf; for alpha < 1 such terms vanish, and
// disjoint supports give +Inf. The entries are taken exactly as given (no
// renormalisation); each vector must have non-negative finite entries
// whose float64 sum is within len*2^-52 of 1.
//
// Special cases are:
//
//	Divergence(P, P, alpha) = 0
//	Divergence(P, Q, alpha) = error for empty or mismatched vectors, negative,
//	    NaN or Inf entries, sums away from 1, alpha < 0 or NaN
//
// Slices: p and q are only read (they may be one slice).
func (c Context) Divergence(p, q []float64, alpha float64) (*big.Float, error) {
	const fn = "Divergence"
	if len(p) == 0 || len(p) != len(q) {
		return nil, &InputError{Pkg: pkgName, Func: fn, Arg: "p, q", Value: math.NaN(),
			Msg: fmt.Sprintf("probability vectors must be non-empty and of equal length (have %d and %d)", len(p), len(q))}
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"p", p}, {"q", q}} {
		sum := 0.0
		for i, x := range v.x {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return nil, inputErr(fn, fmt.Sprintf("%s[%d]", v.name, i), x, "probabilities must be finite and >= 0")
			}
			sum += x
		}
		if math.Abs(sum-1) > float64(len(v.x))*0x1p-52 {
			return nil, inputErr(fn, "sum("+v.name+")", sum, "probabilities must sum to 1")
		}
	}
	if err := checkOrder(fn, alpha, 0, false); err != nil {
		return nil, err
	}
	P, Q := make([]*big.Float, len(p)), make([]*big.Float, len(q))
	for i := range p {
		P[i], Q[i] = fl(p[i], 64), fl(q[i], 64)
	}
	return c.divergenceBig(fn, P, Q, alpha)
}

// divergenceBig computes D_alpha(P||Q) for exact big.Float entries.
func (c Context) divergenceBig(fn string, P, Q []*big.Float, alpha float64) (*big.Float, error) {
	prec := c.prec()
	inf := func() (*big.Float, error) { return newF(prec).SetInf(false), nil }
	zero := func() (*big.Float, error) { return newF(prec), nil }
	// Support checks decide infinities exactly.
	overlap, pOutsideQ := false, false
	same := true
	for i := range P {
		if P[i].Sign() > 0 && Q[i].Sign() > 0 {
			overlap = true
		}
		if P[i].Sign() > 0 && Q[i].Sign() == 0 {
			pOutsideQ = true
		}
		if P[i].Cmp(Q[i]) != 0 {
			same = false
		}
	}
	switch {
	case same:
		return zero()
	case !overlap: // Q(supp P) = 0: every order gives +Inf
		return inf()
	case pOutsideQ && alpha >= 1:
		return inf()
	}
	// Exact zeros (possible because entries are taken as given, so their
	// sums may differ from 1 in the last bits) are decided exactly here; the
	// Ziv loop never accepts a computed 0.
	switch {
	case alpha == 0:
		s := newF(64)
		for i := range P {
			if P[i].Sign() > 0 {
				s = exactSum(s, Q[i])
			}
		}
		if s.Cmp(intF(1, 64)) == 0 {
			return zero()
		}
	case math.IsInf(alpha, 1):
		k := argmaxRatio(P, Q)
		if P[k].Cmp(Q[k]) == 0 {
			return zero()
		}
		return ziv(prec, func(wp uint) (*big.Float, error) {
			return logF(newF(wp).Quo(P[k], Q[k]), wp), nil
		})
	}
	return ziv(prec, func(wp uint) (*big.Float, error) {
		wp += tinyOrderBits(alpha)
		switch {
		case alpha == 0:
			s := newF(wp)
			for i := range P {
				if P[i].Sign() > 0 {
					s.Add(s, Q[i])
				}
			}
			l := logF(s, wp)
			return l.Neg(l), nil
		case alpha == 1:
			s := newF(wp)
			for i := range P {
				if P[i].Sign() > 0 {
					t := newF(wp).Sub(logF(P[i], wp), logF(Q[i], wp))
					s.Add(s, t.Mul(t, P[i]))
				}
			}
			return s, nil
		}
		// With d_i = log(p_i/q_i) and x_i = log p_i + (alpha-1) d_i (the
		// log of p_i^alpha q_i^(1-alpha)), for any k
		//   D = d_k + (log p_k + log sum_i e^(x_i - x_k)) / (alpha-1).
		// Taking k with the largest x_i keeps every exponential <= 1 and
		// never forms alpha d_i itself, which for alpha = 1e300 is far
		// outside big.Float's exponent range (every term used to underflow).
		am1 := newF(wp).Sub(fl(alpha, wp), intF(1, wp))
		var lp, d, x []*big.Float
		for i := range P {
			if P[i].Sign() == 0 || Q[i].Sign() == 0 {
				continue // vanishes (alpha < 1), or excluded above (alpha > 1)
			}
			l := logF(P[i], wp)
			di := newF(wp).Sub(l, logF(Q[i], wp))
			lp, d = append(lp, l), append(d, di)
			x = append(x, newF(wp).Add(l, newF(wp).Mul(am1, di)))
		}
		k := 0
		for j := range x {
			if x[j].Cmp(x[k]) > 0 {
				k = j
			}
		}
		s := newF(wp)
		// s >= 1 (term k); terms below 2^-(wp+8)/n together move it by
		// less than 2^-8 of an ulp at wp bits, a truncation tied to wp as
		// ziv asks. Adding them costs big.Float a shift by their exponent
		// difference: 2 s and 125 MB for one term of 2^-1e9 (alpha = 1e6).
		negligible := -float64(wp+8+uint(bits.Len(uint(len(x))))) * math.Ln2
		for j := range x {
			if j == k {
				s.Add(s, intF(1, wp))
				continue
			}
			e := newF(wp).Sub(d[j], d[k]) // x_j - x_k, formed from differences
			e.Mul(e, am1)
			e.Add(e, newF(wp).Sub(lp[j], lp[k]))
			if ef, _ := e.Float64(); ef < negligible {
				continue
			}
			s.Add(s, expF(e, wp))
		}
		r := logF(s, wp)
		r.Add(r, lp[k])
		r.Quo(r, am1)
		return r.Add(r, d[k]), nil
	})
}

// argmaxRatio returns the index of the largest p_i/q_i over p_i > 0 (all
// such q_i > 0), comparing p_i q_j with p_j q_i exactly.
func argmaxRatio(P, Q []*big.Float) int {
	k := -1
	for i := range P {
		if P[i].Sign() == 0 {
			continue
		}
		if k < 0 {
			k = i
			continue
		}
		a := newF(P[i].MinPrec()+Q[k].MinPrec()+1).Mul(P[i], Q[k])
		b := newF(P[k].MinPrec()+Q[i].MinPrec()+1).Mul(P[k], Q[i])
		if a.Cmp(b) > 0 {
			k = i
		}
	}
	return k
}

// Divergence is Context{}.Divergence at DefaultPrec.
//
// Slices: p and q are only read (they may be one slice).
func Divergence(p, q []float64, alpha float64) (*big.Float, error) {
	return Context{}.Divergence(p, q, alpha)
}
