"""Opacus GaussianAccountant (GDP, central limit), get_epsilon(delta, poisson=True); it refuses a run whose
(sigma, q) changes (ValueError 'have to stay constant'): passed on as unsupported. No get_delta: EventDelta
unsupported."""
import _opacus


def EventEpsilon(event, neighboringRelation, delta):
    acc = _opacus.GaussianAccountant()
    try:
        _opacus.history(acc, event, neighboringRelation)
    except ValueError as e:
        if "stay constant" in str(e):
            raise NotImplementedError("Opacus GDP: " + str(e))
        raise
    return float(acc.get_epsilon(delta=delta, poisson=True))


def EventDelta(event, neighboringRelation, eps):
    raise NotImplementedError("Opacus GaussianAccountant has no get_delta")
