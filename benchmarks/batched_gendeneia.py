"""Gendeneía on its batched engine (``gendeneia-batched``): the engine, the vector env against
the heuristics, and MaskablePPO on it, each beside the per-table engine or env in the same run.

- **engine**: random legal actions at ``tables`` three-player tables (finished games dealt
  again), with and without the acting seats' observations, beside the per-table engine
  (``GendeneiaTable``: the reference engine behind ids, masks and observations) and
  ``Gendeneia-v0`` (random opponents; one env step holds the opponents' actions too, so its
  table-steps are counted from every action).
- **learner**: learner steps a second of the vector env against two ``spoiler``s and two
  ``greedy``s (the learner plays random legal actions: the env alone), beside ``Gendeneia-v0``
  against the same agents.
- **ppo**: MaskablePPO's learner steps a second with the recipe's settings
  (``experiments/gendeneia_3p_batched.toml``) against the older recipe's (8 ``Gendeneia-v0``
  envs, rollouts of 512, minibatches of 512, 5 epochs, torch on one thread), against
  ``spoiler`` and ``greedy``; and where the recipe's time goes: collecting rollouts (engine,
  opponents and the policy's forward passes) and the updates.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console

from benchmarks.common import new_table, pick_legal

__all__ = ["bench_batched_gendeneia", "print_batched_gendeneia"]

PLAYERS = 3
RECIPE = {"n_envs": 1024, "n_steps": 32, "batch_size": 4096, "n_epochs": 3, "threads": 2}
OLDER = {"n_envs": 8, "n_steps": 512, "batch_size": 512, "n_epochs": 5, "threads": 1}


def run_engine(tables: int, seconds: float, observe: bool, seed: int) -> float:
    """Table-steps a second of random legal play on the batched engine."""
    from benchmarks.engines import random_play
    from gendeneia_env.batched import BatchedGendeneia
    from gendeneia_env.game import GendeneiaConfig

    engine = BatchedGendeneia(GendeneiaConfig(num_players=PLAYERS), tables)
    engine.reset(np.arange(tables) + seed * tables)
    dealt = tables * (seed + 1) * 1000

    def deal(done: np.ndarray) -> None:
        nonlocal dealt
        engine.reset(np.arange(dealt, dealt + len(done)), tables=done)
        dealt += len(done)

    steps, _, elapsed = random_play(engine, seconds, observe, np.random.default_rng(seed), deal)
    return steps / elapsed


def run_table(seconds: float, observe: bool, seed: int) -> float:
    """The same on the per-table engine, one table."""
    from gendeneia_env.game import GendeneiaConfig
    from gendeneia_env.table import GendeneiaTable

    table = GendeneiaTable(GendeneiaConfig(num_players=PLAYERS))
    rng = np.random.default_rng(seed)
    table.reset(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if observe:
            table.encode(table.current_player)
        table.apply_id(pick_legal(table.action_mask(), rng))
        steps += 1
        if table.is_over:
            table.reset(None)
    return steps / (time.perf_counter() - start)


def run_gym(opponents: list[str], seconds: float, seed: int, count_all: bool) -> float:
    """Steps a second of ``Gendeneia-v0`` (every seat's actions with ``count_all``)."""
    import gymnasium as gym

    import gendeneia_env  # noqa: F401

    env = gym.make("Gendeneia-v0", num_players=PLAYERS, opponents=opponents).unwrapped
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        before = len(env.table.game.actions)
        _, _, terminated, _, _ = env.step(pick_legal(env.action_masks(), rng))
        steps += len(env.table.game.actions) - before if count_all else 1
        if terminated:
            env.reset()
    return steps / (time.perf_counter() - start)


def run_vector(tables: int, opponents: list[str], seconds: float, seed: int) -> float:
    """Learner steps a second of the vector env, the learner playing random legal actions."""
    from gendeneia_env.vector import GendeneiaVectorEnv
    from tablegame.agent import uniform_legal

    env = GendeneiaVectorEnv(tables, num_players=PLAYERS, opponents=opponents)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(uniform_legal(env.action_masks(), rng))
        steps += tables
    return steps / (time.perf_counter() - start)


def run_ppo(settings: dict, steps: int) -> dict:
    """MaskablePPO learner steps a second with ``settings``, and the seconds spent
    collecting rollouts and updating."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    import gendeneia_env  # noqa: F401
    from gendeneia_env.vector import GendeneiaVectorEnv
    from tablegame.sb3_vec import SB3VecEnv

    torch.set_num_threads(settings["threads"])
    opponents = ["spoiler", "greedy"]
    if settings["n_envs"] > 8:
        vec = SB3VecEnv(GendeneiaVectorEnv(settings["n_envs"], opponents=opponents))
    else:
        vec = DummyVecEnv(
            [
                lambda: Monitor(gym.make("Gendeneia-v0", opponents=opponents).unwrapped)
                for _ in range(settings["n_envs"])
            ]
        )
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=settings["n_steps"],
        batch_size=settings["batch_size"],
        n_epochs=settings["n_epochs"],
        policy_kwargs={"net_arch": [256, 256]},
        device="cpu",
        seed=0,
    )
    spent = {"collect": 0.0, "update": 0.0}

    def timed(name: str, fn: Callable) -> Callable:
        def run(*args, **kwargs):
            start = time.perf_counter()
            out = fn(*args, **kwargs)
            spent[name] += time.perf_counter() - start
            return out

        return run

    model.collect_rollouts = timed("collect", model.collect_rollouts)
    model.train = timed("update", model.train)
    rollout = settings["n_envs"] * settings["n_steps"]
    total = max(1, steps // rollout) * rollout
    start = time.perf_counter()
    model.learn(total)
    elapsed = time.perf_counter() - start
    torch.set_num_threads(1)
    return {"steps/s": total / elapsed, **{k: v / elapsed for k, v in spent.items()}}


def bench_batched_gendeneia(tables: int, seconds: float, repeat: int, ppo_steps: int) -> dict:
    """The figures of the module docstring: medians over ``repeat`` rounds."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    rates: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        rates.setdefault(name, []).append(value)

    # PPO first: after the engine's threaded kernels have run at 4,096 rows, torch's updates
    # ran a third slower in the same process (7,062 steps/s against 10,100-10,500 alone).
    ppo = {}
    if ppo_steps:
        ppo["recipe"] = run_ppo(RECIPE, ppo_steps)
        ppo["older recipe"] = run_ppo(OLDER, max(ppo_steps // 8, 4096))
    heuristics = {"two spoiler": ["spoiler", "spoiler"], "two greedy": ["greedy", "greedy"]}
    run_engine(64, 0.2, True, 0)  # compile the kernels before any timing
    run_vector(64, ["spoiler", "spoiler"], 0.2, 0)
    for round_ in range(repeat):
        for observe in (False, True):
            key = "with observations" if observe else "engine"
            add(f"{key}: batched N={tables}", run_engine(tables, seconds, observe, round_))
            add(f"{key}: per-table engine", run_table(seconds, observe, round_))
        add(
            "Gendeneia-v0, random opponents (every action)",
            run_gym(["random"] * 2, seconds, round_, True),
        )
        for name, opponents in heuristics.items():
            add(
                f"learner: vector N={tables}, {name}",
                run_vector(tables, opponents, seconds, round_),
            )
            add(f"learner: Gendeneia-v0, {name}", run_gym(opponents, seconds, round_, False))
    result: dict = {"rates": {k: statistics.median(v) for k, v in rates.items()}}
    r = result["rates"]
    result["ratios"] = {
        "engine / per-table engine (with observations)": r[f"with observations: batched N={tables}"]
        / r["with observations: per-table engine"],
        "engine / Gendeneia-v0 (every action, with observations)": r[
            f"with observations: batched N={tables}"
        ]
        / r["Gendeneia-v0, random opponents (every action)"],
    } | {
        f"learner vs {name}: vector / Gendeneia-v0": r[f"learner: vector N={tables}, {name}"]
        / r[f"learner: Gendeneia-v0, {name}"]
        for name in heuristics
    }
    if ppo_steps:
        result["ppo"] = ppo
        result["ratios"]["PPO: recipe / older recipe"] = (
            ppo["recipe"]["steps/s"] / ppo["older recipe"]["steps/s"]
        )
    return result


def print_batched_gendeneia(result: dict, console: Console) -> None:
    table = new_table("Gendeneía, three players (medians)", ("subject", "steps/s"))
    for name, value in result["rates"].items():
        table.add_row(name, f"{value:,.0f}")
    console.print(table)
    if "ppo" in result:
        ppo = new_table(
            "MaskablePPO against spoiler and greedy",
            ("settings", "learner steps/s", "collecting", "updating"),
        )
        for name, figures in result["ppo"].items():
            ppo.add_row(
                name,
                f"{figures['steps/s']:,.0f}",
                f"{figures['collect']:.0%}",
                f"{figures['update']:.0%}",
            )
        console.print(ppo)
    for name, value in result["ratios"].items():
        console.print(f"  {name}: {value:.1f}x")
