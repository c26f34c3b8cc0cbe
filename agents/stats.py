"""Confidence intervals and ratings for tournament results.

Intervals come from independent blocks (a duplicate block is one deal played in every seating):
the block means are independent draws, so their mean has a Student-t interval. Ratings for
multi-player results use openskill's Plackett-Luce model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["Interval", "mean_interval", "rate_games", "t_critical"]


class Interval(NamedTuple):
    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9
    after one Newton step)."""
    a = (
        -3.969683028665376e01,
        2.209460984245205e02,
        -2.759285104469687e02,
        1.383577518672690e02,
        -3.066479806614716e01,
        2.506628277459239e00,
    )
    b = (
        -5.447609879822406e01,
        1.615858368580409e02,
        -1.556989798598866e02,
        6.680131188771972e01,
        -1.328068155288572e01,
    )
    c = (
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e00,
        -2.549732539343734e00,
        4.374664141464968e00,
        2.938163982698783e00,
    )
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    elif p <= 1 - low:
        q = p - 0.5
        r = q * q
        x = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        )
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    error = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    return x - error * math.sqrt(2 * math.pi) * math.exp(x * x / 2)


_T95_SMALL = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}


def t_critical(df: int, confidence: float = 0.95) -> float:
    """Two-sided Student-t critical value: exact table values for the 95% level below 5
    degrees of freedom, else a Cornish-Fisher expansion in 1/df around the normal quantile
    (within 0.1% of exact tables for df >= 5)."""
    if confidence == 0.95 and df in _T95_SMALL:
        return _T95_SMALL[df]
    z = _normal_quantile(0.5 + confidence / 2)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Mean of independent values with its Student-t confidence interval."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Interval(float("nan"), float("nan"), float("nan"), 0)
    mean = float(x.mean())
    if n == 1:
        return Interval(mean, float("-inf"), float("inf"), 1)
    half = t_critical(n - 1, confidence) * float(x.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def rate_games(
    names: Sequence[str], games: Sequence[Sequence[tuple[str, float]]]
) -> dict[str, dict[str, float]]:
    """openskill Plackett-Luce ratings from games given as (agent, score) per seat, lower score
    better (ties share a rank). Returns mu, sigma and the conservative ordinal per agent."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in games:
        agents = [a for a, _ in game]
        scores = [s for _, s in game]
        ranks = [sorted(set(scores)).index(s) + 1 for s in scores]
        teams = [[ratings[a]] for a in agents]
        rated = model.rate(teams, ranks=ranks)
        for agent, team in zip(agents, rated, strict=True):
            ratings[agent] = team[0]
    return {
        name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for name, r in ratings.items()
    }
