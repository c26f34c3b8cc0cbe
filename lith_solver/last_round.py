"""The last betting round of a joint build in one compiled pass (numba, both cores).

For each betting line: the opponent's reach carried down the tree to every terminal; then,
for each of my private states, its fold and showdown sums over the consistent opponent
states, and the walk of the tree for that state (:func:`walk`): my reach down, the values
and, in CFR, the discounted-CFR update back up. Every line and state is touched once a node.

:func:`walk` here reads the tree from arrays (node kinds, child indices, widths).
``lith_solver.tree_walks`` writes, for one tree, this module again with :func:`walk` as
straight-line code for that tree, which is several times faster; the solver runs that one,
and this one is its reference (``tests/test_tree_walks.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from lith_solver.kernels import accumulate, match_row

__all__ = ["BEST_RESPONSE", "CFR", "EVAL", "last_round", "walk"]

EVAL, CFR, BEST_RESPONSE = 0, 1, 2  # modes


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
    by_opp: tuple,
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
    does not reach are skipped: once strategies settle, most are. ``by_opp`` is ``pairs``
    turned round, opponent state by opponent state, for the first states (below) only
    (``solve_exchanges.by_opponent``): in ``CFR`` mode the sums are added from it.

    ``first`` (my states,) and ``opp_first`` (the opponent's) name for each state the first
    state with the same row of ``pairs`` (``solve_exchanges.row_classes``): the same
    counterfactual values whatever the opponent plays, so, in ``CFR`` mode, the same regrets
    at every iteration. Only first states are walked; the others take their first's values
    (and a best response's choices), and in ``CFR`` mode their regrets are neither read
    nor written: the strategy of a state is the regret matching of its first's regrets, and
    only its sums are its own (:func:`member_sums`). ``EVAL``, where each state plays a
    strategy of its own, needs every state its own first (``np.arange``), and so does the
    opponent outside ``CFR`` (``opp_first`` is then not read).

    ``mode``: ``EVAL`` plays ``strategy``; ``BEST_RESPONSE`` maximizes at my decisions and
    writes the argmax into ``choices`` (my decisions, lines, my states); ``CFR`` plays both
    players' current strategies, the regret matching of ``regret`` (``strategy`` is not
    read: the last round's current strategies are never stored, which saves a third of the
    memory traffic of its updates), and applies the discounted-CFR update
    (:func:`accumulate`) at my decisions.

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
        sums_of = np.empty((my_states if mode == CFR else 0, terminals))  # for cfr_line
        scratch = (at, reach, summed, own_reach, value, probs, q, sums_of)
        for line in range(thread, lines, threads):
            _last_round_line(
                mode, me, line, base, opp, own, tree, offset, (strategy, regret, sums),
                choices, pairs, by_opp, (first, opp_first), (positive, negative, weight),
                scratch, values,
            )  # fmt: skip
    return values


@njit(inline="always", cache=True)
def _policy(mode, strategy, regret, row, actions, out) -> None:  # pragma: no cover - compiled
    """``out[:actions]``: the strategy played at a decision row, ``strategy``'s entries or,
    in ``CFR`` mode, the regret matching of ``regret``'s (as :func:`match_row` would store
    it, to the bit)."""
    if mode == CFR:
        match_row(regret, row, actions, out, 0)
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
    by_opp,
    firsts,
    weights,
    scratch,
    values,
) -> None:  # pragma: no cover - compiled
    """:func:`last_round` for one betting line, in the given scratch arrays."""
    first = firsts[0]
    player = tree[0]
    opp_states = scratch[0].shape[0]
    my_states = values.shape[1]
    nodes = len(player)
    if mode == CFR:
        cfr_line(
            me, line, base, opp, own, tree, offset, arrays, choices, pairs, by_opp, firsts,
            weights, scratch, values,
        )  # fmt: skip
    else:
        for b in range(opp_states):
            if opp[line, b] != 0.0:  # never read below otherwise: its pairs are skipped
                opp_reach_down(mode, me, line, b, b, opp[line, b], tree, offset, arrays, scratch)
    for a in range(my_states):  # a state's first comes before it
        f = first[a]
        if f != a:
            values[line, a] = values[line, f]
            if mode == BEST_RESPONSE:
                for n in range(nodes):
                    if player[n] == me:
                        mine = tree[7][n]
                        choices[mine, line, a] = choices[mine, line, f]
        elif mode != CFR:
            walk_state(
                mode, me, line, a, base, opp, own, tree, offset, arrays, choices, pairs,
                weights, scratch, values,
            )  # fmt: skip


@njit(cache=True)
def cfr_line(
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
    by_opp,
    firsts,
    weights,
    scratch,
    values,
) -> None:  # pragma: no cover - compiled
    """``CFR`` mode on ``line``: the opponent's reach down the tree from each state the line
    reaches, the strategy sums of the states that are not first of their class, and
    :func:`walk_state` for each first state, one after another (``by_opp`` is not read).
    ``lith_solver.tree_walks`` replaces it with passes over blocks of states that the compiler
    vectorizes."""
    first, opp_first = firsts
    my_states = values.shape[1]
    for b in range(scratch[0].shape[0]):
        if opp[line, b] != 0.0:  # never read below otherwise: its pairs are skipped
            # CFR plays the regrets of b's first state: only those are kept
            source = opp_first[b]
            opp_reach_down(CFR, me, line, b, source, opp[line, b], tree, offset, arrays, scratch)
    for a in range(my_states):  # the others' sums, while their firsts' regrets are unchanged
        if first[a] != a and own[line, a] != 0.0:
            member_sums(
                me, line, first[a], a, own[line, a], tree, offset, arrays, weights, scratch,
                my_states,
            )  # fmt: skip
    for a in range(my_states):
        if first[a] == a:
            walk_state(
                CFR, me, line, a, base, opp, own, tree, offset, arrays, choices, pairs,
                weights, scratch, values,
            )  # fmt: skip


@njit(inline="always", cache=True)
def walk_state(
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
    """My state ``a`` on ``line``: its fold and showdown sums over the consistent opponent
    states the line reaches (their reach at the terminals in ``at``), then :func:`walk`, or
    :func:`unreached` where there are none."""
    num_folds = tree[4]
    indptr, indices, total, net = pairs
    at, summed = scratch[0], scratch[2]
    terminals = at.shape[1]
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
    if live or (mode == CFR and own[line, a] != 0.0):
        walk(
            mode, me, line, a, base[line], own[line, a], tree, offset, arrays, choices,
            weights, summed, values, scratch,
        )  # fmt: skip
    else:
        unreached(mode, me, line, a, tree, offset, arrays, choices, weights, scratch, values)


@njit(inline="always", cache=True)
def unreached(
    mode, me, line, a, tree, offset, arrays, choices, weights, scratch, values
) -> None:  # pragma: no cover - compiled
    """My state ``a`` on ``line`` with no reached opponent state: every value is 0, so an
    update only discounts its regrets (and, unreached, leaves the sums alone), and a best
    response takes the first action."""
    player, width, mine = tree[0], tree[2], tree[7]
    regret, sums = arrays[1:]
    positive, negative, weight = weights
    probs, q = scratch[5], scratch[6]
    my_states = values.shape[1]
    for k in range(3):
        q[k, 0] = 0.0
    for n in range(len(player)):
        if player[n] == me:
            if mode == CFR:
                row = offset[n] + (line * my_states + a) * width[n]
                accumulate(
                    regret, sums, row, width[n], q, 0, 0.0, probs[n], 0, 0.0,
                    positive, negative, weight,
                )  # fmt: skip
            elif mode == BEST_RESPONSE:
                choices[mine[n], line, a] = 0  # all tie: the first, as in walk
    values[line, a] = 0.0


@njit(inline="always", cache=True)
def walk(
    mode,
    me,
    line,
    a,
    base_line,
    own_a,
    tree,
    offset,
    arrays,
    choices,
    weights,
    summed,
    values,
    scratch,
) -> None:  # pragma: no cover - compiled
    """The tree walked for my state ``a`` on ``line``, its terminals' sums in ``summed``:
    in ``CFR`` my strategy (the regret matching of my regrets) and reach ``own_a`` down the
    tree, then values back up with the discounted-CFR update (:func:`accumulate`) at my
    decisions; in ``BEST_RESPONSE`` the best action's value and, in ``choices``, the action;
    in ``EVAL`` ``strategy``'s. Writes ``values[line, a]``."""
    player, children, width, column, _, chips, sign, mine = tree
    strategy, regret, sums = arrays
    positive, negative, weight = weights
    own_reach, value, probs, q = scratch[3:7]
    my_states = values.shape[1]
    nodes = len(player)
    if mode == CFR:  # my strategy and my reach down the tree
        own_reach[0] = own_a
        for n in range(nodes):
            p = player[n]
            if p == me:
                row = offset[n] + (line * my_states + a) * width[n]
                match_row(regret, row, width[n], probs[n], 0)
                for k in range(width[n]):
                    own_reach[children[n, k]] = own_reach[n] * probs[n, k]
            elif p >= 0:
                for k in range(width[n]):
                    own_reach[children[n, k]] = own_reach[n]
    for n in range(nodes - 1, -1, -1):
        p = player[n]
        if p < 0:
            t = column[n]
            value[n] = sign[t] * (base_line + chips[t]) * summed[t]
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
            accumulate(
                regret, sums, row, width[n], q, 0, v, probs[n], 0, own_reach[n],
                positive, negative, weight,
            )  # fmt: skip
    values[line, a] = value[0]


@njit(inline="always", cache=True)
def opp_reach_down(
    mode, me, line, b, source, reach_b, tree, offset, arrays, scratch
) -> None:  # pragma: no cover - compiled
    """The opponent's state ``b``, reached with ``reach_b`` on ``line``, carried down the tree:
    its reach at each terminal into ``at[b]``. It plays the strategy of state ``source``
    (:func:`_policy`)."""
    player, children, width, column = tree[:4]
    strategy, regret = arrays[:2]
    at, reach, probs = scratch[0], scratch[1], scratch[5]
    opp_states = at.shape[0]
    p_row = probs[0]
    reach[0] = reach_b
    for n in range(len(player)):
        p = player[n]
        if p < 0:
            at[b, column[n]] = reach[n]
        elif p == me:
            for k in range(width[n]):
                reach[children[n, k]] = reach[n]
        else:
            row = offset[n] + (line * opp_states + source) * width[n]
            _policy(mode, strategy, regret, row, width[n], p_row)
            for k in range(width[n]):
                reach[children[n, k]] = reach[n] * p_row[k]


@njit(inline="always", cache=True)
def member_sums(
    me, line, f, a, own_a, tree, offset, arrays, weights, scratch, my_states
) -> None:  # pragma: no cover - compiled
    """The strategy sums of my state ``a`` on ``line``, reached with ``own_a``, whose class's
    first state is ``f``: it plays ``f``'s strategy (the regret matching of ``f``'s regrets,
    not yet updated), weighted by its own reach, as :func:`accumulate` would add them."""
    player, children, width = tree[:3]
    regret, sums = arrays[1:]
    weight = weights[2]
    own_reach, probs = scratch[3], scratch[5]
    own_reach[0] = own_a
    for n in range(len(player)):
        p = player[n]
        if p == me:
            block = offset[n] + line * my_states * width[n]
            match_row(regret, block + f * width[n], width[n], probs[n], 0)
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
