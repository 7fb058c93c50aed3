"""microsoft/prv_accountant 0.2.0 (a844f72) from $PRV_SRC. Adapted from the colleague's kit adapter (shared
peers kit, profile/adapters/_prv.py): PRVAccountant over PoissonSubsampledGaussianMechanism PRVs, one per
phase, max_self_compositions = steps; eps_error 0.01, delta_error delta/1000 (Opacus's defaults) for eps, and
eps_error 0.01, delta_error 1e-12 for delta. Events other than DP-SGD: unsupported (_dpsgd.py)."""
import os, sys, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, os.environ["PRV_SRC"])
from prv_accountant import PRVAccountant, PoissonSubsampledGaussianMechanism  # noqa
import _dpsgd

EPS_ERROR = 0.01


def _acc(phases, delta_error):
    prvs = [PoissonSubsampledGaussianMechanism(sampling_probability=p["q"], noise_multiplier=p["sigma"]) for p in phases]
    steps = [p["steps"] for p in phases]
    return PRVAccountant(prvs=prvs, max_self_compositions=steps, eps_error=EPS_ERROR, delta_error=delta_error), steps


def epsilon(event, rel, delta, which):
    acc, steps = _acc(_dpsgd.phases(event, rel), delta / 1000)
    return float(acc.compute_epsilon(delta=delta, num_self_compositions=steps)[which])


def delta(event, rel, eps, which):
    acc, steps = _acc(_dpsgd.phases(event, rel), 1e-12)
    return float(acc.compute_delta(epsilon=eps, num_self_compositions=steps)[which])
