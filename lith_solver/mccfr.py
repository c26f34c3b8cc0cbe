"""What the two MCCFR solvers on card abstractions share (``lith_solver.abstraction``, the
one-round game; ``lith_solver.abstract_exchanges``, the games with exchanges): the equity
buckets the hands are put in, the check of the average's weights, and the compiled steps of
an external-sampling traversal (regret matching at a decision, the opponent's sampled action,
the traverser's regret update).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lith_solver.one_round import OneRoundGame

__all__ = [
    "DEALT",
    "NOTHING_PENDING",
    "ROOT",
    "check_average_power",
    "equity",
    "equity_buckets",
    "exchanged",
    "hand_index",
    "regret_strategy",
    "regret_update",
    "sampled_action",
    "showdown_sign",
    "sort3",
]


def equity(game: OneRoundGame) -> np.ndarray:
    """Each hand's showdown equity (0 to 1) against a uniformly random disjoint hand."""
    net = game.showdown_net(np.ones((1, game.num_hands)))[0]
    return 0.5 + 0.5 * net / game.num_opponent_hands


def equity_buckets(game: OneRoundGame, buckets: int, merge_ties: bool = True) -> np.ndarray:
    """The bucket (0 weakest) of every hand: equal-sized groups by equity rank. With
    ``merge_ties``, hands of equal equity always share a bucket (in the one-round game they
    play alike); without, ties are split by the hands' order, so that as many buckets as
    hands keep every hand apart (with exchanges, hands of one equity are not alike: they
    hold other cards to give and draw)."""
    if not isinstance(buckets, int) or isinstance(buckets, bool) or buckets < 1:
        raise ValueError(f"buckets: must be a positive integer, got {buckets!r}")
    if buckets > game.num_hands:
        raise ValueError(f"buckets: at most the game's {game.num_hands} hands, got {buckets}")
    values = np.round(equity(game), 12)
    order = np.argsort(values, kind="stable")
    bucket_of_rank = np.arange(game.num_hands) * buckets // game.num_hands
    out = np.empty(game.num_hands, dtype=np.int64)
    out[order] = bucket_of_rank
    if not merge_ties:
        return out
    # A group of equal equity goes wholly into the bucket of its first (lowest) rank.
    distinct, first = np.unique(values[order], return_index=True)
    lowest = bucket_of_rank[first]
    out = lowest[np.searchsorted(distinct, values)]
    return out


def check_average_power(power: float) -> None:
    """``ValueError`` unless ``power`` is a number from 0 to 4 (the average's weights
    ``t**power`` stay finite)."""
    if isinstance(power, bool) or not isinstance(power, int | float) or not 0 <= power <= 4:
        raise ValueError(f"average_power: must be a number from 0 to 4, got {power!r}")


# ---------------------------------------------------------------------------------------------
# The compiled steps of a traversal

# A traversal's root arguments as typed values, not literals: numba compiles a recursive
# function again for a call with literal arguments, so a compiled loop calling the root with
# 0 would compile the whole traversal twice (the root's types, then the recursion's).
# DEALT: the deck's next card, six being dealt; NOTHING_PENDING: no first discard yet.
ROOT, DEALT, NOTHING_PENDING = np.int64(0), np.int64(6), np.int64(0)


@njit(cache=True)
def regret_strategy(
    regrets: np.ndarray, d: int, b: int, width: int, out: np.ndarray
) -> None:  # pragma: no cover - compiled
    """``out[:width]``: regret matching on the regrets of decision ``d``, bucket ``b``."""
    total = 0.0
    for a in range(width):
        if regrets[d, b, a] > 0.0:
            total += regrets[d, b, a]
    for a in range(width):
        out[a] = max(regrets[d, b, a], 0.0) / total if total > 0.0 else 1.0 / width


@njit(cache=True)
def sampled_action(
    sums: np.ndarray, d: int, b: int, sigma: np.ndarray, weight: float
) -> int:  # pragma: no cover - compiled
    """At an opponent's decision: add its strategy ``sigma`` to the average's sums (times
    ``weight``) and draw its action from it."""
    k = len(sigma)
    for a in range(k):
        sums[d, b, a] += weight * sigma[a]
    draw, a, cumulative = np.random.random(), 0, sigma[0]  # noqa: NPY002 (numba)
    while draw >= cumulative and a < k - 1:
        a += 1
        cumulative += sigma[a]
    return a


@njit(cache=True)
def regret_update(
    regrets: np.ndarray, d: int, b: int, sigma: np.ndarray, values: np.ndarray, weight: float
) -> float:  # pragma: no cover - compiled
    """At the traverser's decision: its value under ``sigma``, each action's regret against
    it added (times ``weight``)."""
    v = 0.0
    for a in range(len(sigma)):
        v += sigma[a] * values[a]
    for a in range(len(sigma)):
        regrets[d, b, a] += weight * (values[a] - v)
    return v


@njit(cache=True)
def hand_index(hand: np.ndarray, position: np.ndarray, size: int) -> int:
    """A sorted hand's index among size**3, by its cards' ``position`` in the deck."""
    return (position[hand[0]] * size + position[hand[1]]) * size + position[hand[2]]


@njit(cache=True)
def sort3(hand: np.ndarray) -> None:
    """Sort a three-card hand in place."""
    if hand[0] > hand[1]:
        hand[0], hand[1] = hand[1], hand[0]
    if hand[1] > hand[2]:
        hand[1], hand[2] = hand[2], hand[1]
    if hand[0] > hand[1]:
        hand[0], hand[1] = hand[1], hand[0]


@njit(cache=True)
def exchanged(hands, order, top, pending, a):  # pragma: no cover - compiled
    """Heads-up hands (2, 3) after an exchange (``pending`` the first player's action, ``a``
    the dealer's; 0 keeps, k gives card k): the new hands, the deck's new top in ``order``,
    and the card each player got (-1: none). Both discarded: they swap; one did: it draws."""
    out = hands.copy()
    got = np.full(2, -1, dtype=np.int64)
    if pending > 0 and a > 0:
        got[0], got[1] = hands[1, a - 1], hands[0, pending - 1]
        out[0, pending - 1], out[1, a - 1] = got[0], got[1]
        sort3(out[0])
        sort3(out[1])
    elif pending > 0 or a > 0:
        who, slot = (0, pending - 1) if pending > 0 else (1, a - 1)
        got[who] = order[top]
        out[who, slot] = order[top]
        top += 1
        sort3(out[who])
    return out, top, got


@njit(cache=True)
def gifts_after(ranks, got, pending, a, card_rank, position):  # pragma: no cover - compiled
    """The rank of the card each player gave in the latest swap, after the exchange of
    ``exchanged`` that handed out ``got``: new ones if the two swapped (each gave what the
    other got), else ``ranks`` as they were."""
    if pending > 0 and a > 0:
        out = np.empty(2, dtype=np.int64)
        out[0] = card_rank[position[got[1]]]
        out[1] = card_rank[position[got[0]]]
        return out
    return ranks


@njit(cache=True)
def showdown_sign(hands, p, strengths, position, size):  # pragma: no cover - compiled
    """+1 if player ``p``'s hand wins the showdown, -1 if it loses, 0 on a tie: averaged over
    the rows of ``strengths`` (the Excuse's readings under the demon)."""
    net = 0.0
    for r in range(strengths.shape[0]):
        a = strengths[r, hand_index(hands[p], position, size)]
        b = strengths[r, hand_index(hands[1 - p], position, size)]
        net += 1.0 if a > b else (-1.0 if a < b else 0.0)
    return net / strengths.shape[0]
