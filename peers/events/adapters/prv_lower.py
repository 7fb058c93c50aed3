"""prv_accountant PRVAccountant, the lower of its (lower, estimate, upper) triple (see _prv.py)."""
import _prv


def EventEpsilon(event, neighboringRelation, delta):
    return _prv.epsilon(event, neighboringRelation, delta, 0)


def EventDelta(event, neighboringRelation, eps):
    return _prv.delta(event, neighboringRelation, eps, 0)
