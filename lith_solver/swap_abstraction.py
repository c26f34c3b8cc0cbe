"""External-sampling MCCFR for heads-up limit Lith with exchanges, with recall "swap": each
player remembers what the responder of :mod:`lith_solver.responder` remembers (or, with
recall "gift", as much at a betting decision and only its hand's bucket at an exchange).

- At a betting decision: the equity bucket of the hand it holds now and, after a swap, the
  rank of the card it gave in the latest one (its opponent holds that card now).
- At an exchange: its exact hand, so that which card it gives is decided card by card (with
  recall "hand" one bucket's row gives "the second card" of every hand in the bucket).

Both players read the same :class:`lith_solver.recall_layout.RecallLayout`, which numbers
these information sets; the traversal is ``lith_solver.abstract_exchanges``' (one sampled
deal and deck order, every action of the traverser, one of the opponent, linear weighting),
with a flat table of rows in place of (decision, bucket). The strategy is measured exactly on
decks the exact solver holds, as the other recalls are.

Where it pays: small decks, where every hand's rows are visited often
(``experiments/bench_recall.toml``). On the full game its 17 million rows (50 buckets; 13
million of them an exact hand at one of 999 exchange decisions) learn far slower than recall
hand's 0.7 million: after 8,000 iterations it still lost to ``tag`` by 111 chips/100 hands,
where recall hand was even after 4,000 (``docs/equilibrium_methods.md``). Recall "gift"
keeps the gift's rank at betting with recall hand's exchange rows, 0.9 million rows in all.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

from lith_env.game import LithConfig
from lith_solver.abstract_exchanges import (
    FOLD,
    SHOWDOWN,
    WIDTH,
    X0,
    X1_DISCARD,
    X1_KEEP,
    ExactlyMeasured,
)
from lith_solver.buckets import BUCKETINGS
from lith_solver.checkpoint import rules_json
from lith_solver.exchanges import ExchangeGame
from lith_solver.mccfr import (
    DEALT,
    NOTHING_PENDING,
    ROOT,
    check_average_power,
    exchanged,
    gifts_after,
    hand_index,
    regret_strategy,
    regret_update,
    sampled_action,
    showdown_sign,
    sort3,
)
from lith_solver.recall_layout import RecallLayout, latest_gift, layout_rows, layout_strategy
from lith_solver.solutions import as_probabilities

__all__ = [
    "FORMAT",
    "RECALLS",
    "SwapAbstractSolver",
    "SwapAbstraction",
    "load_swap_abstract",
    "save_swap_abstract",
]

FORMAT = "lith-abstract-swap-1"
RECALLS = ("swap", "gift")  # the recalls of RecallLayout this solver plays


# Not cached: numba's cache reloads a recursive function wrongly (see abstraction.py).
@njit
def _traverse(
    node, p, hands, order, top, pending, ranks, kind, player, width, child, decision, paid,
    position, size, bucket, hand_id, card_rank, offset, recall, exchange, strengths, regrets,
    sums, weight, average_weight,
):  # fmt: skip  # pragma: no cover - compiled
    """The value to ``p`` of ``node``: ``hands`` (2, 3) sorted, ``order`` the undealt cards
    in deck order from ``top``, ``pending`` the first player's exchange action (0 keep),
    ``ranks`` the rank of the card each player gave in the latest swap."""
    k = kind[node]
    if k == FOLD:
        return -paid[node, p] if player[node] == p else paid[node, 1 - p]
    if k == SHOWDOWN:
        return paid[node, p] * showdown_sign(hands, p, strengths, position, size)
    q, d, n = player[node], decision[node], width[node]
    h = hand_index(hands[q], position, size)
    if exchange[d]:
        i = offset[d] + hand_id[h]
    else:
        i = offset[d] + bucket[h] * recall[d] + (ranks[q] if recall[d] > 1 else 0)
    sigma = np.empty(n)
    regret_strategy(regrets, i, 0, n, sigma)
    values = np.zeros(n)
    chosen = sampled_action(sums, i, 0, sigma, average_weight) if q != p else -1
    for a in range(n):
        if q != p and a != chosen:
            continue
        next_hands, next_top, next_pending, next_ranks = hands, top, pending, ranks
        if k == X0:
            next_pending = a
        elif X1_KEEP <= k <= X1_DISCARD:  # the dealer decided: the exchange happens
            next_hands, next_top, got = exchanged(hands, order, top, pending, a)
            next_pending = 0
            next_ranks = gifts_after(ranks, got, pending, a, card_rank, position)
        values[a] = _traverse(
            child[node, a], p, next_hands, order, next_top, next_pending, next_ranks, kind,
            player, width, child, decision, paid, position, size, bucket, hand_id, card_rank,
            offset, recall, exchange, strengths, regrets, sums, weight, average_weight,
        )  # fmt: skip
        if q != p:
            return values[a]
    return regret_update(regrets, i, 0, sigma, values, weight)


@njit
def _iterations(
    first, count, traversals, seed, deck, kind, player, width, child, decision, paid, position,
    bucket, hand_id, card_rank, offset, recall, exchange, strengths, regrets, sums,
    average_power,
):  # fmt: skip  # pragma: no cover - compiled
    """Iterations ``first`` to ``first + count - 1``, each seeded from (``seed``, its
    number): each player traverses ``traversals`` sampled deals and deck orders."""
    size = deck.shape[0]
    hands = np.empty((2, 3), dtype=np.int64)
    ranks = np.zeros(2, dtype=np.int64)
    for t in range(first, first + count):
        np.random.seed((seed * 1_000_003 + t) % 4_294_967_296)  # noqa: NPY002 (numba)
        for p in range(2):
            for _ in range(traversals):
                order = np.random.permutation(deck)  # noqa: NPY002 (numba)
                for i in range(3):  # dealt one at a time from the dealer's left
                    hands[0, i] = order[2 * i]
                    hands[1, i] = order[2 * i + 1]
                sort3(hands[0])
                sort3(hands[1])
                _traverse(
                    ROOT, p, hands, order, DEALT, NOTHING_PENDING, ranks, kind, player, width,
                    child, decision, paid, position, size, bucket, hand_id, card_rank, offset,
                    recall, exchange, strengths, regrets, sums, float(t),
                    float(t) ** average_power,
                )  # fmt: skip


class SwapAbstractSolver(ExactlyMeasured):
    """External-sampling MCCFR with linear weighting, both players on a
    :class:`RecallLayout` of recall ``recall``, "swap" or "gift" (``buckets`` equity buckets
    at betting)."""

    CHUNK = 50

    def __init__(
        self,
        config: LithConfig,
        buckets: int,
        seed: int = 0,
        traversals: int = 1000,
        average_power: float = 1.0,
        recall: str = "swap",
        bucketing: str = "equity",
    ) -> None:
        """``bucketing``: how the hands are grouped (:mod:`lith_solver.buckets`)."""
        check_average_power(average_power)
        if recall not in RECALLS:
            raise ValueError(f"recall: must be {' or '.join(RECALLS)}, got {recall!r}")
        if config.rounds not in (2, 3):
            raise ValueError(
                f"rounds: this is the game with exchanges (2 or 3), got {config.rounds}"
            )
        self.config, self.buckets, self.seed, self.traversals = config, buckets, seed, traversals
        self.average_power = float(average_power)
        self.layout = RecallLayout(config, buckets, recall, bucketing, seed)
        self.bucketing = bucketing
        self.tree = self.layout.tree
        self.recall = recall
        self.regrets = np.zeros((self.layout.rows, 1, WIDTH))
        self.sums = np.zeros((self.layout.rows, 1, WIDTH))
        self.iterations = 0

    def iterate(self, count: int) -> None:
        lay, tree = self.layout, self.tree
        while count > 0:
            step = min(count, self.CHUNK)
            _iterations(
                self.iterations + 1, step, self.traversals, self.seed, lay.deck, tree.kind,
                tree.player, tree.width, tree.child, tree.decision, tree.paid, lay.position,
                lay.bucket, lay.exchange_row, lay.rank, lay.offset, lay.recall, lay.exchange,
                lay.strengths, self.regrets, self.sums, self.average_power,
            )  # fmt: skip
            self.iterations += step
            count -= step

    def average_strategy(self) -> np.ndarray:
        """(rows, 4): the average strategy; where a row never was the opponent's on a sampled
        path (the average has no weight there: many rows of an exact hand at the second
        exchange), the current strategy, which every traversal of that player updates."""
        average = self.sums[:, 0, :].copy()
        unweighted = average.sum(axis=1) == 0
        average[unweighted] = np.maximum(self.regrets[unweighted, 0, :], 0.0)
        return self._rows(average)

    def current_strategy(self) -> np.ndarray:
        """(rows, 4): regret matching's strategy now (uniform where no regret is positive)."""
        return self._rows(np.maximum(self.regrets[:, 0, :], 0.0))

    def _rows(self, weights: np.ndarray) -> np.ndarray:
        return layout_rows(self.layout, weights)

    def sampled_values(self, player: int, samples: int, seed: int) -> np.ndarray:
        """``player``'s value of the current strategy on ``samples`` sampled deals and deck
        orders, one a sample, by the compiled traversal with nothing learned (an independent
        check of the rows :func:`lith_solver.recall_layout.layout_strategy` gives)."""
        lay, tree = self.layout, self.tree
        rng = np.random.default_rng(seed)
        np.random.seed(seed)  # noqa: NPY002 - the compiled traversal's own draws
        regrets, sums = self.regrets.copy(), np.zeros_like(self.sums)
        hands, ranks = np.empty((2, 3), dtype=np.int64), np.zeros(2, dtype=np.int64)
        values = np.empty(samples)
        for i in range(samples):
            order = rng.permutation(lay.deck)
            hands[0], hands[1] = np.sort(order[[0, 2, 4]]), np.sort(order[[1, 3, 5]])
            values[i] = _traverse(
                0, player, hands, order, 6, 0, ranks, tree.kind, tree.player, tree.width,
                tree.child, tree.decision, tree.paid, lay.position, len(lay.deck), lay.bucket,
                lay.exchange_row, lay.rank, lay.offset, lay.recall, lay.exchange, lay.strengths,
                regrets, sums, 0.0, 0.0,
            )  # fmt: skip
        return values

    def exact_profile(self, game: ExchangeGame, strategy: np.ndarray) -> dict[tuple, np.ndarray]:
        return layout_strategy(self.layout, self.layout, game, strategy)


def save_swap_abstract(out: Path, solver: SwapAbstractSolver, info: dict) -> None:
    """``abstraction.npz`` (each hand's bucket, both strategies' rows) and
    ``abstraction.json`` (the rules, the buckets, ``info``)."""
    out.mkdir(parents=True, exist_ok=True)
    lay = solver.layout
    np.savez_compressed(
        out / "abstraction.npz", hands=lay.hands, bucket=lay.bucket[lay.index],
        average=solver.average_strategy().astype(np.float32),
        current=solver.current_strategy().astype(np.float32),
    )  # fmt: skip
    record = {
        "format": FORMAT, "config": rules_json(solver.config), "buckets": solver.buckets,
        "iterations": solver.iterations, "seed": solver.seed, "traversals": solver.traversals,
        "average_power": solver.average_power, "recall": solver.recall, "rows": lay.rows,
        "bucketing": solver.bucketing, **info,
    }  # fmt: skip
    (out / "abstraction.json").write_text(json.dumps(record, indent=2) + "\n")


class SwapAbstraction:
    """A saved strategy of recall "swap" or "gift", read without the exact game (so on any
    deck): its :class:`RecallLayout` and ``strategy`` (rows, 4)."""

    def __init__(self, layout: RecallLayout, strategy: np.ndarray) -> None:
        self.layout, self.strategy = layout, strategy
        self.recall = layout.recall_mode
        self.config, self.tree, self.decision_of = layout.config, layout.tree, layout.decision_of

    def strategy_at(
        self, decision: int, hand: tuple[int, ...], patterns: tuple[str, ...],
        deal_key: tuple[int, ...],
    ) -> np.ndarray:  # fmt: skip
        """The probabilities of the private state holding ``hand`` (its history: the
        exchanges' public ``patterns`` and ``deal_key``) at public ``decision``."""
        gift = latest_gift(patterns, deal_key)
        return self.strategy[self.layout.information_set(decision, hand, gift)]


def load_swap_abstract(directory: Path, record: dict, policy: str) -> SwapAbstraction:
    """The saved ``policy`` (average or current) of a folder of this format; a corrupt file
    is a ``ValueError`` naming it."""
    path = directory / "abstraction.npz"
    try:
        recall = record.get("recall", "swap")
        if recall not in RECALLS:
            raise ValueError(f"recall: must be {' or '.join(RECALLS)}, got {recall!r}")
        bucketing = record.get("bucketing", "equity")
        if bucketing not in BUCKETINGS:
            raise ValueError(f"bucketing: must be {' or '.join(BUCKETINGS)}, got {bucketing!r}")
        config, buckets = LithConfig(**record["config"]), int(record["buckets"])
        with np.load(path) as arrays:
            # An exchange bucketing is read from the file: k-means need not repeat to the bit
            # on another machine. The equity buckets are the rules' own.
            kept = np.asarray(arrays["bucket"]) if bucketing == "exchange" else None
            layout = RecallLayout(config, buckets, recall, hand_bucket=kept)
            if not np.array_equal(arrays["hands"], layout.hands):
                raise ValueError("its hands are not the hands of its rules")
            if not np.array_equal(arrays["bucket"], layout.bucket[layout.index]):
                raise ValueError("its buckets are not these rules' equity buckets")
            if policy not in arrays.files:
                raise ValueError(f"it keeps no {policy} strategy (only {', '.join(arrays.files)})")
            strategy = as_probabilities(arrays[policy])
        if strategy.shape != (layout.rows, WIDTH) or not np.isfinite(strategy).all():
            raise ValueError(f"{policy} has shape {strategy.shape}, not ({layout.rows}, {WIDTH})")
        if (strategy < 0).any():
            raise ValueError("a negative probability")
    except (ValueError, KeyError, TypeError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"abstract: {str(path)!r} is corrupt: {error}") from None
    return SwapAbstraction(layout, strategy)
