"""Running independent pieces of work as Ray tasks, retried when a worker dies.

Every caller in the suite splits its work into pieces whose results depend only on their
arguments (a tournament's blocks, a training seed, an exploiter's target), so a piece that
runs twice, on another node after a crash, gives the same result, and the results are put
back in order whatever order they finish in.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["MAX_RETRIES", "in_scratch", "map_tasks", "relative_out"]

MAX_RETRIES = 3  # a task whose worker dies (killed process, lost node) runs again, up to this


def map_tasks(
    function: Callable[..., Any],
    arguments: Sequence[tuple],
    num_cpus: float = 1,
    description: str | None = None,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """``[function(*a) for a in arguments]``, each call a Ray task with ``num_cpus`` CPUs, on
    the cluster :func:`distributed.cluster.connect` joined. A progress bar with
    ``description``; ``on_result(i, result)`` as each finishes. An exception raised by
    ``function`` is raised here as its own type (not retried: it would fail again); a worker
    that dies has its task retried up to ``MAX_RETRIES`` times."""
    import ray

    remote = ray.remote(num_cpus=num_cpus, max_retries=MAX_RETRIES, retry_exceptions=False)(
        function
    )
    pending = {remote.remote(*a): i for i, a in enumerate(arguments)}
    results: list[Any] = [None] * len(pending)
    bar = None
    if description:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task(description, total=len(pending))
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    results[i] = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    raise error.as_instanceof_cause() from None
                if on_result:
                    on_result(i, results[i])
                if bar:
                    bar.advance(job)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if bar:
            bar.stop()
    return results


def relative_out(out: str | Path) -> str:
    """Where a task writes a run whose folder here is ``out``: the same path if relative
    (so the files name it as a run here would), else the path below the root."""
    out = Path(out)
    return str(out if not out.is_absolute() else Path(*out.parts[1:]))


def in_scratch(out: str, function: Callable[..., Any], *arguments: Any) -> tuple[bytes, Any]:
    """On a worker: ``function(*arguments)`` run in a fresh scratch folder (the current
    folder meanwhile), which is then removed; its folder ``out`` packed, and its result."""
    from distributed.files import pack

    root = Path(tempfile.mkdtemp(prefix="decktet-task-"))
    previous = os.getcwd()
    os.chdir(root)
    try:
        result = function(*arguments)
        return pack(Path(out)), result
    finally:
        os.chdir(previous)
        shutil.rmtree(root, ignore_errors=True)
