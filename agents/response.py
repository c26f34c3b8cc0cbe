"""``response:DIR``: a best response computed against one heads-up Lith bot
(``decktet best-response``), played in the real game with exchanges it was computed for.

At a betting decision it plays the row of its hand's equity bucket and, after a swap, the rank
of the card it gave in the latest one; at an exchange the row of its exact hand
(:class:`lith_solver.recall_layout.RecallLayout`). The rest (the seeded draws, the check of
the table's rules) is ``solved:DIR``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.solved import SolvedAgent, point_action_ids, read_exchange_point
from lith_env import encoding
from lith_solver.recall_layout import latest_gift
from tablegame.registry import register

__all__ = ["ResponseAgent"]


@register("lith", "response")
class ResponseAgent(SolvedAgent):
    """Plays the response saved in ``DIR`` (``response.npz``, ``response.json``) on the
    heads-up rules it was computed for: the strategy its run chose, or ``policy`` (average or
    current)."""

    spec_argument = "path"  # the spec is response:DIR
    needs_observation = True
    name = "response"

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = False,
        policy: str | None = None,
        config: Any = None,
    ) -> None:
        from lith_solver.responder import load_response

        layout, self.profile, self.record = load_response(path, policy)
        self.game = layout
        self._set_up(path, seed, deterministic, config, _ResponseReader(layout, self.profile))


class _ResponseReader:
    """Reads a heads-up observation into the response's public decision and row."""

    def __init__(self, layout: Any, strategy: np.ndarray) -> None:
        self.layout, self.strategy, self.config = layout, strategy, layout.config
        self.trees, self.ends = layout.tree.trees, layout.tree.ends
        self.nodes = [{n.history: i for i, n in enumerate(tree)} for tree in self.trees]
        self.keep = encoding.keep_id(self.config)
        self.num_actions = encoding.num_actions(self.config)

    def batch_probabilities(self, observations: np.ndarray) -> np.ndarray:
        return np.stack([self.probabilities(o) for o in np.asarray(observations)])

    def probabilities(self, obs: np.ndarray) -> np.ndarray:
        at = read_exchange_point(obs, self.trees, self.ends, self.nodes, "response")
        layout = self.layout
        key = (at.round, layout.tree.stage_index[at.patterns], at.point, at.line)
        decision = layout.decision_of[key]
        gift = latest_gift(at.patterns, at.deal_key)
        row = layout.information_set(decision, at.hand, gift, at.deal_key)
        ids = point_action_ids(at, self.trees, self.keep)
        out = np.zeros(self.num_actions)
        out[ids] = self.strategy[row, : len(ids)]
        return out
