"""Duplicate tournaments on a Ray cluster, identical to the same tournament in one process.

A block's result depends only on the tournament and the block's number (its deal, seating and
the agents' reseeding all follow from them), so the blocks are cut into tasks of
``blocks_per_task`` consecutive blocks, played wherever Ray puts them, and put back in order
before the summary: the same figures, digit for digit, for any number of nodes and workers.
Batched tournaments are cut at their batches (whole blocks, ``tables_per_batch`` tables), each
batch reseeding its agents from its first block, exactly as in one process.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from distributed.cluster import cluster_cpus, connect
from distributed.files import Shipment
from distributed.tasks import map_tasks
from games import game_info, games_with
from tournaments.batched_tables import TABLES_PER_BATCH, batches, play_batch, recorded_hands
from tournaments.per_table import play_block
from tournaments.results import summarize
from tournaments.spec import BlockResult, TournamentSpec, built_agents

__all__ = ["MIN_BLOCKS_PER_TASK", "blocks_per_task", "run_tournament_on_ray"]

# Per-table blocks per task at least: a heads-up block of heuristics takes about 1 ms and a
# task costs a few (benchmarks/run.py ray measures both); 200 keeps the overhead under 5%.
MIN_BLOCKS_PER_TASK = 200
TASKS_PER_CPU = 4  # enough tasks to even out the load and to lose little when one is retried


def blocks_per_task(num_blocks: int, cpus: int) -> int:
    """Blocks per task: ``TASKS_PER_CPU`` tasks a CPU, but never fewer than
    ``MIN_BLOCKS_PER_TASK`` blocks a task."""
    return max(MIN_BLOCKS_PER_TASK, math.ceil(num_blocks / (cpus * TASKS_PER_CPU)))


def run_tournament_on_ray(
    spec: TournamentSpec,
    address: str | None = None,
    num_cpus: int | None = None,
    batched: bool = False,
    record: int | str | None = None,
    task_blocks: int | None = None,
    tables_per_batch: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``spec`` on the Ray cluster at ``address`` (None: a local Ray with ``num_cpus``
    CPUs) and summarize it as :func:`tournaments.per_table.run_tournament` (or, ``batched``,
    :func:`tournaments.batched_tables.run_batched_tournament` with ``record``) would: the same
    result. ``task_blocks`` (per-table) or ``tables_per_batch`` (batched) size the tasks."""
    built_agents.cache_clear()  # the rules and the agent specs are checked before connecting
    built_agents(spec.agents, spec.game, spec.config())
    if batched and not game_info(spec.game).batched_engine:
        raise ValueError(
            f"batched tournaments play {games_with('batched_engine', titles=True)} only, "
            f"got game {spec.game!r}"
        )
    if not batched and record is not None:
        raise ValueError("record: only for a batched tournament")
    for name, value in (("task_blocks", task_blocks), ("tables_per_batch", tables_per_batch)):
        if value is not None and not (type(value) is int and value >= 1):
            raise ValueError(f"{name}: must be a positive integer, got {value!r}")
    connect(address, num_cpus)
    shipment = Shipment(spec.agents, spec.game)
    kind = f"{spec.game} {'batched' if batched else 'tournament'}"
    description = f"{kind} (ray)" if progress else None
    if batched:
        sample = recorded_hands(spec, record)
        pieces = [
            (spec, shipment, first, stop, {g for g in sample if first <= g[0] < stop})
            for first, stop in batches(spec, tables_per_batch or TABLES_PER_BATCH)
        ]
        results = map_tasks(_play_batch, pieces, description=description)
    else:
        total = spec.num_blocks()
        cpus = cluster_cpus()
        size = task_blocks or blocks_per_task(total, cpus)
        pieces = [
            (spec, shipment, first, min(first + size, total)) for first in range(0, total, size)
        ]
        results = map_tasks(_play_blocks, pieces, description=description)
    blocks: list[BlockResult] = [block for piece in results for block in piece]
    return summarize(spec, sorted(blocks, key=lambda block: block.index))


def _on_worker(spec: TournamentSpec, shipment: Shipment) -> TournamentSpec:
    return dataclasses.replace(spec, sources=shipment.local_specs())


def _play_blocks(
    spec: TournamentSpec, shipment: Shipment, first: int, stop: int
) -> list[BlockResult]:
    """A task: blocks ``first`` to ``stop`` of a per-table tournament."""
    local = _on_worker(spec, shipment)
    return [play_block(local, index) for index in range(first, stop)]


def _play_batch(
    spec: TournamentSpec, shipment: Shipment, first: int, stop: int, sample: set
) -> list[BlockResult]:
    """A task: one batch of a batched tournament."""
    return play_batch(_on_worker(spec, shipment), first, stop, sample)
