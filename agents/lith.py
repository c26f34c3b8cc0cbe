"""Built-in Lith agents."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import register

__all__ = ["CallerAgent"]

CHECK_CALL = 1  # action id of check/call in every betting structure (lith_env.encoding)


@register("lith", "caller")
class CallerAgent:
    """Never folds, never raises: checks or calls every bet, keeps every hand."""

    needs_observation = False  # it only reads the mask

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        if action_mask[CHECK_CALL]:
            return CHECK_CALL
        return int(np.flatnonzero(action_mask)[0])  # the exchange: keep comes first
