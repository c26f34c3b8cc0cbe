"""PSRO iterations on a finished population: exploiters of its equilibrium join it.

A population run (``train.py`` with ``mixture = "nash"``) ends with a payoff table over
heuristics, snapshots of the learner and exploiters of snapshots, and the mixture of its
equilibrium, which ``mixture:RUN`` plays. Nothing in that table exploits the mixture itself.
Each iteration here is PSRO's step with the learner frozen: an exploiter is trained against
the mixture as it stands (``training.exploiter``; with ``--margin``, the equilibrium that beats
the heuristics by that margin, ``mixture:RUN:margin=M``), joins the population as
``exploiter_psroK.zip`` (a duplicate tournament against every member fills its row and
column), and the equilibrium is solved again, so that it must hold against what beat it.

    decktet psro runs/lith_hu_league_mixture/seed-4 --iterations 3 \\
        --exploiter-steps 200000 --margin 0.1

The run's ``pool/population.json`` and ``pool/mixture.json`` are updated in place; each
exploiter's training is in ``pool/exploiter_psroK/``. The gain each exploiter found against
the mixture it was trained on is printed and kept in ``pool/psro.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.mixture import margin_mixture, read_mixture
from tablegame.cli import int_at_least, positive_int
from tournaments.population import Population
from training.exploiter import ExploiterSpec, train_exploiter

__all__ = ["main", "psro_iterations"]


def _target(run: Path, margin: float | None) -> str:
    return f"mixture:{run}" + (f":margin={margin}" if margin is not None else "")


def _mixture(run: Path, margin: float | None):
    """The pool, members and weights of the mixture the exploiters target (ValueError
    naming what is wrong, e.g. a margin no mixture reaches)."""
    return read_mixture(run) if margin is None else margin_mixture(run, margin)


def psro_iterations(
    run: Path,
    iterations: int,
    exploiter_steps: int,
    margin: float | None = None,
    seed: int = 0,
    say=print,
) -> list[dict[str, Any]]:
    """Run ``iterations`` PSRO steps on the population of ``run`` (see the module's
    docstring); returns, per iteration, the exploiter's gain and the mixture after it."""
    pool = Path(run) / "pool"
    path = pool / "population.json"
    population = Population.load(path)  # ValueError naming the file if it is not one
    log_path = pool / "psro.json"
    log: list[dict[str, Any]] = json.loads(log_path.read_text()) if log_path.is_file() else []
    step = max((h["step"] for h in population.history), default=0)
    for _ in range(iterations):
        k = len(log) + 1
        name = f"exploiter_psro{k}"
        spec = ExploiterSpec(
            game=population.game,
            players=population.players,
            target=_target(run, margin),
            out=str(pool / name),
            timesteps=exploiter_steps,
            rules=population.rules,
            seed=seed + k,
            eval_every=0,
            final_units=population.units,
        )
        found = train_exploiter(spec, say=lambda _: None)
        shutil.copyfile(pool / name / "exploiter.zip", pool / f"{name}.zip")
        population.add(f"{name}.zip", step)
        population.save(path)
        _, members, weights = _mixture(run, margin)
        entry = {
            "iteration": k,
            "exploiter": f"{name}.zip",
            "exploiter_steps": found["steps"],
            "margin": margin,
            "gain": {key: found["gain"][key] for key in ("mean", "low", "high", "units")},
            "mixture": {m: float(w) for m, w in zip(members, weights, strict=True) if w > 0},
        }
        log.append(entry)
        log_path.write_text(json.dumps(log, indent=2))
        gain = entry["gain"]
        weights = ", ".join(f"{m} {w:.2f}" for m, w in entry["mixture"].items())
        say(
            f"iteration {k}: {name} won {gain['mean']:+.1f} [{gain['low']:+.1f}, "
            f"{gain['high']:+.1f}] per 100 against the mixture; now {weights}"
        )
    return log[-iterations:]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="decktet psro",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("run", help="a population run's folder (with pool/population.json)")
    parser.add_argument(
        "--iterations", type=positive_int, default=3, help="PSRO steps (default: 3)"
    )
    parser.add_argument(
        "--exploiter-steps",
        type=positive_int,
        default=200_000,
        help="training steps of each exploiter (default: 200,000)",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=None,
        help="exploit the equilibrium that beats the heuristics by this many chips a hand "
        "(mixture:RUN:margin=M; heads-up Lith) instead of the plain equilibrium",
    )
    parser.add_argument(
        "--seed", type=int_at_least(0), default=0, help="the exploiters' seed (default: 0)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet psro``; a bad option exits with status 2, naming it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = Path(args.run)
    if not (run / "pool" / "population.json").is_file():
        parser.error(
            f"run: no pool/population.json in {str(run)!r} (a train.py run with mixture = nash)"
        )
    try:
        _mixture(run, args.margin)  # the margin is possible, before any training
        psro_iterations(run, args.iterations, args.exploiter_steps, args.margin, args.seed)
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
