"""Train a bot with MaskablePPO (sb3-contrib) on Lith-v0 or Gendeneia-v0, with optional self-play.

    python train.py --game lith --players 2 --opponents tag,bluffer,self --timesteps 200000 \\
        --seed 1 --out runs/lith-hu
    python train.py --config experiments/lith_hu_tag.toml --timesteps 50000   # flags override
    python train.py --resume runs/lith-hu --timesteps 400000                  # continue

Every option is below with its default and meaning; a TOML config file sets the same names.
The run folder keeps ``config.json`` (the resolved options), checkpoints, ``model.zip``,
``metrics.json`` (evaluations and the opponent pool over time) and TensorBoard logs
(``tensorboard --logdir runs``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

GAMES = ("lith", "gendeneia")
HEURISTICS = {
    "lith": ("tag", "bluffer", "rock", "caller", "random"),
    "gendeneia": ("greedy", "spoiler", "random"),
}


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
    reward: str = "final"  # Gendeneia only: final or shaped
    learning_rate: float = 3e-4
    n_steps: int = 512  # steps per env between updates
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    self_play_every: int = 20_000  # steps between snapshots added to the opponent pool
    pool_size: int = 5  # newest snapshots kept in the pool
    eval_every: int = 20_000  # steps between evaluations (0: none)
    eval_units: int = 400  # hands (Lith) or games (Gendeneia) per evaluation pairing
    checkpoint_every: int = 20_000  # steps between checkpoints (0: none)
    progress_bar: bool = True
    threads: int = 1  # torch threads (small networks on few cores run best on one)

    def validate(self) -> None:
        """Raise ValueError naming the first bad field."""

        def bad(name: str, why: str) -> ValueError:
            return ValueError(f"{name}: {why}, got {getattr(self, name)!r}")

        if self.game not in GAMES:
            raise bad("game", "must be lith or gendeneia")
        low, high = (2, 10) if self.game == "lith" else (2, 6)
        if not isinstance(self.players, int) or not low <= self.players <= high:
            raise bad("players", f"must be {low}-{high} for {self.game}")
        if not self.opponents or not all(isinstance(o, str) and o for o in self.opponents):
            raise bad("opponents", "must be a non-empty list of agent specs")
        for name in (
            "timesteps",
            "n_envs",
            "n_steps",
            "batch_size",
            "n_epochs",
            "eval_units",
            "pool_size",
            "threads",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise bad(name, "must be a positive integer")
        for name in ("self_play_every", "eval_every", "checkpoint_every"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise bad(name, "must be a non-negative integer")
        if self.vec_env not in ("dummy", "subproc", "batched"):
            raise bad("vec_env", "must be dummy, subproc or batched")
        if self.vec_env == "batched" and self.game != "lith":
            raise bad("vec_env", "batched is for lith only (the batched engine plays Lith)")
        if self.reward not in ("final", "shaped"):
            raise bad("reward", "must be final or shaped")
        for name in ("learning_rate", "gamma", "gae_lambda"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= 1:
                raise bad(name, "must be a number in (0, 1]")
        if not isinstance(self.rules, dict):
            raise bad("rules", "must be a table of game rules")
        from agents import make_agent

        for spec in self.opponents:
            if spec != "self":
                make_agent(spec, self.game)  # raises ValueError naming the problem
        self.env_kwargs()  # builds the game config: raises ValueError naming a bad rule

    def env_kwargs(self) -> dict[str, Any]:
        kwargs = {"num_players": self.players, **self.rules}
        if self.game == "gendeneia":
            kwargs["reward"] = self.reward
            from gendeneia_env.game import GendeneiaConfig

            GendeneiaConfig(**{k: v for k, v in kwargs.items() if k not in ("reward",)})
        else:
            from lith_env.game import LithConfig

            LithConfig(**kwargs)
        return kwargs


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


# ---------------------------------------------------------------------------------------------
# Opponents: a mixture of named agents and frozen snapshots of the learner


class PoolOpponent:
    """At each episode, plays as one member drawn uniformly from the named agents plus, with
    ``self`` among them, the newest snapshots of the learner saved in ``pool_dir``."""

    needs_observation = True

    def __init__(
        self,
        specs: Sequence[str],
        game: str,
        pool_dir: Path,
        pool_size: int,
        seed: int,
        config=None,
    ):
        from agents import make_agent

        # Seeded at construction: batched envs draw a member per table and play it without a
        # reset, so an unseeded member (random, bluffer) would make the same seed give
        # different games. (Single envs reseed the member they draw at every reset.)
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
        self.reset()

    def snapshots(self) -> list[Path]:
        if not self.self_play or not self.pool_dir.is_dir():
            return []
        return sorted(
            self.pool_dir.glob("snapshot_*.zip"), key=lambda p: int(p.stem.split("_")[1])
        )[-self.pool_size :]

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        members = self._members()
        choice = self._agent(members[self.rng.randrange(len(members))])
        choice.reset(seed=self.rng.randrange(2**31))
        self.current = choice

    def _members(self) -> list[Any]:
        """The named agents and the newest snapshots (paths, loaded when first drawn)."""
        members: list[Any] = list(self.named) + self.snapshots()
        if not members:  # self-play only and no snapshot yet: play randomly until there is one
            from agents import RandomAgent

            members = [RandomAgent(self.rng.randrange(2**31))]
        return members

    def _agent(self, member: Any) -> Any:
        """A member as an agent: snapshots are loaded once, and dropped when they leave the pool."""
        if not isinstance(member, Path):
            return member
        if member not in self.loaded:
            from agents.ppo import PPOAgent

            self.loaded = {p: a for p, a in self.loaded.items() if p in self.snapshots()}
            self.loaded[member] = PPOAgent(member, deterministic=False)
        return self.loaded[member]

    def act(self, observation, action_mask) -> int:
        return self.current.act(observation, action_mask)

    # Batched envs (lith_env.vector): one member per table, drawn as each table starts an
    # episode; the env says which tables it restarts and which tables its rows are.

    per_table = True

    def reset_tables(self, tables: np.ndarray) -> None:
        members = self._members()
        self.members = members
        if len(self.table_member) <= int(np.max(tables, initial=-1)):
            grown = np.zeros(int(np.max(tables)) + 1, dtype=np.int64)
            grown[: len(self.table_member)] = self.table_member
            self.table_member = grown
        self.table_member[tables] = [self.rng.randrange(len(members)) for _ in tables]

    def act_batch(self, observations, action_masks, tables: np.ndarray) -> np.ndarray:
        from agents.base import act_batch

        out = np.zeros(len(action_masks), dtype=np.int64)
        members = self.table_member[tables]
        for m in np.unique(members):
            choice = self._agent(self.members[m])
            pick = members == m
            out[pick] = act_batch(choice, observations[pick], action_masks[pick])
        return out


def pool_opponents(config: TrainConfig, pool_dir: Path, rules: Any, seed: int) -> list:
    """One :class:`PoolOpponent` per other seat, seeded ``seed``, ``seed + 1``, ..."""
    return [
        PoolOpponent(
            config.opponents, config.game, pool_dir, config.pool_size, seed=seed + k, config=rules
        )
        for k in range(config.players - 1)
    ]


def make_env(config: TrainConfig, rank: int, pool_dir: Path):
    """A factory for env ``rank`` (vectorized-env constructors want no-argument factories)."""

    def build():
        import gymnasium as gym

        import gendeneia_env  # noqa: F401  (registers Gendeneia-v0)
        import lith_env  # noqa: F401  (registers Lith-v0)

        env_id = "Lith-v0" if config.game == "lith" else "Gendeneia-v0"
        kwargs = config.env_kwargs()
        probe = gym.make(env_id, **kwargs).unwrapped
        opponents = pool_opponents(config, pool_dir, probe.config, config.seed * 1000 + rank * 10)
        env = gym.make(env_id, opponents=opponents, **kwargs)
        env.reset(seed=config.seed * 1000 + rank)
        from stable_baselines3.common.monitor import Monitor

        return Monitor(env.unwrapped)

    return build


def make_batched_env(config: TrainConfig, pool_dir: Path):
    """All ``n_envs`` Lith tables in one batched engine (``lith_env.vector``), as an SB3 VecEnv;
    episode statistics (``rollout/ep_rew_mean``) come from SB3's ``VecMonitor``."""
    from stable_baselines3.common.vec_env import VecMonitor

    from lith_env.game import LithConfig
    from lith_env.vector import LithVectorEnv
    from tablegame.sb3_vec import SB3VecEnv

    kwargs = config.env_kwargs()
    opponents = pool_opponents(config, pool_dir, LithConfig(**kwargs), config.seed * 1000)
    env = LithVectorEnv(config.n_envs, opponents=opponents, **kwargs)
    vec = VecMonitor(SB3VecEnv(env))
    vec.seed(config.seed)
    return vec


# ---------------------------------------------------------------------------------------------
# Callbacks: snapshots for self-play, evaluation tournaments, metrics


def make_callbacks(config: TrainConfig, run: Path):
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class SelfPlayAndEval(BaseCallback):
        """Adds snapshots to the pool, runs evaluation tournaments, records metrics."""

        def __init__(self) -> None:
            super().__init__()
            self.metrics = _read_metrics(run)

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            every = config.self_play_every
            if "self" in config.opponents and every and steps % every < config.n_envs:
                path = run / "pool" / f"snapshot_{steps}.zip"
                path.parent.mkdir(exist_ok=True)
                self.model.save(path)
                pool = sorted(p.name for p in (run / "pool").glob("snapshot_*.zip"))[
                    -config.pool_size :
                ]
                named = [o for o in config.opponents if o != "self"]
                self.logger.record("pool/snapshots", len(pool))
                self.metrics["pool"].append({"step": steps, "named": named, "snapshots": pool})
            if config.eval_every and steps % config.eval_every < config.n_envs:
                self.evaluate(steps)
            return True

        def evaluate(self, steps: int) -> None:
            path = run / "eval_model.zip"
            self.model.save(path)
            results = evaluate(path, config)
            for name, value in results.items():
                self.logger.record(f"eval/{name}", value["mean"])
            self.metrics["evaluations"].append({"step": steps, "results": results})
            _write_metrics(run, self.metrics)

        def _on_training_end(self) -> None:
            _write_metrics(run, self.metrics)

    callbacks = [SelfPlayAndEval()]
    if config.checkpoint_every:
        callbacks.append(
            CheckpointCallback(
                max(1, config.checkpoint_every // config.n_envs),
                str(run / "checkpoints"),
                name_prefix="model",
            )
        )
    return callbacks


def evaluate(
    model_path: Path, config: TrainConfig, units: int | None = None, seed: int = 12345
) -> dict[str, dict]:
    """A duplicate mini-tournament of the model against each named heuristic opponent:
    chips/100 hands (Lith) or win rate (Gendeneia), each with its 95% interval."""
    from agents.tournament import TournamentSpec, run_tournament

    named = [o for o in config.opponents if o != "self"] or list(HEURISTICS[config.game][:2])
    rules = {k: v for k, v in config.env_kwargs().items() if k not in ("num_players", "reward")}
    out = {}
    for opponent in named:
        lineup = (0,) + (1,) * (config.players - 1)
        spec = TournamentSpec(
            game=config.game,
            agents=(f"ppo:{model_path}", opponent),
            players=config.players,
            units=units or config.eval_units,
            seed=seed,
            rules=rules,
            analytics=False,
            lineup=lineup,
        )
        result = run_tournament(spec)
        mine = result["agents_results"][f"ppo:{model_path}"]
        key = "chips_per_100" if config.game == "lith" else "win_rate"
        out[f"{key} vs {opponent}"] = mine[key]
    return out


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
    candidates = (
        list((run / "checkpoints").glob("model_*_steps.zip"))
        if (run / "checkpoints").is_dir()
        else []
    )
    final = run / "model.zip"
    if candidates:
        return max(candidates, key=lambda p: int(p.stem.split("_")[1]))
    return final if final.is_file() else None


def load_for_resume(path: Path, env):
    """A checkpoint that loads and fits the env, or a ValueError saying what is wrong."""
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(path, env=env, device="cpu")
    except Exception as error:  # corrupt file, or spaces that do not match the env
        raise ValueError(f"resume: cannot continue from {str(path)!r}: {error}") from None
    return model


def train(config: TrainConfig, resume: bool = False) -> Path:
    """Train (or continue) a run; returns the run folder."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    config.validate()
    import torch

    torch.set_num_threads(config.threads)
    run = Path(config.out)
    run.mkdir(parents=True, exist_ok=True)
    pool_dir = run / "pool"
    if not resume:
        # A fresh run in a used folder starts over: an earlier run's snapshots would join its
        # self-play pool and its checkpoints would be what a later --resume picks up.
        for stale in [*pool_dir.glob("snapshot_*.zip"), *run.glob("checkpoints/model_*.zip")]:
            stale.unlink()
    if config.vec_env == "batched":
        vec = make_batched_env(config, pool_dir)
    else:
        factories = [make_env(config, rank, pool_dir) for rank in range(config.n_envs)]
        vec = SubprocVecEnv(factories) if config.vec_env == "subproc" else DummyVecEnv(factories)
    if resume:
        checkpoint = latest_checkpoint(run)
        if checkpoint is None:
            raise ValueError(f"resume: no checkpoint or model.zip in {str(run)!r}")
        model = load_for_resume(checkpoint, vec)
    else:
        model = MaskablePPO(
            "MlpPolicy",
            vec,
            learning_rate=config.learning_rate,
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
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(config), indent=2))
    remaining = config.timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(
            total_timesteps=remaining,
            callback=make_callbacks(config, run),
            reset_num_timesteps=not resume,
            progress_bar=config.progress_bar,
            tb_log_name="ppo",
        )
    model.save(run / "model.zip")
    vec.close()
    return run


# ---------------------------------------------------------------------------------------------
# Command line


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python train.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--config", help="a TOML file of options (flags given here override it)")
    p.add_argument(
        "--resume",
        metavar="RUN",
        help="continue the run in this folder (its config.json, latest checkpoint)",
    )
    helps = {
        "game": "lith or gendeneia",
        "players": "seats at the table",
        "opponents": "comma-separated agent specs; 'self' adds snapshots of the learner",
        "timesteps": "total learner decisions to train for",
        "seed": "seed of envs, opponents and network",
        "out": "run folder",
        "n_envs": "environments stepped together",
        "vec_env": "dummy, subproc, or batched (Lith only: every table in one numpy engine)",
        "reward": "Gendeneia reward: final or shaped",
        "learning_rate": "PPO learning rate",
        "n_steps": "steps per env between updates",
        "batch_size": "PPO minibatch size",
        "n_epochs": "PPO epochs per update",
        "gamma": "discount",
        "gae_lambda": "GAE lambda",
        "ent_coef": "entropy bonus",
        "self_play_every": "steps between snapshots added to the pool (0: none)",
        "pool_size": "newest snapshots kept in the pool",
        "eval_every": "steps between evaluation tournaments (0: none)",
        "eval_units": "hands or games per evaluation pairing",
        "checkpoint_every": "steps between checkpoints (0: none)",
        "threads": "torch threads",
    }
    defaults = TrainConfig()
    for f in dataclasses.fields(TrainConfig):
        if f.name in helps:
            default = getattr(defaults, f.name)
            shown = ",".join(default) if isinstance(default, list) else default
            p.add_argument(
                f"--{f.name.replace('_', '-')}",
                dest=f.name,
                default=None,
                help=f"{helps[f.name]} (default: {shown})",
            )
    p.add_argument(
        "--rule", action="append", default=None, help="a game rule key=value (repeatable)"
    )
    p.add_argument("--no-progress-bar", action="store_true", help="no progress bar")
    return p


def _coerce(name: str, text: str) -> Any:
    kind = {f.name: f.type for f in dataclasses.fields(TrainConfig)}[name]
    if name == "opponents":
        return [o.strip() for o in text.split(",") if o.strip()]
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        raise ValueError(f"{name}: expected a number, got {text!r}") from None
    return text


def config_from_args(argv: Sequence[str] | None = None) -> tuple[TrainConfig, bool]:
    args = parser().parse_args(argv)
    values: dict[str, Any] = {}
    resume = args.resume is not None
    if resume:
        saved = Path(args.resume) / "config.json"
        if not saved.is_file():
            raise ValueError(f"resume: no config.json in {args.resume!r}")
        try:
            values.update(json.loads(saved.read_text()))
        except json.JSONDecodeError as error:
            raise ValueError(f"resume: {saved} is not valid JSON ({error})") from None
        values["out"] = args.resume  # the run continues where it is, wherever it was made
    if args.config:
        values.update(load_config(args.config))
    for f in dataclasses.fields(TrainConfig):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = _coerce(f.name, given)
    if args.rule:
        from agents.rules import parse_rules

        values["rules"] = {**values.get("rules", {}), **parse_rules(args.rule)}
    if args.no_progress_bar:
        values["progress_bar"] = False
    config = TrainConfig(**values)
    config.validate()
    return config, resume


def main(argv: Sequence[str] | None = None) -> int:
    try:
        config, resume = config_from_args(argv)
        run = train(config, resume=resume)
    except ValueError as error:
        print(f"train.py: error: {error}", file=sys.stderr)
        return 2
    print(f"model saved to {run / 'model.zip'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
