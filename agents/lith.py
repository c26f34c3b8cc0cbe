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
from typing import Any

import numpy as np

from agents.base import register
from lith_env.encoding import read
from lith_env.exchange import best_discard, unseen_cards
from lith_env.game import LithConfig

__all__ = ["BluffAgent", "CallerAgent", "RockAgent", "TagAgent"]

FOLD, CHECK_CALL, FIRST_RAISE = 0, 1, 2


def _thresholds(values: float | Sequence[float], name: str) -> tuple[float, float, float]:
    if isinstance(values, int | float):
        values = (values,) * 3
    values = tuple(float(v) for v in values)
    if len(values) != 3 or not all(0 <= v <= 1 for v in values):
        raise ValueError(f"{name}: three thresholds in [0, 1], one per round, got {values!r}")
    return values  # type: ignore[return-value]


class LithHeuristic:
    """Shared parts: the clever exchange and reading the observation."""

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
            pawns_and_courts=config.pawns_and_courts,
            excuse=config.excuse is not None,
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


@register("lith", "tag")
class TagAgent(LithHeuristic):
    """Tight-aggressive: bets strong hands, raises very strong ones, calls good ones, folds
    the rest when facing a bet (thresholds per round on the discounted percentile)."""

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        bet: float | Sequence[float] = (0.7, 0.75, 0.8),
        raise_: float | Sequence[float] = (0.85, 0.88, 0.9),
        call: float | Sequence[float] = (0.5, 0.55, 0.6),
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


@register("lith", "bluffer")
class BluffAgent(TagAgent):
    """A tag that also bets and raises weak hands, at frequency ``freq``."""

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        freq: float = 0.3,
        bet: float | Sequence[float] = (0.7, 0.75, 0.8),
        raise_: float | Sequence[float] = (0.85, 0.88, 0.9),
        call: float | Sequence[float] = (0.5, 0.55, 0.6),
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
