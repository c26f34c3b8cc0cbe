"""What every callback of a run builds on: :class:`RunCallback` (the run's options, folder,
metrics and lines), the run's ``metrics.json`` (:class:`RunMetrics`), :func:`due` (whether a
step crossed an interval) and :class:`RefreshBeforeRollouts` (the other seat's player renewed
before rollouts). The mixtures' callbacks (:mod:`training.mixtures`) and the run's own
(:mod:`training.callbacks`) are made of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from training.config import TrainConfig

__all__ = ["RefreshBeforeRollouts", "RunCallback", "RunMetrics", "due"]


def due(steps: int, every: int, n_envs: int) -> bool:
    """Whether the vector step that reached ``steps`` crossed a multiple of ``every``."""
    return every > 0 and steps % every < n_envs


class RunMetrics:
    """A run's ``metrics.json``: evaluations, the pool over time, and what the mixture records
    (``population``, ``best_response``, ``exploiter``); kept across a resume."""

    def __init__(self, run: Path) -> None:
        self.path = run / "metrics.json"
        self.data: dict[str, Any] = (
            json.loads(self.path.read_text())
            if self.path.is_file()
            else {"evaluations": [], "pool": []}
        )

    def write(self) -> None:
        self.path.write_text(json.dumps(self.data, indent=2))


class RunCallback(BaseCallback):
    """A callback of a run: its options, its folder, its metrics, and ``say`` for its lines
    (with ``verbose``, also the lines of snapshots, checkpoints and refreshes)."""

    def __init__(
        self,
        config: TrainConfig,
        run: Path,
        metrics: RunMetrics,
        say: Callable[[str], None],
        verbose: bool,
    ) -> None:
        super().__init__()
        self.config, self.run, self.metrics = config, run, metrics
        self.say, self.verbose_lines = say, verbose

    def _on_step(self) -> bool:
        return True


class RefreshBeforeRollouts(RunCallback):
    """Refreshes the other seat's player before the rollouts, once every ``self_play_every``
    steps (the first time at the start): so that a rollout's hands are played against the
    answer to the policy that plays them, not to the one before the last update."""

    last_step: int | None = None  # when the player was last refreshed

    def _on_rollout_start(self) -> None:
        steps = self.num_timesteps
        if self.last_step is None or steps - self.last_step >= self.config.self_play_every:
            self.refresh(steps)
            self.last_step = steps

    def refresh(self, steps: int) -> None:
        raise NotImplementedError
