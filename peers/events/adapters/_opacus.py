"""Opacus 1.5.4 (4d0ebc8) accountants from $OPACUS_SRC (opacus/accountants and opacus/version.py only,
extracted with git archive). Adapted from the colleague's kit adapter (shared peers kit,
profile/adapters/_opacus.py): opacus.optimizers (torch) replaced by a stub with a dummy DPOptimizer, only used
by IAccountant's optimizer hook; no opacus file edited. The run is given as the user gives it: one acc.step()
per DP-SGD step. Events other than DP-SGD: unsupported (_dpsgd.py)."""
import os, sys, types, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, os.environ["OPACUS_SRC"])
_opt = types.ModuleType("opacus.optimizers")


class DPOptimizer:  # stub
    pass


_opt.DPOptimizer = DPOptimizer
sys.modules.setdefault("opacus.optimizers", _opt)
from opacus.accountants import GaussianAccountant, PRVAccountant, RDPAccountant  # noqa
import _dpsgd


def history(acc, event, rel):
    for p in _dpsgd.phases(event, rel):
        for _ in range(p["steps"]):
            acc.step(noise_multiplier=p["sigma"], sample_rate=p["q"])
    return acc
