"""``Lith-v0``: the Gymnasium environment, one learner against built-in or given opponents."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from lith_env.game import LithConfig
from lith_env.table import LithTable, check_first_decision
from tablegame.agent import Agent
from tablegame.gym_env import SingleSeatEnv, resolve_opponents

__all__ = ["LithEnv"]


class LithEnv(SingleSeatEnv):
    """Lith for one learner (``docs/lith_env.md``).

    Options: ``num_players`` (2-10), ``opponents`` (an agent spec such as ``"random"`` or
    ``"caller"``, an object with ``act(observation, action_mask)``, or a list of one per other
    seat), ``betting`` (``"limit"``, ``"pot-limit"``, ``"no-limit"``), ``bet_sizes``,
    ``max_raises``, ``pawns_and_courts``, ``excuse`` (None, ``"beggar"``, ``"imposter"``,
    ``"demon"``), ``starting_chips``, ``ante``, ``rounds`` (betting rounds, 1-3), ``cards`` (a
    subset of the deck to deal from: names or ids), ``episode`` (``"hand"`` or ``"match"``),
    ``max_hands`` (match only), ``learner_seat`` (None: drawn each episode), ``reward_scale``
    (reward = chips won x this, default 1) and ``render_mode`` (``"ansi"``, ``"human"``).
    """

    def __init__(
        self,
        num_players: int = 2,
        opponents: str | Agent | Sequence[str | Agent] = "random",
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
        learner_seat: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        if unknown:
            raise TypeError(f"Lith-v0: unknown option(s) {', '.join(sorted(unknown))}; {OPTIONS}")
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
        table = LithTable(config, episode=episode)
        super().__init__(
            table,
            resolve_opponents(opponents, num_players - 1, game="lith", config=table.config),
            learner_seat=learner_seat,
            reward_scale=reward_scale,
            render_mode=render_mode,
        )
        self.config = table.config
        check_first_decision(self.config, learner_seat)  # the seat is checked by now


OPTIONS = "options: " + ", ".join(
    p for p in inspect.signature(LithEnv.__init__).parameters if p not in ("self", "unknown")
)
