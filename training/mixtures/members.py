"""Members the mixtures put in a run's pool folder: exploiters trained into it, and the one
member the other seat plays alone (``mixture.json``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch

from training.config import TrainConfig
from training.exploiter import ExploiterSpec, train_exploiter

__all__ = ["keep_newest_two", "play_only", "pool_exploiter", "step_of"]


def step_of(path: Path) -> int:
    """The step in a pool member's name: ``exploiter_4096.zip`` -> 4096."""
    return int(path.name.split(".")[0].rsplit("_", 1)[1])


def play_only(pool: Path, member: str) -> None:
    """Make ``member`` the other seat's only player: ``mixture.json`` names it alone."""
    scratch = pool / "mixture.json.part"  # replaced in one step: envs read it any time
    scratch.write_text(json.dumps({"members": [member], "weights": [1.0]}))
    scratch.replace(pool / "mixture.json")


def keep_newest_two(pool: Path, pattern: str, steps: int) -> None:
    """Remove the pool's ``pattern`` files and folders but those of ``steps`` and the one
    before (a subprocess env may still be loading it), and any of later steps (an earlier
    run's)."""
    found = list(pool.glob(pattern))
    keep = sorted({step_of(p) for p in found if step_of(p) <= steps})[-2:]
    for old in found:
        if step_of(old) not in keep:
            shutil.rmtree(old) if old.is_dir() else old.unlink()


def pool_exploiter(
    config: TrainConfig,
    target: str,
    out: Path,
    seed: int,
    final_units: int,
    warm_start: Path | None = None,
) -> dict[str, Any]:
    """Train an exploiter of the agent spec ``target`` for ``exploiter_steps`` in the folder
    ``out`` and copy it beside it as ``OUT.zip``, a pool member; returns what
    ``training.exploiter.train_exploiter`` does."""
    spec = ExploiterSpec(
        game=config.game,
        players=config.players,
        target=target,
        out=str(out),
        timesteps=config.exploiter_steps,
        rules=config.rules,
        seed=seed,
        eval_every=0,
        final_units=final_units,
        warm_start=str(warm_start) if warm_start is not None else None,
    )
    found = train_exploiter(spec, say=lambda _: None)
    torch.set_num_threads(config.torch_threads)  # the exploiter ran on one
    shutil.copyfile(out / "exploiter.zip", out.with_name(f"{out.name}.zip"))
    return found
