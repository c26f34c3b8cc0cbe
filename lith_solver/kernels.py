"""Compiled inner loops of the exact solvers (numba, both cores).

Each kernel does in one pass what numpy would do in several, each pass writing a temporary as
big as the solver's largest arrays: regret matching, the discounted-CFR update of a decision
(its value, regrets, strategy sums and next strategy at once), and the factored showdown and
fold sums of ``lith_solver.factored`` (opponent reach merged into classes, cumulated in
group order and read at the positions a sparse matrix names, one reach vector per thread at a
time, without ever holding the cumulative sums of all vectors). The whole last betting
round of a joint build is ``lith_solver.last_round``, which shares the row routines here.
Arrays are float64 and C-ordered; callers pass them so (``np.ascontiguousarray``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = [
    "discounted_update",
    "factored_sums",
    "moved_reach",
    "regret_matching",
    "summed_into_parents",
]


@njit(inline="always", cache=True)
def match_row(
    regret: np.ndarray, row: int, actions: int, out: np.ndarray, at: int
) -> None:  # pragma: no cover - compiled
    """``out[at : at + actions]``: entries ``row`` to ``row + actions`` of the flat
    ``regret``, their positive part normalized (uniform where none is positive)."""
    total = 0.0
    for k in range(actions):
        if regret[row + k] > 0.0:
            total += regret[row + k]
    for k in range(actions):
        out[at + k] = max(regret[row + k], 0.0) / total if total > 0.0 else 1.0 / actions


@njit(inline="always", cache=True)
def accumulate(
    regret, sums, row, actions, q, column, v, probs, at, reach, positive, negative, weight
) -> None:  # pragma: no cover - compiled
    """Discounted CFR on one decision row, entries ``row`` to ``row + actions`` of the flat
    ``regret`` and ``sums``: regrets gain each action's value ``q[k, column]`` less the row's
    value ``v``, then are scaled by ``positive`` where above zero and by ``negative``
    elsewhere; the sums gain ``weight`` times the player's ``reach`` times the strategy played
    (``probs[at : at + actions]``). Rows the player does not reach keep their sums untouched,
    which is why the sums are weighted rather than discounted (see ``dcfr_weights``)."""
    for k in range(actions):
        r = regret[row + k] + (q[k, column] - v)
        regret[row + k] = r * positive if r > 0.0 else r * negative
    if reach != 0.0:
        w = weight * reach
        for k in range(actions):
            sums[row + k] += w * probs[at + k]


@njit(inline="always", cache=True)
def _update_row(
    regret, sums, strategy, row, actions, q, column, v, reach, positive, negative, weight
) -> None:  # pragma: no cover - compiled
    """:func:`accumulate` with the strategy kept in the flat ``strategy`` at the same
    entries, which then becomes the regret matching of the new regrets (the next
    iteration's)."""
    accumulate(
        regret, sums, row, actions, q, column, v, strategy, row, reach, positive, negative, weight
    )
    match_row(regret, row, actions, strategy, row)  # after the sums: they take this iteration's


@njit(parallel=True, cache=True)
def regret_matching(regret: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Rows (rows, actions) of positive regrets, normalized; uniform where none is positive."""
    rows, actions = regret.shape
    flat = np.ascontiguousarray(regret).reshape(-1)
    out = np.empty(rows * actions)
    for i in prange(rows):
        match_row(flat, i * actions, actions, out, i * actions)
    return out.reshape(rows, actions)


@njit(parallel=True, cache=True)
def discounted_update(
    regret: np.ndarray,
    sums: np.ndarray,
    children: np.ndarray,
    strategy: np.ndarray,
    own: np.ndarray,
    positive: float,
    negative: float,
    weight: float,
) -> np.ndarray:  # pragma: no cover - compiled
    """One decision's discounted-CFR update, in place (:func:`_update_row` on every row);
    returns its value (rows,). ``regret``, ``sums`` and ``strategy`` are (rows, actions),
    ``children`` (actions, rows) the actions' values, ``own`` (rows,) the deciding player's
    reach."""
    rows, actions = regret.shape
    flat_regret, flat_sums = regret.reshape(-1), sums.reshape(-1)
    flat_strategy = strategy.reshape(-1)
    value = np.empty(rows)
    for i in prange(rows):
        v = 0.0
        for a in range(actions):
            v += children[a, i] * strategy[i, a]
        value[i] = v
        _update_row(
            flat_regret, flat_sums, flat_strategy, i * actions, actions, children, i, v,
            own[i], positive, negative, weight,
        )  # fmt: skip
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


@njit(parallel=True, cache=True)
def moved_reach(
    reach: np.ndarray, parent: np.ndarray, action: np.ndarray, probs: np.ndarray
) -> np.ndarray:  # pragma: no cover - compiled
    """``reach[:, parent] * probs[:, parent, action]`` in one pass (lines in parallel): each
    child state's reach (lines, children) from its parent state's (lines, parents) times the
    probability (lines, parents, actions) of the action that led to it. An empty ``probs``
    (lines, parents, 0) multiplies by nothing: ``reach[:, parent]``."""
    lines, children = reach.shape[0], len(parent)
    out = np.empty((lines, children))
    plain = probs.shape[2] == 0
    for line in prange(lines):
        for s in range(children):
            q = parent[s]
            out[line, s] = reach[line, q] if plain else reach[line, q] * probs[line, q, action[s]]
    return out


@njit(parallel=True, cache=True)
def summed_into_parents(
    values: np.ndarray, parent: np.ndarray, action: np.ndarray, parents: int
) -> np.ndarray:  # pragma: no cover - compiled
    """The inverse of :func:`moved_reach`: child states' ``values`` (lines, children) summed
    into their parent state and action, (lines, parents * 4), children in order (lines in
    parallel)."""
    lines, children = values.shape
    out = np.zeros((lines, parents * 4))
    for line in prange(lines):
        for s in range(children):
            out[line, parent[s] * 4 + action[s]] += values[line, s]
    return out
