"""``Gendeneia-v0`` as a Gymnasium vector env over the batched engine (:mod:`.batched`).

:class:`GendeneiaVectorEnv` is ``num_envs`` copies of ``Gendeneia-v0`` in one object: the same
options, observations, action ids, masks and rewards, one learner seat per table, the
opponents deciding for all their tables at once (``act_batch``). Built by
``gymnasium.make_vec("Gendeneia-v0", num_envs=N)`` (the default ``vector_entry_point``).
Finished tables start a new game in the same step (:mod:`tablegame.vector_env`): the last
observation is in ``info["final_obs"]``, every seat's return of the game in
``info["returns"]``, its final scores in ``info["scores"]``, its shares of the win in
``info["win_shares"]`` and the learner's seat in ``info["final_seat"]`` (rows valid where
``info["_final_obs"]``).

Each table's game is the reference engine's for a seed drawn from the env's generator, so a
seeded ``reset`` repeats its games (with seeded opponents).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gendeneia_env.batched import BatchedGendeneia
from gendeneia_env.env import check_rules, env_config, env_options
from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.table import check_reward, seat_returns
from tablegame.agent import Agent
from tablegame.gym_env import check_learner_seat, resolve_opponents
from tablegame.vector_env import OneSeatVectorEnv

__all__ = ["GendeneiaVectorEnv"]

NAME = "Gendeneia-v0 (vector)"


class GendeneiaVectorEnv(OneSeatVectorEnv):
    """``num_envs`` Gendeneía tables, one learner seat each (``docs/gendeneia_env.md``).

    Options as ``Gendeneia-v0``: the rules (``config`` and/or its fields by keyword),
    ``opponents``, ``reward`` (``"final"``, ``"shaped"``, ``"shaped_win"``), ``reward_scale``
    (default 0.1, the table's) and ``learner_seat``; it does not render. The env's own
    reward scale is the table's, as in ``Gendeneia-v0``.
    """

    def __init__(
        self,
        num_envs: int = 1,
        config: GendeneiaConfig | None = None,
        *,
        opponents: str | Agent | Sequence[str | Agent] = "random",
        reward: str = "final",
        reward_scale: float = 0.1,
        learner_seat: int | None = None,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        check_rules(rules, NAME, OPTIONS)  # an unknown name before any value
        if render_mode is not None:
            raise ValueError("render_mode: the vector env does not render; use Gendeneia-v0")
        if not isinstance(num_envs, int | np.integer) or isinstance(num_envs, bool):
            raise ValueError(f"num_envs: must be a positive integer, got {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs: must be a positive integer, got {num_envs!r}")
        config = env_config(config, rules, NAME, OPTIONS)
        self.reward, self.table_scale = reward, check_reward(reward, reward_scale)
        check_learner_seat(learner_seat, config.num_players)
        self.engine = BatchedGendeneia(config, int(num_envs))
        self.config = config
        self.reward_scale = 1.0  # the returns are already scaled, as in Gendeneia-v0
        self.opponents = resolve_opponents(
            opponents, config.num_players - 1, game="gendeneia", config=config
        )
        self.learner_seat = learner_seat
        self._spaces(low=-1.0)

    def _seed_engine(self, seed: int | None, tables: np.ndarray) -> None:
        self.engine.reset(self.np_random.integers(2**63, size=len(tables)), tables=tables)

    def _episode_info(self, ended: np.ndarray) -> dict[str, Any]:
        scores = np.where(ended[:, None], self.engine.scores(), 0)
        shares = np.where(ended[:, None], self.engine.win_shares(), 0.0)
        return {"scores": scores, "_scores": ended, "win_shares": shares, "_win_shares": ended}

    def returns(self) -> np.ndarray:
        """Every seat's return so far at every table (``GendeneiaTable.returns``)."""
        engine = self.engine
        return seat_returns(engine.scores(), engine.match_over, self.reward, self.table_scale)


OPTIONS = env_options(GendeneiaVectorEnv.__init__)
