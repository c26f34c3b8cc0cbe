"""``abstract:DIR``: the strategy of a card abstraction solved by sampling CFR
(``python -m lith_solver abstract``), played in the real one-round game.

Each hand plays the strategy of its equity bucket; the rest (reading the observation, the
seeded draws, the action probabilities, the check of the table's rules) is ``solved:DIR``'s.
``policy=current`` plays the last iterate instead of the average strategy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.solved import SolvedAgent
from tablegame.registry import register

__all__ = ["AbstractAgent"]


@register("lith", "abstract")
class AbstractAgent(SolvedAgent):
    """Plays the abstract strategy saved in ``DIR`` (``abstraction.npz``, ``abstraction.json``)
    on the one-round heads-up rules it was solved for."""

    spec_argument = "path"  # the spec is abstract:DIR
    needs_observation = True
    name = "abstract"

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = False,
        policy: str = "average",
        config: Any = None,
    ) -> None:
        from lith_solver.abstraction import load_abstract

        self.game, self.profile, self.record = load_abstract(path, policy)
        self.policy = policy
        self._set_up(path, seed, deterministic, config)
