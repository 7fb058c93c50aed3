"""Opacus RDPAccountant.get_privacy_spent(delta) at its default orders (the eps). No get_delta: EventDelta
unsupported."""
import _opacus


def EventEpsilon(event, neighboringRelation, delta):
    acc = _opacus.history(_opacus.RDPAccountant(), event, neighboringRelation)
    return float(acc.get_privacy_spent(delta=delta)[0])


def EventDelta(event, neighboringRelation, eps):
    raise NotImplementedError("Opacus RDPAccountant has no get_delta")
