"""Benchmarks of the suite, each measured beside a reference in the same run.

    python -m benchmarks.run hands [--n 1000000] [--repeat 31] [--json PATH]
    python -m benchmarks.run envs [--players 2,6] [--seconds 1] [--env-repeat 5]
    python -m benchmarks.run gendeneia [--seconds 1] [--env-repeat 5]

``hands``: :func:`lith_env.hands.strength` on random hands (int32 and int64 input) against a bare
numpy gather of the same size from a table of the same length (the practical limit) and against
the per-hand reference evaluator (timed on a subset, reported per hand).
``envs``: random legal play on Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and
PettingZoo's texas_holdem_v4 (install the ``bench`` extra). ``gendeneia``: random legal play
on Gendeneia-v0 and its AEC env for 2, 4 and 6 players. Figures are medians over
``--repeat`` runs; ratios compare figures of the same run, so machine noise mostly cancels.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

from lith_env.cards import deck
from lith_env.hands import strength, strength_table
from lith_env.hands_reference import reference_key


def median_seconds(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median wall time of each function over ``repeat`` rounds, after one warm-up round.

    The functions take turns within each round, so drift in machine load hits them alike.
    """
    times: dict[str, list[float]] = {name: [] for name in fns}
    for round_ in range(repeat + 1):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            if round_:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def random_hands(n: int, seed: int = 0, pawns_and_courts: bool = True) -> np.ndarray:
    """``n`` uniformly random 3-card hands of the deck, cards in random order, as int32."""
    rng = np.random.default_rng(seed)
    ids = np.array(deck(pawns_and_courts))
    combos = np.array(
        [(a, b, c) for a in ids for b in ids for c in ids if a < b < c], dtype=np.int32
    )
    hands = combos[rng.integers(0, len(combos), n)]
    return rng.permuted(hands, axis=1)


def bench_hands(n: int, repeat: int, reference_n: int) -> dict:
    """Time ``strength`` against a bare gather and the per-hand reference."""
    hands32 = random_hands(n)
    hands64 = hands32.astype(np.int64)
    table = strength_table()
    rng = np.random.default_rng(1)
    index_intp = rng.integers(0, len(table), n)
    index_int32 = index_intp.astype(np.int32)
    subset = hands32[:reference_n].tolist()

    seconds = median_seconds(
        {
            "bare gather, intp index": lambda: table[index_intp],
            "bare gather, int32 index": lambda: table[index_int32],
            "strength, int32 hands": lambda: strength(hands32),
            "strength, int64 hands": lambda: strength(hands64),
        },
        repeat,
    )
    reference = median_seconds({"ref": lambda: [reference_key(h) for h in subset]}, 3)["ref"]
    seconds["per-hand reference (scaled)"] = reference * n / reference_n
    return {
        "n": n,
        "repeat": repeat,
        "reference_n": reference_n,
        "table_entries": len(table),
        "seconds": seconds,
        "ratios": {
            "strength int32 / bare gather int32": seconds["strength, int32 hands"]
            / seconds["bare gather, int32 index"],
            "strength int32 / bare gather intp": seconds["strength, int32 hands"]
            / seconds["bare gather, intp index"],
            "reference / strength int32": seconds["per-hand reference (scaled)"]
            / seconds["strength, int32 hands"],
        },
    }


def print_hands(result: dict, console: Console) -> None:
    n = result["n"]
    table = Table(title=f"strength: {n:,} random hands, median of {result['repeat']}")
    table.add_column("what")
    table.add_column("ms", justify="right")
    table.add_column("M hands/s", justify="right")
    for name, s in result["seconds"].items():
        table.add_row(name, f"{1e3 * s:.2f}", f"{n / s / 1e6:.2f}")
    console.print(table)
    ratios = Table(title="Ratios (same run)")
    ratios.add_column("ratio")
    ratios.add_column("value", justify="right")
    for name, value in result["ratios"].items():
        ratios.add_row(name, f"{value:,.1f}")
    console.print(ratios)


# ---------------------------------------------------------------------------------------------
# Environments under random legal play


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def run_gym(env, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random legal learner actions on a single-agent env: (steps, episodes, seconds)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, info = env.step(_pick(info["action_mask"], rng))
        steps += 1
        if terminated or truncated:
            episodes += 1
            _, info = env.reset()
    return steps, episodes, time.perf_counter() - start


def run_aec(env, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random legal actions for every agent of an AEC env: (steps, episodes, seconds)."""
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
            env.step(_pick(observation["action_mask"], rng))
            steps += 1
        episodes += 1
        env.reset()
    return steps, episodes, time.perf_counter() - start


def run_rlcard(env, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random legal actions on an RLCard env (every step is one player's action)."""
    rng = np.random.default_rng(seed)
    state, _ = env.reset()
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.integers(len(legal))])
        steps += 1
        if env.is_over():
            episodes += 1
            state, _ = env.reset()
    return steps, episodes, time.perf_counter() - start


def bench_envs(players: Sequence[int], seconds: float, repeat: int) -> dict:
    """Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and PettingZoo's
    texas_holdem_v4, each run ``repeat`` times for ``seconds``, in turns; medians."""
    import gymnasium as gym

    import lith_env

    try:
        import rlcard
        from pettingzoo.classic import texas_holdem_v4
    except ImportError as error:  # the references come with the `bench` extra
        raise SystemExit(f"env benchmarks need the bench extra: {error}") from error

    results: dict = {}
    for n in players:
        subjects = {
            "Lith-v0": (run_gym, lambda n=n: gym.make("Lith-v0", num_players=n).unwrapped),
            "Lith AEC": (run_aec, lambda n=n: lith_env.aec_env(num_players=n)),
            "RLCard limit-holdem": (
                run_rlcard,
                lambda n=n: rlcard.make("limit-holdem", config={"game_num_players": n, "seed": 0}),
            ),
            "PettingZoo texas_holdem_v4": (run_aec, lambda n=n: texas_holdem_v4.env(num_players=n)),
        }
        envs = {name: make() for name, (_, make) in subjects.items()}
        rates: dict[str, dict[str, list[float]]] = {
            name: {"steps/s": [], "hands/s": []} for name in subjects
        }
        for round_ in range(repeat):
            for name, (runner, _) in subjects.items():
                steps, episodes, elapsed = runner(envs[name], seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["hands/s"].append(episodes / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
        row = results[str(n)]
        row["ratios"] = {
            "Lith-v0 / RLCard steps": row["Lith-v0"]["steps/s"]
            / row["RLCard limit-holdem"]["steps/s"],
            "Lith AEC / PettingZoo steps": row["Lith AEC"]["steps/s"]
            / row["PettingZoo texas_holdem_v4"]["steps/s"],
        }
    return results


def print_envs(result: dict, console: Console) -> None:
    for n, row in result.items():
        table = Table(title=f"Random legal play, {n} players (medians)")
        for column in ("env", "steps/s", "hands/s"):
            table.add_column(column, justify="left" if column == "env" else "right")
        for name, figures in row.items():
            if name != "ratios":
                table.add_row(name, f"{figures['steps/s']:,.0f}", f"{figures['hands/s']:,.0f}")
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
                steps, episodes, elapsed = runner(env, seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["games/s"].append(episodes / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
    return results


def print_gendeneia(result: dict, console: Console) -> None:
    table = Table(title="Gendeneia, random legal play, 10 rounds a game (medians)")
    for column in ("players", "env", "steps/s", "games/s"):
        table.add_column(column, justify="left" if column == "env" else "right")
    for n, row in result.items():
        for name, figures in row.items():
            table.add_row(n, name, f"{figures['steps/s']:,.0f}", f"{figures['games/s']:,.1f}")
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument(
        "which", choices=["hands", "envs", "gendeneia", "all"], nargs="?", default="all"
    )
    parser.add_argument("--n", type=int, default=1_000_000, help="hands per timing")
    parser.add_argument("--repeat", type=int, default=31, help="runs per median")
    parser.add_argument("--reference-n", type=int, default=20_000, help="hands for the reference")
    parser.add_argument("--players", default="2,6", help="player counts for the env benchmarks")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per env run")
    parser.add_argument("--env-repeat", type=int, default=5, help="runs per env median")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    console = Console()
    results: dict = {"machine": platform.platform(), "numpy": np.__version__}
    if args.which in ("hands", "all"):
        results["hands"] = bench_hands(args.n, args.repeat, args.reference_n)
        print_hands(results["hands"], console)
    if args.which in ("envs", "all"):
        players = [int(p) for p in args.players.split(",")]
        results["envs"] = bench_envs(players, args.seconds, args.env_repeat)
        print_envs(results["envs"], console)
    if args.which in ("gendeneia", "all"):
        results["gendeneia"] = bench_gendeneia([2, 4, 6], args.seconds, args.env_repeat)
        print_gendeneia(results["gendeneia"], console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
