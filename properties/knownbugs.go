package properties

// Bugs the laws and the fuzzers found in fast and reference, all fixed.
// Each keeps its reproduction (knownBugs in repro.go: the inputs that
// found it, checked against the reference at 128 bits or a closed form),
// which TestFixedBugsStayFixed requires to pass, so that none comes back.
// A new bug gets a constant here and a reproduction there, which fails
// until it is fixed (see the package doc for an open one).
//
// Relative errors below are against the reference; "below" means below
// the exact value, which fast promises never to be.
const (
	// fast.Divergence at alpha = 1 (KL) leaves out the Q-mass where P is 0:
	// KL([0 0.125 0.875] || [0.125 0.125 0.75]) = 0.13488184484885102,
	// fast gives 0.009881844848851159 (below).
	BugFastKLZeros = "fast-kl-drops-q-mass-where-p-is-0"
	// fast.Divergence for alpha in (0, 1) exceeds its bound ("about 1e-13")
	// and falls below the exact value: the beta form (1+u)
	// expm1((alpha-1) log1p(u)) - (alpha-1) u cancels. Over random 20-bit
	// dyadic P, Q: 3% of draws with alpha in (0.01, 1), worst -2.7e-12
	// (P [9.5367431640625e-07 0.5179376602172852 0.48206138610839844],
	// Q [0.9046564102172852 0.004558563232421875 0.09078502655029297],
	// alpha 0.09645037160767224); 79% with alpha in (1e-8, 0.01), worst
	// 1.6e-7; D_(2^-20)([0.125 0.875] || [0 1]) = 1.2734545955620353e-07,
	// exact 1.2734545957996804e-07.
	BugFastAlphaBelowOne = "fast-divergence-inaccurate-below-order-1"
	// fast.Divergence overflows to +Inf where the divergence is finite,
	// whenever sum p^alpha q^(1-alpha) exceeds MaxFloat64 (it is not summed
	// in log space): D_14([0.8160602794142788 0.18393972058572117] ||
	// [1 7.61985302416047e-24]) = +Inf, exact 51.40789587914023; 10% of
	// random dyadic draws with alpha in (3, 103).
	BugFastOverflow = "fast-divergence-overflows-to-inf"
	// fast.Divergence at alpha = +Inf takes the log of the rounded ratio
	// max p/q, losing u/D_inf relative when the ratio is near 1:
	// D_inf([0 1] || [6.103515625e-05 0.99993896484375]) =
	// 6.103701897093008e-05, exact 6.103701897094392e-05 (below);
	// D_inf([0 1] || [0.015625 0.984375]) = 0.015748356968139123, exact
	// 0.01574835696813916861 (below).
	BugFastDInfNearOne = "fast-divergence-d-inf-log-of-rounded-ratio"
	// fast.RandomizedResponse maps p < 1/2 to 1-p, which is not exact
	// when p's last bit is below 1-p's ulp (also in [1/4, 1/2), against its
	// comment): RR(0.49990116404408597, 1.0000067190726365) relative
	// -1.1e-12; RR(1e-10, 3) -3.6e-9; RR(5.551115123125783e-17, 1) = +Inf,
	// exact 37.43.
	BugFastRRRoundedOneMinusP = "fast-rr-uses-rounded-1-p"
	// fast.GaussianDivergence with unequal variances exceeds its bound
	// ("relative error below 1e-14") and falls below the exact value:
	// GaussianDivergence(2.7257564577450903, 0.10060039917227871,
	// 2.7257564577450903, 9.753486982963615, 92.82587051069387) relative
	// -1e-13; up to 8e-11 for alpha < 1 (GaussianDivergence(
	// -1.3895399975049045, 8.122347650063247, -8.053297343145012,
	// 0.10453920029128787, 0.0020759604040094916) relative -8.0e-11) and
	// 1e-12 at alpha = +Inf; 5-10% of random draws with s1 != s2; at tiny
	// orders everything is lost: GaussianDivergence(1, 2.718281828459045,
	// 1.03125, 0.10000000000000002, 2.61012178719941e-54) =
	// 1.7248123601205492e-58, exact 7.3170271007968175e-54.
	BugFastGaussianVariances = "fast-gaussian-divergence-unequal-variances-inaccurate"
	// fast.Epsilon's improved conversion forms log1p(-1/alpha) from the
	// rounded 1/alpha, losing u/(alpha-1) absolute near alpha = 1; with
	// delta near 1 that exceeds its 8u rounding margin and eps falls below
	// the exact conversion: Epsilon([1.0004884004786945],
	// [20.08553692318766], 0.999999999, improved) = 11.46091997459409,
	// exact 11.460919974594137.
	BugFastImprovedNearOne = "fast-improved-conversion-log1p-of-rounded-inverse"
	// fast.GaussianDivergence forms alpha (m1-m2)^2 before dividing by
	// 2 sa^2: when that product (or (m1-m2)^2) is subnormal it loses
	// digits and the result falls below the exact value:
	// GaussianDivergence(2.407412430484045e-35, 0.05, 4.591774807899561e-41,
	// 0.05, 7.615647883063751e-242) = 8.82746881619761e-309, exact
	// 8.8274688161980336e-309 (86 subnormal ulps below);
	// GaussianDivergence(3.7291703656001034e-155, 0.05,
	// 1.8645854050759266e-155, 0.05, 0.5) = 3.476677075012921e-308, exact
	// 3.4766770750129453e-308.
	BugFastGaussianUnderflow = "fast-gaussian-divergence-subnormal-intermediate"
	// fast's PureDPCurve(eps = 0) and ComposeZCDP(rho = 0) give NaN at the
	// order +Inf (0 * Inf), and an Accountant with +Inf among its orders
	// then holds NaN: PureDPCurve(0, [2 +Inf]) = [0 NaN].
	BugFastZeroAtInf = "fast-zero-eps-or-rho-gives-nan-at-order-inf"
	// fast.SGM at fractional orders with a tiny sampling rate is wrong in a
	// band of orders just below alpha* = 1 + 2 sigma^2 log(1/q), where the
	// tail term q^alpha e^(alpha(alpha-1)/(2 sigma^2)) crosses 1: inside the
	// promised region (q >= 1e-12, sigma in [0.1, 1000], fractional
	// alpha <= 256) the relative error reaches 1.5e-5 and values fall
	// below the exact ones: SGM(1e-9, 1, 40.59375) = 3.6052371871114e-17,
	// exact 3.6051830118595045e-17 (+1.5e-5); SGM(1e-9, 1, 39.84375) =
	// 3.4231399992767444e-17, exact 3.4231400081161770e-17 (-2.6e-9);
	// SGM(7.582560427911933e-10, 1, 39.99999999999999) relative -1.15e-12
	// (found by the agreement law); SGM(1.1756597373746562e-12,
	// 0.6318041516766033, 21.187679586258803) -1.3e-9. Seen for q <= 1e-7
	// and alpha in [alpha*-3.2, alpha*+0.5] when alpha* > 20.
	BugFastSGMTransition = "fast-sgm-fractional-order-tiny-q-transition-band"
	// fast.SGM with a subnormal sampling rate is below the exact value:
	// SGM(1e-310, 0.3333333333333333, 161) = 0 at a22868f, -Inf (negative)
	// in a later working tree and 2e-323 at 4c873a3, exact
	// 6.2373625541699518 (reference); found by FuzzSGM. Fixed after
	// 4c873a3 (log q of a subnormal q; see fast's TestSGMSubnormalQ).
	BugFastSGMSubnormalQ = "fast-sgm-subnormal-q"
	// fast.SGM (and SGMCurve) return NaN for extreme sigma (seen for sigma
	// up to 3.2e-150 and from 7.1e153), against "the result is never
	// negative or NaN": SGM(0.3, 1e-300, 2) = NaN, SGM(0.5, 1e300, 1.5) =
	// NaN, SGM(0.3960075827205882, 8.950283081143601e-154, 59) = NaN (found
	// by FuzzAccountant).
	BugFastSGMExtremeSigma = "fast-sgm-nan-for-extreme-sigma"
	// fast.Gaussian(sigma, +Inf) is NaN once 2 sigma^2 overflows (sigma
	// >= 9.5e153: Inf/Inf), against its special case "Gaussian(sigma,
	// alpha=+Inf) = +Inf"; an Accountant with the order +Inf then holds
	// NaN. Found by FuzzAccountant: ComposeGaussian(1.422450685039393e+160)
	// on hardOrders.
	BugFastGaussianHugeSigma = "fast-gaussian-nan-at-order-inf-for-huge-sigma"
	// The reference at 128 bits returns a wrong GaussianDivergence for
	// unequal variances at a tiny order: the alpha terms of sa^2 = alpha
	// s2^2 + (1-alpha) s1^2 vanish at both Ziv precisions, the two logs
	// cancel exactly and both evaluations agree on what is left:
	// Context{Prec: 128}.GaussianDivergence(1, 2.718281828459045, 1.03125,
	// 0.10000000000000002, 2.61012178719941e-54) = 1.7248123601205365e-58,
	// exact 7.3170271007968175e-54 (the closed form at 3000 bits; 64, 256
	// and 512 bits are right). fast gives 1.7248123601205492e-58 there too
	// (BugFastGaussianVariances). Found by the agreement law.
	BugRefGaussianTinyAlpha = "reference-gaussian-divergence-tiny-order-unequal-variances"
)
