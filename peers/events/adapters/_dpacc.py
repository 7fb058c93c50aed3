"""dp_accounting 0.6.0 loader: $DPACC_SRC (the folder python/dp_accounting of google/differential-privacy at
b5b0286) on sys.path. Adapted from the colleague's kit adapter (shared peers kit, profile/adapters/_dpacc.py):
the same loading, plus the event input turned into dp_accounting's objects (run_vectors.to_dp_event) and the
relation into its NeighboringRelation."""
import os, sys, types, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, os.environ["DPACC_SRC"])
if "tree" not in sys.modules:
    try:
        import tree  # noqa: F401
    except ImportError:
        sys.modules["tree"] = types.ModuleType("tree")
from absl import logging
logging.set_verbosity(logging.ERROR)
from dp_accounting import dp_event  # noqa
from dp_accounting import privacy_accountant  # noqa
from dp_accounting.pld import pld_privacy_accountant  # noqa
from dp_accounting.pld import privacy_loss_distribution as pld_mod  # noqa
from dp_accounting.rdp import rdp_privacy_accountant  # noqa
import run_vectors  # noqa: the kit, on sys.path as the runner's own folder

Rel = privacy_accountant.NeighboringRelation


def event_of(event):
    return run_vectors.to_dp_event(event, dp_event)


def relation_of(name):
    return Rel[name]
