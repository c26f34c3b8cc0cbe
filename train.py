"""Train a bot with MaskablePPO (sb3-contrib) on Lith-v0 or Gendeneia-v0, with optional self-play.

    python train.py --game lith --players 2 --opponents tag,bluffer,self --timesteps 200000 \\
        --seed 1 --out runs/lith-hu
    python train.py --config experiments/lith_hu_tag.toml --timesteps 50000   # flags override
    python train.py --resume runs/lith-hu --timesteps 400000                  # continue

Every option is below with its default and meaning; a TOML config file sets the same names
(``n_envs = 8``; rules as a ``[rules]`` table). PPO trains in whole rollouts of
n_envs x n_steps steps, so a run ends at --timesteps rounded up to a whole rollout.

The run folder keeps config.json (the resolved options, and the versions of Python and of the
packages that shape the results), model.zip, checkpoints/, pool/ (self-play snapshots),
metrics.json (evaluations and the opponent pool over time) and TensorBoard logs
(tensorboard --logdir runs). Every evaluation prints a line as it finishes; without a progress
bar (stdout not a terminal, or --no-progress-bar) every checkpoint and snapshot does too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from gendeneia_env.table import REWARDS

GAMES = ("lith", "gendeneia")
HEURISTICS = {
    "lith": ("tag", "bluffer", "rock", "caller", "random"),
    "gendeneia": ("greedy", "spoiler", "random"),
}
# What config.json records of the software a run was made with (importlib.metadata names).
PACKAGES = (
    "decktet-rl",
    "numpy",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "gymnasium",
    "pettingzoo",
    "scipy",
)
COMMIT_VARIABLE = "DECKTET_RL_COMMIT"  # set for Ray workers by distributed.cluster
MAX_SEED = 2**32 - 1  # SB3 seeds numpy's global generator, which takes 32 bits
MIXTURES = ("uniform", "nash", "best_response", "exploiter")
EXPLOITER_TARGETS = ("snapshot", "mixture")  # what a league's exploiters (exploiter_every) exploit
EVAL_BLOCKS = 200  # duplicate blocks per evaluation pairing when eval_units is not set


@dataclass
class TrainConfig:
    """Every option of a run (command line ``--name`` or TOML ``name = value``)."""

    game: str = "lith"  # lith or gendeneia
    players: int = 2  # seats at the table (Lith 2-10, Gendeneia 2-6)
    opponents: list[str] = field(
        default_factory=lambda: ["tag", "bluffer"]
    )  # specs; "self" = snapshots
    timesteps: int = 100_000  # learner decisions to train for (in total, when resuming)
    seed: int = 0  # seeds the envs, the opponents and the network
    out: str = "runs/run"  # the run folder
    n_envs: int = 4  # environments stepped together
    vec_env: str = "dummy"  # dummy, subproc (one process per env) or batched (Lith only)
    rules: dict[str, Any] = field(default_factory=dict)  # game rules, e.g. {betting = "no-limit"}
    reward: str = "final"  # Gendeneia only: final, shaped or shaped_win
    learning_rate: float = 3e-4
    learning_rate_end: float | None = None  # None: constant; else linear down to it by timesteps
    n_steps: int = 512  # steps per env between updates
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    self_play_every: int = 20_000  # steps between snapshots added to the opponent pool
    pool_size: int = 5  # newest snapshots kept in the pool (mixture = "uniform")
    # How the other seats are drawn: "uniform" over the named opponents and the newest
    # snapshots, or "nash": every snapshot joins a population with the named opponents, and
    # each is drawn by its weight in the equilibrium of the population's payoff table (PSRO),
    # or "best_response": the other seat plays the exact best response to the learner's
    # newest snapshot (exploitability descent; heads-up limit games the exact solver handles),
    # or "exploiter": the other seat plays a learned exploiter of the learner, trained on
    # every self_play_every steps for exploiter_steps more (exploitability descent with
    # learned best responses; heads-up, any game).
    mixture: str = "uniform"
    meta_units: int | None = None  # hands/games per payoff-table entry (None: 500 blocks)
    uniform_share: float = 0.0  # mixture = "nash": this share of the draws is uniform over members
    # mixture = "nash": every this many steps (a multiple of self_play_every; 0: never) an
    # exploiter of the newest snapshot is trained for exploiter_steps and joins the population.
    # mixture = "exploiter": the steps the exploiter trains at each of its refreshes.
    exploiter_every: int = 0
    exploiter_steps: int = 100_000
    # What those exploiters exploit: the newest "snapshot", or the population's equilibrium
    # "mixture" (PSRO's best response step, mixture:RUN/pool).
    exploiter_target: str = "snapshot"
    eval_every: int = 20_000  # steps between evaluations (0: none)
    eval_units: int | None = None  # hands/games per evaluation pairing (None: 200 blocks)
    checkpoint_every: int = 20_000  # steps between checkpoints (0: none)
    progress_bar: bool = True  # shown only when stdout is a terminal
    torch_threads: int = 1  # small networks on few cores run best on one; fixed for repeatability

    def validate(self) -> None:
        """Raise ValueError naming the first bad field."""

        def bad(name: str, why: str) -> ValueError:
            return ValueError(f"{name}: {why}, got {getattr(self, name)!r}")

        if self.game not in GAMES:
            raise bad("game", "must be lith or gendeneia")
        low, high = (2, 10) if self.game == "lith" else (2, 6)
        if not _is_int(self.players) or not low <= self.players <= high:
            raise bad("players", f"must be {low}-{high} for {self.game}")
        if (
            not isinstance(self.opponents, list)
            or not self.opponents
            or not all(isinstance(o, str) and o for o in self.opponents)
        ):
            raise bad("opponents", "must be a non-empty list of agent specs")
        for name in ("timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "pool_size"):
            if not _is_int(getattr(self, name)) or getattr(self, name) < 1:
                raise bad(name, "must be a positive integer")
        if not _is_int(self.torch_threads) or self.torch_threads < 1:
            raise bad("torch_threads", "must be a positive integer")
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise bad("seed", f"must be an integer from 0 to {MAX_SEED}")
        if not isinstance(self.out, str) or not self.out.strip():
            raise bad("out", "must be a folder name")
        if self.batch_size > self.n_envs * self.n_steps:
            raise bad("batch_size", f"must be at most n_envs x n_steps ({self.rollout_steps})")
        for name in ("self_play_every", "eval_every", "checkpoint_every"):
            value = getattr(self, name)
            if not _is_int(value) or value < 0:
                raise bad(name, "must be a non-negative integer (0: never)")
            if 0 < value < self.n_envs:
                # The callbacks run once per step of all the envs together.
                raise bad(name, f"must be 0 (never) or at least n_envs ({self.n_envs})")
        if "self" in self.opponents and self.self_play_every == 0:
            raise bad("self_play_every", "must be positive when the opponents include self")
        if self.mixture not in MIXTURES:
            raise bad("mixture", "must be " + ", ".join(MIXTURES[:-1]) + " or " + MIXTURES[-1])
        if self.mixture == "best_response" and self.opponents != ["self"]:
            raise bad(
                "opponents",
                "must be ['self'] with mixture = best_response (the other seat is the exact "
                "best response to the learner's snapshots)",
            )
        if self.mixture == "exploiter":
            if self.opponents != ["self"]:
                raise bad(
                    "opponents",
                    "must be ['self'] with mixture = exploiter (the other seat is an exploiter "
                    "of the learner)",
                )
            if self.players != 2:
                raise bad(
                    "players",
                    "must be 2 with mixture = exploiter (the exploiter is the one other seat)",
                )
        if self.opponents.count("self") > 1:
            raise bad("opponents", "names self more than once (the snapshots are one member)")
        if self.mixture != "uniform" and len(set(self.opponents)) < len(self.opponents):
            raise bad(
                "opponents",
                f"repeats a name, which weights the uniform draw; mixture = {self.mixture} "
                "draws its own way, so name each opponent once",
            )
        if self.mixture == "nash" and "self" not in self.opponents:
            raise bad("mixture", "nash needs 'self' among the opponents (snapshots join it)")
        if self.meta_units is not None and (
            not _is_int(self.meta_units) or self.meta_units < 1 or self.meta_units % self.players
        ):
            raise bad(
                "meta_units",
                f"must be a positive multiple of players ({self.players}): each duplicate "
                "block plays one deal in every seating",
            )
        if self.meta_units is not None and self.mixture != "nash":
            raise bad("meta_units", "is for mixture = nash only (the payoff table's entries)")
        if not _is_number(self.uniform_share) or not 0 <= self.uniform_share <= 1:
            raise bad("uniform_share", "must be a number from 0 to 1")
        if self.uniform_share and self.mixture != "nash":
            raise bad("uniform_share", "is for mixture = nash only (uniform already draws evenly)")
        for name in ("exploiter_every", "exploiter_steps"):
            if not _is_int(getattr(self, name)) or getattr(self, name) < 0:
                raise bad(name, "must be a non-negative integer")
        if self.mixture == "exploiter" and self.exploiter_steps < 1:
            raise bad("exploiter_steps", "must be positive with mixture = exploiter")
        if self.exploiter_every:
            if self.mixture != "nash":
                raise bad(
                    "exploiter_every", "is for mixture = nash only (exploiters join its population)"
                )
            if self.exploiter_every % self.self_play_every:
                raise bad(
                    "exploiter_every",
                    f"must be a multiple of self_play_every ({self.self_play_every}): an "
                    "exploiter is trained against the snapshot taken then",
                )
            if self.exploiter_steps < 1:
                raise bad("exploiter_steps", "must be positive when exploiter_every is set")
        if self.exploiter_target not in EXPLOITER_TARGETS:
            raise bad("exploiter_target", "must be " + " or ".join(EXPLOITER_TARGETS))
        if self.exploiter_target != "snapshot" and not self.exploiter_every:
            raise bad("exploiter_target", "is for the exploiters of exploiter_every (set it too)")
        if self.eval_units is not None and (
            not _is_int(self.eval_units) or self.eval_units < 1 or self.eval_units % self.players
        ):
            raise bad(
                "eval_units",
                f"must be a positive multiple of players ({self.players}): each duplicate "
                "block plays one deal in every seating",
            )
        if self.vec_env not in ("dummy", "subproc", "batched"):
            raise bad("vec_env", "must be dummy, subproc or batched")
        if self.vec_env == "batched" and self.game != "lith":
            raise bad("vec_env", "batched is for lith only (the batched engine plays Lith)")
        if self.reward not in REWARDS:
            raise bad("reward", "must be " + ", ".join(REWARDS[:-1]) + " or " + REWARDS[-1])
        if self.reward != "final" and self.game != "gendeneia":
            raise bad(
                "reward", f"{self.reward} is for gendeneia only (Lith pays the chips won or lost)"
            )
        for name in ("learning_rate", "gamma", "gae_lambda"):
            value = getattr(self, name)
            if not _is_number(value) or not 0 < value <= 1:
                raise bad(name, "must be a number in (0, 1]")
        if self.learning_rate_end is not None and (
            not _is_number(self.learning_rate_end) or not 0 < self.learning_rate_end <= 1
        ):
            raise bad("learning_rate_end", "must be a number in (0, 1] (or absent: constant)")
        if not _is_number(self.ent_coef) or not 0 <= self.ent_coef < math.inf:
            raise bad("ent_coef", "must be a non-negative number")
        if not isinstance(self.net_arch, list) or not all(
            _is_int(n) and n > 0 for n in self.net_arch
        ):
            raise bad("net_arch", "must be a list of positive layer widths")
        if not isinstance(self.progress_bar, bool):
            raise bad("progress_bar", "must be true or false")
        if not isinstance(self.rules, dict):
            raise bad("rules", "must be a table of game rules")
        from agents import make_agent

        for spec in self.opponents:
            if spec != "self":
                make_agent(spec, self.game)  # raises ValueError naming the problem
        self.game_config()  # raises ValueError naming a bad or unknown rule
        if self.mixture == "best_response":
            from lith_env.solve import check_solvable

            if self.game != "lith":
                raise bad("game", "must be lith with mixture = best_response (the solver's game)")
            try:
                check_solvable(self.game_config())
            except ValueError as error:
                raise ValueError(
                    f"mixture: best_response needs a game the exact solver handles ({error})"
                ) from None

    @property
    def rollout_steps(self) -> int:
        """Learner steps between two PPO updates (all envs together)."""
        return self.n_envs * self.n_steps

    def planned_steps(self, done: int = 0) -> int:
        """The step count the run will end at, from ``done``: PPO trains whole rollouts."""
        rollouts = math.ceil(max(0, self.timesteps - done) / self.rollout_steps)
        return done + rollouts * self.rollout_steps

    def eval_count(self) -> int:
        """Hands (Lith) or games (Gendeneia) per evaluation pairing."""
        return self.eval_units if self.eval_units is not None else EVAL_BLOCKS * self.players

    def game_config(self) -> Any:
        """The game's config (``LithConfig``/``GendeneiaConfig``) for ``players`` and ``rules``;
        an unknown rule is a ValueError listing the game's rules."""
        from agents.rules import game_config

        try:
            return game_config(self.game, self.players, self.rules)
        except TypeError as error:  # a value of a type the config cannot even compare
            raise ValueError(f"rules: {error}") from None

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``Lith-v0``/``Gendeneia-v0`` (checked as a game config)."""
        self.game_config()
        kwargs = {"num_players": self.players, **self.rules}
        if self.game == "gendeneia":
            kwargs["reward"] = self.reward
        return kwargs


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def load_config(path: str | Path) -> dict[str, Any]:
    """Options from a TOML file; unknown names raise ValueError naming them."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"config: no file at {str(path)!r}")
    try:
        values = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config: {path} is not valid TOML ({error})") from None
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known - {"experiment"})
    if unknown:
        raise ValueError(f"config: unknown option(s) {', '.join(unknown)} in {path}")
    return {k: v for k, v in values.items() if k in known}


def saved_options(run: Path) -> dict[str, Any]:
    """The options of an earlier run, from its ``config.json`` (without the versions)."""
    saved = run / "config.json"
    if not saved.is_file():
        raise ValueError(f"resume: no config.json in {str(run)!r}")
    try:
        values = json.loads(saved.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"resume: {saved} is not valid JSON ({error})") from None
    if not isinstance(values, dict):
        raise ValueError(f"resume: {saved} is not a table of options")
    values.pop("versions", None)
    if "threads" in values:  # the name of torch_threads before it was renamed
        values["torch_threads"] = values.pop("threads")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"resume: unknown option(s) {', '.join(unknown)} in {saved}")
    return values


def versions() -> dict[str, str | None]:
    """Python's version, each of ``PACKAGES``' (None: not installed), and the git commit of
    this checkout (``+dirty`` with uncommitted changes to tracked files; None outside git;
    on a Ray worker, which runs a copy of the code, the commit of the machine that sent it)."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    found["commit"] = _git_commit() or os.environ.get(COMMIT_VARIABLE)
    return found


def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=here, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


# ---------------------------------------------------------------------------------------------
# Opponents: a mixture of named agents and frozen snapshots of the learner


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
        from agents import make_agent

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
            from agents import RandomAgent

            members = [RandomAgent(self.rng.randrange(2**31))]
        return members, None

    def _agent(self, member: Any) -> Any:
        """A member as an agent: snapshots (and exact best responses, folders) are loaded once,
        and dropped when they leave the pool or the mixture."""
        if not isinstance(member, Path):
            return member
        if member not in self.loaded:
            from agents import make_agent
            from agents.ppo import PPOAgent

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
        from agents.base import assign_tables

        drawn = [self._draw(len(members), weights) for _ in tables]
        self.table_member = assign_tables(self.table_member, tables, drawn)

    def act_batch(self, observations, action_masks, tables: np.ndarray) -> np.ndarray:
        from agents.base import act_by_table

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
        env_id = "Lith-v0" if config.game == "lith" else "Gendeneia-v0"
        seed = config.seed * 1000 + rank * 10
        opponents = pool_opponents(config, pool_dir, config.game_config(), seed)
        env = gym.make(env_id, opponents=opponents, **config.env_kwargs())
        env.reset(seed=config.seed * 1000 + rank)
        from stable_baselines3.common.monitor import Monitor

        return Monitor(env.unwrapped)

    return build


def make_batched_env(config: TrainConfig, pool_dir: Path):
    """All ``n_envs`` Lith tables in one batched engine (``lith_env.vector``), as an SB3 VecEnv;
    episode statistics (``rollout/ep_rew_mean``) come from SB3's ``VecMonitor``."""
    from stable_baselines3.common.vec_env import VecMonitor

    from lith_env.vector import LithVectorEnv
    from tablegame.sb3_vec import SB3VecEnv

    opponents = pool_opponents(config, pool_dir, config.game_config(), config.seed * 1000)
    env = LithVectorEnv(config.n_envs, opponents=opponents, **config.env_kwargs())
    vec = VecMonitor(SB3VecEnv(env))
    vec.seed(config.seed)
    return vec


# ---------------------------------------------------------------------------------------------
# Callbacks: snapshots for self-play, evaluation tournaments, checkpoints, progress


def _due(steps: int, every: int, n_envs: int) -> bool:
    """Whether the vector step that reached ``steps`` crossed a multiple of ``every``."""
    return every > 0 and steps % every < n_envs


def _step_of(path: Path) -> int:
    """The step in a pool member's name: ``exploiter_4096.zip`` -> 4096."""
    return int(path.name.split(".")[0].rsplit("_", 1)[1])


def _play_only(pool: Path, member: str) -> None:
    """Make ``member`` the other seat's only player: ``mixture.json`` names it alone."""
    scratch = pool / "mixture.json.part"  # replaced in one step: envs read it any time
    scratch.write_text(json.dumps({"members": [member], "weights": [1.0]}))
    scratch.replace(pool / "mixture.json")


def _keep_newest_two(pool: Path, pattern: str, steps: int) -> None:
    """Remove the pool's ``pattern`` files and folders but those of ``steps`` and the one
    before (a subprocess env may still be loading it), and any of later steps (an earlier
    run's)."""
    found = list(pool.glob(pattern))
    keep = sorted({_step_of(p) for p in found if _step_of(p) <= steps})[-2:]
    for old in found:
        if _step_of(old) not in keep:
            shutil.rmtree(old) if old.is_dir() else old.unlink()


def _pool_exploiter(
    config: TrainConfig,
    target: str,
    out: Path,
    seed: int,
    final_units: int,
    warm_start: Path | None = None,
) -> dict[str, Any]:
    """Train an exploiter of the agent spec ``target`` for ``exploiter_steps`` in the folder
    ``out`` and copy it beside it as ``OUT.zip``, a pool member; returns what
    ``agents.exploiter.train_exploiter`` does."""
    import torch

    from agents.exploiter import ExploiterSpec, train_exploiter

    spec = ExploiterSpec(
        game=config.game,
        players=config.players,
        target=target,
        out=str(out),
        timesteps=config.exploiter_steps,
        rules=config.rules,
        seed=seed,
        eval_every=0,
        final_units=final_units,
        warm_start=str(warm_start) if warm_start is not None else None,
    )
    found = train_exploiter(spec, say=lambda _: None)
    torch.set_num_threads(config.torch_threads)  # the exploiter ran on one
    shutil.copyfile(out / "exploiter.zip", out.with_name(f"{out.name}.zip"))
    return found


def make_callbacks(config: TrainConfig, run: Path, say: Callable[[str], None], verbose: bool):
    """The run's callback: snapshots, evaluations and checkpoints, each at its interval.
    Evaluations are reported through ``say``; with ``verbose``, snapshots and checkpoints too."""
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayEvalCheckpoints(BaseCallback):
        """Adds snapshots to the pool, runs evaluation tournaments, saves checkpoints, and
        records metrics."""

        def __init__(self) -> None:
            super().__init__()
            self.metrics = _read_metrics(run)
            self.population = None
            self.exact_game = None  # mixture = "best_response": the solver's game
            self.best_response_step: int | None = None  # when the newest was solved (or trained)

        def _on_training_start(self) -> None:
            if config.mixture == "nash":
                self.population = _population(config, run, self.num_timesteps)
                self.record_population(self.num_timesteps)

        def _on_rollout_start(self) -> None:
            # Before the rollout, so that its hands are played against the best response to
            # the policy that plays them (at a step, it would answer the policy before the update).
            steps, last = self.num_timesteps, self.best_response_step
            if config.mixture in ("best_response", "exploiter") and (
                last is None or steps - last >= config.self_play_every
            ):
                if config.mixture == "best_response":
                    self.best_response(steps)
                else:
                    self.refresh_exploiter(steps)
                self.best_response_step = steps

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            due = _due(steps, config.self_play_every, config.n_envs)
            if due and config.mixture in ("uniform", "nash") and "self" in config.opponents:
                self.snapshot(steps)
            if _due(steps, config.eval_every, config.n_envs):
                self.evaluate(steps)
            if _due(steps, config.checkpoint_every, config.n_envs):
                path = run / "checkpoints" / f"model_{steps}_steps.zip"
                path.parent.mkdir(exist_ok=True)
                self.model.save(path)
                if verbose:
                    say(f"step {steps:,}: checkpoint {path}")
            return True

        def snapshot(self, steps: int) -> None:
            path = run / "pool" / f"snapshot_{steps}.zip"
            path.parent.mkdir(exist_ok=True)
            self.model.save(path)
            pool = [p.name for p in newest_snapshots(run / "pool", config.pool_size)]
            named = [o for o in config.opponents if o != "self"]
            self.logger.record("pool/snapshots", len(pool))
            self.metrics["pool"].append({"step": steps, "named": named, "snapshots": pool})
            if verbose:
                say(f"step {steps:,}: snapshot {path} ({len(pool)} in the pool)")
            if self.population is not None:
                self.population.add(path.name, steps)
                self.record_population(steps)
                if _due(steps, config.exploiter_every, config.n_envs):
                    self.add_exploiter(path, steps)

        def best_response(self, steps: int) -> None:
            """Make the exact best response to the learner's sampling policy the other seat's
            player (``mixture = "best_response"``), and record the learner's exploitability."""
            from agents.exploitability import best_response_to, solvable_game
            from agents.ppo import PPOAgent

            if self.exact_game is None:
                self.exact_game = solvable_game(config.game_config())
            pool = run / "pool"
            name = f"best_response_{steps}"
            learner = PPOAgent.of_model(self.model, deterministic=False)
            figures = best_response_to(learner, self.exact_game, "the learner", pool / name)
            _play_only(pool, name)
            _keep_newest_two(pool, "best_response_*", steps)
            entry = {"step": steps, **{k: float(v) for k, v in figures.items()}}
            self.metrics.setdefault("best_response", []).append(entry)
            self.logger.record("exact/exploitability", entry["exploitability"])
            if verbose:
                say(
                    f"step {steps:,}: exact best response, the learner's exploitability "
                    f"{entry['exploitability']:.4f} chips/hand"
                )

        def refresh_exploiter(self, steps: int) -> None:
            """Train the exploiter ``exploiter_steps`` more against the learner's sampling
            policy (the first one from scratch) and make it the other seat's player
            (``mixture = "exploiter"``); record what it wins."""
            pool = run / "pool"
            pool.mkdir(exist_ok=True)
            target = pool / f"learner_{steps}.zip"
            self.model.save(target)
            earlier = sorted(pool.glob("exploiter_*.zip"), key=_step_of)
            name = f"exploiter_{steps}"
            found = _pool_exploiter(
                config,
                f"ppo:{target}:deterministic=false",
                pool / name,
                seed=config.seed + steps,  # new deals at every refresh
                final_units=config.eval_units or EVAL_BLOCKS * config.players,
                warm_start=earlier[-1] if earlier else None,
            )
            target.unlink()
            _play_only(pool, f"{name}.zip")
            _keep_newest_two(pool, "exploiter_*", steps)
            gain = found["gain"]
            entry = {"step": steps, "exploiter_steps": found["steps"], **gain}
            entry = {k: v for k, v in entry.items() if isinstance(v, int | float)}
            self.metrics.setdefault("exploiter", []).append(entry)
            self.logger.record("exploit/gain", gain["mean"])
            if verbose:
                say(
                    f"step {steps:,}: exploiter trained {found['steps']:,} more steps, wins "
                    f"{gain['mean']:+.1f} [{gain['low']:+.1f}, {gain['high']:+.1f}] "
                    f"{'chips/100 hands' if config.game == 'lith' else 'win share'}"
                )

        def add_exploiter(self, snapshot: Path, steps: int) -> None:
            """Train a best response to ``snapshot`` (its sampling policy, in every other
            seat) or to the population's equilibrium mixture (``exploiter_target``) and add
            it to the population: the learner then trains against what exploits it, as a
            league's exploiters do, and the equilibrium must hold against it, as in PSRO."""
            name = f"exploiter_{steps}"
            if config.exploiter_target == "mixture":
                target, what = f"mixture:{run / 'pool'}", "the equilibrium mixture"
            else:
                target, what = f"ppo:{snapshot}:deterministic=false", snapshot.name
            found = _pool_exploiter(
                config,
                target,
                run / "pool" / name,
                seed=config.seed,
                final_units=config.players,  # the population's tournaments measure it
            )
            say(f"step {steps:,}: exploiter of {what}, {found['steps']:,} steps")
            self.population.add(f"{name}.zip", steps)
            self.record_population(steps)

        def record_population(self, steps: int) -> None:
            """Save the population (its mixture is what the opponents read next), log it to
            TensorBoard and the metrics, and plot it."""
            population = self.population
            population.save(run / "pool" / "population.json")
            if population.members:
                self.logger.record("population/members", len(population.members))
                self.logger.record("population/mixture_entropy", population.entropy())
                self.logger.record("population/newest_weight", float(population.mixture[-1]))
                self.metrics["population"] = population.history
                weights = ", ".join(
                    f"{m} {w:.2f}"
                    for m, w in zip(population.members, population.mixture, strict=True)
                    if w >= 0.005
                )
                say(f"step {steps:,}: population of {len(population.members)}, mixture {weights}")

        def evaluate(self, steps: int) -> None:
            # The tournament plays agents given by spec (ppo:PATH), so the policy goes to a
            # scratch file for the length of the evaluation.
            with tempfile.TemporaryDirectory(prefix="decktet-eval-") as scratch:
                path = Path(scratch) / "model.zip"
                self.model.save(path)
                results = evaluate(path, config)
            for name, value in results.items():
                self.logger.record(f"eval/{name}", value["mean"])
            unit = "hands" if config.game == "lith" else "games"
            entry = {"step": steps, unit: config.eval_count(), "results": results}
            self.metrics["evaluations"].append(entry)
            _write_metrics(run, self.metrics)
            say(evaluation_line(entry, config.game))

        def _on_training_end(self) -> None:
            _write_metrics(run, self.metrics)
            if self.population is not None and self.population.members:
                self.population.plot(run / "population.png")  # at the end: it takes a while

    return SelfPlayEvalCheckpoints()


def evaluation_line(entry: dict[str, Any], game: str) -> str:
    """One evaluation as a line: ``step 20,000: chips/100 hands vs tag +12.5 [-3.1, +28.0],
    vs bluffer ... (400 hands each)``."""
    parts = []
    for name, value in entry["results"].items():
        opponent = name.split(" vs ", 1)[1]
        if game == "lith":
            shown = f"{value['mean']:+.1f} [{value['low']:+.1f}, {value['high']:+.1f}]"
        else:
            shown = f"{value['mean']:.3f} [{value['low']:.3f}, {value['high']:.3f}]"
        parts.append(f"vs {opponent} {shown}")
    unit = "hands" if game == "lith" else "games"
    measure = "chips/100 hands" if game == "lith" else "win rate"
    each = " each" if len(parts) > 1 else ""
    return f"step {entry['step']:,}: {measure} {', '.join(parts)} ({entry[unit]:,} {unit}{each})"


def progress_callback(total: int, console: Any):
    """A callback showing a progress bar of learner steps on ``console`` (a rich Console),
    from 0 to ``total``: the steps the learn call will take (whole rollouts)."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from stable_baselines3.common.callbacks import BaseCallback

    class StepProgress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.total = total
            self.completed = 0
            self.progress = Progress(
                TextColumn("training"),
                BarColumn(),
                TextColumn("{task.completed:,.0f}/{task.total:,.0f} steps"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
            )
            self.task = self.progress.add_task("training", total=total)

        def _on_training_start(self) -> None:
            self.progress.start()

        def _on_step(self) -> bool:
            self.completed += self.training_env.num_envs
            self.progress.update(self.task, completed=self.completed)
            return True

        def _on_training_end(self) -> None:
            self.progress.stop()

    return StepProgress()


def evaluate(
    model_path: Path, config: TrainConfig, units: int | None = None, seed: int = 12345
) -> dict[str, dict]:
    """A duplicate mini-tournament of the model against each named heuristic opponent:
    chips/100 hands (Lith) or win rate (Gendeneia), each with its 95% interval."""
    from agents.tournament import TournamentSpec, run_tournament

    named = list(dict.fromkeys(o for o in config.opponents if o != "self"))  # once each
    named = named or list(HEURISTICS[config.game][:2])
    out = {}
    for opponent in named:
        lineup = (0,) + (1,) * (config.players - 1)
        spec = TournamentSpec(
            game=config.game,
            agents=(f"ppo:{model_path}", opponent),
            players=config.players,
            units=units if units is not None else config.eval_count(),
            seed=seed,
            rules=config.rules,
            analytics=False,
            lineup=lineup,
        )
        result = run_tournament(spec)
        mine = result["agents_results"][f"ppo:{model_path}"]
        key = "chips_per_100" if config.game == "lith" else "win_rate"
        out[f"{key} vs {opponent}"] = mine[key]
    return out


def _population(config: TrainConfig, run: Path, steps: int) -> Any:
    """The run's population: saved by an earlier part of the run (resuming), or new, with the
    named opponents as its first members (their payoff table played now)."""
    from agents.population import Population

    saved = run / "pool" / "population.json"
    if saved.is_file():
        return Population.load(saved)
    population = Population(
        config.game,
        config.players,
        config.rules,
        run / "pool",
        config.meta_units,
        config.seed,
        config.uniform_share,
    )
    (run / "pool").mkdir(parents=True, exist_ok=True)
    for name in config.opponents:
        if name != "self":
            population.add(name, steps)
    return population


def _read_metrics(run: Path) -> dict[str, list]:
    path = run / "metrics.json"
    if path.is_file():
        return json.loads(path.read_text())
    return {"evaluations": [], "pool": []}


def _write_metrics(run: Path, metrics: dict) -> None:
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))


# ---------------------------------------------------------------------------------------------
# The run


def latest_checkpoint(run: Path) -> Path | None:
    """What a resume continues from: the file with the most steps among the checkpoints and
    ``model.zip`` (``model.zip`` on a tie: it is saved after the last update, a checkpoint of
    the same step before it)."""
    candidates = [(steps_of(p), 0, p) for p in run.glob("checkpoints/model_*_steps.zip")]
    final = run / "model.zip"
    if final.is_file():
        candidates.append((steps_of(final), 1, final))
    return max(candidates)[2] if candidates else None


def steps_of(path: Path) -> int:
    """The learner steps a saved model had trained: from a checkpoint's name, or from the
    model's saved data; a ValueError if the file cannot be read."""
    if path.name.startswith("model_") and path.name.endswith("_steps.zip"):
        return int(path.name.split("_")[1])
    try:
        with zipfile.ZipFile(path) as archive:
            return int(json.loads(archive.read("data"))["num_timesteps"])
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"resume: cannot continue from {str(path)!r}: {error}") from None


def learning_rate(config: TrainConfig) -> Any:
    """PPO's learning rate: constant, or SB3's linear schedule from ``learning_rate`` at the
    first step to ``learning_rate_end`` at ``timesteps``."""
    if config.learning_rate_end is None:
        return config.learning_rate
    from stable_baselines3.common.utils import LinearSchedule

    return LinearSchedule(config.learning_rate, config.learning_rate_end, end_fraction=1.0)


def load_for_resume(path: Path, env):
    """A checkpoint that loads and fits the env, or a ValueError saying what is wrong."""
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(path, env=env, device="cpu")
    except Exception as error:  # corrupt file, or spaces that do not match the env
        raise ValueError(f"resume: cannot continue from {str(path)!r}: {error}") from None
    return model


def train(config: TrainConfig, resume: bool = False, console: Any = None) -> Path:
    """Train (or continue) a run; returns the run folder. Lines (evaluations, and without a
    progress bar checkpoints and snapshots) and the bar go to ``console`` (a rich Console;
    default: stdout). The bar shows only if ``config.progress_bar`` and it is a terminal."""
    config.validate()
    from rich.console import Console

    console = console if console is not None else Console()
    run = Path(config.out)
    previous: dict[str, Any] = {}
    done = 0
    if resume:
        checkpoint = latest_checkpoint(run)
        if checkpoint is None:
            raise ValueError(f"resume: no checkpoint or model.zip in {str(run)!r}")
        done = steps_of(checkpoint)
        if done >= config.timesteps:
            raise ValueError(
                f"--timesteps: the run in {str(run)!r} has trained {done:,} steps already "
                f"({checkpoint.name}); give --timesteps above {done} to train on"
            )
        previous = _saved_versions(run)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(config.torch_threads)
    run.mkdir(parents=True, exist_ok=True)
    pool_dir = run / "pool"
    if not resume:
        # A fresh run in a used folder starts over: an earlier run's snapshots would join its
        # self-play pool, its checkpoints would be what a later --resume picks up, and its
        # evaluations would be mixed with the new ones.
        for stale in [
            *pool_dir.glob("snapshot_*.zip"),
            *pool_dir.glob("exploiter_*.zip"),
            *pool_dir.glob("learner_*.zip"),
            *run.glob("checkpoints/model_*.zip"),
            run / "metrics.json",
            pool_dir / "population.json",
            pool_dir / "mixture.json",
            pool_dir / "psro.json",  # agents.psro's log of iterations on the old population
            run / "population.png",
        ]:
            stale.unlink(missing_ok=True)
        for folder in [*pool_dir.glob("exploiter_*"), *pool_dir.glob("best_response_*")]:
            if folder.is_dir():
                shutil.rmtree(folder)
    if config.vec_env == "batched":
        vec = make_batched_env(config, pool_dir)
    else:
        factories = [make_env(config, rank, pool_dir) for rank in range(config.n_envs)]
        vec = SubprocVecEnv(factories) if config.vec_env == "subproc" else DummyVecEnv(factories)
    try:
        if resume:
            model = load_for_resume(checkpoint, vec)
        else:
            model = MaskablePPO(
                "MlpPolicy",
                vec,
                learning_rate=learning_rate(config),
                n_steps=config.n_steps,
                batch_size=config.batch_size,
                n_epochs=config.n_epochs,
                gamma=config.gamma,
                gae_lambda=config.gae_lambda,
                ent_coef=config.ent_coef,
                policy_kwargs={"net_arch": list(config.net_arch)},
                tensorboard_log=str(run / "tensorboard"),
                seed=config.seed,
                device="cpu",
                verbose=0,
            )
        found = versions()
        record = {**dataclasses.asdict(config), "versions": found}
        (run / "config.json").write_text(json.dumps(record, indent=2))
        changed = [f"{k} {previous[k]} -> {v}" for k, v in found.items() if previous.get(k, v) != v]
        if changed:
            say = _sayer(console)
            say(f"note: resuming with other versions than before: {'; '.join(changed)}")
        _learn(model, config, run, console, resume, done)
        model.save(run / "model.zip")
    finally:
        vec.close()
    return run


def _saved_versions(run: Path) -> dict[str, Any]:
    """The versions an earlier run recorded in its config.json (none if it did not)."""
    try:
        return dict(json.loads((run / "config.json").read_text()).get("versions", {}))
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def _sayer(console: Any) -> Callable[[str], None]:
    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False, soft_wrap=True)

    return say


def _learn(model, config: TrainConfig, run: Path, console: Any, resume: bool, done: int) -> None:
    """Train from ``done`` steps to ``config.timesteps`` (rounded up to whole rollouts)."""
    say = _sayer(console)
    planned = config.planned_steps(done)
    bar = config.progress_bar and console.is_terminal
    say(
        f"{config.game}, {config.players} players, against {','.join(config.opponents)}: "
        f"training steps {done:,} to {planned:,} (whole rollouts of {config.rollout_steps:,}) "
        f"in {run}"
    )
    callbacks = [make_callbacks(config, run, say, verbose=not bar)]
    if bar:
        callbacks.append(progress_callback(planned - done, console))
    try:
        model.learn(
            total_timesteps=config.timesteps - done,
            callback=callbacks,
            reset_num_timesteps=not resume,
            tb_log_name="ppo",
        )
    finally:
        if bar:
            callbacks[-1].progress.stop()  # also when training fails half-way


# ---------------------------------------------------------------------------------------------
# Command line

HELP = {
    "game": "lith or gendeneia",
    "players": "seats at the table (Lith 2-10, Gendeneia 2-6)",
    "opponents": "comma-separated agent specs (name or name:key=value), drawn per episode "
    "for every other seat; 'self' adds snapshots of the learner; a name given twice is "
    "drawn twice as often",
    "timesteps": "total learner decisions to train for (when resuming too); rounded up to "
    "whole rollouts of n_envs x n_steps",
    "seed": f"seed of envs, opponents and network (0 to {MAX_SEED})",
    "out": "run folder (a used one starts over: its snapshots, checkpoints and metrics go)",
    "n_envs": "environments stepped together",
    "vec_env": "dummy (one process), subproc (a process per env), or batched (Lith only: "
    "every table in one numpy engine)",
    "reward": ", ".join(REWARDS[:-1]) + f" or {REWARDS[-1]} (Gendeneia only; Lith pays the "
    "chips won or lost)",
    "learning_rate": "PPO learning rate, in (0, 1]",
    "learning_rate_end": "if given, the learning rate falls linearly from learning_rate to this "
    "at timesteps, in (0, 1]",
    "n_steps": "steps per env between updates",
    "batch_size": "PPO minibatch size (at most n_envs x n_steps)",
    "n_epochs": "PPO epochs per update",
    "gamma": "discount, in (0, 1]",
    "gae_lambda": "GAE lambda, in (0, 1]",
    "ent_coef": "entropy bonus, at least 0",
    "net_arch": "hidden layer widths of the policy and value networks, comma-separated",
    "self_play_every": "steps between snapshots added to the pool (with 'self' among the "
    "opponents; 0: none), or between best responses (mixture best_response) or the "
    "exploiter's refreshes (mixture exploiter)",
    "pool_size": "newest snapshots kept in the pool (mixture uniform)",
    "mixture": "how the other seats are drawn: uniform (over the named opponents and the "
    "newest snapshots), nash (PSRO: every snapshot joins a population with the named "
    "opponents, drawn by the equilibrium of their payoff table; needs 'self'), "
    "best_response (exploitability descent: the other seat plays the exact best response to "
    "the learner, computed again every self_play_every steps; opponents 'self' only, on a "
    "heads-up limit Lith game the exact solver handles, e.g. --rule rounds=1) or exploiter "
    "(the same with a learned best response: every self_play_every steps an exploiter of "
    "the learner trains exploiter_steps more and plays the other seat; opponents 'self' "
    "only, two players, any game)",
    "meta_units": "mixture nash: hands (Lith) or games (Gendeneia) per payoff-table entry, a "
    "multiple of players (default: 500 duplicate blocks)",
    "uniform_share": "mixture nash: the share of the draws spread evenly over every member, "
    "the rest by the equilibrium (0 to 1), so members the equilibrium leaves out still play",
    "exploiter_every": "mixture nash: every this many steps (a multiple of self_play_every; 0: "
    "never), a best response to the newest snapshot is trained and joins the population",
    "exploiter_steps": "mixture nash: training steps of each exploiter; mixture exploiter: "
    "the exploiter's training steps at each refresh",
    "exploiter_target": "mixture nash with exploiter_every: what each exploiter exploits, the "
    "newest snapshot (its sampling policy) or the population's equilibrium mixture "
    "(mixture:RUN/pool, PSRO's best response)",
    "eval_every": "steps between evaluation tournaments (0: none)",
    "eval_units": "hands (Lith) or games (Gendeneia) per evaluation pairing, a multiple of "
    "players (a duplicate block plays one deal in every seating)",
    "checkpoint_every": "steps between checkpoints (0: none)",
    "torch_threads": "torch threads; runs repeat bit for bit only with the same count",
}
# How a flag's text becomes a field's value, by the field's annotation.
KINDS = {"int": "an integer", "float": "a number"}  # "int | None" reads as "int"


def agent_list(game: str) -> str:
    """The built-in agents of a game, as listed in help texts (``ppo:PATH`` for agents that
    take a path)."""
    from agents.base import AGENTS, load_agents

    load_agents()
    return ", ".join(
        f"{name}:{argument.upper()}"
        if (argument := getattr(factory, "spec_argument", None))
        else name
        for name, factory in sorted(AGENTS[game].items())
    )


def parser() -> argparse.ArgumentParser:
    from agents.rules import rule_names

    p = argparse.ArgumentParser(
        prog="python train.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="More in docs/training.md.",
    )
    p.add_argument(
        "--config", metavar="FILE", help="a TOML file of options (flags given here override it)"
    )
    p.add_argument(
        "--resume",
        metavar="RUN",
        help="continue the run in this folder from its config.json and newest checkpoint, to "
        "--timesteps in total (more than it has trained)",
    )
    defaults = TrainConfig()
    for f in dataclasses.fields(TrainConfig):
        if f.name in HELP:
            default = getattr(defaults, f.name)
            if f.name == "opponents":
                shown = ",".join(default)
                extra = f"; lith: {agent_list('lith')}; gendeneia: {agent_list('gendeneia')}"
            elif f.name == "net_arch":
                shown, extra = ",".join(map(str, default)), ""
            elif f.name == "eval_units":
                shown, extra = f"{EVAL_BLOCKS} blocks, {EVAL_BLOCKS} x players", ""
            elif f.name == "meta_units":
                shown, extra = "500 blocks, 500 x players", ""
            else:
                shown, extra = default, ""
            p.add_argument(
                f"--{f.name.replace('_', '-')}",
                dest=f.name,
                default=None,
                metavar=f.name.upper(),
                help=f"{HELP[f.name]}{extra} (default: {shown})",
            )
    p.add_argument(
        "--rule",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="a game rule, repeatable (default: the game's standard rules); "
        f"lith: {', '.join(rule_names('lith'))}; gendeneia: {', '.join(rule_names('gendeneia'))}",
    )
    p.add_argument(
        "--no-progress-bar",
        action="store_true",
        help="no progress bar (there is none anyway when stdout is not a terminal)",
    )
    return p


def _coerce(name: str, text: str) -> Any:
    """A flag's text as the value of field ``name``; a ValueError naming it if it is not one."""
    kind = {f.name: f.type for f in dataclasses.fields(TrainConfig)}[name].removesuffix(" | None")
    if name == "opponents":
        return [o.strip() for o in text.split(",") if o.strip()]
    try:
        if name == "net_arch":
            return [int(width) for width in text.split(",") if width.strip()]
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        expected = "comma-separated integers" if name == "net_arch" else KINDS[kind]
        raise ValueError(f"--{name.replace('_', '-')}: expected {expected}, got {text!r}") from None
    return text


def config_from_args(argv: Sequence[str] | None = None) -> tuple[TrainConfig, bool]:
    """The run's options from the command line (over ``--config``, over ``--resume``'s)."""
    args = parser().parse_args(argv)
    values: dict[str, Any] = {}
    resume = args.resume is not None
    if resume:
        if args.out is not None:
            raise ValueError("--out: a resumed run continues in its own folder (--resume RUN)")
        values.update(saved_options(Path(args.resume)))
        values["out"] = args.resume  # the run continues where it is, wherever it was made
    if args.config:
        values.update(load_config(args.config))
    for f in dataclasses.fields(TrainConfig):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = _coerce(f.name, given)
    if args.rule:
        from agents.rules import parse_rules

        rules = values.get("rules", {})
        if not isinstance(rules, dict):
            raise ValueError(f"rules: must be a table of game rules, got {rules!r}")
        values["rules"] = {**rules, **parse_rules(args.rule)}
    if args.no_progress_bar:
        values["progress_bar"] = False
    config = TrainConfig(**values)
    config.validate()
    return config, resume


def main(argv: Sequence[str] | None = None, console: Any = None) -> int:
    """``python train.py``; returns the exit status (2: a bad option, named)."""
    try:
        config, resume = config_from_args(argv)
        run = train(config, resume=resume, console=console)
    except ValueError as error:
        print(f"train.py: error: {error}", file=sys.stderr)
        return 2
    print(f"model saved to {run / 'model.zip'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
