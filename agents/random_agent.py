"""``random``: a uniformly random legal action, for every game."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablegame.agent import legal_ids, uniform_legal
from tablegame.registry import register

__all__ = ["RandomAgent"]


@register("*", "random")
class RandomAgent:
    """Picks uniformly among the legal actions."""

    needs_observation = False  # it only reads the mask

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        legal = legal_ids(action_mask)
        return legal[self.rng.integers(len(legal))]

    def act_batch(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """Uniform legal actions for a batch of masks (k, actions)."""
        return uniform_legal(np.asarray(action_masks), self.rng)

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): uniform over each row's legal actions."""
        masks = np.asarray(action_masks, dtype=np.float64)
        return masks / masks.sum(axis=1, keepdims=True)
