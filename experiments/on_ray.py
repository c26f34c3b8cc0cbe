"""Training seeds as Ray tasks: each worker trains and evaluates one seed and sends its run
folder back.

No shared file system is assumed: the experiment's TOML and the model files its agent specs
load (``opponents``, ``[experiment] against``; paths relative to the current folder) travel
with the task, the worker runs the experiment in a scratch folder laid out like this one,
and the run folder comes back packed and is unpacked where a run on this machine would have
written it. Training is seeded and single-threaded, so a seed's figures are the same here or
on any node.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from distributed.cluster import connect
from distributed.files import lay_out, ship, unpack_into
from distributed.tasks import in_scratch, map_tasks, relative_out
from experiments.recipe import run_experiment
from tablegame.registry import split_spec

__all__ = ["config_files", "run_seeds_on_ray"]


def config_files(path: Path) -> list[Path]:
    """The files and folders the agent specs of an experiment's TOML load (relative paths;
    ``ValueError`` naming an absolute one, which a worker could not lay out alike)."""
    values = tomllib.loads(Path(path).read_text())
    game = values.get("game", "lith")
    specs = list(values.get("opponents", []))
    for entry in values.get("experiment", {}).get("against", []):
        specs += entry if isinstance(entry, list) else [entry]  # a list: a mixed table
    found = []
    for spec in specs:
        if spec == "self":
            continue
        _, loaded, _ = split_spec(spec, game)
        if loaded is None:
            continue
        if Path(loaded).is_absolute():
            raise ValueError(
                f"{spec!r}: with --ray, model paths in the config must be relative to the "
                "current folder (the workers lay them out alike)"
            )
        found.append(Path(loaded))
    return found


def run_seeds_on_ray(
    path: Path,
    runs: dict[int, Path],
    address: str | None,
    timesteps: int | None = None,
    units: int | None = None,
) -> None:
    """Run the experiment at ``path`` once per seed of ``runs`` (seed -> run folder), each a
    Ray task with one CPU on the cluster at ``address`` (None: a local Ray); the run folders
    are written here."""
    path = Path(path)
    wanted = config_files(path)  # checked before connecting
    connect(address)
    files = ship(wanted)
    name = str(path) if not path.is_absolute() else path.name
    text = path.read_text()
    pieces = []
    for seed, run in runs.items():
        out = relative_out(run)
        pieces.append((out, _experiment, name, text, seed, out, files, timesteps, units))
    folders = list(runs.values())

    def arrived(i: int, answer: tuple[bytes, None]) -> None:
        unpack_into(answer[0], folders[i].parent)

    # each task: the experiment for one seed in a scratch folder, its run folder packed
    map_tasks(in_scratch, pieces, num_cpus=1, description="seeds (ray)", on_result=arrived)


def _experiment(config_name, config_text, seed, run, files, timesteps, units) -> None:
    """In the scratch folder: lay out the config and its files, run the experiment."""
    Path(config_name).parent.mkdir(parents=True, exist_ok=True)
    Path(config_name).write_text(config_text)
    lay_out(files)
    run_experiment(Path(config_name), timesteps, units, workers=1, seed=seed, out=run)
