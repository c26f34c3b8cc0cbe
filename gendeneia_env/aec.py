"""The PettingZoo AEC environment for Gendeneía: every seat an agent."""

from __future__ import annotations

from typing import Any, ClassVar

from gendeneia_env.env import env_config, env_options
from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.table import GendeneiaTable
from tablegame.aec_env import TableAECEnv

__all__ = ["GendeneiaAECEnv"]


class GendeneiaAECEnv(TableAECEnv):
    """Gendeneía as an AEC env, agents ``player_0`` ... in seat order; the table options of
    ``Gendeneia-v0``: the rules (``config`` and/or :class:`~gendeneia_env.game.GendeneiaConfig`'s
    fields by keyword, which replace ``config``'s), ``reward``, ``reward_scale`` and
    ``render_mode`` (not ``opponents`` or ``learner_seat``)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "gendeneia_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        config: GendeneiaConfig | None = None,
        *,
        reward: str = "final",
        reward_scale: float = 0.1,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        config = env_config(config, rules, "Gendeneia AEC env", OPTIONS)
        super().__init__(GendeneiaTable(config, reward, reward_scale), render_mode=render_mode)
        self.config = config


OPTIONS = env_options(GendeneiaAECEnv.__init__)
