# Expected values of reference/repeat_test.go: Papernot and Steinke 2022,
# Theorems 2 and 6, written out in mpmath (run: python3 repeat_mpmath.py).
# Float64 inputs of the Go test are given as mpf(float) where not dyadic.
from mpmath import mp, mpf, log, log1p, exp, expm1, sqrt, findroot, inf
mp.dps = 60
orders = [mpf(x) for x in ['1.5', 2, 3, 5, 8, 16, 32]]
sigma = mpf(4)
rdp = [a/(2*sigma**2) for a in orders]
def delta(eps):
    best = mpf(1)
    for a, r in zip(orders, rdp):
        best = min(best, sqrt(-expm1(-r)))
        best = min(best, exp((a-1)*(r - eps + log1p(-1/a)) - log(a)))
    return best
def poisson(mean, alpha):
    mean = mpf(mean); out = []
    for a, r in zip(orders, rdp):
        if a >= alpha:
            out.append(r + mean*delta(log1p(1/(a-1))) + log(mean)/(a-1))
    return min(out)
def tnb(mean, eta, alpha):
    mean, eta = mpf(mean), mpf(eta)
    if eta == 0: m = lambda u: expm1(u)/u
    else: m = lambda u: eta*expm1(u)/(-expm1(-eta*u))
    u = findroot(lambda u: log(m(u)) - log(mean), log(mean))
    br = min((1-1/a)*r + u/a for a, r in zip(orders, rdp))
    return min(r + (1+eta)*br + log(mean)/(a-1) for a, r in zip(orders, rdp) if a >= alpha)
print("poisson(10, 2)", poisson(10, 2))
print("poisson(10, 4)", poisson(10, 4))
print("poisson(1, 1.5)", poisson(1, mpf('1.5')))
for eta in [0, 1, mpf('0.5'), 3]:
    print("tnb(10, %s, 2)" % eta, tnb(10, eta, 2))
    print("tnb(10, %s, 6)" % eta, tnb(10, eta, 6))
print("poisson(10, 20)", poisson(10, 20))
for eta in [0, mpf('0.5'), 3]:
    print("tnb(10, %s, 20)" % eta, tnb(10, eta, 20))
print("tnb(1.001, 0.5, 2)", tnb(mpf(1.001), mpf('0.5'), 2))
print("tnb(1e6, 0, 20)", tnb(mpf(10)**6, 0, 20))
