"""Stages of an exchange game built per player, for decks too big for joint histories.

Each player's private states are enumerated on their own (its dealt hand, and at each
exchange the card it gave and the card it got), never paired with the other's. What a
terminal needs — the opponent's reach summed over the opponent states consistent with a state,
in all (a fold) and weaker minus stronger (a showdown) — is computed as in the one-round
solver: two states are consistent when the cards each has held from the deal or the deck
(its *card set*) are disjoint, and, after swaps, when each gave what the other got (a
*signature* that must match). By inclusion-exclusion over the subsets of a state's card set,
the sum over the disjoint opponent states is an alternating sum of sums over the opponent
states that hold each subset; sorted by strength within each (signature, subset) group, the
weaker and stronger parts are differences of one cumulative sum, and every state's sums are
one sparse matrix product. The work grows with private states times 2^(card set size), not
with joint histories.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from scipy import sparse

from lith_solver.kernels import factored_sums

__all__ = ["FactoredSums", "PlayerTable", "deal_table", "exchange_table"]


class PlayerTable:
    """One player's private states at a stage: current hands (cards ids), the card set and
    the cards seen as bitmasks over deck positions, the signatures of its swaps (its own, and
    the one the opponent must have), its key (dealt hand, then slot and card got per
    exchange), and for a child stage, each state's parent state and exchange action."""

    def __init__(self, hands, cset, seen, dead, own, want, keys, parents=None, actions=None):
        self.hands, self.cset, self.seen, self.dead = hands, cset, seen, dead
        self.own, self.want, self.keys = own, want, keys
        self.parents, self.actions = parents, actions

    def __len__(self) -> int:
        return len(self.hands)


def deal_table(deck: np.ndarray) -> PlayerTable:
    """Every hand a player may be dealt."""
    hands = np.array(list(itertools.combinations(deck.tolist(), 3)), dtype=np.int64)
    cset = _mask(np.searchsorted(deck, hands))
    zero = np.zeros(len(hands), dtype=np.int64)
    return PlayerTable(hands, cset, cset.copy(), zero, zero, zero.copy(), hands.copy())


def exchange_table(table: PlayerTable, deck: np.ndarray, mode: str) -> PlayerTable:
    """The player's states after an exchange in which it ``keep``s, ``draw``s (discards
    alone: its discard goes to the bottom, it draws a card it has not seen) or ``swap``s."""
    n = len(table)
    if mode == "keep":
        minus = np.full((n, 2), -1)
        return PlayerTable(
            table.hands, table.cset, table.seen, table.dead, table.own, table.want,
            np.concatenate([table.keys, minus], axis=1), np.arange(n), np.zeros(n, np.int64),
        )  # fmt: skip
    size = len(deck)
    position = np.searchsorted(deck, table.hands)  # (n, 3)
    # A draw is a card never seen; a swap's card is in the other's hand: not mine, not dead.
    banned = (table.seen if mode == "draw" else _mask(position)) | table.dead
    allowed = ((banned[:, None] >> np.arange(size)[None, :]) & 1) == 0  # (n, size)
    rows, cards = np.nonzero(allowed)
    parent = np.repeat(rows, 3)
    slot = np.tile(np.arange(3), len(rows))
    got = np.repeat(cards, 3)  # deck positions
    given = position[parent, slot]
    hands = table.hands[parent].copy()
    hands[np.arange(len(parent)), slot] = deck[got]
    hands.sort(axis=1)
    bit_got, bit_given = np.int64(1) << got, np.int64(1) << given
    seen = table.seen[parent] | bit_got
    if mode == "draw":
        cset, dead = table.cset[parent] | bit_got, table.dead[parent] | bit_given
        own, want = table.own[parent], table.want[parent]
    else:
        cset, dead = table.cset[parent], table.dead[parent]
        base = size * size + 1
        own = table.own[parent] * base + 1 + given * size + got
        want = table.want[parent] * base + 1 + got * size + given
    keys = np.concatenate([table.keys[parent], slot[:, None], deck[got][:, None]], axis=1)
    return PlayerTable(hands, cset, seen, dead, own, want, keys, parent, slot + 1)


def _mask(positions: np.ndarray) -> np.ndarray:
    return (np.int64(1) << positions).sum(axis=1)


def _subsets(masks: np.ndarray, deck_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every subset of every mask's set bits: (owner row, subset mask, subset size). The
    masks of a stage all have the same number of bits (the draws of a player are public)."""
    n = len(masks)
    held = ((masks[:, None] >> np.arange(deck_size)[None, :]) & 1).astype(bool)
    counts = held.sum(axis=1)
    if n and (counts != counts[0]).any():
        raise AssertionError("the states of a stage hold card sets of one size")
    k = int(counts[0]) if n else 0
    positions = np.nonzero(held)[1].reshape(n, k)
    owners, subsets, sizes = [], [], []
    for size in range(k + 1):
        for combo in itertools.combinations(range(k), size):
            subset = np.zeros(n, dtype=np.int64)
            for j in combo:
                subset |= np.int64(1) << positions[:, j]
            owners.append(np.arange(n))
            subsets.append(subset)
            sizes.append(np.full(n, size))
    return np.concatenate(owners), np.concatenate(subsets), np.concatenate(sizes)


class FactoredSums:
    """For every state of one player (``me``), sums of the opponent's reach over its
    consistent states, times the stage's chance ``weight``: :meth:`total` (a fold) and
    :meth:`net` (weaker minus stronger; the demon: the roles' mean), for many reach vectors
    (k, opponent states) at once.

    Two savings keep the sums small. States that no sum tells apart are merged into *classes*
    (the same card set, signature and strength in every role: after a draw, the three dealt
    hands that give the same final hand and discard); and an opponent subset that none of my
    states looks up (a 4-card subset against my 3-card sets, a subset holding the card I got
    in a swap) is dropped. The sums themselves run compiled (``lith_solver.kernels``)."""

    def __init__(
        self,
        me: PlayerTable,
        opp: PlayerTable,
        my_strengths: list[np.ndarray],
        opp_strengths: list[np.ndarray],
        weight: float,
        deck_size: int,
    ) -> None:
        shift = 1 << deck_size
        if max(int(opp.own.max(initial=0)), int(me.want.max(initial=0))) >= (1 << 62) // shift:
            raise ValueError("cards: too many cards for the solver's group keys")
        roles = len(my_strengths)
        my_ranks, opp_ranks = [], []
        for role in range(roles):
            both = np.concatenate([my_strengths[role], opp_strengths[role]])
            ranks = np.unique(both, return_inverse=True)[1].reshape(-1)
            my_ranks.append(ranks[: len(me)])
            opp_ranks.append(ranks[len(me) :])
        opp_classes, self.opp_class = _classes([opp.cset, opp.own, *opp_ranks])
        my_classes, self.my_class = _classes([me.cset, me.want, *my_ranks])
        owner, subset, _ = _subsets(opp_classes[:, 0], deck_size)
        opp_keys = opp_classes[owner, 1] * shift + subset
        mine, my_subset, my_size = _subsets(my_classes[:, 0], deck_size)
        my_keys = my_classes[mine, 1] * shift + my_subset
        looked_up = np.isin(opp_keys, my_keys)
        owner, opp_keys = owner[looked_up], opp_keys[looked_up]
        sign = np.where(my_size % 2 == 0, 1.0, -1.0)
        groups, group_of = np.unique(opp_keys, return_inverse=True)
        group_of = group_of.reshape(-1)
        present = np.isin(my_keys, groups)  # my subsets no opponent state holds add nothing
        mine, sign = mine[present], sign[present]
        found = np.searchsorted(groups, my_keys[present])
        self.num_classes = len(opp_classes)
        self.entries = len(owner)
        gathers = []
        net_parts: list[tuple] = []
        total_parts: list[tuple] = []
        share = weight / roles
        for role in range(roles):
            my_rank, opp_rank = my_classes[:, 2 + role], opp_classes[:, 2 + role]
            scale = int(max(my_rank.max(initial=0), opp_rank.max(initial=0))) + 2
            order_key = group_of * scale + opp_rank[owner]
            order = np.argsort(order_key, kind="stable")
            sorted_key = order_key[order]
            gathers.append(owner[order])
            start = np.searchsorted(sorted_key, found * scale)
            end = np.searchsorted(sorted_key, (found + 1) * scale)
            at = found * scale + my_rank[mine]
            lo = np.searchsorted(sorted_key, at, side="left")
            hi = np.searchsorted(sorted_key, at, side="right")
            offset = role * (self.entries + 1)
            for columns, factor in ((lo, 1.0), (hi, 1.0), (start, -1.0), (end, -1.0)):
                net_parts.append((mine, offset + columns, sign * factor * share))
            if role == 0:
                for columns, factor in ((end, 1.0), (start, -1.0)):
                    total_parts.append((mine, columns, sign * factor * weight))
        self.gathers = np.ascontiguousarray(np.stack(gathers), dtype=np.int64)
        rows = len(my_classes)
        self.net_matrix = _matrix(net_parts, (rows, roles * (self.entries + 1)))
        self.total_matrix = _matrix(total_parts, (rows, self.entries + 1))

    def _sums(self, matrix: Any, gathers: np.ndarray, reach: np.ndarray) -> np.ndarray:
        reach = np.ascontiguousarray(reach, dtype=np.float64)
        out = factored_sums(
            reach, self.opp_class, self.num_classes, gathers,
            matrix.indptr, matrix.indices, matrix.data,
        )  # fmt: skip
        return out[:, self.my_class]

    def net(self, reach: np.ndarray) -> np.ndarray:
        return self._sums(self.net_matrix, self.gathers, reach)

    def total(self, reach: np.ndarray) -> np.ndarray:
        return self._sums(self.total_matrix, self.gathers[:1], reach)


def _classes(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of the stacked ``columns`` (classes x columns), and each row's
    class."""
    keys = np.stack(columns, axis=1).astype(np.int64)
    classes, inverse = np.unique(keys, axis=0, return_inverse=True)
    return classes, inverse.reshape(-1).astype(np.int64)


def _matrix(parts: list[tuple], shape: tuple[int, int]) -> Any:
    rows = np.concatenate([p[0] for p in parts])
    columns = np.concatenate([p[1] for p in parts])
    data = np.concatenate([p[2] for p in parts])
    matrix = sparse.csr_matrix((data, (rows, columns)), shape=shape)
    matrix.sum_duplicates()
    matrix.indptr = matrix.indptr.astype(np.int64)
    matrix.indices = matrix.indices.astype(np.int64)
    return matrix
