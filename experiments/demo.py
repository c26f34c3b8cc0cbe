"""The suite's demo (`make demo`): train a small Lith bot for a couple of minutes, then play a
short duplicate tournament against the built-in heuristics and print the table.

    python -m experiments.demo [--timesteps 20000] [--hands 600] [--out runs/demo]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from agents.tournament import TournamentSpec, print_result, run_tournament, write_outputs
from train import TrainConfig, train


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.demo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--timesteps", type=int, default=20_000, help="training steps")
    parser.add_argument("--hands", type=int, default=600, help="hands per tournament pairing")
    parser.add_argument("--out", default="runs/demo", help="run folder")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"Training a heads-up Lith bot against tag and bluffer for {args.timesteps:,} steps...")
    config = TrainConfig(
        game="lith",
        players=2,
        opponents=["tag", "bluffer"],
        timesteps=args.timesteps,
        seed=args.seed,
        out=args.out,
        n_envs=4,
        n_steps=256,
        batch_size=256,
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
    )
    result = run_tournament(spec, workers=2, progress=True)
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
