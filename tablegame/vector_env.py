"""One learner seat per table over a game's batched engine, as a Gymnasium ``VectorEnv``.

:class:`OneSeatVectorEnv` is the part of ``Lith-v0``'s and ``Gendeneia-v0``'s vector envs
that does not depend on the game: it draws the learner's seat at each table, lets the
opponents decide for all their tables at once (``act_batch``), pays the change in the
learner's return as its reward, and resets finished tables in the same step
(``AutoresetMode.SAME_STEP``: the last observation is in ``info["final_obs"]``, every seat's
result of the episode in ``info["returns"]`` and the learner's seat in ``info["final_seat"]``).

A game's subclass sets ``engine`` (a batched engine: ``n``, ``num_tables``, ``num_actions``,
``observation_size``, ``current`` and ``match_over`` arrays, ``action_masks(tables)``,
``encode(seats, tables)``, ``step(actions, tables)``) and implements :meth:`_seed_engine`
(new games at some tables) and :meth:`returns` (every seat's result so far at every table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tablegame.agent import Agent, act_batch
from tablegame.engine import IllegalActionError

__all__ = ["OneSeatVectorEnv", "action_ids"]


def begin_reset(env: VectorEnv, seed: int | None, options: dict[str, Any] | None) -> None:
    """The start of a vector env's ``reset``: reseed its generator; refuse any option."""
    if seed is not None:
        env._np_random, env._np_random_seed = gym.utils.seeding.np_random(seed)
    if options:
        raise ValueError(f"reset options: none are supported, got {sorted(options)}")


def action_ids(actions: object, shape: tuple[int, ...]) -> np.ndarray:
    """Integer action ids in ``shape``; floats, bools or the wrong count raise (no rounding)."""
    ids = np.asarray(actions)
    if ids.dtype.kind not in "iu" or ids.size != np.prod(shape):
        raise IllegalActionError(
            f"actions: need {int(np.prod(shape))} integer action ids {shape}, got "
            f"{ids.size} of dtype {ids.dtype}"
        )
    return ids.astype(np.int64, copy=False).reshape(shape)


class OneSeatVectorEnv(VectorEnv):
    """``num_envs`` tables of one game, one learner seat each (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012
    engine: Any
    opponents: Sequence[Agent]
    learner_seat: int | None
    reward_scale: float

    def _spaces(self, low: float) -> None:
        """The spaces, once ``engine`` is set."""
        self.num_envs = self.engine.num_tables
        self.single_action_space = gym.spaces.Discrete(self.engine.num_actions)
        self.single_observation_space = gym.spaces.Box(
            low, 1.0, (self.engine.observation_size,), np.float32
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.seats = np.zeros(self.num_envs, dtype=np.int64)
        self._last_return = np.zeros(self.num_envs)
        self._started = False

    # ------------------------------------------------------------------ the game's part

    def _seed_engine(self, seed: int | None, tables: np.ndarray) -> None:
        """New games at ``tables``; ``seed`` is ``reset``'s (None after the first)."""
        raise NotImplementedError

    def returns(self) -> np.ndarray:
        """Every seat's result so far at every table, (num_envs, num_players)."""
        raise NotImplementedError

    def _episode_info(self, ended: np.ndarray) -> dict[str, Any]:
        """More of ``info`` for the tables whose episode ``ended`` (before they restart)."""
        return {}

    def _learner_out(self, tables: np.ndarray) -> np.ndarray:
        """Whether the learner at each of ``tables`` has left the match (its episode is over
        though the others may play on). Never, unless the game says otherwise."""
        return np.zeros(len(tables), dtype=bool)

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        begin_reset(self, seed, options)
        for j, agent in enumerate(self.opponents):
            reset = getattr(agent, "reset", None)
            if callable(reset):
                reset(seed=None if seed is None else int(self.np_random.integers(2**31)) + j)
        self._restart(np.arange(self.num_envs), seed)
        self._started = True
        return self._observations(), self._info()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        actions = action_ids(actions, (self.num_envs,))
        engine = self.engine
        engine.step(actions)
        self._play_opponents()
        every = np.arange(self.num_envs)
        returns = self.returns()
        now = returns[every, self.seats].astype(np.float64)
        rewards = (now - self._last_return) * self.reward_scale
        self._last_return = now
        terminated = engine.match_over | self._learner_out(every)
        info: dict[str, Any] = {}
        done = np.flatnonzero(terminated)
        if len(done):
            final = np.zeros((self.num_envs, engine.observation_size), dtype=np.float32)
            final[done] = engine.encode(self.seats[done], done)
            ended = np.zeros_like(returns)
            ended[done] = returns[done]
            info.update(final_obs=final, _final_obs=terminated, returns=ended, _returns=terminated)
            info.update(final_seat=self.seats.copy(), _final_seat=terminated)
            info.update(self._episode_info(terminated))
            self._restart(done, None)
        info.update(self._info())
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observations(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of every table's learner now, (num_envs, actions) booleans."""
        return self.engine.action_masks().astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # ------------------------------------------------------------------ internals

    def _restart(self, tables: np.ndarray, seed: int | None) -> None:
        """New episodes at ``tables``: learner seats drawn, opponents played up to the
        learner's first decision; a table where the learner gets none starts again."""
        n = self.engine.n
        while len(tables):
            self._seed_engine(seed, tables)
            seed = None
            if self.learner_seat is None:
                self.seats[tables] = self.np_random.integers(n, size=len(tables))
            else:
                self.seats[tables] = self.learner_seat
            self._last_return[tables] = self.returns()[tables, self.seats[tables]]
            for agent in self.opponents:
                if hasattr(agent, "reset_tables"):  # agents that keep a state per table
                    agent.reset_tables(tables)
            self._play_opponents(tables)
            tables = tables[self.engine.match_over[tables]]

    def _play_opponents(self, tables: np.ndarray | None = None) -> None:
        engine = self.engine
        tables = np.arange(self.num_envs) if tables is None else tables
        actions = np.zeros(self.num_envs, dtype=np.int64)
        while True:
            current = engine.current[tables]
            waiting = tables[
                (current >= 0) & (current != self.seats[tables]) & ~self._learner_out(tables)
            ]
            if not len(waiting):
                return
            seat = engine.current[waiting]
            # Opponent j sits at the j-th seat other than the learner's, in seat order.
            position = seat - (seat > self.seats[waiting])
            for j, agent in enumerate(self.opponents):
                rows = waiting[position == j]
                if not len(rows):
                    continue
                observations = (
                    engine.encode(engine.current[rows], rows)
                    if getattr(agent, "needs_observation", True)
                    else None
                )
                masks = engine.action_masks(rows)
                if getattr(agent, "per_table", False):
                    actions[rows] = agent.act_batch(observations, masks, tables=rows)
                else:
                    actions[rows] = act_batch(agent, observations, masks)
            engine.step(actions, tables=waiting)

    def _observations(self) -> np.ndarray:
        return self.engine.encode(self.seats)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.engine.action_masks(), "seat": self.seats.copy()}
