"""Tournaments across processes (``ray``): a duplicate tournament in one process, two
processes and a local Ray of one and two CPUs, and what a Ray task costs."""

from __future__ import annotations

from rich.console import Console

from benchmarks.common import median_seconds, new_table

__all__ = ["bench_ray", "print_ray"]


def bench_ray(hands: int, repeat: int) -> dict:
    """Tournament hands/s in one process, two processes and a local Ray of 1 and 2 CPUs, and
    Ray's cost per task, timed in the same run (medians over ``repeat``)."""
    import ray

    from distributed.cluster import connect
    from tournaments.on_ray import MIN_BLOCKS_PER_TASK, run_tournament_on_ray
    from tournaments.per_table import run_tournament
    from tournaments.spec import TournamentSpec

    spec = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=hands, seed=1)
    small = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=400, seed=2)
    timings = median_seconds(
        {
            "one process": lambda: run_tournament(spec),
            "2 processes (--workers 2)": lambda: run_tournament(spec, workers=2),
        },
        repeat,
    )
    block_seconds = median_seconds({"small": lambda: run_tournament(small)}, repeat)["small"]
    per_task = {}
    for cpus in (1, 2):
        connect(None, num_cpus=cpus)
        name = f"Ray, {cpus} CPU{'s' if cpus > 1 else ''} (--ray)"
        timings.update(median_seconds({name: lambda: run_tournament_on_ray(spec)}, repeat))
        if cpus == 1:
            one_a_task = median_seconds(
                {"tasks": lambda: run_tournament_on_ray(small, task_blocks=1)}, repeat
            )["tasks"]
            blocks = small.num_blocks()
            per_task = {
                "seconds a block": block_seconds / blocks,
                "seconds a task": (one_a_task - block_seconds) / blocks,
            }
        ray.shutdown()
    per_task["overhead at the default task size"] = per_task["seconds a task"] / (
        MIN_BLOCKS_PER_TASK * per_task["seconds a block"]
    )
    per_task["default blocks a task (at least)"] = MIN_BLOCKS_PER_TASK
    base = timings["one process"]
    return {
        "hands": spec.num_blocks() * spec.players,
        "runs": {
            name: {"seconds": t, "hands/s": hands / t, "speed-up": base / t}
            for name, t in timings.items()
        },
        "tasks": per_task,
    }


def print_ray(result: dict, console: Console) -> None:
    table = new_table(
        f"Duplicate tournament, {result['hands']:,} hands (medians)",
        ("run", "seconds", "hands/s", "against one process"),
    )
    for name, figures in result["runs"].items():
        table.add_row(
            name,
            f"{figures['seconds']:.2f}",
            f"{figures['hands/s']:,.0f}",
            f"{figures['speed-up']:.2f}x",
        )
    console.print(table)
    tasks = result["tasks"]
    console.print(
        f"  a block: {tasks['seconds a block'] * 1e3:.2f} ms; a Ray task adds "
        f"{tasks['seconds a task'] * 1e3:.2f} ms; at {tasks['default blocks a task (at least)']} "
        f"blocks a task that is {tasks['overhead at the default task size']:.1%}"
    )
