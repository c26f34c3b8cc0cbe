"""``mixture = "uniform"``: the other seats are drawn evenly from the named opponents and,
with ``self`` among them, the newest ``pool_size`` snapshots of the learner, which this
callback saves into the pool every ``self_play_every`` steps."""

from __future__ import annotations

from pathlib import Path

from training.opponents import newest_snapshots
from training.run_callback import RunCallback, due

__all__ = ["Snapshots"]


class Snapshots(RunCallback):
    """Saves a snapshot of the learner into the pool every ``self_play_every`` steps and
    records the pool; :meth:`joined` is what a subclass does with each new snapshot."""

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        if due(steps, self.config.self_play_every, self.config.n_envs):
            self.snapshot(steps)
        return True

    def snapshot(self, steps: int) -> None:
        config = self.config
        path = self.run / "pool" / f"snapshot_{steps}.zip"
        path.parent.mkdir(exist_ok=True)
        self.model.save(path)
        pool = [p.name for p in newest_snapshots(self.run / "pool", config.pool_size)]
        named = [o for o in config.opponents if o != "self"]
        self.logger.record("pool/snapshots", len(pool))
        self.metrics.data["pool"].append({"step": steps, "named": named, "snapshots": pool})
        if self.verbose_lines:
            self.say(f"step {steps:,}: snapshot {path} ({len(pool)} in the pool)")
        self.joined(path, steps)

    def joined(self, snapshot: Path, steps: int) -> None:
        """A new snapshot is in the pool (the uniform draw finds it there: nothing to do)."""
