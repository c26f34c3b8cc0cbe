"""Digests of seeded results, to show a change alters no result: run it at two commits, diff.

    decktet fingerprint fingerprint.json [--quick]

Every result here is seeded, so it repeats bit for bit on one machine (across machines the
numerics of numba and torch may differ: compare runs of one machine). Covered: duplicate
tournaments (per table: heads-up, six-handed no-limit, three-player Gendeneía; batched:
heads-up and three-handed), a one-round and a two-round solve (strategy and record), the
exact exploitability of ``tag``, and training runs in every mixture mode (uniform with and
without snapshots, the batched engine, nash with exploiters, best_response, exploiter,
Gendeneía with shaped rewards), each its metrics and network, and a learned exploiter.
``--quick`` leaves out the training runs and the exploiter (seconds instead of a minute).

When every module moved, this check, run before and after the move, gave the same digests.
To compare two commits: ``git worktree add /tmp/before COMMIT``, then run
``PYTHONPATH=/tmp/before decktet fingerprint before.json`` there (a layout
before ``benchmarks/fingerprint.py`` existed needs its own copy of this file) and diff.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["fingerprint", "main", "solve_digests", "tournament_digests", "training_digests"]

TINY_TRAINING = [
    *("--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64"),
    *("--n-epochs", "1", "--eval-every", "128", "--eval-units", "6"),
    *("--checkpoint-every", "128", "--self-play-every", "128", "--net-arch", "32,32"),
    "--no-progress-bar",
]
TRAINING_RUNS = {
    "caller": ["--opponents", "caller"],
    "self": ["--opponents", "self,tag"],
    "batched": ["--opponents", "tag", "--vec-env", "batched"],
    "nash": [
        *("--opponents", "self,tag", "--mixture", "nash", "--meta-units", "4"),
        *("--exploiter-every", "128", "--exploiter-steps", "128"),
    ],
    "best_response": ["--opponents", "self", "--mixture", "best_response", "--rule", "rounds=1"],
    "exploiter": ["--opponents", "self", "--mixture", "exploiter", "--exploiter-steps", "128"],
    "gendeneia": [
        *("--game", "gendeneia", "--players", "3", "--opponents", "greedy,spoiler"),
        *("--reward", "shaped"),
    ],
}
# Keys of timings, which differ from run to run.
TIMING_WORDS = ("second", "time", "fps", "wall")


def digest(value: Any) -> str:
    """A short hash of a JSON-able value (floats by their repr: bit for bit)."""
    text = json.dumps(value, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def arrays_digest(path: Path) -> str:
    """A short hash of every array of an ``.npz`` file, by name."""
    found = hashlib.sha256()
    with np.load(path) as arrays:
        for name in sorted(arrays.files):
            found.update(name.encode())
            found.update(np.ascontiguousarray(arrays[name]).tobytes())
    return found.hexdigest()[:16]


def network_digest(path: Path) -> str:
    """A short hash of a saved MaskablePPO policy's parameters."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    found = hashlib.sha256()
    for name, tensor in sorted(model.policy.state_dict().items()):
        found.update(name.encode())
        found.update(tensor.numpy().tobytes())
    return found.hexdigest()[:16]


def _untimed(value: Any) -> Any:
    """``value`` without the entries that time the run."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not any(w in k for w in TIMING_WORDS)}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def tournament_digests() -> dict[str, str]:
    """Digests of seeded duplicate tournaments, per table and batched."""
    from tournaments.batched_tables import run_batched_tournament
    from tournaments.per_table import run_tournament
    from tournaments.spec import TournamentSpec

    lith_agents = ("tag", "bluffer", "caller", "random", "rock")
    per_table = {
        "lith2": TournamentSpec("lith", lith_agents, 2, 60, seed=3),
        "lith6": TournamentSpec(
            "lith", (*lith_agents, "bluffer:freq=0.3"), 6, 12, seed=4, rules={"betting": "no-limit"}
        ),
        "gendeneia3": TournamentSpec("gendeneia", ("greedy", "spoiler", "random"), 3, 12, seed=5),
    }
    batched = {
        "lith2": TournamentSpec("lith", lith_agents[:4], 2, 400, seed=7),
        "lith3": TournamentSpec("lith", lith_agents[:3], 3, 30, seed=8),
    }
    found = {f"tournament:{k}": digest(run_tournament(s)) for k, s in per_table.items()}
    found |= {f"batched:{k}": digest(run_batched_tournament(s)) for k, s in batched.items()}
    return found


def solve_digests(folder: Path) -> dict[str, str]:
    """Digests of a one-round and a two-round solve in ``folder``, and of tag's exact
    exploitability."""
    from lith_env.game import LithConfig
    from lith_solver.cli import main as lith_solver_main
    from lith_solver.exploitability import exploitability
    from lith_solver.one_round import OneRoundGame
    from tablegame.registry import make_agent

    one, two = folder / "one-round", folder / "two-rounds"
    with contextlib.redirect_stdout(io.StringIO()):
        lith_solver_main(
            [
                *("solve", "--rule", "rounds=1", "--iterations", "50", "--check-every", "25"),
                *("--out", str(one)),
            ]
        )
        lith_solver_main(
            [
                *("solve", "--rule", "rounds=2", "--rule", "cards=0,1,2,3,4,5,6,7"),
                *("--iterations", "60", "--check-every", "20", "--out", str(two)),
            ]
        )
    record = json.loads((one / "solution.json").read_text())
    game = OneRoundGame(LithConfig(rounds=1))
    tag = make_agent("tag", "lith", seed=0, config=game.config)
    return {
        "solve:one-round:strategy": arrays_digest(one / "strategy.npz"),
        "solve:one-round:record": digest(_untimed(record)),
        "solve:two-rounds:strategy": arrays_digest(two / "strategy.npz"),
        "exploitability:tag": digest(exploitability(tag, game)),
    }


def training_digests(folder: Path) -> dict[str, str]:
    """Digests of a tiny training run in every mixture mode, and of a learned exploiter."""
    from rich.console import Console

    from training.cli import main as train_main
    from training.exploiter_cli import main as exploiter_main

    found = {}
    for name, options in TRAINING_RUNS.items():
        run = folder / f"train-{name}"
        console = Console(file=io.StringIO())
        if train_main([*TINY_TRAINING, *options, "--out", str(run)], console=console) != 0:
            raise RuntimeError(f"the training run {name} failed")
        metrics = json.loads((run / "metrics.json").read_text())
        found[f"train:{name}:metrics"] = digest(_untimed(metrics))
        found[f"train:{name}:network"] = network_digest(run / "model.zip")
    out = folder / "exploiter"
    with contextlib.redirect_stdout(io.StringIO()):
        exploiter_main(
            [
                *("--target", "tag", "--timesteps", "512", "--eval-every", "256"),
                *("--eval-units", "20", "--final-units", "40", "--n-envs", "8", "--seed", "3"),
                *("--out", str(out)),
            ]
        )
    result = json.loads((out / "exploiter.json").read_text().replace(str(folder), "TMP"))
    found["exploiter:result"] = digest(_untimed(result))
    found["exploiter:network"] = network_digest(out / "exploiter.zip")
    return found


def fingerprint(quick: bool = False) -> dict[str, str]:
    """Every digest, by name (``quick``: without training)."""
    with tempfile.TemporaryDirectory(prefix="decktet-fingerprint-") as scratch:
        folder = Path(scratch)
        found = tournament_digests() | solve_digests(folder)
        if not quick:
            found |= training_digests(folder)
    return dict(sorted(found.items()))


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet fingerprint OUT.json [--quick]``."""
    parser = argparse.ArgumentParser(
        prog="decktet fingerprint",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("out", help="the JSON file of digests to write")
    parser.add_argument("--quick", action="store_true", help="leave out the training runs")
    args = parser.parse_args(argv)
    found = fingerprint(args.quick)
    Path(args.out).write_text(json.dumps(found, indent=1) + "\n")
    json.dump(found, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
