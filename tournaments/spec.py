"""What a duplicate tournament plays: its spec, a block's result, and how both are seeded.

A *block* is one deal played in every rotation of the seating (``tournaments`` explains the
dealing). Every random choice follows from the spec's seed and the block's number, so a block
gives the same result in any process: the per-table and batched tournaments, and their Ray
tasks, all play blocks through these.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

import numpy as np

from games import game_config, game_info
from tablegame.registry import make_agent

__all__ = [
    "BlockResult",
    "TournamentSpec",
    "block_seed",
    "built_agents",
    "check_units",
    "reset_agents",
]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play. ``units`` is hands (Lith) or games (Gendeneía) per table."""

    game: str
    agents: tuple[str, ...]
    players: int
    units: int
    seed: int = 0
    duplicate: bool = True
    rules: dict = field(default_factory=dict)
    histories: bool = False
    analytics: bool = True
    lineup: tuple[int, ...] | None = None  # one fixed table of agent indices, e.g. (0, 1, 1)
    # The specs to build the agents from, when they differ from the labels in ``agents`` (on
    # a Ray worker: the same agents loading that node's copies of their model files).
    sources: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # An agent's label is its spec as given (surrounding spaces dropped): results, records,
        # decisions and plots all name it so, so two agents may not share one.
        labels = tuple(a.strip() if isinstance(a, str) else a for a in self.agents)
        object.__setattr__(self, "agents", labels)
        for i, label in enumerate(labels):
            if label in labels[:i]:
                raise ValueError(
                    f"agents: {label!r} is listed twice (seat copies of one agent with a lineup)"
                )
        if not (type(self.players) is int and self.players >= 1):
            raise ValueError(f"players: must be a positive integer, got {self.players!r}")
        if not (type(self.units) is int and self.units >= self.players):
            raise ValueError(
                f"units: must be at least one block ({self.players}, one hand or game per "
                f"rotation of the seating), got {self.units!r}"
            )
        if self.sources is not None and len(self.sources) != len(labels):
            raise ValueError(f"sources: one spec per agent ({len(labels)}), got {self.sources!r}")

    def config(self):
        return game_config(self.game, self.players, self.rules)

    def builds(self) -> tuple[str, ...]:
        """The specs the agents are built from: ``sources``, else the labels."""
        return self.sources if self.sources is not None else self.agents

    def tables(self) -> list[tuple[int, ...]]:
        """Agent indices seated at each table, in seat order for rotation 0."""
        m, n = len(self.agents), self.players
        if self.lineup is not None:
            if len(self.lineup) != n or not all(0 <= i < m for i in self.lineup):
                raise ValueError(f"lineup: {n} agent indices below {m}, got {self.lineup!r}")
            return [tuple(self.lineup)]
        if m >= n:
            return list(itertools.combinations(range(m), n))
        return [tuple(i % m for i in range(n))]

    def blocks_per_table(self) -> int:
        """Blocks of ``players`` hands or games per table: ``units // players`` (a remainder
        short of a whole block is not played; the command line rejects one)."""
        return self.units // self.players

    def num_blocks(self) -> int:
        return len(self.tables()) * self.blocks_per_table()


@dataclass
class BlockResult:
    """One block: the table, and per agent index its total result and the hands/games played."""

    index: int
    table: tuple[int, ...]
    totals: dict[int, float]  # Lith: chips won; Gendeneía: wins (ties shared)
    scores: dict[int, float]  # Gendeneía: summed scores (Lith: unused)
    plays: dict[int, int]  # hands or games each agent played
    games: list[list[tuple[int, float]]]  # per hand/game: (agent index, result) for ratings
    records: list[dict] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)
    analysed: int = 0  # hands whose decisions are in ``decisions``


def block_seed(*parts: int) -> int:
    """A seed from a tournament's seed and the numbers of a block (and a rotation, a seat)."""
    return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


@functools.cache
def built_agents(agent_specs: tuple[str, ...], game: str, config) -> list:
    """One instance per agent spec, made once per process and reseeded every block."""
    return [make_agent(spec, game, config=config) for spec in agent_specs]


def reset_agents(agents: list, seed: int, block: int) -> None:
    """Reseed every agent for block ``block``: the same agents play a block alike anywhere."""
    for i, agent in enumerate(agents):
        agent.reset(seed=block_seed(seed, block, 1000 + i))


def check_units(units: int, players: int, game: str, duplicate: bool = True) -> None:
    """Raise ``ValueError`` naming the flag unless ``units`` is a whole number of blocks."""
    info = game_info(game)
    flag, what = info.units_flag, info.units
    if units < players or units % players:
        how = (
            f"one deal played in each of the {players} rotations of the seating"
            if duplicate
            else f"the {players} rotations of the seating, each dealt afresh with --plain"
        )
        raise ValueError(
            f"{flag}: must be a positive multiple of {players}, the {what} in a block ({how}), "
            f"got {units}"
        )
