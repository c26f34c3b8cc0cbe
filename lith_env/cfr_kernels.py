"""Compiled inner loops of the exact solvers (numba, both cores).

Each kernel does in one pass what numpy would do in several, each pass writing a temporary as
big as the solver's largest arrays: regret matching, the discounted-CFR update of a decision
(its value, regrets, strategy sums and next strategy at once), and the factored showdown and
fold sums of ``lith_env.solve_factored`` (opponent reach merged into classes, cumulated in
group order and read at the positions a sparse matrix names, one reach vector per thread at a
time, without ever holding the cumulative sums of all vectors), and the whole last betting
round of a joint build (``last_round``: reach down the tree, terminal sums, values and
updates back up, each betting line and private state touched once a node, states with the
same opponents and weights walked once for all). Arrays are
float64 and C-ordered; callers pass them so (``np.ascontiguousarray``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["discounted_update", "factored_sums", "last_round", "regret_matching"]


@njit(inline="always", cache=True)
def _match_row(
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
def _accumulate(
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
    """:func:`_accumulate` with the strategy kept in the flat ``strategy`` at the same
    entries, which then becomes the regret matching of the new regrets (the next
    iteration's)."""
    _accumulate(
        regret, sums, row, actions, q, column, v, strategy, row, reach, positive, negative, weight
    )
    _match_row(regret, row, actions, strategy, row)  # after the sums: they take this iteration's


@njit(parallel=True, cache=True)
def regret_matching(regret: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Rows (rows, actions) of positive regrets, normalized; uniform where none is positive."""
    rows, actions = regret.shape
    flat = np.ascontiguousarray(regret).reshape(-1)
    out = np.empty(rows * actions)
    for i in prange(rows):
        _match_row(flat, i * actions, actions, out, i * actions)
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


EVAL, CFR, BEST_RESPONSE = 0, 1, 2  # last_round modes


@njit(parallel=True, cache=True)
def last_round(
    mode: int,
    me: int,
    base: np.ndarray,
    opp: np.ndarray,
    own: np.ndarray,
    tree: tuple,
    offset: np.ndarray,
    strategy: np.ndarray,
    regret: np.ndarray,
    sums: np.ndarray,
    choices: np.ndarray,
    pairs: tuple,
    first: np.ndarray,
    opp_first: np.ndarray,
    positive: float,
    negative: float,
    weight: float,
    threads: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """The last betting round at one stage, for player ``me``: its values (lines, my states).

    Each betting line in one pass (the lines shared among ``threads`` threads): the
    opponent's reach carried down the tree to every terminal; then, state by state, the fold
    and showdown sums over the consistent opponent states (``pairs``: (indptr, indices,
    total, net), my states x the opponent's as CSR with two data arrays, for folds and
    showdowns), my reach down the tree and the values back up it. Opponent states the line
    does not reach are skipped: once strategies settle, most are.

    ``first`` (my states,) and ``opp_first`` (the opponent's) name for each state the first
    state with the same row of ``pairs`` (``solve_exchanges.row_classes``): the same
    counterfactual values whatever the opponent plays, so, in ``CFR`` mode, the same regrets
    at every iteration. Only first states are walked; the others take their first's values
    (and a best response's choices), and in ``CFR`` mode their regrets are neither read
    nor written: the strategy of a state is the regret matching of its first's regrets, and
    only its sums are its own (:func:`_member_sums`). ``EVAL``, where each state plays a
    strategy of its own, needs every state its own first (``np.arange``), and so does the
    opponent outside ``CFR`` (``opp_first`` is then not read).

    ``mode``: ``EVAL`` plays ``strategy``; ``BEST_RESPONSE`` maximizes at my decisions and
    writes the argmax into ``choices`` (my decisions, lines, my states); ``CFR`` plays both
    players' current strategies, the regret matching of ``regret`` (``strategy`` is not
    read: the last round's current strategies are never stored, which saves a third of the
    memory traffic of its updates), and applies the discounted-CFR update
    (:func:`_accumulate`) at my decisions.

    ``tree`` = (player, children, width, column, num_folds, chips, sign, mine): ``player``
    (nodes,) 0/1, or -1 at a terminal, parents before children; ``children`` (nodes, 3)
    padded with -1, ``width`` how many of them a node has (its actions);
    ``column`` a terminal's column, folds first (``num_folds`` of them) then showdowns, worth
    ``sign[column] * (base + chips[column])`` times its sum; ``mine`` a decision of ``me``'s
    place in ``choices``. A decision node's strategy, regrets and sums are the (lines, states
    of its player, actions) block at ``offset[node]`` of the flat ``strategy``, ``regret``
    and ``sums``."""
    nodes = len(tree[0])
    lines, opp_states = opp.shape
    my_states = own.shape[1]
    terminals = len(tree[5])
    values = np.empty((lines, my_states))
    threads = max(1, min(threads, lines))
    for thread in prange(threads):  # scratch allocated once a thread, lines interleaved
        at = np.empty((opp_states, terminals))  # the opponent's reach at each terminal
        reach = np.empty(nodes)
        summed = np.empty(terminals)
        own_reach = np.empty(nodes)
        value = np.empty(nodes)
        probs = np.empty((nodes, 3))  # the strategy at each of my decisions, for one state
        q = np.empty((3, 1))  # an update's action values
        scratch = (at, reach, summed, own_reach, value, probs, q)
        for line in range(thread, lines, threads):
            _last_round_line(
                mode, me, line, base, opp, own, tree, offset, (strategy, regret, sums),
                choices, pairs, (first, opp_first), (positive, negative, weight), scratch,
                values,
            )  # fmt: skip
    return values


@njit(inline="always", cache=True)
def _policy(mode, strategy, regret, row, actions, out) -> None:  # pragma: no cover - compiled
    """``out[:actions]``: the strategy played at a decision row, ``strategy``'s entries or,
    in ``CFR`` mode, the regret matching of ``regret``'s (as :func:`_match_row` would store
    it, to the bit)."""
    if mode == CFR:
        _match_row(regret, row, actions, out, 0)
    else:
        for k in range(actions):
            out[k] = strategy[row + k]


@njit(cache=True)
def _last_round_line(
    mode,
    me,
    line,
    base,
    opp,
    own,
    tree,
    offset,
    arrays,
    choices,
    pairs,
    firsts,
    weights,
    scratch,
    values,
) -> None:  # pragma: no cover - compiled
    """:func:`last_round` for one betting line, in the given scratch arrays."""
    first, opp_first = firsts
    player, children, width, column = tree[:4]
    strategy, regret = arrays[:2]
    at, reach = scratch[:2]
    opp_states = at.shape[0]
    nodes = len(player)
    probs = scratch[5]
    p_row = probs[0]
    for b in range(opp_states):
        reach[0] = opp[line, b]
        if reach[0] == 0.0:  # never read below: its pairs are skipped
            continue
        for n in range(nodes):
            p = player[n]
            if p < 0:
                at[b, column[n]] = reach[n]
            elif p == me:
                for k in range(width[n]):
                    reach[children[n, k]] = reach[n]
            else:  # CFR plays the regrets of b's first state: only those are kept
                source = opp_first[b] if mode == CFR else b
                row = offset[n] + (line * opp_states + source) * width[n]
                _policy(mode, strategy, regret, row, width[n], p_row)
                for k in range(width[n]):
                    reach[children[n, k]] = reach[n] * p_row[k]
    if mode == CFR:  # the others' sums, while their firsts' regrets are this iteration's
        for a in range(len(first)):
            if first[a] != a and own[line, a] != 0.0:
                _member_sums(me, line, first[a], a, own, tree, offset, arrays, weights, scratch)
    for a in range(len(first)):  # a state's first comes before it
        f = first[a]
        if f == a:
            _walk_state(
                mode, me, line, a, base, opp, own, tree, offset, arrays, choices, pairs,
                weights, scratch, values,
            )  # fmt: skip
            continue
        values[line, a] = values[line, f]
        if mode == BEST_RESPONSE:
            for n in range(nodes):
                if player[n] == me:
                    mine = tree[7][n]
                    choices[mine, line, a] = choices[mine, line, f]


@njit(inline="always", cache=True)
def _walk_state(
    mode,
    me,
    line,
    a,
    base,
    opp,
    own,
    tree,
    offset,
    arrays,
    choices,
    pairs,
    weights,
    scratch,
    values,
) -> None:  # pragma: no cover - compiled
    """:func:`_last_round_line` for my state ``a``: its fold and showdown sums over the
    opponent's reach at the terminals (``scratch``'s ``at``), my reach down the tree and the
    values (and, in ``CFR`` mode, the update) back up it."""
    player, children, width, column, num_folds, chips, sign, mine = tree
    strategy, regret, sums = arrays
    indptr, indices, total, net = pairs
    positive, negative, weight = weights
    at, _, summed, own_reach, value, probs, q = scratch
    terminals = at.shape[1]
    my_states = values.shape[1]
    nodes = len(player)
    summed[:] = 0.0
    live = False
    for e in range(indptr[a], indptr[a + 1]):
        b, w = indices[e], total[e]
        if opp[line, b] == 0.0:  # nothing to add
            continue
        live = True
        for t in range(num_folds):
            summed[t] += w * at[b, t]
        w = net[e]
        for t in range(num_folds, terminals):
            summed[t] += w * at[b, t]
    if not live and (mode != CFR or own[line, a] == 0.0):
        # No opponent state here: every value is 0, so an update only discounts regrets
        # (and, unreached, leaves the sums alone).
        for k in range(3):
            q[k, 0] = 0.0
        for n in range(nodes):
            if player[n] == me:
                if mode == CFR:
                    row = offset[n] + (line * my_states + a) * width[n]
                    _accumulate(
                        regret, sums, row, width[n], q, 0, 0.0, probs[n], 0, 0.0,
                        positive, negative, weight,
                    )  # fmt: skip
                elif mode == BEST_RESPONSE:
                    choices[mine[n], line, a] = 0  # all tie: the first, as below
        values[line, a] = 0.0
        return
    if mode == CFR:  # my strategy and my reach down the tree
        own_reach[0] = own[line, a]
        for n in range(nodes):
            p = player[n]
            if p == me:
                row = offset[n] + (line * my_states + a) * width[n]
                _match_row(regret, row, width[n], probs[n], 0)
                for k in range(width[n]):
                    own_reach[children[n, k]] = own_reach[n] * probs[n, k]
            elif p >= 0:
                for k in range(width[n]):
                    own_reach[children[n, k]] = own_reach[n]
    for n in range(nodes - 1, -1, -1):
        p = player[n]
        if p < 0:
            t = column[n]
            value[n] = sign[t] * (base[line] + chips[t]) * summed[t]
        elif p != me:
            v = 0.0
            for k in range(width[n]):
                v += value[children[n, k]]
            value[n] = v
        elif mode == BEST_RESPONSE:
            best, v = 0, value[children[n, 0]]
            for k in range(1, width[n]):
                if value[children[n, k]] > v:
                    best, v = k, value[children[n, k]]
            choices[mine[n], line, a] = best
            value[n] = v
        elif mode == EVAL:
            row = offset[n] + (line * my_states + a) * width[n]
            v = 0.0
            for k in range(width[n]):
                v += value[children[n, k]] * strategy[row + k]
            value[n] = v
        else:
            v = 0.0
            for k in range(width[n]):
                v += value[children[n, k]] * probs[n, k]
            value[n] = v
            row = offset[n] + (line * my_states + a) * width[n]
            for k in range(width[n]):
                q[k, 0] = value[children[n, k]]
            _accumulate(
                regret, sums, row, width[n], q, 0, v, probs[n], 0, own_reach[n],
                positive, negative, weight,
            )  # fmt: skip
    values[line, a] = value[0]


@njit(inline="always", cache=True)
def _member_sums(
    me, line, f, a, own, tree, offset, arrays, weights, scratch
) -> None:  # pragma: no cover - compiled
    """The strategy sums of my state ``a`` on ``line``, whose class's first state is ``f``: it
    plays ``f``'s strategy (the regret matching of ``f``'s regrets, not yet updated), weighted
    by its own reach, as :func:`_accumulate` would add them."""
    player, children, width = tree[:3]
    regret, sums = arrays[1:]
    weight = weights[2]
    own_reach, probs = scratch[3], scratch[5]
    my_states = own.shape[1]
    own_reach[0] = own[line, a]
    for n in range(len(player)):
        p = player[n]
        if p == me:
            block = offset[n] + line * my_states * width[n]
            _match_row(regret, block + f * width[n], width[n], probs[n], 0)
            if own_reach[n] != 0.0:
                w = weight * own_reach[n]
                row = block + a * width[n]
                for k in range(width[n]):
                    sums[row + k] += w * probs[n, k]
            for k in range(width[n]):
                own_reach[children[n, k]] = own_reach[n] * probs[n, k]
        elif p >= 0:
            for k in range(width[n]):
                own_reach[children[n, k]] = own_reach[n]
