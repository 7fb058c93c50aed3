package errfloat

import "math"

const (
	Unit      = 0x1p-53 // unit roundoff of float64
	Ln2       = math.Ln2
	LnSqrt2Pi = 0.91893853320467274178032973640562 // log(sqrt(2 pi))
)

// Double-double helpers (value hi+lo, about 106 bits), used only where a
// float64 sum would cancel: k log q + k(k-1)/(2 s^2) for tiny q.

func TwoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return
}

func FastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return
}

func TwoProd(a, b float64) (p, e float64) {
	p = a * b
	e = math.FMA(a, b, -p)
	return
}

func DDAdd(ah, al, bh, bl float64) (float64, float64) {
	s, e := TwoSum(ah, bh)
	e += al + bl
	return FastTwoSum(s, e)
}

func DDMul(ah, al, bh, bl float64) (float64, float64) {
	p, e := TwoProd(ah, bh)
	e += ah*bl + al*bh
	return FastTwoSum(p, e)
}

func DDDiv(ah, al, bh, bl float64) (float64, float64) {
	q1 := ah / bh
	ph, pl := DDMul(q1, 0, bh, bl)
	rh, rl := DDAdd(ah, al, -ph, -pl)
	q2 := (rh + rl) / bh
	return FastTwoSum(q1, q2)
}

const Ln2Hi, Ln2Lo = 0.6931471805599453, 2.3190468138462996e-17

// LogDD returns log(x) for x > 0 in double-double (error ~1e-31 relative):
// x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh((m-1)/(m+1)).
func LogDD(x float64) (float64, float64) {
	m, e := math.Frexp(x) // m in [1/2, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	// y = (m-1)/(m+1); m-1 is exact (Sterbenz), m+1 as a double-double
	nh := m - 1
	dh, dl := TwoSum(m, 1)
	yh, yl := DDDiv(nh, 0, dh, dl)
	y2h, y2l := DDMul(yh, yl, yh, yl)
	// sum_{j>=0} y^(2j+1)/(2j+1), |y| <= 0.172: 22 terms reach 1e-34
	th, tl := yh, yl
	sh, sl := yh, yl
	for j := 1; j < 24; j++ {
		th, tl = DDMul(th, tl, y2h, y2l)
		ch, cl := DDDiv(th, tl, float64(2*j+1), 0)
		sh, sl = DDAdd(sh, sl, ch, cl)
		if math.Abs(ch) < 1e-34*math.Abs(sh) {
			break
		}
	}
	sh, sl = 2*sh, 2*sl
	fe := float64(e)
	eh, el := DDMul(fe, 0, Ln2Hi, Ln2Lo)
	return DDAdd(eh, el, sh, sl)
}

// TwoSumAcc adds x to the compensated sum (s, c) (Neumaier).
func TwoSumAcc(s, c, x float64) (float64, float64) {
	t := s + x
	if math.Abs(s) >= math.Abs(x) {
		c += (s - t) + x
	} else {
		c += (x - t) + s
	}
	return t, c
}
