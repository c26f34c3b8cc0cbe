"""Checkpoints of the exact solvers: a long solve saved as it goes, and continued later.

A checkpoint (``checkpoint.npz`` in a solve's output folder, written by ``python -m
lith_solver.one_round --checkpoint`` at every measurement) holds what discounted CFR needs to go on
where it stopped: the iteration count and every regret and strategy sum, with the rules and
weights they were computed under and the exploitability curve so far. The solvers have no
random source and rebuild their current strategy from the regrets at the start of each call,
so a solve continued from a checkpoint (``--resume``) gives the same numbers, to the last bit,
as one run straight through.

A solver takes part through ``iterations``, its weights (``alpha``, ``beta``, ``gamma``) and
``state_dict()``, which returns the iteration count and the solver's own regret and sum arrays
by name (not copies: loading writes into them). Nothing here knows the games.
"""

from __future__ import annotations

import dataclasses
import json
import os
import zipfile
from pathlib import Path
from typing import Any, Protocol

import numpy as np

__all__ = [
    "CHECKPOINT_FILE",
    "CheckpointedSolver",
    "check_resumable",
    "load_checkpoint",
    "read_checkpoint_record",
    "rules_json",
    "save_checkpoint",
]

CHECKPOINT_FILE = "checkpoint.npz"
FORMAT = "lith-solver-checkpoint-1"
CURVE_KEYS = ("iteration", "seconds", "exploitability")


class CheckpointedSolver(Protocol):
    """What a solver offers to be saved and continued."""

    iterations: int
    alpha: float
    beta: float
    gamma: float

    def state_dict(self) -> dict[str, np.ndarray]:
        """``iterations`` (a 0-d integer array) and the solver's own regret and sum arrays."""
        ...


def rules_json(config: Any) -> dict[str, Any]:
    """Every rule of a game config (a dataclass), JSON-ready (tuples as lists)."""
    out = {}
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        out[field.name] = list(value) if isinstance(value, tuple) else value
    return out


def save_checkpoint(
    path: Path,
    solver: CheckpointedSolver,
    config: Any,
    build: str,
    curve: list[dict[str, float]],
    seconds: float,
) -> None:
    """Write ``solver``'s state to ``path``, with the game's rules, the ``build`` of its game
    (stages are laid out per build), the curve and the ``seconds`` spent so far. The file is
    written beside ``path`` and then renamed over it, so a solve killed while saving leaves
    the previous checkpoint whole."""
    record = {
        "format": FORMAT,
        "rules": rules_json(config),
        "build": build,
        "weights": [solver.alpha, solver.beta, solver.gamma],
        "iterations": solver.iterations,
        "seconds": seconds,
        "curve": curve,
    }
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as file:
        np.savez(file, record=np.array(json.dumps(record)), **solver.state_dict())
    os.replace(partial, path)


def read_checkpoint_record(path: Path) -> dict[str, Any]:
    """The record a checkpoint was saved with (not its arrays). ``ValueError`` names a missing
    file or one that is not a solver checkpoint."""
    if not path.is_file():
        raise ValueError(f"no {path.name} in {str(path.parent)!r} (solve with --checkpoint first)")
    try:
        with np.load(path, allow_pickle=False) as arrays:
            record = json.loads(str(arrays["record"]))
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        for key, kind in (("rules", dict), ("build", str), ("weights", list), ("curve", list)):
            if not isinstance(record.get(key), kind):
                raise ValueError(f"its {key!r} is missing or not a {kind.__name__}")
        if not isinstance(record.get("iterations"), int) or record["iterations"] < 1:
            raise ValueError("its 'iterations' is not a positive integer")
        if not isinstance(record.get("seconds"), int | float):
            raise ValueError("its 'seconds' is not a number")
        for point in record["curve"]:
            if not isinstance(point, dict) or not all(
                isinstance(point.get(key), int | float) for key in CURVE_KEYS
            ):
                raise ValueError(f"its curve has a point without {', '.join(CURVE_KEYS)}")
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{str(path)!r} is not a solver checkpoint: {error}") from None
    return record


def check_resumable(record: dict[str, Any], config: Any, iterations: int) -> None:
    """``ValueError`` unless the checkpoint ``record`` is of the game ``config`` and short of
    ``iterations`` (the solve's total): a differing rule is named with both values."""
    _check_rules(record, config)
    if record["iterations"] >= iterations:
        raise ValueError(
            f"--iterations {iterations}: the checkpoint is already at {record['iterations']} "
            "iterations (--iterations counts from the start of the solve)"
        )


def _check_rules(record: dict[str, Any], config: Any) -> None:
    """``ValueError`` naming the first rule in which ``record`` and ``config`` differ."""
    given = rules_json(config)
    saved = record["rules"]
    for name in sorted(set(given) | set(saved)):
        if given.get(name) != saved.get(name):
            raise ValueError(
                f"the checkpoint is of another game: rule {name} is {saved.get(name)!r} there, "
                f"{given.get(name)!r} here"
            )


def load_checkpoint(
    path: Path, solver: CheckpointedSolver, config: Any, build: str
) -> tuple[list[dict[str, float]], float]:
    """Put the checkpoint at ``path`` into ``solver`` (a new one, of the game ``config`` built
    as ``build``); returns the curve and the seconds spent so far. Every array is checked
    before any is copied, so a ``ValueError`` (naming the entry or rule) leaves ``solver`` as
    it was."""
    record = read_checkpoint_record(path)
    _check_rules(record, config)
    if record["build"] != build:
        raise ValueError(
            f"{str(path)!r} was saved from the {record['build']} build of this game, not {build}"
        )
    weights = [solver.alpha, solver.beta, solver.gamma]
    if record["weights"] != weights:
        raise ValueError(f"{str(path)!r} was saved with weights {record['weights']}, not {weights}")
    target = solver.state_dict()
    try:
        with np.load(path, allow_pickle=False) as arrays:
            names = set(arrays.files) - {"record"}
            if names != set(target):
                missing, extra = sorted(set(target) - names), sorted(names - set(target))
                raise ValueError(f"entries missing {missing}, unexpected {extra}")
            state = {}
            for name, array in target.items():
                saved = arrays[name]
                if saved.shape != array.shape:
                    raise ValueError(f"{name} has shape {saved.shape}, not {array.shape}")
                if name == "iterations":
                    if int(saved) != record["iterations"]:
                        raise ValueError(f"iterations is {int(saved)}, its record says otherwise")
                elif not np.all(np.isfinite(saved)):
                    raise ValueError(f"{name} has entries that are not finite")
                elif name.startswith("sums") and np.any(saved < 0):
                    raise ValueError(f"{name} has negative entries")
                state[name] = saved
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{str(path)!r} is corrupt: {error}") from None
    for name, array in target.items():
        if name != "iterations":
            array[...] = state[name]
    solver.iterations = record["iterations"]
    return record["curve"], float(record["seconds"])
