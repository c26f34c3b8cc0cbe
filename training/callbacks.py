"""What runs beside PPO's updates: the mixture's own work (:mod:`training.mixtures`),
evaluation tournaments, checkpoints, the metrics file, and the progress bar.

Every callback runs once per step of all the envs together; ``due``
(:mod:`training.run_callback`, what every callback builds on) says whether that step crossed
a multiple of an interval. They run in the order :func:`make_callbacks` lists them: the
mixture's snapshots first, so an evaluation at the same step sees the new pool.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from games import game_info
from training.config import TrainConfig
from training.evaluation import evaluate, evaluation_line
from training.mixtures import mixture_callback
from training.run_callback import RunCallback, RunMetrics, due

__all__ = [
    "Checkpoints",
    "Evaluations",
    "MetricsFile",
    "make_callbacks",
    "progress_callback",
]


class Evaluations(RunCallback):
    """Every ``eval_every`` steps, a duplicate mini-tournament of the learner against each
    named opponent: logged to TensorBoard and the metrics, and said as a line."""

    def _on_step(self) -> bool:
        if due(self.num_timesteps, self.config.eval_every, self.config.n_envs):
            self.evaluate(self.num_timesteps)
        return True

    def evaluate(self, steps: int) -> None:
        config = self.config
        # The tournament plays agents given by spec (ppo:PATH), so the policy goes to a
        # scratch file for the length of the evaluation.
        with tempfile.TemporaryDirectory(prefix="decktet-eval-") as scratch:
            path = Path(scratch) / "model.zip"
            self.model.save(path)
            results = evaluate(path, config)
        for name, value in results.items():
            self.logger.record(f"eval/{name}", value["mean"])
        entry = {
            "step": steps,
            game_info(config.game).units: config.eval_count(),
            "results": results,
        }
        self.metrics.data["evaluations"].append(entry)
        self.metrics.write()
        self.say(evaluation_line(entry, config.game))


class Checkpoints(RunCallback):
    """Every ``checkpoint_every`` steps, the model in ``checkpoints/model_STEPS_steps.zip``
    (what ``--resume`` goes on from)."""

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        if due(steps, self.config.checkpoint_every, self.config.n_envs):
            path = self.run / "checkpoints" / f"model_{steps}_steps.zip"
            path.parent.mkdir(exist_ok=True)
            self.model.save(path)
            if self.verbose_lines:
                self.say(f"step {steps:,}: checkpoint {path}")
        return True


class MetricsFile(RunCallback):
    """Writes the metrics once more at the end of training (the pool's last entries)."""

    def _on_training_end(self) -> None:
        self.metrics.write()


def make_callbacks(
    config: TrainConfig, run: Path, say: Callable[[str], None], verbose: bool
) -> list[BaseCallback]:
    """The run's callbacks: the mixture's (snapshots, a population, best responses), then
    evaluations, checkpoints and the metrics file. Evaluations are reported through ``say``;
    with ``verbose``, snapshots and checkpoints too."""
    metrics = RunMetrics(run)
    callbacks: list[BaseCallback] = []
    mixture = mixture_callback(config, run, metrics, say, verbose)
    if mixture is not None:
        callbacks.append(mixture)
    callbacks += [
        kind(config, run, metrics, say, verbose) for kind in (Evaluations, Checkpoints, MetricsFile)
    ]
    return callbacks


def progress_callback(total: int, console: Any) -> BaseCallback:
    """A callback showing a progress bar of learner steps on ``console`` (a rich Console),
    from 0 to ``total``: the steps the learn call will take (whole rollouts)."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class StepProgress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.total = total
            self.completed = 0
            self.progress = Progress(
                TextColumn("training"),
                BarColumn(),
                TextColumn("{task.completed:,.0f}/{task.total:,.0f} steps"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
            )
            self.task = self.progress.add_task("training", total=total)

        def _on_training_start(self) -> None:
            self.progress.start()

        def _on_step(self) -> bool:
            self.completed += self.training_env.num_envs
            self.progress.update(self.task, completed=self.completed)
            return True

        def _on_training_end(self) -> None:
            self.progress.stop()

    return StepProgress()
