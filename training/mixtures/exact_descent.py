"""``mixture = "best_response"``: exploitability descent. Before every ``self_play_every``
steps' rollouts, the exact best response to the learner's sampling policy is solved
(``lith_solver.exploitability``) and plays the other seat alone; the learner's exact
exploitability is recorded each time. Heads-up limit Lith games the exact solver handles."""

from __future__ import annotations

from typing import Any

from agents.ppo import PPOAgent
from lith_solver.exploitability import best_response_to, solvable_game
from training.mixtures.members import keep_newest_two, play_only
from training.run_callback import RefreshBeforeRollouts

__all__ = ["ExactBestResponses"]


class ExactBestResponses(RefreshBeforeRollouts):
    """Solves the best response to the learner before its rollouts, every
    ``self_play_every`` steps, and makes it the other seat's player."""

    exact_game: Any = None  # the solver's game, built on first use

    def refresh(self, steps: int) -> None:
        """Make the exact best response to the learner's sampling policy the other seat's
        player, and record the learner's exploitability."""
        if self.exact_game is None:
            self.exact_game = solvable_game(self.config.game_config())
        pool = self.run / "pool"
        name = f"best_response_{steps}"
        learner = PPOAgent.of_model(self.model, deterministic=False)
        figures = best_response_to(learner, self.exact_game, "the learner", pool / name)
        play_only(pool, name)
        keep_newest_two(pool, "best_response_*", steps)
        entry = {"step": steps, **{k: float(v) for k, v in figures.items()}}
        self.metrics.data.setdefault("best_response", []).append(entry)
        self.logger.record("exact/exploitability", entry["exploitability"])
        if self.verbose_lines:
            self.say(
                f"step {steps:,}: exact best response, the learner's exploitability "
                f"{entry['exploitability']:.4f} chips/hand"
            )
