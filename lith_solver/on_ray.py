"""Several solver configurations as Ray tasks (``decktet solve --vary ... --ray``).

Each configuration is solved in a task with one CPU, in a scratch folder; its output folder
(strategy, solution.json, the curve) comes back and is unpacked where a solve here would have
written it. The solver is deterministic: the same strategies and figures as here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from distributed.cluster import connect
from distributed.files import unpack_into
from distributed.tasks import in_scratch, map_tasks, relative_out
from lith_solver.solving import solve_to_folder

__all__ = ["solve_on_ray"]


def solve_on_ray(
    jobs: list[tuple[dict[str, Any], str]],
    settings: tuple[int, float | None, int],
    address: str | None,
) -> list[dict[str, Any]]:
    """Solve every ``(rules, out)`` of ``jobs`` with ``settings`` (iterations, target,
    check_every) on the Ray cluster at ``address`` (None: a local Ray); each run's record,
    in order."""
    connect(address)
    infos: list[dict[str, Any]] = [{} for _ in jobs]

    def arrived(i: int, answer: tuple[bytes, dict[str, Any]]) -> None:
        packed, infos[i] = answer
        unpack_into(packed, Path(jobs[i][1]).parent)

    pieces = [
        (relative_out(out), solve_to_folder, rules, *settings, relative_out(out))
        for rules, out in jobs
    ]
    map_tasks(in_scratch, pieces, num_cpus=1, description="solves (ray)", on_result=arrived)
    return infos
