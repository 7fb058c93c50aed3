# Independent evaluation of Wang, Balle, Kasiviswanathan 2019, Theorem 27
# (Gaussian, sampling without replacement) with mpmath, for reference/wor_test.go.
# Usage: python3 reference/testdata/wor_mpmath.py   (mpmath 1.3.0)
# The alternating sums are taken at 12000 digits, far more than the worst
# cancellation (about 2400 digits at sigma = 100, j = 1024) needs; each value
# is printed to 45 digits. Inputs are the float64 values the test passes
# (mpf(float) is exact).
from mpmath import mp, mpf, binomial, exp, log, sqrt, floor

def wor_gaussian(q, sigma, alpha):
    q, sigma = mpf(q), mpf(sigma)
    c = 1 / (2 * sigma**2)
    def T(i):  # e^((i-1) eps(i)), eps(i) = i c
        return exp(c * i * (i - 1))
    D = {}
    def diff(j):
        if j not in D:
            D[j] = sum(binomial(j, i) * (-1) ** (j - i) * T(i) for i in range(j + 1))
        return D[j]
    def logA(a):
        s = q**2 * binomial(a, 2) * min(4 * (exp(2 * c) - 1), 2 * exp(2 * c))
        for j in range(3, a + 1):
            b = diff(j) if j % 2 == 0 else sqrt(diff(j - 1) * diff(j + 1))
            s += q**j * binomial(a, j) * min(4 * b, 2 * T(j))
        return log(1 + s)
    alpha = mpf(alpha)
    if alpha <= 2:
        return logA(2)
    lo = int(floor(alpha))
    if lo == alpha:
        return logA(lo) / (alpha - 1)
    t = alpha - lo
    return ((1 - t) * logA(lo) + t * logA(lo + 1)) / (alpha - 1)

mp.dps = 12000
for q, sigma, alpha in [(0.01, 1.1, 2), (0.01, 1.1, 3), (0.01, 1.1, 2.5), (0.1, 9.5, 71),
                        (0.01, 1.1, 256), (1e-10, 100, 1024), (0.5, 0.3, 1024), (0.3, 100, 513)]:
    v = wor_gaussian(q, sigma, alpha)
    print(q, sigma, alpha, mp.nstr(v, 45))
