"""Confidence intervals and ratings for tournament results.

Intervals come from independent blocks (a duplicate block is one deal played in every seating):
the block means are independent draws, so their mean has a Student-t interval (quantiles from
``scipy.stats``). Shares (how often an agent bets, exchanges, ...) get Wilson intervals. Ratings
for multi-player results use openskill's Plackett-Luce model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats

__all__ = ["Interval", "mean_interval", "proportion_interval", "rate_games", "t_critical"]


class Interval(NamedTuple):
    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def t_critical(df: int, confidence: float = 0.95) -> float:
    """Two-sided Student-t critical value for ``df`` degrees of freedom (``scipy.stats.t``)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence: must be between 0 and 1, got {confidence!r}")
    if df < 1:
        raise ValueError(f"df: must be at least 1, got {df!r}")
    return float(stats.t.ppf(0.5 + confidence / 2, df))


def proportion_interval(count: int, total: int, confidence: float = 0.95) -> Interval:
    """A share ``count / total`` with its Wilson score interval (sound for small totals and for
    shares near 0 or 1, unlike the normal approximation); NaNs when ``total`` is 0."""
    if total == 0:
        return Interval(float("nan"), float("nan"), float("nan"), 0)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    share = count / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z / (1 + z * z / total) * math.sqrt(share * (1 - share) / total + z * z / (4 * total**2))
    return Interval(share, max(0.0, centre - half), min(1.0, centre + half), total)


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
