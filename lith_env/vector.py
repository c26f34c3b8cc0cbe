"""Lith as Gymnasium vector environments over the batched engine (:mod:`lith_env.batched`).

- :class:`LithVectorEnv` — ``num_envs`` copies of ``Lith-v0`` in one object: the same options,
  observations, action ids, masks and rewards, with one learner seat per table and the
  opponents' decisions made for all tables at once (``act_batch``). Built by
  ``gymnasium.make_vec("Lith-v0", num_envs=N)`` (``vectorization_mode="vector_entry_point"``,
  the default for ``Lith-v0``).
- :class:`LithAllSeatsVectorEnv` — every seat's observation, mask and reward at once; the
  action for table ``t`` is ``actions[t, seat to act]``: for self-play and tournaments.

Both reset finished tables in the same step (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``): the observation returned for a finished table is the first of its
next episode; the last one is in ``info["final_obs"]`` (a float array, rows valid where
``info["_final_obs"]``), every seat's chips won in the episode in ``info["returns"]`` and, for
:class:`LithVectorEnv`, the learner's seat in it in ``info["final_seat"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from lith_env.batched import BatchedLith
from lith_env.env import check_rules, env_config, env_options
from lith_env.game import LithConfig
from lith_env.table import check_first_decision
from tablegame.agent import Agent
from tablegame.engine import IllegalActionError
from tablegame.gym_env import check_learner_seat, check_reward_scale, resolve_opponents
from tablegame.vector_env import OneSeatVectorEnv, action_ids, begin_reset

__all__ = ["LithAllSeatsVectorEnv", "LithVectorEnv"]


class _Base(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def _setup(
        self,
        num_envs: int,
        config: LithConfig,
        episode: str,
        decks: str,
        reward_scale: float,
    ) -> None:
        check_first_decision(config)  # or reset would deal for ever, waiting for a decision
        self.engine = BatchedLith(config, int(num_envs), episode=episode, decks=decks)
        self.config = self.engine.config
        self.num_envs = int(num_envs)
        self.reward_scale = check_reward_scale(reward_scale)
        self.single_action_space = gym.spaces.Discrete(self.engine.num_actions)
        self._started = False

    def _seed_engine(self, seed: int | None, tables: np.ndarray) -> None:
        """Reference decks need a seed per table: drawn from the env's generator."""
        if self.engine.decks_mode == "reference":
            seeds = self.np_random.integers(2**63, size=len(tables)).astype(object)
        else:
            seeds = None if seed is None else int(self.np_random.integers(2**63))
        self.engine.reset(seeds, tables=tables)

    def close_extras(self, **kwargs: Any) -> None:
        pass


class LithVectorEnv(_Base, OneSeatVectorEnv):
    """``num_envs`` Lith tables, one learner seat each (``docs/lith_env.md``, "Vector envs").

    Options as ``Lith-v0``, plus ``decks``: ``"numpy"`` (default, fast) or ``"reference"``
    (each table deals exactly as the reference engine for a seed drawn from ``reset``'s seed).
    Opponents are agent specs or agents; built-in agents decide for all tables in one call
    (``act_batch``), other agents table by table. An agent with ``per_table = True`` gets
    ``act_batch(observations, masks, tables=...)`` and ``reset_tables(tables)`` when those
    tables start an episode.
    """

    def __init__(
        self,
        num_envs: int = 1,
        config: LithConfig | None = None,
        *,
        opponents: str | Agent | Sequence[str | Agent] = "random",
        episode: str = "hand",
        learner_seat: int | None = None,
        reward_scale: float = 1.0,
        decks: str = "numpy",
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        check_rules(rules, "Lith-v0 (vector)", OPTIONS)  # an unknown name before any value
        if render_mode is not None:
            raise ValueError("render_mode: the vector env does not render; use Lith-v0")
        if not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs: must be a positive integer, got {num_envs!r}")
        config = env_config(config, rules, "Lith-v0 (vector)", OPTIONS)
        n = config.num_players
        check_learner_seat(learner_seat, n)
        check_first_decision(config, learner_seat)
        self._setup(num_envs, config, episode, decks, reward_scale)
        self.opponents = resolve_opponents(opponents, n - 1, game="lith", config=self.config)
        self.learner_seat = learner_seat
        self._spaces(low=0.0)

    def returns(self) -> np.ndarray:
        """Chips every seat has won so far at every table (the engine's returns)."""
        return self.engine.returns()

    def _learner_out(self, tables: np.ndarray) -> np.ndarray:
        """Whether the learner at each of ``tables`` is out of the match (no chips, so not
        dealt in): its episode is over even though the others may play on."""
        engine = self.engine
        return ~engine.dealt_in.reshape(-1)[tables * engine.n + self.seats[tables]]


class LithAllSeatsVectorEnv(_Base):
    """``num_envs`` Lith tables seen from every seat at once.

    ``reset``/``step`` return observations of shape (num_envs, num_players, size) and
    ``info["action_mask"]`` of shape (num_envs, num_players, actions), all zeros but for the
    seat to act (``info["to_act"]``); ``step`` takes actions of shape (num_envs, num_players)
    and plays ``actions[t, to_act[t]]`` at table ``t``; rewards (num_envs, num_players) are
    every seat's chips won in the step, times ``reward_scale``. Options as
    :class:`LithVectorEnv` but ``opponents``, ``learner_seat`` and ``render_mode``.
    """

    def __init__(
        self,
        num_envs: int = 1,
        config: LithConfig | None = None,
        *,
        episode: str = "hand",
        reward_scale: float = 1.0,
        decks: str = "numpy",
        **rules: Any,
    ) -> None:
        config = env_config(config, rules, "Lith all-seats vector env", ALL_SEATS_OPTIONS)
        self._setup(num_envs, config, episode, decks, reward_scale)
        n, size = self.engine.n, self.engine.observation_size
        self.single_observation_space = gym.spaces.Box(0.0, 1.0, (n, size), np.float32)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        # One action per seat of a table (only the seat to act's is played).
        self.single_action_space = gym.spaces.MultiDiscrete(np.full(n, self.engine.num_actions))
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._last_returns = np.zeros((self.num_envs, n))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        begin_reset(self, seed, options)
        tables = np.arange(self.num_envs)
        self._seed_engine(seed, tables)
        self._last_returns = self.engine.returns().astype(np.float64)
        self._started = True
        return self.observations(), self._info()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        engine, n = self.engine, self.engine.n
        actions = action_ids(actions, (self.num_envs, n))
        rows = np.arange(self.num_envs)
        engine.step(actions[rows, engine.current.clip(0)])
        now = engine.returns().astype(np.float64)
        rewards = (now - self._last_returns) * self.reward_scale
        terminated = engine.match_over.copy()
        info: dict[str, Any] = {}
        done = np.flatnonzero(terminated)
        if len(done):
            final = np.zeros((self.num_envs, n, engine.observation_size), dtype=np.float32)
            final[done] = self.observations(done)
            info.update(final_obs=final, _final_obs=terminated)
            info.update(returns=np.where(terminated[:, None], now, 0), _returns=terminated)
            self._seed_engine(None, done)
        self._last_returns = engine.returns().astype(np.float64)
        info.update(self._info())
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self.observations(), rewards, terminated, truncated, info

    def observations(self, tables: np.ndarray | None = None) -> np.ndarray:
        """Every seat's observation at ``tables`` (all by default): (k, num_players, size)."""
        engine = self.engine
        tables = np.arange(self.num_envs) if tables is None else tables
        k, n = len(tables), engine.n
        seats = np.tile(np.arange(n), k)
        flat = engine.encode(seats, np.repeat(tables, n))
        return flat.reshape(k, n, engine.observation_size)

    def _info(self) -> dict[str, Any]:
        engine = self.engine
        masks = np.zeros((self.num_envs, engine.n, engine.num_actions), dtype=np.int8)
        acting = np.flatnonzero(engine.current >= 0)
        masks[acting, engine.current[acting]] = engine.action_masks(acting)
        return {"action_mask": masks, "to_act": engine.current.copy()}


OPTIONS = env_options(LithVectorEnv.__init__)
ALL_SEATS_OPTIONS = env_options(LithAllSeatsVectorEnv.__init__)
