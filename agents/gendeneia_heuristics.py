"""Built-in Gendeneía agents: ``greedy`` and ``spoiler``.

Both read their observation back into lots (:func:`gendeneia_env.encoding.read`) and look one
play ahead: they simulate placing a pair (with its trumping) and score the result with the same
code as the engine. Ties are broken with the agent's own seeded generator.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.lookahead import play_delta, removal_delta, score_of
from tablegame.registry import register

__all__ = ["GreedyAgent", "SpoilerAgent"]

Lots = list[list[tuple[int, int]]]
SAMPLE = 48  # unseen Choice/Force pairs sampled to value a fresh hand


class GendeneiaHeuristic:
    needs_observation = True
    spoils = False  # plays onto the leader when that hurts them more than it helps itself

    def __init__(self, seed: int | None = None, config: GendeneiaConfig | None = None) -> None:
        self.config = config or GendeneiaConfig()
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    # ------------------------------------------------------------------ one-play look-ahead

    def score_of(self, lots: Lots) -> int:
        return score_of(lots, self.config.presum)

    def delta(self, lots: Lots, choice: int, force: int) -> int:
        """How much a seat's score changes if the pair is played onto its lots."""
        return play_delta(lots, choice, force, self.config.presum)

    def expected_new_hand(self, view, seat_lots: Lots) -> float:
        """Mean of the best own-score change of a fresh hand (0 if playing it elsewhere is
        better), over the cards this seat has not seen (a seeded sample of 48 of the pairs)."""
        seen = {c for lots in view.lots for lot in lots for pair in lot for c in pair}
        seen |= set(view.discards) | {c for c in view.hand if c is not None}
        choices = [c for c in range(36) if c not in seen]
        forces = [c for c in range(36, 72) if c not in seen]
        pairs = list(itertools.product(choices, forces))
        if not pairs:
            return 0.0
        if len(pairs) > SAMPLE:
            pairs = [pairs[i] for i in self.rng.choice(len(pairs), SAMPLE, replace=False)]
        return float(np.mean([min(self.delta(seat_lots, c, f), 0) for c, f in pairs]))

    # ------------------------------------------------------------------ decisions

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The decisions for many tables at once, compiled (:mod:`agents.gendeneia_batched`):
        the same rules and the same distribution of decisions as :meth:`act`, with the random
        draws taken from this agent's generator for all rows at once."""
        from agents.gendeneia_batched import SAMPLE, decide

        uniforms = self.rng.random((len(masks), SAMPLE + 1))
        return decide(observations, masks, uniforms, self.config.presum, self.spoils)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        from gendeneia_env.encoding import read

        view = read(np.asarray(observation))
        n = view.num_players
        mine = [list(lot) for lot in view.lots[0]]
        if action_mask[0] or action_mask[1]:
            return self.hand_choice(view, mine, action_mask)
        if action_mask[2 : 2 + n].any():
            return 2 + self.target(view, mine)
        return self.removal(view, mine, action_mask)

    def hand_choice(self, view, mine: Lots, mask: np.ndarray) -> int:
        """Keep (0) unless a fresh hand is expected to lower the own score more (1)."""
        choice, force = view.hand
        now = min(self.delta(mine, choice, force), 0)
        if mask[1] and self.expected_new_hand(view, mine) < now - 1e-9:
            return 1
        return 0

    def target(self, view, mine: Lots) -> int:
        """Seat (by position from me) to play onto."""
        choice, force = view.hand
        if self.delta(mine, choice, force) < 0:
            return 0
        return int(self.rng.integers(1, view.num_players))

    def removal(self, view, mine: Lots, mask: np.ndarray) -> int:
        """Remove the pair that most lowers the own score; pass when allowed and none does."""
        n = view.num_players
        best_id, best = None, 0 if mask[38 + n] else None
        for action_id in np.flatnonzero(mask[2 + n : 38 + n]):
            card = int(action_id)
            change = removal_delta(mine, card, self.config.presum)
            if best is None or change < best:
                best_id, best = 2 + n + card, change
        return best_id if best_id is not None else 38 + n


@register("gendeneia", "greedy")
class GreedyAgent(GendeneiaHeuristic):
    """The play and discard choice that most lower its own score this turn."""


@register("gendeneia", "spoiler")
class SpoilerAgent(GendeneiaHeuristic):
    """Plays onto the leading opponent (lowest score) when that raises their score by more
    than playing onto its own lots would lower its own; otherwise plays like ``greedy``."""

    spoils = True

    def target(self, view, mine: Lots) -> int:
        choice, force = view.hand
        own_gain = -self.delta(mine, choice, force)
        scores = [self.score_of([list(lot) for lot in lots]) for lots in view.lots]
        leader = 1 + int(np.argmin(scores[1:]))
        harm = self.delta([list(lot) for lot in view.lots[leader]], choice, force)
        if harm > max(own_gain, 0):
            return leader
        if own_gain > 0:
            return 0
        return leader if harm >= 0 else int(self.rng.integers(1, view.num_players))
