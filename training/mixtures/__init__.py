"""How the other seats are drawn (``mixture``), one module a mode, each its own callback:

| ``mixture``     | module                | the other seats play                              |
| --------------- | --------------------- | ------------------------------------------------- |
| ``uniform``     | :mod:`.uniform`       | named agents and the newest snapshots, evenly     |
| ``nash``        | :mod:`.nash`          | a population's equilibrium mixture (PSRO)         |
| ``best_response`` | :mod:`.exact_descent` | the exact best response to the learner          |
| ``exploiter``   | :mod:`.learned_descent` | a learned exploiter of the learner              |

The opponents themselves (:class:`training.opponents.PoolOpponent`) read the pool folder and
its ``mixture.json``; these callbacks write them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from training.callbacks import RunMetrics
from training.config import TrainConfig
from training.mixtures.exact_descent import ExactBestResponses
from training.mixtures.learned_descent import LearnedExploiter
from training.mixtures.nash import PopulationSnapshots
from training.mixtures.uniform import Snapshots

__all__ = ["mixture_callback"]


def mixture_callback(
    config: TrainConfig,
    run: Path,
    metrics: RunMetrics,
    say: Callable[[str], None],
    verbose: bool,
) -> BaseCallback | None:
    """The callback of ``config.mixture`` (None: uniform draws without snapshots)."""
    if config.mixture == "nash":
        return PopulationSnapshots(config, run, metrics, say, verbose)
    if config.mixture == "best_response":
        return ExactBestResponses(config, run, metrics, say, verbose)
    if config.mixture == "exploiter":
        return LearnedExploiter(config, run, metrics, say, verbose)
    if "self" in config.opponents:
        return Snapshots(config, run, metrics, say, verbose)
    return None
