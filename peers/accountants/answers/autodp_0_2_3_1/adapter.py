"""rdpcheck's adapter for autodp 0.2.3.1 (autodp/ of yuxiangw/autodp at
06489ea), for examples/run_vectors.py.

Loaded from $PEER_SRC/autodp with Debian's numpy and scipy; the modules used
import without a shim. Every RDP value is Mechanism.get_RDP(alpha) of an
autodp mechanism object, the library's public interface:

  SGM, SGMCurve     SubsampleGaussianMechanism({'prob': q, 'sigma': sigma,
                    'coeff': steps}), autodp's DP-SGD mechanism (Poisson
                    sampling, add/remove, composed steps times by autodp)
  Gaussian, Laplace, RandomizedResponse, PureDP, ZCDP
                    GaussianMechanism, LaplaceMechanism, RandresponseMechanism
                    (p: the probability of the truth, as in the vectors),
                    PureDP_Mechanism, zCDP_Mechanism
  DiscreteGaussian  DiscreteGaussianMechanism(sigma / sensitivity): autodp has
                    no sensitivity argument, its sigma is relative to a
                    sensitivity of 1 (as GaussianMechanism's docstring says),
                    so only a positive integer sensitivity is expressed
  KaryRandomizedResponse
                    RandresponseMechanism(p = 1 - noise/2): two buckets,
                    replace-one only, where 1 - noise/2 is exact in float64
  WORGaussian       a GaussianMechanism whose neighboring attribute is set to
                    'replace_one' (autodp's way of stating the relation), then
                    AmplificationBySampling(PoissonSampling=False).amplify(...,
                    q, improved_bound_flag=True): Theorem 27 of Wang, Balle and
                    Kasiviswanathan 2019, which the Gaussian satisfies
  SampledLaplace    AmplificationBySampling(PoissonSampling=True).amplify(
                    LaplaceMechanism(b), q, improved_bound_flag=True): Zhu and
                    Wang 2019's tight bound, whose condition the Laplace
                    mechanism meets
  ProfileEpsilon, ProfileDelta
                    the phases' SubsampleGaussianMechanisms composed with
                    Composition(), then get_approxDP(delta) /
                    get_approx_delta(eps): autodp converts over its own
                    continuous range of orders

Not expressible (NotImplementedError, graded "unsupported"): conversions of a
given curve at given orders (Epsilon, Delta, DPSGDEpsilon: autodp chooses its
orders itself), ExponentialMechanism (autodp's class is another bound,
eps^2/8-zCDP with eps-DP, not the vectors' bounded-range bound), PoissonBound
and WORBound (autodp's general bounds take an RDP function of every order, not
a list at 2, 3, ...), and every function autodp lacks.
"""

import math
import os
import sys
import warnings
from fractions import Fraction

# autodp's modules print SyntaxWarnings on import and numpy warns on
# overflow; the values are graded as returned.
warnings.filterwarnings("ignore")

sys.path.insert(0, os.environ["PEER_SRC"])

from autodp import mechanism_zoo as mechanisms  # noqa: E402
from autodp import transformer_zoo as transformers  # noqa: E402


def _unsupported(reason):
    raise NotImplementedError("autodp 0.2.3.1: " + reason)


def _sgm(q, sigma, steps):
    return mechanisms.SubsampleGaussianMechanism({"prob": q, "sigma": sigma, "coeff": steps})


# sgm_rdp.json, tfprivacy/, invalid_inputs.json

def SGM(q, sigma, alpha):
    return float(_sgm(q, sigma, 1).get_RDP(alpha))


def SGMCurve(q, sigma, steps, alpha):
    return float(_sgm(q, sigma, steps).get_RDP(alpha))


def DPSGDEpsilon(q, sigma, steps, delta, orders, conversion):
    _unsupported("no conversion at given orders (get_approxDP chooses its own)")


# closed_forms.json

def Gaussian(sigma, alpha):
    return float(mechanisms.GaussianMechanism(sigma).get_RDP(alpha))


def Laplace(b, alpha):
    return float(mechanisms.LaplaceMechanism(b=b).get_RDP(alpha))


def RandomizedResponse(p, alpha):
    return float(mechanisms.RandresponseMechanism(p=p).get_RDP(alpha))


def GaussianDivergence(mean1, sd1, mean2, sd2, alpha):
    _unsupported("no Renyi divergence of two normals")


# conversions

def Epsilon(orders, rdp, delta, conversion):
    _unsupported("no conversion of a curve given at given orders")


def Delta(orders, rdp, eps, conversion):
    _unsupported("no conversion of a curve given at given orders")


# divergence.json, sampled.json, zcdp_tight.json

def Divergence(distP, distQ, alpha):
    _unsupported("no Renyi divergence of discrete distributions")


def SampledLaplace(q, b, alpha):
    m = transformers.AmplificationBySampling(PoissonSampling=True).amplify(
        mechanisms.LaplaceMechanism(b=b), q, improved_bound_flag=True)
    return float(m.get_RDP(alpha))


def SampledDivergence(q, distP, distQ, alpha):
    _unsupported("no mechanism given by discrete distributions")


def PoissonBound(q, base, alpha):
    _unsupported("the general bound takes an RDP function of every order, not a list")


def LaplaceZCDP(eps):
    _unsupported("no tight zCDP parameters")


def KaryRRZCDP(eps, buckets):
    _unsupported("no tight zCDP parameters")


def RAPPORZCDP(eps):
    _unsupported("no tight zCDP parameters")


def BoundedRangeZCDP(eps):
    _unsupported("no tight zCDP parameters")


# events.json

def KaryRandomizedResponse(noise, buckets, relation, alpha):
    if buckets != 2 or relation != "replace-one":
        _unsupported("binary randomized response under replace-one only")
    # Two buckets keep the truth with probability 1 - noise + noise/2.
    p = 1 - noise / 2
    if not math.isfinite(noise) or Fraction(p) != 1 - Fraction(noise) / 2:
        _unsupported("1 - noise/2 is not a float64 for noise %r" % noise)
    return float(mechanisms.RandresponseMechanism(p=p).get_RDP(alpha))


def PureDP(eps, alpha):
    return float(mechanisms.PureDP_Mechanism(eps).get_RDP(alpha))


def ZCDP(rho, xi, alpha):
    return float(mechanisms.zCDP_Mechanism(rho, xi).get_RDP(alpha))


def ExponentialMechanism(eps, alpha):
    _unsupported("its ExponentialMechanism is eps^2/8-zCDP with eps-DP, not the bounded-range bound")


def GroupPrivacy(orders, rdp, c, alpha):
    _unsupported("no group privacy transformer")


# dgauss_tree_repeat.json

def DiscreteGaussian(sigma, sensitivity, alpha):
    if not (sensitivity >= 1 and sensitivity == math.floor(sensitivity) and math.isfinite(sensitivity)):
        _unsupported("sensitivity %r: no sensitivity argument, sigma is relative to 1" % sensitivity)
    return float(mechanisms.DiscreteGaussianMechanism(sigma / sensitivity).get_RDP(alpha))


def TreeAggregation(sigma, trees, restarts, alpha):
    _unsupported("no tree aggregation")


def TreeMultiParticipation(sigma, steps, maxParticipation, minSeparation, alpha):
    _unsupported("no tree aggregation")


def RepeatAndSelect(orders, rdp, mean, shape, alpha):
    _unsupported("no repeat-and-select")


# wor.json

def WORGaussian(q, sigma, alpha):
    g = mechanisms.GaussianMechanism(sigma)
    g.neighboring = "replace_one"
    m = transformers.AmplificationBySampling(PoissonSampling=False).amplify(g, q, improved_bound_flag=True)
    return float(m.get_RDP(alpha))


def WORBound(q, base, baseInf, alpha):
    _unsupported("the general bound takes an RDP function of every order, not a list")


# profile.json

def _run(phases):
    mechs = [_sgm(p["q"], p["sigma"], p["steps"]) for p in phases]
    if len(mechs) == 1:
        return mechs[0]
    return transformers.Composition()(mechs, [1] * len(mechs))


def ProfileEpsilon(phases, delta):
    return float(_run(phases).get_approxDP(delta))


def ProfileDelta(phases, eps):
    return float(_run(phases).get_approx_delta(eps))
