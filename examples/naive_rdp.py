"""A deliberately plain float64 RDP accountant, to show run_vectors.py at work.

It computes what textbooks write, the way most accountants did before 2021:
the sampled Gaussian's moment for integer orders as a log-sum-exp of binomial
terms (no log1p: tiny sampling rates lose their digits), no fractional orders
(it raises, so those tests count as rejected), and the conversions and closed
forms by their formulas. The scorer shows where this is not good enough:

    python3 examples/run_vectors.py vectors/sgm_rdp.json examples/naive_rdp.py -o naive.jsonl
    go run ./cmd/rdpcheck score -vectors sgm_rdp.json naive.jsonl

Standard library only. Not for real accounting.
"""

import math


def _check_sgm(q, sigma, alpha):
    if not (0 <= q <= 1) or not (sigma >= 0) or math.isinf(sigma) or not (alpha > 1):
        raise ValueError("need q in [0, 1], sigma >= 0 finite, alpha > 1")


def _logsumexp(xs):
    m = max(xs)
    if math.isinf(m):
        return m
    return m + math.log(sum(math.exp(x - m) for x in xs))


def SGM(q, sigma, alpha):
    _check_sgm(q, sigma, alpha)
    if q == 0:
        return 0.0
    if math.isinf(alpha) or sigma == 0:
        return math.inf
    if q == 1:
        return alpha / (2 * sigma ** 2)
    if alpha != int(alpha):
        raise NotImplementedError("fractional orders")
    a = int(alpha)
    terms = []
    for k in range(a + 1):
        log_binom = math.lgamma(a + 1) - math.lgamma(k + 1) - math.lgamma(a - k + 1)
        terms.append(log_binom + k * math.log(q) + (a - k) * math.log(1 - q) + (k * k - k) / (2 * sigma ** 2))
    return _logsumexp(terms) / (a - 1)


def SGMCurve(q, sigma, steps, alpha):
    if steps <= 0:
        raise ValueError("steps must be positive")
    return steps * SGM(q, sigma, alpha)


def Gaussian(sigma, alpha):
    if not (sigma >= 0) or math.isinf(sigma) or not (alpha >= 0):
        raise ValueError("need sigma >= 0 finite, alpha >= 0")
    if alpha == 0:
        return 0.0
    if sigma == 0 or math.isinf(alpha):
        return math.inf
    return alpha / (2 * sigma ** 2)


def Laplace(b, alpha):
    if not (b > 0) or math.isinf(b) or not (alpha >= 1):
        raise ValueError("need b > 0 finite, alpha >= 1")
    if math.isinf(alpha):
        return 1 / b
    if alpha == 1:
        return 1 / b + math.exp(-1 / b) - 1
    return math.log(alpha / (2 * alpha - 1) * math.exp((alpha - 1) / b)
                    + (alpha - 1) / (2 * alpha - 1) * math.exp(-alpha / b)) / (alpha - 1)


def _eps(conversion, alpha, rdp, delta):
    if math.isinf(alpha):
        return rdp
    if conversion == "classic":
        return rdp + math.log(1 / delta) / (alpha - 1)
    return rdp + math.log1p(-1 / alpha) - (math.log(delta) + math.log(alpha)) / (alpha - 1)


def Epsilon(orders, rdp, delta, conversion):
    if not orders or len(orders) != len(rdp) or not (0 < delta < 1):
        raise ValueError("bad curve or delta")
    if any(not (a > 1) for a in orders) or any(not (r >= 0) for r in rdp):
        raise ValueError("orders must be > 1 and rdp >= 0")
    best = min(zip((_eps(conversion, a, r, delta) for a, r in zip(orders, rdp)), orders))
    eps = max(best[0], 0.0) if conversion == "improved" else best[0]
    return eps, best[1]


def DPSGDEpsilon(q, sigma, steps, delta, orders, conversion):
    if steps <= 0:
        raise ValueError("steps must be positive")
    return Epsilon(orders, [steps * SGM(q, sigma, a) if a == int(a) else math.inf for a in orders], delta, conversion)
