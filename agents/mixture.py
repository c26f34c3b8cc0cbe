"""``mixture:DIR``: the equilibrium mixture of a population run, played as PSRO defines it.

PSRO's answer to "which strategy did training find" is not the newest member of the
population but the mixture the meta-game's equilibrium puts on its members
(``tournaments.population``): at the start of each hand one member is drawn by its weight and
plays the whole hand. ``DIR`` is a run folder (``runs/x``) or its pool (``runs/x/pool``),
read from the ``mixture.json`` training left there. Snapshots and exploiters play by their
sampling policy, as they did in training (``deterministic=true``: their most likely action).

The equilibrium of a population that holds heuristics gives them weight, and then merely
ties with them: a member in its support wins nothing against it. ``margin=M`` (heads-up
Lith, chips a hand) plays instead the equilibrium among the mixtures that beat every named member
(the heuristics) by at least M in the population's payoff table (``population.json``;
``tournaments.metagame.nash_with_margins``): the least exploitable by the table's measure of
those that still beat the heuristics.

A mixture of strategies is not a strategy that mixes at each decision, so its
``action_probabilities`` is an error: the exact measures (``lith_solver.exploitability``) refuse
it, and the learned exploiter (``training.exploiter``) measures it.

Where a member is drawn:
- one agent at a time (``act``): at every ``reset``, so a per-table tournament plays one
  member for a whole duplicate block and a Gym env one for each episode;
- batched (``per_table``): at ``reset_tables`` for the tables named, each table keeping its
  member until it is reset again.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from games import game_info
from tablegame.agent import act_batch, act_by_table, assign_tables
from tablegame.registry import make_agent, register
from tournaments.metagame import nash_with_margins, nash_with_margins_limit

__all__ = ["MixtureAgent", "margin_mixture", "read_mixture"]


def _pool_of(folder: Path) -> Path:
    return folder / "pool" if (folder / "pool" / "mixture.json").is_file() else folder


def margin_mixture(folder: str | Path, margin: float) -> tuple[Path, list[str], np.ndarray]:
    """The pool, members and weights of the equilibrium that beats every named member of a
    heads-up population by ``margin`` in its payoff table; ``ValueError`` naming what is
    wrong (no population, more than two players, no such mixture)."""
    from tournaments.population import Population

    if isinstance(margin, bool) or not isinstance(margin, int | float) or not margin >= 0:
        raise ValueError(f"mixture: margin must be a number of at least 0, got {margin!r}")
    pool = _pool_of(Path(folder))
    path = pool / "population.json"
    if not path.is_file():
        raise ValueError(f"mixture: margin needs the population's payoff table, no {str(path)!r}")
    population = Population.load(path)
    if population.players != 2 or not game_info(population.game).pays_chips:
        raise ValueError(
            "mixture: margin is for heads-up Lith populations (a zero-sum table in chips a "
            f"hand), this one is {population.players}-player {population.game}"
        )
    named = [i for i, m in enumerate(population.members) if not (pool / m).exists()]
    if not named:
        raise ValueError(f"mixture: margin needs named members (heuristics) in {str(path)!r}")
    most = nash_with_margins_limit(population.payoffs, named)
    if most < margin:
        names = ", ".join(population.members[i] for i in named)
        raise ValueError(
            f"mixture: no mixture of the population beats {names} by margin {margin:g} in its "
            f"payoff table; the most any beats them all by is {most:.3f}"
        )
    return pool, list(population.members), nash_with_margins(population.payoffs, named, margin)


def read_mixture(folder: str | Path) -> tuple[Path, list[str], np.ndarray]:
    """The pool folder, members and weights saved in ``folder`` (a run or its pool);
    ``ValueError`` naming the file when there is none or it does not hold a mixture."""
    folder = Path(folder)
    pool = _pool_of(folder)
    path = pool / "mixture.json"
    if not path.is_file():
        raise ValueError(
            f"mixture: no mixture.json in {str(folder)!r} or its pool folder (a run of "
            "train.py with mixture = nash leaves one)"
        )
    try:
        record = json.loads(path.read_text())
        members = [str(m) for m in record["members"]]
        weights = np.array(record["weights"], dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"mixture: cannot read {str(path)!r}: {error}") from None
    if (
        weights.shape != (len(members),)
        or not members
        or (weights < 0).any()
        or not math.isclose(float(weights.sum()), 1.0, abs_tol=1e-6)
    ):
        raise ValueError(
            f"mixture: {str(path)!r} must give each member a weight of at least 0, summing to 1"
        )
    return pool, members, weights / weights.sum()


def _member_spec(member: str, pool: Path, deterministic: bool) -> str:
    """How a member plays: a file in the pool as a PPO policy, a folder as an exact best
    response (``solved:``), anything else as the agent it names."""
    path = pool / member
    if member.endswith(".zip"):
        if not path.is_file():
            raise ValueError(f"mixture: the member {member!r} has no file in {str(pool)!r}")
        return f"ppo:{path}:deterministic={str(deterministic).lower()}"
    if path.is_dir():
        return f"solved:{path}"
    return member


class MixtureAgent:
    """Plays one member of a population's equilibrium mixture per hand, drawn by weight."""

    spec_argument = "folder"  # the spec is mixture:DIR
    needs_observation = True
    per_table = True
    game = "lith"

    def __init__(
        self,
        folder: str | Path,
        seed: int | None = None,
        deterministic: bool = False,
        margin: float | None = None,
        config: Any = None,
    ) -> None:
        if margin is None:
            pool, members, weights = read_mixture(folder)
        else:
            pool, members, weights = margin_mixture(folder, margin)
        keep = np.flatnonzero(weights > 0)  # members the equilibrium dropped never play
        self.names = [members[i] for i in keep]
        self.weights = weights[keep] / weights[keep].sum()
        self.members = [
            make_agent(_member_spec(m, pool, deterministic), self.game, config=config)
            for m in self.names
        ]
        self.rng = np.random.default_rng(seed)
        self.current = 0
        self.table_member = np.zeros(0, dtype=np.int64)
        self.reset(seed)

    def _draw(self, count: int) -> np.ndarray:
        return self.rng.choice(len(self.members), size=count, p=self.weights)

    def reset(self, seed: int | None = None) -> None:
        """A new episode: reseed (with a seed) and draw the member that plays it."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            for i, member in enumerate(self.members):
                member.reset(seed=int(self.rng.integers(2**31)) + i)
        self.current = int(self._draw(1)[0])

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        return self.members[self.current].act(observation, action_mask)

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """Refused: the probability of an action at a decision depends on which member was
        drawn for the hand, which the decision alone does not say."""
        raise ValueError(
            "mixture: a mixture of strategies, one drawn per hand, has no action_probabilities "
            "at a single decision; measure it with a learned exploiter (training.exploiter)"
        )

    def reset_tables(self, tables: np.ndarray) -> None:
        """New episodes at ``tables``: a member drawn for each."""
        self.table_member = assign_tables(self.table_member, tables, self._draw(len(tables)))

    def act_batch(
        self, observations: Any, action_masks: np.ndarray, tables: np.ndarray | None = None
    ) -> np.ndarray:
        """Each row's action by its table's member (without ``tables``: the current one)."""
        if tables is None:
            return act_batch(self.members[self.current], observations, action_masks)
        return act_by_table(
            self.table_member, tables, self.members.__getitem__, observations, action_masks
        )


@register("lith", "mixture")
class LithMixture(MixtureAgent):
    game = "lith"


@register("gendeneia", "mixture")
class GendeneiaMixture(MixtureAgent):
    game = "gendeneia"
