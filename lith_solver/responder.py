"""A best response to a frozen heads-up Lith bot on the game with exchanges, on any deck.

The responder alone minimises regret against the bot (external-sampling MCCFR with linear
weighting; the bot's strategy never changes): the responder's average strategy then earns,
within its information, what a best response earns. Each traversal samples the deal and the
deck's order, walks every action of the responder and one action of the bot, drawn from the
bot's real probabilities.

The bot is a table (:class:`BotTable`): its action probabilities in flat rows, and which row
each hand it may hold plays at every public decision (an ``abstract:`` bot's rows are its
equity buckets, or its recall "swap" rows, read straight from its file). A mixture that draws
one bot a hand (a PSRO mixture) is its members' tables stacked, a member drawn each deal: the
response is to the mixture itself, not to a bot mixing at every decision.

The responder knows what recall "swap" of :mod:`lith_solver.recall_layout` keeps (its hand's
bucket, ``buckets`` of them and finer than the bots', and the rank of the card it gave in the
latest swap; its exact hand at an exchange), or everything with recall "perfect" on small
decks. Its strategy is a lower bound on the best response; the played figure
(:mod:`training.best_response`) is what counts.
"""

from __future__ import annotations

import json
import math
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
    PublicTree,
    one_round_config,
)
from lith_solver.buckets import hand_cells
from lith_solver.checkpoint import rules_json
from lith_solver.mccfr import (
    DEALT,
    NOTHING_PENDING,
    ROOT,
    exchanged,
    gifts_after,
    hand_index,
    regret_strategy,
    showdown_sign,
    sort3,
)
from lith_solver.one_round import OneRoundGame
from lith_solver.recall_layout import RecallLayout, layout_rows

__all__ = [
    "FORMAT",
    "POLICIES",
    "BotTable",
    "ResponderSolver",
    "hand_rows",
    "load_response",
    "mean_interval",
    "save_response",
]

PRUNE_AFTER = 100  # iterations walked in full before pruning starts
POLICIES = ("average", "current")
RESPONDER_RECALLS = ("swap", "perfect")  # what it recalls: its exact hand at an exchange


@dataclass(frozen=True)
class BotTable:
    """A frozen bot: ``strategy`` (rows, 4) and where each hand's row is, as a
    :class:`RecallLayout` of recall "swap" or "gift" says: public decision ``d``'s rows start
    at ``offset[d]``; at a betting decision a hand plays ``bucket[cell] * recall[d]`` (plus the
    rank of the card it gave in the latest swap where ``recall[d]`` is 13), at an exchange
    (``exchange[d]``) ``exchange_row[cell]``; ``cell`` is the hand's three deck positions' index
    among size**3 (-1 where no hand).

    A mixture of bots that draws one member a hand (a PSRO mixture) stacks its members' rows,
    all laid out alike: member ``m``'s start ``m * member_rows`` further, drawn with
    probability ``weights[m]`` at each deal."""

    strategy: np.ndarray
    offset: np.ndarray
    bucket: np.ndarray
    exchange_row: np.ndarray
    recall: np.ndarray
    exchange: np.ndarray
    weights: np.ndarray = field(default_factory=lambda: np.ones(1))
    member_rows: int = 0

    @classmethod
    def dense(
        cls, strategy: np.ndarray, row: np.ndarray, weights: np.ndarray | None = None
    ) -> BotTable:
        """A bot that plays ``strategy[d, row[cell]]`` (public decisions, rows, 4) at every
        decision, an exchange too (recall "hand": an ``abstract:`` bot's buckets). With
        ``weights``, ``strategy`` is (members, decisions, rows, 4): a mixture drawing member
        ``m`` with probability ``weights[m]`` for each hand."""
        if weights is None:
            weights, strategy = np.ones(1), strategy[None]
        members, decisions, rows, width = strategy.shape
        return cls(
            strategy.reshape(members * decisions * rows, width), np.arange(decisions) * rows,
            row, row, np.ones(decisions, dtype=np.int64), np.zeros(decisions, dtype=bool),
            member_weights(weights, members), decisions * rows,
        )  # fmt: skip

    @classmethod
    def by_hand(
        cls, strategy: np.ndarray, config: LithConfig, weights: np.ndarray | None = None
    ) -> BotTable:
        """A dense table with a row for every hand of ``config``'s deck, in ``OneRoundGame``
        order (what :func:`lith_solver.agent_strategy.public_tree_strategy` reads); with
        ``weights``, a mixture's members' tables stacked (see :meth:`dense`)."""
        return cls.dense(strategy, hand_rows(config), weights)

    @classmethod
    def of_layout(cls, layout: RecallLayout, strategy: np.ndarray) -> BotTable:
        """A bot of recall "swap" or "gift" (:mod:`lith_solver.swap_abstraction`): its
        ``strategy``'s rows are ``layout``'s."""
        if layout.recall_mode not in ("swap", "gift"):
            raise ValueError(f"bot: a table of recall swap or gift, not {layout.recall_mode!r}")
        return cls(
            strategy, layout.offset, layout.bucket, layout.exchange_row, layout.recall,
            layout.exchange,
        )  # fmt: skip

    @property
    def decisions(self) -> int:
        return len(self.offset)

    @property
    def members(self) -> int:
        return len(self.weights)

    def member(self, m: int) -> BotTable:
        """Member ``m`` of a mixture alone (a bot alone: itself)."""
        if not 0 <= m < self.members:
            raise ValueError(f"bot: no member {m} in a mixture of {self.members}")
        rows = self.member_rows or len(self.strategy)
        strategy = self.strategy[m * rows : (m + 1) * rows]
        return replace(self, strategy=strategy, weights=np.ones(1), member_rows=0)

    def offsets(self) -> np.ndarray:
        """(members, decisions): where each member's rows of each decision start."""
        return self.offset[None, :] + self.member_rows * np.arange(self.members)[:, None]

    def row_of(self, decision: int, cell: int, rank: int = 0) -> int:
        """The row a hand (``cell``: its deck positions' index) plays at public ``decision``,
        ``rank`` that of the card it gave in the latest swap (read where ``recall`` is 13); in
        a mixture, member 0's (:meth:`member` gives the others)."""
        if self.exchange[decision]:
            return int(self.offset[decision] + self.exchange_row[cell])
        extra = rank if self.recall[decision] > 1 else 0
        return int(self.offset[decision] + self.bucket[cell] * self.recall[decision] + extra)


def hand_order_cells(config: LithConfig) -> np.ndarray:
    """Each hand's cell (its deck positions' index among size**3), in ``OneRoundGame`` order:
    the order of a table by hand's rows."""
    return hand_cells(OneRoundGame(one_round_config(config)))[3]


def hand_rows(config: LithConfig) -> np.ndarray:
    """Each hand's row in a table by hand (``OneRoundGame`` order), indexed by its deck
    positions' cell among size**3 (-1 where no hand); the inverse of :func:`hand_order_cells`."""
    cells = hand_order_cells(config)
    row = np.full(len(config.deck) ** 3, -1, dtype=np.int64)
    row[cells] = np.arange(len(cells))
    return row


def by_hand_shape(config: LithConfig) -> tuple[int, int, int]:
    """The shape of a table by hand on ``config``'s rules: (decisions, hands, 4)."""
    return (len(PublicTree(config).decisions), math.comb(len(config.deck), 3), 4)


def member_weights(weights: Any, members: int) -> np.ndarray:
    """A mixture's ``weights``, checked: one per member, finite, at least 0, summing to 1."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (members,):
        raise ValueError(f"bot: {members} members need {members} weights, got {weights.shape}")
    if not np.isfinite(weights).all() or (weights < 0).any() or abs(weights.sum() - 1) > 1e-6:
        raise ValueError(f"bot: a mixture's weights must be >= 0 and sum to 1, got {weights}")
    return weights


# ---------------------------------------------------------------------------------------------
# The compiled traversal


# Typed, as mccfr.ROOT is: with literals, learning and playing would compile two traversals more.
LEARN, PLAY = np.bool_(True), np.bool_(False)


# Not cached: numba's cache reloads a recursive function wrongly (see abstraction.py).
@njit
def _respond(
    node, p, hands, order, top, pending, ranks, history, reach, kind, player, width, child,
    decision, paid, position, size, strengths, bot, bucket, hand_id,
    card_rank, offset, recall, exchange, regrets, sums, average, learn, weight, prune,
):  # fmt: skip  # pragma: no cover - compiled
    """The value to the responder (position ``p``) of ``node``. ``ranks``: that of the card
    each position gave in the latest swap; ``bot``: the :class:`BotTable`'s arrays in field
    order (of the member drawn); ``history``: its private history's number (recall "perfect"),
    else -1. With ``learn``, regret matching plays and both tables are
    updated (times ``weight``, the average's also times the responder's ``reach``); without,
    it plays ``average`` (normalised rows). While learning, an action regret matching does not
    play whose regret is below ``prune`` is not walked (its regret waits for a traversal
    that walks it): the node's value is unchanged, as the action's weight is zero."""
    k = kind[node]
    if k == FOLD:
        return -paid[node, p] if player[node] == p else paid[node, 1 - p]
    if k == SHOWDOWN:
        return paid[node, p] * showdown_sign(hands, p, strengths, position, size)
    q, d, n = player[node], decision[node], width[node]
    sigma = np.empty(n)
    i = -1
    if q != p:  # the bot: one action drawn from its probabilities
        bot_strategy, bot_offset, bot_bucket, bot_exchange_row, bot_recall, bot_exchange = bot
        cell = hand_index(hands[q], position, size)
        if bot_exchange[d]:
            row = bot_offset[d] + bot_exchange_row[cell]
        else:
            row = bot_offset[d] + bot_bucket[cell] * bot_recall[d]
            if bot_recall[d] > 1:
                row += ranks[q]
        total = 0.0
        for a in range(n):
            sigma[a] = bot_strategy[row, a]
            total += sigma[a]
        draw, chosen, cumulative = np.random.random() * total, 0, sigma[0]  # noqa: NPY002
        while draw >= cumulative and chosen < n - 1:
            chosen += 1
            cumulative += sigma[chosen]
        first, last = chosen, chosen + 1
    else:
        h = hand_index(hands[p], position, size)
        if history >= 0:
            i = offset[d] + history
        elif exchange[d]:
            i = offset[d] + hand_id[h]
        else:
            i = offset[d] + bucket[h] * recall[d] + (ranks[p] if recall[d] > 1 else 0)
        if learn:
            regret_strategy(regrets, i, 0, n, sigma)
            for a in range(n):
                sums[i, a] += weight * reach * sigma[a]
        else:
            for a in range(n):
                sigma[a] = average[i, a]
        first, last = 0, n
    values = np.zeros(n)
    for a in range(first, last):
        if q == p and sigma[a] == 0.0 and (not learn or regrets[i, 0, a] < prune):
            continue
        next_hands, next_top, next_pending, next_ranks = hands, top, pending, ranks
        next_history = history
        if k == X0:
            next_pending = a
        elif X1_KEEP <= k <= X1_DISCARD:  # the dealer decided: the exchange happens
            next_hands, next_top, got = exchanged(hands, order, top, pending, a)
            next_pending = 0
            next_ranks = gifts_after(ranks, got, pending, a, card_rank, position)
            if history >= 0:  # what it learned: its own action and the card it got
                own = pending if p == 0 else a
                received = position[got[p]] + 1 if got[p] >= 0 else 0
                next_history = (history * 4 + own) * (size + 1) + received
        next_reach = reach * sigma[a] if q == p else reach
        values[a] = _respond(
            child[node, a], p, next_hands, order, next_top, next_pending, next_ranks,
            next_history, next_reach, kind, player, width, child,
            decision, paid, position, size, strengths, bot, bucket, hand_id,
            card_rank, offset, recall, exchange, regrets, sums, average, learn, weight, prune,
        )  # fmt: skip
        if q != p:
            return values[a]
    v = 0.0
    for a in range(n):
        v += sigma[a] * values[a]
    if learn:
        for a in range(n):
            if sigma[a] > 0.0 or regrets[i, 0, a] >= prune:
                regrets[i, 0, a] += weight * (values[a] - v)
    return v


@njit
def _member(bot):  # pragma: no cover - compiled
    """The arrays :func:`_respond` reads of the mixture member drawn for a deal (``bot``: the
    table's arrays with every member's offsets and the weights' running sums); a bot alone
    draws nothing, so its random stream is what it was before mixtures."""
    strategy, offsets, bucket, exchange_row, recall, exchange, cumulative = bot
    m = 0
    if cumulative.shape[0] > 1:
        draw = np.random.random() * cumulative[-1]  # noqa: NPY002 (numba)
        while m < cumulative.shape[0] - 1 and draw >= cumulative[m]:
            m += 1
    return strategy, offsets[m], bucket, exchange_row, recall, exchange


@njit
def _deal(order, hands):  # pragma: no cover - compiled
    for i in range(3):  # dealt one at a time from the dealer's left
        hands[0, i] = order[2 * i]
        hands[1, i] = order[2 * i + 1]
    sort3(hands[0])
    sort3(hands[1])


@njit
def _iterations(
    first, count, traversals, seed, deck, kind, player, width, child, decision, paid,
    position, strengths, bot, bucket, hand_id, card_rank, offset, recall,
    exchange, perfect, regrets, sums, prune,
):  # fmt: skip  # pragma: no cover - compiled
    """Iterations ``first`` to ``first + count - 1``, each seeded from (``seed``, its number):
    the responder traverses ``traversals`` sampled deals in each position. With ``prune`` > 0,
    past ``PRUNE_AFTER`` iterations, 95% of traversals skip the actions whose regret is below
    ``-prune * t**2 / 2`` (about ``prune`` chips an iteration behind)."""
    hands = np.empty((2, 3), dtype=np.int64)
    ranks = np.zeros(2, dtype=np.int64)
    size = deck.shape[0]
    for t in range(first, first + count):
        np.random.seed((seed * 1_000_003 + t) % 4_294_967_296)  # noqa: NPY002 (numba)
        for p in range(2):
            for _ in range(traversals):
                member = _member(bot)
                order = np.random.permutation(deck)  # noqa: NPY002 (numba)
                _deal(order, hands)
                history = hand_id[hand_index(hands[p], position, size)] if perfect else -1
                below = -np.inf
                # Drawn only when pruning, so that a run without it keeps its random stream.
                if prune > 0.0 and t > PRUNE_AFTER and np.random.random() < 0.95:  # noqa: NPY002
                    below = -prune * t * t / 2  # linear weighting: a steady lag of prune
                _respond(
                    ROOT, p, hands, order, DEALT, NOTHING_PENDING, ranks, history, 1.0, kind,
                    player, width, child, decision, paid, position, size, strengths, member, bucket,
                    hand_id, card_rank, offset, recall, exchange, regrets, sums, sums, LEARN,
                    float(t), below,
                )  # fmt: skip


@njit
def _values(
    samples, p, seed, deck, kind, player, width, child, decision, paid, position, strengths,
    bot, bucket, hand_id, card_rank, offset, recall, exchange, perfect, average,
):  # fmt: skip  # pragma: no cover - compiled
    """The responder's value in position ``p`` on each of ``samples`` sampled deals, playing
    ``average`` (every action of its own weighed, one of the bot's drawn)."""
    np.random.seed(seed)  # noqa: NPY002 (numba)
    hands = np.empty((2, 3), dtype=np.int64)
    out = np.empty(samples)
    ranks = np.zeros(2, dtype=np.int64)
    empty = np.zeros((1, 1, 1))
    for s in range(samples):
        member = _member(bot)
        order = np.random.permutation(deck)  # noqa: NPY002 (numba)
        _deal(order, hands)
        history = hand_id[hand_index(hands[p], position, deck.shape[0])] if perfect else -1
        out[s] = _respond(
            ROOT, p, hands, order, DEALT, NOTHING_PENDING, ranks, history, 1.0, kind, player,
            width, child, decision, paid, position, deck.shape[0], strengths, member, bucket,
            hand_id, card_rank, offset, recall, exchange, empty, average, average, PLAY, 0.0,
            -np.inf,
        )  # fmt: skip
    return out


class ResponderSolver:
    """The responder's regrets and average over its information sets (:class:`RecallLayout`)
    against one frozen bot (:class:`BotTable`), or a mixture drawing a member each deal."""

    def __init__(
        self,
        layout: RecallLayout,
        bot: BotTable,
        seed: int = 0,
        traversals: int = 100,
        prune: float = 0.0,
    ) -> None:
        """``prune``: chips an iteration an action must lag behind to be skipped in most
        traversals (0: every action walked)."""
        if isinstance(prune, bool) or not isinstance(prune, int | float) or not prune >= 0:
            raise ValueError(f"prune: must be a number of chips >= 0, got {prune!r}")
        if layout.recall_mode not in RESPONDER_RECALLS:
            raise ValueError(
                f"layout: the responder recalls swap or perfect, not {layout.recall_mode!r}"
            )
        decisions = len(layout.tree.decisions)
        if bot.decisions != decisions:
            raise ValueError(
                f"bot: its table has {bot.decisions} public decisions, not these rules' {decisions}"
            )
        if bot.strategy.ndim != 2 or bot.strategy.shape[1] != WIDTH:
            raise ValueError(f"bot: its table has shape {bot.strategy.shape}, not (rows, {WIDTH})")
        if bot.bucket.shape != layout.bucket.shape or bot.exchange_row.shape != layout.bucket.shape:
            raise ValueError("bot: its rows are not indexed by this deck's hands")
        self.layout, self.bot, self.seed, self.traversals = layout, bot, seed, traversals
        self._bot = (
            bot.strategy,
            bot.offsets(),
            bot.bucket,
            bot.exchange_row,
            bot.recall,
            bot.exchange,
            np.cumsum(bot.weights),
        )  # what the compiled traversal reads
        self.prune = float(prune)
        self.regrets = np.zeros((layout.rows, 1, WIDTH))
        self.sums = np.zeros((layout.rows, WIDTH))
        self.iterations = 0

    def _shared(self) -> tuple:
        lay, tree = self.layout, self.layout.tree
        return (
            tree.kind, tree.player, tree.width, tree.child, tree.decision, tree.paid,
            lay.position, lay.strengths, self._bot, lay.bucket,
            lay.hand_id, lay.rank, lay.offset, lay.recall, lay.exchange,
            lay.recall_mode == "perfect",
        )  # fmt: skip

    def iterate(self, count: int) -> None:
        """``count`` more iterations (each: ``traversals`` deals in each position)."""
        if count <= 0:
            return
        _iterations(
            self.iterations + 1, count, self.traversals, self.seed, self.layout.deck,
            *self._shared(), self.regrets, self.sums, self.prune,
        )  # fmt: skip
        self.iterations += count

    def average_strategy(self) -> np.ndarray:
        """(rows, 4): the average's probabilities (uniform where a row was never reached)."""
        return self._rows(self.sums)

    def current_strategy(self) -> np.ndarray:
        """(rows, 4): what regret matching plays now (uniform where no regret is positive).
        Against a frozen bot it is often better than the average early on."""
        return self._rows(np.maximum(self.regrets[:, 0, :], 0.0))

    def strategy(self, policy: str) -> np.ndarray:
        """The ``policy`` (average or current) strategy's rows."""
        if policy not in POLICIES:
            raise ValueError(f"policy: must be average or current, got {policy!r}")
        return self.average_strategy() if policy == "average" else self.current_strategy()

    def _rows(self, weights: np.ndarray) -> np.ndarray:
        return layout_rows(self.layout, weights)

    def sampled_values(self, samples: int, seed: int, strategy: np.ndarray | None = None):
        """The responder's value in each position (chips a hand, one per sampled deal) when it
        plays ``strategy`` (default its average) against the bot."""
        average = self.average_strategy() if strategy is None else strategy
        return [
            _values(samples, p, seed + p, self.layout.deck, *self._shared(), average)
            for p in range(2)
        ]


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """The mean and its 95% normal half-width."""
    return float(values.mean()), 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))


# ---------------------------------------------------------------------------------------------
# Saved responses


FORMAT = "lith-response-1"


def save_response(out: Path, solver: ResponderSolver, info: dict[str, Any]) -> None:
    """``response.npz`` (each hand's bucket, the average and the current strategy's rows)
    and ``response.json`` (the rules, the buckets, the recall, ``info``: ``policy``, the one
    played by default)."""
    out.mkdir(parents=True, exist_ok=True)
    layout = solver.layout
    np.savez_compressed(
        out / "response.npz", bucket=layout.bucket[layout.index],
        **{policy: solver.strategy(policy).astype(np.float32) for policy in POLICIES},
    )  # fmt: skip
    record = {
        "format": FORMAT, "config": rules_json(layout.config), "buckets": layout.buckets,
        "recall": layout.recall_mode, "policy": "average",
        "iterations": solver.iterations, "seed": solver.seed, "traversals": solver.traversals,
        **info,
    }  # fmt: skip
    (out / "response.json").write_text(json.dumps(record, indent=2) + "\n")


def load_response(
    directory: str | Path, policy: str | None = None
) -> tuple[RecallLayout, np.ndarray, dict[str, Any]]:
    """The layout, the rows of the ``policy`` strategy (default: the record's) and the record
    of a saved response; a missing or corrupt file is a ``ValueError`` naming it."""
    directory = Path(directory)
    if policy is not None and policy not in POLICIES:
        raise ValueError(f"response: policy must be average or current, got {policy!r}")
    record_path, arrays_path = directory / "response.json", directory / "response.npz"
    for path in (record_path, arrays_path):
        if not path.is_file():
            raise ValueError(f"response: no {path.name} in {str(directory)!r}")
    try:
        record = json.loads(record_path.read_text())
        if record.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        policy = policy or record["policy"]
        config = LithConfig(**record["config"])
        if record["recall"] not in RESPONDER_RECALLS:
            raise ValueError(f"recall: must be swap or perfect, got {record['recall']!r}")
        layout = RecallLayout(config, int(record["buckets"]), record["recall"])
        with np.load(arrays_path) as arrays:
            bucket, rows = arrays["bucket"], np.asarray(arrays[policy], dtype=np.float64)
        if not np.array_equal(bucket, layout.bucket[layout.index]):
            raise ValueError("its buckets are not these rules' equity buckets")
        if rows.shape != (layout.rows, WIDTH) or not np.isfinite(rows).all():
            raise ValueError(f"{policy} has shape {rows.shape}, not ({layout.rows}, {WIDTH})")
        if (rows < 0).any():
            raise ValueError("a negative probability")
    except (ValueError, KeyError, TypeError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"response: {str(directory)!r} is corrupt: {error}") from None
    return layout, rows, record
