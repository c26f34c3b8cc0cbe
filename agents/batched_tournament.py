"""Lith tournaments on the batched engine: every block of a duplicate tournament at once.

The same tournament as :func:`agents.tournament.run_tournament` — the same tables, blocks,
deals and seatings, summarized the same way — but the hands of many blocks are played together
by :class:`lith_env.batched.BatchedLith`, and each agent decides for all the tables where it
is to act in one ``act_batch`` call. Agents without randomness (``caller``, ``rock``, ``tag``,
``ppo:PATH`` played deterministically) give exactly the results of the per-table tournament;
agents that draw random numbers draw them from their own generator, seeded once from the
tournament's seed, not reseeded per block. No hand histories or analytics are kept.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from agents.base import act_batch, make_agent
from agents.tournament import BlockResult, TournamentSpec, _seed, summarize
from lith_env.batched import BatchedLith

__all__ = ["run_batched_tournament"]


def _deal(config, deal: int) -> tuple[list[int], int, bool]:
    """The deck order, dealer and demon coin of a deal, as the per-table tournament draws them."""
    rng = random.Random(deal)
    order = list(config.deck)
    rng.shuffle(order)
    return order, rng.randrange(config.num_players), rng.random() < 0.5


def run_batched_tournament(
    spec: TournamentSpec, tables_per_batch: int = 4096, progress: bool = False
) -> dict[str, Any]:
    """Play ``spec`` (Lith only) in batches of up to ``tables_per_batch`` tables."""
    if spec.game != "lith":
        raise ValueError(f"batched tournaments play Lith only, got game {spec.game!r}")
    if spec.histories:
        raise ValueError("histories: the batched tournament keeps no hand records")
    config = spec.config()
    agents = [make_agent(name, "lith", config=config) for name in spec.agents]
    for i, agent in enumerate(agents):
        agent.reset(seed=_seed(spec.seed, 1000 + i))
    n = spec.players
    tables = spec.tables()
    # Every game of the tournament: (block, rotation) -> seating and deal.
    games = [(b, r) for b in range(spec.num_blocks()) for r in range(n)]
    results = {
        b: BlockResult(b, tables[b // spec.blocks_per_table()], {}, {}, {}, [])
        for b in range(spec.num_blocks())
    }
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task("lith tournament (batched)", total=len(games))
    try:
        for start in range(0, len(games), tables_per_batch):
            chunk = games[start : start + tables_per_batch]
            _play_chunk(spec, config, agents, chunk, results)
            if bar:
                bar.advance(job, len(chunk))
    finally:
        if bar:
            bar.stop()
    return summarize(spec, [results[b] for b in sorted(results)])


def _play_chunk(spec, config, agents, chunk, results) -> None:
    n = spec.players
    tables = spec.tables()
    seatings = np.array(
        [
            [tables[b // spec.blocks_per_table()][(seat - r) % n] for seat in range(n)]
            for b, r in chunk
        ]
    )
    deals = [
        _deal(config, _seed(spec.seed, b) if spec.duplicate else _seed(spec.seed, b, r))
        for b, r in chunk
    ]
    engine = BatchedLith(config, len(chunk), episode="hand")
    engine.reset_to_decks(
        np.array([d[0] for d in deals]),
        np.array([d[1] for d in deals]),
        np.array([d[2] for d in deals]),
    )
    actions = np.zeros(len(chunk), dtype=np.int64)
    rows = np.arange(len(chunk))
    while not engine.match_over.all():
        current = engine.current
        acting = current >= 0
        who = np.where(acting, seatings[rows, current.clip(0)], -1)
        for a, agent in enumerate(agents):
            mine = np.flatnonzero(who == a)
            if len(mine):
                observations = engine.encode(current[mine], mine)
                actions[mine] = act_batch(agent, observations, engine.action_masks(mine))
        engine.step(actions)
    net = engine.returns()
    for i, (b, _) in enumerate(chunk):
        result = results[b]
        for seat, agent_index in enumerate(seatings[i].tolist()):
            result.totals[agent_index] = result.totals.get(agent_index, 0) + int(net[i, seat])
            result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
        result.games.append([(int(a), -int(net[i, s])) for s, a in enumerate(seatings[i])])
