"""``Gendeneia-v0``: the Gymnasium environment, one learner against built-in or given opponents."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.table import GendeneiaTable
from tablegame.agent import Agent
from tablegame.gym_env import SingleSeatEnv, resolve_opponents

__all__ = ["GendeneiaEnv"]


class GendeneiaEnv(SingleSeatEnv):
    """Gendeneía for one learner (``docs/gendeneia_env.md``).

    Options: ``num_players`` (2-6), ``opponents`` (an agent spec such as ``"random"``, an
    object with ``act(observation, action_mask)``, or one per other seat), the rules of
    :class:`~gendeneia_env.game.GendeneiaConfig` (``max_rounds``, ``max_reshuffles``,
    ``discard_ends_turn``, ``presum``, ``twist_any``, ``twist_any_rule``, ``twist_suit``,
    ``twist_suit_rule``, ``round_lots``), ``reward`` (``"final"``, ``"shaped"`` or
    ``"shaped_win"``), ``reward_scale`` (default 0.1), ``learner_seat`` (None: drawn each
    episode) and ``render_mode`` (``"ansi"``, ``"human"``).
    """

    def __init__(
        self,
        num_players: int = 3,
        opponents: str | Agent | Sequence[str | Agent] = "random",
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
        learner_seat: int | None = None,
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        if unknown:
            raise TypeError(
                f"Gendeneia-v0: unknown option(s) {', '.join(sorted(unknown))}; {OPTIONS}"
            )
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
        table = GendeneiaTable(config, reward=reward, reward_scale=reward_scale)
        super().__init__(
            table,
            resolve_opponents(opponents, num_players - 1, game="gendeneia", config=config),
            learner_seat=learner_seat,
            reward_scale=1.0,  # the table already scales its returns
            render_mode=render_mode,
        )
        self.config = config


OPTIONS = "options: " + ", ".join(
    p for p in inspect.signature(GendeneiaEnv.__init__).parameters if p not in ("self", "unknown")
)
