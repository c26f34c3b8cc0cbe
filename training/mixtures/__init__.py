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

from training.config import TrainConfig
from training.mixtures.exact_descent import ExactBestResponses
from training.mixtures.learned_descent import LearnedExploiter
from training.mixtures.nash import PopulationSnapshots
from training.mixtures.uniform import Snapshots
from training.run_callback import RunCallback, RunMetrics

__all__ = ["CALLBACKS", "mixture_callback"]

CALLBACKS: dict[str, type[RunCallback]] = {
    "uniform": Snapshots,
    "nash": PopulationSnapshots,
    "best_response": ExactBestResponses,
    "exploiter": LearnedExploiter,
}


def mixture_callback(
    config: TrainConfig,
    run: Path,
    metrics: RunMetrics,
    say: Callable[[str], None],
    verbose: bool,
) -> RunCallback | None:
    """The callback of ``config.mixture`` (None: uniform draws without snapshots)."""
    if config.mixture == "uniform" and "self" not in config.opponents:
        return None
    return CALLBACKS[config.mixture](config, run, metrics, say, verbose)
