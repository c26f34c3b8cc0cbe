"""What the benchmarks share: timing in turns, random legal actions, result tables, and the
reference libraries of the ``bench`` extra."""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np
from rich.table import Table

from tablegame.agent import legal_ids

__all__ = ["median_seconds", "new_table", "pick_legal", "reference_library"]


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


def pick_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action id of ``mask``."""
    legal = legal_ids(mask)  # the legal ids, as RLCard's harness lists its legal actions
    return legal[rng.integers(len(legal))]


def new_table(title: str, columns: Sequence[str], left: Sequence[str] | None = None) -> Table:
    """A result table: ``columns`` left-justified if in ``left`` (default: the first column,
    the names of the rows), the figures right-justified."""
    left = columns[:1] if left is None else left
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right")
    return table


def reference_library(module: str, needs: str) -> ModuleType:
    """Import a reference library of the ``bench`` extra, or exit saying what ``needs`` it
    (``"env benchmarks need"``) and why the import failed."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise SystemExit(f"{needs} the bench extra: {error}") from error
