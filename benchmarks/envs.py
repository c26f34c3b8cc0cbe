"""The envs under random legal play: ``Lith-v0`` and the Lith AEC env beside RLCard's limit
hold'em and PettingZoo's ``texas_holdem_v4`` (``envs``), and Gendeneía's two envs
(``gendeneia``)."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console

from benchmarks.common import new_table, pick_legal, reference_library

__all__ = [
    "bench_envs",
    "bench_gendeneia",
    "lith_decisions",
    "print_envs",
    "print_gendeneia",
    "run_aec",
    "run_gym",
    "run_rlcard",
]


def run_gym(
    env, seconds: float, seed: int = 0, decisions_of: Callable[[Any], int] | None = None
) -> tuple[int, int, float, int | None]:
    """Random legal learner actions on a single-agent env: (steps, episodes, seconds,
    decisions). ``decisions_of(env)``, read when an episode ends, is how many decisions every
    seat made in it (learner and opponents); without it the decisions are not counted (None)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = episodes = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, info = env.step(pick_legal(info["action_mask"], rng))
        steps += 1
        if terminated or truncated:
            episodes += 1
            if decisions_of is not None:
                decisions += decisions_of(env)
            _, info = env.reset()
    elapsed = time.perf_counter() - start
    return steps, episodes, elapsed, decisions if decisions_of is not None else None


def lith_decisions(env) -> int:
    """Decisions of every seat in the hand a ``Lith-v0`` episode (``episode="hand"``) played."""
    return len(env.table.game.hand.actions)


def run_aec(env, seconds: float, seed: int = 0) -> tuple[int, int, float, int]:
    """Random legal actions for every agent of an AEC env: (steps, episodes, seconds,
    decisions), a decision a step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(pick_legal(observation["action_mask"], rng))
            steps += 1
        episodes += 1
        env.reset()
    return steps, episodes, time.perf_counter() - start, steps


def run_rlcard(
    env, seconds: float, seed: int = 0, only_seat: int | None = None
) -> tuple[int, int, float, int]:
    """Random legal actions on an RLCard env: every step is one player's action, and counts
    as one, or (``only_seat``) only the decisions of that seat count, as a single learner's.
    (steps, episodes, seconds, decisions of every seat)."""
    rng = np.random.default_rng(seed)
    state, player = env.reset()
    steps = episodes = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = list(state["legal_actions"])
        steps += only_seat is None or player == only_seat
        decisions += 1
        state, player = env.step(legal[rng.integers(len(legal))])
        if env.is_over():
            episodes += 1
            state, player = env.reset()
    return steps, episodes, time.perf_counter() - start, decisions


def bench_envs(players: Sequence[int], seconds: float, repeat: int) -> dict:
    """Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and PettingZoo's
    texas_holdem_v4, each run ``repeat`` times for ``seconds``, in turns; medians."""
    import gymnasium as gym

    import lith_env

    rlcard = reference_library("rlcard", "env benchmarks need")
    texas_holdem_v4 = reference_library("pettingzoo.classic.texas_holdem_v4", "env benchmarks need")

    results: dict = {}
    for n in players:
        subjects = {
            "Lith-v0": (
                functools.partial(run_gym, decisions_of=lith_decisions),
                lambda n=n: gym.make("Lith-v0", num_players=n).unwrapped,
            ),
            "Lith AEC": (run_aec, lambda n=n: lith_env.aec_env(num_players=n)),
            "RLCard limit-holdem": (
                run_rlcard,
                lambda n=n: rlcard.make("limit-holdem", config={"game_num_players": n, "seed": 0}),
            ),
            "PettingZoo texas_holdem_v4": (run_aec, lambda n=n: texas_holdem_v4.env(num_players=n)),
            # Like for like with Lith-v0: one seat's decisions, the others played in between.
            "RLCard limit-holdem, seat 0's steps": (
                functools.partial(run_rlcard, only_seat=0),
                lambda n=n: rlcard.make("limit-holdem", config={"game_num_players": n, "seed": 0}),
            ),
        }
        envs = {name: make() for name, (_, make) in subjects.items()}
        rates: dict[str, dict[str, list[float]]] = {
            name: {"steps/s": [], "hands/s": [], "decisions/s": []} for name in subjects
        }
        for round_ in range(repeat):
            for name, (runner, _) in subjects.items():
                steps, episodes, elapsed, decisions = runner(envs[name], seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["hands/s"].append(episodes / elapsed)
                rates[name]["decisions/s"].append(decisions / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
        row = results[str(n)]
        row["ratios"] = {
            "Lith-v0 / RLCard steps": row["Lith-v0"]["steps/s"]
            / row["RLCard limit-holdem"]["steps/s"],
            "Lith AEC / PettingZoo steps": row["Lith AEC"]["steps/s"]
            / row["PettingZoo texas_holdem_v4"]["steps/s"],
            "Lith-v0 / RLCard seat 0's steps": row["Lith-v0"]["steps/s"]
            / row["RLCard limit-holdem, seat 0's steps"]["steps/s"],
            # Every seat's decisions, whichever env makes them: the engines' pace side by side.
            "Lith-v0 / RLCard decisions": row["Lith-v0"]["decisions/s"]
            / row["RLCard limit-holdem"]["decisions/s"],
        }
    return results


def print_envs(result: dict, console: Console) -> None:
    for n, row in result.items():
        table = new_table(
            f"Random legal play, {n} players (medians)",
            ("env", "steps/s", "hands/s", "decisions/s", "decisions/step"),
        )
        for name, figures in row.items():
            if name != "ratios":
                table.add_row(
                    name,
                    *(f"{figures[k]:,.0f}" for k in ("steps/s", "hands/s", "decisions/s")),
                    f"{figures['decisions/s'] / figures['steps/s']:.2f}",
                )
        console.print(table)
        for name, value in row["ratios"].items():
            console.print(f"  {name}: {value:.2f}x")


def bench_gendeneia(players: Sequence[int], seconds: float, repeat: int) -> dict:
    """Random legal play on Gendeneia-v0 and the Gendeneia AEC env: steps/s and games/s."""
    import gymnasium as gym

    import gendeneia_env

    results: dict = {}
    for n in players:
        subjects = {
            "Gendeneia-v0": (run_gym, gym.make("Gendeneia-v0", num_players=n).unwrapped),
            "Gendeneia AEC": (run_aec, gendeneia_env.aec_env(num_players=n)),
        }
        rates: dict[str, dict[str, list[float]]] = {
            name: {"steps/s": [], "games/s": []} for name in subjects
        }
        for round_ in range(repeat):
            for name, (runner, env) in subjects.items():
                steps, episodes, elapsed, _ = runner(env, seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["games/s"].append(episodes / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
    return results


def print_gendeneia(result: dict, console: Console) -> None:
    table = new_table(
        "Gendeneia, random legal play, 10 rounds a game (medians)",
        ("players", "env", "steps/s", "games/s"),
        left=("env",),
    )
    for n, row in result.items():
        for name, figures in row.items():
            table.add_row(n, name, f"{figures['steps/s']:,.0f}", f"{figures['games/s']:,.1f}")
    console.print(table)
