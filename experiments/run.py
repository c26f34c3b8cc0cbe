"""Run an experiment: train, play a duplicate tournament of the result against the heuristics,
analyze how it bets and bluffs (Lith), and write ``report.md`` with tables and plots.

    decktet experiment experiments/lith_hu_tag.toml [--timesteps N] [--units N]
    decktet experiment experiments/lith_hu_tag.toml --seed 3        # into OUT/seed-3
    decktet experiment experiments/lith_hu_tag.toml --seeds 1-8 [--ray [ADDRESS]]

The TOML file holds train.py options (decktet train --help) and an [experiment] table:
against (the agents of the final tournament, one pairing each: the bot against copies of an
agent, or a list of agents, one per other seat, for a mixed table; default: every heuristic of
the game), units (hands or games per pairing, a multiple of players: each duplicate block is
one deal played in every seating; default: 1,000 blocks), seed (the tournament's seed,
default 1), for Lith record (the hands of each pairing kept for the analysis: "all", the
default, or a sample of that many), and exploiter_timesteps (and optionally exploiter_units):
end with an exploiter trained that long against the bot (``training.exploiter``), its gain, a
lower bound on the bot's exploitability, in the report; bot ("model", the default, or
"mixture": the population's equilibrium, ``agents.mixture``, with mixture_margin its margin
over the heuristics), and psro_iterations (and optionally psro_exploiter_steps, default
200,000): with bot = mixture, PSRO iterations after training (``training.psro``), so that the
bot's equilibrium holds against exploiters of itself. Tournaments are played on the game's
batched engine (every table of a pairing at once, the same deals and seatings as one table at
a time); a game without one in ``--workers`` processes. Everything is checked before training
starts.

``--seed N`` runs the recipe at training seed N into OUT/seed-N, the folder a sweep of several
seeds (``--seeds``) gives each; without either, one run at the file's seed in OUT.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from distributed.cluster import ClusterError, parse_address
from experiments.recipe import run_experiment
from experiments.settings import DEFAULT_BLOCKS
from experiments.sweep import run_sweep
from games import GAMES
from tablegame.cli import parse_seeds, positive_int, seed_value
from tablegame.registry import agent_catalogue

__all__ = ["main", "parser"]


def parser() -> argparse.ArgumentParser:
    """The command line (every option's help shows its default)."""
    p = argparse.ArgumentParser(
        prog="decktet experiment",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="agents for [experiment] against: "
        + "; ".join(f"{game}: {agent_catalogue(game, parameters=False)}" for game in GAMES)
        + ". See docs/training.md.",
    )
    p.add_argument("config", help="an experiments/*.toml file")
    p.add_argument(
        "--timesteps",
        type=positive_int,
        help="train this many steps instead (default: the file's timesteps)",
    )
    p.add_argument(
        "--units",
        type=positive_int,
        help="hands or games per tournament pairing instead, a multiple of the players "
        f"(default: the file's [experiment] units, else {DEFAULT_BLOCKS:,} blocks)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=2,
        help="tournament processes for a game without a batched engine (Lith and Gendeneía "
        "play every table at once on theirs); the results are the same for any number "
        "(default: 2)",
    )
    seeds = p.add_mutually_exclusive_group()
    seeds.add_argument(
        "--seed",
        type=seed_value,
        help="run the recipe at this training seed, in OUT/seed-N as a sweep would (default: "
        "one run, the file's seed, in OUT)",
    )
    seeds.add_argument(
        "--seeds",
        metavar="LIST",
        help="train and evaluate once per training seed, e.g. 1-8 or 1,3,5, each in "
        "OUT/seed-N, then summarize the spread in OUT/sweep.md (one seed: as --seed)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="with --seed or --seeds: run the seeds in parallel as Ray tasks (a CPU each) on the "
        "cluster at ADDRESS (auto, HOST:PORT, ray://HOST:PORT), or on a local Ray without one; "
        "the same figures (docs/scale.md) (default: one seed after another here)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="train again in run folders that hold an earlier run, replacing it (without it, "
        "such a folder is refused before anything trains) (default: off)",
    )
    p.add_argument(
        "--report-only",
        action="store_true",
        help="rebuild report.md from the finished run's tournament folders: no training, "
        "no play (default: off)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet experiment``; a bad option exits with status 2, naming it."""
    p = parser()
    args = p.parse_args(argv)
    try:
        if args.seed is None and args.seeds is None:
            if args.ray is not None:
                raise ValueError("--ray: only with --seed or --seeds (the seeds are its tasks)")
            run = run_experiment(
                Path(args.config), args.timesteps, args.units, args.workers, args.report_only,
                overwrite=args.overwrite,
            )  # fmt: skip
            print((run / "report.md").read_text())
            return 0
        seeds = [args.seed] if args.seed is not None else parse_seeds(args.seeds)
        try:
            address = parse_address(args.ray) if args.ray is not None else None
            out = run_sweep(
                Path(args.config),
                seeds,
                args.timesteps,
                args.units,
                args.workers,
                args.report_only,
                on_ray=args.ray is not None,
                address=address,
                overwrite=args.overwrite,
            )
        except ClusterError as error:
            raise ValueError(f"--ray: {error}") from None
    except ValueError as error:
        p.error(str(error))
    print((out / ("report.md" if len(seeds) == 1 else "sweep.md")).read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
