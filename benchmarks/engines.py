"""The engines: Lith's hand evaluator (``hands``) and the batched engine (``batched``), each
beside a bare numpy gather, the per-table engine or OpenSpiel's C++ hold'em in the same run."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
from rich.console import Console

from benchmarks.common import median_seconds, new_table, pick_legal, reference_library
from benchmarks.learning import bench_ppo
from lith_env.cards import deck
from lith_env.hands import strength, strength_table
from lith_env.hands_reference import reference_key

__all__ = [
    "HULH",
    "bench_batched",
    "bench_hands",
    "print_batched",
    "print_hands",
    "random_hands",
    "run_batched",
    "run_openspiel",
    "run_single_table",
]


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
    table = new_table(
        f"strength: {n:,} random hands, median of {result['repeat']}", ("what", "ms", "M hands/s")
    )
    for name, s in result["seconds"].items():
        table.add_row(name, f"{1e3 * s:.2f}", f"{n / s / 1e6:.2f}")
    console.print(table)
    ratios = new_table("Ratios (same run)", ("ratio", "value"))
    for name, value in result["ratios"].items():
        ratios.add_row(name, f"{value:,.1f}")
    console.print(ratios)


# ---------------------------------------------------------------------------------------------
# The batched engine


HULH = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,firstPlayer=2 1 1 1,"
    "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,raiseSize=10 10 20 20,"
    "maxRaises=3 4 4 4)"
)  # heads-up limit hold'em as OpenSpiel defines it


def random_play(engine, seconds: float, observe: bool, rng, deal) -> tuple[int, int, float]:
    """Random legal actions at every table of a batched engine (``BatchedLith`` or
    ``BatchedGendeneia``) for ``seconds``, observing the seat to act if ``observe``, and
    ``deal(tables)`` dealing the finished tables again: (table-steps, games, seconds)."""
    from tablegame.agent import uniform_legal

    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = engine.action_masks()
        if observe:
            engine.encode(engine.current.clip(0))
        steps += int(np.count_nonzero(engine.current >= 0))
        engine.step(uniform_legal(masks, rng))
        done = np.flatnonzero(engine.match_over)
        if len(done):
            games += len(done)
            deal(done)
    return steps, games, time.perf_counter() - start


def run_batched(num_tables: int, seconds: float, observe: bool, seed: int = 0):
    """Random legal actions at every table of a heads-up limit batched engine, finished tables
    dealt again: (table-steps, hands, seconds)."""
    from lith_env.batched import BatchedLith
    from lith_env.game import LithConfig

    engine = BatchedLith(LithConfig(num_players=2), num_tables, episode="hand")
    engine.reset(seed)
    rng = np.random.default_rng(seed)
    return random_play(engine, seconds, observe, rng, lambda done: engine.reset(None, done))


def run_single_table(seconds: float, observe: bool, seed: int = 0):
    """The same play on the per-table engine (``LithTable``), one table."""
    from lith_env.game import LithConfig
    from lith_env.table import LithTable

    table = LithTable(LithConfig(num_players=2))
    rng = np.random.default_rng(seed)
    table.reset(seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if observe:
            table.encode(table.current_player)
        table.apply_id(pick_legal(table.action_mask(), rng))
        steps += 1
        if table.is_over:
            hands += 1
            table.reset(None)
    return steps, hands, time.perf_counter() - start


def run_openspiel(game, seconds: float, observe: bool, seed: int = 0):
    """Random legal play of an OpenSpiel game: (decisions, hands, seconds); chance moves (the
    deal) are played but not counted as steps."""
    rng = np.random.default_rng(seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            if observe:
                state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        hands += 1
    return steps, hands, time.perf_counter() - start


def bench_batched(sizes: Sequence[int], seconds: float, repeat: int, ppo_steps: int) -> dict:
    """Table-steps and hands per second of the batched engine at each of ``sizes`` tables,
    beside the single-table engine and OpenSpiel's heads-up limit hold'em, with and without
    the acting seats' observations; then (``ppo_steps``) MaskablePPO on either env."""
    pyspiel = reference_library("pyspiel", "the batched benchmark needs")
    game = pyspiel.load_game(HULH)
    subjects: dict[str, Callable[[bool, int], tuple[int, int, float]]] = {
        f"batched N={n}": (lambda observe, r, n=n: run_batched(n, seconds, observe, r))
        for n in sizes
    }
    subjects["single-table engine"] = lambda observe, r: run_single_table(seconds, observe, r)
    subjects["OpenSpiel universal_poker HULH"] = lambda observe, r: run_openspiel(
        game, seconds, observe, r
    )
    rates: dict = {
        (name, observe): {"steps/s": [], "hands/s": []}
        for name in subjects
        for observe in (False, True)
    }
    for round_ in range(repeat):
        for (name, observe), figures in rates.items():
            steps, hands, elapsed = subjects[name](observe, round_)
            figures["steps/s"].append(steps / elapsed)
            figures["hands/s"].append(hands / elapsed)
    result: dict = {"engine": {}, "with observations": {}}
    for (name, observe), figures in rates.items():
        key = "with observations" if observe else "engine"
        result[key][name] = {k: statistics.median(v) for k, v in figures.items()}
    biggest = f"batched N={max(sizes)}"
    result["ratios"] = {
        f"{biggest} / OpenSpiel steps ({key})": result[key][biggest]["steps/s"]
        / result[key]["OpenSpiel universal_poker HULH"]["steps/s"]
        for key in ("engine", "with observations")
    } | {
        f"{biggest} / single-table steps ({key})": result[key][biggest]["steps/s"]
        / result[key]["single-table engine"]["steps/s"]
        for key in ("engine", "with observations")
    }
    if ppo_steps:
        result["ppo"] = bench_ppo(ppo_steps)
    return result


def print_batched(result: dict, console: Console) -> None:
    for key in ("engine", "with observations"):
        table = new_table(
            f"Heads-up limit, random legal actions: {key} (medians)",
            ("engine", "table-steps/s", "hands/s"),
        )
        for name, figures in result[key].items():
            table.add_row(name, f"{figures['steps/s']:,.0f}", f"{figures['hands/s']:,.0f}")
        console.print(table)
    for name, value in result["ratios"].items():
        console.print(f"  {name}: {value:.1f}x")
    if "ppo" in result:
        ppo = result["ppo"]
        console.print(
            "MaskablePPO steps/s: "
            + ", ".join(f"{k} {v:,.0f}" for k, v in ppo.items() if k != "ratio")
            + f" ({ppo['ratio']:.1f}x)"
        )
