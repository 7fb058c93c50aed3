// Package rdpcheck, the module's root, holds the vocabulary its packages
// share; the computations live in the packages it names. For RDP
// accounting: package fast (float64, rounded up) and package reference
// (arbitrary precision); for the certified optimal (eps, delta) of a run:
// package pld; for dp_accounting's event files: package dpevent; for
// grading an accountant with the test vectors: package vectors/vectorstest
// and the rdpcheck command.
//
// It is the vocabulary that rdpcheck's two implementations of
// Rényi differential privacy (RDP) accounting share: package reference
// (math/big, every digit checked) and package fast (float64, rounded up by a
// proven bound). It holds the conversion names (Conversion), the error type
// and error kinds (InputError, ErrInput, ErrTooLarge, ErrPrecision,
// ErrNotConverged), the order limits (MaxIntegerOrder, MaxFractionalOrder),
// the default order list (DefaultOrders), and the argument checks both
// packages make alike (check.go: CheckTree, CheckCurve), beside the domain
// table below. It holds no numerics: each implementation computes on its
// own, so that testing one against the other means something (where a
// check could hand back a computed value, the reference keeps its own
// copy: see check.go).
//
// fast and reference re-export these names as aliases (fast.Conversion is
// rdpcheck.Conversion, reference.ErrTooLarge is rdpcheck.ErrTooLarge, ...), so a
// value of one package is a value of the other, and errors.Is(err, X) gives
// the same answer whichever package's X is named and whichever package
// returned err. Package oracles returns rdpcheck.InputError too.
//
// # Errors
//
// Every function of both packages returns, never panics:
//
//   - an *InputError (errors.Is ErrInput) for an argument outside the
//     domain below; its text names the package, the function, the argument
//     and what it must be, e.g. "fast.SGM: q = NaN: must be in [0, 1]";
//   - an error wrapping ErrTooLarge for a valid input beyond what the
//     implementation supports (the rows marked so below);
//   - reference only: an error wrapping ErrPrecision when its Ziv loop
//     cannot confirm the requested precision;
//   - fast only: an error wrapping ErrNotConverged when a calibration
//     (CalibrateSigma, MaxSteps) cannot meet its target.
//
// # Domains and special cases
//
// One table for both packages. A row that names no package holds for both
// (reference returns a *big.Float, fast a float64 that is never below the
// exact value). Rows that name a package are where the two answer
// differently; each says why. "finite" means a finite value > 0. The rows
// are checked, kind by kind, by TestContract (contract_test.go), which runs
// each through both packages.
//
// SGM(q, sigma, alpha), and SGMCurve(q, sigma, steps, orders) order by
// order (steps > 0, orders non-empty); reference.SGMDirections has SGM's
// cases for both directions:
//
//	SGM(q=0, sigma, alpha) = 0                       (alpha = +Inf included)
//	SGM(q=1, sigma, alpha) = alpha/(2 sigma^2)
//	SGM(q>0, sigma, alpha=+Inf) = +Inf
//	SGM(q, sigma=0, alpha): reference +Inf (0 for q = 0); fast ErrInput   [1]
//	SGM(q, sigma, alpha) = ErrInput for q outside [0, 1], sigma < 0 or
//	    +Inf, alpha <= 1, any NaN
//	SGM(q, sigma, alpha) = ErrTooLarge for alpha > MaxIntegerOrder
//	SGM(q, sigma, alpha) for non-integer alpha in (MaxFractionalOrder,
//	    MaxIntegerOrder]: reference ErrTooLarge; fast an upper bound      [2]
//	SGM(q, sigma > about 2e6, alpha): reference ErrTooLarge; fast a value [3]
//	SGMCurve(...) = ErrInput for steps <= 0, empty orders (fast: also
//	    len(out) != len(orders))
//
// Gaussian(sigma, alpha) = alpha/(2 sigma^2):
//
//	Gaussian(sigma, alpha=0) = 0
//	Gaussian(sigma, alpha=+Inf) = +Inf
//	Gaussian(sigma=0, alpha): reference +Inf; fast ErrInput               [1]
//	Gaussian(sigma, alpha) where alpha/(2 sigma^2) > MaxFloat64:
//	    reference finite; fast +Inf                                       [4]
//	Gaussian(sigma, alpha) = ErrInput for sigma < 0 or +Inf, alpha < 0,
//	    any NaN
//
// Laplace(b, alpha):
//
//	Laplace(b, alpha=1) = 1/b + e^(-1/b) - 1
//	Laplace(b, alpha=+Inf) = 1/b
//	Laplace(b=0, alpha): reference +Inf; fast ErrInput                    [1]
//	Laplace(b, alpha) = ErrInput for b < 0 or +Inf, alpha < 1, any NaN
//
// RandomizedResponse(p, alpha):
//
//	RandomizedResponse(p=1/2, alpha) = 0
//	RandomizedResponse(p=0 or 1, alpha) = +Inf
//	RandomizedResponse(p, alpha=1) = (2p-1) log(p/(1-p))
//	RandomizedResponse(p, alpha=+Inf) = |log(p/(1-p))|
//	RandomizedResponse(p, alpha in [0, 1)): reference its value (0 at
//	    alpha = 0); fast ErrInput                                         [5]
//	RandomizedResponse(p, alpha) = ErrInput for p outside [0, 1],
//	    alpha < 0, any NaN
//
// GaussianDivergence(m1, s1, m2, s2, alpha) = D_alpha(N(m1, s1^2) || N(m2, s2^2)),
// sa^2 = alpha s2^2 + (1-alpha) s1^2:
//
//	GaussianDivergence(m1, s1, m2, s2, alpha=0) = 0
//	GaussianDivergence(m, s, m, s, alpha) = 0
//	GaussianDivergence(m1, s1, m2, s2, alpha=1) = KL, finite
//	GaussianDivergence(m1, s1, m2, s2, alpha>1) = +Inf where sa^2 <= 0
//	GaussianDivergence(m1, s, m2, s, alpha=+Inf) = +Inf for m1 != m2
//	GaussianDivergence(m1, s1, m2, s2, alpha=+Inf) = +Inf for s1 > s2,
//	    log(s2/s1) + (m1-m2)^2/(2(s2^2-s1^2)) for s1 < s2
//	GaussianDivergence(...) = ErrInput for s1 or s2 <= 0 or +Inf, an
//	    infinite mean, alpha < 0, any NaN
//
// Divergence(P, Q, alpha), alpha in [0, +Inf]:
//
//	Divergence(P, P, alpha) = 0
//	Divergence(P, Q, alpha>=1) = +Inf where some p_i > 0 has q_i = 0
//	Divergence(P, Q, alpha<1) = +Inf for disjoint supports (else finite)
//	Divergence(P, Q, alpha=0) = -log sum_{i: p_i > 0} q_i
//	Divergence(P, Q, alpha) = ErrInput for empty or mismatched vectors,
//	    negative, NaN or Inf entries, sums away from 1 by more than
//	    len * 2^-52, alpha < 0 or NaN
//
// SampledLaplace(q, b, alpha) and SampledDivergence(q, P, Q, alpha), the
// exact RDP of Poisson sampling (reference.SampledLaplaceDirections and
// SampledDivergenceDirections give both directions):
//
//	SampledLaplace(q=0, b, alpha) = 0; SampledDivergence(q=0, ...) = 0
//	SampledLaplace(q=1, b, alpha) = Laplace(b, alpha)
//	SampledLaplace(q, b, alpha=+Inf) = max(log(1-q+q e^(1/b)), -log(1-q+q e^(-1/b)))
//	SampledLaplace(q, b, alpha > MaxFractionalOrder, or b < 1e-3, or
//	    0 < q < 1e-100): reference ErrTooLarge; fast an upper bound       [7]
//	SampledDivergence(q=1, P, Q, alpha) = max(Divergence(P, Q), Divergence(Q, P))
//	SampledDivergence(q>0, P, Q, alpha) = +Inf where some p_i > 0 has q_i = 0
//	SampledDivergence(q, P, P, alpha) = 0
//	SampledLaplace = ErrInput for q outside [0, 1], b <= 0 or +Inf, alpha < 1,
//	    any NaN; SampledDivergence as Divergence, and for q outside
//	    [0, 1] and alpha < 1
//
// WORGaussian(q, sigma, alpha), the WBK19 Theorem 27 bound (sampling
// without replacement, replace-one), and WORBound(q, alpha, base), the
// Theorem 9 bound for a BaseCurve:
//
//	WORGaussian(q=0, sigma, alpha) = 0; WORBound(q=0, alpha, base) = 0
//	WORGaussian(q=1, sigma, alpha) = alpha/(2 sigma^2)
//	WORBound(q=1, alpha, base) = base (interpolated as (alpha-1) eps)
//	WORGaussian(q, sigma, alpha=1) = WORGaussian(q, sigma, 2) (likewise WORBound)
//	WORGaussian, WORBound(q>0, alpha=+Inf) = +Inf
//	WORBound(q>0, alpha, base) = +Inf for an infinite entry up to ceil(alpha);
//	    0 for base.Inf = 0
//	WORGaussian, WORBound = ErrTooLarge for alpha > MaxWOROrder
//	WORGaussian(0 < q < 1, sigma, alpha) = ErrTooLarge where
//	    n(n-1)/(2 sigma^2) > MaxWORExponent, n = 2 ceil(alpha/2)
//	WORBound(0 < q < 1, alpha, base) = ErrTooLarge where (j-1) eps(j) >
//	    MaxWORExponent for some j <= ceil(alpha)
//	WORGaussian = ErrInput for q outside [0, 1], sigma <= 0 or +Inf,
//	    alpha < 1, any NaN; WORBound = ErrInput for q outside [0, 1],
//	    alpha < 1, any NaN, a base missing orders 2..ceil(alpha), a
//	    negative or NaN entry, base.Inf NaN or below an entry
//
// Epsilon(orders, rdp, delta, conv) and Delta(orders, rdp, eps, conv)
// (reference takes rdp as []*big.Float, where nil stands for fast's NaN):
//
//	Epsilon(orders, rdp all +Inf, delta, conv) = +Inf
//	Epsilon at alpha = +Inf is rdp(+Inf)
//	Epsilon(..., Improved) = 0 where the minimum is below 0
//	Delta(orders, rdp, eps, conv) = 1 where no order gives less
//	Delta at alpha = +Inf is 0 if rdp(+Inf) <= eps, else 1
//	Delta(...) where the exact delta is below e^-1.48e9: reference
//	    ErrTooLarge; fast 2^-1074                                         [6]
//	Epsilon, Delta = ErrInput for empty or mismatched lists, an order <= 1
//	    or NaN, an rdp < 0 or NaN (nil), an unknown conv; Epsilon for delta
//	    outside (0, 1) or NaN; Delta for eps < 0, NaN or +Inf
//
// The events of dp_accounting's other classes (fast/events.go, reference/events.go), alpha in
// (1, +Inf]:
//
//	KaryRandomizedResponse(noise=1, buckets, relation, alpha) = 0
//	KaryRandomizedResponse(noise=0, buckets, relation, alpha) = +Inf
//	KaryRandomizedResponse(noise, buckets, relation, alpha=+Inf) is finite
//	    for noise in (0, 1)
//	KaryRandomizedResponse(...) = ErrInput for noise outside [0, 1],
//	    buckets < 2, above 2^53 or not an integer, a relation other than
//	    "replace-one" and "replace-special", alpha <= 1, any NaN
//	PureDP(eps=0, alpha) = 0                          (alpha = +Inf included)
//	PureDP(eps, alpha=+Inf) = eps
//	PureDP(eps, alpha) = ErrInput for eps < 0 or +Inf, alpha <= 1, any NaN
//	ZCDP(rho=0, xi, alpha) = xi                       (alpha = +Inf included)
//	ZCDP(rho>0, xi, alpha=+Inf) = +Inf
//	ZCDP(rho, xi, alpha) = ErrInput for rho or xi < 0 or +Inf, alpha <= 1,
//	    any NaN
//	ExponentialMechanism(eps=0, alpha) = 0
//	ExponentialMechanism(eps, alpha=+Inf) = eps
//	ExponentialMechanism(eps, alpha) = ErrInput for eps < 0 or +Inf,
//	    alpha <= 1, any NaN
//	GroupPrivacy(orders, rdp, c, alpha) = +Inf where the chosen rdp is +Inf
//	GroupPrivacy(orders, rdp, c, alpha=+Inf) = 2^c rdp(+Inf)
//	GroupPrivacy(...) = ErrInput for empty or mismatched lists, an order
//	    <= 1 or NaN, an rdp < 0 or NaN (nil), c < 0 or > 30, alpha < 2
//	    (c > 0), alpha <= 1 or NaN, no order >= 2^c alpha
//	KaryRandomizedResponse, PureDP, ZCDP, ExponentialMechanism at alpha >
//	    MaxIntegerOrder: fast ErrTooLarge; reference a value              [8]
//
// Tight zCDP parameters (Harrison and Manurangsi 2025; fast/zcdptight.go,
// reference/zcdptight.go), eps in [0, +Inf):
//
//	LaplaceZCDP(eps=0), KaryRRZCDP(eps=0, k), RAPPORZCDP(eps=0),
//	    BoundedRangeZCDP(eps=0) = 0
//	LaplaceZCDP, RAPPORZCDP, BoundedRangeZCDP(eps) = ErrInput for eps < 0
//	    or +Inf, NaN
//	KaryRRZCDP(eps, buckets) = ErrInput for eps < 0, +Inf or NaN, buckets
//	    not an integer in [2, 6] (k >= 7: the KL value is not a zCDP bound)
//
// The discrete Gaussian, tree aggregation and repeat-and-select
// (fast/dgauss.go, tree.go, repeat.go and reference's), alpha >= 0:
//
//	DiscreteGaussian(sigma, 0, alpha) = 0
//	DiscreteGaussian(sigma, D, alpha) = alpha D^2/(2 sigma^2) where (1-alpha) D
//	    is an integer (alpha = 0 included)
//	DiscreteGaussian(sigma, D != 0, alpha=+Inf) = +Inf
//	DiscreteGaussian(...) = ErrInput for sigma <= 0, +Inf or NaN, a
//	    sensitivity not a finite integer, alpha < 0 or NaN
//	DiscreteGaussian at alpha >= 2^50: fast the zCDP line (a bound),
//	    reference the exact value                                         [9]
//	TreeAggregation(sigma, steps all 0, restarts, alpha) = 0
//	TreeAggregation(sigma, steps, restarts, alpha=+Inf) = +Inf where some steps > 0
//	TreeAggregation(...) = ErrInput for sigma <= 0, +Inf or NaN, an empty
//	    step list, a negative step, an unknown reading, alpha < 0 or NaN
//	TreeMultiParticipation(sigma, 0, m, s, alpha) = 0; (sigma, n, 0, s, alpha) = 0
//	TreeMultiParticipation(sigma, n>0, m>0, s, alpha=+Inf) = +Inf
//	TreeMultiParticipation(...) = ErrInput for sigma <= 0, +Inf or NaN,
//	    n, m or s < 0, alpha < 0 or NaN; ErrTooLarge where the dynamic
//	    programme costs more than 4e8 steps (both packages)
//	RepeatAndSelect(orders, rdp, mean, shape, alpha) = +Inf where every
//	    usable bound is +Inf
//	RepeatAndSelect(...) = ErrInput for empty or mismatched lists, an order
//	    < 0 or NaN, an rdp < 0 or NaN (nil), mean < 1, +Inf or NaN, shape <
//	    0 or NaN, alpha < 0 or NaN, no order > 1 at or above alpha, and
//	    (shape finite) no order >= 1 for the auxiliary order
//
// Why the two differ where they do:
//
//	[1] No noise (sigma = 0, b = 0). The exact divergence is +Inf, which
//	    the reference returns: it answers the mathematical question. fast
//	    is an accountant: a zero noise scale there is almost always a
//	    misconfiguration, and an error naming the argument says so where
//	    +Inf would surface only later as eps = +Inf. Neither gives a
//	    finite guarantee, and the vectors accept both (flag ZeroNoise).
//	[2] Beyond MaxFractionalOrder the reference's series for a
//	    non-integer order grows in cost and precision with the order, and
//	    the reference promises the value itself, not a bound. fast bounds
//	    fractional orders above 1024 by the integer orders around them,
//	    through the chord of (alpha-1) SGM(alpha), which is convex in
//	    alpha: more epsilon, never less, which is the side an accountant
//	    may err on. The vectors hold no such order. (fast bounds so the
//	    orders from 2 on that its quadrature cannot sum, at sigma below
//	    0.005, and refuses those below 2 with ErrTooLarge, where the
//	    bound would be SGM(2); see fast.SGM.)
//	[3] The reference's quadrature strip needs about one piece per unit
//	    of sigma. fast's float64 method has no such cost, and from sigma =
//	    1e100 on it uses the closed form alpha q^2/(2 sigma^2), within
//	    1e-40 of the exact value.
//	[4] float64 overflows where big.Float does not; +Inf is fast's upper
//	    bound for a value above MaxFloat64.
//	[5] An accountant needs orders >= 1 (every conversion to (eps, delta)
//	    uses alpha > 1), and fast's RandomizedResponse, like both
//	    packages' Laplace, takes alpha >= 1. The reference computes
//	    RandomizedResponse as a Divergence, which is defined on alpha >= 0.
//	    The vectors accept both (flags OrderBelowOne, ZeroOrderClosed).
//	[6] big.Float's exponent range ends near e^-1.48e9, so the reference
//	    cannot hold the exact value; float64's smallest positive value is
//	    an upper bound on it, which fast returns.
//	[7] The reference's quadrature needs one piece per unit of 1/b,
//	    nodes growing with the order, and about 2 log2(1/q) extra bits
//	    (its leading 1 is split off exactly); it promises the value. Wherever its
//	    own bound cannot be certified, and for b < 1e-3, fast returns
//	    bounds valid at every order: the smaller of the unsampled Laplace
//	    value (sampling never increases RDP) and the order-infinity
//	    value, or for the backward direction alone its order-infinity
//	    value.
//	[8] fast takes the orders an accountant uses, up to MaxIntegerOrder,
//	    for every curve function (one order check for the Accountant);
//	    the reference evaluates the closed forms at any order.
//	[9] From order 2^50 on, the theta-function ratio of the exact value
//	    is below what float64 can resolve beside the zCDP line; fast
//	    returns the line, the discrete Gaussian's zCDP bound (Canonne,
//	    Kamath, Steinke 2020, Prop 5), within (1/(8 sigma^2) + 1)/(alpha-1)
//	    of the exact value and never below it. Both are finite.
//
// # Where the packages do not mirror each other
//
// Names that exist on one side only, and why:
//
//   - reference only: Context (the working precision), DefaultPrec,
//     MaxWorkingPrec, ErrPrecision, MaxFractionalOrder (see [2]), and
//     SGMDirections (both divergences; the reference checks which one
//     dominates, fast relies on Mironov, Talwar and Zhang 2019, Thm 5).
//   - fast only: Accountant (composition), CalibrateSigma and MaxSteps
//     (searches that evaluate whole RDP curves many times: float64 work),
//     ErrNotConverged, ZCDPEpsilon, ZCDPEpsilonRDP and
//     AdvancedComposition (closed-form bridges between DP notions, which
//     need no reference beyond their formulas), and the curve forms
//     PureDPCurve, KaryRandomizedResponseCurve and
//     ExponentialMechanismCurve (PureDP, KaryRandomizedResponse and
//     ExponentialMechanism order by order, with the same values), and
//     DiscreteGaussianCurve, TreeAggregationCurve and RepeatAndSelectCurve
//     (the order-independent parts formed once; the same values as the
//     functions order by order), and SampledLaplaceCurve (quadrature nodes
//     shared between orders; within 1e-13 relative of SampledLaplace order
//     by order, TestSampledLaplaceCurveMatchesPointwise).
//   - SGMCurve and WORGaussianCurve write into a caller's slice in fast
//     (out, no allocation), as every ...Curve of fast does, and return a
//     new slice in reference: its values are new big.Floats of the
//     precision it chose, which an out slice would not spare.
//   - fast only: BestEpsilon and BestDelta (a search over every order in
//     (1, 4096] and +Inf, many float64 evaluations; every evaluated order
//     gives a valid bound) with Event and Accountant.Compose; the reference
//     evaluates the one order the search returns (dpevent.Plan.ReferenceEpsilon,
//     rdpcheck epsilon -reference).
package rdpcheck
