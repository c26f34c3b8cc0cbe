"""What a heads-up Lith player recalls on the game with exchanges, as rows of a flat table.

Recall "swap", what the best responder (:mod:`lith_solver.responder`) and the bot of
:mod:`lith_solver.swap_abstraction` remember, at a public node (the betting, and who
discarded at each exchange):

- at a betting decision, the equity bucket of the hand it holds now and, after a swap, the
  rank of the card it gave in the latest one (its opponent holds that card now);
- at an exchange, its exact hand: which card to give matters card by card.

It forgets the rest of its history (the card it drew, a swap before the latest). Recall
"gift" remembers as much at a betting decision, and at an exchange only the bucket of the
hand it holds (as the bots of :mod:`lith_solver.abstract_exchanges` with recall "hand" do):
one row a bucket there, not one a hand. Recall "perfect" keeps it all: the dealt hand, and
each exchange's action and card got.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lith_env.cards import CARDS
from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.abstract_exchanges import BET, PublicTree, one_round_config
from lith_solver.buckets import bucket_hands, hand_cells
from lith_solver.exchanges import ExchangeGame, ExchangeSolver, deciding_player
from lith_solver.one_round import OneRoundGame

__all__ = [
    "RANKS",
    "RECALLS",
    "RecallLayout",
    "latest_gift",
    "layout_rows",
    "layout_strategy",
    "state_rows",
]

RANKS = 13  # card ranks, Excuse 0 to Crown 12: what a player recalls of a swap
RECALLS = ("swap", "gift", "perfect")


class RecallLayout:
    """Where each information set of a player's recall is in its flat tables: ``offset[d]``
    the first row of public decision ``d``; at a betting decision ``bucket * recall[d] +
    rank`` (``recall[d]`` is 13 after a swap, else 1, and ``rank`` 0 then), at an exchange
    ``exchange_row``: the hand's index among the deck's hands (its bucket with recall
    "gift")."""

    def __init__(
        self, config: LithConfig, buckets: int, recall: str = "swap", bucketing: str = "equity",
        seed: int = 0, hand_bucket: np.ndarray | None = None,
    ) -> None:  # fmt: skip
        """The hands in ``buckets`` groups by ``bucketing`` (:func:`lith_solver.buckets.
        bucket_hands`, seeded by ``seed``), or as ``hand_bucket`` gives (each hand's bucket,
        the deck's hands in ``OneRoundGame`` order: a saved bot's own)."""
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
            raise ValueError(f"buckets: must be a positive integer, got {buckets!r}")
        if recall not in RECALLS:
            raise ValueError(f"recall: must be {' or '.join(RECALLS)}, got {recall!r}")
        self.config, self.buckets, self.recall_mode = config, buckets, recall
        self.tree = PublicTree(config)
        one_round = OneRoundGame(one_round_config(config))
        self.deck, self.position, self.hands, index = hand_cells(one_round)
        size = len(self.deck)
        if buckets > len(self.hands):
            raise ValueError(f"buckets: at most the deck's {len(self.hands)} hands, got {buckets}")
        if hand_bucket is None:
            hand_bucket = bucket_hands(one_round, buckets, bucketing, config.rounds, seed)
        hand_bucket = np.asarray(hand_bucket)
        if hand_bucket.shape != (len(self.hands),) or hand_bucket.dtype.kind not in "iu":
            raise ValueError(f"hand_bucket: one integer a hand ({len(self.hands)}), got "
                             f"{hand_bucket.dtype} {hand_bucket.shape}")  # fmt: skip
        if len(hand_bucket) and not 0 <= hand_bucket.min() <= hand_bucket.max() < buckets:
            raise ValueError(f"hand_bucket: a bucket outside 0 to {buckets - 1}")
        self.bucket = np.full(size**3, -1, dtype=np.int64)
        self.bucket[index] = hand_bucket
        self.hand_id = np.full(size**3, -1, dtype=np.int64)
        self.hand_id[index] = np.arange(len(self.hands))
        self.index = index
        self.exchange_row = self.bucket if recall == "gift" else self.hand_id
        roles = ("imposter", "beggar") if config.excuse == "demon" else (config.excuse,)
        self.strengths = np.zeros((len(roles), size**3))
        for r, role in enumerate(roles):
            values = strength(self.hands, pawns_and_courts=config.pawns_and_courts, excuse=role)
            self.strengths[r, index] = values
        self.rank = np.array([CARDS[c].rank for c in self.deck], dtype=np.int64)  # by position
        patterns_of = {i: p for p, i in self.tree.stage_index.items()}
        decisions = self.tree.decisions
        self.recall = np.ones(len(decisions), dtype=np.int64)
        self.exchange = np.zeros(len(decisions), dtype=bool)
        rows = np.zeros(len(decisions), dtype=np.int64)
        for d, node in enumerate(decisions):
            key = self.tree.keys[node]
            if "swap" in patterns_of[key[1]]:
                self.recall[d] = RANKS
            self.exchange[d] = self.tree.kind[node] != BET
            if recall == "perfect":  # the dealt hand, each exchange's action and card got
                rows[d] = len(self.hands) * (4 * (size + 1)) ** key[0]
            elif self.exchange[d]:
                rows[d] = buckets if recall == "gift" else len(self.hands)
            else:
                rows[d] = buckets * self.recall[d]
        self.offset = np.concatenate([[0], np.cumsum(rows)[:-1]])
        self.rows = int(rows.sum())
        self.row_decision = np.repeat(np.arange(len(decisions)), rows)  # each row's decision
        self.decision_of = {self.tree.keys[i]: int(self.tree.decision[i]) for i in decisions}

    def information_set(
        self, decision: int, hand: tuple[int, ...], given: int, deal_key: tuple[int, ...] = ()
    ) -> int:
        """The row of a private state: ``hand`` the sorted cards held now, ``given`` the card
        it gave in the latest swap (-1: none); with recall "perfect", ``deal_key`` (the dealt
        hand, then per exchange the slot given, -1 none, and the card got, -1 none)."""
        size = len(self.deck)
        if self.recall_mode == "perfect":
            local = self.position[list(deal_key[:3])]
            h = int(self.hand_id[(local[0] * size + local[1]) * size + local[2]])
            for e in range(3, len(deal_key), 2):
                slot, got = deal_key[e], deal_key[e + 1]
                h = (h * 4 + slot + 1) * (size + 1) + (self.position[got] + 1 if got >= 0 else 0)
            return int(self.offset[decision] + h)
        local = self.position[list(hand)]
        h = (local[0] * size + local[1]) * size + local[2]
        if self.exchange[decision]:
            return int(self.offset[decision] + self.exchange_row[h])
        rank = int(self.rank[self.position[given]]) if self.recall[decision] > 1 else 0
        return int(self.offset[decision] + self.bucket[h] * self.recall[decision] + rank)


def latest_gift(patterns: tuple[str, ...], deal_key: tuple[int, ...]) -> int:
    """The card given in the latest swap (-1: none), from the exchanges' public courses and
    the private state key (the dealt hand, then per exchange the slot given and the card got)."""
    hand, gift = list(deal_key[:3]), -1
    for e, pattern in enumerate(patterns):
        slot, got = deal_key[3 + 2 * e], deal_key[4 + 2 * e]
        if slot < 0:
            continue
        given = hand[slot]
        if pattern == "swap":
            gift = given
        hand = sorted([c for c in hand if c != given] + [got])
    return gift


def layout_rows(layout: RecallLayout, weights: np.ndarray) -> np.ndarray:
    """(rows, 4) probabilities from non-negative ``weights`` over ``layout``'s rows: each row
    normalised over its decision's legal actions, uniform over them where it weighs nothing."""
    rows_width = layout.tree.width[layout.tree.decisions][layout.row_decision]
    out = np.zeros_like(weights)
    for w in np.unique(rows_width):
        rows = rows_width == w
        legal = weights[rows, :w]
        totals = legal.sum(axis=1, keepdims=True)
        out[rows, :w] = np.divide(legal, totals, out=np.full_like(legal, 1.0 / w), where=totals > 0)
    return out


def state_rows(
    rows_of: Any, layout: RecallLayout, game: ExchangeGame, stage_index: int, player: int,
    decision: int,
) -> np.ndarray:  # fmt: skip
    """The row past ``rows_of.offset[decision]`` of each of ``player``'s private states in
    the exact game's stage: ``rows_of`` (a layout, or a bot's table) reads the hand's
    ``bucket`` times ``recall[decision]`` plus the latest gift's rank at a betting decision,
    ``exchange_row`` at an exchange; every line of a decision point, and every point of one kind in
    a stage, has the same rows. Recall "perfect" numbers each state's history."""
    stage, size = game.stages[stage_index], len(layout.deck)
    keys = stage.state_keys[player]
    if getattr(rows_of, "recall_mode", "swap") == "perfect":
        return np.array([
            rows_of.information_set(decision, (), -1, tuple(k)) - rows_of.offset[decision]
            for k in keys.tolist()
        ])  # fmt: skip
    local = layout.position[np.asarray(stage.state_hands[player], dtype=np.int64)]
    cells = (local[:, 0] * size + local[:, 1]) * size + local[:, 2]
    if rows_of.exchange[decision]:
        return rows_of.exchange_row[cells]
    multiple = int(rows_of.recall[decision])
    rows = rows_of.bucket[cells] * multiple
    if multiple > 1:
        gifts = np.array([latest_gift(stage.patterns, tuple(k)) for k in keys.tolist()])
        rows = rows + layout.rank[layout.position[gifts]]
    return rows


def layout_strategy(
    rows_of: Any, layout: RecallLayout, game: ExchangeGame, strategy: np.ndarray,
    player: int | None = None,
) -> dict[tuple, np.ndarray]:  # fmt: skip
    """The exact game's strategy (each decision point's (lines, states, actions)) in which
    each private state plays its row of ``strategy`` as ``rows_of`` indexes it (see
    :func:`state_rows`); with ``player``, that player's decision points only."""
    out: dict[tuple, np.ndarray] = {}
    cached: dict[tuple[int, int, bool], np.ndarray] = {}
    for key, (lines, _, actions) in ExchangeSolver.shapes(game).items():
        r, s, point = key
        q = deciding_player(game, key)
        if player is not None and q != player:
            continue
        decisions = np.array([layout.decision_of[(r, s, point, n)] for n in range(lines)])
        kind = (s, q, bool(rows_of.exchange[decisions[0]]))
        if kind not in cached:
            cached[kind] = state_rows(rows_of, layout, game, s, q, int(decisions[0]))
        rows = rows_of.offset[decisions][:, None] + cached[kind][None, :]
        out[key] = strategy[rows, :actions]
    return out
