"""Benchmarks of the suite, each measured beside a reference in the same run.

    python -m benchmarks.run hands [--n 1000000] [--repeat 31] [--json PATH]

``hands``: :func:`lith_env.hands.strength` on random hands (int32 and int64 input) against a bare
numpy gather of the same size from a table of the same length (the practical limit) and against
the per-hand reference evaluator (timed on a subset, reported per hand). Figures are medians over
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("which", choices=["hands", "all"], nargs="?", default="all")
    parser.add_argument("--n", type=int, default=1_000_000, help="hands per timing")
    parser.add_argument("--repeat", type=int, default=31, help="runs per median")
    parser.add_argument("--reference-n", type=int, default=20_000, help="hands for the reference")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    console = Console()
    results: dict = {"machine": platform.platform(), "numpy": np.__version__}
    if args.which in ("hands", "all"):
        results["hands"] = bench_hands(args.n, args.repeat, args.reference_n)
        print_hands(results["hands"], console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
