"""Compiled inner loops of the exact solvers (numba, both cores).

Each kernel does in one pass what numpy would do in several, each pass writing a temporary as
big as the solver's largest arrays: regret matching, the discounted-CFR update of a decision
(its value, regrets, strategy sums and next strategy at once), and the factored showdown and
fold sums of ``lith_env.solve_factored`` (opponent reach merged into classes, cumulated in
group order and read at the positions a sparse matrix names, one reach vector per thread at a
time, without ever holding the cumulative sums of all vectors). Arrays are float64 and
C-ordered; callers pass them so (``np.ascontiguousarray``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["discounted_update", "factored_sums", "regret_matching"]


@njit(inline="always", cache=True)
def _match_row(regret: np.ndarray, i: int, out: np.ndarray) -> None:  # pragma: no cover
    """Row ``i`` of ``out``: row ``i`` of ``regret``'s positive part, normalized (uniform where
    no regret is positive)."""
    actions = regret.shape[1]
    total = 0.0
    for a in range(actions):
        if regret[i, a] > 0.0:
            total += regret[i, a]
    for a in range(actions):
        if total > 0.0:
            out[i, a] = max(regret[i, a], 0.0) / total
        else:
            out[i, a] = 1.0 / actions


@njit(parallel=True, cache=True)
def regret_matching(regret: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Rows (rows, actions) of positive regrets, normalized; uniform where none is positive."""
    rows, actions = regret.shape
    out = np.empty((rows, actions))
    for i in prange(rows):
        _match_row(regret, i, out)
    return out


@njit(parallel=True, cache=True)
def discounted_update(
    regret: np.ndarray,
    sums: np.ndarray,
    children: np.ndarray,
    strategy: np.ndarray,
    own: np.ndarray,
    positive: float,
    negative: float,
    keep: float,
) -> np.ndarray:  # pragma: no cover - compiled
    """One decision's discounted-CFR update, in place; returns its value (rows,).

    ``children`` (actions, rows) are the actions' values, ``strategy`` (rows, actions) the
    current strategy, ``own`` (rows,) the deciding player's reach. Regrets gain each action's
    advantage over the value, then are scaled by ``positive`` where above zero and by
    ``negative`` elsewhere; the sums gain the reach-weighted strategy, then are scaled by
    ``keep``; ``strategy`` then becomes the regret matching of the new regrets (the next
    iteration's)."""
    rows, actions = regret.shape
    value = np.empty(rows)
    for i in prange(rows):
        v = 0.0
        for a in range(actions):
            v += children[a, i] * strategy[i, a]
        value[i] = v
        for a in range(actions):
            r = regret[i, a] + (children[a, i] - v)
            regret[i, a] = r * positive if r > 0.0 else r * negative
            sums[i, a] = (sums[i, a] + own[i] * strategy[i, a]) * keep
        _match_row(regret, i, strategy)  # after the sums: they take this iteration's strategy
    return value


@njit(parallel=True, cache=True)
def factored_sums(
    reach: np.ndarray,
    state_class: np.ndarray,
    num_classes: int,
    gathers: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    data: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    """``matrix @ prefix`` for every row of ``reach`` (k, opponent states): (k, matrix rows).

    Each opponent state's reach is added into its class (``state_class``); for each role ``r``
    the classes are cumulated in the order ``gathers[r]`` (exclusive prefix sums, one role's
    after the other's, each ``entries + 1`` long); the CSR matrix (``indptr``, ``indices``,
    ``data``) then combines prefix positions into each row's sum."""
    k = reach.shape[0]
    roles, entries = gathers.shape
    rows = len(indptr) - 1
    out = np.empty((k, rows))
    for j in prange(k):
        merged = np.zeros(num_classes)
        line = reach[j]
        for s in range(len(state_class)):
            merged[state_class[s]] += line[s]
        prefix = np.empty(roles * (entries + 1))
        for r in range(roles):
            base = r * (entries + 1)
            running = 0.0
            prefix[base] = 0.0
            order = gathers[r]
            for i in range(entries):
                running += merged[order[i]]
                prefix[base + i + 1] = running
        for m in range(rows):
            total = 0.0
            for e in range(indptr[m], indptr[m + 1]):
                total += data[e] * prefix[indices[e]]
            out[j, m] = total
    return out
