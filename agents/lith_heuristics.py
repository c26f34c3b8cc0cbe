"""Built-in Lith agents: ``caller``, ``rock``, ``tag`` and ``bluffer``.

They read only their seat's observation vector (:func:`lith_env.encoding.read`) and mask. All
of them exchange the same way: discard the card whose replacement maximizes the expected
strength percentile over the cards they have not seen (:func:`lith_env.exchange.best_discard`),
and keep when no discard improves the hand.

Betting reads the hand's strength percentile, discounted for the number of live opponents
(``percentile ** opponents``, the chance of beating that many random hands if they were
independent), against per-round thresholds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from lith_env import encoding
from lith_env.cards import NUM_CARDS
from lith_env.encoding import read
from lith_env.exchange import best_discard, role_percentile, unseen_cards
from lith_env.game import LithConfig
from tablegame.registry import register

__all__ = ["TAG_BET", "TAG_CALL", "TAG_RAISE", "BluffAgent", "CallerAgent", "RockAgent", "TagAgent"]

FOLD, CHECK_CALL, FIRST_RAISE = 0, 1, 2
# tag's thresholds on the discounted percentile, per betting round
TAG_BET, TAG_RAISE, TAG_CALL = (0.7, 0.75, 0.8), (0.85, 0.88, 0.9), (0.5, 0.55, 0.6)


def _thresholds(values: float | Sequence[float], name: str) -> tuple[float, float, float]:
    if isinstance(values, int | float):
        values = (values,) * 3
    values = tuple(float(v) for v in values)
    if len(values) != 3 or not all(0 <= v <= 1 for v in values):
        raise ValueError(f"{name}: three thresholds in [0, 1], one per round, got {values!r}")
    return values  # type: ignore[return-value]


class BatchView(NamedTuple):
    """The fields of a batch of observations that the built-in agents read (rows = tables)."""

    cards: np.ndarray  # (k, 3) sorted card ids
    percentile: np.ndarray  # (k,) float64
    round: np.ndarray  # (k,) betting round 0-2, or exchange 0-1
    live_opponents: np.ndarray  # (k,)
    gave: np.ndarray  # (k, NUM_CARDS) bool: the cards I gave away in earlier exchanges


def read_batch(observations: np.ndarray) -> BatchView:
    """:func:`lith_env.encoding.read` for a batch of observations of seats holding cards."""
    k, size = observations.shape
    n = encoding.players_for_size(size)
    at = encoding.field_offsets(n)
    own = observations[:, at.own : at.own + NUM_CARDS] > 0.5
    cards = np.nonzero(own)[1].reshape(k, 3)
    phase = np.argmax(observations[:, at.phase : at.phase + len(encoding.PHASES)], axis=1)
    seats = observations[:, at.seats : at.seats + 9 * n].reshape(k, n, 9)
    gave = np.zeros((k, NUM_CARDS), dtype=bool)
    for _, start, _, _, _ in at.exchanges:
        gave |= observations[:, start : start + NUM_CARDS] > 0.5
    return BatchView(
        cards=cards,
        percentile=observations[:, at.hand + encoding.HAND_FEATURES - 1].astype(np.float64),
        round=phase // 2,
        live_opponents=seats[:, 1:, 3].sum(axis=1).astype(np.int64),
        gave=gave,
    )


class LithHeuristic:
    """Shared parts: the clever exchange and reading the observation. ``act`` decides for one
    table; ``act_batch`` for many at once with array operations (the same decisions, but for
    the bluffer's coin, which comes from its own generator)."""

    needs_observation = True

    def __init__(self, seed: int | None = None, config: LithConfig | None = None) -> None:
        self.config = config or LithConfig()
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        view = read(np.asarray(observation))
        keep = len(action_mask) - 4
        if action_mask[keep]:
            return self.exchange(view, keep)
        return self.bet(view, action_mask)

    def exchange(self, view, keep: int) -> int:
        """Discard the card whose replacement maximizes expected strength, or keep."""
        config = self.config
        unseen = unseen_cards(
            view.cards,
            view.my_discards,
            in_play=config.deck,  # the table's deck: the subset of ``cards``, if any
        )
        role = config.excuse
        card = best_discard(
            view.cards, unseen, pawns_and_courts=config.pawns_and_courts, excuse=role
        )
        if card is None:
            return keep
        return keep + 1 + view.cards.index(card)

    @staticmethod
    def strength(view) -> float:
        return view.percentile ** max(1, view.live_opponents)

    # ------------------------------------------------------------------ many tables at once

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Action ids for a batch of observations (k, size) and masks (k, actions)."""
        observations, masks = np.asarray(observations), np.asarray(action_masks)
        keep = masks.shape[1] - 4
        out = np.empty(len(masks), dtype=np.int64)
        exchanging = masks[:, keep].astype(bool)
        view = read_batch(observations)
        if exchanging.any():
            out[exchanging] = self.exchange_batch(
                view.cards[exchanging], view.gave[exchanging], keep
            )
        betting = ~exchanging
        if betting.any():
            sub = BatchView(*(field[betting] for field in view))
            out[betting] = self.bet_batch(sub, masks[betting])
        return out

    def exchange_batch(self, cards: np.ndarray, gave: np.ndarray, keep: int) -> np.ndarray:
        """:meth:`exchange` for many hands: the same expected-percentile rule and arithmetic
        (rows grouped by how many cards they have not seen, so means are taken alike)."""
        config = self.config
        in_deck = np.zeros(NUM_CARDS, dtype=bool)
        in_deck[list(config.deck)] = True
        k = len(cards)
        unseen = np.broadcast_to(in_deck, (k, NUM_CARDS)) & ~gave
        unseen[np.arange(k)[:, None], cards] = False
        counts = unseen.sum(axis=1)
        out = np.full(k, keep, dtype=np.int64)
        pac, role = config.pawns_and_courts, config.excuse
        for count in np.unique(counts):
            rows = np.flatnonzero(counts == count)
            g = len(rows)
            pool = np.nonzero(unseen[rows])[1].reshape(g, count)  # ascending, as a list would be
            hands = np.empty((g, 3, count, 3), dtype=np.int64)
            for i in range(3):
                kept = np.delete(cards[rows], i, axis=1)
                hands[:, i, :, 0] = kept[:, :1]
                hands[:, i, :, 1] = kept[:, 1:]
                hands[:, i, :, 2] = pool
            values = role_percentile(hands, pac, role).mean(axis=2)
            now = role_percentile(cards[rows][:, None, :], pac, role)[:, 0]
            best = np.argmax(values, axis=1)
            better = values[np.arange(g), best] > now
            out[rows[better]] = keep + 1 + best[better]
        return out

    def bet_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        """:meth:`bet` for many tables."""
        raise NotImplementedError  # pragma: no cover - each agent defines it

    @staticmethod
    def strength_batch(view: BatchView) -> np.ndarray:
        return view.percentile ** np.maximum(1, view.live_opponents)

    @staticmethod
    def raise_ids(masks: np.ndarray, size: str = "min") -> tuple[np.ndarray, int]:
        """Whether each table may bet/raise, and the id :meth:`raise_id` would pick."""
        keep = masks.shape[1] - 4
        can = masks[:, FIRST_RAISE:keep].any(axis=1)
        return can, FIRST_RAISE if keep - FIRST_RAISE == 1 or size == "min" else FIRST_RAISE + 2

    def bet(self, view, mask: np.ndarray) -> int:  # pragma: no cover - each agent defines it
        raise NotImplementedError

    @staticmethod
    def raise_id(mask: np.ndarray, size: str = "min") -> int | None:
        """A bet/raise id: limit has one; otherwise ``min`` (id 2) or ``pot`` (id 4)."""
        keep = len(mask) - 4
        if not mask[FIRST_RAISE:keep].any():
            return None
        if keep - FIRST_RAISE == 1 or size == "min":
            return FIRST_RAISE
        return FIRST_RAISE + 2


@register("lith", "caller")
class CallerAgent(LithHeuristic):
    """Never folds, never raises: checks or calls every bet; exchanges cleverly."""

    def bet(self, view, mask: np.ndarray) -> int:
        return CHECK_CALL

    def bet_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        return np.full(len(masks), CHECK_CALL, dtype=np.int64)


@register("lith", "rock")
class RockAgent(LithHeuristic):
    """Tight-passive: never bets or raises; calls only with a strong hand, else checks or folds."""

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        call: float | Sequence[float] = (0.6, 0.65, 0.7),
    ) -> None:
        super().__init__(seed, config)
        self.call = _thresholds(call, "call")

    def bet(self, view, mask: np.ndarray) -> int:
        if not mask[FOLD]:
            return CHECK_CALL  # nothing to call: check
        return CHECK_CALL if self.strength(view) >= self.call[view.round] else FOLD

    def bet_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        calls = self.strength_batch(view) >= np.array(self.call)[view.round]
        return np.where(masks[:, FOLD].astype(bool) & ~calls, FOLD, CHECK_CALL)


@register("lith", "tag")
class TagAgent(LithHeuristic):
    """Tight-aggressive: bets strong hands, raises very strong ones, calls good ones, folds
    the rest when facing a bet (thresholds per round on the discounted percentile)."""

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        bet: float | Sequence[float] = TAG_BET,
        raise_: float | Sequence[float] = TAG_RAISE,
        call: float | Sequence[float] = TAG_CALL,
    ) -> None:
        super().__init__(seed, config)
        self.bet_at = _thresholds(bet, "bet")
        self.raise_at = _thresholds(raise_, "raise_")
        self.call_at = _thresholds(call, "call")

    def value_action(self, view, mask: np.ndarray) -> int:
        strength = self.strength(view)
        r = view.round
        facing = bool(mask[FOLD])
        raise_id = self.raise_id(mask)
        if facing:
            if strength >= self.raise_at[r] and raise_id is not None:
                return raise_id
            return CHECK_CALL if strength >= self.call_at[r] else FOLD
        if strength >= self.bet_at[r] and raise_id is not None:
            return raise_id
        return CHECK_CALL

    def bet(self, view, mask: np.ndarray) -> int:
        return self.value_action(view, mask)

    def value_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        strength = self.strength_batch(view)
        r = view.round
        facing = masks[:, FOLD].astype(bool)
        can_raise, raise_id = self.raise_ids(masks)
        raising = can_raise & (
            np.where(
                facing, strength >= np.array(self.raise_at)[r], strength >= np.array(self.bet_at)[r]
            )
        )
        calls = ~facing | (strength >= np.array(self.call_at)[r])
        return np.where(raising, raise_id, np.where(calls, CHECK_CALL, FOLD))

    def bet_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        return self.value_batch(view, masks)


@register("lith", "bluffer")
class BluffAgent(TagAgent):
    """A tag that also bets and raises weak hands, at frequency ``freq``."""

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        freq: float = 0.3,
        bet: float | Sequence[float] = TAG_BET,
        raise_: float | Sequence[float] = TAG_RAISE,
        call: float | Sequence[float] = TAG_CALL,
    ) -> None:
        super().__init__(seed, config, bet=bet, raise_=raise_, call=call)
        if not isinstance(freq, int | float) or not 0 <= freq <= 1:
            raise ValueError(f"freq: a probability in [0, 1], got {freq!r}")
        self.freq = float(freq)

    def bet(self, view, mask: np.ndarray) -> int:
        action = self.value_action(view, mask)
        weak = self.strength(view) < self.call_at[view.round]
        raise_id = self.raise_id(mask, size="pot")
        if weak and raise_id is not None and self.rng.random() < self.freq:
            return raise_id
        return action

    def bet_batch(self, view: BatchView, masks: np.ndarray) -> np.ndarray:
        action = self.value_batch(view, masks)
        weak = self.strength_batch(view) < np.array(self.call_at)[view.round]
        can_raise, raise_id = self.raise_ids(masks, size="pot")
        bluff = weak & can_raise & (self.rng.random(len(masks)) < self.freq)
        return np.where(bluff, raise_id, action)

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): the probability of each action id as it plays: its tag action, or
        where it may bluff, the pot-sized raise with probability ``freq``."""
        observations, masks = np.asarray(observations), np.asarray(action_masks)
        k, width = masks.shape
        keep = width - 4
        out = np.zeros((k, width))
        rows = np.arange(k)
        exchanging = masks[:, keep].astype(bool)
        view = read_batch(observations)
        if exchanging.any():
            chosen = self.exchange_batch(view.cards[exchanging], view.gave[exchanging], keep)
            out[rows[exchanging], chosen] = 1.0
        betting = ~exchanging
        if betting.any():
            sub = BatchView(*(field[betting] for field in view))
            sub_masks = masks[betting]
            action = self.value_batch(sub, sub_masks)
            weak = self.strength_batch(sub) < np.array(self.call_at)[sub.round]
            can_raise, raise_id = self.raise_ids(sub_masks, size="pot")
            bluff = weak & can_raise
            where = rows[betting]
            np.add.at(out, (where, action), np.where(bluff, 1.0 - self.freq, 1.0))
            out[where[bluff], raise_id] += self.freq
        return out
