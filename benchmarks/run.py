"""Benchmarks of the suite, each measured beside a reference in the same run.

    decktet bench hands [--n 1000000] [--repeat 31] [--json PATH]
    decktet bench envs [--players 2,6] [--seconds 1] [--env-repeat 5]
    decktet bench gendeneia [--seconds 1] [--env-repeat 5]
    decktet bench batched [--seconds 1] [--env-repeat 5] [--ppo-steps 32768]
    decktet bench gendeneia-batched [--seconds 1] [--env-repeat 5] [--gendeneia-ppo-steps 262144]
    decktet bench solver [--solver-iterations 20] [--env-repeat 5]
    decktet bench ray [--ray-hands 6000] [--env-repeat 3]
    decktet bench population [--population-steps 200000]
    decktet bench report [--report-hands 100000] [--env-repeat 5]

``hands``: :func:`lith_env.hands.strength` on random hands (int32 and int64 input) against a bare
numpy gather of the same size from a table of the same length (the practical limit) and against
the per-hand reference evaluator (timed on a subset, reported per hand).
``envs``: random legal play on Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and
PettingZoo's texas_holdem_v4 (install the ``bench`` extra): steps/s, hands/s, and every
seat's decisions/s (a ``Lith-v0`` step holds the opponents' decisions too). ``gendeneia``:
random legal play on Gendeneia-v0 and its AEC env for 2, 4 and 6 players. ``batched``: the
batched Lith engine (heads-up limit, random legal actions) at N = 1, 64, 1024, 4096 tables,
with and without the acting seats' observations, beside the single-table engine and
OpenSpiel's C++ ``universal_poker`` heads-up limit hold'em; then MaskablePPO's training
throughput on the batched vector env against 8 single ``Lith-v0`` envs. ``gendeneia-batched``:
the batched Gendeneía engine at 4,096 three-player tables beside the per-table engine and
``Gendeneia-v0``, its vector env against the heuristics, and MaskablePPO's learner steps with
the batched recipe's settings against the older recipe's (``benchmarks.batched_gendeneia``).
Figures are medians over
``--repeat`` runs; ratios compare figures of the same run, so machine noise mostly cancels.
``solver``: information-set updates per second of the exact solver (``lith_solver.one_round``,
discounted CFR on one-round heads-up Lith, the whole deck: 10 decisions x 13,244 hands) beside
OpenSpiel's C++ CFR+ on Leduc poker (936 information sets).
``ray``: a heads-up duplicate tournament (``tag`` against ``bluffer``) in one process, in
``--workers 2`` processes, and on a local Ray with 1 and 2 CPUs (``--ray``, default task
sizes); then the cost of a Ray task (blocks played one a task on one CPU, against the same
blocks in one process) and what it adds at the default task size. Ray's start is not timed.
``population``: ``train.py``'s learner steps per second with the plain self-play pool
(``mixture = "uniform"``) and with population training (``mixture = "nash"``), the same
heads-up run otherwise (64 batched tables, ``tag, bluffer, rock, caller, self``, a snapshot
every tenth of the run); and on the one-round game, self-play against the newest snapshot
and exploitability descent (``mixture = "best_response"``), both every 4,096 steps; then where
the time goes in each, from a profiled run of the same length: the engine and observations,
the opponents' inference, the learner's network acting, its updates, the population's
payoff tournaments and the exact best responses.
``report``: ``report.html`` (``tournaments.report.cli --html``) of a heads-up batched tournament
(``tag`` against ``bluffer``, every hand recorded) in Debian's headless Chromium: the time to
open the page (navigation start to a built hand browser) and to apply a filter, with
``--report-hands`` hands beside the same page of 1,000 hands (the fixed cost of a page), and
the bytes a hand; the tournament and the report are built once, untimed but for the report.
"""

from __future__ import annotations

import argparse
import json
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.console import Console

from benchmarks import (
    batched_gendeneia,
    engines,
    envs,
    learning,
    scaling,
    search,
    solvers,
    web,
)

__all__ = ["BENCHMARKS", "NAMES", "Benchmark", "build_parser", "main"]


@dataclass(frozen=True)
class Benchmark:
    """One table of a benchmark: its key in the JSON, how it runs on the command line's
    options, and how its figures are printed."""

    key: str
    run: Callable[[argparse.Namespace], dict]
    show: Callable[[dict, Console], None]


def _players(args: argparse.Namespace) -> list[int]:
    return [int(p) for p in args.players.split(",")]


def _sizes(args: argparse.Namespace) -> list[int]:
    return [int(n) for n in args.sizes.split(",")]


# Every benchmark by name, in the order ``all`` runs them; ``search`` prints three tables.
BENCHMARKS: dict[str, tuple[Benchmark, ...]] = {
    "hands": (
        Benchmark(
            "hands",
            lambda a: engines.bench_hands(a.n, a.repeat, a.reference_n),
            engines.print_hands,
        ),
    ),
    "envs": (
        Benchmark(
            "envs", lambda a: envs.bench_envs(_players(a), a.seconds, a.env_repeat), envs.print_envs
        ),
    ),
    "gendeneia": (
        Benchmark(
            "gendeneia",
            lambda a: envs.bench_gendeneia([2, 4, 6], a.seconds, a.env_repeat),
            envs.print_gendeneia,
        ),
    ),
    "search": (
        Benchmark("search", lambda a: search.bench_search(a.env_repeat), search.print_search),
        Benchmark(
            "ismcts",
            lambda a: search.bench_ismcts(a.search_iterations, a.env_repeat),
            search.print_ismcts,
        ),
        Benchmark(
            "lith search",
            lambda a: search.bench_lith_search(a.lith_search_iterations, a.env_repeat),
            search.print_lith_search,
        ),
    ),
    "batched": (
        Benchmark(
            "batched",
            lambda a: engines.bench_batched(_sizes(a), a.seconds, a.env_repeat, a.ppo_steps),
            engines.print_batched,
        ),
    ),
    "gendeneia-batched": (
        Benchmark(
            "gendeneia batched",
            lambda a: batched_gendeneia.bench_batched_gendeneia(
                4096, a.seconds, a.env_repeat, a.gendeneia_ppo_steps
            ),
            batched_gendeneia.print_batched_gendeneia,
        ),
    ),
    "solver": (
        Benchmark(
            "solver",
            lambda a: solvers.bench_solver(a.solver_iterations, a.env_repeat),
            solvers.print_solver,
        ),
    ),
    "population": (
        Benchmark(
            "population",
            lambda a: learning.bench_population(a.population_steps),
            learning.print_population,
        ),
    ),
    "ray": (
        Benchmark(
            "ray",
            lambda a: scaling.bench_ray(a.ray_hands // 2 * 2, a.env_repeat),
            scaling.print_ray,
        ),
    ),
    "methods": (
        Benchmark(
            "methods",
            lambda a: learning.bench_methods(a.method_steps, a.mccfr_iterations),
            learning.print_methods,
        ),
    ),
    "report": (
        Benchmark(
            "report",
            lambda a: web.bench_report(a.report_hands // 2 * 2, a.env_repeat),
            web.print_report,
        ),
    ),
    "web": (Benchmark("web", lambda a: web.bench_web(a.web_sessions, a.web_moves), web.print_web),),
}
# The names in the order --help lists them.
NAMES = (
    "hands",
    "envs",
    "gendeneia",
    "search",
    "batched",
    "gendeneia-batched",
    "solver",
    "ray",
    "population",
    "report",
    "methods",
    "web",
)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The module docstring as written, and every option's default."""


def _seconds(text: str) -> float:
    """An argparse type: seconds of at least 0.01, or an error naming the value."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not value >= 0.01:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be at least 0.01, got {text}")
    return value


def _int_list(low: int, high: int) -> Any:
    """An argparse type: comma-separated integers from ``low`` to ``high``."""

    def parse(text: str) -> str:
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be integers such as 2,6, got {text!r}"
            ) from None
        if not all(low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(f"each must be from {low} to {high}, got {text!r}")
        return text

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The command line: which benchmark, and each one's sizes."""
    from tablegame.cli import int_at_least

    parser = argparse.ArgumentParser(
        prog="decktet bench", description=__doc__, formatter_class=_HelpFormatter
    )
    parser.add_argument(
        "which",
        choices=[*NAMES, "all"],
        nargs="?",
        default="all",
        help="which benchmark",
    )
    parser.add_argument("--n", type=int_at_least(1), default=1_000_000, help="hands per timing")
    parser.add_argument("--repeat", type=int_at_least(1), default=31, help="runs per median")
    parser.add_argument(
        "--reference-n", type=int_at_least(1), default=20_000, help="hands for the reference"
    )
    parser.add_argument(
        "--players", type=_int_list(2, 10), default="2,6", help="player counts, env benchmarks"
    )
    parser.add_argument(
        "--seconds",
        type=_seconds,
        default=1.0,
        help="seconds per env run",
    )
    parser.add_argument("--env-repeat", type=int_at_least(1), default=5, help="runs per env median")
    parser.add_argument(
        "--sizes",
        type=_int_list(1, 1 << 20),
        default="1,64,1024,4096",
        help="batched: tables per engine",
    )
    parser.add_argument(
        "--ppo-steps",
        type=int_at_least(0),
        default=32768,
        help="batched: PPO steps per timing (0: none)",
    )
    parser.add_argument(
        "--gendeneia-ppo-steps",
        type=int_at_least(0),
        default=262_144,
        help="gendeneia-batched: PPO steps with the recipe's settings (0: none; the older "
        "recipe is timed on an eighth)",
    )
    parser.add_argument(
        "--solver-iterations",
        type=int_at_least(1),
        default=20,
        help="solver: iterations per timing, each solver",
    )
    parser.add_argument(
        "--ray-hands",
        type=int_at_least(2),
        default=6000,
        help="ray: hands of the timed tournament (even: whole heads-up blocks)",
    )
    parser.add_argument(
        "--population-steps",
        type=int_at_least(640),
        default=200_000,
        help="population: learner steps of each timed training run",
    )
    parser.add_argument(
        "--report-hands",
        type=int_at_least(1000),
        default=100_000,
        help="report: hands in the timed report.html (even: whole heads-up blocks)",
    )
    parser.add_argument(
        "--method-steps",
        type=int_at_least(4096),
        default=65536,
        help="methods: learner steps of each timed training run",
    )
    parser.add_argument(
        "--mccfr-iterations",
        type=int_at_least(1),
        default=200,
        help="methods: MCCFR iterations timed (1,000 sampled deals a player each)",
    )
    parser.add_argument(
        "--search-iterations",
        type=int_at_least(1),
        default=150,  # ismcts's default
        help="search: simulations a search (Kuhn poker and Gendeneía)",
    )
    parser.add_argument(
        "--lith-search-iterations",
        type=int_at_least(1),
        default=200,  # Lith ismcts's default
        help="search: simulations a Lith search",
    )
    parser.add_argument(
        "--web-sessions", type=int_at_least(1), default=20, help="web: people playing at once"
    )
    parser.add_argument(
        "--web-moves", type=int_at_least(1), default=100, help="web: moves each person makes"
    )
    parser.add_argument("--json", help="also write the figures to this JSON file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet bench``: each benchmark asked for, its table, and the JSON."""
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    results: dict = {"machine": platform.platform(), "numpy": np.__version__}
    for name, benchmarks in BENCHMARKS.items():
        if args.which in (name, "all"):
            for benchmark in benchmarks:
                results[benchmark.key] = benchmark.run(args)
                benchmark.show(results[benchmark.key], console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
