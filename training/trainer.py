"""A training run from start to end: its folder, the vectorized envs, MaskablePPO, the
callbacks, and resuming from the newest checkpoint.

The run folder keeps config.json (the resolved options, and the versions of Python and of the
packages that shape the results), model.zip, checkpoints/, pool/ (self-play snapshots and
population members), metrics.json (evaluations and the opponent pool over time) and
TensorBoard logs (``tensorboard --logdir runs``).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablegame.cli import check_unused
from tablegame.provenance import versions
from training.config import TrainConfig

__all__ = [
    "latest_checkpoint",
    "learner_class",
    "learning_rate",
    "load_for_resume",
    "steps_of",
    "train",
]


def latest_checkpoint(run: Path) -> Path | None:
    """What a resume continues from: the file with the most steps among the checkpoints and
    ``model.zip`` (``model.zip`` on a tie: it is saved after the last update, a checkpoint of
    the same step before it)."""
    candidates = [(steps_of(p), 0, p) for p in run.glob("checkpoints/model_*_steps.zip")]
    final = run / "model.zip"
    if final.is_file():
        candidates.append((steps_of(final), 1, final))
    return max(candidates)[2] if candidates else None


def steps_of(path: Path) -> int:
    """The learner steps a saved model had trained: from a checkpoint's name, or from the
    model's saved data; a ValueError if the file cannot be read."""
    if path.name.startswith("model_") and path.name.endswith("_steps.zip"):
        return int(path.name.split("_")[1])
    try:
        with zipfile.ZipFile(path) as archive:
            return int(json.loads(archive.read("data"))["num_timesteps"])
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"resume: cannot continue from {str(path)!r}: {error}") from None


def learning_rate(config: TrainConfig) -> Any:
    """PPO's learning rate: constant, or SB3's linear schedule from ``learning_rate`` at the
    first step to ``learning_rate_end`` at ``timesteps``."""
    if config.learning_rate_end is None:
        return config.learning_rate
    from stable_baselines3.common.utils import LinearSchedule

    return LinearSchedule(config.learning_rate, config.learning_rate_end, end_fraction=1.0)


def learner_class(config: TrainConfig) -> type:
    """The learner of ``config.algorithm``: MaskablePPO, or its MMD or DMC variant."""
    if config.algorithm == "dmc":
        from training.dmc import DMC

        return DMC
    if config.algorithm == "mmd":
        from training.mmd import MMD

        return MMD
    from sb3_contrib import MaskablePPO

    return MaskablePPO


def load_for_resume(path: Path, env, config: TrainConfig):
    """A checkpoint that loads and fits the env, or a ValueError saying what is wrong."""
    try:
        model = learner_class(config).load(path, env=env, device="cpu")
    except Exception as error:  # corrupt file, or spaces that do not match the env
        raise ValueError(f"resume: cannot continue from {str(path)!r}: {error}") from None
    return model


def _start_over(run: Path) -> None:
    """A fresh run in a used folder starts over: an earlier run's snapshots would join its
    self-play pool, its checkpoints would be what a later --resume picks up, and its
    evaluations would be mixed with the new ones."""
    pool_dir = run / "pool"
    for stale in [
        *pool_dir.glob("snapshot_*.zip"),
        *pool_dir.glob("exploiter_*.zip"),
        *pool_dir.glob("learner_*.zip"),
        *run.glob("checkpoints/model_*.zip"),
        run / "metrics.json",
        pool_dir / "population.json",
        pool_dir / "mixture.json",
        pool_dir / "psro.json",  # training.psro's log of iterations on the old population
        run / "population.png",
    ]:
        stale.unlink(missing_ok=True)
    for folder in [*pool_dir.glob("exploiter_*"), *pool_dir.glob("best_response_*")]:
        if folder.is_dir():
            shutil.rmtree(folder)


def _vector_env(config: TrainConfig, pool_dir: Path):
    """The run's envs: the batched engine, or one env a process or all in this one."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from training.opponents import make_batched_env, make_env

    if config.vec_env == "batched":
        return make_batched_env(config, pool_dir)
    factories = [make_env(config, rank, pool_dir) for rank in range(config.n_envs)]
    return SubprocVecEnv(factories) if config.vec_env == "subproc" else DummyVecEnv(factories)


def _new_model(config: TrainConfig, vec, run: Path):
    """A fresh learner of ``config.algorithm`` with the options that algorithm uses."""
    if config.algorithm == "dmc":
        # Monte Carlo returns: gamma = gae_lambda = 1, DMC's own, and no clip or entropy.
        return _learner(config, vec, run, temperature=config.temperature)
    if config.algorithm == "mmd":
        extra: dict[str, Any] = {
            "kl_coef": config.kl_coef,
            "magnet_coef": config.magnet_coef,
            "magnet": config.magnet,
            "magnet_every": config.magnet_every,
            "magnet_anneal": config.magnet_anneal,
        }
    else:
        extra = {"clip_range": config.clip_range}
    return _learner(
        config, vec, run, gamma=config.gamma, gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef, **extra,
    )  # fmt: skip


def _learner(config: TrainConfig, vec, run: Path, **extra: Any):
    """The learner with the settings every algorithm shares, plus ``extra``."""
    return learner_class(config)(
        "MlpPolicy",
        vec,
        learning_rate=learning_rate(config),
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        vf_coef=config.vf_coef,
        **extra,
        policy_kwargs={"net_arch": list(config.net_arch)},
        tensorboard_log=str(run / "tensorboard"),
        seed=config.seed,
        device="cpu",
        verbose=0,
    )


def train(
    config: TrainConfig, resume: bool = False, console: Any = None, overwrite: bool = False
) -> Path:
    """Train (or continue) a run; returns the run folder. Lines (evaluations, and without a
    progress bar checkpoints and snapshots) and the bar go to ``console`` (a rich Console;
    default: stdout). The bar shows only if ``config.progress_bar`` and it is a terminal.

    A new run in a folder that already holds files is a ``ValueError`` naming ``--out``,
    unless ``overwrite``: the earlier run's model and logs would be replaced."""
    config.validate()
    if not resume and not overwrite:
        check_unused(Path(config.out), "--out", resume="--resume")
    from rich.console import Console

    console = console if console is not None else Console()
    run = Path(config.out)
    previous: dict[str, Any] = {}
    done = 0
    if resume:
        checkpoint = latest_checkpoint(run)
        if checkpoint is None:
            raise ValueError(f"resume: no checkpoint or model.zip in {str(run)!r}")
        done = steps_of(checkpoint)
        if done >= config.timesteps:
            raise ValueError(
                f"--timesteps: the run in {str(run)!r} has trained {done:,} steps already "
                f"({checkpoint.name}); give --timesteps above {done} to train on"
            )
        previous = _saved_versions(run)

    import torch

    torch.set_num_threads(config.torch_threads)
    run.mkdir(parents=True, exist_ok=True)
    if not resume:
        _start_over(run)
    vec = _vector_env(config, run / "pool")
    try:
        model = load_for_resume(checkpoint, vec, config) if resume else _new_model(config, vec, run)
        found = versions()
        record = {**dataclasses.asdict(config), "versions": found}
        (run / "config.json").write_text(json.dumps(record, indent=2))
        changed = [f"{k} {previous[k]} -> {v}" for k, v in found.items() if previous.get(k, v) != v]
        if changed:
            say = _sayer(console)
            say(f"note: resuming with other versions than before: {'; '.join(changed)}")
        _learn(model, config, run, console, resume, done)
        model.save(run / "model.zip")
    finally:
        vec.close()
    return run


def _saved_versions(run: Path) -> dict[str, Any]:
    """The versions an earlier run recorded in its config.json (none if it did not)."""
    try:
        return dict(json.loads((run / "config.json").read_text()).get("versions", {}))
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def _sayer(console: Any) -> Callable[[str], None]:
    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False, soft_wrap=True)

    return say


def _learn(model, config: TrainConfig, run: Path, console: Any, resume: bool, done: int) -> None:
    """Train from ``done`` steps to ``config.timesteps`` (rounded up to whole rollouts)."""
    from training.callbacks import make_callbacks, progress_callback

    say = _sayer(console)
    planned = config.planned_steps(done)
    bar = config.progress_bar and console.is_terminal
    say(
        f"{config.game}, {config.players} players, against {','.join(config.opponents)}: "
        f"training steps {done:,} to {planned:,} (whole rollouts of {config.rollout_steps:,}) "
        f"in {run}"
    )
    callbacks = make_callbacks(config, run, say, verbose=not bar)
    if bar:
        callbacks.append(progress_callback(planned - done, console))
    try:
        model.learn(
            total_timesteps=config.timesteps - done,
            callback=callbacks,
            reset_num_timesteps=not resume,
            tb_log_name="ppo",
        )
    finally:
        if bar:
            callbacks[-1].progress.stop()  # also when training fails half-way
