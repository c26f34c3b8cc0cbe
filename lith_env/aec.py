"""The PettingZoo AEC environment for Lith: every seat an agent (tournaments, self-play)."""

from __future__ import annotations

from typing import Any, ClassVar

from lith_env.env import env_config, env_options
from lith_env.game import LithConfig
from lith_env.table import LithTable
from tablegame.aec_env import TableAECEnv

__all__ = ["LithAECEnv"]


class LithAECEnv(TableAECEnv):
    """Lith as an AEC env, agents ``player_0`` ... ``player_{n-1}`` in seat order.

    Takes the options of ``Lith-v0`` that concern the table: the rules (``config`` and/or
    :class:`~lith_env.game.LithConfig`'s fields by keyword, which replace ``config``'s),
    ``episode`` and ``render_mode`` (not ``opponents``, ``learner_seat`` or
    ``reward_scale``); see ``docs/lith_env.md``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "lith_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        config: LithConfig | None = None,
        *,
        episode: str = "hand",
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        config = env_config(config, rules, "Lith AEC env", OPTIONS)
        super().__init__(LithTable(config, episode=episode), render_mode=render_mode)
        self.config = self.table.config


OPTIONS = env_options(LithAECEnv.__init__)
