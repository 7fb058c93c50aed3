"""dp_accounting 0.6.0 RdpAccountant(neighboring_relation=...) at its default orders, compose(event),
get_epsilon(delta) / get_delta(eps)."""
from _dpacc import event_of, relation_of, rdp_privacy_accountant


def _acc(event, rel):
    acc = rdp_privacy_accountant.RdpAccountant(neighboring_relation=relation_of(rel))
    acc.compose(event_of(event))
    return acc


def EventEpsilon(event, neighboringRelation, delta):
    return float(_acc(event, neighboringRelation).get_epsilon(delta))


def EventDelta(event, neighboringRelation, eps):
    return float(_acc(event, neighboringRelation).get_delta(eps))
