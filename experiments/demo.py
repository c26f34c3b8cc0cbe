"""The suite's demo (`make demo`): train a small Lith bot for a couple of minutes, then play a
short duplicate tournament against the built-in heuristics and print the table.

    python -m experiments.demo [--timesteps 150000] [--hands 2000] [--out runs/demo]

Training runs on the batched engine (64 tables in one numpy engine) and the tournament on the
batched tournament, so both fit in a couple of minutes on two cores.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from agents.batched_tournament import run_batched_tournament
from agents.tournament import TournamentSpec, print_result, write_outputs
from train import TrainConfig, train


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.demo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--timesteps", type=int, default=150_000, help="training steps")
    parser.add_argument("--hands", type=int, default=2000, help="hands per tournament pairing")
    parser.add_argument("--out", default="runs/demo", help="run folder")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    opponents = ["tag", "bluffer", "random"]
    print(f"Training a heads-up Lith bot against {', '.join(opponents)}: {args.timesteps:,} steps")
    config = TrainConfig(
        game="lith",
        players=2,
        opponents=opponents,
        timesteps=args.timesteps,
        seed=args.seed,
        out=args.out,
        vec_env="batched",
        n_envs=64,
        n_steps=64,
        batch_size=512,
        eval_every=0,
        checkpoint_every=0,
    )
    run = train(config)
    model = f"ppo:{run / 'model.zip'}"
    print(f"Duplicate tournament: the bot against every heuristic, {args.hands:,} hands a pairing")
    spec = TournamentSpec(
        game="lith",
        agents=(model, "tag", "bluffer", "rock", "caller", "random"),
        players=2,
        units=args.hands,
        seed=args.seed,
        analytics=False,
    )
    result = run_batched_tournament(spec, progress=True)
    shown = {k: v for k, v in result.items() if not k.startswith("_")}
    shown["agents_results"] = {
        ("bot" if k == model else k): v for k, v in shown["agents_results"].items()
    }
    shown["pairings"] = {k.replace(model, "bot"): v for k, v in shown["pairings"].items()}
    print_result(shown)
    write_outputs(result, Path(args.out) / "tournament")
    print(
        f"model: {run / 'model.zip'}; tournament results and plots: {Path(args.out) / 'tournament'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
