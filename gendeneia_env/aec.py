"""The PettingZoo AEC environment for Gendeneía: every seat an agent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.table import GendeneiaTable
from tablegame.aec_env import TableAECEnv

__all__ = ["GendeneiaAECEnv"]


class GendeneiaAECEnv(TableAECEnv):
    """Gendeneía as an AEC env, agents ``player_0`` ... in seat order; the table options of
    ``Gendeneia-v0`` (not ``opponents`` or ``learner_seat``)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "gendeneia_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 3,
        max_rounds: int | None = 10,
        max_reshuffles: int | None = None,
        discard_ends_turn: bool = False,
        presum: str | None = None,
        twist_any: Sequence[int | str] = (),
        twist_any_rule: str = "may",
        twist_suit: Sequence[int | str] = (),
        twist_suit_rule: str = "may",
        round_lots: bool = False,
        reward: str = "final",
        reward_scale: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        config = GendeneiaConfig(
            num_players=num_players,
            max_rounds=max_rounds,
            max_reshuffles=max_reshuffles,
            discard_ends_turn=discard_ends_turn,
            presum=presum,
            twist_any=tuple(twist_any),
            twist_any_rule=twist_any_rule,
            twist_suit=tuple(twist_suit),
            twist_suit_rule=twist_suit_rule,
            round_lots=round_lots,
        )
        super().__init__(GendeneiaTable(config, reward, reward_scale), render_mode=render_mode)
        self.config = config
