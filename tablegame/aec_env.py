"""Every seat an agent: a PettingZoo AEC env over any game keeping the engine contract.

In the style of PettingZoo's classic card games: each observation is a dict with
``observation`` (the seat's flat vector) and ``action_mask`` (int8). Rewards are the change in
each seat's returns after every step; all agents terminate together when the game is over.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from tablegame.engine import IllegalActionError, TurnBasedGame, as_action_id
from tablegame.gym_env import NO_RENDER_MODE

__all__ = ["TableAECEnv"]


class TableAECEnv(AECEnv):
    """AEC env over a :class:`~tablegame.engine.TurnBasedGame`; agents are ``player_0``..."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "table_v0",
        "is_parallelizable": False,
    }

    def __init__(self, table: TurnBasedGame, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: must be None, 'ansi' or 'human', got {render_mode!r}")
        self.table = table
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(table.num_players)]
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    table.observation_low, 1.0, (table.observation_size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (table.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(table.num_actions) for a in self.possible_agents}
        self._seed: int | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        mask = self.table.action_mask() if self.table.current_player == seat else None
        if mask is None:
            mask = np.zeros(self.table.num_actions, dtype=np.int8)
        return {"observation": self.table.encode(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table.reset(seed=int(self._rng.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last_returns = self.table.returns().tolist()
        self.agent_selection = self.possible_agents[self.table.current_player]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        self.table.apply_id(as_action_id(action))
        returns = self.table.returns().tolist()
        self._cumulative_rewards[agent] = 0
        if returns == self._last_returns:  # most steps: nobody has won or lost anything yet
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        else:
            self.rewards = {
                a: float(now - before)
                for a, now, before in zip(
                    self.possible_agents, returns, self._last_returns, strict=True
                )
            }
            self._last_returns = returns
        if self.table.is_over:
            self.terminations = {a: True for a in self.agents}
            final = np.asarray(returns, dtype=float)
            for a in self.agents:
                self.infos[a] = {"returns": final}
        else:
            self.agent_selection = self.possible_agents[self.table.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:  # as PettingZoo's classic envs do
            logger.warn(NO_RENDER_MODE)
            return None
        seat = self.table.current_player
        text = self.table.render_text(seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass
