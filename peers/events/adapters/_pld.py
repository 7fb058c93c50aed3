"""dp_accounting 0.6.0 PLDAccountant(neighboring_relation, value_discretization_interval=VDI).compose(event),
get_epsilon(delta) / get_delta(eps). Optimistic: PLDAccountant has no optimistic mode; its calls of
privacy_loss_distribution's constructors (identity, from_*) are given pessimistic_estimate=False for the call
(the module attribute replaced while it runs; no file edited). By design an optimistic PLD is a lower estimate:
below the certified lower end is expected of it."""
import contextlib, functools, inspect
from _dpacc import event_of, relation_of, pld_mod, pld_privacy_accountant


@contextlib.contextmanager
def _optimistic():
    saved = {}
    for name in dir(pld_mod):
        f = getattr(pld_mod, name)
        if (name == "identity" or name.startswith("from_")) and callable(f):
            try:
                params = inspect.signature(f).parameters
            except (TypeError, ValueError):
                continue
            if "pessimistic_estimate" in params:
                saved[name] = f
                setattr(pld_mod, name, functools.partial(f, pessimistic_estimate=False))
    try:
        yield
    finally:
        for name, f in saved.items():
            setattr(pld_mod, name, f)


def _acc(event, rel, vdi, optimistic):
    ctx = _optimistic() if optimistic else contextlib.nullcontext()
    with ctx:
        acc = pld_privacy_accountant.PLDAccountant(neighboring_relation=relation_of(rel), value_discretization_interval=vdi)
        acc.compose(event_of(event))
    return acc


def epsilon(event, rel, delta, vdi, optimistic=False):
    return float(_acc(event, rel, vdi, optimistic).get_epsilon(delta))


def delta(event, rel, eps, vdi, optimistic=False):
    return float(_acc(event, rel, vdi, optimistic).get_delta(eps))
