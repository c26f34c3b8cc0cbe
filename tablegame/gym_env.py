"""One learner at a table of agents: a Gymnasium env over any game keeping the engine contract.

``step`` plays the learner's action, then every opponent's until it is the learner's turn again
or the episode ends, and returns only the learner's observation and reward. The episode ends
with the game, or earlier when the learner is out of it (``table.is_out``: a player out of
chips in a match has no decisions left). Illegal actions raise the engine's
:class:`~tablegame.engine.IllegalActionError` and change nothing.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from tablegame.agent import Agent
from tablegame.engine import IllegalActionError, TurnBasedGame, as_action_id
from tablegame.registry import make_agent

__all__ = [
    "LegalDiscrete",
    "SingleSeatEnv",
    "check_learner_seat",
    "check_reward_scale",
    "resolve_opponents",
]


NO_RENDER_MODE = (
    "render() was called with no render_mode: make the env with render_mode='ansi' (text) "
    "or 'human' (printed)"
)


class LegalDiscrete(gym.spaces.Discrete):
    """``Discrete`` whose ``sample()`` without a mask draws a *legal* action of its env's current
    state, so ``env.action_space.sample()`` is a random legal action. With an explicit ``mask``
    or ``probability`` it is a plain ``Discrete``; copies and pickles are plain too."""

    def __init__(self, n: int, env: SingleSeatEnv) -> None:
        super().__init__(n)
        self._env = weakref.ref(env)

    def sample(
        self, mask: np.ndarray | None = None, probability: np.ndarray | None = None
    ) -> np.int64:
        env = self._env() if self._env is not None else None
        if mask is None and probability is None and env is not None and env._started:
            legal = env._learner_mask()
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__() if hasattr(super(), "__getstate__") else self.__dict__.copy()
        state = dict(state)
        state["_env"] = None
        return state


def resolve_opponents(
    opponents: str | Agent | Sequence[str | Agent], count: int, game: str, config: Any = None
) -> list[Agent]:
    """``count`` opponent agents from a spec string, an agent, or one of either per seat;
    built-in agents get the game's rules (``config``)."""
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        opponents = [opponents] * count  # type: ignore[list-item]
    if len(opponents) != count:
        raise ValueError(f"opponents: need {count} (one per other seat), got {len(opponents)}")
    resolved = []
    for spec in opponents:
        agent = make_agent(spec, game, config=config) if isinstance(spec, str) else spec
        if not callable(getattr(agent, "act", None)):
            raise ValueError(
                f"opponents: {spec!r} is neither an agent spec nor an object with act()"
            )
        resolved.append(agent)
    return resolved


def check_learner_seat(learner_seat: object, num_players: int) -> None:
    """``learner_seat`` must be None (drawn each episode) or a seat number."""
    if learner_seat is not None and not (
        isinstance(learner_seat, int | np.integer)
        and not isinstance(learner_seat, bool)
        and 0 <= learner_seat < num_players
    ):
        raise ValueError(
            f"learner_seat: must be None or a seat 0-{num_players - 1}, got {learner_seat!r}"
        )


def check_reward_scale(reward_scale: object) -> float:
    """``reward_scale`` as a float; it must be a finite number."""
    if not (
        isinstance(reward_scale, int | float | np.number)
        and not isinstance(reward_scale, bool)
        and np.isfinite(reward_scale)
    ):
        raise ValueError(f"reward_scale: must be a finite number, got {reward_scale!r}")
    return float(reward_scale)


def _reset_agent(agent: Agent, seed: int | None) -> None:
    reset = getattr(agent, "reset", None)
    if not callable(reset):
        return
    if seed is None:
        reset()
        return
    try:
        reset(seed=seed)
    except TypeError:  # an agent whose reset() takes no seed
        reset()


class SingleSeatEnv(gym.Env):
    """The learner's seat of a :class:`~tablegame.engine.TurnBasedGame`.

    ``learner_seat=None`` draws the learner's seat each episode. The legal-action mask is in
    ``info["action_mask"]`` and :meth:`action_masks` (for sb3-contrib's MaskablePPO). The reward
    is the change in the learner's :meth:`returns`, times ``reward_scale``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        table: TurnBasedGame,
        opponents: Sequence[Agent],
        learner_seat: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        n = table.num_players
        check_learner_seat(learner_seat, n)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: must be None, 'ansi' or 'human', got {render_mode!r}")
        if len(opponents) != n - 1:
            raise ValueError(f"opponents: need {n - 1}, got {len(opponents)}")
        self.table = table
        self.opponents = list(opponents)
        self.learner_seat = learner_seat
        self.reward_scale = check_reward_scale(reward_scale)
        self.render_mode = render_mode
        self.observation_space = gym.spaces.Box(
            table.observation_low, 1.0, (table.observation_size,), np.float32
        )
        self.action_space = LegalDiscrete(table.num_actions, self)
        self.seat = 0 if learner_seat is None else int(learner_seat)
        self._seat_agents: dict[int, Agent] = {}
        self._last_return = 0.0
        self._started = False
        self._done = False  # the episode is over: the game ended, or the learner is out

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset options: none are supported, got {sorted(options)}")
        n = self.table.num_players
        self.seat = (
            int(self.np_random.integers(n)) if self.learner_seat is None else self.learner_seat
        )
        others = [s for s in range(n) if s != self.seat]
        self._seat_agents = dict(zip(others, self.opponents, strict=True))
        for agent in self.opponents:
            # A seeded reset reseeds the opponents too; an unseeded one lets them go on.
            _reset_agent(agent, int(self.np_random.integers(2**31)) if seed is not None else None)
        while True:
            self.table.reset(seed=int(self.np_random.integers(2**63)))
            # Counted from the start of the game, so what the opponents do before the
            # learner's first decision lands in its first reward and rewards sum to the result.
            self._last_return = float(self.table.returns()[self.seat])
            if not self._play_opponents():  # the learner gets at least one decision
                break
        self._started, self._done = True, False
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._started or self._done:
            raise IllegalActionError("the episode is over (or not started): call reset()")
        self.table.apply_id(as_action_id(action))
        terminated = self._done = self._play_opponents()
        now = float(self.table.returns()[self.seat])
        reward = (now - self._last_return) * self.reward_scale
        self._last_return = now
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now, as booleans (sb3-contrib's MaskablePPO)."""
        return self._learner_mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:  # as Gymnasium's own envs do
            gym.logger.warn(NO_RENDER_MODE)
            return None
        text = self.table.render_text(self.seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    # ------------------------------------------------------------------ internals

    def _play_opponents(self) -> bool:
        """Play the opponents until the learner is to act (False) or its episode is over
        (True): the game ended, or the learner is out of it while the others play on."""
        table, me = self.table, self.seat
        while True:
            seat = table.current_player  # None once the game is over
            if seat == me:
                return False
            if seat is None or table.is_out(me):
                return True
            agent = self._seat_agents[seat]
            # Agents that declare they never look at the observation are spared its encoding.
            observation = table.encode(seat) if getattr(agent, "needs_observation", True) else None
            table.apply_id(as_action_id(agent.act(observation, table.action_mask())))

    def _observation(self) -> np.ndarray:
        return self.table.encode(self.seat)

    def _learner_mask(self) -> np.ndarray:
        """The learner's legal actions (none once its episode is over)."""
        if self._done:
            return np.zeros(self.table.num_actions, dtype=np.int8)
        return self.table.action_mask()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._learner_mask(), "seat": self.seat}
        if self._done:
            info["returns"] = np.asarray(self.table.returns())
        return info
