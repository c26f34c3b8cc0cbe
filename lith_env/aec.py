"""The PettingZoo AEC environment for Lith: every seat an agent (tournaments, self-play)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from lith_env.game import LithConfig
from lith_env.table import LithTable
from tablegame.aec_env import TableAECEnv

__all__ = ["LithAECEnv"]


class LithAECEnv(TableAECEnv):
    """Lith as an AEC env, agents ``player_0`` ... ``player_{n-1}`` in seat order.

    Takes the options of ``Lith-v0`` that concern the table (not ``opponents``,
    ``learner_seat`` or ``reward_scale``); see ``docs/lith_env.md``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "lith_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        betting: str = "limit",
        bet_sizes: Sequence[int] = (2, 2, 4),
        max_raises: int = 3,
        pawns_and_courts: bool = True,
        excuse: str | None = None,
        starting_chips: int | Sequence[int] = 100,
        ante: int = 1,
        rounds: int = 3,
        cards: Sequence[int | str] | None = None,
        episode: str = "hand",
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        config = LithConfig(
            num_players=num_players,
            betting=betting,
            bet_sizes=bet_sizes,  # LithConfig checks it
            max_raises=max_raises,
            pawns_and_courts=pawns_and_courts,
            excuse=excuse,
            starting_chips=starting_chips,
            ante=ante,
            max_hands=max_hands,
            rounds=rounds,
            cards=cards,
        )
        super().__init__(LithTable(config, episode=episode), render_mode=render_mode)
        self.config = self.table.config
