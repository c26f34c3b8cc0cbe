"""``mixture = "exploiter"``: exploitability descent with a learned best response. Before
every ``self_play_every`` steps' rollouts, the exploiter trains ``exploiter_steps`` more
against the learner's sampling policy (the first from scratch, then warm-started from the
last) and plays the other seat alone; what it wins is recorded. Heads-up, any game."""

from __future__ import annotations

from games import game_info
from training.config import EVAL_BLOCKS
from training.mixtures.members import keep_newest_two, play_only, pool_exploiter, step_of
from training.run_callback import RefreshBeforeRollouts

__all__ = ["LearnedExploiter"]


class LearnedExploiter(RefreshBeforeRollouts):
    """Refreshes the exploiter of the learner before its rollouts, every ``self_play_every``
    steps, and makes it the other seat's player."""

    def refresh(self, steps: int) -> None:
        """Train the exploiter ``exploiter_steps`` more against the learner's sampling
        policy (the first one from scratch) and make it the other seat's player; record
        what it wins."""
        config = self.config
        pool = self.run / "pool"
        pool.mkdir(exist_ok=True)
        target = pool / f"learner_{steps}.zip"
        self.model.save(target)
        earlier = sorted(pool.glob("exploiter_*.zip"), key=step_of)
        name = f"exploiter_{steps}"
        found = pool_exploiter(
            config,
            f"ppo:{target}:deterministic=false",
            pool / name,
            seed=config.seed + steps,  # new deals at every refresh
            final_units=config.eval_units or EVAL_BLOCKS * config.players,
            warm_start=earlier[-1] if earlier else None,
        )
        target.unlink()
        play_only(pool, f"{name}.zip")
        keep_newest_two(pool, "exploiter_*", steps)
        gain = found["gain"]
        entry = {"step": steps, "exploiter_steps": found["steps"], **gain}
        entry = {k: v for k, v in entry.items() if isinstance(v, int | float)}
        self.metrics.data.setdefault("exploiter", []).append(entry)
        self.logger.record("exploit/gain", gain["mean"])
        if self.verbose_lines:
            info = game_info(config.game)
            f = info.signed
            self.say(
                f"step {steps:,}: exploiter trained {found['steps']:,} more steps, wins "
                f"{gain['mean']:{f}} [{gain['low']:{f}}, {gain['high']:{f}}] {info.gain_measure}"
            )
