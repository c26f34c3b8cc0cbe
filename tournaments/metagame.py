"""Equilibria of a population's meta-game: which mixture of its members to train against.

A population of strategies (heuristics, snapshots of a learner) and a payoff table between
them, ``payoffs[i, j]``: what member i wins against member j (heads-up: in chips a hand, or
any zero-sum unit; at more seats: member i in one seat against copies of member j in the
others). PSRO (Lanctot et al. 2017) trains the next best response against the table's
equilibrium mixture:

- two players, zero-sum: the Nash equilibrium by linear programming
  (``scipy.optimize.linprog``): the mixture maximizing its worst case against every member;
- more players: projected replicator dynamics (PRD, Lanctot et al. 2017) on the symmetric
  game of the table, every member keeping at least a small weight.

``nash_with_margins`` is the two-player equilibrium constrained to beat chosen members by a
margin: the strategy ``mixture:DIR:margin=M`` plays (``agents.mixture``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linprog

__all__ = [
    "meta_mixture",
    "nash_with_margins",
    "nash_with_margins_limit",
    "nash_zero_sum",
    "projected_replicator_dynamics",
]


def _square(payoffs: np.ndarray) -> np.ndarray:
    table = np.asarray(payoffs, dtype=float)
    if table.ndim != 2 or table.shape[0] != table.shape[1] or table.shape[0] == 0:
        raise ValueError(f"payoffs: a square, non-empty table, got shape {table.shape}")
    if not np.isfinite(table).all():
        raise ValueError("payoffs: every entry must be a finite number")
    return table


def _maximin(
    table: np.ndarray, columns: Sequence[int], beaten: Sequence[int] = (), margin: float = 0.0
):
    """``linprog`` on the simplex: the mixture x of the rows maximizing v subject to
    ``(table.T @ x)[columns] >= v`` and ``(table.T @ x)[beaten] >= margin``; the solver's
    result (``x[:-1]`` the mixture, ``x[-1]`` the value v, ``success`` False if infeasible)."""
    k = len(table)
    cost = np.zeros(k + 1)
    cost[-1] = -1.0  # variables: the mixture (k), then v; minimize -v
    upper = np.vstack(
        [
            np.hstack([-table[:, columns].T, np.ones((len(columns), 1))]),  # v <= (A^T x)_j
            np.hstack([-table[:, beaten].T, np.zeros((len(beaten), 1))]),  # (A^T x)_j >= m
        ]
    )
    bound = np.concatenate([np.zeros(len(columns)), np.full(len(beaten), -float(margin))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0, None)] * k + [(None, None)]
    return linprog(cost, A_ub=upper, b_ub=bound, A_eq=equal, b_eq=[1.0], bounds=bounds)


def _mixture_of(found) -> np.ndarray:
    mixture = np.clip(found.x[:-1], 0.0, None)
    return mixture / mixture.sum()


def nash_zero_sum(payoffs: np.ndarray) -> np.ndarray:
    """The row player's maximin mixture of a zero-sum matrix game (an equilibrium strategy):
    maximize v subject to ``payoffs.T @ x >= v``, ``x >= 0``, ``sum(x) = 1``."""
    table = _square(payoffs)
    found = _maximin(table, list(range(len(table))))
    if not found.success:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"linprog: {found.message}")
    return _mixture_of(found)


def nash_with_margins(payoffs: np.ndarray, beaten: list[int], margin: float) -> np.ndarray:
    """The row player's maximin mixture of a zero-sum matrix game among those that beat each
    column in ``beaten`` by at least ``margin``: maximize v subject to ``payoffs.T @ x >= v``
    and ``(payoffs.T @ x)[beaten] >= margin``. ``ValueError`` when no mixture does, saying
    the largest margin one can have."""
    table = _square(payoffs)
    k = len(table)
    beaten = sorted(set(beaten))
    if not beaten or not all(0 <= j < k for j in beaten):
        raise ValueError(f"beaten: members 0-{k - 1} to beat, got {beaten!r}")
    found = _maximin(table, list(range(k)), beaten, margin)
    if not found.success:
        best = nash_with_margins_limit(table, beaten)
        raise ValueError(
            f"margin: no mixture beats every one of the columns {beaten} by {margin:g}; the "
            f"most one can is {best:.4g}"
        )
    return _mixture_of(found)


def nash_with_margins_limit(payoffs: np.ndarray, beaten: list[int]) -> float:
    """The largest margin by which some mixture beats every column in ``beaten``."""
    return float(_maximin(_square(payoffs), sorted(set(beaten))).x[-1])


def projected_replicator_dynamics(
    payoffs: np.ndarray,
    iterations: int = 20_000,
    step: float = 0.01,
    floor: float = 1e-3,
    average_over: float = 0.5,
) -> np.ndarray:
    """Projected replicator dynamics on the symmetric game of ``payoffs`` (a member's payoff
    against the population playing mixture x is ``payoffs @ x``): from the uniform mixture,
    ``x += step * x * (payoffs @ x - x @ payoffs @ x)``, projected back on the simplex with
    every weight at least ``floor``; returns the mean of the last ``average_over`` share of
    the iterates (the dynamics may cycle; their average settles)."""
    table = _square(payoffs)
    k = len(table)
    if not 0 <= floor * k <= 1:
        raise ValueError(f"floor: at most 1/members ({1 / k:.4f}), got {floor!r}")
    scale = np.abs(table).max() or 1.0
    table = table / scale  # the step size then means the same for any unit
    x = np.full(k, 1.0 / k)
    kept = max(1, int(iterations * average_over))
    total = np.zeros(k)
    for t in range(iterations):
        fitness = table @ x
        x = _project(x + step * x * (fitness - x @ fitness), floor)
        if t >= iterations - kept:
            total += x
    return total / kept


def _project(x: np.ndarray, floor: float) -> np.ndarray:
    """Euclidean projection onto {y : y >= floor, sum(y) = 1}."""
    k = len(x)
    shifted = x - floor
    budget = 1.0 - floor * k
    # projection of shifted onto the simplex of sum ``budget`` (Duchi et al. 2008)
    ordered = np.sort(shifted)[::-1]
    cumulative = np.cumsum(ordered) - budget
    index = np.arange(1, k + 1)
    rho = np.nonzero(ordered - cumulative / index > 0)[0][-1]
    theta = cumulative[rho] / (rho + 1)
    return np.maximum(shifted - theta, 0.0) + floor


def meta_mixture(payoffs: np.ndarray, players: int) -> np.ndarray:
    """The mixture PSRO trains against: the zero-sum Nash heads-up, PRD at more seats."""
    if players == 2:
        return nash_zero_sum(payoffs)
    return projected_replicator_dynamics(payoffs)
