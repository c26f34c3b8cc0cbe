"""The exact solvers (``solver``): information-set updates per second of one-round discounted
CFR and of the exchange games' solver, beside OpenSpiel's C++ CFR+ on Leduc poker."""

from __future__ import annotations

import statistics
import time
from typing import Any

from rich.console import Console

from benchmarks.common import new_table

__all__ = ["bench_solver", "print_solver"]


def bench_solver(iterations: int, repeat: int) -> dict:
    """Information-set updates per second: our discounted CFR on the one-round heads-up game
    (every hand at every decision is an information set, updated once an iteration) and
    OpenSpiel's C++ CFR+ on Leduc poker, timed alternately in the same run."""
    import pyspiel
    from open_spiel.python.policy import TabularPolicy

    from lith_env.game import LithConfig
    from lith_solver.one_round import OneRoundGame, Solver

    game = OneRoundGame(LithConfig(rounds=1))
    ours_sets = len(game.decisions) * game.num_hands
    leduc = pyspiel.load_game("leduc_poker")
    leduc_sets = len(TabularPolicy(leduc).state_lookup)  # 936
    ours_rates, theirs_rates = [], []
    solver, reference = Solver(game), pyspiel.CFRPlusSolver(leduc)
    solver.iterate(2)  # warm the caches and the allocator
    for _ in range(repeat):
        start = time.perf_counter()
        solver.iterate(iterations)
        ours_rates.append(iterations * ours_sets / (time.perf_counter() - start))
        start = time.perf_counter()
        for _ in range(iterations):
            reference.evaluate_and_update_policy()
        theirs_rates.append(iterations * leduc_sets / (time.perf_counter() - start))
    ours, theirs = statistics.median(ours_rates), statistics.median(theirs_rates)
    slow = max(1, iterations // 10)  # the exchange games' iterations are far longer
    exchange = _exchange_solver_rate(
        LithConfig(rounds=2, cards=tuple(range(0, 40, 2))), slow, repeat
    )
    three_rounds = _exchange_solver_rate(
        LithConfig(rounds=3, cards=tuple(range(0, 16, 2)), max_raises=1), slow, repeat
    )
    return {
        "ours": {
            "information sets": ours_sets,
            "updates/s": ours,
            "iterations/s": ours / ours_sets,
        },
        "exchanges": exchange,
        "exchange ratio": exchange["updates/s"] / theirs,
        "three rounds": three_rounds,
        "three-round ratio": three_rounds["updates/s"] / theirs,
        "OpenSpiel CFR+ Leduc": {
            "information sets": leduc_sets,
            "updates/s": theirs,
            "iterations/s": theirs / leduc_sets,
        },
        "ratio": ours / theirs,
    }


def _exchange_solver_rate(config: Any, iterations: int, repeat: int) -> dict:
    """Information-set updates per second of the exchange solver on the game of ``config``
    (an information set is a betting line and a private state at a decision point), medians
    over ``repeat`` timings of ``iterations`` iterations."""
    from lith_solver.exchanges import ExchangeGame, ExchangeSolver

    game = ExchangeGame(config)
    sets = sum(lines * states for lines, states, _ in ExchangeSolver.shapes(game).values())
    solver = ExchangeSolver(game)
    solver.iterate(1)  # compile the kernels
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        solver.iterate(iterations)
        rates.append(iterations * sets / (time.perf_counter() - start))
    rate = statistics.median(rates)
    return {"information sets": sets, "updates/s": rate, "iterations/s": rate / sets}


def print_solver(result: dict, console: Console) -> None:
    table = new_table(
        "Exact solvers: information-set updates per second (medians)",
        ("solver", "information sets", "iterations/s", "updates/s"),
    )
    for name, label in (
        ("ours", "lith_solver.one_round, one-round Lith"),
        ("exchanges", "lith_solver.exchanges, two rounds, 20 cards (factored)"),
        ("three rounds", "lith_solver.exchanges, three rounds, 8 cards, 1 raise (joint)"),
        ("OpenSpiel CFR+ Leduc", "OpenSpiel C++ CFR+, Leduc"),
    ):
        figures = result[name]
        table.add_row(
            label,
            f"{figures['information sets']:,}",
            f"{figures['iterations/s']:,.1f}",
            f"{figures['updates/s']:,.0f}",
        )
    console.print(table)
    console.print(f"  lith_solver.one_round / OpenSpiel updates per second: {result['ratio']:.1f}x")
    console.print(
        f"  lith_solver.exchanges / OpenSpiel updates per second: "
        f"{result['exchange ratio']:.1f}x (two rounds), {result['three-round ratio']:.1f}x "
        "(three rounds)"
    )
