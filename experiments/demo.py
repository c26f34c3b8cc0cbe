"""The suite's demo (`make demo`): train a small Lith bot for a couple of minutes, then play a
short duplicate tournament against the built-in heuristics and print the table.

    decktet demo [--timesteps 150000] [--hands 2000] [--out runs/demo] [--overwrite]

The bot trains heads-up against tag, bluffer and random (drawn per hand) on the batched engine
(64 tables in one numpy engine, rollouts of 64 x 64 = 4,096 steps, so training ends at
--timesteps rounded up to a whole rollout), then plays every heuristic (tag, bluffer, rock,
caller, random) on the batched tournament; both fit in a couple of minutes on two cores.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from tablegame.cli import check_unused, duplicate_hands, positive_int, seed_value
from tournaments.batched_tables import run_batched_tournament
from tournaments.results import print_result, write_outputs
from tournaments.spec import TournamentSpec
from training.config import TrainConfig
from training.trainer import train

OPPONENTS = ["tag", "bluffer", "random"]  # training
AGAINST = ("tag", "bluffer", "rock", "caller", "random")  # the tournament


def demo_config(timesteps: int, seed: int, out: str) -> TrainConfig:
    """The demo's training run."""
    return TrainConfig(
        game="lith",
        players=2,
        opponents=list(OPPONENTS),
        timesteps=timesteps,
        seed=seed,
        out=out,
        vec_env="batched",
        n_envs=64,
        n_steps=64,
        batch_size=512,
        eval_every=0,
        checkpoint_every=0,
    )


def meaning(figure: dict[str, float]) -> str:
    """What the bot's result against tag says, in one line."""
    shown = f"{figure['mean']:+.1f} [{figure['low']:+.1f}, {figure['high']:+.1f}]"
    if figure["low"] > 0:
        verdict = "it beats tag, the strongest heuristic"
    elif figure["high"] < 0:
        verdict = "tag still beats it: train longer (decktet train, docs/training.md)"
    else:
        verdict = (
            "no difference from tag shows at this size: the interval holds 0 (more hands "
            "narrow it; more training strengthens the bot)"
        )
    return f"Against tag the bot won {shown} chips/100 hands: {verdict}."


def _folder(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must be a folder name, got ''")
    return text


def parser() -> argparse.ArgumentParser:
    """The demo's command line (every option's help shows its default)."""
    p = argparse.ArgumentParser(
        prog="decktet demo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--timesteps",
        type=positive_int,
        default=150_000,
        help="training steps, rounded up to whole rollouts of 4,096 (default: %(default)s)",
    )
    p.add_argument(
        "--hands",
        type=duplicate_hands,
        default=2000,
        help="hands per tournament pairing, even (default: %(default)s)",
    )
    p.add_argument(
        "--out",
        type=_folder,
        default="runs/demo",
        help="run folder: the model, and the tournament in OUT/tournament (default: %(default)s)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an earlier run in --out (make demo does: the demo's folder is its own; "
        "without it, a folder that holds a run is refused) (default: off)",
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="seed of training and tournament: the same seed plays the same games "
        "(default: %(default)s)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet demo``; a bad option exits with status 2, naming it."""
    p = parser()
    args = p.parse_args(argv)
    config = demo_config(args.timesteps, args.seed, args.out)
    if not args.overwrite:
        try:
            check_unused(Path(args.out), "--out")
        except ValueError as error:
            p.error(str(error))
    print(
        f"Training a heads-up Lith bot against {', '.join(OPPONENTS)}: "
        f"{config.planned_steps():,} steps ({args.timesteps:,} in whole rollouts of "
        f"{config.rollout_steps:,})"
    )
    run = train(config, overwrite=True)  # checked above
    model = f"ppo:{run / 'model.zip'}"
    print(f"Duplicate tournament: the bot against every heuristic, {args.hands:,} hands a pairing")
    spec = TournamentSpec(
        game="lith",
        agents=(model, *AGAINST),
        players=2,
        units=args.hands,
        seed=args.seed,
        analytics=False,
    )
    result = run_batched_tournament(spec, progress=True)
    # The bot keeps its spec as its name, in the table as in results.json and the plots.
    print_result({k: v for k, v in result.items() if not k.startswith("_")})
    print(meaning(result["pairings"][f"{model} vs tag"]["chips_per_100"]))
    write_outputs(result, Path(args.out) / "tournament")
    print(
        f"model: {run / 'model.zip'}; tournament results and plots: {Path(args.out) / 'tournament'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
