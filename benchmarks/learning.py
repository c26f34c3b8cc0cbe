"""Learning (``population``, ``methods``, and ``batched``'s PPO figures): learner steps per
second of MaskablePPO on the batched env against single envs, of each equilibrium method
against MaskablePPO, and of population training against plain self-play, with where a
run's time goes."""

from __future__ import annotations

import os
import time

from rich.console import Console

from benchmarks.common import new_table

__all__ = [
    "TRAINING_PARTS",
    "bench_methods",
    "bench_population",
    "bench_ppo",
    "print_methods",
    "print_population",
]


def bench_ppo(steps: int) -> dict:
    """MaskablePPO learner steps per second, the same network and update sizes, on the batched
    vector env (64 tables) and on 8 ``Lith-v0`` envs in a DummyVecEnv (against ``tag``)."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    import lith_env  # noqa: F401
    from lith_env.vector import LithVectorEnv
    from tablegame.sb3_vec import SB3VecEnv

    torch.set_num_threads(1)

    def rate(vec, n_steps: int) -> float:
        model = MaskablePPO(
            "MlpPolicy", vec, n_steps=n_steps, batch_size=512, n_epochs=5, device="cpu", seed=0
        )
        start = time.perf_counter()
        model.learn(steps)
        return steps / (time.perf_counter() - start)

    batched = rate(SB3VecEnv(LithVectorEnv(64, opponents="tag")), 64)
    single = rate(
        DummyVecEnv(
            [lambda: Monitor(gym.make("Lith-v0", opponents="tag").unwrapped) for _ in range(8)]
        ),
        512,
    )
    return {
        "batched (64 tables)": batched,
        "8 x Lith-v0 (DummyVecEnv)": single,
        "ratio": batched / single,
    }


def bench_methods(steps: int, mccfr_iterations: int) -> dict:
    """Training throughput of each equilibrium method against plain MaskablePPO in the same
    run, on the one-round heads-up game (64 batched tables against ``tag``, one torch
    thread), and where a step's time goes: the engine (the vector env's steps), the policy's
    forward passes while collecting (the rest of a rollout) and the update. MCCFR's unit is
    another (sampled deals traversed), so it stands beside them, not in their ratio."""
    import torch
    from sb3_contrib import MaskablePPO

    from lith_env.game import LithConfig
    from lith_env.vector import LithVectorEnv
    from lith_solver.abstraction import AbstractSolver
    from lith_solver.one_round import OneRoundGame
    from tablegame.sb3_vec import SB3VecEnv
    from training.mmd import MMD

    torch.set_num_threads(1)
    # Each as train.py runs it (5 epochs unless the method says otherwise; SB3's own default
    # is 10): the bench's configs.
    methods = {
        "MaskablePPO (5 epochs)": (MaskablePPO, {"n_epochs": 5}),
        "PPO tuned (8 epochs)": (
            MaskablePPO,
            {"n_epochs": 8, "clip_range": 0.025, "ent_coef": 0.1, "vf_coef": 0.0625},
        ),
        "MMD (moving magnet)": (
            MMD,
            {
                "n_epochs": 5,
                "kl_coef": 5.0,
                "magnet_coef": 0.2,
                "magnet": "moving",
                "magnet_every": 16384,
            },
        ),
    }
    out: dict = {}
    for name, (learner, options) in methods.items():
        vec = SB3VecEnv(LithVectorEnv(64, opponents="tag", rounds=1))
        timed = {"engine": 0.0, "update": 0.0}
        step_wait = vec.step_wait

        def engine_step(step_wait=step_wait, timed=timed):
            start = time.perf_counter()
            result = step_wait()
            timed["engine"] += time.perf_counter() - start
            return result

        vec.step_wait = engine_step
        model = learner(
            "MlpPolicy", vec, n_steps=64, batch_size=512, device="cpu", seed=0, **options
        )
        train = model.train

        def timed_train(train=train, timed=timed):
            start = time.perf_counter()
            train()
            timed["update"] += time.perf_counter() - start

        model.train = timed_train
        start = time.perf_counter()
        model.learn(steps)
        total = time.perf_counter() - start
        forward = total - timed["engine"] - timed["update"]
        out[name] = {
            "steps/s": steps / total,
            "engine share": timed["engine"] / total,
            "forward share": forward / total,
            "update share": timed["update"] / total,
        }
    reference = out["MaskablePPO (5 epochs)"]["steps/s"]
    for figures in out.values():
        figures["ratio to MaskablePPO"] = figures["steps/s"] / reference
    solver = AbstractSolver(OneRoundGame(LithConfig(rounds=1)), 100, seed=0, traversals=1000)
    solver.iterate(1)  # compile
    start = time.perf_counter()
    solver.iterate(mccfr_iterations)
    seconds = time.perf_counter() - start
    out["MCCFR (100 buckets)"] = {"traversals/s": mccfr_iterations * 2 * 1000 / seconds}
    return out


def print_methods(result: dict, console: Console) -> None:
    table = new_table(
        "Training throughput by method (one-round heads-up, 64 batched tables)",
        ("method", "steps/s", "x MaskablePPO", "engine", "forward", "update"),
    )
    for name, figures in result.items():
        if "steps/s" not in figures:
            continue
        table.add_row(
            name,
            f"{figures['steps/s']:,.0f}",
            f"{figures['ratio to MaskablePPO']:.2f}",
            *(f"{figures[k + ' share']:.0%}" for k in ("engine", "forward", "update")),
        )
    console.print(table)
    mccfr = result["MCCFR (100 buckets)"]["traversals/s"]
    console.print(f"MCCFR (100 buckets): {mccfr:,.0f} sampled deals traversed a second")


# Where a training run's time goes: the function whose cumulative time is each part.
TRAINING_PARTS = {
    "engine and observations": ("lith_env/vector.py", "step"),
    "opponents' inference": ("train.py", "act_batch"),
    "learner's network, acting": ("maskable/policies.py", "forward"),
    "learner's update (PPO epochs)": ("ppo_mask/ppo_mask.py", "train"),
    "population: payoff tournaments and mixture": ("tournaments/population.py", "add"),
    "population: its plot (population.png)": ("tournaments/population.py", "plot"),
    "exact best responses": ("lith_solver/exploitability.py", "best_response_to"),
}


def bench_population(steps: int) -> dict:
    """Learner steps/s of plain self-play and of population training (the full game), and of
    self-play and of exploitability descent (the one-round game), with the share of each part
    of each run's time (from a profiled run of the same length)."""
    import cProfile
    import pstats
    import tempfile
    from pathlib import Path

    from training.config import TrainConfig
    from training.trainer import train

    full_game = {
        "opponents": ["tag", "bluffer", "rock", "caller", "self"],
        "self_play_every": max(steps // 10 // 64 * 64, 64),
    }
    one_round = {"opponents": ["self"], "rules": {"rounds": 1}, "self_play_every": 4096}
    arms = {  # name: (options, the reference it is compared with)
        "self-play pool": ({**full_game, "mixture": "uniform"}, None),
        "population (PSRO)": ({**full_game, "mixture": "nash"}, "self-play pool"),
        "one round: self-play": ({**one_round, "mixture": "uniform", "pool_size": 1}, None),
        "one round: exploitability descent": (
            {**one_round, "mixture": "best_response"},
            "one round: self-play",
        ),
    }

    def config(options: dict, out: str) -> TrainConfig:
        return TrainConfig(
            timesteps=steps,
            out=out,
            vec_env="batched",
            n_envs=64,
            n_steps=64,
            batch_size=512,
            eval_every=0,
            checkpoint_every=0,
            progress_bar=False,
            **options,
        )

    out: dict = {"steps": steps, "runs": {}, "parts": {}, "ratios": {}}
    with open(os.devnull, "w") as sink, tempfile.TemporaryDirectory(prefix="bench-") as scratch:
        quiet = Console(file=sink)
        for number, (name, (options, _)) in enumerate(arms.items()):
            run = str(Path(scratch) / str(number))
            start = time.perf_counter()
            train(config(options, run), console=quiet)
            seconds = time.perf_counter() - start
            out["runs"][name] = {"seconds": seconds, "steps/s": steps / seconds}
            profiler = cProfile.Profile()
            profiler.enable()
            train(config(options, run), console=quiet)
            profiler.disable()
            stats = pstats.Stats(profiler).stats

            def cumulative(file: str, function: str, stats=stats) -> float:
                return sum(
                    entry[3]
                    for (path, _, name_), entry in stats.items()
                    if name_ == function and path.endswith(file)
                )

            whole = cumulative("train.py", "train")
            parts = {part: cumulative(*where) / whole for part, where in TRAINING_PARTS.items()}
            # the env's step holds the opponents' inference: the engine's own share is the rest
            parts["engine and observations"] -= parts["opponents' inference"]
            parts["the rest (callbacks, snapshots, set-up)"] = 1 - sum(parts.values())
            out["parts"][name] = parts
    for name, (_, reference) in arms.items():
        if reference is not None:
            ratio = out["runs"][name]["steps/s"] / out["runs"][reference]["steps/s"]
            out["ratios"][f"{name} / {reference}"] = ratio
    out["ratio"] = out["ratios"]["population (PSRO) / self-play pool"]
    return out


def print_population(result: dict, console: Console) -> None:
    table = new_table(
        f"Learner steps/s, {result['steps']:,} steps a run, heads-up Lith",
        ("training", "seconds", "steps/s"),
    )
    for name, figures in result["runs"].items():
        table.add_row(name, f"{figures['seconds']:.1f}", f"{figures['steps/s']:,.0f}")
    console.print(table)
    for name, ratio in result["ratios"].items():
        console.print(f"  {name}, steps per second: {ratio:.2f}x")
    parts = new_table(
        "Where the time goes (share of train(), profiled run)", ("part", *result["parts"])
    )
    for part in next(iter(result["parts"].values())):
        parts.add_row(part, *(f"{result['parts'][name][part]:.0%}" for name in result["parts"]))
    console.print(parts)
