package pld

// Method
//
// This is how the package computes its intervals and why they hold. It is
// not part of the package's documentation (go doc shows doc.go's); the
// functions it names are where each step runs: the events' measures
// (event.go, sgm.go, laplace.go, discrete.go, mixture.go, mono.go,
// measure.go), one step on the grid (step.go), the composer (run.go,
// compose.go, fft.go, lattice.go) and the inversion (invert.go).
//
// # What is computed
//
// For the SGM with sampling rate q and noise s (sensitivity 1) the
// dominating pairs are (Zhu, Dong, Wang 2022, Thm. 11): remove,
// P = (1-q) N(0,s^2) + q N(1,s^2) against Q = N(0,s^2); add, the reverse.
// A run of phases composes the pairs of one direction (the same pair of
// datasets throughout), and the profile is the larger of the two
// directions' composed profiles. delta(eps) = E_P[(1 - e^(eps - L))_+]
// with L = log(P/Q) the privacy loss (+Inf where Q = 0); for a product of
// pairs, L is the sum of independent losses.
//
// # Method
//
// 1. The curve lemma. For a measure mu on (-Inf, +Inf] write
// c_mu(t) = E_mu (1 - t e^(-L))_+, t >= 0. If two measures satisfy
// c_A >= c_B on [0, Inf) (so |A| >= |B| at t = 0), then E_A phi >= E_B phi
// for every phi(l) = G(e^-l) with G convex, non-increasing and >= 0
// (G(u) = G(Inf) + int (s-u)_+ dnu(s), each term a multiple of a
// (1 - t e^-l)_+). For independent R, l -> E f_eps(l + R) is such a phi,
// whatever R's law; so replacing each step's loss law by one with a larger
// (smaller) curve, one step at a time, bounds the composed delta(eps) from
// above (below). No validity of the replaced measures (Q-masses) is needed:
// they are only measures on the grid g_k = k h (h a power of two, so g_k
// is exact).
//
// 2. One step on the grid (step.go, buildStep; the cells from measure.go). The loss is monotone in
// the outcome x, so the cell (g_j, g_(j+1)] is an x-interval, and its
// P-mass alpha_j, Q-mass beta_j and surplus A_j = E_P[1_cell (1 - e^(g_j-L))]
// are normal integrals (normal64.go: Mills ratio, and Taylor series free of
// cancellation for narrow cells, each with a relative error bound).
// Upper measure: connect the dots (Doroshenko, Ghazi, Kamath, Kumar,
// Manurangsi 2022), written per cell: A_j/(1-e^-h) at g_(j+1), the rest of
// alpha_j at g_j. This split keeps the cell's P- and Q-mass, so its curve
// is the chord of the cell's convex curve on [e^g_j, e^g_(j+1)] and equal
// to it elsewhere: above. Values are rounded up, a_hi's and alpha's, and
// the left point takes alpha's upper bound less a_hi's (a larger a_hi and
// a total >= alpha only raise the curve; A's error, 1/(1-e^-h) times
// larger in a_hi, then moves mass up by h instead of adding mass); P-mass below the grid is
// put at its lowest point, above it at +Inf (the grid's ends are placed
// where that mass is negligible: far enough out for the tilted mass, or,
// given a budget for the run's +Inf mass, where each step's mass beyond
// is about the budget over the steps: SGMEpsilon's is delta Width 2^-10,
// which keeps the grid to the losses that matter untilted); the mass within the error of
// each computed cell boundary (sliver) is added two points up, and the
// split is of the cell less its slivers (their loss is within h/4 of the
// boundary, so they move A by at most their mass times 1 - e^-h + h/4:
// the split's error stays of the order of the sliver mass, not 1/h times).
// Lower measure: a post-processing of the pair (step.go, garbleLower).
// Merging each cell's outcomes into one (P-mass alpha_j, Q-mass beta_j) is
// a post-processing; so is sending the fraction theta_j of cell j to an
// outcome k = j and the rest to k = j + 1. Outcome k's P - e^(g_k) Q is
// theta_k A_k - (1 - theta_(k-1)) C_(k-1) (C_j = e^(g_(j+1)) beta_j -
// alpha_j); theta makes it 0 where it can (left to right up to the
// heaviest cell, where that chain contracts, right to left beyond it,
// where that one does), and it is checked >= 0 with certified bounds (A
// from below, C from above),
// so outcome k's loss is >= g_k and its P-mass (from below) goes at g_k
// (coupling). An outcome left with a surplus W > 0 (where the chains meet,
// or after a raise) takes the fraction W/(P_(k-1) (e^h - 1)) of outcome
// k-1, which brings its surplus to >= 0 and moves that part up by h. By the data-processing inequality its curve is below the
// truth, in every composition. Its errors are those of merging, of the
// same kind as the split's: where outcomes are exactly on the grid the
// lower and the upper measure both keep P- and Q-mass. Where a check
// fails (a cell with no surplus next to one with a large deficit: an atom,
// mass concentrated within a cell) the lower measure is instead the same
// split as the upper's minus the measure of iota, the
// piecewise-linear function through d_k = max(Dmax_(k-1), Dmax_k) with
// Dmax_j = A_j C_j/(A_j + C_j) >= max (split - true) on cell j
// (C_j = (e^h - 1) e^g_j beta_j - A_j), and left of the first grid point
// the line d_0 t/s_0 through the origin (there the split equals the true
// curve, so iota needs only be >= 0, and iota(0) = 0 keeps the P-mass);
// split - iota <= true everywhere, and
// its masses differ from the split's by second differences of d, so the
// bias is second order in h (not the n h of rounding down). A set R of
// cells is rounded down whole instead (each cell's sliver-free mass at its
// left point, below it by coupling) and iota is built over the other cells
// alone (curves add, so the sum stays below the truth); R holds the last
// cell; d is raised where a mass would go negative; any remainder clamped
// to 0 is charged to the lower bound (compose.go); when that charge is not
// negligible R takes the cells next to the clamped points, up to four
// times, and then every cell.
//
// 3. Composition (run.go composeRun; power.go, compose.go, lattice.go,
// fft.go). Each distinct event of a direction is one step measure
// (termStep); events whose losses lie on a lattice (randomized response,
// discrete Laplace, (eps, delta), the exponential mechanism's bounds) are
// first composed exactly on their own lattice (lattice.go, latticeRun)
// and regridded once (regrid), so their atoms are not smeared n times.
// A discrete event of count 1 with at most 16 atoms beside other events
// is not put on the grid at all: its atoms are mixed into the others'
// composed profile, delta = tau + sum_a p_a delta_R(eps - l_a) (mix.go),
// each read of delta_R rounded outward.
// The measures are tilted, p_k e^(lambda g_k), lambda >= 0 near the
// saddle point of the query (tiltEps, tiltDelta: golden-section search on
// the cumulant K(lambda) - lambda eps), so that the float64 FFT's absolute
// error is small relative to the part of the distribution delta(eps)
// reads. All terms are then composed at once in the frequency domain
// (powerFFT: one transform a step, the transforms raised to their counts
// and multiplied, one transform back), with a componentwise error bound
// (its doc) and a window from Chernoff's bound on the normalised steps
// (windowFor). Where that window does not fit the budget, or the bound
// grows past 1%, each term is composed by repeated squaring (power), a
// convolution's entrywise error bounded from Higham's Thm. 24.2
// (radix-2 Cooley-Tukey, twiddles within 16u), a bound E on the 2-norm of
// the result's error vector, so that its entries' absolute errors sum to
// at most sqrt(len) E. A square a*a whose tilted mass is all but 2^-12 in
// a window H much shorter than a is computed as H*H + R*(a + H), R = a -
// H (compose.go, square). A vector longer than the budget is coarsened
// (coarsen): the upper vector's mass moved up to a grid of twice the
// spacing (above, by the curve lemma), the lower one's by the same
// forward post-processing as garbleLower's. Each vector keeps
// max(computed, 0) (the exact values are >= 0, so clamping moves no entry
// away from them) and a slack: the upper's S with E_U phi <= E_up phi +
// S sup phi(l) e^(-lambda l) for all phi >= 0, propagated as S_ab =
// S_a (T_b + S_b) + S_b T_a + sqrt(len) E (T the vectors' tilted sums);
// the lower's S' bounds the tilted total variation between the lower
// vector and a measure X below the composed lower measure, propagated
// the same way (what is dropped at the ends is dropped from X too, which
// keeps X below).
//
// 4. delta(eps). Upper: the sum over g_k > eps of p_k (1 - e^(eps-g_k)),
// plus S e^(-lambda eps) kappa (kappa = sup_y (1-e^-y) e^(-lambda y)), plus
// the +Inf mass of the composition (at most n m (max(1, mass))^n). Lower:
// the same sum over the lower vector, minus S' e^(-lambda eps) kappa, minus
// the clamped lower mass's share
// (tilted mass times the composition's, times e^(-lambda eps) kappa).
// Sums are of positive terms, widened by 16 (len + 40) u; where
// 0 <= eps <= 600 and every g_k <= 600 the weight 1 - e^(eps-g_k) is
// computed as 1 - e^eps e^(-g_k), within 11u absolute, and 11u times the
// sum of the masses above eps is added (upper) or taken off (lower).
//
// 5. eps(delta) (invert): Hi is an eps at which the certified upper delta
// is <= delta; Lo is 0 or an eps at which the certified lower delta
// exceeds delta; each is checked at the value returned. The profile's
// interval is the larger of the two directions' at each end. Epsilon
// (refineEpsilon) refines h from the first grid (firstH: a quarter of the
// narrowest step's loss spread) until hi/lo - 1 <= Options.Width, to the
// h the h^2 law predicts from the width reached, one to three halvings at
// a time, keeping for each direction the intersection of its certified
// intervals over the grids (each contains the truth), and dropping a
// direction from finer grids once its Hi is at most the other's Lo. Delta
// (dirDelta) refines each direction the same way, the second only until
// its Hi is at most the first's Lo. Refinement stops with ErrPrecision
// when four grids in a row narrow the interval by less than a fifth (the
// width is then held by what the grid does not set) or at the budget.
// A composition with one-sided events (whose upper pair is not their
// lower one) is two compositions, of the upper pairs and of the lower
// ones (plan.sides); each is refined only to an eighth of the gap between
// them (bothSides).
//
// Assumptions, stated and tested: math.Exp, Expm1, Log, Log1p, Erfc and
// Sincos within 2 ulps (normal64_test.go checks the normal integrals
// against big.Float); the closed forms (GaussianDelta, one SGM step) are
// evaluated in big.Float and Ziv-checked.
