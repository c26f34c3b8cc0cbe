"""``abstract:DIR``: the strategy of a card abstraction solved by sampling CFR
(``decktet abstract``), played in the real game it was solved for: one round,
or the game with exchanges on any deck (the full game too).

Each hand plays the strategy of its equity bucket (with exchanges: at the public node of the
betting and exchanges so far; with recall "swap" also by the rank of the card it gave in the
latest swap, and by its exact hand at an exchange); the rest (the seeded draws, the action
probabilities, the check of the table's rules) is ``solved:DIR``'s. ``policy=current`` plays
the last iterate instead of the average strategy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.solved import SolvedAgent, point_action_ids, read_exchange_point
from lith_env import encoding
from lith_env.cards import NUM_CARDS
from tablegame.registry import register

__all__ = ["AbstractAgent"]


@register("lith", "abstract")
class AbstractAgent(SolvedAgent):
    """Plays the abstract strategy saved in ``DIR`` (``abstraction.npz``, ``abstraction.json``)
    on the heads-up rules it was solved for."""

    spec_argument = "path"  # the spec is abstract:DIR
    needs_observation = True
    name = "abstract"

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = False,
        policy: str = "average",
        config: Any = None,
    ) -> None:
        from lith_solver.abstraction import load_abstract

        self.game, self.profile, self.record = load_abstract(path, policy)
        self.policy = policy
        exchanges = self.record["config"]["rounds"] > 1
        reader = _AbstractExchangeReader(self.game) if exchanges else None
        self._set_up(path, seed, deterministic, config, reader)


class _AbstractExchangeReader:
    """Reads a heads-up observation of a game with exchanges into the abstract strategy's
    public decision and information set, and gives its probabilities over the action ids."""

    def __init__(self, abstraction: Any) -> None:
        self.abstraction, self.config = abstraction, abstraction.config
        self.trees, self.ends = abstraction.tree.trees, abstraction.tree.ends
        self.nodes = [{n.history: i for i, n in enumerate(tree)} for tree in self.trees]
        self.keep = encoding.keep_id(self.config)
        self.num_actions = encoding.num_actions(self.config)

    def batch_probabilities(self, observations: np.ndarray) -> np.ndarray:
        """(k, actions) for a batch. With recall "hand" the public part is read once for
        every group of observations that share it (a sample of worlds usually does)."""
        observations = np.asarray(observations)
        if self.abstraction.recall != "hand":
            return np.stack([self.probabilities(o) for o in observations])
        at = encoding.field_offsets(2)
        public = observations.copy()
        public[:, at.own : at.phase] = 0  # the cards and their features are read apart
        for _, gave, _, got, _ in at.exchanges:
            public[:, gave : gave + NUM_CARDS] = 0
            public[:, got : got + NUM_CARDS] = 0
        rows_as_bytes = public.view(np.dtype((np.void, public.itemsize * public.shape[1])))
        _, first, group = np.unique(rows_as_bytes.ravel(), return_index=True, return_inverse=True)
        own = observations[:, at.own : at.own + NUM_CARDS] > 0.5
        if not (own.sum(axis=1) == 3).all():
            raise ValueError("abstract: an observation without three own cards (no hand to play)")
        abstraction = self.abstraction
        buckets = abstraction.buckets_of(np.nonzero(own)[1].reshape(len(observations), 3))
        out = np.zeros((len(observations), self.num_actions))
        for g, row in enumerate(first):
            at_point = read_exchange_point(
                observations[row], self.trees, self.ends, self.nodes, "abstract"
            )
            where = np.flatnonzero(group == g)
            rows = abstraction.strategy[self._decision(at_point), buckets[where]]
            ids = point_action_ids(at_point, self.trees, self.keep)
            out[np.ix_(where, ids)] = rows[:, : len(ids)]
        return out

    def _decision(self, at: Any) -> int:
        key = (at.round, self.abstraction.tree.stage_index[at.patterns], at.point, at.line)
        return self.abstraction.decision_of[key]

    def probabilities(self, obs: np.ndarray) -> np.ndarray:
        at = read_exchange_point(obs, self.trees, self.ends, self.nodes, "abstract")
        row = self.abstraction.strategy_at(self._decision(at), at.hand, at.patterns, at.deal_key)
        ids = point_action_ids(at, self.trees, self.keep)
        out = np.zeros(self.num_actions)
        out[ids] = row[: len(ids)]
        return out
