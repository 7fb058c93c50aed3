"""Three cross-checks of dp_accounting 0.6.0's accountants behind peers/events/FINDINGS.md, printed
as they come (run: DPACC_SRC=... /usr/bin/python3 peers/events/xcheck.py > peers/events/xcheck.txt):
1. PoissonSampledDpEvent(0.05, ComposedDpEvent([GaussianDpEvent(s), GaussianDpEvent(s)])) 200 times, delta
   1e-5, with s the int 2 and the float 2.0, beside a single GaussianDpEvent of noise sqrt(2) (what the two
   compose to) and of noise 2;
2. ExponentialMechanismDpEvent(1) composed 1 and 5 times (SelfComposedDpEvent and compose(event, count)),
   delta 1e-5;
3. PLDAccountant, REPLACE_ONE: RandomizedResponseDpEvent(0.5, 2) once and 20 times, delta 1e-5."""
import math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from _dpacc import dp_event, rdp_privacy_accountant  # noqa: E402


def eps(event, count=1):
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(event, count)
    return acc.get_epsilon(1e-5)


G, P, C, S = dp_event.GaussianDpEvent, dp_event.PoissonSampledDpEvent, dp_event.ComposedDpEvent, dp_event.SelfComposedDpEvent
for label, ev in [("Composed(Gaussian(2), Gaussian(2)), ints", C([G(2), G(2)])),
                  ("Composed(Gaussian(2.0), Gaussian(2.0)), floats", C([G(2.0), G(2.0)])),
                  ("Gaussian(sqrt(2))", G(math.sqrt(2))),
                  ("Gaussian(2.0)", G(2.0))]:
    print("RdpAccountant eps(1e-5), PoissonSampledDpEvent(0.05, %s) x 200: %r" % (label, eps(S(P(0.05, ev), 200))))
em = dp_event.ExponentialMechanismDpEvent(1.0)
print("RdpAccountant eps(1e-5), ExponentialMechanismDpEvent(1.0) once: %r" % eps(em))
print("RdpAccountant eps(1e-5), SelfComposedDpEvent(ExponentialMechanismDpEvent(1.0), 5): %r" % eps(S(em, 5)))
print("RdpAccountant eps(1e-5), compose(ExponentialMechanismDpEvent(1.0), 5): %r" % eps(em, 5))
# 3. PLDAccountant (value_discretization_interval 1e-4), REPLACE_ONE: RandomizedResponseDpEvent(0.5, 2) once
#    and 20 times (pld_privacy_accountant.py composes its PLD once, with no self_compose(count)).
from _dpacc import pld_privacy_accountant, Rel  # noqa: E402
rr = dp_event.RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2)
for label, ev, n in [("once", rr, 1), ("SelfComposedDpEvent(..., 20)", S(rr, 20), 1), ("compose(event, 20)", rr, 20)]:
    acc = pld_privacy_accountant.PLDAccountant(neighboring_relation=Rel.REPLACE_ONE)
    acc.compose(ev, n)
    print("PLDAccountant(REPLACE_ONE) eps(1e-5), RandomizedResponseDpEvent(0.5, 2) %s: %r" % (label, acc.get_epsilon(1e-5)))
