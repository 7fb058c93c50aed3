package rdpcheck

// MaxWOROrder is the largest order WORGaussian and WORBound accept, in fast
// and in reference. Theorem 27 of Wang, Balle and Kasiviswanathan (2019)
// needs forward differences up to the order (O(alpha^2) work), and the
// reference's alternating sums need about 7 alpha extra bits at sigma = 100;
// above it both packages return an error wrapping ErrTooLarge.
const MaxWOROrder = 1024

// MaxWORExponent bounds the largest exponent of Theorem 27's moments,
// c n (n-1) with c = 1/(2 sigma^2) and n = 2 ceil(alpha/2), computed in
// float64 as float64(n)*float64(n-1)/(2*sigma*sigma): beyond it (sigma
// below about 0.0007 at order 1024) e^(c n(n-1)) leaves big.Float's range and
// both packages return an error wrapping ErrTooLarge, so that they accept
// the same inputs.
const MaxWORExponent = 1e9

// BaseCurve is the RDP curve of a base mechanism at integer orders, the input
// of the general subsampling bounds (WORBound). Eps[k] is the mechanism's
// RDP at order k+2, so Eps must hold orders 2, 3, ..., ceil(alpha) for a
// bound at order alpha. Inf is its RDP at order +Inf: +Inf where unknown
// (the bound then uses the minimum's other branch), else finite and at
// least every entry of Eps (RDP is non-decreasing in the order).
type BaseCurve struct {
	Eps []float64
	Inf float64
}
