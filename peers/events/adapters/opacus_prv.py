"""Opacus PRVAccountant.get_epsilon(delta) (defaults eps_error 0.01, delta_error delta/1000; the PRV upper
bound). No get_delta: EventDelta unsupported."""
import _opacus


def EventEpsilon(event, neighboringRelation, delta):
    return float(_opacus.history(_opacus.PRVAccountant(), event, neighboringRelation).get_epsilon(delta=delta))


def EventDelta(event, neighboringRelation, eps):
    raise NotImplementedError("Opacus PRVAccountant has no get_delta")
