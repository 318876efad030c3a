"""The significance tests the playtest report draws its conclusions with, in pure Python.

scipy is not a dependency of pnp (nor of its ``report`` extra), so the two tests needed here
are written out: an exact two-sided binomial test (a seat's wins against its fair share) and
the Holm-Bonferroni step-down correction (many p-values in one report, one family-wise error
rate). Both follow scipy's definitions (``scipy.stats.binomtest``, ``statsmodels``'s
``multipletests(method="holm")``) so the figures can be checked against them.
"""
from __future__ import annotations

import math

ALPHA = 0.05
# two outcomes whose probabilities differ by less than this ratio count as equally likely
# (scipy's tolerance: floating-point noise must not decide whether a tail term is included)
_SAME_LIKELIHOOD = 1 + 1e-7


def binomial_pmf(k: int, n: int, p: float) -> float:
    """P(X = k) for X ~ Binomial(n, p), through log-gamma so large n does not overflow."""
    if p <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p >= 1.0:
        return 1.0 if k == n else 0.0
    log = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
           + k * math.log(p) + (n - k) * math.log1p(-p))
    return math.exp(log)


def binomial_test(k: int, n: int, p: float) -> float:
    """Exact two-sided p-value of ``k`` successes in ``n`` trials against probability ``p``:
    the total probability of every outcome no more likely than the one observed."""
    if n == 0:
        return 1.0
    observed = binomial_pmf(k, n, p) * _SAME_LIKELIHOOD
    total = sum(q for q in (binomial_pmf(i, n, p) for i in range(n + 1)) if q <= observed)
    return min(1.0, total)


def holm(pvalues: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: the i-th smallest p is multiplied
    by (m - i), and each adjusted value is at least the one before it (step-down), capped at 1.
    A test is significant at family-wise level alpha when its adjusted p is below alpha."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
