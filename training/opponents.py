"""Who the learner plays: named agents and snapshots of itself, drawn per episode (or per
table), and the envs that seat them.

The snapshots are the learner's own files in the run's ``pool/`` folder. With a population
(``mixture`` other than uniform) the draw follows the weights ``mixture.json`` lists, which
the mixture's callback rewrites as the population changes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.ppo import PPOAgent
from agents.random_agent import RandomAgent
from games import game_info
from tablegame.agent import act_by_table, assign_tables
from tablegame.registry import make_agent
from tablegame.sb3_vec import SB3VecEnv
from training.config import TrainConfig

__all__ = ["PoolOpponent", "make_batched_env", "make_env", "newest_snapshots", "pool_opponents"]


def newest_snapshots(pool_dir: Path, count: int) -> list[Path]:
    """The ``count`` newest snapshots in ``pool_dir``, oldest first (by step, not by name)."""
    if not pool_dir.is_dir():
        return []
    found = sorted(pool_dir.glob("snapshot_*.zip"), key=lambda p: int(p.stem.split("_")[1]))
    return found[-count:]


class PoolOpponent:
    """At each episode, plays as one member drawn uniformly from the named agents plus, with
    ``self`` among them, the newest snapshots of the learner saved in ``pool_dir``; or, with
    a ``mixture_file`` (PSRO), drawn by the weights of the members it lists."""

    needs_observation = True

    def __init__(
        self,
        specs: Sequence[str],
        game: str,
        pool_dir: Path,
        pool_size: int,
        seed: int,
        config=None,
        mixture_file: Path | None = None,
    ):
        # Seeded at construction: batched envs draw a member per table and play it without a
        # reset, so an unseeded member (random, bluffer) would make the same seed give
        # different games. (Single envs reseed the member they draw at every reset.)
        self.specs = list(specs)
        self.game, self.config = game, config
        names = [s for s in specs if s != "self"]
        self.named = [
            make_agent(s, game, seed=seed * 1000 + i, config=config) for i, s in enumerate(names)
        ]
        self.self_play = "self" in specs
        self.pool_dir = Path(pool_dir)
        self.pool_size = pool_size
        self.rng = random.Random(seed)
        self.loaded: dict[Path, Any] = {}
        self.current: Any = None
        self.members: list[Any] = []
        self.table_member = np.zeros(0, dtype=np.int64)
        self.mixture_file = Path(mixture_file) if mixture_file is not None else None
        self._mixture: tuple[int, list[Any], list[float]] | None = None  # (mtime, members, weights)
        self.reset()

    def snapshots(self) -> list[Path]:
        return newest_snapshots(self.pool_dir, self.pool_size) if self.self_play else []

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        members, weights = self._pool()
        choice = self._agent(members[self._draw(len(members), weights)])
        choice.reset(seed=self.rng.randrange(2**31))
        self.current = choice

    def _draw(self, count: int, weights: list[float] | None) -> int:
        """A member's index among ``count``: uniform, or by the mixture's ``weights``."""
        if weights is None:
            return self.rng.randrange(count)
        return self.rng.choices(range(count), weights)[0]

    def _read_mixture(self) -> tuple[list[Any], list[float]] | None:
        """The mixture file's members (named agents, snapshot paths) and weights, read again
        only when the file changes; None before the first is written."""
        if self.mixture_file is None:
            return None
        try:
            stamp = self.mixture_file.stat().st_mtime_ns
        except FileNotFoundError:
            return None
        if self._mixture is None or self._mixture[0] != stamp:
            found = json.loads(self.mixture_file.read_text())
            names = [s for s in self.specs if s != "self"]
            members = [
                self.named[names.index(m)] if m in names else self.pool_dir / m
                for m in found["members"]
            ]
            self._mixture = (stamp, members, list(found["weights"]))
        return self._mixture[1], self._mixture[2]

    def _pool(self) -> tuple[list[Any], list[float] | None]:
        """The members to draw from and their weights (None: uniform): with a mixture file
        that lists members, those and the file's weights; else the named agents and the newest
        snapshots (paths, loaded when first drawn)."""
        mixture = self._read_mixture()
        if mixture is not None and mixture[0]:
            return list(mixture[0]), mixture[1]
        members: list[Any] = list(self.named) + self.snapshots()
        if not members:  # self-play only and no snapshot yet: play randomly until there is one
            members = [RandomAgent(self.rng.randrange(2**31))]
        return members, None

    def _agent(self, member: Any) -> Any:
        """A member as an agent: snapshots (and exact best responses, folders) are loaded once,
        and dropped when they leave the pool or the mixture."""
        if not isinstance(member, Path):
            return member
        if member not in self.loaded:
            if self.mixture_file is None:  # the uniform pool forgets snapshots that left it
                self.loaded = {p: a for p, a in self.loaded.items() if p in self.snapshots()}
            elif self._mixture is not None:  # best responses replace each other
                self.loaded = {p: a for p, a in self.loaded.items() if p in self._mixture[1]}
            if member.is_dir():
                self.loaded[member] = make_agent(f"solved:{member}", self.game, config=self.config)
            else:
                self.loaded[member] = PPOAgent(member, deterministic=False)
        return self.loaded[member]

    def act(self, observation, action_mask) -> int:
        return self.current.act(observation, action_mask)

    # Batched envs (lith_env.vector): one member per table, drawn as each table starts an
    # episode; the env says which tables it restarts and which tables its rows are.

    per_table = True

    def reset_tables(self, tables: np.ndarray) -> None:
        members, weights = self._pool()  # the mixture file is read once, not once a table
        self.members = members
        drawn = [self._draw(len(members), weights) for _ in tables]
        self.table_member = assign_tables(self.table_member, tables, drawn)

    def act_batch(self, observations, action_masks, tables: np.ndarray) -> np.ndarray:
        return act_by_table(
            self.table_member,
            tables,
            lambda m: self._agent(self.members[m]),  # snapshots load on first use
            observations,
            action_masks,
        )


def pool_opponents(config: TrainConfig, pool_dir: Path, rules: Any, seed: int) -> list:
    """One :class:`PoolOpponent` per other seat, seeded ``seed``, ``seed + 1``, ..."""
    return [
        PoolOpponent(
            config.opponents,
            config.game,
            pool_dir,
            config.pool_size,
            seed=seed + k,
            config=rules,
            mixture_file=pool_dir / "mixture.json" if config.mixture != "uniform" else None,
        )
        for k in range(config.players - 1)
    ]


def make_env(config: TrainConfig, rank: int, pool_dir: Path):
    """A factory for env ``rank`` (vectorized-env constructors want no-argument factories)."""

    def build():
        import gymnasium as gym
        import torch

        import gendeneia_env  # noqa: F401  (registers Gendeneia-v0)
        import lith_env  # noqa: F401  (registers Lith-v0)

        # Subprocess envs start a fresh interpreter: their snapshot opponents must run torch
        # on as many threads as the learner for the run to repeat exactly.
        torch.set_num_threads(config.torch_threads)
        env_id = game_info(config.game).env_id
        seed = config.seed * 1000 + rank * 10
        opponents = pool_opponents(config, pool_dir, config.game_config(), seed)
        env = gym.make(env_id, opponents=opponents, **config.env_kwargs())
        env.reset(seed=config.seed * 1000 + rank)
        from stable_baselines3.common.monitor import Monitor

        return Monitor(env.unwrapped)

    return build


def make_batched_env(config: TrainConfig, pool_dir: Path):
    """All ``n_envs`` tables in the game's batched engine (its env's ``gymnasium.make_vec``),
    as an SB3 VecEnv; episode statistics (``rollout/ep_rew_mean``) come from SB3's
    ``VecMonitor``."""
    import gymnasium as gym
    from stable_baselines3.common.vec_env import VecMonitor

    import gendeneia_env  # noqa: F401  (registers Gendeneia-v0)
    import lith_env  # noqa: F401  (registers Lith-v0)

    opponents = pool_opponents(config, pool_dir, config.game_config(), config.seed * 1000)
    env = gym.make_vec(
        game_info(config.game).env_id,
        num_envs=config.n_envs,
        vectorization_mode="vector_entry_point",
        opponents=opponents,
        **config.env_kwargs(),
    )
    vec = VecMonitor(SB3VecEnv(env))
    vec.seed(config.seed)
    return vec
