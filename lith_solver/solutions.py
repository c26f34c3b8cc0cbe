"""A solution folder: ``strategy.npz`` (every decision's strategy) and ``solution.json``
(the rules, the tree or the build, and what the run measured). The agent ``solved:DIR`` plays
one; a best response is saved the same way (``lith_solver.exploitability``)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_solver import exchanges
from lith_solver.checkpoint import rules_json
from lith_solver.exchanges import BUILDS, ExchangeGame, ExchangeSolver, auto_build
from lith_solver.one_round import OneRoundGame

__all__ = ["as_probabilities", "load_solution", "point_name", "save_solution"]


def as_probabilities(stored: np.ndarray) -> np.ndarray:
    """A saved strategy in float64. One kept in float32 (``decktet zoo keep``) sums
    to 1 only to 1e-7, so its rows that sum to more than 0 are scaled to sum to 1."""
    strategy = np.asarray(stored, dtype=np.float64)
    if stored.dtype == np.float64:
        return strategy
    total = strategy.sum(axis=-1, keepdims=True)
    return np.divide(strategy, total, out=strategy, where=total > 0)


def save_solution(
    out: Path, game: OneRoundGame, profile: Sequence[np.ndarray], info: dict[str, Any]
) -> None:
    """Write ``strategy.npz`` (the hands and each decision node's strategy) and
    ``solution.json`` (the rules, the tree, ``info``) to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"format": "lith-solution-1", "config": rules_json(game.config)}
    if isinstance(game, OneRoundGame):
        arrays = {"hands": game.hands}
        for index in game.decisions:
            arrays[f"node_{game.tree[index].history or 'root'}"] = profile[index]
        record["nodes"] = [
            {
                "history": game.tree[i].history,
                "player": game.tree[i].player,
                "actions": list(game.tree[i].actions),
            }
            for i in game.decisions
        ]
    else:  # an ExchangeGame: one array per decision point, its states in its build's order
        arrays = {point_name(key): value for key, value in profile.items()}  # type: ignore[union-attr]
        record["build"] = game.method
    np.savez_compressed(out / "strategy.npz", **arrays)
    record.update(info)
    (out / "solution.json").write_text(json.dumps(record, indent=2) + "\n")


def load_solution(directory: str | Path) -> tuple[OneRoundGame, list[np.ndarray], dict]:
    """The game, the saved profile (every node; uniform at terminals) and ``solution.json`` of
    a solver output folder. A missing or corrupt file is a ``ValueError`` naming it."""
    directory = Path(directory)
    record_path, strategy_path = directory / "solution.json", directory / "strategy.npz"
    for path in (record_path, strategy_path):
        if not path.is_file():
            raise ValueError(f"solved: no {path.name} in {str(directory)!r} (run decktet solve)")
    try:
        record = json.loads(record_path.read_text())
        if record.get("format") != "lith-solution-1":
            raise ValueError("not a lith-solution-1 record")
        config = LithConfig(**record["config"])
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"solved: {str(record_path)!r} is not a solver record: {error}") from None
    if config.rounds > 1:
        return _load_exchange(config, strategy_path, record)
    game = OneRoundGame(config)
    try:
        with np.load(strategy_path) as arrays:
            if not np.array_equal(arrays["hands"], game.hands):
                raise ValueError("its hands are not the hands of its rules")
            profile = game.uniform_profile()
            for index in game.decisions:
                key = f"node_{game.tree[index].history or 'root'}"
                strategy = as_probabilities(arrays[key])
                if strategy.shape != profile[index].shape or not np.all(strategy >= 0):
                    raise ValueError(f"{key} has shape {strategy.shape} or negative entries")
                if not np.allclose(strategy.sum(axis=1), 1.0):
                    raise ValueError(f"{key} rows do not sum to 1")
                profile[index] = strategy
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"solved: {str(strategy_path)!r} is corrupt: {error}") from None
    return game, profile, record


def point_name(key: tuple) -> str:
    """The npz name of an exchange-game decision point ``(round, stage, node)``."""
    return "r{}_s{}_{}".format(*key)


def _load_exchange(config: LithConfig, path: Path, record: dict) -> tuple[Any, dict, dict]:
    # Each build orders the states its own way, so the strategy is read in the build that saved
    # it; a record from before the build was recorded was saved by the rule of its day.
    build = record.get("build") or auto_build(config, exchanges.JOINT_LIMIT)
    if build not in BUILDS:
        record_path = str(path.parent / "solution.json")
        raise ValueError(f"solved: {record_path!r} is not a solver record: build {build!r}")
    game = ExchangeGame(config, method=build)
    shapes = ExchangeSolver.shapes(game)
    strategy = {}
    try:
        with np.load(path) as arrays:
            for key, shape in shapes.items():
                name = point_name(key)
                values = as_probabilities(arrays[name])
                if values.shape != shape or not np.all(values >= 0):
                    raise ValueError(f"{name} has shape {values.shape} or negative entries")
                if not np.allclose(values.sum(axis=-1), 1.0):
                    raise ValueError(f"{name} rows do not sum to 1")
                strategy[key] = values
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"solved: {str(path)!r} is corrupt: {error}") from None
    return game, strategy, record
