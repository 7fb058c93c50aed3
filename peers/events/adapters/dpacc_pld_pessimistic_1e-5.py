"""dp_accounting 0.6.0 PLDAccountant, pessimistic, value_discretization_interval 1e-5 (see _pld.py)."""
import _pld


def EventEpsilon(event, neighboringRelation, delta):
    return _pld.epsilon(event, neighboringRelation, delta, 1e-5, optimistic=False)


def EventDelta(event, neighboringRelation, eps):
    return _pld.delta(event, neighboringRelation, eps, 1e-5, optimistic=False)
