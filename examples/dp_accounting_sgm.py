# examples/dp_accounting_sgm.py: one sampled-Gaussian step's RDP, read from
# dp_accounting's RDP accountant as its users read it (dp_accounting 0.6.0)
import dp_accounting


def SGM(q, sigma, alpha):
    step = dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))
    accountant = dp_accounting.rdp.RdpAccountant(orders=[alpha])
    return float(accountant.compose(step).rdp[0])
